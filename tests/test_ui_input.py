"""The logical canvas and the input adapter (SPEC §6: scaling, multi-touch, no double taps, 48 px)."""

from __future__ import annotations

import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import pygame
import pytest

from etg.ui.canvas import LOGICAL, Viewport
from etg.ui.input import (
    MIN_TARGET,
    HitTarget,
    InputAdapter,
    Phase,
    Touch,
    hit_test,
)


def mouse_down(x: int, y: int, button: int = 1, touch: bool = False) -> pygame.event.Event:
    return pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=(x, y), button=button, touch=touch)


def mouse_up(x: int, y: int, button: int = 1, touch: bool = False) -> pygame.event.Event:
    return pygame.event.Event(pygame.MOUSEBUTTONUP, pos=(x, y), button=button, touch=touch)


def mouse_motion(x: int, y: int, buttons: tuple[int, int, int] = (1, 0, 0),
                 touch: bool = False) -> pygame.event.Event:
    return pygame.event.Event(pygame.MOUSEMOTION, pos=(x, y), rel=(0, 0), buttons=buttons,
                              touch=touch)


def finger(kind: int, x: float, y: float, finger_id: int = 0,
           touch_id: int = 1) -> pygame.event.Event:
    return pygame.event.Event(kind, touch_id=touch_id, finger_id=finger_id, x=x, y=y,
                              dx=0.0, dy=0.0)


# --- the canvas -----------------------------------------------------------------------------

@pytest.mark.parametrize(("screen", "scale", "offset"), [
    ((1920, 1080), 1.0, (0.0, 0.0)),        # the design size: identity
    ((1280, 720), 2 / 3, (0.0, 0.0)),       # smaller 16:9
    ((3840, 2160), 2.0, (0.0, 0.0)),        # 4K 16:9
    ((1920, 1200), 1.0, (0.0, 60.0)),       # 16:10: 60 px bars above and below
    ((1280, 800), 2 / 3, (0.0, 40.0)),      # smaller 16:10
    ((2560, 1080), 1.0, (320.0, 0.0)),      # ultra-wide: pillarbox bars left and right
])
def test_viewport_scale_and_bars(screen: tuple[int, int], scale: float,
                                 offset: tuple[float, float]) -> None:
    view = Viewport(*screen)
    assert view.scale == pytest.approx(scale)
    assert view.offset == offset
    w, h = view.content_size
    assert w / h == pytest.approx(LOGICAL[0] / LOGICAL[1])  # aspect kept
    assert view.content_rect == (round(offset[0]), round(offset[1]), round(w), round(h))


@pytest.mark.parametrize(("screen", "point", "logical"), [
    ((1920, 1080), (0, 0), (0.0, 0.0)),
    ((1920, 1080), (960, 540), (960.0, 540.0)),
    ((1920, 1080), (1919, 1079), (1919.0, 1079.0)),
    ((1280, 720), (640, 360), (960.0, 540.0)),
    ((1280, 720), (1, 1), (1.5, 1.5)),
    ((1280, 720), (1280, 720), (1920.0, 1080.0)),  # the far edge is still canvas
    ((1920, 1200), (0, 60), (0.0, 0.0)),
    ((1920, 1200), (960, 600), (960.0, 540.0)),
    ((1920, 1200), (100, 1139), (100.0, 1079.0)),
    ((1280, 800), (640, 400), (960.0, 540.0)),
    ((2560, 1080), (320, 0), (0.0, 0.0)),
    ((2560, 1080), (1280, 540), (960.0, 540.0)),
    ((2560, 1080), (2239, 1079), (1919.0, 1079.0)),
])
def test_to_logical_is_exact(screen: tuple[int, int], point: tuple[int, int],
                             logical: tuple[float, float]) -> None:
    view = Viewport(*screen)
    assert view.to_logical(*point) == logical
    assert view.to_screen(*logical) == point


@pytest.mark.parametrize(("screen", "point"), [
    ((1920, 1200), (960, 30)),     # top bar
    ((1920, 1200), (960, 59)),
    ((1920, 1200), (960, 1141)),   # bottom bar
    ((2560, 1080), (100, 540)),    # left bar
    ((2560, 1080), (2241, 540)),   # right bar
])
def test_points_in_the_bars_are_not_on_the_canvas(screen: tuple[int, int],
                                                  point: tuple[int, int]) -> None:
    view = Viewport(*screen)
    assert view.to_logical(*point) is None
    x, y = view.to_logical_clamped(*point)
    assert 0 <= x <= LOGICAL[0] and 0 <= y <= LOGICAL[1]


def test_rect_to_screen_keeps_neighbours_touching() -> None:
    view = Viewport(1366, 768)  # an awkward scale: 1366/1920 = 0.7114...
    left = view.rect_to_screen((0, 900, 640, 180))
    right = view.rect_to_screen((640, 900, 640, 180))
    assert left[0] + left[2] == right[0]
    assert Viewport(1920, 1200).rect_to_screen((10, 20, 30, 40)) == (10, 80, 30, 40)
    assert Viewport(1280, 720).rect_to_screen((0, 0, 1920, 1080)) == (0, 0, 1280, 720)


def test_viewport_refuses_an_empty_screen() -> None:
    with pytest.raises(ValueError, match="positive"):
        Viewport(0, 1080)


# --- the mouse --------------------------------------------------------------------------------

def test_mouse_press_drag_release_in_logical_pixels() -> None:
    inp = InputAdapter(Viewport(1280, 720))
    assert inp.feed(mouse_down(640, 360)) == [Touch("mouse", Phase.DOWN, 960.0, 540.0)]
    assert inp.active == {"mouse": (960.0, 540.0)}
    assert inp.feed(mouse_motion(642, 362)) == [Touch("mouse", Phase.MOVE, 963.0, 543.0)]
    assert inp.feed(mouse_up(644, 364)) == [Touch("mouse", Phase.UP, 966.0, 546.0)]
    assert inp.active == {}


def test_mouse_motion_without_a_held_button_produces_nothing() -> None:
    inp = InputAdapter(Viewport(1920, 1080))
    assert inp.feed(mouse_motion(100, 100, buttons=(0, 0, 0))) == []
    assert inp.feed(mouse_motion(100, 100, buttons=(1, 0, 0))) == []  # pressed off the canvas
    assert inp.feed(mouse_up(100, 100)) == []                        # an UP with no DOWN


def test_only_the_left_button_presses() -> None:
    inp = InputAdapter(Viewport(1920, 1080))
    assert inp.feed(mouse_down(100, 100, button=3)) == []
    assert inp.feed(mouse_down(100, 100, button=4)) == []  # wheel
    assert inp.feed(mouse_up(100, 100, button=3)) == []
    assert inp.active == {}


def test_lost_mouse_up_is_recovered_from_the_button_state() -> None:
    inp = InputAdapter(Viewport(1920, 1080))
    inp.feed(mouse_down(100, 100))
    assert inp.feed(mouse_motion(110, 100, buttons=(0, 0, 0))) == [
        Touch("mouse", Phase.UP, 110.0, 100.0)]
    assert inp.active == {}


# --- fingers ----------------------------------------------------------------------------------

def test_finger_coordinates_are_fractions_of_the_window() -> None:
    inp = InputAdapter(Viewport(1920, 1200))
    assert inp.feed(finger(pygame.FINGERDOWN, 0.5, 0.5)) == [
        Touch("finger:1:0", Phase.DOWN, 960.0, 540.0)]
    assert inp.feed(finger(pygame.FINGERMOTION, 0.25, 0.55)) == [
        Touch("finger:1:0", Phase.MOVE, 480.0, 600.0)]
    assert inp.feed(finger(pygame.FINGERUP, 0.25, 0.55)) == [
        Touch("finger:1:0", Phase.UP, 480.0, 600.0)]


def test_two_fingers_at_once_are_two_independent_pointers() -> None:
    inp = InputAdapter(Viewport(1280, 720))
    a = inp.feed(finger(pygame.FINGERDOWN, 0.25, 0.75, finger_id=0))
    b = inp.feed(finger(pygame.FINGERDOWN, 0.75, 0.75, finger_id=1))
    assert a == [Touch("finger:1:0", Phase.DOWN, 480.0, 810.0)]
    assert b == [Touch("finger:1:1", Phase.DOWN, 1440.0, 810.0)]
    assert set(inp.active) == {"finger:1:0", "finger:1:1"}

    # The second finger lifts first; the first is still down and still moves.
    assert inp.feed(finger(pygame.FINGERUP, 0.75, 0.75, finger_id=1)) == [
        Touch("finger:1:1", Phase.UP, 1440.0, 810.0)]
    assert inp.active == {"finger:1:0": (480.0, 810.0)}
    assert inp.feed(finger(pygame.FINGERMOTION, 0.5, 0.75, finger_id=0)) == [
        Touch("finger:1:0", Phase.MOVE, 960.0, 810.0)]
    assert inp.feed(finger(pygame.FINGERMOTION, 0.5, 0.5, finger_id=1)) == []  # lifted already
    assert inp.feed(finger(pygame.FINGERUP, 0.5, 0.75, finger_id=0)) == [
        Touch("finger:1:0", Phase.UP, 960.0, 810.0)]
    assert inp.active == {}


def test_same_finger_id_on_two_touch_devices_is_two_pointers() -> None:
    inp = InputAdapter(Viewport(1920, 1080))
    inp.feed(finger(pygame.FINGERDOWN, 0.1, 0.1, touch_id=1))
    inp.feed(finger(pygame.FINGERDOWN, 0.9, 0.9, touch_id=2))
    assert set(inp.active) == {"finger:1:0", "finger:2:0"}


def test_mouse_and_finger_are_held_at_the_same_time() -> None:
    inp = InputAdapter(Viewport(1920, 1080))
    inp.feed(mouse_down(100, 100))
    inp.feed(finger(pygame.FINGERDOWN, 0.5, 0.5))
    assert inp.feed(mouse_up(100, 100)) == [Touch("mouse", Phase.UP, 100.0, 100.0)]
    assert inp.active == {"finger:1:0": (960.0, 540.0)}


# --- a tap never counts twice ------------------------------------------------------------------

def test_mouse_events_synthesized_from_touch_produce_nothing() -> None:
    inp = InputAdapter(Viewport(1920, 1080))
    tap = [
        finger(pygame.FINGERDOWN, 0.5, 0.5),
        mouse_down(960, 540, touch=True),
        finger(pygame.FINGERMOTION, 0.5, 0.5),
        mouse_motion(960, 540, touch=True),
        finger(pygame.FINGERUP, 0.5, 0.5),
        mouse_up(960, 540, touch=True),
    ]
    touches = [t for event in tap for t in inp.feed(event)]
    assert [t.phase for t in touches] == [Phase.DOWN, Phase.MOVE, Phase.UP]
    assert {t.pointer for t in touches} == {"finger:1:0"}
    assert inp.feed(mouse_down(960, 540, touch=True)) == []
    assert inp.active == {}


def test_fingers_synthesized_from_the_mouse_produce_nothing() -> None:
    # With SDL_HINT_MOUSE_TOUCH_EVENTS on, a click also arrives as a finger of touch id -1.
    inp = InputAdapter(Viewport(1920, 1080))
    click = [
        mouse_down(960, 540),
        finger(pygame.FINGERDOWN, 0.5, 0.5, touch_id=-1),
        mouse_up(960, 540),
        finger(pygame.FINGERUP, 0.5, 0.5, touch_id=-1),
    ]
    touches = [t for event in click for t in inp.feed(event)]
    assert touches == [Touch("mouse", Phase.DOWN, 960.0, 540.0),
                       Touch("mouse", Phase.UP, 960.0, 540.0)]


def test_a_repeated_down_closes_the_first_press() -> None:
    inp = InputAdapter(Viewport(1920, 1080))
    inp.feed(finger(pygame.FINGERDOWN, 0.25, 0.25))
    assert inp.feed(finger(pygame.FINGERDOWN, 0.5, 0.5)) == [
        Touch("finger:1:0", Phase.UP, 480.0, 270.0),
        Touch("finger:1:0", Phase.DOWN, 960.0, 540.0)]


# --- the bars ---------------------------------------------------------------------------------

def test_a_press_in_the_bars_is_dropped() -> None:
    inp = InputAdapter(Viewport(1920, 1200))
    assert inp.feed(mouse_down(960, 30)) == []
    assert inp.feed(finger(pygame.FINGERDOWN, 0.5, 0.99)) == []   # y = 1188 px: bottom bar
    inp_wide = InputAdapter(Viewport(2560, 1080))
    assert inp_wide.feed(finger(pygame.FINGERDOWN, 0.05, 0.5)) == []  # x = 128 px: left bar
    assert inp.active == {} and inp_wide.active == {}
    # Nothing follows from a dropped press.
    assert inp.feed(finger(pygame.FINGERMOTION, 0.5, 0.5)) == []
    assert inp.feed(finger(pygame.FINGERUP, 0.5, 0.5)) == []


def test_an_up_in_the_bars_still_releases_the_pointer_at_the_canvas_edge() -> None:
    inp = InputAdapter(Viewport(1920, 1200))
    inp.feed(finger(pygame.FINGERDOWN, 0.5, 0.5))
    inp.feed(mouse_down(960, 600))
    assert inp.feed(finger(pygame.FINGERMOTION, 0.5, 0.01)) == [
        Touch("finger:1:0", Phase.MOVE, 960.0, 0.0)]
    assert inp.feed(finger(pygame.FINGERUP, 0.5, 0.01)) == [
        Touch("finger:1:0", Phase.UP, 960.0, 0.0)]
    assert inp.feed(mouse_up(960, 1190)) == [Touch("mouse", Phase.UP, 960.0, 1080.0)]
    assert inp.active == {}

    wide = InputAdapter(Viewport(2560, 1080))
    wide.feed(mouse_down(1280, 540))
    assert wide.feed(mouse_up(2500, 540)) == [Touch("mouse", Phase.UP, 1920.0, 540.0)]
    assert wide.active == {}


def test_losing_focus_releases_every_pointer() -> None:
    inp = InputAdapter(Viewport(1920, 1080))
    inp.feed(mouse_down(10, 20))
    inp.feed(finger(pygame.FINGERDOWN, 0.5, 0.5))
    released = inp.feed(pygame.event.Event(pygame.WINDOWFOCUSLOST))
    assert sorted(released, key=lambda t: t.pointer) == [
        Touch("finger:1:0", Phase.UP, 960.0, 540.0), Touch("mouse", Phase.UP, 10.0, 20.0)]
    assert inp.active == {}


def test_unrelated_events_produce_nothing() -> None:
    inp = InputAdapter(Viewport(1920, 1080))
    assert inp.feed(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_SPACE)) == []
    assert inp.feed(pygame.event.Event(pygame.MOUSEWHEEL, x=0, y=1, touch=False)) == []


# --- touch targets ----------------------------------------------------------------------------

def tap(x: float, y: float) -> Touch:
    return Touch("finger:1:0", Phase.DOWN, x, y)


def test_a_small_target_answers_over_48_logical_px() -> None:
    chip = HitTarget((100, 100, 30, 30))        # drawn 100..130, centre 115
    assert chip.expanded_rect() == (91, 91, 48, 48)
    assert chip.hit(tap(91, 115)) and not chip.hit(tap(90, 115))      # 9 / 10 px left
    assert chip.hit(tap(139, 115)) and not chip.hit(tap(140, 115))    # 9 / 10 px right
    assert chip.hit(tap(115, 91)) and not chip.hit(tap(115, 90))      # above
    assert chip.hit(tap(115, 139)) and not chip.hit(tap(115, 140))    # below
    assert chip.hit(tap(139, 139)) and not chip.hit(tap(140, 139))    # corner


def test_targets_grow_only_where_they_are_too_small() -> None:
    assert HitTarget((0, 0, 200, 30)).expanded_rect() == (0, -9, 200, 48)
    assert HitTarget((0, 0, 100, 80)).expanded_rect() == (0, 0, 100, 80)
    assert HitTarget((0, 0, 10, 10), min_size=64).expanded_rect() == (-27, -27, 64, 64)


def test_a_target_below_48_px_cannot_be_declared() -> None:
    assert MIN_TARGET == 48
    with pytest.raises(ValueError, match="at least 48"):
        HitTarget((0, 0, 30, 30), min_size=40)


def test_hit_test_returns_the_topmost_target() -> None:
    felt = HitTarget((0, 0, 1920, 1080), tag="felt")
    war = HitTarget((100, 900, 120, 60), tag="war")
    chip = HitTarget((200, 910, 30, 30), tag="chip")   # drawn last, on top
    targets = [felt, war, chip]
    assert hit_test(targets, tap(150, 930)) is war
    assert hit_test(targets, tap(215, 925)) is chip    # over both war and the felt
    assert hit_test(targets, tap(195, 925)) is chip    # chip's margin, drawn above war
    assert hit_test(targets, tap(1000, 500)) is felt
    assert hit_test([war, chip], tap(1000, 500)) is None
    assert hit_test([], tap(0, 0)) is None
