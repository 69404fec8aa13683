"""What an operator types can never break the floor (issue 26, items 1-5 of its findings).

One test per finding, each failing on the main of before, then a table of bad
input over every YAML file the product reads, each case refused through the
command line in process: one line on stderr, exit 2, nothing written. The
size caps are checked before any parsing, so those cases are fast by
construction; no test here times anything.
"""

from __future__ import annotations

import shutil
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path

import pytest
from click.testing import CliRunner

from etg.cli import main
from etg.config import ConfigError, load_cabinet, load_paytable
from etg.config.cabinet_edit import set_cabinet_value
from etg.config.cabinet_record import record_path
from etg.config.loader import seed_site_config
from etg.config.places import shipped_config_dir
from etg.config.yaml_source import MAX_BYTES, MAX_NODES, parse_yaml
from etg.math.returns import return_violations, wager_returns

MD5 = shipped_config_dir() / "paytables" / "maryland-community-5.yaml"
PIN_HASH = "pbkdf2_sha256$600000$" + "ab" * 16 + "$" + "cd" * 32


def invoke(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, list(args))
    return result.exit_code, result.stdout, result.stderr


def md5_with(old: str, new: str) -> str:
    """The shipped Maryland 5-spot paytable with one line changed."""
    text = MD5.read_text("utf-8")
    assert text.count(old) == 1, old
    return text.replace(old, new)


def write(folder: Path, name: str, text: str) -> Path:
    path = folder / name
    path.write_text(text, "utf-8")
    return path


def config_with(tmp_path: Path, paytable_text: str | None = None) -> Path:
    """A site configuration (seeded as the program seeds it), its active paytable replaced."""
    config = seed_site_config(tmp_path / "config")
    if paytable_text is not None:
        (config / "paytables" / "maryland-community-5.yaml").write_text(paytable_text, "utf-8")
    return config


# --- finding 1: a paytable that passes check crashes the game ----------------------------------

def test_odds_beyond_64_bits_are_refused_by_check_at_their_place(tmp_path: Path) -> None:
    big = write(tmp_path, "big.yaml", md5_with(
        "  initial: {pays: 1, to: 1}",
        "  initial: {pays: 100000000000000000000000000000, to: 1}"))
    code, out, err = invoke("paytable", "check", str(big))
    assert (code, out) == (2, "")
    assert err.splitlines() == [
        f"{big}:24:19: payouts.initial.pays: 100000000000000000000000000000 is too large for "
        f"a number (a 64-bit integer at most)"]


def test_odds_and_amounts_within_64_bits_but_beyond_any_table_are_refused_by_name(
    tmp_path: Path,
) -> None:
    odds = write(tmp_path, "odds.yaml", md5_with("  war: {pays: 1, to: 1}",
                                                 "  war: {pays: 9000000000000000000, to: 1}"))
    code, _, err = invoke("paytable", "check", str(odds))
    assert code == 2
    assert err.splitlines() == [f"{odds}:26:8: payouts.war: odds must be at most 10000 to 1, "
                                f"with 'to' at most 100, not 9000000000000000000 to 1"]


def test_a_paytable_at_every_bound_plays_rounds_to_the_cent(tmp_path: Path) -> None:
    # The largest wagers and odds the bounds allow: nothing overflows the ledger's integers.
    text = md5_with("  initial: {min_cents: 500, max_cents: 50000}",
                    "  initial: {min_cents: 500, max_cents: 10000000000}")
    text = text.replace("  tie: {pays: 10, to: 1}", "  tie: {pays: 10000, to: 1}")
    text = text.replace("payout_limit: {amount_cents: 10000000,",
                        "payout_limit: {amount_cents: 10000000000,")
    widest = write(tmp_path, "widest.yaml", text)
    assert load_paytable(widest).paytable.payouts.tie.pays == 10_000
    code, out, err = invoke("autoplay", "--db", str(tmp_path / "t.db"), "--rounds", "3",
                            "--seed", "5", "--paytable", str(widest))
    assert (code, err) == (0, "")
    assert out == f"3 rounds in {tmp_path / 't.db'}\n"
    code, out, err = invoke("ledger", "verify", "--db", str(tmp_path / "t.db"), "--full")
    assert (code, err) == (0, ""), out  # meters, credits and the chain add up to the cent


def test_autoplay_on_a_table_minimum_no_bot_can_stake_is_one_line_not_a_traceback(
    tmp_path: Path,
) -> None:
    dear = write(tmp_path, "dear.yaml", md5_with(
        "  initial: {min_cents: 500, max_cents: 50000}",
        "  initial: {min_cents: 10000000000, max_cents: 10000000000}").replace(
        "payout_limit: {amount_cents: 10000000,", "payout_limit: {amount_cents: 10000000000,"))
    code, _, err = invoke("autoplay", "--db", str(tmp_path / "t.db"), "--rounds", "3",
                          "--seed", "5", "--paytable", str(dear))
    assert code == 2
    assert err == f"{dear}: the bots cannot play this paytable: no Initial Wager has been placed\n"


def test_the_kiosk_does_not_start_on_a_paytable_it_cannot_play_and_names_the_file(
    tmp_path: Path,
) -> None:
    config = config_with(tmp_path, md5_with("  tie: {pays: 10, to: 1}",
                                            "  tie: {pays: 30, to: 1}"))
    active = config / "paytables" / "maryland-community-5.yaml"
    code, _, err = invoke("run", "--config", str(config), "--headless", "--demo",
                          "--rounds", "1", "--db", str(tmp_path / "demo.db"))
    assert code == 2
    assert err.splitlines()[0].startswith(f"{active}:25:8: payouts.tie: the Tie Wager returns "
                                          f"229.26 %")
    assert not (tmp_path / "demo.db").exists()
    # on a cabinet with a display the same line is shown full screen (two frames here)
    code, _, err = invoke("run", "--config", str(config), "--windowed", "--frames", "2",
                          "--db", str(tmp_path / "real.db"))
    assert code == 2
    assert err.splitlines()[0].startswith(f"{active}:25:8: payouts.tie: the Tie Wager returns "
                                          f"229.26 %")
    assert not (tmp_path / "real.db").exists()


# --- finding 2: paytables that pay players more than they stake --------------------------------

def test_a_tie_wager_at_30_to_1_returns_exactly_713_311(tmp_path: Path) -> None:
    # P(tie) = 23/311 on six decks; 30 to 1 returns 31 x 23/311 of the stake
    rich = write(tmp_path, "tie-30.yaml", md5_with("  tie: {pays: 10, to: 1}",
                                                   "  tie: {pays: 30, to: 1}"))
    paytable = load_paytable(rich).paytable
    returns = {w.label: w.rtp for w in wager_returns(paytable)}
    assert returns["the Tie Wager"] == Fraction(713, 311)
    assert returns["the Tie Wager"] == 31 * Fraction(23, 311)


@pytest.mark.parametrize(("old", "new", "line"), [
    ("  tie: {pays: 10, to: 1}", "  tie: {pays: 30, to: 1}",
     "tie-or-war.yaml:25:8: payouts.tie: the Tie Wager returns 229.26 %: it pays players more "
     "than they stake; every wager must return less than 100 %"),
    ("  initial: {pays: 1, to: 1}\n  tie: {pays: 10, to: 1}\n  war: {pays: 1, to: 1}",
     "  initial: {pays: 3, to: 1}\n  tie: {pays: 10, to: 1}\n  war: {pays: 5, to: 1}",
     "tie-or-war.yaml:23:1: payouts: the Initial Wager (with its War Wager, best decision) "
     "returns 203.97 %: it pays players more than they stake; every wager must return less "
     "than 100 %"),
])
def test_check_refuses_a_wager_returning_more_than_it_takes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, old: str, new: str, line: str,
) -> None:
    text = md5_with(old, new).replace("war_tie_wager: true ", "war_tie_wager: false")
    write(tmp_path, "tie-or-war.yaml", text)
    monkeypatch.chdir(tmp_path)
    code, out, err = invoke("paytable", "check", "tie-or-war.yaml")
    assert (code, out) == (2, "")
    assert err.splitlines() == [line]


def test_a_bonus_spin_returning_over_100_percent_is_an_error_not_a_warning(
    tmp_path: Path,
) -> None:
    text = md5_with('{symbol: "$25", weight: 45, pays_cents: [500, 2500]}',
                    '{symbol: "$25", weight: 45, pays_cents: [50000, 250000]}')
    rich = write(tmp_path, "rich.yaml", text)
    code, out, err = invoke("paytable", "check", str(rich))
    assert (code, out) == (2, "")
    assert len(err.splitlines()) == 4  # $1 and $5, meters at reset and at their mean
    assert all(": bonus_spin: the $" in line and "every wager must return less than 100 %"
               in line for line in err.splitlines())
    assert "warning" not in err


def test_the_cabinets_return_band_is_an_error_at_check_and_at_the_kiosks_start(
    tmp_path: Path,
) -> None:
    config = config_with(tmp_path)
    cabinet = config / "cabinet.yaml"
    with cabinet.open("a", encoding="utf-8") as file:
        file.write("return_band: {min_percent: 85, max_percent: 98}\n")
    assert load_cabinet(cabinet).return_band is not None
    active = config / "paytables" / "maryland-community-5.yaml"
    code, _, err = invoke("paytable", "check", str(active), "--cabinet", str(cabinet))
    assert code == 2
    # the Tie Wager returns 253/311 = 81.35 %, and the Progressive Payout at reset 81.98 %
    assert err.splitlines()[0] == (f"{active}:25:8: payouts.tie: the Tie Wager returns 81.35 %, "
                                   f"outside the cabinet's return_band 85.00 % to 98.00 %")
    assert invoke("paytable", "check", str(active))[0] == 0  # no band: only the 100 % rule
    code, _, err = invoke("run", "--config", str(config), "--headless", "--demo",
                          "--rounds", "1", "--db", str(tmp_path / "demo.db"))
    assert code == 2
    assert "outside the cabinet's return_band 85.00 % to 98.00 %" in err
    assert not (tmp_path / "demo.db").exists()


def test_every_shipped_paytable_returns_less_than_100_percent_on_every_wager() -> None:
    for path in sorted((shipped_config_dir() / "paytables").glob("*.yaml")):
        paytable = load_paytable(path).paytable
        assert return_violations(paytable) == [], path
        assert all(Fraction(3, 4) < w.rtp < 1 for w in wager_returns(paytable)), path


# --- finding 3: the id becomes part of file names -----------------------------------------------

@pytest.mark.parametrize("paytable_id", ['"../../escaped/x"', "a" * 5000, "md-🎰-5", "MD-5",
                                         "-md", "a" * 65])
def test_an_id_unfit_for_a_file_name_is_refused(tmp_path: Path, paytable_id: str) -> None:
    path = write(tmp_path, "p.yaml", md5_with("id: md-community-5", f"id: {paytable_id}"))
    with pytest.raises(ConfigError, match=r"p.yaml:4:5: id: must be 1 to 64 lower-case letters"):
        load_paytable(path)


def test_an_id_of_64_characters_is_accepted(tmp_path: Path) -> None:
    path = write(tmp_path, "p.yaml", md5_with("id: md-community-5", "id: " + "a" * 64))
    assert load_paytable(path).paytable.id == "a" * 64


# --- finding 4: no size limit on input ----------------------------------------------------------

def test_dev_zero_is_refused_in_one_line() -> None:
    code, out, err = invoke("paytable", "check", "/dev/zero")
    assert (code, out) == (2, "")
    assert err == ("/dev/zero:1:1: <root>: the file is larger than 262,144 bytes; a paytable "
                   "or cabinet file is a few kilobytes\n")


def test_a_file_over_the_size_cap_is_refused_without_blaming_aliases(tmp_path: Path) -> None:
    big = tmp_path / "big.yaml"
    big.write_text(MD5.read_text("utf-8") + "#" * MAX_BYTES + "\n", "utf-8")
    code, _, err = invoke("paytable", "check", str(big))
    assert code == 2
    assert err == (f"{big}:1:1: <root>: the file is larger than 262,144 bytes; a paytable or "
                   f"cabinet file is a few kilobytes\n")
    assert "alias" not in err


def test_a_file_at_the_size_cap_is_read() -> None:
    text = b"a: 1\n" + b"#" * (MAX_BYTES - 6) + b"\n"
    assert len(text) == MAX_BYTES
    assert parse_yaml(text, "cap.yaml").data == {"a": 1}


def test_more_nodes_than_the_cap_are_refused_where_the_cap_is_reached() -> None:
    text = "a: [" + ", ".join(["1"] * MAX_NODES) + "]\n"
    with pytest.raises(ConfigError) as caught:
        parse_yaml(text.encode(), "n.yaml")
    assert str(caught.value) == ("n.yaml:1:14996: <root>: more than 5,000 YAML nodes; a "
                                 "paytable or cabinet file has a few hundred")
    fits = "a: [" + ", ".join(["1"] * (MAX_NODES - 3)) + "]\n"  # the mapping, 'a' and the list
    assert len(parse_yaml(fits.encode(), "n.yaml").data["a"]) == MAX_NODES - 3


# --- finding 5: a truncated cabinet.yaml runs on defaults ---------------------------------------

def pinned_config(tmp_path: Path) -> Path:
    """A seeded site configuration whose operator PIN has been set, as etg pin set does."""
    config = config_with(tmp_path)
    set_cabinet_value(config / "cabinet.yaml", "operator_pin_hash", PIN_HASH)
    assert load_cabinet(config / "cabinet.yaml").operator_pin_hash == PIN_HASH
    return config


def test_a_cabinet_cut_short_is_refused_not_read_on_defaults(tmp_path: Path) -> None:
    cabinet = pinned_config(tmp_path) / "cabinet.yaml"
    raw = cabinet.read_bytes()
    cut = raw[:raw.index(b"operator_pin_hash")]  # at a line's start: still valid YAML
    cabinet.write_bytes(cut)
    line = cut.count(b"\n") + 1
    with pytest.raises(ConfigError) as caught:
        load_cabinet(cabinet)
    assert str(caught.value) == (
        f"{cabinet}:{line}:1: <root>: the file is cut short: it is the first "
        f"{len(cut)} of the {len(raw)} bytes last written; restore it from "
        f"{record_path(cabinet)}")
    cabinet.write_bytes(raw[:raw.index(b"operator_pin_hash") + 8])  # mid-key: not YAML
    with pytest.raises(ConfigError, match="the file is cut short"):
        load_cabinet(cabinet)
    with pytest.raises(ConfigError, match="the file is cut short"):  # nor completed by an edit
        set_cabinet_value(cabinet, "language", "fr")
    cabinet.write_bytes(record_path(cabinet).read_bytes())  # restored as the message says
    assert load_cabinet(cabinet).operator_pin_hash == PIN_HASH


def test_a_cabinet_that_lost_its_pin_hash_is_refused(tmp_path: Path) -> None:
    cabinet = pinned_config(tmp_path) / "cabinet.yaml"
    lines = cabinet.read_text("utf-8").splitlines(keepends=True)
    cabinet.write_text("".join(line for line in lines
                               if not line.startswith("operator_pin_hash:")), "utf-8")
    with pytest.raises(ConfigError) as caught:
        load_cabinet(cabinet)
    assert str(caught.value) == (
        f"{cabinet}:1:1: <root>: keys the file had when last written are missing: "
        f"operator_pin_hash; restore them (null for no value) from {record_path(cabinet)}: "
        f"defaults fill only keys never written")


def test_a_hand_edit_keeping_every_key_and_a_file_never_written_are_read(
    tmp_path: Path,
) -> None:
    cabinet = pinned_config(tmp_path) / "cabinet.yaml"
    text = cabinet.read_text("utf-8")
    cabinet.write_text(text.replace("volume: 70", "volume: 40") + "return_band: "
                       "{min_percent: 75, max_percent: 98}\n", "utf-8")
    assert load_cabinet(cabinet).sound.volume == 40
    # a cabinet.yaml the program never wrote: the keys it lacks take their defaults
    plain = tmp_path / "plain"
    shutil.copytree(shipped_config_dir() / "paytables", plain / "paytables")
    write(plain, "cabinet.yaml", "active_paytable: paytables/maryland-community-5.yaml\n")
    assert load_cabinet(plain / "cabinet.yaml").operator_pin_hash is None


# --- every YAML file the product reads, refused through the command line ------------------------

@dataclass(frozen=True)
class BadInput:
    """A broken file written into a seeded configuration, and the command that reads it."""

    name: str
    paytable: Callable[[], str] | None  # the active paytable's new text
    cabinet: Callable[[bytes], bytes] | None  # the cabinet file's new bytes from its old
    command: str  # check, sim, parsheet, autoplay or run
    expected: str  # what the one line on stderr holds


def _cut(raw: bytes) -> bytes:
    return raw[:raw.index(b"floorperson_pin_hash")]


def _no_pin(raw: bytes) -> bytes:
    return b"".join(line for line in raw.splitlines(keepends=True)
                    if not line.startswith(b"operator_pin_hash"))


_PAYTABLE_CASES = [
    ("syntax", lambda: md5_with("  tie: {pays: 10, to: 1}", "  tie: {pays: 10, to: 1"),
     "YAML syntax error"),
    ("over the size cap", lambda: "#" * (MAX_BYTES + 1), "larger than 262,144 bytes"),
    ("over the node cap", lambda: "a: [" + ",".join(["1"] * MAX_NODES) + "]",
     "more than 5,000 YAML nodes"),
    ("beyond 64 bits", lambda: md5_with("  initial: {pays: 1, to: 1}",
                                        "  initial: {pays: 100000000000000000000000000000, "
                                        "to: 1}"), "a 64-bit integer at most"),
    (".inf", lambda: md5_with("  tie: {pays: 10, to: 1}", "  tie: {pays: .inf, to: 1}"),
     "payouts.tie.pays: expected an integer, got '.inf'"),
    (".nan", lambda: md5_with("rate: 0.015,", "rate: .nan,"),
     "bonus_spin.primary.rate: expected a number, got '.nan'"),
    ("1e400", lambda: md5_with("rate: 0.015,", "rate: 1e400,"), "1e400 is too large"),
    ("id escaping", lambda: md5_with("id: md-community-5", 'id: "../../escaped/x"'),
     "id: must be 1 to 64 lower-case letters"),
    ("amount", lambda: md5_with("  tie: {min_cents: 100, max_cents: 10000}",
                                "  tie: {min_cents: 100, max_cents: 20000000000}"),
     "limits.tie.max_cents: must be at most 10000000000 cents"),
    ("not UTF-8", lambda: "id: \udcff", "not UTF-8 text"),
]
_CASES = [
    *(BadInput(f"paytable {name}, {command}", text, None, command, expected)
      for name, text, expected in _PAYTABLE_CASES
      for command in ("check", "sim", "parsheet", "autoplay", "run")),
    BadInput("paytable returning 229 %, check", lambda: md5_with(
        "  tie: {pays: 10, to: 1}\n", "  tie: {pays: 30, to: 1}\n").replace(
        "war_tie_wager: true ", "war_tie_wager: false"), None, "check", "returns 229.26 %"),
    BadInput("paytable returning 229 %, run", lambda: md5_with(
        "  tie: {pays: 10, to: 1}\n", "  tie: {pays: 30, to: 1}\n").replace(
        "war_tie_wager: true ", "war_tie_wager: false"), None, "run", "returns 229.26 %"),
    BadInput("cabinet cut short, run", None, _cut, "run", "the file is cut short"),
    BadInput("cabinet cut short, pin set", None, _cut, "pin", "the file is cut short"),
    BadInput("cabinet lost its PIN hash, run", None, _no_pin, "run",
             "keys the file had when last written are missing: operator_pin_hash"),
    BadInput("cabinet over the size cap, run", None, lambda raw: raw + b"#" * MAX_BYTES, "run",
             "larger than 262,144 bytes"),
    BadInput("cabinet band inverted, run", None,
             lambda raw: raw + b"return_band: {min_percent: 98, max_percent: 75}\n", "run",
             "return_band: must satisfy 0 < min_percent <= max_percent < 100, not 98 and 75"),
    BadInput("cabinet syntax, pin set", None, lambda raw: raw + b"sound: [\n", "pin",
             "YAML syntax error"),
]


def _arguments(case: BadInput, config: Path, out: Path) -> list[str]:
    active = str(config / "paytables" / "maryland-community-5.yaml")
    return {
        "check": ["paytable", "check", active],
        "sim": ["sim", active, "--rounds", "10"],
        "parsheet": ["parsheet", active, "--out", str(out / "sheet.html"), "--sim-rounds", "0"],
        "autoplay": ["autoplay", "--db", str(out / "t.db"), "--rounds", "1",
                     "--paytable", active],
        "run": ["run", "--config", str(config), "--headless", "--demo", "--rounds", "1",
                "--db", str(out / "demo.db")],
        "pin": ["pin", "set", "--config", str(config), "--role", "operator"],
    }[case.command]


def _files(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes()
            for p in sorted(folder.rglob("*")) if p.is_file()}


@pytest.mark.parametrize("case", _CASES, ids=[case.name for case in _CASES])
def test_bad_input_is_one_line_exit_2_and_nothing_written(
    tmp_path: Path, case: BadInput,
) -> None:
    config = config_with(tmp_path)
    active = config / "paytables" / "maryland-community-5.yaml"
    cabinet = config / "cabinet.yaml"
    if case.paytable is not None:
        active.write_bytes(case.paytable().encode("utf-8", "surrogateescape"))
    if case.cabinet is not None:
        cabinet.write_bytes(case.cabinet(cabinet.read_bytes()))
    out = tmp_path / "out"
    out.mkdir()
    data = tmp_path / "xdg-data"  # the test's per-user data directory (tests/conftest.py)
    before = _files(config), _files(out)
    before_data = {name for name in _files(data) if not name.startswith("etg/logs")} \
        if data.exists() else set()
    result = CliRunner().invoke(main, _arguments(case, config, out), input="4321\n4321\n")
    assert result.exit_code == 2, result.output
    lines = result.stderr.splitlines()
    assert len(lines) == 1, lines
    assert case.expected in lines[0]
    assert "Traceback" not in result.output
    assert (_files(config), _files(out)) == before
    after_data = {name for name in _files(data) if not name.startswith("etg/logs")} \
        if data.exists() else set()
    assert after_data == before_data


def test_the_operator_menu_does_not_switch_to_a_paytable_the_kiosk_would_not_start_on(
    tmp_path: Path,
) -> None:
    from tests.kiosk_support import make_app

    app = make_app(tmp_path)
    cabinet_file = app.cabinet_file
    before = cabinet_file.read_bytes()
    rich = write(cabinet_file.parent / "paytables", "tie-30.yaml",
                 md5_with("  tie: {pays: 10, to: 1}", "  tie: {pays: 30, to: 1}"))
    active = app.table.paytable
    try:
        refusal = app.switch_paytable(load_paytable(rich), "operator 1")
        assert app.table.paytable is active
    finally:
        app.table.close()
    assert refusal == ("tie-30.yaml: the Tie Wager returns 229.26 %: it pays players more than "
                       "they stake; every wager must return less than 100 %")
    assert cabinet_file.read_bytes() == before
