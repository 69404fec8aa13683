"""Wins that feel like wins (issue 12, item 4): what each seat is paid back counts up to the
exact cents the engine paid, spot by spot; a seat that lost everything is dimmed quietly; a
big win past the cabinet's multiple has its sequence; a progressive hit counts its meter
amount up; the round ends on a recap that stays long enough to read, in the real-time demo
too."""

from __future__ import annotations

from pathlib import Path

import pygame

from etg.config.cabinet_edit import set_cabinet_value
from etg.core.commands import (
    BetKind,
    CashIn,
    CloseBets,
    Deal,
    Decide,
    OpenBets,
    PlaceWager,
    Shuffle,
    ShuffleReason,
)
from etg.core.engine import new_table
from etg.core.events import ProgressiveAwarded, WagerSettled
from etg.core.paytable import Decision, ProgressiveLevel
from etg.core.state import Phase
from etg.ui.animations import BigWin, Celebration
from etg.ui.audio import Audio
from etg.ui.count_up import count_seconds, counted
from etg.ui.layout import TableLayout
from etg.ui.presenter import RECAP_S, Presenter
from etg.ui.table_results import recap_words, seat_result
from tests import kiosk_support as k
from tests.tables import maryland, rigged_draw

# burn; spots 1-5: KH beats the dealer, 3C loses, 9D ties, 5S, QD; the dealer's 9S
DEAL = ["2C", "KH", "3C", "9D", "5S", "QD", "9S"]


def _round(tmp_path: Path) -> k.App:
    config = k.config_copy(tmp_path)
    set_cabinet_value(config / "cabinet.yaml", "sound.big_win_multiple", 2)
    app = k.make_app(tmp_path, config=config)
    table = app.table
    for seat in (1, 2, 3):
        app.send(CashIn(seat, 10_000), "attendant")
    app.send(Shuffle(rigged_draw(table.state.paytable, DEAL), ShuffleReason.NEW_SHOE), "dealer")
    app.send(OpenBets(), "dealer")
    for command in (PlaceWager(1, 1, BetKind.INITIAL, 1_000), PlaceWager(1, 1, BetKind.TIE, 100),
                    PlaceWager(2, 2, BetKind.INITIAL, 500), PlaceWager(3, 3, BetKind.INITIAL, 500),
                    PlaceWager(3, 3, BetKind.TIE, 500)):
        assert app.send(command, "player") is None
    app.send(CloseBets(), "dealer")
    app.send(Deal(), "dealer")
    return app


def test_each_seat_is_paid_back_spot_by_spot_counting_up_to_the_exact_cents(
        tmp_path: Path) -> None:
    app = _round(tmp_path)
    try:
        scene = app.base
        presenter: Presenter = scene.presenter  # type: ignore[attr-defined]
        k.run_until(app, lambda: bool(presenter.paid.get(1)))
        [first] = presenter.paid[1]
        settled = [e for e in app.table.state.round.results if isinstance(e, WagerSettled)]
        seat_1 = sum(e.paid for e in settled if e.seat == 1)
        assert (first.spot, first.envy, first.cents) == (1, False, seat_1) == (1, False, 2_000)
        # Counting: nothing before the chips land, something between, then exactly the cents.
        shown = presenter.shown
        assert seat_result(presenter, shown, 1, first.lands - 0.01) is None
        middle = seat_result(presenter, shown, 1, first.lands + count_seconds(2_000) / 3)
        assert middle is not None and 0 < middle.paid < 2_000
        end = seat_result(presenter, shown, 1, first.lands + count_seconds(2_000))
        assert end is not None and (end.paid, end.lines) == (2_000, (("SPOT 1", 2_000),))
        # Seat 3's Tie Wager paid 10 to 1 at once; its tie then surrenders half its Initial.
        k.run_until(app, lambda: app.table.state.phase is Phase.DECISIONS and app.settled)
        assert app.send(Decide(3, 3, Decision.SURRENDER), "player") is None
        k.run_until(app, lambda: app.table.state.phase is Phase.COMPLETE and app.settled)
        now, shown = app.now, presenter.shown
        three = seat_result(presenter, shown, 3, now)
        assert three is not None and (three.paid, three.lines) == (5_750, (("SPOT 3", 5_750),))
        two = seat_result(presenter, shown, 2, now)
        assert two is not None and two.dimmed and two.paid == 0  # lost: dimmed, no words
        assert seat_result(presenter, shown, 4, now) is None  # never played: nothing
        assert recap_words(presenter, shown, now) == (
            "ROUND 1  ·  DEALER 9S  ·  PAID $77.50 TO 2 SEATS")
        app.draw()
        assert k.not_blank(app.canvas)
    finally:
        app.table.ledger.close()


def test_a_big_win_past_the_cabinets_multiple_has_its_sequence(tmp_path: Path) -> None:
    app = _round(tmp_path)
    try:
        presenter: Presenter = app.base.presenter  # type: ignore[attr-defined]
        k.run_until(app, lambda: app.table.state.phase is Phase.DECISIONS and app.settled)
        app.send(Decide(3, 3, Decision.SURRENDER), "player")
        k.run_until(app, lambda: any(isinstance(a, BigWin) for a in presenter.animations))
        [big] = [a for a in presenter.animations if isinstance(a, BigWin)]
        # Seat 3 staked $10 and was paid back $57.50: 4.75 times its stake in winnings, past
        # the multiple of 2; seat 1's $10 win on $11 staked is not.
        assert (big.seats, big.cents) == ((3,), 5_750)
        assert counted(big.cents, big.start + 0.3, big.start + 0.3 + count_seconds(5_750)) == 5_750
        k.run_until(app, lambda: app.now > big.start + 1.0)
        app.draw()
        assert k.not_blank(app.canvas)
    finally:
        app.table.ledger.close()


def test_a_progressive_hit_counts_the_meter_amount_up() -> None:
    p = maryland()
    state = new_table(p)
    presenter = Presenter(TableLayout.for_paytable(p), state, audio=Audio.silent())
    presenter.push(state, [ProgressiveAwarded(ProgressiveLevel.PRIMARY, 4, 0, 1_234_567,
                                              1_234_567, 1_000_000, 0, 0)])
    presenter.update(10.0)
    [hit] = [a for a in presenter.animations if isinstance(a, Celebration)]
    assert (hit.title, hit.cents, hit.detail) == ("JACKPOT!", 1_234_567, "SEAT 4  ·  BONUS SPIN")
    assert counted(hit.cents, 10.3, 10.3 + count_seconds(1_234_567)) == 1_234_567
    surface = pygame.Surface((1920, 1080))
    surface.fill((0, 0, 0))
    from etg.ui.wheel import celebrate

    celebrate(surface, surface.get_rect(), 11.0, hit.start, hit.title, "$1,000.00")
    assert k.not_blank(surface)


def test_the_real_time_demo_shows_what_each_seat_was_paid_before_the_next_round(
        tmp_path: Path) -> None:
    app = k.make_app(tmp_path, demo=True)
    try:
        presenter: Presenter = app.base.presenter  # type: ignore[attr-defined]
        shown_s = 0.0
        for _ in range(60 * 240):
            app.frame(1 / 60, draw=False)
            shown = presenter.shown
            if shown.phase is Phase.COMPLETE and any(
                    (r := seat_result(presenter, shown, seat, app.now)) is not None and r.paid
                    for seat in range(1, shown.paytable.seats + 1)):
                shown_s += 1 / 60
            if app.rounds_finished >= 1 and shown.round.number >= 2:
                break
        assert app.rounds_finished >= 1
        assert shown_s >= RECAP_S  # the ribbons stay up for the recap, at least
    finally:
        app.table.ledger.close()
