"""The operator's command line (issue 26): paytable list and activate, a kiosk that never
rewrites cabinet.yaml, a headless run that stops on a tilt, etg paths, the cabinet's ledger by
default, export --out, --quiet / --verbose, and messages that say what is true."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from etg.cli import main
from etg.config.cabinet_edit import set_cabinet_value
from etg.config.loader import load_cabinet, load_paytable
from etg.core.commands import CashIn, CashOut
from etg.core.rng import SeededSource
from etg.ledger.store import Ledger, LedgerKind
from etg.ledger.verify import check_paytable
from etg.table.controller import Table
from etg.table.pin import hash_pin
from tests.kiosk_support import config_copy
from tests.ledger_support import play, played_ledger, real_ledger

OPERATOR_PIN = "2468"
SUPERVISOR_PIN = "1357"


def invoke(*args: str, stdin: str | None = None) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, list(args), input=stdin)
    assert result.exception is None or isinstance(result.exception, SystemExit), result.output
    return result.exit_code, result.stdout, result.stderr


def _cabinet(tmp_path: Path) -> tuple[Path, Path]:
    """A site configuration with operator and supervisor PINs, and its real ledger (played)."""
    config = config_copy(tmp_path)
    cabinet_file = config / "cabinet.yaml"
    set_cabinet_value(cabinet_file, "operator_pin_hash", hash_pin(OPERATOR_PIN))
    set_cabinet_value(cabinet_file, "supervisor_pin_hash", hash_pin(SUPERVISOR_PIN))
    db = tmp_path / "cabinet.db"
    set_cabinet_value(cabinet_file, "database", str(db))
    loaded = load_paytable(config / "paytables" / "maryland-community-5.yaml")
    Table.open(real_ledger(db, config), loaded).close()  # as etg ledger init, keys in config
    return config, db


def _credit(db: Path, config: Path, cents: int) -> None:
    loaded = load_paytable(config / "paytables" / "maryland-community-5.yaml")
    table = Table.open(Ledger.open(db, config_dir=config), loaded)
    table.send(CashIn(1, cents), actor="attendant 1")
    table.close()


# --- paytable list / activate ----------------------------------------------------------------

def test_paytable_list_gives_id_file_hash_approval_and_the_active_one(tmp_path: Path) -> None:
    config, _ = _cabinet(tmp_path)
    bad = config / "paytables" / "broken.yaml"
    bad.write_text("id: broken\n", encoding="utf-8")
    code, out, _ = invoke("paytable", "list", "--config", str(config), "--json")
    assert code == 0
    rows = {Path(row["file"]).name: row for row in json.loads(out)["paytables"]}
    five = rows["maryland-community-5.yaml"]
    assert five["id"] == "md-community-5" and five["approved"] and five["active"]
    assert five["sha256"] == load_paytable(config / "paytables" /
                                           "maryland-community-5.yaml").sha256
    assert not rows["maryland-community-7.yaml"]["active"]
    assert rows["broken.yaml"]["approved"] is False and rows["broken.yaml"]["error"]
    code, out, _ = invoke("paytable", "list", "--config", str(config))
    assert code == 0 and "md-community-7" in out and "no: " in out


def test_activate_switches_with_the_operator_pin_and_records_it_as_the_menu_does(
        tmp_path: Path) -> None:
    config, db = _cabinet(tmp_path)
    code, out, err = invoke("paytable", "activate", "md-community-7", "--config", str(config),
                            "--pin-stdin", stdin=f"{OPERATOR_PIN}\n")
    assert code == 0, err
    seven = load_paytable(config / "paytables" / "maryland-community-7.yaml")
    assert out == f"md-community-7 active (sha256 {seven.sha256})\n"
    assert load_cabinet(config / "cabinet.yaml").active_paytable == \
        "paytables/maryland-community-7.yaml"
    ledger = Ledger.open_readonly(db)
    try:
        [change] = ledger.event_log("paytable_change")[-1:]
        assert change["details"]["new_sha256"] == seven.sha256
        assert ledger.setting("paytable_sha256") == seven.sha256
        assert ledger.event_log("pin_ok")[-1]["details"]["role"] == "operator"
        action = ledger.event_log("operator_menu")[-1]["details"]
        assert (action["action"], action["paytable_id"], action["refused"]) == \
            ("switch_paytable", "md-community-7", None)
    finally:
        ledger.close()


def test_activate_is_refused_with_credits_on_a_seat_and_nothing_changes(tmp_path: Path) -> None:
    config, db = _cabinet(tmp_path)
    _credit(db, config, 2_000)
    cabinet_before = (config / "cabinet.yaml").read_bytes()
    code, _, err = invoke("paytable", "activate", "md-community-7", "--config", str(config),
                          "--pin-stdin", stdin=f"{OPERATOR_PIN}\n")
    assert code == 1 and "md-community-7 not activated" in err and "credit" in err.lower()
    assert (config / "cabinet.yaml").read_bytes() == cabinet_before
    ledger = Ledger.open_readonly(db)
    try:
        assert len(ledger.event_log("paytable_change")) == 1  # the genesis only
    finally:
        ledger.close()


def test_activate_refuses_a_paytable_the_kiosk_would_not_start_on(tmp_path: Path) -> None:
    """Issue 26: a wager returning 100 % or more is never put into use, from the command line
    as from the operator menu (a Tie Wager at 30 to 1 returns 713/311, 229.26 %)."""
    config, db = _cabinet(tmp_path)
    seven = (config / "paytables" / "maryland-community-7.yaml").read_text(encoding="utf-8")
    generous = seven.replace("id: md-community-7", "id: md-generous").replace(
        "  tie: {pays: 10, to: 1}", "  tie: {pays: 30, to: 1}")
    assert generous.count("md-generous") == 1 and "pays: 30" in generous
    (config / "paytables" / "generous.yaml").write_text(generous, encoding="utf-8")
    cabinet_before = (config / "cabinet.yaml").read_bytes()
    code, out, err = invoke("paytable", "activate", "md-generous", "--config", str(config),
                            "--pin-stdin", stdin=f"{OPERATOR_PIN}\n")
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and "229.26 %" in err and "md-generous was not activated" in err
    assert (config / "cabinet.yaml").read_bytes() == cabinet_before
    ledger = Ledger.open_readonly(db)
    try:
        assert len(ledger.event_log("paytable_change")) == 1  # the genesis only
        assert ledger.event_log("pin_ok") == []  # refused before the PIN was asked
    finally:
        ledger.close()


def test_activate_with_a_wrong_pin_changes_nothing_and_logs_the_attempt(tmp_path: Path) -> None:
    config, db = _cabinet(tmp_path)
    cabinet_before = (config / "cabinet.yaml").read_bytes()
    code, _, err = invoke("paytable", "activate", "md-community-7", "--config", str(config),
                          "--pin-stdin", stdin="9999\n")
    assert code == 1 and err == "wrong operator PIN; md-community-7 was not activated\n"
    assert (config / "cabinet.yaml").read_bytes() == cabinet_before
    ledger = Ledger.open_readonly(db)
    try:
        assert ledger.event_log("pin_failed")[-1]["details"]["role"] == "operator"
        assert len(ledger.event_log("paytable_change")) == 1
    finally:
        ledger.close()


def test_activate_names_an_unknown_id_in_one_line(tmp_path: Path) -> None:
    config, _ = _cabinet(tmp_path)
    code, out, err = invoke("paytable", "activate", "no-such", "--config", str(config),
                            "--pin-stdin", stdin=f"{OPERATOR_PIN}\n")
    assert (code, out) == (2, "")
    assert err == (f"no approved paytable 'no-such' in {config / 'paytables'} "
                   f"(etg paytable list)\n")


@pytest.mark.slow
def test_a_cabinet_yaml_that_disagrees_with_the_ledger_tilts_and_is_never_rewritten(
        tmp_path: Path) -> None:
    """Issue 26 finding 7: the kiosk rewrote an operator's active_paytable back."""
    config = config_copy(tmp_path)
    cabinet_file = config / "cabinet.yaml"
    set_cabinet_value(cabinet_file, "supervisor_pin_hash", hash_pin(SUPERVISOR_PIN))
    five = load_paytable(config / "paytables" / "maryland-community-5.yaml")
    seven = load_paytable(config / "paytables" / "maryland-community-7.yaml")
    db = tmp_path / "demo.db"
    table = Table.open(Ledger.open(db, kind=LedgerKind.DEMO, config_dir=config), five,
                       SeededSource(2))  # the keys of the --config the kiosk is run with
    play(table, 2)
    for seat, credits in enumerate(table.state.credits, start=1):
        if credits:
            table.send(CashOut(seat), actor="attendant 1")
    table.switch_paytable(seven, "operator 1")
    table.close()  # the ledger plays 7; cabinet.yaml, as an operator left it, names 5
    written = cabinet_file.read_bytes()
    code, _, err = invoke("run", "--headless", "--demo", "--rounds", "1", "--frames", "3000",
                          "--config", str(config), "--db", str(db))
    assert code == 2
    assert cabinet_file.read_bytes() == written
    assert "TILT" in err and "cabinet.yaml names paytable `md-community-5`" in err
    assert "the ledger's last paytable switch made `md-community-7` active" in err
    assert "etg paytable activate md-community-5" in err
    # The way out it names: a supervisor acknowledges, the operator activates.
    ledger = Ledger.open_readonly(db)
    tilt = ledger.event_log("tilt")[-1]["id"]
    ledger.close()
    code, _, err = invoke("ledger", "acknowledge", "--db", str(db), "--tilt", str(tilt),
                          "--config", str(config), "--pin-stdin", stdin=f"{SUPERVISOR_PIN}\n")
    assert code == 0, err
    set_cabinet_value(cabinet_file, "operator_pin_hash", hash_pin(OPERATOR_PIN))
    code, _, err = invoke("paytable", "activate", "md-community-5", "--config", str(config),
                          "--db", str(db), "--pin-stdin", stdin=f"{OPERATOR_PIN}\n")
    assert code == 0, err
    assert load_cabinet(cabinet_file).active_paytable == "paytables/maryland-community-5.yaml"
    ledger = Ledger.open_readonly(db)
    try:  # the kiosk's start-up check now finds the two agree
        assert ledger.setting("paytable_sha256") == five.sha256
        assert check_paytable(ledger, five) == []
    finally:
        ledger.close()


# --- the headless run ----------------------------------------------------------------------

def test_a_headless_run_that_tilts_prints_the_tilt_and_exits_2(tmp_path: Path) -> None:
    """Issue 26 finding 6: the headless demo waited for ever for an acknowledgement."""
    config = config_copy(tmp_path)
    approved = config / "paytables" / "maryland-community-5.yaml"
    db = tmp_path / "demo.db"
    table = Table.open(Ledger.open(db, kind=LedgerKind.DEMO, config_dir=config),
                       load_paytable(approved), SeededSource(4))  # --config: its keys too
    play(table, 1)
    table.close()
    # A real fault the start-up check finds: the approved file was edited after it was recorded.
    approved.write_text(approved.read_text(encoding="utf-8").replace(
        "name: Casino War – 5 community cards", "name: Casino War – edited"), encoding="utf-8")
    # --frames bounds the run so the defect shows as a wrong exit code, not a hung test.
    code, _, err = invoke("run", "--headless", "--demo", "--rounds", "3", "--frames", "2000",
                          "--config", str(config), "--db", str(db))
    assert code == 2
    assert "etg run: TILT: paytable: the active paytable `md-community-5` differs from the " \
           "approved one" in err
    assert "etg ledger acknowledge" in err


@pytest.mark.slow
def test_a_headless_run_says_what_it_did(tmp_path: Path) -> None:
    config = config_copy(tmp_path)
    db = tmp_path / "demo.db"
    code, _, err = invoke("run", "--headless", "--demo", "--rounds", "1", "--seed", "3",
                          "--config", str(config), "--db", str(db))
    assert code == 0, err
    assert f"etg run: 1 rounds played on {db}\n" in err
    code, _, err = invoke("--quiet", "run", "--headless", "--demo", "--rounds", "2", "--seed",
                          "3", "--config", str(config), "--db", str(db))
    assert code == 0 and "rounds played" not in err


# --- paths, the default ledger, export --out ------------------------------------------------

def test_paths_says_where_things_live(tmp_path: Path) -> None:
    config, db = _cabinet(tmp_path)
    code, out, _ = invoke("paths", "--config", str(config), "--json")
    assert code == 0
    places = json.loads(out)
    assert places["cabinet.yaml"] == {"path": str(config / "cabinet.yaml"), "exists": True}
    assert places["ledger"] == {"path": str(db), "exists": True}
    assert places["active paytable"]["path"] == str(config / "paytables" /
                                                    "maryland-community-5.yaml")
    assert places["log"]["path"].endswith("logs/etg.log")


def test_ledger_commands_use_the_cabinets_ledger_by_default(tmp_path: Path) -> None:
    config, db = _cabinet(tmp_path)
    code, out, err = invoke("ledger", "verify", "--config", str(config))
    assert code == 0, err
    assert out.startswith(f"{db}: checked no rounds since the checkpoint of ")
    assert ", clean; the whole history (0 rounds) has not been verified" in out
    code, out, _ = invoke("ledger", "tilts", "--config", str(config))
    assert (code, out) == (0, f"{db}: no tilt has ever been recorded\n")


def test_export_out_writes_a_new_file_and_never_overwrites(tmp_path: Path) -> None:
    db = played_ledger(tmp_path, rounds=2)
    code, to_stdout, _ = invoke("ledger", "export", "--db", str(db), "--format", "csv")
    assert code == 0
    target = tmp_path / "export.csv"
    code, out, err = invoke("ledger", "export", "--db", str(db), "--format", "csv",
                            "--out", str(target))
    assert (code, out) == (0, "")
    assert target.read_text(encoding="utf-8") == to_stdout
    assert err == f"{db}: exported to {target}\n"
    code, _, err = invoke("ledger", "export", "--db", str(db), "--format", "csv",
                          "--out", str(target))
    assert code == 2 and err == f"{target}: already exists; an export never overwrites a file\n"


def test_quiet_and_verbose_together_are_refused() -> None:
    code, _, err = invoke("--quiet", "--verbose", "paths")
    assert (code, err) == (2, "etg: --quiet and --verbose cannot both be given\n")


def test_verbose_puts_the_logs_notes_on_stderr(tmp_path: Path) -> None:
    config, db = _cabinet(tmp_path)
    nothing = f"{db}: no round ended between checkpoints before 2000-01-01T00:00:00+00:00: " \
              f"nothing to archive"
    code, _, err = invoke("--verbose", "ledger", "archive", "--db", str(db), "--before",
                          "2000-01-01", "--out", str(tmp_path / "a.db"), "--config", str(config),
                          "--pin-stdin", stdin=f"{SUPERVISOR_PIN}\n")
    assert code == 1 and err.startswith("archive started (pid ") and err.endswith(nothing + "\n")
    code, _, err = invoke("ledger", "archive", "--db", str(db), "--before", "2000-01-01",
                          "--out", str(tmp_path / "b.db"), "--config", str(config),
                          "--pin-stdin", stdin=f"{SUPERVISOR_PIN}\n")
    assert (code, err) == (1, nothing + "\n")


# --- the smaller findings ----------------------------------------------------------------

def test_archive_blames_its_own_option(tmp_path: Path) -> None:
    db = played_ledger(tmp_path, rounds=1)
    code, _, err = invoke("ledger", "archive", "--db", str(db), "--before", "notadate",
                          "--out", str(tmp_path / "a.db"))
    assert (code, err) == (2, "etg ledger archive: --before 'notadate' is not a date "
                              "(YYYY-MM-DD) or ISO time\n")


def test_export_of_an_empty_span_is_refused(tmp_path: Path) -> None:
    db = played_ledger(tmp_path, rounds=1)
    code, out, err = invoke("ledger", "export", "--db", str(db), "--format", "csv",
                            "--from", "20", "--to", "5")
    assert (code, out) == (2, "")
    assert err == "etg ledger export: --from 20 is after --to 5: no round is in between\n"
    code, out, err = invoke("ledger", "export", "--db", str(db), "--format", "csv",
                            "--from", "2024-05-02", "--to", "2024-05-01")
    assert (code, out) == (2, "")


def test_run_never_makes_the_folders_of_a_mistyped_db(tmp_path: Path) -> None:
    config = config_copy(tmp_path)
    db = tmp_path / "no" / "such" / "x.db"
    code, _, err = invoke("run", "--headless", "--demo", "--rounds", "1", "--config",
                          str(config), "--db", str(db))
    assert (code, err) == (2, f"{db}: no folder {db.parent} to hold the ledger\n")
    assert not (tmp_path / "no").exists()


def test_help_texts_cite_nothing_a_user_does_not_have() -> None:
    def every(group: object, prefix: tuple[str, ...]) -> list[tuple[str, ...]]:
        commands = getattr(group, "commands", {})
        found = [prefix]
        for name, command in commands.items():
            found += every(command, (*prefix, name))
        return found

    for path in every(main, ()):
        code, out, _ = invoke(*path, "--help")
        assert code == 0 and "SPEC" not in out, f"etg {' '.join(path)} --help cites the SPEC"
