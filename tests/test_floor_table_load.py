"""Forty linked tables under faults, for real (issue 27, item 7: the tables' half).

Forty bot tables, each with its own ledger, role and connection (``python -m
etg.table.floor_bot --group``: eight processes of five tables, a thread each, so
that they start in seconds, not minutes, on two shared cores), half at the busiest
table's pace and half as fast as they can, against one durable controller. While
they play: processes are SIGKILLed at random (their five tables with them, mid-
whatever they were doing) and started again on their ledgers, and the link is cut
and restored (the server stopped and started again, then SIGKILLed and started
again). Then ``etg floor reconcile`` with every table's ledger: exact to the cent,
round by round, so no contribution was lost or counted twice.
"""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import psycopg
import pytest
from click.testing import CliRunner

from etg.cli import main
from etg.floor import admin, reads
from etg.floor.server import Server
from tests.floor_support import PRIMARY_RULES, SECONDARY_RULES
from tests.ledger_support import MD5

pytestmark = pytest.mark.slow

TABLES = 40
BUSIEST_PACE_S = 8.0  # as benchmarks/bench_link.py: a dealt round of the busiest table


GROUP = 5


def start(group: list[dict[str, object]], folder: Path, n: int) -> subprocess.Popen[bytes]:
    spec = folder / f"group{n}.json"
    spec.write_text(json.dumps(group), encoding="utf-8")
    return subprocess.Popen(
        [sys.executable, "-m", "etg.table.floor_bot", "--group", str(spec), "--paytable",
         str(MD5), "--bots", "busiest"],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=dict(os.environ))


def wait_playing(server: Server, ids: list[str], processes: list[subprocess.Popen[bytes]],
                 timeout: float = 600) -> None:
    """Until every table has shipped (forty tables start slowly on two shared cores)."""
    deadline = time.monotonic() + timeout
    with psycopg.connect(server.uri(), autocommit=True) as conn:
        while time.monotonic() < deadline:
            assert all(p.poll() is None for p in processes), "a process of tables ended"
            rows = {t.table_id: t for t in reads.tables(conn)}
            if all(t in rows and rows[t].chain_seq > 0 for t in ids):
                return
            time.sleep(0.5)
    raise AssertionError("the tables did not all start")


def test_forty_tables_through_kills_and_cut_links_reconcile_exact(tmp_path: Path) -> None:
    chance = random.Random(27)
    ids = [f"t{n:02d}" for n in range(1, TABLES + 1)]
    pace = {t: BUSIEST_PACE_S if n % 2 else 0.0 for n, t in enumerate(ids)}
    with Server.throwaway(port=0, durable=True) as server:
        with psycopg.connect(server.uri(), autocommit=True) as conn:
            logins = admin.init_floor(conn, [PRIMARY_RULES, SECONDARY_RULES],
                                      [(t, t.upper()) for t in ids])
        uris = {login.table_id: server.uri(login.role, login.password) for login in logins}
        groups = [[{"uri": uris[t], "table_id": t, "ledger": str(tmp_path / f"{t}.db"),
                    "pace": pace[t]} for t in ids[i:i + GROUP]]
                  for i in range(0, TABLES, GROUP)]
        processes = [start(group, tmp_path, n) for n, group in enumerate(groups)]
        killed: list[int] = []
        try:
            wait_playing(server, ids, processes)
            for fault in ("SIGKILL tables", "link cut (server stopped)", "SIGKILL tables",
                          "link cut (server SIGKILLed)", "SIGKILL tables"):
                time.sleep(4)
                if fault == "SIGKILL tables":  # at random, mid-whatever they were doing
                    for n in chance.sample(range(len(groups)), 2):
                        processes[n].send_signal(signal.SIGKILL)
                        processes[n].wait()
                        processes[n] = start(groups[n], tmp_path, n)
                        killed.append(n)
                else:
                    server.stop() if "stopped" in fault else server.kill()
                    time.sleep(4)  # the tables play on, their outboxes filling
                    server.restart()
            time.sleep(6)
        finally:
            for process in processes:
                if process.poll() is None:
                    process.send_signal(signal.SIGTERM)  # the round in hand ends, then close
            for process in processes:
                try:
                    process.wait(120)
                except subprocess.TimeoutExpired:
                    process.kill()
                    process.wait()
        assert len(killed) == 6 and len(set(killed)) >= 2
        ledgers = [arg for t in ids for arg in ("--ledger", str(tmp_path / f"{t}.db"))]
        result = CliRunner().invoke(main, ["floor", "reconcile", "--floor", server.uri(),
                                           *ledgers, "--json"])
        report = json.loads(result.stdout)
        assert report["differences"] == [] and report["exact"] is True, result.output
        assert result.exit_code == 0
        assert sorted(report["tables"]) == ids
        with psycopg.connect(server.uri(), autocommit=True) as conn:
            rows, cents = conn.execute("SELECT count(*), coalesce(sum(wager_cents), 0) "
                                       "FROM floor.contributions").fetchone() or (0, 0)
            distinct = conn.execute("SELECT count(DISTINCT (table_id, round, seat, level)) "
                                    "FROM floor.contributions").fetchone()
        assert rows > TABLES * 12 and distinct == (rows,)  # every table shipped, none twice
        assert cents > 0
