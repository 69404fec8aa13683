"""The floor's link (SPEC §13, issue 27): 40 linked tables against one controller.

Forty bot tables (``python -m etg.table.floor_bot --group``: eight processes of five
tables, a thread each), each with its own ledger on the disk, its own PostgreSQL role
and connection, play the busiest table
(``busiest_bots``: six seats on every wager, both Bonus Spin levels linked) against a
durable throwaway server (etg.floor.server), a round every :data:`BUSIEST_PACE_S` at
each table, about as fast as a dealt table goes. Once every table plays:

- for :data:`BUSY_S`: ``link_ack_ms_p99``, a linked row committed at its table →
  acknowledged by the controller (each row's own time, on the machine's monotonic
  clock); ``link_display_ms_p99``, a contribution committed at one table → shown on
  every other table's meter (the ``ShowLinkedMeters`` committed there whose amounts
  include it: the first at least what the controller answered that shipment), over
  every (shipment, other table) pair; ``link_ms_all.ack_queued_*``, the part of the
  acknowledgement before the shipping call began (the table's side: its link thread woken,
  the outbox read), the rest being the controller's round trip;
- then the server is stopped at once (``pg_ctl stop -m immediate``) for
  :data:`DOWN_S` while the tables play on and fill their outboxes (over 1,000 rows
  together), and started again. ``link_down_s``: the stop → the last table's
  link-down command committed (linked wagers refused from then on);
  ``link_outage_drain_s``: the restart → the last table's outbox empty (the rows
  they held, all tables together: ``link_outage_rows``; few, since linked wagers are
  refused within 3 s of the loss);
- ``link_drain_s``: one more table's link started on an outbox of over 1,000 rows
  (:data:`DRAIN_ROUNDS` rounds of the busiest table, played with its link not yet
  running, as after a long outage or a restore) → its outbox empty, every row
  acknowledged (``link_drained_rows``).

The tables' processes run niced (:data:`TABLE_NICENESS`): the controller stands for a
machine of its own. Forty interpreters took minutes to start on the two shared cores (and
three of them died unheard in one run), hence the groups; the clock of each figure starts
once every table plays. ``quick``: 4 tables, a few seconds of each.
Each process and the server end with the benchmark, whatever ends it.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import platformdirs
import psycopg

from etg.config.cabinet import Link
from etg.config.loader import load_paytable
from etg.core.jackpot import JackpotRules
from etg.core.paytable import ProgressiveLevel
from etg.core.rng import SeededSource
from etg.floor import admin, reads
from etg.floor.server import Server
from etg.ledger.store import Ledger
from etg.table.bots import RoundDriver, busiest_bots
from etg.table.controller import Table
from etg.table.linked import LinkedTable

TABLES, QUICK_TABLES = 40, 4
GROUP = 5
"""Tables a process plays, a thread each."""
BUSIEST_PACE_S = 8.0
"""A round every 8 s at each table: the shortest a dealt round of the busiest table takes
(betting closed by the dealer, the deal, the settle, the wheel) on the kiosk."""
BUSY_S, QUICK_BUSY_S = 60.0, 10.0
DOWN_S, QUICK_DOWN_S = 20.0, 4.0
"""Long enough at that pace for the forty outboxes to hold over 1,000 rows together."""
AFTER_S, QUICK_AFTER_S = 25.0, 8.0
DRAIN_ROUNDS, QUICK_DRAIN_ROUNDS = 84, 5
"""84 rounds of six seats on two linked levels: 1,008 rows waiting."""
START_TIMEOUT_S = 600.0
TABLE_NICENESS = 10
"""The forty tables' processes run at this niceness, the controller's PostgreSQL at the
machine's own: on a floor the controller has its own machine and each table is a cabinet of
its own, and here forty tables' rounds (most of the benchmark's CPU) share two cores with it.
Each table's link thread runs at its table's niceness, so the table's side of every figure is
not favoured; only the controller is kept from waiting behind forty cabinets' work. On the
same two cores with the tables at the server's priority ``link_ack_ms_p99`` measured 99-130
ms (65 with the server's fsync off, so the disk was not the cause), niced 47."""
LEVELS = (ProgressiveLevel.PRIMARY, ProgressiveLevel.SECONDARY)
PAYTABLE = "maryland-community-5.yaml"


def measure(config_dir: Path, *, quick: bool = False) -> dict[str, object]:
    count = QUICK_TABLES if quick else TABLES
    cache = Path(platformdirs.user_cache_dir("etg", appauthor=False))
    cache.mkdir(parents=True, exist_ok=True)
    folder = Path(tempfile.mkdtemp(prefix="bench-link-", dir=cache))
    paytable = config_dir / "paytables" / PAYTABLE
    try:
        with Server.throwaway(port=0, durable=True) as server:
            with psycopg.connect(server.uri(), autocommit=True) as conn:
                rules = admin.levels_from_paytable(load_paytable(paytable).paytable, LEVELS)
                ids = [f"b{n:02d}" for n in range(1, count + 1)]
                logins = admin.init_floor(conn, rules, [(t, t.upper()) for t in (*ids, "drain")])
            uris = {login.table_id: server.uri(login.role, login.password) for login in logins}
            drain_s, drained_rows = _drain(folder / "drain.db", uris.pop("drain"), paytable,
                                           QUICK_DRAIN_ROUNDS if quick else DRAIN_ROUNDS)
            tables = _phase(folder, server, uris, paytable, BUSIEST_PACE_S,
                            QUICK_BUSY_S if quick else BUSY_S,
                            QUICK_DOWN_S if quick else DOWN_S,
                            QUICK_AFTER_S if quick else AFTER_S)
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    ack = [ms for table in tables for _, ms in table["ack_ms"]]
    queued = [ms for table in tables for _, ms in table.get("queued_ms", [])]
    display = _display_ms(tables)
    floor = tables[0] if tables else {}
    return {
        "link_tables": count,
        "link_ack_ms_p99": _p99(ack),
        "link_display_ms_p99": _p99(display),
        "link_down_s": _round(floor.get("down_s")),
        "link_drain_s": _round(drain_s),
        "link_drained_rows": drained_rows,
        "link_outage_drain_s": _round(floor.get("drain_s")),
        "link_outage_rows": floor.get("drained_rows"),
        "link_ms_all": {"ack_p50": _p50(ack), "ack_samples": len(ack),
                        "ack_queued_p50": _p50(queued), "ack_queued_p99": _p99(queued),
                        "display_p50": _p50(display), "display_samples": len(display),
                        "busiest_pace_s": BUSIEST_PACE_S},
    }


def _phase(folder: Path, server: Server, uris: dict[str, str], paytable: Path, pace: float,
           busy_s: float, down_s: float, after_s: float) -> list[dict[str, Any]]:
    """Every table playing; ``busy_s`` once they all do, the server stopped for ``down_s``,
    ``after_s`` more. Each table's timeline (acknowledgements and meters shown before the
    stop only), the first with the floor's down and drain times."""
    processes: list[subprocess.Popen[bytes]] = []
    ids = list(uris)
    try:
        for n in range(0, len(ids), GROUP):
            group = [{"uri": uris[t], "table_id": t, "ledger": str(folder / f"{t}.db"),
                      "stats": str(folder / f"{t}.json")} for t in ids[n:n + GROUP]]
            spec = folder / f"group{n // GROUP}.json"
            spec.write_text(json.dumps(group), encoding="utf-8")
            processes.append(subprocess.Popen(
                ["nice", "-n", str(TABLE_NICENESS), sys.executable, "-m",
                 "etg.table.floor_bot", "--group", str(spec),
                 "--paytable", str(paytable), "--levels",
                 ",".join(level.value for level in LEVELS), "--bots", "busiest", "--pace",
                 str(pace)],
                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                env={**os.environ, "PYTHONUNBUFFERED": "1"}))
        _all_playing(server.uri(), ids, processes)
        playing = time.monotonic()
        time.sleep(busy_s)
        server.stop_immediate()
        lost = time.monotonic()
        time.sleep(down_s)
        back = time.monotonic()  # the tables may reconnect before restart() returns
        server.restart()
        time.sleep(after_s)
    finally:
        for process in processes:
            if process.poll() is None:
                process.send_signal(signal.SIGTERM)
        for process in processes:
            try:
                process.wait(120)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
    tables = [json.loads((folder / f"{t}.json").read_text()) for t in uris
              if (folder / f"{t}.json").exists()]
    for table in tables:  # the busy figures: once every table plays, before the loss (not
        # the minutes forty interpreters take to start and open their ledgers on two cores)
        table["acked"] = [(at, meters) for at, meters in table["acked"]
                          if playing <= at < lost]
        table["shown"] = [(at, meters) for at, meters in table["shown"] if at < lost]
        table["ack_ms"] = [(at, ms) for at, ms in table["ack_ms"] if playing <= at < lost]
        table["queued_ms"] = [(at, ms) for at, ms in table.get("queued_ms", [])
                              if playing <= at < lost]
    if tables:
        downs = [min((t for t in table["down_at"] if t >= lost), default=None)
                 for table in tables]
        # a table with nothing waiting at the loss is drained when its link is back
        drains = [min((t for t in table["drained_at"] if t >= back),
                      default=min((t for t in table["up_at"] if t >= back), default=None))
                  for table in tables]
        tables[0]["down_s"] = None if None in downs else max(downs) - lost  # type: ignore[type-var]
        tables[0]["drain_s"] = None if None in drains else max(drains) - back  # type: ignore[type-var]
        tables[0]["drained_rows"] = sum(table["most_pending"] for table in tables)
    return tables


def _drain(db: Path, uri: str, paytable: Path, rounds: int) -> tuple[float, int]:
    """A table's outbox of ``rounds`` busy rounds, then its link started: seconds until every
    row is acknowledged, and the rows."""
    table = Table.open(Ledger.open(db), load_paytable(paytable), SeededSource(1),
                       jackpot_rules=JackpotRules())
    linked = LinkedTable(table, Link(uri, "drain", LEVELS))
    try:
        linked.link_levels()
        driver = RoundDriver(busiest_bots(table.state.paytable), SeededSource(2), table.apply,
                             repeat=True)
        for _ in range(rounds):  # the link not running: every linked row waits
            driver.play_round(table.state)
        started = time.monotonic()
        linked.start()
        while linked.link.shipped_rows == 0 or linked.link.depth:
            if time.monotonic() - started > 120:
                raise RuntimeError("the outbox did not drain within 120 s")
            time.sleep(0.005)
        return time.monotonic() - started, linked.link.shipped_rows
    finally:
        linked.close()
        table.close()


def _all_playing(admin_uri: str, ids: list[str], processes: list[subprocess.Popen[bytes]],
                 timeout: float = START_TIMEOUT_S) -> None:
    """Wait until every table has started, linked and played (its processes start together on
    a shared machine: the phase's clock runs from when they all play)."""
    deadline = time.monotonic() + timeout
    with psycopg.connect(admin_uri, autocommit=True) as conn:
        while time.monotonic() < deadline:
            ended = [p.returncode for p in processes if p.poll() is not None]
            if ended:
                raise RuntimeError(f"a process of tables ended before they all played "
                                   f"(exit {ended[0]})")
            rows = {t.table_id: t for t in reads.tables(conn)}
            if all(t in rows and rows[t].link_state == "up" and rows[t].chain_seq > 0
                   for t in ids):
                return
            time.sleep(0.5)
    raise RuntimeError(f"the {len(ids)} tables did not all start within {timeout:.0f} s")


def _display_ms(tables: list[dict[str, Any]]) -> list[float]:
    """For each shipment acknowledged at one table and each other table: from its first
    commit to the first amount shown there that includes it (the meters only grow between
    hits; a pair a hit came between has no such amount and is left out)."""
    out: list[float] = []
    for i, table in enumerate(tables):
        for committed, meters in table["acked"]:
            for j, other in enumerate(tables):
                if i == j:
                    continue
                for at, shown in other["shown"]:
                    if at >= committed and all(shown.get(level, -1) >= cents
                                               for level, cents in meters.items()):
                        out.append((at - committed) * 1000)
                        break
    return out


def _p99(values: list[float]) -> float | None:
    if not values:
        return None
    ordered = sorted(values)
    return round(ordered[int(0.99 * (len(ordered) - 1))], 1)


def _p50(values: list[float]) -> float | None:
    return round(statistics.median(values), 1) if values else None


def _round(value: float | None) -> float | None:
    return None if value is None else round(value, 2)
