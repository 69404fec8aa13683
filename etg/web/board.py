"""The latest picture of the floor, and the pages waiting for a newer one.

One :class:`Board` per web server. The follower (:mod:`etg.web.follow`) puts a
whole new picture on it after every change the controller announces; each open
page's event stream waits for a version newer than the one it sent last. A page
that falls behind is sent only the newest picture, never a queue of old ones:
the pictures are whole, so nothing is lost by skipping, and a slow TV cannot make
the server hold more than one picture for it.
"""

from __future__ import annotations

import asyncio
from typing import Any

Picture = dict[str, Any]
"""The floor as the pages are sent it (JSON-ready: see :mod:`etg.web.picture`)."""


class Closed(Exception):
    """The board is closed: the server is stopping."""


class Board:
    """The newest picture and its version (0: none yet)."""

    def __init__(self) -> None:
        self.version = 0
        self.picture: Picture | None = None
        self.closed = False
        self._changed = asyncio.Condition()

    async def put(self, picture: Picture) -> None:
        async with self._changed:
            self.version += 1
            self.picture = picture
            self._changed.notify_all()

    async def newer_than(self, version: int) -> tuple[int, Picture]:
        """The newest picture once its version is above ``version`` (raises Closed)."""
        async with self._changed:
            await self._changed.wait_for(lambda: self.closed or self.version > version)
            if self.closed:
                raise Closed
            assert self.picture is not None
            return self.version, self.picture

    async def close(self) -> None:
        """Wake every waiting stream so that it ends (the server is stopping)."""
        async with self._changed:
            self.closed = True
            self._changed.notify_all()
