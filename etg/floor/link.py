"""The table's link to the floor's progressive controller (SPEC §13; issue 27, items 2-3).

One thread per table, off the frame path: it ships the outbox, claims linked
hits, sends the heartbeat and listens for the controller's NOTIFY, each through
the controller's SQL functions with the table's own role. It never touches the
engine: the thread that owns the table asks :meth:`FloorLink.commands` what to
send (the controller's meters, its amount for a held hit, the link going down or
coming back) and sends those commands itself, so they are journaled and shown
like any other (write before show), and a frame never waits for the network.

The outbox is the table's own ledger (:mod:`etg.floor.outbox`): the thread reads
the entries after the last acknowledged one through its own read-only
connection, so what it ships is always already committed, and a restart, a crash
or a cut link only means shipping again what the controller may already have:
it keys each row by (table, round, seat, level) and counts it once.

The link also tells the controller of each round the table voided (the ledger's
``void`` entries, MD Ch. 11 D), after the round's contributions and as idempotently:
the controller marks them voided, house-funded, and leaves them in the pool.

The link's state:

- ``up``: the last call succeeded less than :data:`DOWN_AFTER_S` ago;
- ``down``: nothing has succeeded for :data:`DOWN_AFTER_S` (a call failing, or
  hanging: the owner's clock decides, not the blocked thread): the table
  refuses linked wagers, "progressive link down", within 3 s of the loss;
- ``draining``: the controller answers again and the outbox still holds rows
  shipped while it could not; linked wagers are taken again at once, since each
  is committed locally before it is shipped.
"""

from __future__ import annotations

import contextlib
import json
import logging
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from enum import Enum
from pathlib import Path
from typing import Any

import psycopg
from psycopg.types.json import Jsonb

from etg.core.commands import Command, ConfirmLinkedHit, SetLinkStatus, ShowLinkedMeters
from etg.core.linked import LinkedMeter
from etg.core.paytable import ProgressiveLevel
from etg.core.state import Phase, TableState
from etg.floor.local_book import VOID_KIND
from etg.floor.outbox import OUTBOX_KIND, OutboxEntry, OutboxRow, read_outbox
from etg.ledger.entry import EntryKind
from etg.ledger.store import Ledger

log = logging.getLogger("etg.floor.link")

HEARTBEAT_S = 1.0
"""A heartbeat each second (issue 27, item 3)."""
DOWN_AFTER_S = 2.5
"""No answer for this long and the link is down: linked wagers refused within 3 s."""
CALL_TIMEOUT_S = 2
"""How long one connection attempt may take (a dead host must not hold the thread longer)."""
MAX_BATCH = 1_000
"""Rows per shipment: a drained outbox of 1,000 rows goes in one round trip."""
METER_REFRESH_S = 0.25
"""At most this often a NOTIFY makes the table ask for the meters again (40 tables busy)."""
HANDOVER_S = 0.001
"""The interpreter's switch interval once a link runs (the process's, as the kiosk's scaling
thread sets it): how long the link's thread may wait for it after the controller answers."""
VOIDS_SETTING = "link_voids_seq"
"""The ledger setting: how far the link has told the controller of the table's voids (an entry
number; every void up to it was shipped)."""
CHAIN_WENT_BACKWARDS = "ETG01"
"""The controller's SQLSTATE when the table's chain head went backwards (a rolled-back disk)."""


class LinkState(Enum):
    UP = "up"
    DOWN = "down"
    DRAINING = "draining"


HitKey = tuple[int, int, int, str]
"""(round, seat, spot, level): a linked hit of the table, as the controller keys it."""


@dataclass(frozen=True, slots=True)
class WantedHit:
    """A linked hit the table's jackpot lock holds, to claim from the controller."""

    round: int
    seat: int
    spot: int
    level: ProgressiveLevel
    percent: int

    @property
    def key(self) -> HitKey:
        """The controller's key of the hit, with the table: one seat's two spots are two hits."""
        return self.round, self.seat, self.spot, self.level.value


@dataclass(frozen=True, slots=True)
class ClaimedHit:
    """The controller's answer to a claim: the amount, its record and the meter after it."""

    hit_id: int
    amount_cents: int
    order_no: int
    meter_after: int


@dataclass(frozen=True, slots=True)
class Acked:
    """A shipment the controller acknowledged: its rows, when the call that shipped them began
    and when its answer came (the link's clock), to tell queueing at the table from the
    controller's own time."""

    rows: tuple[OutboxRow, ...]
    acked_at: float
    sent_at: float


class FloorLink:
    """The link of one table: started by its owner, asked by it what to send.

    ``ledger_path`` is the table's ledger, read here through a read-only
    connection of this thread's own; ``acked_seq`` the last outbox entry the
    controller acknowledged, and ``voided_seq`` how far its voids were shipped, as the
    ledger's settings have them.
    """

    def __init__(self, uri: str, table_id: str, ledger_path: Path, *, acked_seq: int = 0,
                 voided_seq: int = 0,
                 clock: Callable[[], float] = time.monotonic,
                 heartbeat_s: float = HEARTBEAT_S,
                 on_ack: Callable[[Acked], None] | None = None,
                 on_meters: Callable[[dict[ProgressiveLevel, int], float], None] | None = None,
                 ) -> None:
        self.uri = uri
        self.table_id = table_id
        self.ledger_path = ledger_path
        self.heartbeat_s = heartbeat_s
        self.on_ack = on_ack
        self.on_meters = on_meters
        self._clock = clock
        self._lock = threading.Lock()
        self._wake = threading.Event()
        self._stopping = threading.Event()
        self._thread: threading.Thread | None = None
        self._listener: threading.Thread | None = None
        # shared with the owner, under _lock
        self._acked_seq = acked_seq
        self._voided_seq = voided_seq
        self._pending: list[OutboxEntry] = []  # read, not yet acknowledged
        self._last_ok = clock()  # the start counts: down only after DOWN_AFTER_S of silence
        self._failing = True  # the last call failed (none made yet)
        self._draining = False  # back after a loss, with rows shipped while it lasted
        self._meters: dict[ProgressiveLevel, int] = {}
        self._phase = "closed"
        self._dealer: str | None = None
        self._wanted: dict[HitKey, WantedHit] = {}  # in the order the lock pays them
        self._claimed: dict[HitKey, ClaimedHit] = {}
        self._refusal: str | None = None  # the controller refused the table: it tilts
        self._validations: dict[int, tuple[str, str]] = {}  # hit_id: validator, role; to send
        self._stale_meters = False
        self._last_refresh = 0.0
        self.shipped_rows = 0

    # --- the owner's side ----------------------------------------------------------------

    def start(self) -> None:
        """Start the link's threads (the shipping one and the NOTIFY listener)."""
        # The controller's answer waits for the interpreter while the table's own thread runs
        # Python (a round settling, a frame drawn): at CPython's 5 ms a hand-over, and more
        # with several threads waiting, the acknowledgement would wait longer than the call.
        if sys.getswitchinterval() > HANDOVER_S:
            sys.setswitchinterval(HANDOVER_S)
        self._thread = threading.Thread(target=self._run, name=f"floor-link-{self.table_id}",
                                        daemon=True)
        self._listener = threading.Thread(target=self._listen,
                                          name=f"floor-listen-{self.table_id}", daemon=True)
        self._thread.start()
        self._listener.start()

    def stop(self, timeout: float = 5.0) -> None:
        """Say the table is closed, ship what is left if the controller answers, and stop."""
        with self._lock:
            self._phase = "closed"
        self._stopping.set()
        self._wake.set()
        for thread in (self._thread, self._listener):
            if thread is not None:
                thread.join(timeout)

    def wake(self) -> None:
        """Something was committed (an outbox entry, a lock): look now, not at the next beat."""
        self._wake.set()

    def observe(self, state: TableState, tilted: bool = False) -> None:
        """The table as its screens show it (committed): its phase and dealer for the
        heartbeat, and the linked hits its jackpot lock holds, to claim."""
        wanted: dict[HitKey, WantedHit] = {}
        lock = state.jackpot
        if lock is not None:
            for held in lock.unconfirmed:
                if held.linked is not None:
                    hit = WantedHit(lock.round_number, held.seat, held.spot, held.linked,
                                    held.percent)
                    wanted[hit.key] = hit
        phase = "jackpot" if state.phase is Phase.JACKPOT else "open"
        if tilted:
            phase = "tilted"
        with self._lock:
            fresh = wanted.keys() - self._wanted.keys()
            self._wanted = wanted
            self._phase, self._dealer = phase, state.dealer
        if fresh:
            self._wake.set()

    def validated(self, hit_ids: list[int], validator: str, role: str) -> None:
        """The table's floorperson validated these linked hits (MD Ch. 9 J(4)(c)): tell the
        controller, which records who did (a retry is the same validation)."""
        with self._lock:
            for hit_id in hit_ids:
                self._validations[hit_id] = (validator, role)
        self._wake.set()

    def commands(self, state: TableState) -> list[Command]:
        """What the owner should send now, so the table shows what the controller said.

        Compared with ``state`` each time (nothing is queued), so a command the table
        refused or lost in a fault is simply asked for again.
        """
        if not state.linked:
            return []
        out: list[Command] = []
        down = self.state is LinkState.DOWN
        if down is not state.link_down:
            out.append(SetLinkStatus(not down))
        with self._lock:
            meters = dict(self._meters)
            claimed = dict(self._claimed)
        changed = tuple(LinkedMeter(m.level, meters[m.level]) for m in state.linked
                        if m.level in meters and meters[m.level] != m.cents)
        if changed:
            out.append(ShowLinkedMeters(changed))
        lock = state.jackpot
        if lock is not None:
            for held in lock.unconfirmed:
                if held.linked is None:
                    continue
                hit = claimed.get((lock.round_number, held.seat, held.spot, held.linked.value))
                if hit is not None:
                    out.append(ConfirmLinkedHit(held.linked, held.seat, held.spot,
                                                hit.amount_cents, hit.hit_id, hit.order_no,
                                                hit.meter_after))
        return out

    @property
    def state(self) -> LinkState:
        with self._lock:
            silent = self._clock() - self._last_ok
            if silent > DOWN_AFTER_S:
                return LinkState.DOWN
            return LinkState.DRAINING if self._draining else LinkState.UP

    @property
    def depth(self) -> int:
        """Outbox rows read and not yet acknowledged."""
        with self._lock:
            return sum(len(e.rows) for e in self._pending)

    @property
    def acked_seq(self) -> int:
        """The last outbox entry the controller acknowledged (the ledger setting to keep)."""
        with self._lock:
            return self._acked_seq

    @property
    def voided_seq(self) -> int:
        """How far the table's voids were shipped (the ledger setting to keep)."""
        with self._lock:
            return self._voided_seq

    @property
    def refusal(self) -> str | None:
        """The controller's refusal of this table (its chain head went backwards): a tilt."""
        with self._lock:
            return self._refusal

    @property
    def meters(self) -> dict[ProgressiveLevel, int]:
        """The linked meters as the controller last answered them."""
        with self._lock:
            return dict(self._meters)

    # --- the link's thread ---------------------------------------------------------------

    def _run(self) -> None:
        conn: psycopg.Connection[Any] | None = None
        ledger: Ledger | None = None
        next_beat = 0.0
        while True:
            stopping = self._stopping.is_set()
            try:
                if ledger is None:
                    ledger = Ledger.open_readonly(self.ledger_path)
                self._read_outbox(ledger)
                if conn is None:
                    conn = psycopg.connect(self.uri, autocommit=True,
                                           connect_timeout=CALL_TIMEOUT_S)
                self._ship(conn, ledger)
                self._ship_voids(conn, ledger)
                self._claim(conn)
                self._validate(conn)
                now = self._clock()
                if stopping or now >= next_beat or self._meters_due(now):
                    self._heartbeat(conn)
                    next_beat = now + self.heartbeat_s
                self._ok()
            except psycopg.Error as error:
                self._failed(error)
                if conn is not None:
                    with contextlib.suppress(psycopg.Error):
                        conn.close()
                conn = None
            except Exception:  # a ledger that cannot be read now: tried again at the next beat
                log.exception("table %s: the outbox cannot be read", self.table_id)
                if ledger is not None:
                    ledger.close()
                ledger = None
            if stopping:
                break
            self._wake.wait(0.2 if self._failing else max(0.0, next_beat - self._clock()))
            self._wake.clear()
        if conn is not None:
            conn.close()
        if ledger is not None:
            ledger.close()

    def _read_outbox(self, ledger: Ledger) -> None:
        with self._lock:
            after = self._pending[-1].seq if self._pending else self._acked_seq
        with ledger.reading():
            entries = list(read_outbox(ledger, after))
        if entries:
            with self._lock:
                self._pending += entries

    def _ship(self, conn: psycopg.Connection[Any], ledger: Ledger) -> None:
        """Ship the pending rows, a batch at a time, with the chain head they were read at."""
        while True:
            with self._lock:
                pending = list(self._pending)
            if not pending:
                return
            batch: list[OutboxEntry] = []
            rows = 0
            for entry in pending:
                if batch and rows + len(entry.rows) > MAX_BATCH:
                    break
                batch.append(entry)
                rows += len(entry.rows)
            last = batch[-1].seq
            # The chain head as committed now (never below what was shipped before: a
            # chain only grows), with the hand ledger's round count (SPEC §13's anchor).
            with ledger.reading():
                seq, head = ledger.head
                rounds = ledger.round_count()
            shipped = [row.shipped() for entry in batch for row in entry.rows]
            sent = self._clock()
            answer = conn.execute("SELECT floor.ship(%s, %s, %s, %s, %s)",
                                  [self.table_id, Jsonb(shipped), seq, head.hex(),
                                   rounds]).fetchone()
            assert answer is not None
            result = _json(answer[0])
            acked = {tuple(key) for key in result.get("acked", [])}
            missing = [row for entry in batch for row in entry.rows
                       if (row.round, row.seat, row.level.value) not in acked]
            if missing:  # the controller must say yes to each row, or nothing moves on
                raise psycopg.DataError(f"the controller did not acknowledge {missing[0]}")
            now = self._clock()
            with self._lock:
                self._pending = self._pending[len(batch):]
                self._acked_seq = last
                self._take_meters(result.get("meters", {}), only_up=True)
                if not self._pending:
                    self._draining = False
            self.shipped_rows += rows
            if self.on_ack is not None:
                self.on_ack(Acked(tuple(r for e in batch for r in e.rows), now, sent))
            if result.get("new"):  # acknowledged: now the floor hears of it (migration 005)
                conn.execute("SELECT floor.announce(%s)", [self.table_id])

    def _ship_voids(self, conn: psycopg.Connection[Any], ledger: Ledger) -> None:
        """Tell the controller of each round the ledger voided, so it marks the round's
        contributions voided (they stay in the pool, funded by the house: SPEC §13).

        In chain order and never ahead of the contributions: the ledger is read only up to
        the first outbox entry not yet acknowledged, so a round's rows are at the controller
        before its void. ``floor.void_round`` is idempotent, so a restart or a cut link only
        ships a void again."""
        with self._lock:
            after, acked = self._voided_seq, self._acked_seq
        voids: list[tuple[int, int]] = []  # (entry, round)
        reached = after
        with ledger.reading():
            for entry in ledger.entries(after=after, kind=EntryKind.EVENT):
                if entry.tag == OUTBOX_KIND and entry.seq > acked:
                    break  # its contributions first
                if entry.tag == VOID_KIND:
                    voids.append((entry.seq, int(entry.data()["round"])))
                reached = entry.seq
        for seq, round_number in voids:
            conn.execute("SELECT floor.void_round(%s, %s)", [self.table_id, round_number])
            with self._lock:
                self._voided_seq = seq
            log.info("table %s: round %d voided, told to the controller", self.table_id,
                     round_number)
        with self._lock:
            self._voided_seq = reached

    def _claim(self, conn: psycopg.Connection[Any]) -> None:
        """Claim each linked hit the lock holds that has no answer yet (a retry: the same), in
        the order the lock pays them: the second of one seat's spots from the first's reset."""
        with self._lock:
            wanted = [hit for key, hit in self._wanted.items() if key not in self._claimed]
        for hit in wanted:
            answer = conn.execute("SELECT floor.claim_hit(%s, %s, %s, %s, %s, %s)",
                                  [self.table_id, hit.round, hit.seat, hit.spot,
                                   hit.level.value, hit.percent]).fetchone()
            assert answer is not None
            result = _json(answer[0])
            meters = result.get("meters", {})
            after = result.get("reset_to_cents", meters.get(hit.level.value, 0))
            claimed = ClaimedHit(int(result["hit_id"]), int(result["amount_cents"]),
                                 int(result["order_no"]), int(after))
            with self._lock:
                self._claimed[hit.key] = claimed
                self._take_meters(meters)
            log.info("table %s: %s hit of seat %d spot %d, round %d: %d cents (order %d)",
                     self.table_id, hit.level.value, hit.seat, hit.spot, hit.round,
                     claimed.amount_cents, claimed.order_no)

    def _validate(self, conn: psycopg.Connection[Any]) -> None:
        with self._lock:
            waiting = dict(self._validations)
        for hit_id, (validator, role) in waiting.items():
            conn.execute("SELECT floor.validate_hit(%s, %s, %s, %s)",
                         [self.table_id, hit_id, validator, role])
            with self._lock:
                self._validations.pop(hit_id, None)

    def _heartbeat(self, conn: psycopg.Connection[Any]) -> None:
        with self._lock:
            phase, dealer = self._phase, self._dealer
            depth = sum(len(e.rows) for e in self._pending)
            self._stale_meters = False
            self._last_refresh = self._clock()
        answer = conn.execute("SELECT floor.heartbeat(%s, %s, %s, %s)",
                              [self.table_id, phase, dealer, depth]).fetchone()
        assert answer is not None
        with self._lock:
            self._take_meters(_json(answer[0]).get("meters", {}))

    def _meters_due(self, now: float) -> bool:
        with self._lock:
            return self._stale_meters and now - self._last_refresh >= METER_REFRESH_S

    def _take_meters(self, meters: dict[str, Any], only_up: bool = False) -> None:
        """Keep the controller's meters (under _lock); ``only_up``: none lower than kept."""
        taken = {ProgressiveLevel(level): int(cents) for level, cents in meters.items()
                 if level in _LEVELS and cents is not None}
        if only_up:
            taken = {level: max(cents, self._meters.get(level, cents))
                     for level, cents in taken.items()}
        if taken and taken != {k: self._meters.get(k) for k in taken}:
            self._meters.update(taken)
            if self.on_meters is not None:
                self.on_meters(dict(self._meters), self._clock())

    def _ok(self) -> None:
        with self._lock:
            if self._failing or self._clock() - self._last_ok > DOWN_AFTER_S:
                log.warning("table %s: the progressive link is up", self.table_id)
                self._draining = bool(self._pending)
            self._last_ok = self._clock()
            self._failing = False

    def _failed(self, error: psycopg.Error) -> None:
        with self._lock:
            if not self._failing:
                log.error("table %s: progressive link: %s", self.table_id,
                          str(error).strip().splitlines()[0] if str(error).strip() else error)
            self._failing = True
            if getattr(error, "sqlstate", None) == CHAIN_WENT_BACKWARDS:
                said = (str(error).strip().splitlines() or [""])[0]  # not PL/pgSQL's CONTEXT
                self._refusal = f"the floor's controller refused this table: {said}"

    # --- the NOTIFY listener -------------------------------------------------------------

    def _listen(self) -> None:
        """LISTEN floor: a change anywhere on the floor makes the meters stale here."""
        while not self._stopping.is_set():
            try:
                with psycopg.connect(self.uri, autocommit=True,
                                     connect_timeout=CALL_TIMEOUT_S) as conn:
                    conn.execute("LISTEN floor")
                    while not self._stopping.is_set():
                        for note in conn.notifies(timeout=0.5):
                            self._heard(note.payload)
            except psycopg.Error:
                self._stopping.wait(0.5)


    def _heard(self, payload: str) -> None:
        """A NOTIFY: the meters it carries are taken as they are (docs/floor.md: a shipment's
        and a hit's carry them); any other change makes the meters stale, asked for again
        at most every :data:`METER_REFRESH_S`."""
        try:
            note = json.loads(payload)
        except ValueError:
            note = None
        if not isinstance(note, dict) or note.get("kind") == "heartbeat":
            return
        with self._lock:
            if isinstance(note.get("meters"), dict):
                # a contribution only raises a meter: one heard late never shows it lower
                self._take_meters(note["meters"], only_up=note.get("kind") == "contribution")
                return  # taken: the owner's next pump shows them, the link thread has no call
            self._stale_meters = True
        # Only a note without meters wakes the link thread (to ask for them): every table
        # hears every shipment on the floor, and forty link threads woken for each one read
        # their outboxes for nothing, hundreds of times a second, on the cores that commit.
        self._wake.set()


_LEVELS = frozenset(level.value for level in ProgressiveLevel)


def _json(value: Any) -> dict[str, Any]:
    """A jsonb answer: psycopg gives it as a dict (text if a cast said otherwise)."""
    if isinstance(value, str):
        loaded: dict[str, Any] = json.loads(value)
        return loaded
    return dict(value)
