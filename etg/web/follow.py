"""Follow the controller: ``LISTEN floor``, and a whole new picture after every change.

The controller sends ``NOTIFY floor`` with every change it commits (a batch of
contributions, a hit, a validation, a table's change of state, a level's change).
NOTIFY does not replay what was sent while no one listened, so the picture is
never patched from the notifications: each one only says "read again", and the
whole floor is read afresh (:mod:`etg.web.picture`). A burst of notifications
while a read is under way costs one more read, not one each.

When the connection is lost the board gets the last picture marked "controller
unreachable" (the pages say so instead of showing old figures as live), and the
follower connects again every ``retry_s``; once back it reads everything before
listening on, as a reconnecting page does.

Both connections are read-only (``default_transaction_read_only``): the web
server has no route that changes anything, and its connections could not if it had.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable

import psycopg

from etg.web.board import Board, Picture

log = logging.getLogger(__name__)

CHANNEL = "floor"
READ_ONLY = "-c default_transaction_read_only=on"

Reader = Callable[[psycopg.Connection[tuple[object, ...]]], Picture]
"""Reads the whole floor from a connection (run on a worker thread)."""


class Follower:
    def __init__(self, conninfo: str, read: Reader, board: Board, *, retry_s: float = 0.5) -> None:
        self.conninfo = conninfo
        self.read = read
        self.board = board
        self.retry_s = retry_s
        self._stale = asyncio.Event()
        self._reading: psycopg.Connection[tuple[object, ...]] | None = None

    async def run(self) -> None:
        """Listen and read until cancelled."""
        try:
            async with asyncio.TaskGroup() as group:
                group.create_task(self._listen())
                group.create_task(self._reread())
        finally:
            if self._reading is not None:
                self._reading.close()

    async def _listen(self) -> None:
        while True:
            try:
                async with await psycopg.AsyncConnection.connect(
                        self.conninfo, autocommit=True, options=READ_ONLY) as conn:
                    await conn.execute(f"LISTEN {CHANNEL}")
                    self._stale.set()  # what changed while no one listened: read it all
                    async for _ in conn.notifies():
                        self._stale.set()
            except psycopg.Error as error:
                await self._unreachable(error)
            await asyncio.sleep(self.retry_s)

    async def _reread(self) -> None:
        while True:
            await self._stale.wait()
            self._stale.clear()
            try:
                picture = await asyncio.to_thread(self._read_now)
            except psycopg.Error as error:
                await self._unreachable(error)
                await asyncio.sleep(self.retry_s)
                self._stale.set()  # the listener may still be connected: try again
                continue
            await self.board.put(picture)

    def _read_now(self) -> Picture:
        if self._reading is None or self._reading.closed or self._reading.broken:
            self._reading = psycopg.connect(self.conninfo, autocommit=True, options=READ_ONLY)
        try:
            return self.read(self._reading)
        except psycopg.OperationalError:
            self._reading.close()
            self._reading = None
            raise

    async def _unreachable(self, error: psycopg.Error) -> None:
        log.warning("floor controller unreachable: %s", str(error).strip().splitlines()[0]
                    if str(error).strip() else type(error).__name__)
        last = self.board.picture
        down = {"up": False, "since": time.time()}
        if last is None:  # never reached yet: the pages say so rather than wait in silence
            await self.board.put({"controller": down, "now": down["since"], "levels": [],
                                  "tables": [], "hits": [], "reconciliation": None})
        elif last.get("controller", {}).get("up", True):
            await self.board.put({**last, "controller": down})
