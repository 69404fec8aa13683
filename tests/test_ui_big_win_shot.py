"""The big win is shown, and photographed for docs/screenshots, once its amount has counted up
to what the seat was paid (issue 24, item 4: the screenshots caught $274.99 of $275.00)."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType

import pygame
import pytest

from etg.core.money import format_cents
from etg.ui.animations import BigWin
from etg.ui.flights import big_win_line
from tests.kiosk_support import ROOT, not_blank

FRAME = 1 / 60


def test_the_big_wins_amount_reaches_what_was_paid_when_its_count_up_ends() -> None:
    big = BigWin((2,), 27_500, start=10.0)  # seat 2 paid back $275.00
    assert big_win_line(big, big.counted_at) == "SEAT 2  ·  PAID $275.00"
    assert big_win_line(big, big.end - FRAME) == "SEAT 2  ·  PAID $275.00"
    # the old screenshots' moment: 1.8 s in, then the frame drawn for the picture
    assert big_win_line(big, big.start + 1.8 + FRAME) == "SEAT 2  ·  PAID $274.99"
    assert big.start < big.counted_at < big.end  # it stays on screen once counted


def test_several_seats_count_up_to_the_largest_paid() -> None:
    big = BigWin((9, 4, 2), 1_234_567, start=0.0)
    assert big_win_line(big, big.counted_at) == "SEATS 9 · 4 · 2  ·  PAID $12,345.67"
    assert big_win_line(big, 0.3) == "SEATS 9 · 4 · 2  ·  PAID $0.00"


def _render() -> ModuleType:
    path = ROOT / "docs" / "screenshots" / "render.py"
    spec = importlib.util.spec_from_file_location("screenshots_render", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.slow  # one scripted round through the kiosk, eleven pictures: some 20 s
def test_the_big_win_screenshot_shows_the_seats_paid_amount(tmp_path: Path,
                                                            monkeypatch: pytest.MonkeyPatch
                                                            ) -> None:
    render = _render()
    checked: list[tuple[str, str]] = []
    check = render._check_big_win

    def checking(app: object, big: BigWin) -> None:
        check(app, big)  # raises unless the line shows the seat's paid amount to the cent
        paid = app.table.committed.round.returned  # type: ignore[attr-defined]
        checked.append((big_win_line(big, app.now),  # type: ignore[attr-defined]
                        f"SEAT 2  ·  PAID {format_cents(paid[1])}"))

    monkeypatch.setattr(render, "_check_big_win", checking)
    render.shoot(3, 6, (1280, 800), tmp_path)
    assert checked == [("SEAT 2  ·  PAID $275.00", "SEAT 2  ·  PAID $275.00")]
    shot = pygame.image.load(tmp_path / "07-big-win.png")
    assert shot.get_size() == (1280, 800) and not_blank(shot)
