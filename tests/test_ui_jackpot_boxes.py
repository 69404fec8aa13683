"""Nothing overlaps on the jackpot lock (issue 24, item 4: the award panel covered the odds
printed over the spots), checked on the element boxes, not by eye: every shipped paytable's
layout (3, 5 and 7 community spots, and per seat) at every seat count, on the 1920×1080
canvas and on the scaled displays.

The boxes are those the layout functions compute (the meters, the dealer's cards, the
spots' cards and badges, the wheel, the seats' panels), the odds line's as the background
prints it, and the jackpot panel's and its words' as :func:`draw_jackpot_lock` reports
them. The panel covers the shoe and the history on purpose (MD Ch. 9 J(4)(a)-(b): the
hand, the meters and the wheel stay in sight), so those two are checked to lie under it.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from itertools import combinations

import pygame
import pytest

from etg.config.places import shipped_config_dir
from etg.core.evolve import evolve
from etg.core.jackpot import AfterJackpot, HeldAward, JackpotLock
from etg.core.paytable import Layout, Paytable
from etg.core.settle import Payment, Result, WagerKind
from etg.core.state import Phase, TableState
from etg.ui.canvas import LOGICAL, Viewport
from etg.ui.floor import JACKPOT_PANEL, draw_jackpot_lock
from etg.ui.layout import TOP_BAR_H, TableLayout
from etg.ui.table_background import odds_motto
from tests.ledger_support import paytable_once
from tests.test_jackpot_lock import suited_four_of_a_kind

PAYTABLES = sorted(path.name for path in (shipped_config_dir() / "paytables").glob("*.yaml"))
DISPLAYS = [(1920, 1080), (1280, 800), (1366, 768), (1280, 720), (1024, 768), (2560, 1440),
            (3840, 2160)]
EDGE = 4  # the jackpot panel's frame: its words stay inside it


def _shapes(name: str) -> Iterator[Paytable]:
    """The paytable at every seat count it may have (a per-seat layout: a spot each)."""
    p = paytable_once(shipped_config_dir() / "paytables" / name).paytable
    for seats in range(1, 10):
        spots = seats if p.layout is Layout.PER_SEAT else p.spots
        yield dataclasses.replace(p, seats=seats, spots=spots)


def _widest_lock() -> JackpotLock:
    """Four awards (one left to "and 1 more"), the longest names and amounts of eight figures."""
    def held(seat: int, kind: WagerKind, win: int, hand_pay: bool) -> HeldAward:
        return HeldAward(seat, 0, Payment(kind, Result.WON, 500, 500, win), win, 0, hand_pay)

    return JackpotLock(88_888, (held(9, WagerKind.PROGRESSIVE_PAYOUT, 9_999_999_99, True),
                                held(8, WagerKind.WAR_TIE, 8_888_888_88, False),
                                held(7, WagerKind.PROGRESSIVE, 7_777_777_77, True),
                                held(6, WagerKind.ENVY_BONUS, 500_000, True)),
                       AfterJackpot.COMPLETE)


def _locks() -> list[TableState]:
    locked, _ = suited_four_of_a_kind(120_000)  # the engine's own lock: three awards
    assert locked.phase is Phase.JACKPOT and locked.jackpot is not None
    return [locked, evolve(locked, jackpot=_widest_lock())]


def _panel_boxes(state: TableState) -> list[pygame.Rect]:
    return draw_jackpot_lock(pygame.Surface(LOGICAL), state, now=0.0)


def _table_boxes(layout: TableLayout, p: Paytable) -> dict[str, pygame.Rect]:
    """What lies on the felt around the jackpot panel, by name."""
    boxes = {"top bar": pygame.Rect(0, 0, LOGICAL[0], TOP_BAR_H),
             "meters": pygame.Rect(layout.meters),
             "dealer's card": pygame.Rect(layout.dealer_card),
             "dealer's War card": pygame.Rect(layout.dealer_war_card),
             "odds": odds_motto(layout, p)[1]}
    for spot in range(1, layout.spots + 1):
        cards = pygame.Rect(layout.spot_card(spot)).union(layout.spot_war_card(spot))
        boxes[f"spot {spot}'s cards"] = cards
        boxes[f"spot {spot}'s badge"] = pygame.Rect(layout.spot_badge(spot))
    if layout.has_wheel:
        boxes["wheel"] = pygame.Rect(layout.wheel_box)
    for seat in layout.seat_layouts:
        boxes[f"seat {seat.seat}"] = pygame.Rect(seat.rect)
    return boxes


def _on_screen(box: pygame.Rect, display: tuple[int, int]) -> pygame.Rect:
    return pygame.Rect(Viewport(*display).rect_to_screen((box.x, box.y, box.w, box.h)))


def _overlaps(boxes: dict[str, pygame.Rect]) -> list[tuple[str, str]]:
    return [(a, b) for (a, ra), (b, rb) in combinations(boxes.items(), 2) if ra.colliderect(rb)]


def test_the_jackpot_panel_covers_the_shoe_and_the_history_and_ends_above_the_odds() -> None:
    # the issue's own picture: the panel's bottom edge ran 16 px into the odds line
    layout = TableLayout.for_paytable(_locks()[0].paytable)
    panel = pygame.Rect(JACKPOT_PANEL)
    assert panel.contains(layout.shoe) and panel.contains(layout.history)
    assert panel.bottom <= odds_motto(layout, _locks()[0].paytable)[1].top
    assert panel.bottom <= layout.banner_row[1]  # the recap's plate, on the same row


@pytest.mark.parametrize(("state", "drawn"), list(zip(_locks(), (14, 15), strict=True)),
                         ids=["engine's lock", "widest lock"])
def test_the_panels_words_lie_inside_it_and_apart(state: TableState, drawn: int) -> None:
    # the panel, its light, JACKPOT and the round, three parts to each award shown, "and 1
    # more" under the widest lock's three, and AWAITING FLOORPERSON VALIDATION
    panel, *words = _panel_boxes(state)
    assert panel == pygame.Rect(JACKPOT_PANEL) and 1 + len(words) == drawn
    inside = panel.inflate(-2 * EDGE, -2 * EDGE)
    assert [w for w in words if not inside.contains(w)] == []
    named = {f"word {i} {w}": w for i, w in enumerate(words)}
    for display in DISPLAYS:
        assert _overlaps({k: _on_screen(v, display) for k, v in named.items()}) == []


@pytest.mark.parametrize("name", PAYTABLES)
def test_nothing_overlaps_on_the_jackpot_lock_at_any_layout_and_size(name: str) -> None:
    panel = _panel_boxes(_locks()[0])[0]  # its words lie inside it (the test above)
    shapes = 0
    for p in _shapes(name):
        boxes = {**_table_boxes(TableLayout.for_paytable(p), p), "jackpot panel": panel}
        for display in DISPLAYS:
            on_screen = {k: _on_screen(v, display) for k, v in boxes.items()}
            assert _overlaps(on_screen) == [], (p.seats, p.spot_count, display)
            canvas = pygame.Rect(Viewport(*display).content_rect)
            assert all(canvas.contains(box) for box in on_screen.values())
        shapes += 1
    assert shapes == 9  # one to nine seats
