"""The Bonus Spin Xtreme wheel: three rings, each stop a recorded draw (SPEC §3).

The stops are drawn by the RNG source *before* any animation starts and sent
to the engine as a :class:`~etg.core.commands.Spin`; a spin that the display
fails to complete is replayed from the recorded stops, never redrawn (the Big
Six model of PA 2011 § 619a).
"""

from __future__ import annotations

from dataclasses import dataclass

from etg.core.paytable import BonusSpin, WheelSegment
from etg.core.rng import RandomSource


@dataclass(frozen=True, slots=True)
class WheelStops:
    """Segment index on the Community ring, seat position (1-based), Hot Spot ring index."""

    community: int
    seat: int
    hot_spot: int


def draw_stops(bonus: BonusSpin, seats: int, source: RandomSource) -> WheelStops:
    """Each ring's stop, segments weighted by the paytable; the Seat ring's equally."""
    return WheelStops(_weighted(bonus.community_ring, source), 1 + source.randbelow(seats),
                      _weighted(bonus.hot_spot_ring, source))


def stops_problem(bonus: BonusSpin, seats: int, stops: WheelStops) -> str | None:
    """Why ``stops`` cannot be a stop of this wheel, or None."""
    if not 0 <= stops.community < len(bonus.community_ring):
        return f"no segment {stops.community} on the Community ring"
    if not 1 <= stops.seat <= seats:
        return f"no seat {stops.seat} on the Seat ring"
    if not 0 <= stops.hot_spot < len(bonus.hot_spot_ring):
        return f"no segment {stops.hot_spot} on the Hot Spot ring"
    return None


def _weighted(segments: tuple[WheelSegment, ...], source: RandomSource) -> int:
    r = source.randbelow(sum(s.weight for s in segments))
    for index, segment in enumerate(segments):
        r -= segment.weight
        if r < 0:
            return index
    raise AssertionError("unreachable: r < total weight")
