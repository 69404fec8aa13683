"""``etg floor ...``: the back office of a linked floor (SPEC §13, issue 27 item 4).

``init`` (schema, levels from a paytable, the tables' roles), ``serve`` (the floor's
PostgreSQL server in the foreground: the controller is its SQL functions, see
docs/floor.md), ``status``, ``meters``, ``hits``, ``reconcile`` and ``level``.
Each connects with ``--floor URI`` (or ``ETG_FLOOR_URI``). Rich tables, or
``--json``. Exit codes: 0 done, 1 a difference or a refusal, 2 bad input or no
floor to reach.
"""

from __future__ import annotations

import json
import signal
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import asdict
from datetime import UTC, datetime
from pathlib import Path
from types import FrameType
from typing import Any

import click
import psycopg
from psycopg import sql
from rich.console import Console
from rich.table import Table as Table_

from etg.cli.program import _active_paytable, _cabinet_or_exit, _load_or_exit, _refuse, main, say
from etg.config.loader import default_config_dir
from etg.core.money import format_cents
from etg.core.paytable import RATE_SCALE, ProgressiveLevel
from etg.floor import admin, reads
from etg.floor.errors import FloorRefusal
from etg.floor.local_book import LocalBookError, read_local_book
from etg.floor.reconcile import reconcile
from etg.floor.server import Server, ServerError

REFUSED = 1

_FLOOR = click.option("--floor", "floor_uri", envvar="ETG_FLOOR_URI", metavar="URI",
                      help="The floor's PostgreSQL connection string as its back office "
                           "(default: ETG_FLOOR_URI; etg floor serve prints it).")
_JSON = click.option("--json", "as_json", is_flag=True, help="Print JSON.")


@main.group("floor")
def floor() -> None:
    """The linked floor: its controller's server, its tables, meters, hits and books.

    The controller keeps the linked progressive levels of many tables in PostgreSQL;
    a table links to it with the connection string that init prints.
    """


def _floor_uri(floor_uri: str | None, what: str) -> str:
    if not floor_uri:
        _refuse(f"etg floor {what}: no floor given: --floor URI or ETG_FLOOR_URI")
    return floor_uri


@contextmanager
def _connect(floor_uri: str | None, what: str) -> Iterator[psycopg.Connection[Any]]:
    """The back office's connection, or one line and exit 2; refusals one line and exit 1."""
    floor_uri = _floor_uri(floor_uri, what)
    try:
        conn = psycopg.connect(floor_uri, autocommit=True, connect_timeout=10)
    except (psycopg.Error, psycopg.ProgrammingError) as error:
        _refuse(f"etg floor {what}: cannot reach the floor: {_first_line(error)}")
    try:
        with conn:
            yield conn
    except FloorRefusal as refusal:
        _refuse(f"etg floor {what}: refused: {refusal}", code=REFUSED)
    except psycopg.errors.UndefinedTable:
        _refuse(f"etg floor {what}: no floor in that database (run etg floor init)")
    except psycopg.Error as error:
        _refuse(f"etg floor {what}: {_first_line(error)}")


def _first_line(error: BaseException) -> str:
    return (str(error).strip().splitlines() or [type(error).__name__])[0]


# --- serve ---------------------------------------------------------------------------------

@floor.command("serve")
@click.option("--data", "data_dir", type=click.Path(file_okay=False, path_type=Path),
              help="The floor's data directory (made on first use; default: floor/ in the "
                   "data directory, see etg paths).")
@click.option("--port", type=click.IntRange(0, 65535), default=5432, show_default=True,
              help="TCP port on 127.0.0.1 for the tables (0: any free port).")
def floor_serve(data_dir: Path | None, port: int) -> None:
    """Run the floor's PostgreSQL server in the foreground until Ctrl-C or SIGTERM.

    The controller is the database's own functions, so this is the whole
    controller. Prints the back office's ETG_FLOOR_URI.
    """
    from etg.config.places import data_dir as default_data_dir

    folder = data_dir or default_data_dir() / "floor"
    try:
        server = Server.start(folder, port=port)
    except (ServerError, OSError) as error:
        _refuse(f"etg floor serve: {error}")
    stopping = False

    def stop(signum: int, frame: FrameType | None) -> None:
        nonlocal stopping
        stopping = True
        server.request_stop()  # the postmaster ends its sessions; wait() below returns

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    try:
        _ensure_database(server)
        click.echo(f"ETG_FLOOR_URI={server.uri(database='floor')}")
        click.echo(f"tables connect to 127.0.0.1:{server.port}; the data is in {folder}")
        sys.stdout.flush()
        status = server.wait()
    except BaseException:
        server.stop_immediate(missing_ok=True)
        raise
    if not stopping:
        _refuse(f"etg floor serve: the server ended by itself (status {status}); "
                f"see {folder / 'server.log'}", code=1)
    say("etg floor serve: stopped")


def _ensure_database(server: Server) -> None:
    with psycopg.connect(server.uri(), autocommit=True) as conn:
        if conn.execute("SELECT 1 FROM pg_database WHERE datname = 'floor'").fetchone() is None:
            conn.execute(sql.SQL("CREATE DATABASE floor"))


# --- init ----------------------------------------------------------------------------------

def _table_spec(value: str) -> tuple[str, str]:
    table_id, _, asset = value.partition(":")
    if not admin.TABLE_ID.fullmatch(table_id):
        raise click.BadParameter(f"{table_id!r}: a table id is 1 to 32 lower-case letters, "
                                 f"digits, - and _ (ID or ID:ASSET)")
    return table_id, asset


@floor.command("init")
@_FLOOR
@click.option("--paytable", "paytable_file", type=click.Path(dir_okay=False, path_type=Path),
              help="The paytable whose meters the levels follow (default: the cabinet's "
                   "active one).")
@click.option("--config", "config_dir", type=click.Path(file_okay=False, path_type=Path),
              help="Site configuration directory with cabinet.yaml, whose active paytable "
                   "the levels follow without --paytable (default: ETG_CONFIG_DIR, else "
                   "~/.config/etg, /etc/etg on a cabinet; etg paths shows it).")
@click.option("--link", "linked", default="primary,secondary", show_default=True,
              help="The linked levels, comma-separated: primary, secondary, "
                   "progressive_payout.")
@click.option("--table", "table_specs", multiple=True, metavar="ID[:ASSET]",
              help="A table to add (repeat): its id and asset number.")
@click.option("--host", help="The host the tables reach the server at (default: the "
                             "--floor URI's).")
@click.option("--port", type=click.IntRange(1, 65535), help="The port the tables use.")
@click.option("--out", "out_file", type=click.Path(dir_okay=False, path_type=Path),
              help="Write the connection strings here (mode 0600) instead of printing them.")
@_JSON
def floor_init(floor_uri: str | None, paytable_file: Path | None, config_dir: Path | None,
               linked: str, table_specs: tuple[str, ...], host: str | None, port: int | None,
               out_file: Path | None, as_json: bool) -> None:
    """Create the schema, the levels (from a paytable) and the tables' roles; print each
    new table's connection string for its cabinet.yaml link (uri)."""
    try:
        levels = [ProgressiveLevel(name.strip()) for name in linked.split(",") if name.strip()]
        tables = [_table_spec(spec) for spec in table_specs]
    except (ValueError, click.BadParameter) as error:
        _refuse(f"etg floor init: {error}")
    if not levels:
        _refuse("etg floor init: --link names no level")
    loaded = _load_or_exit(paytable_file) if paytable_file else _active_paytable(config_dir)
    try:
        rules = admin.levels_from_paytable(loaded.paytable, levels, loaded.paytable.id)
    except ValueError as error:
        _refuse(f"etg floor init: {error}")
    floor_uri = _floor_uri(floor_uri, "init")
    with _connect(floor_uri, "init") as conn:
        logins = admin.init_floor(conn, rules, tables)
        reader = admin.reader_login(conn)
    uris = {login.table_id: admin.login_uri(floor_uri, login, host=host, port=port)
            for login in logins}
    reader_uri = admin.login_uri(floor_uri, reader, host=host, port=port)
    found = {"tables": [{"table_id": login.table_id, "role": login.role,
                         "uri": uris[login.table_id]} for login in logins],
             "reader": {"role": reader.role, "uri": reader_uri},
             "levels": [rule.level.value for rule in rules]}
    text = (json.dumps(found, indent=2) if as_json else
            "\n".join([f"{table_id} {uri}" for table_id, uri in uris.items()]
                      + [f"reader {reader_uri}"]))
    if out_file is not None:
        out_file.touch(mode=0o600)
        out_file.write_text(text + "\n")
        say(f"etg floor init: {len(logins)} table(s) added; connection strings in {out_file}")
    else:
        click.echo(text)


# --- status, meters, hits -------------------------------------------------------------------

def _age(when: datetime | None) -> str:
    if when is None:
        return "never"
    return f"{(datetime.now(UTC) - when).total_seconds():.1f} s ago"


def _jsonable(value: Any) -> Any:
    if isinstance(value, datetime):
        return value.isoformat()
    if isinstance(value, dict):
        return {key: _jsonable(each) for key, each in value.items()}
    if isinstance(value, list | tuple):
        return [_jsonable(each) for each in value]
    return value


@floor.command("status")
@_FLOOR
@_JSON
def floor_status(floor_uri: str | None, as_json: bool) -> None:
    """The tables: state, link, last heartbeat, outbox depth, dealer, rounds."""
    with _connect(floor_uri, "status") as conn:
        tables = reads.tables(conn)
    if as_json:
        click.echo(json.dumps({"tables": [_jsonable(asdict(t)) for t in tables]}, indent=2))
        return
    out = Table_(title="floor · tables")
    for name in ("table", "asset", "state", "link", "heartbeat", "outbox", "dealer", "rounds",
                 "today"):
        out.add_column(name, justify="right" if name in ("outbox", "rounds", "today") else
                       "left")
    for t in tables:
        out.add_row(t.table_id, t.asset_number, t.state, t.link_state, _age(t.last_heartbeat),
                    str(t.outbox_depth), t.dealer or "", f"{t.rounds:,}", f"{t.rounds_today:,}")
    Console().print(out)


@floor.command("meters")
@_FLOOR
@_JSON
def floor_meters(floor_uri: str | None, as_json: bool) -> None:
    """Per level: seed, contributions, current, hits, wins, overflow, reserve, and the
    contributions of voided rounds (house-funded); per table."""
    with _connect(floor_uri, "meters") as conn:
        view = reads.floor_view(conn)
    if as_json:
        click.echo(json.dumps({"levels": [_jsonable(asdict(lv)) for lv in view.levels],
                               "tables": [{"table_id": t.table_id,
                                           "contributions_cents": dict(t.contributions_cents),
                                           "wagers_cents": dict(t.wagers_cents)}
                                          for t in view.tables]}, indent=2))
        return
    levels = Table_(title="floor · levels")
    for name in ("level", "seed", "contributions", "current", "hits", "wins", "overflow",
                 "reserve", "carry", "rate"):
        levels.add_column(name, justify="left" if name == "level" else "right")
    for lv in view.levels:
        levels.add_row(lv.level, format_cents(lv.seed_cents),
                       format_cents(lv.contributions_cents), format_cents(lv.current_cents),
                       f"{lv.hits:,}", format_cents(lv.wins_cents),
                       format_cents(lv.overflow_cents), format_cents(lv.reserve_cents),
                       f"{lv.carry_millionths / RATE_SCALE:.6f}¢",
                       f"{lv.rate_millionths / RATE_SCALE:.4%}")
    console = Console()
    console.print(levels)
    for lv in view.levels:  # in the contributions above, and on the meter: SPEC §13
        console.print(f"{lv.level}: {_voided_words(lv.voided_cents, lv.voided_rounds)}")
    per_table = Table_(title="floor · contributions per table")
    names = [lv.level for lv in view.levels]
    per_table.add_column("table")
    for name in names:
        per_table.add_column(name, justify="right")
    for t in view.tables:
        per_table.add_row(t.table_id, *(format_cents(t.contributions_cents.get(name, 0))
                                        for name in names))
    console.print(per_table)


@floor.command("hits")
@_FLOOR
@click.option("--last", type=click.IntRange(min=1), default=25, show_default=True,
              help="How many of the latest hits.")
@_JSON
def floor_hits(floor_uri: str | None, last: int, as_json: bool) -> None:
    """The last hits in the order paid: table, seat, spot, round, amount, validator."""
    with _connect(floor_uri, "hits") as conn:
        hits = reads.hits(conn, last)
    if as_json:
        click.echo(json.dumps({"hits": [_jsonable(asdict(h)) for h in hits]}, indent=2))
        return
    out = Table_(title=f"floor · last {last} hits")
    for name in ("#", "table", "seat", "spot", "round", "level", "amount", "validator", "at"):
        out.add_column(name, justify="right" if name in ("#", "seat", "spot", "round", "amount")
                       else "left")
    for h in hits:
        # spot 0 is the seat's own (a Bonus Spin); "?" a hit claimed before spots were recorded
        out.add_row(str(h.hit_id), h.table_id, str(h.seat), "?" if h.spot is None else str(h.spot),
                    f"{h.round:,}", h.level,
                    format_cents(h.amount_cents),
                    f"{h.validator} ({h.validator_role})" if h.validator else "waiting",
                    h.claimed_at.strftime("%Y-%m-%d %H:%M:%S"))
    Console().print(out)


# --- reconcile -----------------------------------------------------------------------------

@floor.command("reconcile")
@_FLOOR
@click.option("--ledger", "ledgers", multiple=True,
              type=click.Path(dir_okay=False, path_type=Path),
              help="A linked table's ledger to check against the controller, round by round "
                   "(repeat).")
@_JSON
def floor_reconcile(floor_uri: str | None, ledgers: tuple[Path, ...], as_json: bool) -> None:
    """Seed + contributions = current + wins + overflow + reserve, to the cent, and each
    table's ledger against the controller's rows; exit 1 naming table and round on any
    difference."""
    try:
        books = [read_local_book(path) for path in ledgers]
    except LocalBookError as error:
        _refuse(f"etg floor reconcile: {error}")
    with _connect(floor_uri, "reconcile") as conn:
        result = reconcile(conn, books)
    if as_json:
        click.echo(json.dumps({
            "exact": result.exact,
            "levels": [dict(asdict(b), exact=b.exact) for b in result.levels],
            "tables": list(result.tables_checked),
            "differences": [{"where": d.where, "what": d.what, "table": d.table_id,
                             "round": d.round} for d in result.differences]}, indent=2))
    else:
        for b in result.levels:
            click.echo(f"level {b.level}: seed {format_cents(b.seed_cents)} + contributions "
                       f"{format_cents(b.contributions_cents)} + adjustments "
                       f"{format_cents(b.adjustments_cents)} = current "
                       f"{format_cents(b.current_cents)} + wins {format_cents(b.wins_cents)} + "
                       f"overflow {format_cents(b.overflow_cents)} + reserve "
                       f"{format_cents(b.reserve_cents)} (carry {b.carry_millionths:,} "
                       f"millionths of a cent)")
            click.echo(f"level {b.level}: {_voided_words(b.voided_cents)}")
        for d in result.differences:
            click.echo(f"DIFFERENCE {d}")
        checked = f" and {len(result.tables_checked)} table ledger(s)" if ledgers else ""
        click.echo(f"exact{checked}" if result.exact else
                   f"{len(result.differences)} difference(s)")
    if not result.exact:
        sys.exit(REFUSED)


def _voided_words(cents: int, rounds: int | None = None) -> str:
    """What the house funded of a level's contributions: those of rounds voided at their table
    (MD Ch. 11 D) stay in the pool, as a meter goes down only through a hit or an adjustment."""
    counted = "" if rounds is None else f" in {rounds:,} round(s)"
    return (f"contributions of voided rounds (house-funded): {cents:,} cents "
            f"({format_cents(cents)}){counted}")


# --- level ---------------------------------------------------------------------------------

@floor.command("level")
@_FLOOR
@click.argument("level", required=False,
                type=click.Choice([level.value for level in ProgressiveLevel]))
@click.option("--initial", "initial_cents", type=click.IntRange(min=1), metavar="CENTS")
@click.option("--reset", "reset_cents", type=click.IntRange(min=1), metavar="CENTS")
@click.option("--rate", "rate_millionths", type=click.IntRange(0, RATE_SCALE),
              metavar="MILLIONTHS", help="Rate of progression in millionths (15000 = 1.5%).")
@click.option("--ceiling", "ceiling_cents", type=click.IntRange(min=0), metavar="CENTS",
              help="The meter's ceiling (0: none).")
@click.option("--reserve-cap", "reserve_cap_cents", type=click.IntRange(min=0),
              metavar="CENTS", help="The reserve's cap; above it contributions are overflow "
                                    "(0: none).")
@click.option("--set-meter", "meter_cents", type=click.IntRange(min=0), metavar="CENTS",
              help="Set the meter itself by hand (a logged, signed adjustment).")
@click.option("--reason", help="Why (recorded with the change; required for a change).")
@click.option("--config", "config_dir", type=click.Path(file_okay=False, path_type=Path),
              help="Site configuration directory with cabinet.yaml, holding the supervisor's "
                   "PIN (default: ETG_CONFIG_DIR, else ~/.config/etg, /etc/etg on a cabinet; "
                   "etg paths shows it).")
@click.option("--pin-stdin", is_flag=True, help="Read the supervisor PIN from standard input.")
@_JSON
def floor_level(floor_uri: str | None, level: str | None, initial_cents: int | None,
                reset_cents: int | None, rate_millionths: int | None,
                ceiling_cents: int | None, reserve_cap_cents: int | None,
                meter_cents: int | None, reason: str | None, config_dir: Path | None,
                pin_stdin: bool, as_json: bool) -> None:
    """Show the levels' parameters; or change one level's (refused while tables are open)
    or its meter, signed with the supervisor PIN."""
    params = (initial_cents, reset_cents, rate_millionths, ceiling_cents, reserve_cap_cents)
    changing = any(p is not None for p in params) or meter_cents is not None
    change = _change_asked(level, params, meter_cents, reason) if changing else None
    with _connect(floor_uri, "level") as conn:
        if change is not None:
            _change_level(conn, *change, params, meter_cents, config_dir, pin_stdin)
        levels = [lv for lv in reads.levels(conn) if level is None or lv.level == level]
    if as_json:
        click.echo(json.dumps({"levels": [_jsonable(asdict(lv)) for lv in levels]}, indent=2))
        return
    out = Table_(title="floor · level parameters")
    for name in ("level", "initial", "reset", "rate", "ceiling", "reserve cap", "current"):
        out.add_column(name, justify="left" if name == "level" else "right")
    for lv in levels:
        out.add_row(lv.level, format_cents(lv.initial_cents), format_cents(lv.reset_cents),
                    f"{lv.rate_millionths / RATE_SCALE:.4%}",
                    format_cents(lv.ceiling_cents) if lv.ceiling_cents is not None else "none",
                    format_cents(lv.reserve_cap_cents) if lv.reserve_cap_cents is not None
                    else "none", format_cents(lv.current_cents))
    Console().print(out)


_Params = tuple[int | None, int | None, int | None, int | None, int | None]


def _change_asked(level: str | None, params: _Params, meter_cents: int | None,
                  reason: str | None) -> tuple[str, str]:
    """The level and the reason of a change asked for, or one line and exit 2."""
    if level is None:
        _refuse("etg floor level: name the level to change (primary, secondary, "
                "progressive_payout)")
    if not reason:
        _refuse("etg floor level: a change needs --reason")
    if meter_cents is not None and any(p is not None for p in params):
        _refuse("etg floor level: --set-meter is a change of its own: give it without "
                "the level's parameters")
    return level, reason


def _change_level(conn: psycopg.Connection[Any], level: str, reason: str, params: _Params,
                  meter_cents: int | None, config_dir: Path | None, pin_stdin: bool) -> None:
    """A level's new parameters, or its meter set by hand, signed with the supervisor PIN."""
    if meter_cents is None:
        now = {lv.level: lv for lv in reads.levels(conn)}
        if level not in now:
            _refuse(f"etg floor level: no {level} level on this floor")
        rules = _new_rules(now[level], params)
        admin.set_level(conn, rules, supervisor=_supervisor(config_dir, pin_stdin),
                        reason=reason)
    else:
        admin.adjust_meter(conn, ProgressiveLevel(level), meter_cents,
                           supervisor=_supervisor(config_dir, pin_stdin), reason=reason)


def _new_rules(now: reads.LevelView, params: _Params) -> admin.LevelRules:
    initial, reset, rate, ceiling, cap = params
    return admin.LevelRules(
        ProgressiveLevel(now.level),
        now.initial_cents if initial is None else initial,
        now.reset_cents if reset is None else reset,
        now.rate_millionths if rate is None else rate,
        now.ceiling_cents if ceiling is None else (ceiling or None),
        now.reserve_cap_cents if cap is None else (cap or None),
        now.paytable)


def _supervisor(config_dir: Path | None, pin_stdin: bool) -> str:
    """The supervisor's PIN, checked against cabinet.yaml's hash (the PIN registry of
    etg/table/pin.py); who signs, or one line and exit 1."""
    from etg.table.pin import PinRole, verify_pin

    cabinet_file = (config_dir or default_config_dir()) / "cabinet.yaml"
    stored = _cabinet_or_exit(cabinet_file).supervisor_pin_hash
    if stored is None:
        _refuse("etg floor level: no supervisor PIN is set: run etg pin set --role supervisor")
    pin = (sys.stdin.readline().strip() if pin_stdin else
           click.prompt("Supervisor PIN", hide_input=True, default="", show_default=False))
    if not verify_pin(pin, stored):
        _refuse("etg floor level: wrong supervisor PIN; nothing was changed", code=REFUSED)
    return PinRole.SUPERVISOR.value
