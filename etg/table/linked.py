"""A table on the floor's link (SPEC §13): its :class:`~etg.floor.link.FloorLink` wired in.

The table's owner (the kiosk's frame loop, a bot table's driver) calls
:meth:`LinkedTable.pump` often; it sends what the link asks for (the controller's
meters, its amount for a held hit, the link going down or back) as commands of the
table, journaled and shown like any other. The link hears of every commit through
a listener and never blocks the owner: the network is the link's own thread.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable

from etg.config.cabinet import Link
from etg.core.commands import Command, LinkLevels
from etg.core.events import (
    Event,
    JackpotLocked,
    JackpotValidated,
    LinkedContributed,
    LinkedHitConfirmed,
)
from etg.core.refusal import Refused
from etg.core.state import BETWEEN_ROUNDS, TableState
from etg.floor.link import VOIDS_SETTING, Acked, FloorLink, LinkState
from etg.floor.local_book import HIT_KIND
from etg.floor.outbox import ACKED_SETTING, TABLE_SETTING
from etg.ledger.terms import Problem
from etg.table.controller import Table, TableTilted

log = logging.getLogger("etg.table.linked")

KEEP_ACKED_S = 5.0
"""How often the acknowledged outbox entry is written to the ledger (a restart re-ships at
most what came after it, and the controller counts a row once)."""
LINK_ACTOR = "floor"
"""Who the ledger says sent the controller's answers."""


class LinkedTable:
    """One table and its link to the floor's controller."""

    def __init__(self, table: Table, config: Link, *,
                 send: Callable[[Command, str | None], list[Event]] | None = None,
                 on_ack: Callable[[Acked], None] | None = None) -> None:
        self.table = table
        self.config = config
        self._send = send or table.send
        with table.reading() as ledger:
            acked = int(ledger.setting(ACKED_SETTING) or 0)
            voided = int(ledger.setting(VOIDS_SETTING) or 0)
            path = ledger.path
        self.link = FloorLink(config.uri, config.table_id, path, acked_seq=acked,
                              voided_seq=voided, on_ack=on_ack)
        self._confirmed: dict[int, list[int]] = {}  # round: hit ids confirmed, not validated
        self._recall_validations()
        self._kept = acked
        self._kept_voided = voided
        self._kept_at = time.monotonic()
        table.listeners.append(self._heard)

    def _recall_validations(self) -> None:
        """What the ledger holds of linked hits, so a restart loses none of their validations:
        a hit validated before the restart is told to the controller again (a retry by the same
        validator is the same validation there), and one still awaiting its validation is
        remembered, so the validation after the restart reaches the controller too."""
        with self.table.reading() as ledger:
            hits = ledger.event_log(HIT_KIND)
            validated = {int(e["details"]["round"]): e["details"]
                         for e in ledger.event_log("jackpot_validated")}
        for entry in hits:
            round_number, hit_id = int(entry["details"]["round"]), int(entry["details"]["hit_id"])
            done = validated.get(round_number)
            if done is None:
                self._confirmed.setdefault(round_number, []).append(hit_id)
            else:
                self.link.validated([hit_id], str(done["validator"]),
                                    str(done.get("role") or "floorperson"))

    def start(self) -> None:
        with self.table.reading() as ledger:
            named = ledger.setting(TABLE_SETTING)
        if named != self.config.table_id:  # whose contributions these are (reconciliation)
            self.table.keep_setting(TABLE_SETTING, self.config.table_id)
        self.link_levels()
        self.link.observe(self.table.committed, self.table.tilted)
        self.link.start()

    def link_levels(self) -> bool:
        """Link the cabinet's levels if the table does not already (between rounds only)."""
        state = self.table.state
        if tuple(m.level for m in state.linked) == self.config.levels:
            return True
        if state.phase not in BETWEEN_ROUNDS or self.table.tilted:
            return False
        try:
            self._send(LinkLevels(self.config.levels), LINK_ACTOR)
        except Refused as refused:  # cabinet.yaml links what this paytable cannot: a tilt
            self.table.tilt_for([Problem("link", f"cabinet.yaml's link cannot be applied: "
                                                 f"{refused.message}")])
            return False
        return True

    def pump(self) -> int:
        """Send what the link asks for now; returns how many commands were sent."""
        table = self.table
        refusal = self.link.refusal
        if refusal is not None and not table.tilted:
            table.tilt_for([Problem("link", refusal)])  # SPEC §13: a head gone backwards
        if table.tilted:
            return 0
        self.link_levels()
        sent = 0
        for command in self.link.commands(table.state):
            try:
                self._send(command, LINK_ACTOR)
                sent += 1
            except Refused as refused:  # the table moved on meanwhile: asked again next time
                log.info("link command %s not taken: %s", type(command).__name__, refused)
            except TableTilted:
                return sent
        self._keep_acked()
        return sent

    @property
    def state(self) -> LinkState:
        return self.link.state

    def close(self) -> None:
        """Stop the link (it says the table is closed) and keep what was acknowledged."""
        self.link.stop()
        self._keep_acked(force=True)

    def _heard(self, state: TableState, events: list[Event]) -> None:
        self.link.observe(state, self.table.tilted)
        for event in events:
            if isinstance(event, LinkedHitConfirmed):
                self._confirmed.setdefault(event.round_number, []).append(event.hit_id)
            elif isinstance(event, JackpotValidated) and event.round_number in self._confirmed:
                role = event.role.value if event.role is not None else "floorperson"
                self.link.validated(self._confirmed.pop(event.round_number), event.validator,
                                    role)
        if any(isinstance(e, LinkedContributed | JackpotLocked) for e in events):
            self.link.wake()

    def _keep_acked(self, force: bool = False) -> None:
        acked, voided = self.link.acked_seq, self.link.voided_seq
        now = time.monotonic()
        due = force or now - self._kept_at >= KEEP_ACKED_S
        if acked > self._kept and due and self.table.keep_setting(ACKED_SETTING, str(acked)):
            self._kept, self._kept_at = acked, now
        # how far the voids were shipped: a restart ships again at most what came after it
        if voided > self._kept_voided and due and \
                self.table.keep_setting(VOIDS_SETTING, str(voided)):
            self._kept_voided, self._kept_at = voided, now
