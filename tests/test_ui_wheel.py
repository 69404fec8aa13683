"""The on-screen Bonus Spin wheel (SPEC §3, §6): it lands on the recorded stops, and only time moves it."""

from __future__ import annotations

import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import math
from collections.abc import Callable, Iterator
from itertools import pairwise, product

import pygame
import pytest

from etg.config.loader import load_paytable
from etg.config.places import shipped_config_dir
from etg.core.paytable import BonusSpin, ProgressiveLevel
from etg.core.wheel import WheelStops
from etg.ui import theme
from etg.ui.assets import Style, text
from etg.ui.layout import TableLayout
from etg.ui.wheel import (
    AHEAD_SLACK_S,
    CELEBRATION_S,
    DURATIONS_S,
    FULL_TURNS,
    MIN_LABEL_PX,
    RIM_INNER,
    RINGS,
    WheelView,
    celebrate,
)
from etg.ui.wheel_art import LEVEL_COLOURS
from etg.ui.wheel_labels import Orientation

PAYTABLES = shipped_config_dir() / "paytables"
WHEEL_PAYTABLES = sorted(p.name for p in PAYTABLES.glob("*.yaml")
                         if load_paytable(p).paytable.bonus_spin is not None)
RADIUS = 236  # the table layout's wheel radius
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


@pytest.fixture(scope="module")
def small_views(bonus: BonusSpin) -> dict[int, WheelView]:
    """Wheels too small for labels, quick to paint: where a ring lands does not depend on
    the radius, and these spin to every stop of every ring."""
    return {seats: WheelView(bonus, seats, 60) for seats in (6, 9)}


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


def nearest_seat(colour: tuple[int, ...], seats: int) -> int:
    """The seat whose colour points the same way in RGB (shading only scales a colour)."""
    def cosine(a: tuple[int, ...], b: tuple[int, int, int]) -> float:
        return sum(x * y for x, y in zip(a, b, strict=True)) / (math.hypot(*a) * math.hypot(*b))
    return max(range(1, seats + 1), key=lambda seat: cosine(colour, theme.seat_colour(seat)))


def index_of(bonus: BonusSpin, level: ProgressiveLevel) -> int:
    return next(i for i, s in enumerate(bonus.hot_spot_ring) if s.progressive is level)


# -- landing ------------------------------------------------------------------------------------


@pytest.mark.parametrize("seats", [6, 9])
def test_every_stop_is_where_the_wheel_lands(bonus: BonusSpin,
                                             small_views: dict[int, WheelView],
                                             seats: int) -> None:
    view = small_views[seats]
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


def test_segments_are_drawn_equal_whatever_their_weights(bonus: BonusSpin,
                                                        views: dict[int, WheelView]) -> None:
    # SPEC §6: visual width is not the weight; the weights stay in the draw (etg.core.wheel).
    view = views[6]
    for ring, segments in ((0, bonus.community_ring), (2, bonus.hot_spot_ring)):
        assert len({s.weight for s in segments}) > 1  # the shipped weights differ
        width = 360.0 / len(segments)
        assert view.segment_degrees(RINGS[ring]) == width
        for index in range(len(segments)):
            stops = [0, 1, 0]
            stops[ring] = index
            view.rest_on(WheelStops(*stops))
            assert view.angles(0.0)[ring] == pytest.approx(index * width)
    assert view.segment_degrees("seat") == 60.0
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


def test_two_wheels_of_one_table_land_on_the_same_picture(bonus: BonusSpin) -> None:
    """The still picture a ring lands on is painted on a copy of its turned artwork,
    which two wheels of the same size share: the second is not painted over the first's
    labels (they would come out bolder) or its frame."""
    stops = WheelStops(2, 7, 3)
    landed = []
    for _ in range(2):
        view = WheelView(bonus, 9, RADIUS)
        view.spin_to(stops, 0.0)
        landed.append(pixels(frame(view, view.ends_at)))
    assert landed[0] == landed[1]


def test_the_next_frame_turned_ahead_is_the_frame_itself(
        bonus: BonusSpin, monkeypatch: pytest.MonkeyPatch) -> None:
    """The rings a frame shows, turned between frames for its moment, are exactly the
    rings it would turn itself; a frame a little off that moment shows them without
    turning anything; one further off, or at rest, does not use them."""
    view = WheelView(bonus, 9, RADIUS)
    stops = WheelStops(2, 7, 3)
    view.spin_to(stops, 0.0)
    frame(view, 1.0)
    for _, task in view.frame_ahead(1.0 + FRAME):
        task()
    turns: list[float] = []
    rotate = pygame.transform.rotate
    monkeypatch.setattr(pygame.transform, "rotate",
                        lambda art, angle: turns.append(angle) or rotate(art, angle))
    fresh = WheelView(bonus, 9, RADIUS)
    fresh.spin_to(stops, 0.0)
    assert pixels(frame(view, 1.0 + FRAME)) == pixels(frame(fresh, 1.0 + FRAME))
    calls = len(turns)
    assert calls == 3  # the fresh view's three rings; the view made ahead turned none
    almost = pixels(frame(view, 1.0 + FRAME + AHEAD_SLACK_S / 2))
    assert len(turns) == calls and almost == pixels(frame(view, 1.0 + FRAME))
    frame(view, 1.0 + FRAME + 2 * AHEAD_SLACK_S)
    assert len(turns) == calls + 3  # too far from the moment they were made for
    assert view.frame_ahead(view.ends_at + FRAME) == []  # nothing turns at rest
    for _, task in view.frame_ahead(DURATIONS_S[0] - FRAME / 2):
        task()  # the Community ring's last turning moment, a hair before it stops
    landed = pixels(frame(view, DURATIONS_S[0] + AHEAD_SLACK_S / 4))
    assert landed == pixels(frame(fresh, DURATIONS_S[0] + AHEAD_SLACK_S / 4))


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
        # The rim; a lit bulb's glow spills a little over its edges.
        assert (RIM_INNER - 0.02) * RADIUS <= math.dist(point, CENTRE) <= RADIUS * 1.02, point


def test_the_landed_segments_are_the_ones_drawn_under_the_pointer(
        bonus: BonusSpin, views: dict[int, WheelView]) -> None:
    jackpot = index_of(bonus, ProgressiveLevel.PRIMARY)
    mini = index_of(bonus, ProgressiveLevel.SECONDARY)
    for seats, view in views.items():
        # Beside each label, inside the wedge under the pointer, clear of the landed frame.
        seat_probe = beside_label(view, "seat")
        hot_spot_probe = beside_label(view, "hot_spot")
        for seat in range(1, seats + 1):
            hot_spot = jackpot if seat % 2 else mini
            view.spin_to(WheelStops(seat % 8, seat, hot_spot), 0.0)
            landed = frame(view, view.ends_at + 0.5)
            # A moment before each ring stops, it is drawn turning, all but on its stop.
            creeping_seat = frame(view, DURATIONS_S[1] - 0.05)
            creeping_hot_spot = frame(view, view.ends_at - 0.05)
            for shown in (landed, creeping_seat):
                assert nearest_seat(shown.get_at(seat_probe)[:3], seats) == seat
            for shown in (landed, creeping_hot_spot):
                r, g, b = shown.get_at(hot_spot_probe)[:3]
                if hot_spot == jackpot:
                    assert r > b + 100 and g > b + 60, f"JACKPOT is the meters' gold, got {r, g, b}"
                else:
                    assert max(r, g, b) < 60, f"MINI JACKPOT is the meters' ink, got {r, g, b}"
            view.rest_on(WheelStops(seat % 8, seat, hot_spot))
            assert pixels(frame(view, 0.0)) == pixels(landed)


def beside_label(view: WheelView, ring: str) -> tuple[int, int]:
    """A point in the wedge under the pointer, midway between its label's ink and the
    wedge's right side, at the middle of the label band."""
    inner, outer = view.label_band(ring)
    fit = view.label_fits(ring)[0]
    assert fit is not None
    out = (inner + outer) / 2.0
    ink = max(abs(across) for across, _ in fit.corners())
    side = out * math.tan(math.radians(view.segment_degrees(ring) / 2.0))
    return CENTRE[0] + round((ink + side) / 2.0), CENTRE[1] - round(out)


def test_the_jackpot_wedges_wear_the_meters_colours(bonus: BonusSpin,
                                                     views: dict[int, WheelView]) -> None:
    # The meter plates of the table scene: theme.WIN gold and theme.INK, in a GOLD frame.
    assert LEVEL_COLOURS[ProgressiveLevel.PRIMARY] == (theme.WIN, theme.INK)
    assert LEVEL_COLOURS[ProgressiveLevel.SECONDARY] == (theme.INK, theme.WIN)
    view = views[9]
    view.rest_on(WheelStops(0, 1, 0))
    shown = frame(view, 0.0)
    inner, outer = view.label_band("hot_spot")
    width = view.segment_degrees("hot_spot")
    wedges: dict[int, list[tuple[int, int, int]]] = {}
    for x in range(CENTRE[0] - RADIUS, CENTRE[0] + RADIUS, 2):
        for y in range(CENTRE[1] - RADIUS, CENTRE[1] + RADIUS, 2):
            if inner + 4 < math.dist((x, y), CENTRE) < outer - 4:
                clockwise = math.degrees(math.atan2(x - CENTRE[0], CENTRE[1] - y))
                wedge = math.floor((clockwise + width / 2.0) % 360.0 / width)
                wedges.setdefault(wedge, []).append(shown.get_at((x, y))[:3])

    def share(colours: list[tuple[int, int, int]], wanted: Callable[[tuple[int, ...]], bool],
              ) -> float:
        return sum(1 for c in colours if wanted(c)) / len(colours)

    def gold(c: tuple[int, ...]) -> bool:  # WIN, shaded; the separators' gold is paler
        return c[0] > 200 and c[1] > 160 and c[2] < 80

    def ink(c: tuple[int, ...]) -> bool:
        return max(c) < 40

    for index, segment in enumerate(bonus.hot_spot_ring):
        colours = wedges[index]
        if segment.progressive is ProgressiveLevel.PRIMARY:
            assert share(colours, gold) > 0.5 and share(colours, ink) < 0.25
        elif segment.progressive is ProgressiveLevel.SECONDARY:
            assert share(colours, ink) > 0.5 and share(colours, gold) < 0.25
        else:
            assert share(colours, gold) < 0.02 and share(colours, ink) < 0.02, segment.symbol


# -- labels -------------------------------------------------------------------------------------


@pytest.mark.parametrize("name", WHEEL_PAYTABLES)
def test_every_label_fits_its_segment_upright_at_the_tables_radius(name: str) -> None:
    """SPEC §6: every segment wide enough for an upright label, player text ≥ 20 px."""
    paytable = load_paytable(PAYTABLES / name).paytable
    assert paytable.bonus_spin is not None
    radius = TableLayout.for_paytable(paytable).wheel_radius
    view = WheelView(paytable.bonus_spin, paytable.seats, radius)
    words = {"community": [s.symbol for s in paytable.bonus_spin.community_ring],
             "seat": [f"SEAT {n}" for n in range(1, paytable.seats + 1)],
             "hot_spot": [s.symbol for s in paytable.bonus_spin.hot_spot_ring]}
    for ring in RINGS:
        span = view.segment_degrees(ring)
        assert span == 360.0 / len(words[ring])
        inner, outer = view.label_band(ring)
        fits = view.label_fits(ring)
        assert len(fits) == len(words[ring])
        for label, fit in zip(words[ring], fits, strict=True):
            assert fit is not None, label
            assert fit.size >= MIN_LABEL_PX, (ring, label, fit.size)
            assert " ".join(fit.lines) == label
            for line, (left, top, right, bottom) in zip(fit.lines, fit.boxes, strict=True):
                ink = text(line, fit.size, theme.WHITE, Style.CONDENSED).get_bounding_rect()
                assert right - left >= ink.width and bottom - top >= ink.height
            for across, out in fit.corners():
                # Inside the band and inside the wedge: the angle the corner needs is less
                # than half the segment's width.
                assert inner <= out and math.hypot(across, out) <= outer, (ring, label)
                assert math.degrees(math.atan2(abs(across), out)) < span / 2.0, (ring, label)


@pytest.mark.parametrize("seats", [6, 9])
def test_labels_at_rest_are_never_upside_down(bonus: BonusSpin, views: dict[int, WheelView],
                                              seats: int) -> None:
    view = views[seats]
    counts = {"community": len(bonus.community_ring), "seat": seats,
              "hot_spot": len(bonus.hot_spot_ring)}
    for ring, count in counts.items():
        orientation = view.label_fits(ring)[0]
        assert orientation is not None
        for stop in range(count):
            turns = view.rest_rotations(ring, stop)
            assert len(turns) == count
            assert all(-90.0 < turn <= 90.0 for turn in turns), (ring, stop, turns)
            # Under the pointer: level across the ring, or reading up toward the pointer.
            level = 0.0 if orientation.orientation is Orientation.TANGENTIAL else 90.0
            assert turns[stop] == pytest.approx(level)
            # Half a turn round the ring, the label reads the same way (turned, not flipped).
            opposite = [j for j in range(count) if math.isclose(
                (j - stop) * 360.0 / count % 360.0, 180.0)]
            for j in opposite:
                assert turns[j] == pytest.approx(level)


def test_the_label_under_the_pointer_is_drawn_level(bonus: BonusSpin,
                                                     views: dict[int, WheelView]) -> None:
    """The community label under the pointer is wider than tall on screen; the Hot Spot
    one, reading along the radius, taller than wide."""
    view = views[9]
    for stop in (0, 3, 6):
        view.rest_on(WheelStops(stop, 1, 0))
        shown = frame(view, 0.0)
        inner, outer = view.label_band("community")
        ink = [(x, y) for x in range(CENTRE[0] - 40, CENTRE[0] + 41)
               for y in range(round(CENTRE[1] - outer), round(CENTRE[1] - inner))
               if colour_close(shown.get_at((x, y))[:3], (255, 222, 130))]
        xs, ys = [x for x, _ in ink], [y for _, y in ink]
        assert max(xs) - min(xs) > 1.5 * (max(ys) - min(ys)), stop
    view.rest_on(WheelStops(0, 1, 5))
    shown = frame(view, 0.0)
    inner, outer = view.label_band("hot_spot")
    ink = [(x, y) for x in range(CENTRE[0] - 20, CENTRE[0] + 21)  # inside the landed frame
           for y in range(round(CENTRE[1] - outer), round(CENTRE[1] - inner))
           if colour_close(shown.get_at((x, y))[:3], (250, 242, 222), 40)]
    xs, ys = [x for x, _ in ink], [y for _, y in ink]
    assert max(ys) - min(ys) > 2 * (max(xs) - min(xs))


def colour_close(a: tuple[int, ...], b: tuple[int, int, int], within: int = 60) -> bool:
    return sum(abs(x - y) for x, y in zip(a, b, strict=True)) < within


def test_a_ring_lands_without_its_labels_turning_over(views: dict[int, WheelView]) -> None:
    """Each spin's artwork has its labels already turned as they will rest, so the last
    frame before a ring stops and its resting picture show the same letters in the same
    places (but for resampling: a pixel's shift at a glyph's edge). A label turning over
    as the ring stopped would leave most of its ink somewhere else."""
    view = views[9]
    view.spin_to(WheelStops(2, 7, 8), 0.0)
    for k, ink in ((0, (255, 222, 130)), (2, (250, 242, 222))):  # community, Hot Spot ink
        end = DURATIONS_S[k]
        before, after = frame(view, end - 0.02), frame(view, end + 0.02)
        inner, outer = view.label_band(RINGS[k])
        half = view.segment_degrees(RINGS[k]) / 2.0 + 2.0  # not the landed, framed wedge
        band = [(x, y) for x in range(CENTRE[0] - RADIUS, CENTRE[0] + RADIUS)
                for y in range(CENTRE[1] - RADIUS, CENTRE[1] + RADIUS)
                if inner < math.dist((x, y), CENTRE) < outer
                and abs(math.degrees(math.atan2(x - CENTRE[0], CENTRE[1] - y))) > half]
        one = {p for p in band if colour_close(before.get_at(p)[:3], ink, 90)}
        other = {p for p in band if colour_close(after.get_at(p)[:3], ink, 90)}
        assert len(one) > 500
        # Measured: 0.79 and 0.66 here; 0.47 and 0.39 when a quarter of the labels turn over.
        assert len(one & other) / len(one | other) > 0.55, RINGS[k]


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


def test_confetti_inside_a_clip_is_the_confetti_drawn_whole() -> None:
    """Flakes wholly outside the clip are skipped, not drawn: the clipped area's pixels are
    those of the confetti drawn on the whole surface, flakes across its edges included."""
    from etg.ui.wheel_celebration import _draw_confetti

    rect = pygame.Rect(0, 0, 1920, 1080)
    clips = (pygame.Rect(700, 300, 260, 170), pygame.Rect(0, 900, 1920, 37),
             pygame.Rect(1500, 0, 31, 1080))
    crossed = 0
    for t in (0.2, 0.9, 1.7, 3.3, 5.1):
        whole = pygame.Surface(rect.size)
        whole.fill(BACKGROUND)
        _draw_confetti(whole, rect, t)
        for clip in clips:
            clipped = pygame.Surface(rect.size)
            clipped.fill(BACKGROUND)
            clipped.set_clip(clip)
            _draw_confetti(clipped, rect, t)
            inside = pixels(whole.subsurface(clip))
            assert pixels(clipped.subsurface(clip)) == inside, (t, clip)
            crossed += any(  # a flake lies across the clip's left or right edge
                whole.get_at((x, y)) != BACKGROUND and whole.get_at((x + 1, y)) != BACKGROUND
                for x in (clip.left - 1, clip.right - 1) if x >= 0
                for y in range(clip.top, clip.bottom))
    assert crossed >= 3  # some flakes did lie across a clip's edge


def test_a_counting_line_set_glyph_by_glyph_is_the_line_set_whole() -> None:
    """The big win's amount changes every frame, so its glyphs go straight onto the frame;
    the picture is that of the line set on a surface of its own from freshly made glyphs
    (as it was before, and as a fading line still is) to a unit of rounding: letters, not
    their boxes, and whole where another line faded."""
    from etg.ui.wheel_celebration import _faded_line, _outlined, _outlined_line

    words, size, outline = "SEAT 3  ·  PAID $1,275.00", 59, 4
    faded = _faded_line(_outlined_line("$5", size, theme.WHITE, theme.CREAM, Style.BOLD,
                                       outline))
    faded.set_alpha(60)  # as a fading line leaves it: the glyphs it shares are untouched
    fresh = [_outlined.__wrapped__(char, size, theme.WHITE, theme.CREAM, Style.BOLD, outline)
             for char in words]
    advances = [g.get_width() - 2 * outline for g in fresh]
    whole = pygame.Surface((sum(advances) + 2 * outline, max(g.get_height() for g in fresh)),
                           pygame.SRCALPHA)
    x = 0
    for glyph, advance in zip(fresh, advances, strict=True):
        whole.blit(glyph, (x, 0))
        x += advance
    by_glyph, set_whole = pygame.Surface((900, 120)), pygame.Surface((900, 120))
    for surface in (by_glyph, set_whole):
        surface.fill((20, 90, 40))
    _outlined_line(words, size, theme.WHITE, theme.CREAM, Style.BOLD, outline).draw(
        by_glyph, (450, 10))
    set_whole.blit(whole, whole.get_rect(midtop=(450, 10)))
    # the same picture: blending each glyph onto the felt rounds, at most, a unit or two
    # away from blending the line onto the felt once
    differences = [abs(a - b) for a, b in zip(pixels(by_glyph), pixels(set_whole), strict=True)]
    assert max(differences) <= 2
    line_box = whole.get_rect(midtop=(450, 10))
    felt = pygame.mask.from_threshold(by_glyph.subsurface(line_box), (20, 90, 40),
                                      (1, 1, 1)).count()
    assert 0.2 < felt / (line_box.width * line_box.height) < 0.9  # felt between the letters


def test_the_landed_title_shows_its_letters_not_its_box() -> None:
    """The pulsing title's sizes are kept from frame to frame; each keeps its transparency
    (a kept surface whose alpha was switched off would print its whole box in gold)."""
    from etg.ui.wheel_celebration import _outlined, _title_size

    rect = pygame.Rect(0, 0, 1920, 1080)
    size = _title_size(rect, "BIG WIN!")
    box = _outlined("BIG WIN!", size, (255, 246, 180), (222, 142, 24), Style.BOLD,
                    max(2, size // 18)).get_size()
    for now in (1.0, 1.3, 2.0):  # landed (after 0.45 s), at several sizes of the pulse
        surface = pygame.Surface(rect.size)
        surface.fill((0, 0, 200))
        celebrate(surface, rect, now, 0.0, "BIG WIN!", "SEAT 2  ·  PAID $274.99", rays=False)
        gold = pygame.mask.from_threshold(surface, (240, 190, 80), (40, 70, 80)).count()
        assert 0.05 * box[0] * box[1] < gold < 0.6 * box[0] * box[1], now
