"""Commits off the frame (issue 11, item 5): the kiosk never waits for the disk, and never
shows what the disk has not taken (SPEC §5: write before show).

The App runs as on a cabinet (a window on SDL's dummy driver, not headless):
its frames deliver only the events whose commits are acknowledged and never
wait for one. Ledgers are real files on disk; faults are real (another
process holding SQLite's write lock, a file size limit in a child process).
A commit "in flight" is made to last by a thread holding the writer's lock,
the one every transaction takes: the writer really waits, as behind a slow
fsync.
"""

from __future__ import annotations

import json
import sqlite3
import subprocess
import sys
import textwrap
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from etg.core.commands import BetKind, CashIn, CloseBets, Command, Deal, OpenBets, PlaceWager
from etg.core.events import Event
from etg.core.state import Phase, TableState
from etg.ledger.store import EntryKind, Ledger
from etg.ledger.verify import verify
from etg.ui.app import App
from tests import kiosk_support as k
from tests.ledger_support import open_table, rebuilt_state

FRAME_S = 1 / 60


def cabinet(tmp_path: Path) -> App:
    """The kiosk as on a cabinet: commits on the writer's thread, frames that never wait."""
    app = k.make_app(tmp_path, windowed=True)
    assert app.table.writer.threaded and not app.wait_for_commits
    return app


def frames_until(app: App, done: Callable[[], bool], seconds: float = 20.0) -> int:
    """Frames (with a breath between them, as the kiosk's clock gives) until ``done()``."""
    deadline = time.monotonic() + seconds
    frames = 0
    while not done():
        assert time.monotonic() < deadline, "not done in time"
        app.frame(FRAME_S, draw=False)
        frames += 1
        time.sleep(0.001)
    return frames


@contextmanager
def disk_busy(app: App) -> Iterator[threading.Event]:
    """Commits wait (another thread holds the writer's lock) until the block ends or the
    event yielded is set."""
    got, go = threading.Event(), threading.Event()

    def hold() -> None:
        with app.table.writer.lock:
            got.set()
            go.wait()

    holder = threading.Thread(target=hold)
    holder.start()
    got.wait()
    try:
        yield go
    finally:
        go.set()
        holder.join()


class Heard:
    """A listener beside the screen: each delivery, and what a second connection finds then."""

    def __init__(self, db: Path) -> None:
        self.db = db
        self.steps: list[tuple[list[str], int]] = []

    def __call__(self, state: TableState, events: list[Event]) -> None:
        other = sqlite3.connect(self.db)  # another connection sees only what is committed
        try:
            commands = other.execute("SELECT count(*) FROM entries WHERE kind = 'command'"
                                     ).fetchone()[0]
        finally:
            other.close()
        self.steps.append(([type(e).__name__ for e in events], int(commands)))

    @property
    def events(self) -> list[str]:
        return [name for names, _ in self.steps for name in names]


def commands_in(db: Path) -> list[str]:
    """The journal's commands by type, read on a connection of their own."""
    store = Ledger.open_readonly(db)
    try:
        with store.reading():
            return [e.data()["command"]["type"]
                    for e in store.entries(kind=EntryKind.COMMAND)]
    finally:
        store.close()


def open_betting(app: App) -> None:
    """Credits, a shoe and betting open, each committed (``Table.send`` waits for it)."""
    table = app.table
    for seat in (1, 2):
        table.send(CashIn(seat, 20_000), actor="attendant")
    table.send(table.shuffle_command())
    table.send(OpenBets())
    frames_until(app, lambda: app.settled)


def test_events_reach_the_screen_only_once_their_commit_is_acknowledged(tmp_path: Path) -> None:
    app = cabinet(tmp_path)
    db = tmp_path / "table.db"
    heard = Heard(db)
    app.table.listeners.append(heard)
    before = len(commands_in(db))
    with disk_busy(app):
        assert app.send(CashIn(1, 10_000), "attendant") is None  # accepted at once
        assert app.table.state.credits[0] == 10_000
        for _ in range(10):  # the frames go on; the screen shows nothing of it yet
            app.frame(FRAME_S, draw=True)
        assert heard.steps == [] and app.table.in_flight == 1 and not app.settled
        assert app.table.committed.credits[0] == 0
        assert app.base.presenter.shown.credits[0] == 0  # type: ignore[attr-defined]
    frames_until(app, lambda: bool(heard.steps))
    # When the listener heard of it, another connection already found it committed.
    assert heard.steps == [(["CreditsIn"], before + 1)]
    assert app.table.committed == app.table.state
    frames_until(app, lambda: app.settled)
    assert app.base.presenter.shown.credits[0] == 10_000  # type: ignore[attr-defined]
    app.table.close()


def test_a_quick_series_is_committed_together_in_order_and_none_is_lost(tmp_path: Path) -> None:
    app = cabinet(tmp_path)
    db = tmp_path / "table.db"
    open_betting(app)
    heard = Heard(db)
    app.table.listeners.append(heard)
    taps = [PlaceWager(seat, spot, BetKind.INITIAL, 500 * spot)
            for seat in (1, 2) for spot in (1, 2, 3)] + [CloseBets()]
    before = len(commands_in(db))
    with disk_busy(app):
        for command in taps:  # quicker than the disk: each one on the state before it
            assert app.send(command, "player") is None
            app.frame(FRAME_S, draw=False)
        assert app.table.state.phase is Phase.BETS_CLOSED  # accepted, not yet shown
        assert heard.steps == [] and app.table.committed.phase is Phase.BETTING
    frames_until(app, lambda: app.table.in_flight == 0)
    assert commands_in(db)[before:] == [type(c).__name__ for c in taps]
    assert heard.events.count("WagerPlaced") == 6 and heard.events[-1] == "BetsClosed"
    assert [n for _, n in heard.steps] == sorted(n for _, n in heard.steps)
    assert all(n >= before + i + 1 for i, (_, n) in enumerate(heard.steps))
    stats = app.table.writer.stats
    assert stats.largest_batch >= 4  # seven commands behind one busy disk: grouped
    wagered = sum(500 * spot for spot in (1, 2, 3))
    assert app.table.committed.credits[:2] == (20_000 - wagered, 20_000 - wagered)
    assert app.table.committed == app.table.state
    app.table.ledger.close()
    assert rebuilt_state(db) == app.table.state  # every cent of it is on disk


def test_a_refusal_is_known_at_once_while_commits_are_in_flight(tmp_path: Path) -> None:
    app = cabinet(tmp_path)
    open_betting(app)
    with disk_busy(app):
        assert app.send(PlaceWager(1, 1, BetKind.INITIAL, 20_000), "player") is None
        refusal = app.send(PlaceWager(1, 2, BetKind.INITIAL, 500), "player", quiet=True)
        assert refusal == "seat 1 has $0.00, needs $5.00"  # judged on the accepted state
        assert app.table.in_flight == 1
    frames_until(app, lambda: app.table.in_flight == 0)
    app.table.close()


def test_the_frame_loop_never_touches_the_ledger_during_play(tmp_path: Path) -> None:
    """Count, don't time: every SQL statement of a round runs on the writer's thread."""
    app = cabinet(tmp_path)
    kiosk = threading.get_ident()
    statements: list[tuple[bool, str]] = []
    conn = app.table.ledger.conn
    conn.set_trace_callback(lambda sql: statements.append(
        (threading.get_ident() == kiosk, sql.split()[0].upper())))
    waits = app.table.writer.stats.waits
    in_flight_frames = 0
    script: list[Command] = [CashIn(1, 20_000), CashIn(2, 20_000), app.table.shuffle_command(), OpenBets(),
              PlaceWager(1, 1, BetKind.INITIAL, 500), PlaceWager(2, 3, BetKind.INITIAL, 500),
              CloseBets(), Deal()]
    for command in script:
        assert app.send(command, "dealer") is None
        while app.table.in_flight or not app.settled:
            in_flight_frames += bool(app.table.in_flight)
            app.frame(FRAME_S, draw=True)
            time.sleep(0.001)
    frames_until(app, lambda: app.table.state.phase in (Phase.DECISIONS, Phase.COMPLETE,
                                                        Phase.BONUS_SPIN)
                 and app.settled)  # the dealer's settle follows by itself
    conn.set_trace_callback(None)
    assert in_flight_frames > 0  # frames ran while commands were on their way to the screen
    assert [sql for on_kiosk, sql in statements if on_kiosk] == []
    commits = [sql for on_kiosk, sql in statements if sql == "COMMIT"]
    assert len(commits) >= len(script)  # and they all ran on the writer's thread
    assert app.table.writer.stats.waits == waits  # no frame ever waited for the writer
    app.table.close()


def test_an_operator_read_sees_the_commands_sent_before_it(tmp_path: Path) -> None:
    app = cabinet(tmp_path)
    assert app.send(CashIn(2, 7_500), "attendant") is None
    with app.table.reading() as ledger:  # waits for the writer, then holds it off
        cash_in = ledger.event_log("cash_in")
        assert [e["details"]["amount"] for e in cash_in][-1] == 7_500
        assert ledger.meters()["md-community-5"][2, "cash_in"] == 7_500
    app.table.close()


def test_clean_shutdown_commits_everything_accepted(tmp_path: Path) -> None:
    app = cabinet(tmp_path)
    db = tmp_path / "table.db"
    open_betting(app)
    with disk_busy(app) as release:
        for seat, spot in ((1, 1), (1, 2), (1, 3), (2, 4), (2, 5)):
            assert app.send(PlaceWager(seat, spot, BetKind.INITIAL, 500), "player") is None
        accepted = app.table.state
        assert app.table.in_flight == 5
        threading.Timer(0.3, release.set).start()
        app.table.close()  # waits out the busy disk, commits the queue, then says goodbye
    assert commands_in(db)[-5:] == ["PlaceWager"] * 5
    again = open_table(db, seed=7)
    assert again.state == accepted and again.tilt is None
    last = again.ledger.last_events(("power_up", "shutdown"), 2)
    assert [e["kind"] for e in last] == ["shutdown", "power_up"]
    assert last[1]["details"]["after_interruption"] is False
    again.close()


def test_a_write_lock_held_elsewhere_tilts_drops_the_unsaved_and_shows_none_of_it(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(Ledger, "busy_timeout_s", 0.2)
    app = cabinet(tmp_path)
    db = tmp_path / "table.db"
    open_betting(app)
    heard = Heard(db)
    app.table.listeners.append(heard)
    committed = app.table.state
    holder = subprocess.Popen(
        [sys.executable, "-c", "import sqlite3, sys; c = sqlite3.connect(sys.argv[1], "
         "isolation_level=None); c.execute('BEGIN IMMEDIATE'); print('held', flush=True); "
         "sys.stdin.read()", str(db)],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "held"
        for spot in (1, 2, 3):  # the engine takes them; the disk will not
            assert app.send(PlaceWager(1, spot, BetKind.INITIAL, 500), "player") is None
        assert app.table.state.credits[0] == committed.credits[0] - 1_500
        frames_until(app, lambda: app.table.tilted)
        assert app.table.tilt is not None
        assert "storage: the ledger is locked by another connection" in app.table.tilt.message
        # The players see the tilt, never the wagers that were not committed.
        assert heard.steps == [] and "WagerPlaced" not in heard.events
        assert app.table.state == committed == app.table.committed
        frames_until(app, lambda: app.settled)
        assert app.base.presenter.shown == committed  # type: ignore[attr-defined]
        refusal = app.send(PlaceWager(1, 1, BetKind.INITIAL, 500), "player", quiet=True)
        assert refusal is not None and "tilted" in refusal
    finally:
        assert holder.stdin is not None
        holder.stdin.close()
        holder.wait(timeout=30)
    app.table.ledger.close()  # as after a power loss
    again = open_table(db, seed=7)  # the lock is gone: the table is where the last commit was
    assert again.state == committed
    assert again.tilt is None or "storage" in again.tilt.message
    if again.tilt is not None:
        again.acknowledge_tilt("supervisor 1")
    again.send(PlaceWager(1, 1, BetKind.INITIAL, 500))
    assert verify(again.ledger, again.paytable) == []
    again.close()


_CHILD = textwrap.dedent("""
    import json, resource, sys, time
    from pathlib import Path
    from tests import kiosk_support as k
    from etg.core.commands import BetKind, CashIn, OpenBets, PlaceWager

    tmp, limit = Path(sys.argv[1]), int(sys.argv[2])
    app = k.make_app(tmp, windowed=True, db=tmp / "table.db")
    heard = []
    app.table.listeners.append(lambda state, events: heard.extend(type(e).__name__
                                                                  for e in events))
    table = app.table
    for seat in range(1, 7):
        table.send(CashIn(seat, 1_000_000), actor="attendant")
    table.send(table.shuffle_command())
    table.send(OpenBets())
    # From here on the write-ahead log, emptied first, may grow to this much only.
    with table.reading() as ledger:
        ledger.conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    room = (tmp / "table.db").stat().st_size + limit
    resource.setrlimit(resource.RLIMIT_FSIZE, (room, room))
    sent, refused = 0, None
    deadline = time.monotonic() + 60
    while not table.tilted and time.monotonic() < deadline:
        if refused is None:  # players tap on until the table refuses ($500 at most a seat)
            seat = 1 + sent // 100 % 6
            refused = app.send(PlaceWager(seat, 1, BetKind.INITIAL, 500), "player", quiet=True)
            sent += refused is None
        app.frame(1 / 60, draw=False)
        time.sleep(0.0005)
    print(json.dumps({"tilt": table.tilt.message if table.tilt else None, "sent": sent,
                      "refused": refused,
                      "heard": heard.count("WagerPlaced"),
                      "state_wagers": sum(w.initial for row in table.state.round.wagers
                                          for w in row),
                      "committed_wagers": sum(w.initial for row in table.committed.round.wagers
                                              for w in row)}), flush=True)
""")


@pytest.mark.slow
def test_a_full_disk_on_the_writers_thread_tilts_and_restarts_where_the_last_commit_was(
        tmp_path: Path) -> None:
    """A real EFBIG: the kiosk's process may not grow its files past a limit (RLIMIT_FSIZE)."""
    done = subprocess.run([sys.executable, "-c", _CHILD, str(tmp_path), str(16 * 1024)],
                          capture_output=True, text=True, timeout=240,
                          cwd=Path(__file__).resolve().parent.parent)
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr, done.stderr
    report = json.loads(done.stdout.strip().splitlines()[-1])
    # SQLite meets EFBIG as a write error: "disk I/O error" (or "database or disk is full").
    assert report["tilt"] is not None and report["tilt"].startswith("storage: the ")
    assert "I/O error" in report["tilt"] or "full" in report["tilt"]
    assert report["refused"] == f"the table is tilted: {report['tilt']}"
    assert report["sent"] > report["heard"] >= 1  # some were taken, the rest were dropped
    # The table went back to its last commit: what was shown is what was committed.
    assert report["state_wagers"] == report["committed_wagers"] == 500 * report["heard"]
    db = tmp_path / "table.db"
    committed = rebuilt_state(db)
    assert sum(w.initial for row in committed.round.wagers for w in row) == 500 * report["heard"]
    again = open_table(db, seed=7)  # no limit now: the same state, to the cent
    assert again.state == committed
    if again.tilt is not None:
        assert "storage" in again.tilt.message
        again.acknowledge_tilt("supervisor 1")
    again.send(PlaceWager(1, 1, BetKind.TIE, 100))  # play goes on from the last commit
    assert verify(again.ledger, again.paytable, full=True) == []
    again.close()


_PLAYING = textwrap.dedent("""
    import sys, time
    from pathlib import Path
    from tests import kiosk_support as k

    folder, db = Path(sys.argv[1]), Path(sys.argv[2])
    app = k.make_app(folder, demo=True, windowed=True, db=db)
    # One line per command the screen was given: the parent counts what was shown.
    app.table.listeners.append(lambda state, events: print("shown", flush=True))
    print("ready", flush=True)
    while True:
        app.frame(1 / 60, draw=False)
        time.sleep(0.0005)
""")


def anchored(db: Path) -> int:
    """The last entry the anchor records: it is rewritten after every commit."""
    from etg.ledger.chain import anchor_path

    try:
        return int(json.loads(anchor_path(db).read_text())["seq"])
    except (FileNotFoundError, ValueError):
        return 0


@pytest.mark.slow
def test_killed_at_any_instant_the_kiosk_resumes_where_its_commits_left_it(
        tmp_path: Path) -> None:
    """SIGKILL mid-play, three times: what was shown was committed, and the round goes on."""
    import random
    import signal

    db = tmp_path / "table.db"
    rng = random.Random(11)
    for run in range(3):
        before = len(commands_in(db)) if db.exists() else 0
        child = subprocess.Popen([sys.executable, "-c", _PLAYING, str(tmp_path / f"run{run}"),
                                  str(db)], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                 text=True, cwd=Path(__file__).resolve().parent.parent)
        assert child.stdout is not None
        assert child.stdout.readline().strip() == "ready", child.stderr
        target = anchored(db) + rng.randrange(10, 80)
        deadline = time.monotonic() + 120
        while anchored(db) < target:
            assert child.poll() is None and time.monotonic() < deadline, "no progress"
            time.sleep(0.002)
        child.send_signal(signal.SIGKILL)
        out, _ = child.communicate(timeout=30)
        shown = out.split().count("shown")
        committed_now = len(commands_in(db)) - before
        assert shown <= committed_now  # nothing was shown that the crash took back
        state = rebuilt_state(db)
        again = open_table(db, seed=run)
        assert again.state == state and again.tilt is None
        assert again.ledger.last_events(("power_up",), 1)[0]["details"]["after_interruption"]
        assert verify(again.ledger, again.paytable) == []
        again.ledger.close()  # another power loss: the next run resumes the round
