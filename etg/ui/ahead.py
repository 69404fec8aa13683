"""Work done between frames: what later frames will blit, made while the display waits.

A frame that renders a card face, turns a wheel's artwork or sets a big win's title
misses its deadline (SPEC §11: under 8 ms a frame). The scenes queue that work here
instead, and :meth:`WorkAhead.run` does it in the time left before the next frame starts,
one task at a time, each only when the time its kind took last (or a first guess) fits.
A kind passed over has its expected time lowered a little each time (:data:`PASSED_OVER`):
one slow measure on a busy machine would otherwise hold the queue behind it for good, and
the deck's faces it holds up would be rendered by the frames of the deal instead.
Anything not made ahead is still made when a frame first needs it: this only moves work.
"""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Callable, Hashable

Task = tuple[Hashable, Callable[[], object]]
"""A piece of work ahead: its kind (whose last duration predicts the next) and the work."""


PASSED_OVER = 0.9
"""What a kind's expected time is multiplied by each time it does not fit: a kind measured
once at twice its time is tried again within seven windows, and one that truly outgrows
every window runs now and then, late, instead of never (then in a frame)."""


class WorkAhead:
    """A queue of tasks, each under a kind whose last duration predicts the next."""

    def __init__(self, first_guess_s: float = 0.008) -> None:
        self._tasks: deque[Task] = deque()
        self._took: dict[Hashable, float] = {}
        self._first_guess_s = first_guess_s

    def __len__(self) -> int:
        return len(self._tasks)

    def add(self, kind: Hashable, task: Callable[[], object]) -> None:
        """Queue `task` at the back."""
        self._tasks.append((kind, task))

    def put_first(self, tasks: list[Task]) -> None:
        """`tasks` at the front, in order, in place of any queued task of their kinds (a new
        spin's pictures replace the last spin's that were never made: the queue stays bounded
        however long no frame leaves time for it)."""
        kinds = {kind for kind, _ in tasks}
        kept = [queued for queued in self._tasks if queued[0] not in kinds]
        self._tasks = deque([*tasks, *kept])

    def run(self, until: float) -> None:
        """Tasks in order while each one's expected time ends before `until`
        (a ``time.perf_counter()`` deadline)."""
        while self._tasks:
            kind, task = self._tasks[0]
            start = time.perf_counter()
            expected = self._took.get(kind, self._first_guess_s)
            if start + expected >= until:
                if kind in self._took:
                    self._took[kind] = expected * PASSED_OVER
                return
            self._tasks.popleft()
            task()
            self._took[kind] = time.perf_counter() - start
