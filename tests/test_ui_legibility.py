"""Legibility (issue 12, item 5): every text a player reads on the table is at least 20 logical
pixels, in every layout and every phase of a round, and the screen is scaled smoothly.

Every text the kiosk draws is rendered through :func:`etg.ui.assets.font`; the test records
the size each module asks for while the table is drawn from scratch (every cache emptied
first). The faces of cards and chips are pictures, drawn at their own scale like the real
ones, and are not counted.
"""

from __future__ import annotations

import inspect
import sys
from pathlib import Path

import pygame
import pytest

from etg.core.commands import CashIn, Shuffle, ShuffleReason
from etg.core.state import Phase
from etg.ui import assets
from etg.ui.screen import scale
from etg.ui.theme import PLAYER_TEXT
from tests import kiosk_support as k
from tests.tables import rigged_draw

# burn; spots 1-7 (1, 2 and 7 tie the dealer's 9); the dealer's 9; three burns; War cards
TIES = ["2C", "9S", "9C", "4D", "KH", "3S", "QD", "9D", "9H", "5C", "5D", "5H", "KS", "QS",
        "2H"]
ART = ("cards.py", "chips.py")  # pictures drawn from master renders


def _empty_caches() -> None:
    for name, module in list(sys.modules.items()):
        if name.startswith("etg.ui"):
            for value in vars(module).values():
                if callable(getattr(value, "cache_clear", None)):
                    value.cache_clear()
    k.forget_kept_pictures()  # and the wheel pictures a test session keeps (tests/conftest.py)


def _owner() -> str:
    """The module that asked for the text: the first frame outside the text plumbing."""
    for frame in inspect.stack()[2:]:
        path = Path(frame.filename)
        if "etg" in path.parts and path.name not in ("assets.py", "widgets.py",
                                                      "count_up.py"):
            return path.name
    return "?"


@pytest.mark.slow  # every text rendered afresh in three layouts: about a minute
@pytest.mark.parametrize(("spots", "seats"), [(3, 6), (5, 9), (7, 9)])
def test_every_text_on_the_players_table_is_at_least_20_px(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, spots: int, seats: int) -> None:
    config = k.layout_config(tmp_path, spots, seats)
    asked: list[tuple[int, str]] = []
    load = assets._font

    def recording(size: int, style: assets.Style) -> pygame.font.Font:
        asked.append((size, _owner()))
        return load(size, style)

    _empty_caches()
    monkeypatch.setattr(assets, "_font", recording)
    app = k.make_app(tmp_path, config=config)
    try:
        table = app.table
        for seat in range(1, seats + 1):
            app.send(CashIn(seat, 100_000), "attendant")
        codes = [*TIES[:spots + 1], *TIES[-7:]]
        app.send(Shuffle(rigged_draw(table.state.paytable, codes), ShuffleReason.NEW_SHOE),
                 "dealer")
        k.dealer(app, "open")
        for seat in range(1, seats + 1):
            k.tap(app, f"seat:{seat}:initial:1")
        k.tap(app, "seat:1:tie:2")  # refused, said on the seat in the players' words
        k.dealer(app, "close")
        k.dealer(app, "deal")
        k.run_until(app, lambda: table.state.phase is Phase.DECISIONS and app.settled)
        app.draw()
        k.tap(app, "seat:1:war:1")
        k.run_until(app, lambda: table.state.phase in (Phase.WAR_PENDING, Phase.COMPLETE))
        if table.state.phase is Phase.WAR_PENDING:
            k.dealer(app, "war_deal")
        for frame in range(60 * 12):  # the War and its payments, drawn as they go
            app.frame(1 / 60, draw=frame % 12 == 0)
        assert table.state.phase is Phase.COMPLETE
    finally:
        app.table.ledger.close()
    small = sorted({(size, owner) for size, owner in asked
                    if size < PLAYER_TEXT and owner not in ART})
    assert small == [], small
    assert asked, "the table drew text"


def test_the_canvas_is_scaled_smoothly_or_by_whole_pixels() -> None:
    canvas = pygame.Surface((1920, 1080))
    canvas.fill((0, 0, 0))
    pygame.draw.line(canvas, (255, 255, 255), (0, 541), (1919, 541), 1)  # a hairline stroke
    small = pygame.Surface((1280, 720))
    nearest = pygame.transform.scale(canvas, (1280, 720))
    assert max(nearest.get_at((640, y))[0] for y in range(350, 372)) == 0  # dropped: unreadable
    scale(canvas, small)
    assert max(small.get_at((640, y))[0] for y in range(350, 372)) > 60  # kept, filtered
    big = pygame.Surface((3840, 2160))
    scale(canvas, big)  # twice the canvas: each pixel exactly two, nothing blurred
    assert [big.get_at((100, y))[0] for y in (1081, 1082, 1083, 1084)] == [0, 255, 255, 0]
