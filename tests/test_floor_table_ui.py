"""The kiosk shows the linked meters marked LINKED, and the link's state (issue 27, item 5).

Through the real App: the controller's amounts are what the meters show; with the
link down the plates say "PROGRESSIVE LINK DOWN" in the tilt's red, and the dealer's
screen says why the linked wagers are refused.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pygame
import pytest

from etg.core.commands import LinkLevels, SetLinkStatus, ShowLinkedMeters
from etg.core.linked import LinkedMeter
from etg.core.paytable import ProgressiveLevel
from etg.ui import table_art, theme
from etg.ui.dealer_console import DealerWindow
from tests import kiosk_support as k

PRIMARY, SECONDARY = ProgressiveLevel.PRIMARY, ProgressiveLevel.SECONDARY


def _drawn_words(app: k.App, patch: pytest.MonkeyPatch) -> list[str]:
    """Every text the table's art draws in one frame, drawn as usual."""
    words: list[str] = []
    draw = table_art.draw_text

    def keep(surface: pygame.Surface, text: str, *args: object, **kwargs: object) -> object:
        words.append(text)
        return draw(surface, text, *args, **kwargs)  # type: ignore[arg-type]

    patch.setattr(table_art, "draw_text", keep)
    app.frame(1 / 60, True)
    patch.undo()
    return words


def _red(surface: pygame.Surface) -> int:
    return int(pygame.mask.from_threshold(surface, theme.TILT, (1, 1, 1, 255)).count())


def test_linked_meters_show_the_controllers_amounts_marked_linked(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    app = k.make_app(tmp_path)
    app.send(LinkLevels((PRIMARY, SECONDARY)), "floor")
    words = _drawn_words(app, monkeypatch)
    assert "JACKPOT  ·  LINKED" in words and "MINI JACKPOT  ·  LINKED" in words
    assert words.count("LINKED") == 2  # no amount from the controller yet: none shown
    assert "PROGRESSIVE PAYOUT" in words  # not linked: the table's own meter, unmarked
    app.send(ShowLinkedMeters((LinkedMeter(PRIMARY, 1_234_567), LinkedMeter(SECONDARY, 55_501))),
             "floor")
    app.table.deliver(wait=True)
    words = _drawn_words(app, monkeypatch)
    assert "$12,345.67" in words and "$555.01" in words


def test_link_down_is_said_on_the_meters_and_the_dealers_screen(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    app = k.make_app(tmp_path)
    app.cabinet = dataclasses.replace(app.cabinet, dealer_display=0)
    app.dealer = DealerWindow.open(app, app.cabinet, app.options)
    assert app.dealer is not None
    app.send(LinkLevels((PRIMARY, SECONDARY)), "floor")
    app.table.deliver(wait=True)
    app.frame(1 / 60, True)
    plates = pygame.Rect(0, 60, 380, 260)
    red_before = _red(app.canvas.subsurface(plates))
    app.dealer.show(app.now)
    console_before = _red(app.dealer.screen.canvas.subsurface((60, 380, 1800, 40)))
    app.send(SetLinkStatus(False), "floor")
    app.table.deliver(wait=True)
    words = _drawn_words(app, monkeypatch)
    assert words.count("PROGRESSIVE LINK DOWN") == 2
    assert _red(app.canvas.subsurface(plates)) > red_before
    app.dealer.show(app.now)
    assert _red(app.dealer.screen.canvas.subsurface((60, 380, 1800, 40))) > console_before
