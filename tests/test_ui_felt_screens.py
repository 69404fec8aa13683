"""The felt as players see it, at 1920×1080 and scaled to 1280×800: chips on the circles,
then the War decisions on the tied spots, touched through the window.

Set ``ETG_FELT_SHOTS`` to a directory to keep the PNGs for a look by eye.
"""

from __future__ import annotations

import os
from pathlib import Path

import pygame
import pytest

from etg.core.commands import CashIn, CloseBets, Deal, Shuffle, ShuffleReason
from etg.core.paytable import Decision
from etg.core.state import SpotWagers
from tests import kiosk_support as k
from tests.tables import rigged_draw

START = 100_000
# burn; spots 1-7 (1, 2 and 7 tie the dealer's 9); the dealer's 9
TIES = ["2C", "9S", "9C", "4D", "KH", "3S", "QD", "9D", "9H"]


def window_app(tmp_path: Path, spots: int, seats: int, size: tuple[int, int]) -> k.App:
    """The kiosk in a ``size`` window (SDL's dummy driver) on a Maryland table of that shape."""
    config = k.sized(k.layout_config(tmp_path, spots, seats), size)
    return k.make_app(tmp_path, config=config, windowed=True)


def shot(app: k.App, name: str, tmp_path: Path) -> pygame.Surface:
    """The window as shown after a settled frame; kept in ETG_FELT_SHOTS if set."""
    k.run_until(app, lambda: app.settled)
    app.frame(1 / 60, draw=True)
    folder = Path(os.environ.get("ETG_FELT_SHOTS", tmp_path))
    folder.mkdir(parents=True, exist_ok=True)
    pygame.image.save(app.window, folder / f"{name}.png")
    return app.window


@pytest.mark.parametrize("size", [(1920, 1080), (1280, 800)])
@pytest.mark.parametrize(("spots", "seats"), [(7, 9), (3, 6)])
def test_chips_on_the_felt_and_decisions_on_the_spot_at_each_size(
        tmp_path: Path, spots: int, seats: int, size: tuple[int, int]) -> None:
    app = window_app(tmp_path, spots, seats, size)
    try:
        assert app.window.get_size() == size
        table = app.table
        p = table.state.paytable
        for seat in range(1, seats + 1):
            app.send(CashIn(seat, START), "attendant")
        codes = [*TIES[:spots + 1], TIES[-1]]
        assert app.send(Shuffle(rigged_draw(p, codes), ShuffleReason.NEW_SHOE), "dealer") is None
        k.dealer(app, "open")
        # Every tap goes through the window: scaled and, at 16:10, letterboxed.
        for tag in ("seat:1:initial:1", "seat:1:tie:1", "seat:1:payout:1", "seat:1:bonus:500",
                    "seat:2:chip:2500", "seat:2:initial:2", "seat:2:initial:2",
                    f"seat:{seats}:chip:10000", f"seat:{seats}:initial:{spots}",
                    f"seat:{seats}:initial:{spots - 1}"):
            k.tap(app, tag)
        wagers = table.state.round.wagers
        assert wagers[0][0] == SpotWagers(initial=500, tie=500, progressive_payout=500)
        assert wagers[1][1] == SpotWagers(initial=5000)
        assert wagers[seats - 1][spots - 2:] == (SpotWagers(initial=10000),) * 2
        assert table.state.credits[:2] == (START - 2000, START - 5000)
        betting = shot(app, f"felt-{spots}x{seats}-{size[0]}x{size[1]}-betting", tmp_path)
        assert k.not_blank(pygame.transform.scale(betting, (1920, 1080)))

        app.send(CloseBets(), "dealer")
        app.send(Deal(), "dealer")
        k.run_until(app, lambda: table.state.pending_decisions() != ())
        deciding = shot(app, f"felt-{spots}x{seats}-{size[0]}x{size[1]}-decisions", tmp_path)
        assert k.not_blank(pygame.transform.scale(deciding, (1920, 1080)))
        k.tap(app, "seat:1:wartie:1")
        k.tap(app, "seat:2:surrender:2")
        assert (table.state.round.wagers[0][0].decision,
                table.state.round.wagers[0][0].war_tie) == (Decision.WAR, 100)
        assert table.state.credits[1] == START - 5000 + 2500  # half of $50 back (MD Ch. 9 E(1))
    finally:
        app.table.ledger.close()
