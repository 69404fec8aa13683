"""Render docs/screenshots: every layout, at 1920×1080 and 1280×800, in every phase.

Run from the repository root (SDL's dummy driver, no screen needed)::

    .venv/bin/python docs/screenshots/render.py [--out docs/screenshots] [--only 7x9]

(``apt-get install pngquant`` first keeps the files a third of the size.)

For each Maryland layout (3, 5 and 7 spots; 6 and 9 seats) and each window size it plays
one scripted round through the real kiosk (App, controller, ledger, engine) on a stacked
shoe, and saves the window as players see it: ``betting`` (chips on the felt),
``decision`` (War or Surrender on the tied spots), ``war`` (the War deal),
``progressive-hit`` (a Suited Four-of-a-Kind's meter), ``jackpot-lock`` (held for
validation, MD Ch. 9 J(4)), ``wheel-spinning``, ``big-win`` (once its amount has counted up
to what the seat was paid, checked to the cent), ``recap`` (the round's end), the
``operator-menu`` and the dealer's ``dealer-panel`` and ``dealer-screen``. Nothing here
decides anything: the shoe is stacked, the wheel's stops come from a seeded source, every
command goes through the engine.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

import pygame

from etg.config.cabinet_edit import set_cabinet_value
from etg.config.loader import load_cabinet, load_paytable
from etg.config.places import shipped_config_dir
from etg.core.commands import (
    BetKind,
    CashIn,
    CloseBets,
    CloseDecisions,
    Deal,
    Decide,
    OpenBets,
    PlaceBonusSpin,
    PlaceWager,
    Shuffle,
    ShuffleReason,
    SignInDealer,
    WarDeal,
)
from etg.core.jackpot import JackpotRules
from etg.core.money import format_cents
from etg.core.paytable import Decision
from etg.core.rng import SeededSource
from etg.core.shoe import stacked_draw
from etg.core.state import Phase
from etg.ledger.store import Ledger
from etg.table.controller import Table
from etg.table.pin import hash_pin, jackpot_validation
from etg.ui.animations import BigWin, Celebration
from etg.ui.app import App
from etg.ui.dealer_console import DealerPanel, DealerScreen, DealerWindow
from etg.ui.display import open_window
from etg.ui.flights import big_win_line
from etg.ui.operator.menu import OperatorMenu
from etg.ui.options import RunOptions
from etg.ui.scene import Show

LAYOUTS = [(3, 6), (3, 9), (5, 6), (5, 9), (7, 6), (7, 9)]
SIZES = [(1920, 1080), (1280, 800)]
SEED = 11
FRAME = 1 / 60
# The shoe's burn, the new dealer's burn (MD Ch. 8 E(4)); then the spots: spot 1 the
# dealer's own card (a suited tie), spot 2 a tie of rank; the dealer's Ace of hearts (red:
# the Bonus Spin, SPEC §3); the War deal's three burns, spot 1's and spot 2's War cards and
# the dealer's: all four Aces of hearts on spot 1, a Suited Four-of-a-Kind (MD Ch. 10 B(1)).
OTHERS = ["KC", "5S", "8D", "3C", "QS"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=Path(__file__).resolve().parent)
    parser.add_argument("--only", help="one layout, SPOTSxSEATS (e.g. 7x9)")
    args = parser.parse_args()
    for spots, seats in LAYOUTS:
        if args.only and args.only != f"{spots}x{seats}":
            continue
        for size in SIZES:
            folder = args.out / f"{spots}-spots-{seats}-seats-{size[0]}x{size[1]}"
            shoot(spots, seats, size, folder)
            _compress(folder)
            print(f"{folder}: {len(list(folder.glob('*.png')))} screenshots", flush=True)


def _compress(folder: Path) -> None:
    """Debian's pngquant, where it is installed, keeps the gallery small (a 256-colour palette
    looks the same on these flat, drawn screens); without it the PNGs stay as saved."""
    tool = shutil.which("pngquant")
    if tool is not None:
        subprocess.run([tool, "--quality", "80-98", "--speed", "1", "--force", "--ext",
                        ".png", *map(str, sorted(folder.glob("*.png")))], check=True)


def shoot(spots: int, seats: int, size: tuple[int, int], folder: Path) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as scratch:
        app = _app(Path(scratch), spots, seats, size)
        try:
            _play(app, seats, spots, folder)
        finally:
            app.table.ledger.close()
            pygame.display.quit()


def _app(tmp: Path, spots: int, seats: int, size: tuple[int, int]) -> App:
    config = tmp / "config"
    shutil.copytree(shipped_config_dir(), config)
    name = f"maryland-community-{spots}.yaml"
    paytable = config / "paytables" / name
    paytable.write_text(re.sub(r"^seats: \d+", f"seats: {seats}",
                               paytable.read_text(encoding="utf-8"), flags=re.M),
                        encoding="utf-8")
    cabinet_file = config / "cabinet.yaml"
    for key, value in (("active_paytable", f"paytables/{name}"), ("display.width", size[0]),
                       ("display.height", size[1]), ("sound.big_win_multiple", 5),
                       ("dealers.D0417", hash_pin("2468"))):
        set_cabinet_value(cabinet_file, key, value)
    cabinet = load_cabinet(cabinet_file)
    loaded = load_paytable(cabinet.paytable_path(cabinet_file))
    table = Table.open(Ledger.open(tmp / "table.db"), loaded, SeededSource(SEED),
                       jackpot_rules=JackpotRules(cabinet.hand_pay_threshold_cents))
    options = RunOptions(windowed=True, config_dir=config)
    return App(table, cabinet, cabinet_file, options, open_window(cabinet, options))


def _play(app: App, seats: int, spots: int, folder: Path) -> None:
    def save(name: str) -> None:
        app.frame(FRAME, draw=True)
        pygame.image.save(app.window, folder / f"{name}.png")

    table = app.table
    p = table.state.paytable
    for seat in range(1, seats + 1):
        app.send(CashIn(seat, 200_000), "attendant")
    app.send(SignInDealer("D0417"), "dealer D0417")
    codes = ["2C", "7D", "AH", "AD", *OTHERS[:spots - 2], "AH", "4C", "4D", "4S", "AH", "KD",
             "AH"]
    app.send(Shuffle(stacked_draw(p.shoe, codes), ShuffleReason.NEW_SHOE), "dealer")
    app.send(OpenBets(), "dealer")
    for seat in range(1, seats + 1):
        spot = 1 if seat == 1 else 2 if seat == 2 else 1 + (seat - 1) % spots
        initial = 500 if seat == 2 else 2_500 if seat % 3 else 10_000  # seat 2: a big win
        for kind, cents in ((BetKind.INITIAL, initial),
                            (BetKind.TIE, 2_500 if seat == 2 else 500 * (seat % 2)),
                            (BetKind.PROGRESSIVE_PAYOUT, 500 if seat % 2 else 0)):
            if cents:
                app.send(PlaceWager(seat, spot, kind, cents), "player")
        if seat % 3 != 2:
            app.send(PlaceBonusSpin(seat, 500 if seat % 2 else 100), "player")
    _settle(app)
    save("01-betting")
    app.send(CloseBets(), "dealer")
    app.send(Deal(), "dealer")
    _until(app, lambda: table.state.phase is Phase.DECISIONS and app.settled)
    save("02-decision")
    for seat, spot in table.state.pending_decisions():  # everyone to War: both tied spots
        app.send(Decide(seat, spot, Decision.WAR), "player")  # get their War cards
    if table.state.phase is Phase.DECISIONS:
        app.send(CloseDecisions(), "dealer")
    app.send(WarDeal(), "dealer")
    _until(app, lambda: table.state.phase is Phase.WAR_DEALT and app.settled)
    save("03-war")
    _until(app, lambda: _showing(app, Celebration, 1.6))  # the hand's meter, as it locks
    save("04-progressive-hit")
    _until(app, lambda: table.state.phase is Phase.JACKPOT and app.settled)
    save("05-jackpot-lock")
    app.send(jackpot_validation("floorperson"), "floorperson")
    _until(app, lambda: table.state.phase is Phase.BONUS_SPIN and app.settled)
    app.send(table.spin_command(), "dealer")
    _until(app, lambda: (spin := app.base.presenter.spin()) is not None  # type: ignore[attr-defined]
           and app.now > spin.start + 2.0)
    save("06-wheel-spinning")
    _until(app, lambda: app.settled or ((big := _big_win(app)) is not None
                                        and app.now >= big.counted_at))
    big = _big_win(app)
    if big is not None:
        save("07-big-win")
        _check_big_win(app, big)
    _until(app, lambda: app.settled)
    save("08-recap")
    app.go(Show(OperatorMenu(app)))  # the PIN pad before it is the attendant's own screen
    save("09-operator-menu")
    app.pop(app.top)
    app.push(DealerPanel(app))
    save("10-dealer-panel")
    app.pop(app.top)
    dealer = DealerWindow(pygame.Window("ETG · DEALER", (1920, 1080)), DealerScreen(app),
                          headless=True)
    dealer.show(app.now)
    pygame.image.save(dealer.screen.canvas, folder / "11-dealer-screen.png")


def _big_win(app: App) -> BigWin | None:
    """The big-win sequence on the table now, if there is one."""
    return next((a for a in app.base.presenter.active(app.now)  # type: ignore[attr-defined]
                 if isinstance(a, BigWin)), None)


def _check_big_win(app: App, big: BigWin) -> None:
    """The big win's line as saved shows what the engine paid the seat back, to the cent
    (issue 24: the count-up was caught at $274.99 of $275.00)."""
    shown = big_win_line(big, app.now)
    paid = app.table.committed.round.returned
    expected = {f"SEAT {seat}  ·  PAID {format_cents(paid[seat - 1])}" for seat in big.seats}
    if shown not in expected:
        raise RuntimeError(f"the big win shows {shown!r}, not {' or '.join(sorted(expected))}")


def _showing(app: App, kind: type, after: float) -> bool:
    return any(isinstance(a, kind) and app.now >= a.start + after
               for a in app.base.presenter.active(app.now))  # type: ignore[attr-defined]


def _until(app: App, done: Callable[[], bool], limit_s: float = 120.0) -> None:
    for _ in range(round(limit_s / FRAME)):
        if done():
            return
        app.frame(FRAME, draw=False)
        app.table.writer.wait()
    raise RuntimeError(f"not done after {limit_s} s of App time (phase "
                     f"{app.table.state.phase.value})")


def _settle(app: App) -> None:
    _until(app, lambda: app.settled)


def _frames(app: App, seconds: float) -> None:
    for _ in range(round(seconds / FRAME)):
        app.frame(FRAME, draw=False)


if __name__ == "__main__":
    main()
