"""The on-screen Bonus Spin wheel (SPEC §3, §6): it lands on the recorded stops, and only time moves it."""

from __future__ import annotations

import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import math
from collections.abc import Iterator
from itertools import pairwise, product

import pygame
import pytest

from etg.config.loader import load_paytable
from etg.core.paytable import BonusSpin, ProgressiveLevel
from etg.core.wheel import WheelStops
from etg.places import shipped_config_dir
from etg.ui import theme
from etg.ui.wheel import (
    CELEBRATION_S,
    DURATIONS_S,
    FULL_TURNS,
    HOT_SPOT_RADII,
    RIM_INNER,
    RINGS,
    SEAT_RADII,
    WheelView,
    celebrate,
)

RADIUS = 260
FRAME = 1.0 / 60.0
SIZE = (700, 700)
CENTRE = (350, 360)
BACKGROUND = theme.FELT_DARK


@pytest.fixture(scope="module", autouse=True)
def _pygame() -> Iterator[None]:
    pygame.init()
    yield  # no pygame.quit(): other test modules in this process keep using pygame


@pytest.fixture(scope="module")
def bonus() -> BonusSpin:
    paytable = load_paytable(shipped_config_dir() / "paytables" / "maryland-community-5.yaml").paytable
    assert paytable.bonus_spin is not None
    return paytable.bonus_spin


@pytest.fixture(scope="module")
def views(bonus: BonusSpin) -> dict[int, WheelView]:
    return {seats: WheelView(bonus, seats, RADIUS) for seats in (6, 9)}


def under_pointer(view: WheelView, now: float) -> WheelStops:
    return WheelStops(view.segment_under_pointer("community", now),
                      view.segment_under_pointer("seat", now),
                      view.segment_under_pointer("hot_spot", now))


def frame(view: WheelView, now: float) -> pygame.Surface:
    surface = pygame.Surface(SIZE)
    surface.fill(BACKGROUND)
    view.draw(surface, CENTRE, now)
    return surface


def pixels(surface: pygame.Surface) -> bytes:
    return pygame.image.tobytes(surface, "RGB")


def at_pointer(surface: pygame.Surface, radius_fraction: float) -> tuple[int, int, int]:
    """The colour straight below the pointer, `radius_fraction` of the radius from the centre."""
    colour = surface.get_at((CENTRE[0], round(CENTRE[1] - radius_fraction * RADIUS)))
    return colour.r, colour.g, colour.b


def nearest_seat(colour: tuple[int, int, int], seats: int) -> int:
    """The seat whose colour points the same way in RGB (shading only scales a colour)."""
    def cosine(a: tuple[int, int, int], b: tuple[int, int, int]) -> float:
        return sum(x * y for x, y in zip(a, b, strict=True)) / (math.hypot(*a) * math.hypot(*b))
    return max(range(1, seats + 1), key=lambda seat: cosine(colour, theme.seat_colour(seat)))


def index_of(bonus: BonusSpin, level: ProgressiveLevel) -> int:
    return next(i for i, s in enumerate(bonus.hot_spot_ring) if s.progressive is level)


# -- landing ------------------------------------------------------------------------------------


@pytest.mark.parametrize("seats", [6, 9])
def test_every_stop_is_where_the_wheel_lands(bonus: BonusSpin, views: dict[int, WheelView],
                                             seats: int) -> None:
    view = views[seats]
    start = 1000.0
    combos = product(range(len(bonus.community_ring)), range(1, seats + 1),
                     range(len(bonus.hot_spot_ring)))
    for community, seat, hot_spot in combos:
        stops = WheelStops(community, seat, hot_spot)
        view.spin_to(stops, start)  # each spin sets off from where the last one landed
        assert view.ends_at == pytest.approx(start + max(DURATIONS_S))
        assert under_pointer(view, view.ends_at) == stops
        assert under_pointer(view, view.ends_at + 60.0) == stops
        start = view.ends_at + 2.0


def test_each_ring_shows_its_stop_as_soon_as_it_stops(views: dict[int, WheelView]) -> None:
    view = views[6]
    stops = WheelStops(2, 4, 5)
    view.spin_to(stops, 10.0)
    for ring, duration, stop in zip(RINGS, DURATIONS_S, (2, 4, 5), strict=True):
        assert view.segment_under_pointer(ring, 10.0 + duration) == stop
    # The rings stop one after another, the outer first.
    assert list(DURATIONS_S) == sorted(DURATIONS_S)
    assert len(set(DURATIONS_S)) == 3
    after_outer = 10.0 + DURATIONS_S[0] + 0.5
    assert view.angles(after_outer)[0] == view.angles(after_outer + FRAME)[0]
    assert view.angles(after_outer)[1] != view.angles(after_outer + FRAME)[1]
    assert view.angles(after_outer)[2] != view.angles(after_outer + FRAME)[2]


def test_a_spin_passes_over_other_segments_before_landing(views: dict[int, WheelView]) -> None:
    view = views[6]
    view.rest_on(WheelStops(0, 1, 0))
    view.spin_to(WheelStops(0, 1, 0), 0.0)
    seen = {view.segment_under_pointer("community", n * FRAME) for n in range(60)}
    assert len(seen) > 4  # it passes over other segments on its way


def test_rest_on_shows_the_stop_at_any_time(bonus: BonusSpin, views: dict[int, WheelView]) -> None:
    view = views[9]
    for community, seat, hot_spot in zip(range(8), range(1, 10), range(10), strict=False):
        stops = WheelStops(community, seat, hot_spot)
        view.rest_on(stops)
        for now in (-5.0, 0.0, 123.4):
            assert under_pointer(view, now) == stops
            assert not view.spinning(now)
    assert view.ends_at == -math.inf
    view.rest_on(None)
    assert view.angles(7.0) == (0.0, 0.0, 0.0)
    assert under_pointer(view, 7.0) == WheelStops(0, 1, 0)


def test_segments_take_angles_proportional_to_their_weights(bonus: BonusSpin,
                                                           views: dict[int, WheelView]) -> None:
    view = views[6]
    for ring, segments in ((0, bonus.community_ring), (2, bonus.hot_spot_ring)):
        total = sum(s.weight for s in segments)
        centres = []
        for index in range(len(segments)):
            stops = [0, 1, 0]
            stops[ring] = index
            view.rest_on(WheelStops(*stops))
            centres.append(view.angles(0.0)[ring])
        for i in range(len(segments) - 1):
            gap = (centres[i + 1] - centres[i]) % 360.0
            expected = 360.0 * (segments[i].weight + segments[i + 1].weight) / 2.0 / total
            assert gap == pytest.approx(expected)
    view.rest_on(WheelStops(0, 4, 0))
    assert view.angles(0.0)[1] % 360.0 == pytest.approx(3 * 60.0)


def test_impossible_stops_are_refused(views: dict[int, WheelView]) -> None:
    view = views[6]
    for stops in (WheelStops(8, 1, 0), WheelStops(0, 7, 0), WheelStops(0, 0, 0),
                  WheelStops(0, 1, 10), WheelStops(-1, 1, 0)):
        with pytest.raises(ValueError):
            view.spin_to(stops, 0.0)
        with pytest.raises(ValueError):
            view.rest_on(stops)


# -- motion -------------------------------------------------------------------------------------


def test_spinning_during_the_spin_and_not_after(views: dict[int, WheelView]) -> None:
    view = views[6]
    view.rest_on(None)
    assert not view.spinning(0.0)
    view.spin_to(WheelStops(3, 2, 7), 50.0)
    assert view.ends_at == pytest.approx(50.0 + max(DURATIONS_S))
    assert view.spinning(50.0)
    assert view.spinning(50.0 + 0.5 * max(DURATIONS_S))
    assert view.spinning(view.ends_at - 0.01)
    assert not view.spinning(view.ends_at)
    assert not view.spinning(view.ends_at + 100.0)


def test_angles_are_continuous_and_slow_down_to_a_stop(views: dict[int, WheelView]) -> None:
    view = views[9]
    view.rest_on(WheelStops(5, 8, 3))
    before = view.angles(99.0)
    view.spin_to(WheelStops(1, 3, 9), 100.0)
    for a, b in zip(before, view.angles(100.0), strict=True):
        assert (a - b) % 360.0 == pytest.approx(0.0, abs=1e-9) or \
            (a - b) % 360.0 == pytest.approx(360.0)
    times = [100.0 - 0.1 + n * FRAME for n in range(int((max(DURATIONS_S) + 0.3) / FRAME))]
    track = [view.angles(t) for t in times]
    for k, duration in enumerate(DURATIONS_S):
        steps = [track[n + 1][k] - track[n][k] for n in range(len(track) - 1)]
        assert max(abs(s) for s in steps) < 20.0, "no jump between frames"
        moving = [s for s in steps if s != 0.0]
        assert all(s > 0 for s in moving) or all(s < 0 for s in moving), "never turns back"
        total = abs(track[-1][k] - track[0][k])
        assert total >= 360.0 * FULL_TURNS[k]
        # The last second before the ring stops: every frame turns it less than the one before.
        end = 100.0 + duration
        tail = [abs(s) for t, s in zip(times, steps, strict=False) if end - 1.0 <= t < end - FRAME]
        assert len(tail) > 50
        assert all(b <= a + 1e-9 for a, b in pairwise(tail))
        assert tail[-1] < 0.05


def test_a_new_spin_sets_off_from_where_a_running_one_is(views: dict[int, WheelView]) -> None:
    view = views[6]
    view.spin_to(WheelStops(1, 1, 1), 0.0)
    midway = view.angles(2.0)
    view.spin_to(WheelStops(6, 5, 4), 2.0)
    for a, b in zip(midway, view.angles(2.0), strict=True):
        assert math.isclose(math.remainder(a - b, 360.0), 0.0, abs_tol=1e-9)
    assert under_pointer(view, view.ends_at) == WheelStops(6, 5, 4)


# -- drawing ------------------------------------------------------------------------------------


def test_the_same_moment_draws_the_same_frame(views: dict[int, WheelView]) -> None:
    view = views[6]
    view.spin_to(WheelStops(4, 2, 6), 0.0)
    first = pixels(frame(view, 1.234))
    assert pixels(frame(view, 1.234)) == first
    frame(view, 3.0)
    assert pixels(frame(view, 1.234)) == first


def test_a_spinning_wheel_is_drawn_and_moves(views: dict[int, WheelView]) -> None:
    view = views[6]
    view.spin_to(WheelStops(4, 2, 6), 0.0)
    early, later = frame(view, 1.0), frame(view, 1.0 + FRAME)
    assert pixels(early) != pixels(later)
    blank = pygame.Surface(SIZE)
    blank.fill(BACKGROUND)
    assert pixels(early) != pixels(blank)
    # Most of the wheel's disc is painted, and nothing is drawn far outside it.
    painted = sum(early.get_at((x, y)) != pygame.Color(*BACKGROUND)
                  for x in range(CENTRE[0] - RADIUS, CENTRE[0] + RADIUS, 10)
                  for y in range(CENTRE[1] - RADIUS, CENTRE[1] + RADIUS, 10)
                  if math.dist((x, y), CENTRE) < RADIUS - 2)
    inside = sum(1 for x in range(CENTRE[0] - RADIUS, CENTRE[0] + RADIUS, 10)
                 for y in range(CENTRE[1] - RADIUS, CENTRE[1] + RADIUS, 10)
                 if math.dist((x, y), CENTRE) < RADIUS - 2)
    assert painted == inside
    for corner in ((0, 0), (SIZE[0] - 1, 0), (0, SIZE[1] - 1), (SIZE[0] - 1, SIZE[1] - 1)):
        assert early.get_at(corner) == pygame.Color(*BACKGROUND)


def test_a_wheel_at_rest_only_blinks_its_bulbs(views: dict[int, WheelView]) -> None:
    view = views[6]
    view.rest_on(WheelStops(3, 3, 3))
    one, other = frame(view, 0.1), frame(view, 0.8)
    changed = [(x, y) for x in range(0, SIZE[0], 3) for y in range(0, SIZE[1], 3)
               if one.get_at((x, y)) != other.get_at((x, y))]
    assert changed
    for point in changed:
        assert RIM_INNER * RADIUS - 2 <= math.dist(point, CENTRE) <= RADIUS + 2, point


def test_the_landed_segments_are_the_ones_drawn_under_the_pointer(
        bonus: BonusSpin, views: dict[int, WheelView]) -> None:
    jackpot = index_of(bonus, ProgressiveLevel.PRIMARY)
    mini = index_of(bonus, ProgressiveLevel.SECONDARY)
    hot_spot_probe = HOT_SPOT_RADII[0] + 0.35 * (HOT_SPOT_RADII[1] - HOT_SPOT_RADII[0])
    seat_probe = SEAT_RADII[0] + 0.2 * (SEAT_RADII[1] - SEAT_RADII[0])
    for seats, view in views.items():
        for seat in range(1, seats + 1):
            hot_spot = jackpot if seat % 2 else mini
            view.spin_to(WheelStops(seat % 8, seat, hot_spot), 0.0)
            landed = frame(view, view.ends_at + 0.5)
            # A moment before each ring stops, it is drawn turning, all but on its stop.
            creeping_seat = frame(view, DURATIONS_S[1] - 0.05)
            creeping_hot_spot = frame(view, view.ends_at - 0.05)
            for shown in (landed, creeping_seat):
                assert nearest_seat(at_pointer(shown, seat_probe), seats) == seat
            for shown in (landed, creeping_hot_spot):
                r, g, b = at_pointer(shown, hot_spot_probe)
                if hot_spot == jackpot:
                    assert r > b + 60 and g > b + 30, f"JACKPOT is gold, got {(r, g, b)}"
                else:
                    assert abs(r - b) < 40 and r > 100, f"MINI JACKPOT is silver, got {(r, g, b)}"
            view.rest_on(WheelStops(seat % 8, seat, hot_spot))
            assert pixels(frame(view, 0.0)) == pixels(landed)


# -- celebration --------------------------------------------------------------------------------


def celebration(now: float, started: float = 10.0) -> pygame.Surface:
    surface = pygame.Surface((900, 600))
    surface.fill(BACKGROUND)
    celebrate(surface, pygame.Rect(100, 50, 700, 500), now, started, "JACKPOT!",
              "$10,250.00 · SEAT 3")
    return surface


def test_celebration_draws_only_inside_its_rect_and_its_time() -> None:
    blank = pygame.Surface((900, 600))
    blank.fill(BACKGROUND)
    for now in (10.5, 12.0, 10.0 + CELEBRATION_S - 0.1):
        shown = celebration(now)
        assert pixels(shown) != pixels(blank)
        for x in range(0, 900, 7):
            for y in range(0, 600, 7):
                if not pygame.Rect(100, 50, 700, 500).collidepoint(x, y):
                    assert shown.get_at((x, y)) == blank.get_at((x, y)), (x, y)
    for now in (9.99, 10.0 + CELEBRATION_S + 0.01, 100.0):
        assert pixels(celebration(now)) == pixels(blank)
    assert 5.0 <= CELEBRATION_S <= 7.0


def test_celebration_is_a_pure_function_of_time() -> None:
    assert pixels(celebration(11.5)) == pixels(celebration(11.5))
    assert pixels(celebration(11.5)) == pixels(celebration(21.5, started=20.0))
    assert pixels(celebration(11.5)) != pixels(celebration(11.5 + FRAME))
