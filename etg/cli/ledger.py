"""``etg ledger ...``: the audit commands (read-only) and the archive."""

from __future__ import annotations

import contextlib
import functools
import inspect
import json
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click
from rich.console import Console
from rich.progress import BarColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Table as Table_

from etg.config.loader import default_config_dir

if TYPE_CHECKING:
    from etg.ledger.store import Ledger

from etg.cli.program import (
    _cabinet_or_exit,
    _refuse,
    freshness_keeper,
    ledger_or_cabinets,
    loudness,
    main,
    say,
)

# --- etg ledger -----------------------------------------------------------------------------

@main.group()
def ledger() -> None:
    """The cabinet's ledger: init, pubkey; audit it (verify, tilts, recall, meters, export);
    acknowledge, archive.

    Audit commands open the file read-only and need only the public key: they work
    beside a running kiosk and never change the ledger. acknowledge and archive, each with
    the supervisor's PIN, write it, as the ledger's single writer, with the private key:
    refused while the kiosk holds it.
    """


_CONFIG = click.option("--config", "config_dir", type=click.Path(file_okay=False, path_type=Path),
                       help="Site configuration directory with cabinet.yaml (default: "
                            "ETG_CONFIG_DIR, else ~/.config/etg, /etc/etg on a cabinet; "
                            "etg paths shows it).")


_CONFIG_KEY = "etg.ledger.config_dir"


def _config_dir() -> Path | None:
    """The command's ``--config``: the keys move with it (issue 25, finding 4)."""
    value: Path | None = click.get_current_context().meta.get(_CONFIG_KEY)
    return value


def _db_option(f: Any) -> Any:
    """``--db`` and ``--config``: the ledger named, else the cabinet's (``database`` of its
    ``cabinet.yaml``, or ``ledger.db`` in the data directory; see ``etg paths``)."""
    wants_config = "config_dir" in inspect.signature(f).parameters

    @functools.wraps(f)
    def command(*args: Any, db_path: Path | None, config_dir: Path | None,
                **kwargs: Any) -> Any:
        db_path = ledger_or_cabinets(db_path, config_dir)
        click.get_current_context().meta[_CONFIG_KEY] = config_dir  # where its keys are
        if wants_config:
            kwargs["config_dir"] = config_dir
        return f(*args, db_path=db_path, **kwargs)

    command = click.option("--db", "db_path", type=click.Path(dir_okay=False, path_type=Path),
                           help="Ledger file (default: the cabinet's ledger).")(command)
    return _CONFIG(command)


@ledger.command("verify")
@_db_option
@click.option("--full", is_flag=True,
              help="Recompute every row from the first round (streaming, with progress), "
                   "not only from the newest checkpoint.")
@click.option("--events", is_flag=True,
              help="Also decode every round's events and make its summary again (slower).")
@click.option("--archive", "archives", multiple=True,
              type=click.Path(exists=True, dir_okay=False, path_type=Path),
              help="An archive of this ledger (etg ledger archive): its links are walked as "
                   "one chain with the ledger's. May be given more than once.")
@click.option("--pubkey", "public_key", type=click.Path(dir_okay=False, path_type=Path),
              help="The public key to check the signatures with (a PEM file, as etg ledger "
                   "pubkey prints it on the cabinet); default: the site configuration's.")
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
def ledger_verify(db_path: Path, full: bool, events: bool, archives: tuple[Path, ...],
                  public_key: Path | None, as_json: bool, config_dir: Path | None) -> None:
    """Integrity as at start-up; exit 0 clean, 1 problems or an active tilt, 2 cannot read.

    Needs only the ledger's public key, never its private key. Without --full it checks the
    rounds since the newest checkpoint, and says which, and when the whole history was last
    verified (the kiosk does it in the background). With --full, rounds moved to an archive
    that is not given are named as not checked (a problem: the whole history was not
    verified). The ledger's head is also checked against the record kept outside the data
    directory (cabinet.yaml freshness: a TPM counter or the anchor's copy in --config).
    """
    from etg.ledger.archive import check_archives, unchecked, unchecked_problem
    from etg.ledger.scope import checked_scope
    from etg.ledger.verify import active_tilts, verify

    store = _open_ledger(db_path, public_key)  # a ledger that is not there: nothing read
    store.freshness = freshness_keeper(config_dir)
    keeper = store.freshness
    missing: list[dict[str, Any]] = []
    try:
        with _progress("verify", enabled=full and not as_json) as tick:
            problems = verify(store, full=full, progress=tick, events=events or None)
        if archives:
            with store.reading():
                problems += check_archives(store, list(archives))
        if full:
            with store.reading():
                missing = unchecked(store, list(archives))
            problems += [unchecked_problem(record) for record in missing]
        with store.reading():
            rounds = store.round_count()
            tilts = active_tilts(store)
            scope = checked_scope(store, full)
            freshness = keeper.describe(store)
    finally:
        store.close()
    fingerprint = None if store.key is None else store.key.fingerprint
    if as_json:
        click.echo(json.dumps({"db": str(db_path), "rounds": rounds, "full": full,
                               "checked_from_round": scope.first,
                               "checked_to_round": scope.last,
                               "checkpoint_at": scope.checkpoint_at,
                               "whole_history_verified_at": scope.verified_at,
                               "whole_history_verified_through": scope.verified_through,
                               "whole_history_problems": scope.verified_problems,
                               "public_key_fingerprint": fingerprint,
                               "clean": not problems and not tilts,
                               "freshness": freshness,
                               "problems": [{"check": p.check, "message": p.message}
                                            for p in problems],
                               "active_tilts": [_tilt_json(t) for t in tilts],
                               "unchecked_archives": [
                                   {"entries": [r["first"], r["last"]], "rounds": r["rounds"],
                                    "file": r["file"], "sha256": r["sha256"]}
                                   for r in missing]}, indent=2))
    else:
        for p in problems:
            click.echo(f"{db_path}: {p.check}: {p.message}")
        for t in tilts:
            click.echo(f"{db_path}: active tilt {t['id']} since {t['at']}: "
                       f"{t['details']['check']}: {t['details']['message']}")
        verdict = ("clean" if not problems else f"{len(problems)} problems") + (
            f", {len(tilts)} active tilts" if tilts else "")
        if full or scope.checkpoint_at is None:
            click.echo(f"{db_path}: {rounds} rounds, {verdict}")
        else:  # issue 25, finding 10: say what a quick verify checked, never more
            click.echo(f"{db_path}: checked {scope.rounds()} since the checkpoint of "
                       f"{scope.checkpoint_at} (entries row {scope.checkpoint_seq}), {verdict}; "
                       f"the whole history ({rounds:,} rounds) {scope.whole_history()}")
    if problems or tilts:
        sys.exit(1)


@ledger.command("archive")
@_db_option
@click.option("--before", required=True, metavar="DATE",
              help="Archive the rounds that ended before this date (YYYY-MM-DD, UTC) or ISO "
                   "time, not in the future: up to the last checkpoint between rounds before "
                   "it that leaves the last 100 rounds live.")
@click.option("--out", "out", required=True, type=click.Path(dir_okay=False, path_type=Path),
              help="The archive file to write (never overwritten).")
@click.option("--pin-stdin", is_flag=True, help="Read the supervisor PIN from standard input.")
def ledger_archive(db_path: Path, config_dir: Path | None, before: str, out: Path,
                   pin_stdin: bool) -> None:
    """Move old completed rounds into a verifiable archive file, with the supervisor PIN.

    Meters, checkpoints and the last 100 rounds (game recall) stay live; the ledger records
    the archive's head and SHA-256, and the two verify as one chain (etg ledger verify
    --full --archive FILE). Writes the ledger: refused while the kiosk or another writer
    holds it.
    """
    from datetime import UTC, datetime

    from etg.cli.writes import ask_pin, authorised, ledger_to_write
    from etg.ledger.archive import archive
    from etg.ledger.store import LedgerError
    from etg.table.pin import Credential, PinRole

    moment = _moment(before, upper=False, option="etg ledger archive: --before",
                     rounds=False)  # the start of that day (or that instant), UTC
    if datetime.fromisoformat(moment) > datetime.now(UTC):
        _refuse(f"etg ledger archive: --before {before} is in the future: only rounds already "
                f"played are archived")
    if not db_path.exists():
        _refuse(f"{db_path}: no such ledger")
    if not out.parent.is_dir():
        _refuse(f"{out}: no folder {out.parent} to write the archive in")
    cabinet = _cabinet_or_exit((config_dir or default_config_dir()) / "cabinet.yaml")
    if cabinet.supervisor_pin_hash is None:
        _refuse("no supervisor PIN is set: run etg pin set --role supervisor")
    with ledger_to_write(db_path, "archive", config_dir) as store:
        who = authorised(store, Credential.of(PinRole.SUPERVISOR), cabinet,
                         ask_pin("Supervisor PIN", pin_stdin), "an archive")
        try:
            done = archive(store, moment, out, actor=who)
        except LedgerError as error:
            _refuse(str(error), code=1)
    rounds = "no rounds" if done.rounds is None else f"rounds {done.rounds[0]} to {done.rounds[1]}"
    click.echo(f"{db_path}: entries {done.first} to {done.last} ({rounds}) moved to {out} "
               f"(sha256 {done.sha256})")


@ledger.command("tilts")
@_db_option
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
def ledger_tilts(db_path: Path, as_json: bool) -> None:
    """Active and past tilts: cause, time, and who cleared them."""
    from etg.ledger.verify import active_tilts

    store = _open_ledger(db_path)
    try:
        with store.reading():
            entries = store.last_events(("tilt", "tilt_cleared"), 1_000_000)
            active = {t["id"] for t in active_tilts(store)}
    finally:
        store.close()
    cleared_by: dict[int, dict[str, Any]] = {}
    pending: list[int] = []
    for entry in entries:
        if entry["kind"] == "tilt":
            pending.append(entry["id"])
            continue
        ids = entry["details"].get("tilts")
        for tilt_id in (pending if ids is None else ids):
            cleared_by.setdefault(int(tilt_id), entry)
        pending = [] if ids is None else [i for i in pending if i not in ids]
    rows = [{**_tilt_json(e), "active": e["id"] in active,
             "cleared_by": cleared_by[e["id"]]["actor"] if e["id"] in cleared_by else None,
             "cleared_at": cleared_by[e["id"]]["at"] if e["id"] in cleared_by else None}
            for e in entries if e["kind"] == "tilt"]
    if as_json:
        click.echo(json.dumps({"db": str(db_path), "tilts": rows}, indent=2))
        return
    if not rows:
        click.echo(f"{db_path}: no tilt has ever been recorded")
        return
    table = Table_(title=f"tilts · {db_path}")
    for column in ("id", "since", "cause", "state"):
        table.add_column(column, overflow="fold")
    for row in rows:
        state = "ACTIVE" if row["active"] else f"cleared by {row['cleared_by']} {row['cleared_at']}"
        table.add_row(str(row["id"]), row["at"], f"{row['check']}: {row['message']}", state)
    Console(width=160).print(table)


@ledger.command("acknowledge")
@_db_option
@click.option("--tilt", "tilt_id", type=int, required=True,
              help="The tilt's id (etg ledger tilts).")
@click.option("--pin-stdin", is_flag=True, help="Read the supervisor PIN from standard input.")
def ledger_acknowledge(db_path: Path, tilt_id: int, config_dir: Path | None,
                       pin_stdin: bool) -> None:
    """Clear one tilt with the supervisor PIN; logged with who and what was cleared."""
    from etg.cli.writes import ask_pin, ledger_to_write
    from etg.ledger.verify import active_tilts
    from etg.table.pin import PinRole, verify_pin

    cabinet_file = (config_dir or default_config_dir()) / "cabinet.yaml"
    stored = _cabinet_or_exit(cabinet_file).supervisor_pin_hash
    if stored is None:
        _refuse("no supervisor PIN is set: run etg pin set --role supervisor")
    with ledger_to_write(db_path, "acknowledge", config_dir) as store:
        active = {t["id"]: t for t in active_tilts(store)}
        if tilt_id not in active:
            _refuse(f"{db_path}: tilt {tilt_id} is not active "
                    f"(active: {', '.join(map(str, active)) or 'none'})", code=1)
        pin = ask_pin("Supervisor PIN", pin_stdin)
        role = PinRole.SUPERVISOR.value
        if not verify_pin(pin, stored):
            with store.atomic():
                store.log("pin_failed", role, {"role": role, "where": "command line"})
            _refuse("wrong supervisor PIN; nothing was cleared", code=1)
        # The anchor follows the ledger only once no anchor tilt is left standing.
        store.anchor_paused = any(t["details"]["check"] == "anchor"
                                  for i, t in active.items() if i != tilt_id)
        with store.atomic():
            store.log("pin_ok", role, {"role": role, "where": "command line"})
            tilt = active[tilt_id]["details"]
            restored = store.derived.restore_table(store)  # the meters as the chain sums
            if restored:
                store.log("meters_restored", role, restored)
            store.log("tilt_cleared", role, {"tilts": [tilt_id], "problems":
                                             f"{tilt['check']}: {tilt['message']}"})
    click.echo(f"{db_path}: tilt {tilt_id} cleared by the supervisor")


@ledger.command("recall")
@_db_option
@click.option("--last", type=click.IntRange(min=1), default=10, show_default=True,
              help="How many of the latest rounds.")
def ledger_recall(db_path: Path, last: int) -> None:
    """Game recall: the last N rounds as they were played."""
    from etg.ledger.recall import render_round

    store = _open_ledger(db_path)
    try:
        with store.reading():
            records = store.rounds(last=last)
    finally:
        store.close()
    for record in records:
        click.echo(render_round(record))
        click.echo("")


@ledger.command("meters")
@_db_option
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
def ledger_meters(db_path: Path, as_json: bool) -> None:
    """The meters, per paytable and per seat (seat 0: the whole table)."""
    store = _open_ledger(db_path)
    try:
        meters = store.meters()
    finally:
        store.close()
    if as_json:
        click.echo(json.dumps({pid: {str(seat): {name: value for (s, name), value
                                                  in sorted(values.items()) if s == seat}
                                     for seat in sorted({s for s, _ in values})}
                               for pid, values in sorted(meters.items())}, indent=2))
        return
    for pid, values in sorted(meters.items()):
        table = Table_(title=f"meters · {pid}")
        table.add_column("seat", justify="right")
        table.add_column("meter")
        table.add_column("value", justify="right")
        for (seat, name), value in sorted(values.items()):
            table.add_row(str(seat), name, f"{value:,}")
        Console().print(table)


@ledger.command("export")
@_db_option
@click.option("--format", "fmt", type=click.Choice(["csv", "jsonl", "json"]), required=True,
              help="csv: one row per settled wager and award; jsonl: every round record and "
                   "event-log entry, one per line, in chain order; json: the same as one "
                   "document.")
@click.option("--from", "start", metavar="ROUND|DATE",
              help="First round number, or first date (YYYY-MM-DD, UTC) or ISO time.")
@click.option("--to", "end", metavar="ROUND|DATE",
              help="Last round number, or last date (the whole day, UTC) or ISO time.")
@click.option("--out", "out_file", type=click.Path(dir_okay=False, path_type=Path),
              help="Write to this file (never overwritten) instead of standard output.")
def ledger_export(db_path: Path, fmt: str, start: str | None, end: str | None,
                  out_file: Path | None) -> None:
    """Export the hand ledger (jsonl and json: with the event log) for audit.

    Read in chunks and written as it is read: memory stays flat at any ledger size.
    """
    span = _span(start, end)
    if out_file is not None and out_file.exists():
        _refuse(f"{out_file}: already exists; an export never overwrites a file")
    if out_file is not None and not out_file.parent.is_dir():
        _refuse(f"{out_file}: no folder {out_file.parent} to write it in")
    store = _open_ledger(db_path)
    try:
        if out_file is None:
            _export(store, span, fmt, sys.stdout)
            sys.stdout.flush()
            return
        with _new_file(out_file) as out:
            _export(store, span, fmt, out)
    finally:
        store.close()
    say(f"{db_path}: exported to {out_file}")


@contextlib.contextmanager
def _new_file(path: Path) -> Iterator[Any]:
    """``path`` made new for writing; removed again if the writing does not finish."""
    with path.open("x", encoding="utf-8", newline="") as out:
        try:
            yield out
        except BaseException:
            out.close()
            path.unlink(missing_ok=True)
            raise


def _export(store: Ledger, span: Any, fmt: str, out: Any) -> None:
    """The export of ``span`` in ``fmt``, written to ``out`` as it is read."""
    from etg.ledger.export import csv_lines, jsonl_lines

    with store.reading(), _progress("export", enabled=True) as tick:
        trail = _counted(store.audit_trail(span), tick, store.round_count())
        if fmt == "csv":
            chunks = csv_lines(item for kind, item in trail if kind == "round")
        elif fmt == "jsonl":
            chunks = jsonl_lines(trail)
        else:
            chunks = _json_document(store, span, tick)
        for chunk in chunks:
            out.write(chunk)


def _json_document(store: Ledger, span: Any, tick: Any) -> Iterator[str]:
    """One JSON document: the rounds, then the event log, each streamed from the same snapshot."""
    from etg.ledger.export import json_chunks

    rounds = (item for kind, item in _counted(store.audit_trail(span), tick,
                                              store.round_count()) if kind == "round")
    events = (item for kind, item in store.audit_trail(span) if kind == "event")
    yield from json_chunks(rounds, events)


def _counted(trail: Iterator[tuple[str, dict[str, Any]]], tick: Any,
             total: int) -> Iterator[tuple[str, dict[str, Any]]]:
    done = 0
    for kind, item in trail:
        if kind == "round" and tick is not None:
            done += 1
            if done % 500 == 0:
                tick(done, total)
        yield kind, item


def _moment(text: str, upper: bool, option: str, rounds: bool = True) -> str:
    """A date (YYYY-MM-DD, the whole day, UTC) or ISO time as an ISO instant in UTC.

    ``upper``: the end of a span, just past the day or instant. ``option`` names
    the option in the one line a bad value gets.
    """
    from datetime import UTC, date, datetime, timedelta

    try:
        day = date.fromisoformat(text)
        moment = datetime(day.year, day.month, day.day, tzinfo=UTC)
        return (moment + timedelta(days=1) if upper else moment).isoformat()
    except ValueError:
        pass
    try:
        if text.isdigit():
            raise ValueError(text)  # fromisoformat reads "2024" as a year
        moment = datetime.fromisoformat(text)
    except ValueError:
        _refuse(f"{option} {text!r} is neither a round number nor a date (YYYY-MM-DD) or ISO "
                f"time" if rounds else
                f"{option} {text!r} is not a date (YYYY-MM-DD) or ISO time")
    moment = moment if moment.tzinfo else moment.replace(tzinfo=UTC)
    moment = moment.astimezone(UTC)
    return (moment + timedelta(microseconds=1) if upper else moment).isoformat()


def _span(start: str | None, end: str | None) -> Any:
    """The ``--from`` / ``--to`` of an export as a :class:`etg.ledger.store.Span`; one line
    and exit 2 for a bound that is not one, or a span that ends before it starts."""
    from etg.ledger.store import Span

    def bound(text: str | None, upper: bool) -> tuple[int | None, str | None]:
        if text is None:
            return None, None
        if text.isdigit():
            return int(text), None
        return None, _moment(text, upper, f"etg ledger export: {'--to' if upper else '--from'}")

    first, since = bound(start, upper=False)
    last, before = bound(end, upper=True)
    if first is not None and last is not None and first > last:
        _refuse(f"etg ledger export: --from {first} is after --to {last}: no round is in between")
    if since is not None and before is not None and since >= before:
        _refuse(f"etg ledger export: --from {start} is not before --to {end}: no round is in "
                f"between")
    return Span(first_round=first, last_round=last, since=since, before=before)


def _open_ledger(db_path: Path, public_key: Path | None = None) -> Ledger:
    """The ledger opened read-only for an audit, with the public key of the command's
    ``--config`` (or ``public_key``); one line and exit 2 if it cannot be read."""
    from etg.ledger.signing import LedgerKeyError
    from etg.ledger.store import Ledger, LedgerError

    try:
        return Ledger.open_readonly(db_path, config_dir=_config_dir(), public_key=public_key)
    except (LedgerError, LedgerKeyError) as error:
        _refuse(str(error))


def _tilt_json(entry: dict[str, Any]) -> dict[str, Any]:
    return {"id": entry["id"], "at": entry["at"], "check": entry["details"]["check"],
            "message": entry["details"]["message"]}


@contextlib.contextmanager
def _progress(what: str, enabled: bool) -> Iterator[Any]:
    """A progress bar on a terminal's stderr, or nothing."""
    if not enabled or loudness().quiet or not sys.stderr.isatty():
        yield None
        return
    columns = (TextColumn("{task.description}"), BarColumn(), TextColumn("{task.completed:,}"),
               TimeRemainingColumn())
    with Progress(*columns, console=Console(stderr=True), transient=True) as bar:
        task = bar.add_task(what, total=None)
        yield lambda done, total: bar.update(task, completed=done, total=total)


