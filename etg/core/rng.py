"""The RNG source: the only way randomness enters the game.

Production uses the operating system's CSPRNG through :mod:`secrets`, whose
``randbelow`` rejects out-of-range values instead of reducing modulo n, so no
modulo bias. Tests inject :class:`SeededSource`; production never does.
"""

from __future__ import annotations

import random
import secrets
from typing import Protocol


class RandomSource(Protocol):
    """Uniform integers; the single primitive every draw is built from."""

    def randbelow(self, n: int) -> int:
        """A uniformly distributed integer in ``[0, n)``; ``n`` must be positive."""
        ...


class SystemSource:
    """Cryptographically secure source (``secrets.randbelow``)."""

    name = "csprng"

    def randbelow(self, n: int) -> int:
        return secrets.randbelow(n)


class SeededSource:
    """Reproducible source for tests, simulations and demos. Never for real play."""

    name = "seeded"

    def __init__(self, seed: int) -> None:
        self._random = random.Random(seed)

    def randbelow(self, n: int) -> int:
        if n <= 0:
            raise ValueError("n must be positive")
        return self._random.randrange(n)


def fisher_yates(n: int, source: RandomSource) -> tuple[int, ...]:
    """A uniformly random permutation of ``range(n)`` (Durstenfeld's Fisher–Yates)."""
    items = list(range(n))
    for i in range(n - 1, 0, -1):
        j = source.randbelow(i + 1)
        items[i], items[j] = items[j], items[i]
    return tuple(items)
