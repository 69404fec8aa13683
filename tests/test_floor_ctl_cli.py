"""``etg floor init|status|meters|hits|reconcile|level``: the back office on the command line,
against a real PostgreSQL; bad input one line and exit 2, a difference or a refusal exit 1."""

from __future__ import annotations

import json
from pathlib import Path

import psycopg
import pytest
from click.testing import CliRunner

from etg.cli import main
from etg.config.cabinet_edit import set_cabinet_value
from etg.floor import functions, reads
from etg.floor.admin import TableLogin
from etg.floor.functions import Contribution
from etg.floor.reconcile import LocalBook, LocalHit
from etg.table.pin import hash_pin
from tests.floor_support import Floor
from tests.kiosk_support import config_copy

SUPERVISOR_PIN = "1357"
PAYTABLE = Path(__file__).resolve().parent.parent / "config/paytables/maryland-community-5.yaml"


def invoke(*args: str, stdin: str | None = None) -> tuple[int, str, str]:
    # wide enough that rich never shortens a cell (a test's stdout is no terminal: 80 columns)
    result = CliRunner().invoke(main, list(args), input=stdin, env={"COLUMNS": "200"})
    assert result.exception is None or isinstance(result.exception, SystemExit), result.output
    return result.exit_code, result.stdout, result.stderr


def _init(floor: Floor, *extra: str) -> dict[str, TableLogin]:
    code, out, err = invoke("floor", "init", "--floor", floor.admin_uri, "--paytable",
                            str(PAYTABLE), "--table", "t01:A-1001", "--table", "t02:A-1002",
                            "--json", *extra)
    assert code == 0, err
    made = json.loads(out)
    assert made["levels"] == ["primary", "secondary"]
    logins = {}
    for entry in made["tables"]:
        info = psycopg.conninfo.conninfo_to_dict(entry["uri"])
        logins[entry["table_id"]] = TableLogin(entry["table_id"], str(info["user"]),
                                               str(info["password"]))
        with psycopg.connect(entry["uri"]) as conn:  # the printed string connects
            assert conn.info.user == f"{floor.database}.{entry['table_id']}"
    return logins


def _play(floor: Floor, logins: dict[str, TableLogin]) -> None:
    """t01 ships two rounds and hits the primary; t02 one round."""
    t01, t02 = floor.table(logins["t01"]), floor.table(logins["t02"])
    functions.heartbeat(t01, "t01", "open", "D0417", 0)
    functions.ship(t01, "t01", [Contribution(1, 1, "primary", 500),
                                Contribution(1, 1, "secondary", 500)], chain_seq=1,
                   chain_head="a", rounds=1)
    functions.ship(t01, "t01", [Contribution(2, 3, "primary", 500)], chain_seq=2,
                   chain_head="b", rounds=2)
    hit = functions.claim_hit(t01, "t01", 2, 3, 0, "primary", 100)
    functions.validate_hit(t01, "t01", hit.hit_id, "floorperson", "floorperson")
    functions.ship(t02, "t02", [Contribution(1, 2, "primary", 100)], chain_seq=1,
                   chain_head="c", rounds=1)
    functions.claim_hit(t02, "t02", 1, 2, 0, "primary", 20)


def test_init_takes_the_levels_from_the_paytable_and_prints_the_tables_links(
        floor: Floor) -> None:
    _init(floor)
    levels = {lv.level: lv for lv in reads.levels(floor.admin())}
    # maryland-community-5.yaml: primary $10,000 at 1.5 %; secondary $10,000, reset $5,000,
    # 0.5 %, ceiling $25,000
    assert (levels["primary"].initial_cents, levels["primary"].rate_millionths,
            levels["primary"].ceiling_cents) == (1_000_000, 15_000, None)
    assert (levels["secondary"].initial_cents, levels["secondary"].reset_cents,
            levels["secondary"].rate_millionths, levels["secondary"].ceiling_cents) == (
        1_000_000, 500_000, 5_000, 2_500_000)
    assert [(t.table_id, t.asset_number) for t in reads.tables(floor.admin())] == [
        ("t01", "A-1001"), ("t02", "A-1002")]


def test_init_writes_the_links_to_a_private_file(floor: Floor, tmp_path: Path) -> None:
    out = tmp_path / "links.txt"
    code, stdout, _ = invoke("floor", "init", "--floor", floor.admin_uri, "--paytable",
                             str(PAYTABLE), "--table", "t09", "--out", str(out))
    assert (code, stdout) == (0, "")
    lines = out.read_text().splitlines()
    assert [line.split()[0] for line in lines] == ["t09", "reader"]
    assert lines[0].split()[1].startswith(f"postgresql://{floor.database}.t09:")
    assert out.stat().st_mode & 0o077 == 0


def test_status_meters_and_hits(floor: Floor) -> None:
    _play(floor, _init(floor))
    code, out, _ = invoke("floor", "status", "--floor", floor.admin_uri, "--json")
    tables = {t["table_id"]: t for t in json.loads(out)["tables"]}
    assert code == 0
    assert (tables["t01"]["state"], tables["t01"]["link_state"], tables["t01"]["dealer"],
            tables["t01"]["rounds"]) == ("open", "up", "D0417", 2)
    assert (tables["t02"]["state"], tables["t02"]["link_state"]) == ("closed", "down")

    code, out, _ = invoke("floor", "meters", "--floor", floor.admin_uri, "--json")
    meters = json.loads(out)
    primary = next(lv for lv in meters["levels"] if lv["level"] == "primary")
    # 1,100 cents of wagers at 1.5 %: 16 cents, 500,000 millionths waiting. t01 took
    # 1,000,015 whole and the house seeded $10,000 again; t02's 20 % of 1,000,001 is 200,000,
    # and the house topped the 800,001 left up to $10,000 (199,999)
    assert (primary["contributions_cents"], primary["carry_millionths"], primary["wins_cents"],
            primary["seed_cents"], primary["current_cents"]) == (
        16, 500_000, 1_200_015, 1_000_000 + 1_000_000 + 199_999, 1_000_000)
    assert meters["tables"][0] == {"table_id": "t01",
                                   "contributions_cents": {"primary": 15, "secondary": 2},
                                   "wagers_cents": {"primary": 1_000, "secondary": 500}}

    code, out, _ = invoke("floor", "hits", "--floor", floor.admin_uri, "--json")
    hits = json.loads(out)["hits"]
    assert [(h["table_id"], h["seat"], h["round"], h["amount_cents"], h["validator"])
            for h in hits] == [("t01", 3, 2, 1_000_015, "floorperson"),
                               ("t02", 2, 1, 200_000, None)]
    code, out, _ = invoke("floor", "hits", "--floor", floor.admin_uri)
    assert code == 0
    assert out.index("$10,000.15") < out.index("$2,000.00")
    assert "floorperson (floorperson)" in out and "waiting" in out


def _books(monkeypatch: pytest.MonkeyPatch, tmp_path: Path,
           books: dict[str, LocalBook]) -> dict[str, Path]:
    """Ledger files standing for tables' ledgers: ``--ledger`` reads each as its book.

    How a table's ledger keeps the link's records is the table side's (etg.floor.local_book,
    docs/floor.md); this file tests what ``reconcile`` does with what they recorded.
    """
    paths = {name: tmp_path / f"{name}.db" for name in books}
    for path in paths.values():
        path.write_bytes(b"")
    by_path = {paths[name]: book for name, book in books.items()}
    monkeypatch.setattr("etg.cli.floor.read_local_book", lambda path: by_path[path])
    return paths


def test_reconcile_is_exact_and_names_table_and_round_on_a_difference(
        floor: Floor, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _play(floor, _init(floor))
    t01 = (Contribution(1, 1, "primary", 500), Contribution(1, 1, "secondary", 500),
           Contribution(2, 3, "primary", 500))
    ledgers = _books(monkeypatch, tmp_path, {
        "good": LocalBook("t01", t01, (LocalHit(2, 3, 0, "primary", 1_000_015),)),
        "lost": LocalBook("t01", (*t01, Contribution(3, 1, "primary", 500))),
        "wrong_hit": LocalBook("t02", (Contribution(1, 2, "primary", 100),),
                               (LocalHit(1, 2, 0, "primary", 200_001),))})
    code, out, _ = invoke("floor", "reconcile", "--floor", floor.admin_uri, "--ledger",
                          str(ledgers["good"]))
    assert code == 0
    assert out.splitlines()[-1] == "exact and 1 table ledger(s)"
    assert ("level primary: seed $21,999.99 + contributions $0.16 + adjustments $0.00 = "
            "current $10,000.00 + wins $12,000.15 + overflow $0.00 + reserve $0.00") in out

    code, out, _ = invoke("floor", "reconcile", "--floor", floor.admin_uri, "--ledger",
                          str(ledgers["lost"]), "--ledger", str(ledgers["wrong_hit"]), "--json")
    assert code == 1
    found = json.loads(out)
    assert found["exact"] is False
    assert [(d["table"], d["round"], d["what"]) for d in found["differences"]] == [
        ("t01", 3, "seat 1 primary: 500 cents in the ledger, none at the controller"),
        ("t02", 1, "seat 2 spot 0 primary hit: 200001 cents in the ledger, 200000 at the "
                    "controller")]
    assert all(level["exact"] for level in found["levels"])


def test_reconcile_finds_books_that_do_not_balance(floor: Floor) -> None:
    _play(floor, _init(floor))
    conn = floor.admin()
    conn.execute("ALTER TABLE floor.levels DISABLE TRIGGER meter_guard")
    conn.execute("UPDATE floor.levels SET current_cents = current_cents - 1 "
                 "WHERE level = 'secondary'")  # a cent gone without a hit: damage
    code, out, _ = invoke("floor", "reconcile", "--floor", floor.admin_uri)
    assert code == 1
    assert ("DIFFERENCE level secondary: seed 1000000 + contributions 2 + adjustments 0 = "
            "1000002, but current 1000001 + wins 0 + overflow 0 + reserve 0 = 1000001") in out


def _pins(tmp_path: Path) -> Path:
    config = config_copy(tmp_path)
    set_cabinet_value(config / "cabinet.yaml", "supervisor_pin_hash", hash_pin(SUPERVISOR_PIN))
    return config


def test_level_changes_with_the_supervisor_pin_and_never_while_tables_are_open(
        floor: Floor, tmp_path: Path) -> None:
    logins = _init(floor)
    config = _pins(tmp_path)
    change = ("floor", "level", "primary", "--floor", floor.admin_uri, "--rate", "20000",
              "--reason", "new rate", "--config", str(config), "--pin-stdin")
    code, _, err = invoke(*change, stdin="9999\n")
    assert (code, err) == (1, "etg floor level: wrong supervisor PIN; nothing was changed\n")
    functions.heartbeat(floor.table(logins["t02"]), "t02", "open", None, 0)
    code, _, err = invoke(*change, stdin=f"{SUPERVISOR_PIN}\n")
    assert (code, err) == (1, "etg floor level: refused: level primary cannot change while "
                              "tables are open: t02\n")
    assert reads.levels(floor.admin())[0].rate_millionths == 15_000
    functions.heartbeat(floor.table(logins["t02"]), "t02", "closed", None, 0)
    code, out, _ = invoke(*change, "--json", stdin=f"{SUPERVISOR_PIN}\n")
    assert code == 0
    assert json.loads(out)["levels"][0]["rate_millionths"] == 20_000
    code, out, _ = invoke("floor", "level", "secondary", "--floor", floor.admin_uri,
                          "--set-meter", "900000", "--reason", "meter fault", "--config",
                          str(config), "--pin-stdin", "--json", stdin=f"{SUPERVISOR_PIN}\n")
    assert code == 0
    assert json.loads(out)["levels"][0]["adjustments_cents"] == -100_000
    signed = floor.admin().execute("SELECT kind, level, supervisor, reason FROM floor.adjustments"
                                   " ORDER BY adjustment_id").fetchall()
    assert signed == [("level", "primary", "supervisor", "new rate"),
                      ("meter", "secondary", "supervisor", "meter fault")]
    code, out, _ = invoke("floor", "level", "--floor", floor.admin_uri)
    assert code == 0 and "2.0000%" in out and "$9,000.00" in out


@pytest.mark.parametrize(("args", "message"), [
    (("floor", "status"), "etg floor status: no floor given: --floor URI or ETG_FLOOR_URI"),
    (("floor", "meters", "--floor", "postgresql://nobody@127.0.0.1:1/x"),
     "etg floor meters: cannot reach the floor: "),
    (("floor", "level", "primary", "--floor", "postgresql://x@/y", "--rate", "1"),
     "etg floor level: a change needs --reason"),
    (("floor", "init", "--floor", "postgresql://x@/y", "--table", "Bad Id"),
     "etg floor init: 'Bad Id': a table id is 1 to 32 lower-case letters"),
    (("floor", "init", "--floor", "postgresql://x@/y", "--link", "jackpot"),
     "etg floor init: 'jackpot' is not a valid ProgressiveLevel"),
    (("floor", "reconcile", "--floor", "postgresql://x@/y", "--ledger", "/nonexistent.db"),
     "etg floor reconcile: /nonexistent.db: no such ledger"),
])
def test_bad_input_is_one_line_and_exit_2(args: tuple[str, ...], message: str,
                                          monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("ETG_FLOOR_URI", raising=False)
    code, _, err = invoke(*args)
    assert code == 2
    assert err.startswith(message)
    assert len(err.strip().splitlines()) == 1


def test_a_database_without_a_floor_is_said_so(floor_server: object, floor: Floor) -> None:
    uri = floor.server.uri(database="postgres")
    code, _, err = invoke("floor", "status", "--floor", uri)
    assert (code, err) == (2, "etg floor status: no floor in that database (run etg floor "
                              "init)\n")


def test_init_follows_the_cabinets_active_paytable_and_adds_only_new_tables(
        floor: Floor, tmp_path: Path) -> None:
    config = config_copy(tmp_path)
    code, out, err = invoke("floor", "init", "--floor", floor.admin_uri, "--config", str(config),
                            "--link", "primary,secondary,progressive_payout", "--table", "t01")
    assert code == 0, err
    assert [line.split()[0] for line in out.splitlines()] == ["t01", "reader"]
    levels = {lv.level: lv for lv in reads.levels(floor.admin())}
    # the shipped cabinet.yaml's active paytable links its Progressive Payout meter too
    assert sorted(levels) == ["primary", "progressive_payout", "secondary"]
    assert levels["primary"].paytable == "md-community-5"  # the paytable's id
    code, out, _ = invoke("floor", "init", "--floor", floor.admin_uri, "--config", str(config),
                          "--table", "t01", "--table", "t02")
    assert code == 0
    assert [line.split()[0] for line in out.splitlines()] == ["t02", "reader"]


def test_status_and_meters_as_rich_tables(floor: Floor) -> None:
    _play(floor, _init(floor))
    code, out, _ = invoke("floor", "status", "--floor", floor.admin_uri)
    assert code == 0
    row = next(line for line in out.splitlines() if "t01" in line)
    assert row.replace("│", " ").split()[:4] == ["t01", "A-1001", "open", "up"]
    assert "D0417" in row
    code, out, _ = invoke("floor", "meters", "--floor", floor.admin_uri)
    assert code == 0
    primary = next(line for line in out.splitlines() if "primary" in line)
    # seed, contributions, current, hits, wins, overflow, reserve, carry, rate
    assert primary.replace("│", " ").split()[1:] == [
        "$21,999.99", "$0.16", "$10,000.00", "2", "$12,000.15", "$0.00", "$0.00",
        "0.500000¢", "1.5000%"]
