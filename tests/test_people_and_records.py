"""People and records (issue 25, item 7 and finding 8), through the commands as an operator
runs them.

PINs: ``etg pin set`` replaced a PIN without asking for it and recorded nothing. A PIN that
is set is now replaced only with it or a higher role's PIN, and every change, from the
command line and from the operator menu, is one kind of ledger entry (whose PIN, who changed
it, where, when; never the PIN nor its hash).

Archive: ``etg ledger archive --before <a future date>`` needed no PIN and emptied game
recall, and with the archive file deleted ``verify --full`` said "clean". It now asks for
the supervisor's PIN, refuses the future, keeps the last 100 rounds live, and ``--full``
names the rounds it could not check.
"""

from __future__ import annotations

import json
import re
import sqlite3
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from etg.cli import main
from etg.config.cabinet_edit import set_cabinet_value
from etg.config.loader import load_cabinet
from etg.core.commands import (
    BetKind,
    CashIn,
    CloseBets,
    Deal,
    Decide,
    OpenBets,
    PlaceWager,
    Settle,
    Shuffle,
    ShuffleReason,
    WarDeal,
)
from etg.core.jackpot import JackpotRules
from etg.core.paytable import Decision
from etg.core.state import Phase
from etg.ledger.lock import WriterLock
from etg.ledger.store import Ledger
from etg.ledger.terms import Problem
from etg.table.pin import hash_pin, jackpot_validation, pin_fingerprint, verify_pin
from etg.ui.scene import OpenOperatorMenu
from tests.kiosk_support import make_app, tap, type_keys
from tests.ledger_support import (
    SUPERVISOR_PIN,
    aged_ledger,
    built_once,
    open_table,
    play,
    played_ledger,
    supervised_config,
)
from tests.tables import rigged_draw

OPERATOR_PIN, FLOORPERSON_PIN, DEALER_PIN = "2468", "9753", "4826"
SMALL = (("2026-01-10", 6), ("2026-03-20", 4))
"""Ten rounds on two past days: on today's main, an archive between them left 4 live."""


def etg(*args: str, stdin: str = "") -> tuple[int, str, str]:
    result = CliRunner().invoke(main, list(args), input=stdin)
    assert result.exception is None or isinstance(result.exception, SystemExit), result.output
    return result.exit_code, result.stdout, result.stderr


def _staffed(tmp_path: Path, db: Path | None = None) -> Path:
    """A site configuration with the supervisor's, operator's, floorperson's and dealer
    D0417's PINs set, whose cabinet's ledger is ``db`` if given."""
    config = supervised_config(tmp_path)
    cabinet = config / "cabinet.yaml"
    if db is not None:
        set_cabinet_value(cabinet, "database", str(db))
    for key, pin in (("operator_pin_hash", OPERATOR_PIN), ("floorperson_pin_hash",
                                                          FLOORPERSON_PIN),
                     ("dealers.D0417", DEALER_PIN)):
        set_cabinet_value(cabinet, key, hash_pin(pin))
    return config


def _events(db: Path, kind: str | None) -> list[dict[str, Any]]:
    ledger = Ledger.open_readonly(db)
    try:
        return ledger.event_log(kind)
    finally:
        ledger.close()


def _pin_set(config: Path, db: Path | None, typed: str, *args: str) -> tuple[int, str, str]:
    """``etg pin set`` as typed at a terminal: the PINs at its prompts (``typed``); the
    cabinet's ledger unless ``db`` is given."""
    where = () if db is None else ("--db", str(db))
    return etg("pin", "set", "--config", str(config), *where, *args, stdin=typed)


# --- finding 8, PINs ----------------------------------------------------------------------

def test_pin_set_without_the_current_pin_is_refused_and_changes_nothing(tmp_path: Path) -> None:
    db = played_ledger(tmp_path, rounds=1)
    config = _staffed(tmp_path, db)
    cabinet = (config / "cabinet.yaml").read_bytes()
    # What replaced the operator's PIN on main: the new PIN, twice.
    code, _, err = _pin_set(config, None, "5555\n5555\n")
    assert code == 1
    assert err == ("wrong PIN (the operator or supervisor PIN is asked for a change of the "
                   "operator PIN); nothing was changed\n")
    assert (config / "cabinet.yaml").read_bytes() == cabinet
    [failed] = _events(db, "pin_failed")
    assert (failed["actor"], failed["details"]) == ("operator", {
        "role": "operator", "where": "command line", "for": "a change of the operator PIN"})
    assert _events(db, "pin_change") == []


@pytest.mark.parametrize(("role", "proof", "by"), [
    (("--role", "operator"), OPERATOR_PIN, "operator"),  # its own
    (("--role", "operator"), SUPERVISOR_PIN, "supervisor"),  # a higher role's
    (("--role", "floorperson"), SUPERVISOR_PIN, "supervisor"),
    (("--role", "dealer", "--dealer", "D0417"), DEALER_PIN, "dealer D0417"),
    (("--role", "dealer", "--dealer", "D0417"), FLOORPERSON_PIN, "floorperson"),
    (("--role", "dealer", "--dealer", "D0417"), OPERATOR_PIN, "operator"),
])
def test_the_current_pin_or_a_higher_roles_replaces_it_and_the_change_is_on_record(
        tmp_path: Path, role: tuple[str, ...], proof: str, by: str) -> None:
    db = played_ledger(tmp_path, rounds=1)
    config = _staffed(tmp_path, db)
    code, out, err = _pin_set(config, None, f"{proof}\n8080\n8080\n", *role)
    assert code == 0, err
    whose = role[1] if len(role) == 2 else f"dealer {role[3]}"
    assert out.splitlines()[-1] == f"Recorded in the ledger {db} (changed by {by})."
    cabinet = load_cabinet(config / "cabinet.yaml")
    stored = cabinet.dealers["D0417"] if len(role) > 2 else getattr(cabinet,
                                                                     f"{whose}_pin_hash")
    assert verify_pin("8080", stored)
    [change] = _events(db, "pin_change")
    assert change["actor"] == by
    assert change["details"] == {"role": whose, "fingerprint": pin_fingerprint(stored),
                                 "where": "command line"}
    assert change["at"].startswith(datetime.now(UTC).date().isoformat())  # when
    # never the PIN's hash, nor its salt or digest, in the ledger (closed: no -wal is left)
    raw = db.read_bytes()
    for part in stored.split("$")[2:]:
        assert part.encode() not in raw and bytes.fromhex(part) not in raw


@pytest.mark.parametrize(("role", "proof"), [
    (("--role", "supervisor"), OPERATOR_PIN),  # nobody is above the supervisor
    (("--role", "operator"), FLOORPERSON_PIN),  # a floorperson is not above the operator
    (("--role", "floorperson"), DEALER_PIN),
    (("--role", "dealer", "--dealer", "D0417"), "1111"),  # nobody's
])
def test_a_lower_or_unknown_pin_changes_nothing(tmp_path: Path, role: tuple[str, ...],
                                                proof: str) -> None:
    db = played_ledger(tmp_path, rounds=1)
    config = _staffed(tmp_path, db)
    cabinet = (config / "cabinet.yaml").read_bytes()
    code, _, err = _pin_set(config, None, f"{proof}\n8080\n8080\n", *role)
    assert code == 1 and err.startswith("wrong PIN (") and err.count("\n") == 1
    assert (config / "cabinet.yaml").read_bytes() == cabinet
    assert _events(db, "pin_change") == []


def test_a_first_pin_asks_for_none_and_is_recorded_in_the_technicians_name(
        tmp_path: Path) -> None:
    db = played_ledger(tmp_path, rounds=1)
    config = supervised_config(tmp_path)
    set_cabinet_value(config / "cabinet.yaml", "database", str(db))
    code, out, err = _pin_set(config, None, "3141\n3141\n", "--role", "operator")
    assert code == 0, err
    assert "Current" not in out  # nothing to ask for: no operator PIN was set
    [change] = _events(db, "pin_change")
    assert (change["actor"], change["details"]["role"]) == ("technician", "operator")


def test_a_pin_change_needs_the_ledger(tmp_path: Path) -> None:
    db = played_ledger(tmp_path, rounds=1)
    config = _staffed(tmp_path, db)
    cabinet = (config / "cabinet.yaml").read_bytes()
    with WriterLock(db):  # the kiosk holds it
        code, out, err = _pin_set(config, None, f"{OPERATOR_PIN}\n8080\n8080\n")
    assert code == 2 and err.count("\n") == 1 and out == ""
    assert (config / "cabinet.yaml").read_bytes() == cabinet
    code, _, err = _pin_set(config, tmp_path / "gone.db", f"{OPERATOR_PIN}\n8080\n8080\n",
                            "--pin-stdin")
    assert (code, err) == (2, f"{tmp_path / 'gone.db'}: no such ledger\n")
    assert not (tmp_path / "gone.db").exists()  # never a new ledger
    assert (config / "cabinet.yaml").read_bytes() == cabinet
    assert _events(db, "pin_change") == []


def test_a_pin_changed_on_the_operator_menu_is_recorded_in_the_operators_name(
        tmp_path: Path) -> None:
    config = _staffed(tmp_path)
    app = make_app(tmp_path, config=config)
    app.table.tilt_for([Problem("program", "a test's tilt: the table stands still")])
    assert app.table.tilt is not None  # between rounds, with a tilt active
    app.go(OpenOperatorMenu())
    type_keys(app, OPERATOR_PIN + "\n")
    tap(app, "tab:dealers")
    tap(app, "dealer:add")
    type_keys(app, "0417\n6060\n6060\n")  # no dealer's PIN asked: the operator's opened it
    stored = load_cabinet(config / "cabinet.yaml").dealers["D0417"]
    assert verify_pin("6060", stored)
    app.table.deliver(wait=True)
    [change] = app.table.ledger.event_log("pin_change")
    assert change["actor"] == "operator"
    assert change["details"] == {"role": "dealer D0417", "fingerprint": pin_fingerprint(stored),
                                 "where": "operator menu"}
    assert app.table.tilt is not None  # a PIN change clears no tilt
    # The next start finds the file as recorded: no second entry.
    app.table.note_pins({"dealer D0417": stored})
    app.table.deliver(wait=True)
    assert len(app.table.ledger.event_log("pin_change")) == 1
    app.table.close()


def test_the_command_line_and_the_start_record_one_kind_of_entry(tmp_path: Path) -> None:
    """A change made with etg pin set is not recorded again by the next start; a hand edit of
    cabinet.yaml is, put down to the technician."""
    config, db = _staffed(tmp_path), played_ledger(tmp_path, rounds=1)
    code, _, err = _pin_set(config, db, f"{SUPERVISOR_PIN}\n7070\n7070\n", "--role",
                            "supervisor", "--pin-stdin")
    assert code == 0, err
    cabinet = load_cabinet(config / "cabinet.yaml")
    table = open_table(db)
    table.note_pins({"supervisor": cabinet.supervisor_pin_hash})
    edited = hash_pin("6060")
    table.note_pins({"operator": edited})
    table.close()
    entries = [(e["actor"], e["details"]) for e in _events(db, "pin_change")]
    assert entries == [
        ("supervisor", {"role": "supervisor", "where": "command line",
                        "fingerprint": pin_fingerprint(cabinet.supervisor_pin_hash)}),
        ("technician", {"role": "operator", "fingerprint": pin_fingerprint(edited),
                        "where": "cabinet.yaml"})]


def test_a_supervisor_pin_changed_while_a_tilt_stands_is_the_one_that_clears_it(
        tmp_path: Path) -> None:
    """Two procedures in one: between rounds the table tilts; the supervisor's PIN is changed
    (with the old one), the tilt stays, and only the new PIN acknowledges it."""
    config, db = _staffed(tmp_path), tmp_path / "ledger.db"
    table = open_table(db)
    play(table, 2)
    table.tilt_for([Problem("program", "a test's tilt: the table stands still")])
    table.close()
    [tilt] = _events(db, "tilt")
    code, _, err = _pin_set(config, db, f"{SUPERVISOR_PIN}\n7070\n7070\n", "--role",
                            "supervisor", "--pin-stdin")
    assert code == 0, err
    code, out, _ = etg("ledger", "tilts", "--db", str(db), "--json")
    assert [t["active"] for t in json.loads(out)["tilts"]] == [True]  # untouched
    acknowledge = ("ledger", "acknowledge", "--db", str(db), "--tilt", str(tilt["id"]),
                   "--config", str(config), "--pin-stdin")
    code, _, err = etg(*acknowledge, stdin=f"{SUPERVISOR_PIN}\n")
    assert (code, err) == (1, "wrong supervisor PIN; nothing was cleared\n")
    code, _, err = etg(*acknowledge, stdin="7070\n")
    assert code == 0, err
    table = open_table(db)  # and play goes on
    assert table.tilt is None
    play(table, 1)
    table.close()
    kinds = [e["kind"] for e in _events(db, None) if e["kind"] in (
        "tilt", "pin_change", "pin_failed", "tilt_cleared")]
    assert kinds == ["tilt", "pin_change", "pin_failed", "tilt_cleared"]


# --- finding 8, the archive ---------------------------------------------------------------

def _archive(config: Path, db: Path, before: str, out: Path, pin: str = SUPERVISOR_PIN
             ) -> tuple[int, str, str]:
    """``etg ledger archive`` as typed at a terminal, ``pin`` at its prompt."""
    return etg("ledger", "archive", "--db", str(db), "--before", before, "--out", str(out),
               "--config", str(config), stdin=f"{pin}\n")


def test_an_archive_without_the_supervisors_pin_is_refused(tmp_path: Path) -> None:
    db, out = aged_ledger(tmp_path, SMALL), tmp_path / "a.etga"
    nobody = tmp_path / "nobody"
    nobody.mkdir()
    code, _, err = _archive(supervised_config(nobody), db, "2026-02-01", out, pin="1111")
    assert (code, err) == (1, "wrong PIN (the supervisor PIN is asked for an archive); "
                              "nothing was changed\n")
    [failed] = _events(db, "pin_failed")
    assert failed["details"] == {"role": "supervisor", "where": "command line",
                                 "for": "an archive"}
    unset = tmp_path / "unset"
    unset.mkdir()
    config = supervised_config(unset)
    set_cabinet_value(config / "cabinet.yaml", "supervisor_pin_hash", None)
    code, _, err = _archive(config, db, "2026-02-01", out)
    assert (code, err) == (2, "no supervisor PIN is set: run etg pin set --role supervisor\n")
    assert not out.exists()
    ledger = Ledger.open_readonly(db)
    assert ledger.first_seq() == 1 and ledger.round_count() == 10  # nothing moved
    ledger.close()


@pytest.mark.parametrize("before", ["2999-01-01", "an hour from now"])
def test_an_archive_up_to_a_date_in_the_future_is_refused(tmp_path: Path, before: str) -> None:
    if before == "an hour from now":
        before = (datetime.now(UTC) + timedelta(hours=1)).isoformat(timespec="seconds")
    db, out = aged_ledger(tmp_path, SMALL), tmp_path / "a.etga"
    code, stdout, err = _archive(supervised_config(tmp_path), db, before, out)
    assert (code, stdout) == (2, "")
    assert err == (f"etg ledger archive: --before {before} is in the future: only rounds "
                   f"already played are archived\n")
    assert not out.exists() and _events(db, "archive") == []


def test_an_archive_never_takes_the_last_100_rounds(tmp_path: Path) -> None:
    db, out = aged_ledger(tmp_path, SMALL), tmp_path / "a.etga"
    code, _, err = _archive(supervised_config(tmp_path), db, "2026-02-01", out)
    assert (code, err) == (1, f"{db}: no checkpoint before 2026-02-01T00:00:00+00:00 leaves "
                              f"the last 100 rounds live: nothing to archive\n")
    assert not out.exists()
    code, recall, _ = etg("ledger", "recall", "--db", str(db))
    assert code == 0 and _recalled(recall) == list(range(1, 11))  # on main: 7 to 10


def _recalled(text: str) -> list[int]:
    """The round numbers etg ledger recall printed, in order."""
    return [int(n) for n in re.findall(r"^Round (\d+):", text, flags=re.MULTILINE)]


@pytest.mark.slow  # 106 rounds played (once a session): the last 100 stay live
def test_after_an_archive_recall_keeps_its_rounds_and_full_verify_names_what_it_lacks(
        tmp_path: Path) -> None:
    db, out = aged_ledger(tmp_path), tmp_path / "2026.etga"
    config = supervised_config(tmp_path)
    # After both days: on main the cut was the last checkpoint, and recall was left empty.
    code, stdout, err = _archive(config, db, "2026-06-01", out)
    assert code == 0, err
    assert "(rounds 1 to 6) moved to" in stdout
    code, stdout, _ = etg("ledger", "recall", "--db", str(db), "--last", "10")
    assert code == 0 and _recalled(stdout) == list(range(97, 107))
    ledger = Ledger.open_readonly(db)
    assert ledger.round_count() == 106
    assert [r["round"] for r in ledger.rounds()] == list(range(7, 107))  # 100 live
    ledger.close()

    code, stdout, _ = etg("ledger", "verify", "--full", "--db", str(db), "--archive", str(out))
    assert (code, stdout.splitlines()[-1]) == (0, f"{db}: 106 rounds, clean")
    digest = _events(db, "archive")[0]["details"]["sha256"]
    out.unlink()  # the archive deleted
    code, stdout, _ = etg("ledger", "verify", "--full", "--db", str(db))
    assert code == 1
    assert stdout.splitlines() == [
        f"{db}: archive: rounds 1–6 (entries 1–{_last_archived(db)}) are in archive "
        f"{digest[:16]}… (2026.etga), not given: not checked (--archive FILE)",
        f"{db}: 106 rounds, 1 problems"]
    code, stdout, _ = etg("ledger", "verify", "--full", "--db", str(db), "--json")
    report = json.loads(stdout)
    assert code == 1 and report["clean"] is False
    assert report["unchecked_archives"] == [{"entries": [1, _last_archived(db)],
                                             "rounds": [1, 6], "file": "2026.etga",
                                             "sha256": digest}]
    assert [p["check"] for p in report["problems"]] == ["archive"]


def _last_archived(db: Path) -> int:
    return int(_events(db, "archive")[0]["details"]["last"])


SUITED_FOUR = ["7D", "9H", "2C", "2C", "2C", "2C", "9H", "3S", "3S", "3S", "9H", "9H"]
"""Seat 1's spot makes a Suited Four-of-a-Kind in the War: a progressive jackpot."""


@pytest.mark.slow  # 100 rounds after the jackpot round (once a session)
def test_an_archive_after_a_jackpot_validation_keeps_its_meters_and_its_record(
        tmp_path: Path) -> None:
    def build(db: Path) -> None:
        with pytest.MonkeyPatch.context() as monkeypatch:
            from etg.ledger import store as store_module

            for day, jackpot, rounds in (("2026-01-10", True, 0), ("2026-03-20", False, 101)):
                clock = iter(range(10_000_000))
                monkeypatch.setattr(store_module, "now", lambda day=day, clock=clock:
                                    f"{day}T12:00:00.{next(clock):06d}+00:00")
                monkeypatch.setattr("etg.table.controller.now", store_module.now)
                table = open_table(db)
                if jackpot:
                    table.note_pins({"supervisor": SUPERVISOR_HASH})  # a PIN set that day
                    _validated_jackpot(table)
                play(table, rounds)
                table.close()

    db = built_once(("jackpot then 100 rounds",), build, tmp_path / "ledger.db")
    before = Ledger.open_readonly(db)
    meters = before.meters()
    [validated] = before.event_log("jackpot_validated")
    before.close()
    out = tmp_path / "jackpot.etga"
    code, stdout, err = _archive(supervised_config(tmp_path), db, "2026-02-01", out)
    assert code == 0, err
    assert "(rounds 1 to 1) moved to" in stdout
    live = Ledger.open_readonly(db)
    assert live.meters() == meters  # the hand pays and the progressive hit stay counted
    assert live.event_log("jackpot_validated") == []  # the record went to the archive
    live.close()
    code, stdout, _ = etg("ledger", "verify", "--full", "--db", str(db), "--archive", str(out))
    assert code == 0, stdout
    archived = sqlite3.connect(out)
    kinds = [row[0] for row in archived.execute(
        "SELECT tag FROM entries WHERE seq = ?", [validated["id"]])]
    archived.close()
    assert kinds == ["jackpot_validated"]
    table = open_table(db)  # the table restarts from the live ledger and plays on
    assert table.tilt is None and table.state.jackpot is None
    # The PIN recorded before the cut is still known: a start finds nothing changed.
    table.note_pins({"supervisor": SUPERVISOR_HASH})
    play(table, 1)
    table.close()
    assert _events(db, "pin_change") == []


SUPERVISOR_HASH = f"pbkdf2_sha256$1000${'0' * 32}${'1' * 64}"
"""A stored hash as cabinet.yaml holds it (only its fingerprint is recorded)."""


def _validated_jackpot(table: Any) -> None:
    """One round ending in a progressive jackpot, validated by the floorperson."""
    table.apply_jackpot_rules(JackpotRules())
    p = table.state.paytable
    for command, actor in [
            (Shuffle(rigged_draw(p, SUITED_FOUR), ShuffleReason.NEW_SHOE), "dealer"),
            (CashIn(1, 100_000), "attendant"), (OpenBets(), "dealer"),
            (PlaceWager(1, 1, BetKind.INITIAL, 500), "player"),
            (PlaceWager(1, 1, BetKind.PROGRESSIVE_PAYOUT, 500), "player"),
            (CloseBets(), "dealer"), (Deal(), "dealer"), (Settle(), "dealer"),
            (Decide(1, 1, Decision.WAR), "player"), (WarDeal(), "dealer"),
            (Settle(), "dealer")]:
        table.send(command, actor=actor)
    assert table.state.phase is Phase.JACKPOT
    table.send(jackpot_validation("floorperson"), actor="floorperson")
    assert table.state.phase is Phase.COMPLETE
