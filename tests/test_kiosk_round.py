"""The kiosk driven as people drive it: mouse and fingers on the real App, headless.

One full Maryland round: four seats bet on all five spots (two of them at
the same instant with two fingers), a tie goes to War and another
surrenders, the red Ace triggers the Bonus Spin, and after every step the
engine's state and the ledger are checked to the cent.
"""

from __future__ import annotations

from pathlib import Path

import pygame
import pytest

from etg.core.commands import CashIn, Deal, Shuffle, ShuffleReason
from etg.core.engine import apply
from etg.core.refusal import Refused
from etg.core.rng import SeededSource
from etg.core.state import Phase
from etg.core.wheel import draw_stops
from etg.ledger.verify import verify
from etg.ui import theme
from etg.ui.animations import Banner
from etg.ui.table_art import decision_clock_centre
from tests import kiosk_support as k
from tests.tables import rigged_draw

# burn; spots 1-5; the dealer's red Ace; three burned for the War; spot 1's War card; the dealer's
DEAL = ["2C", "AS", "AC", "KH", "5D", "9S", "AD", "3C", "3D", "3H", "QS", "JD"]
START = 20_000


def _seed_with_hot_spot_elsewhere() -> int:
    """A seed whose first wheel stop puts the Hot Spot on a seat without a Bonus Spin wager."""
    from etg.config.loader import load_paytable

    bonus = load_paytable(k.shipped_config_dir() / "paytables/maryland-community-5.yaml").paytable.bonus_spin
    assert bonus is not None
    return next(seed for seed in range(100)
                if draw_stops(bonus, 6, SeededSource(seed)).seat not in (1, 2))


@pytest.fixture
def app(tmp_path: Path):  # type: ignore[no-untyped-def]
    app = k.make_app(tmp_path, seed=_seed_with_hot_spot_elsewhere())
    yield app
    app.table.ledger.close()


def _journal_tail(app: k.App) -> dict:  # type: ignore[type-arg]
    rows = list(app.table.ledger.journal_after(0))
    return rows[-1]


def test_a_full_round_by_touch(app: k.App) -> None:
    table = app.table
    for seat in (1, 2, 3, 4):
        assert app.send(CashIn(seat, START), "attendant") is None
    assert [e["details"]["amount"] for e in table.ledger.event_log("cash_in")] == [START] * 4
    assert app.send(Shuffle(rigged_draw(table.state.paytable, DEAL), ShuffleReason.NEW_SHOE),
                    "dealer") is None

    k.dealer(app, "open")
    assert table.state.phase is Phase.BETTING
    assert _journal_tail(app)["actor"] == "dealer"

    # Seat 1: $5 Initial and $5 Tie (the $5 chip in hand, the table minimum), the $5
    # Progressive Payout on spot 1, and the $5 Bonus Spin.
    for tag in ("seat:1:initial:1", "seat:1:tie:1", "seat:1:payout:1", "seat:1:bonus:500"):
        k.tap(app, tag)
    w = table.state.round.wagers[0][0]
    assert (w.initial, w.tie, w.progressive_payout) == (500, 500, 500)
    assert table.state.round.bonus_spin[0] == 500
    assert table.state.credits[0] == START - 2000

    # Seat 2: two $5 chips on spot 2 make $10, and the $1 Bonus Spin.
    for tag in ("seat:2:chip:500", "seat:2:initial:2", "seat:2:initial:2", "seat:2:bonus:100"):
        k.tap(app, tag)
    assert table.state.round.wagers[1][1].initial == 1000
    assert table.state.credits[1] == START - 1100

    # Seats 3 and 4 bet at the same instant with two fingers; SDL's synthetic mouse
    # events for the same touches (touch=True) must not place anything again.
    k.tap(app, "seat:3:chip:2500")
    k.tap(app, "seat:4:chip:500")
    spot3, spot5 = k.button(app, "seat:3:initial:3").rect, k.button(app, "seat:4:initial:5").rect
    at3 = (spot3[0] + spot3[2] / 2, spot3[1] + spot3[3] / 2)
    at5 = (spot5[0] + spot5[2] / 2, spot5[1] + spot5[3] / 2)
    k.finger_down(app, 1, *at3)
    k.finger_down(app, 2, *at5)
    synthetic = round(at3[0]), round(at3[1])
    app.handle(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=synthetic, button=1, touch=True))
    app.handle(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=synthetic, button=1, touch=True))
    k.finger_up(app, 2, *at5)
    k.finger_up(app, 1, *at3)
    assert table.state.round.wagers[2][2].initial == 2500
    assert table.state.round.wagers[3][4].initial == 500
    k.tap(app, "seat:3:initial:4")
    assert table.state.round.wagers[2][3].initial == 2500
    assert table.state.credits[2:4] == (START - 5000, START - 500)

    primary_before = table.state.meters[0]
    k.dealer(app, "close")
    assert table.state.phase is Phase.BETS_CLOSED
    primary = table.state.meters[0]
    assert primary is not None and primary_before is not None
    # MD Ch. 10 D(3): the meter grows by its rate on the $6 of Bonus Spin wagers, at No More Bets
    assert primary.cents == primary_before.cents + (600 * 15_000 + primary_before.carry) // 1_000_000

    k.dealer(app, "deal")
    assert table.state.phase is Phase.DEALT
    # The dealer's settle follows by itself once the cards have landed.
    k.run_until(app, lambda: table.state.phase is Phase.DECISIONS)
    assert table.state.pending_decisions() == ((2, 2), (1, 1))
    assert _journal_tail(app)["command"]["type"] == "Settle"
    assert table.state.credits[2:4] == (START - 5000, START - 500)  # spots 3-5 lost to the Ace

    k.tap(app, "seat:2:surrender:2")
    assert table.state.credits[1] == START - 1100 + 500  # half of the $10 Initial Wager back
    k.tap(app, "seat:1:war:1")
    assert table.state.phase is Phase.WAR_PENDING
    assert table.state.round.wagers[0][0].war == 500

    k.dealer(app, "war_deal")
    assert table.state.phase is Phase.WAR_DEALT
    k.run_until(app, lambda: table.state.phase is Phase.BONUS_SPIN)

    k.dealer(app, "spin")
    assert table.state.phase is Phase.COMPLETE
    stops = table.state.round.wheel
    assert stops is not None and stops.seat not in (1, 2)
    bonus = table.state.paytable.bonus_spin
    assert bonus is not None
    community = bonus.community_ring[stops.community].pays_cents
    assert community is not None
    # Seat 1: Tie Wager 10 to 1 (5,500 back), Progressive Payout "Tie" 5 to 1 (3,000 back),
    # the War won with the Initial pushed (1,500 back), and the $5 column's Community Pay.
    assert table.state.credits == (START - 2500 + 5500 + 3000 + 1500 + community[1],
                                   START - 1100 + 500 + community[0],
                                   START - 5000, START - 500, 0, 0)

    k.run_until(app, lambda: app.settled)
    scene = app.base
    assert scene.presenter.credits == table.state.credits  # the screen caught up, exactly
    record = table.ledger.rounds(last=1)[0]
    assert record["credits_after"] == list(table.state.credits)
    assert record["wheel"] == {"community": stops.community, "seat": stops.seat,
                               "hot_spot": stops.hot_spot}
    assert verify(table.ledger, table.paytable) == []
    app.draw()
    assert k.not_blank(app.canvas)


def test_an_action_out_of_turn_is_refused_with_the_engines_reason(app: k.App) -> None:
    before = len(list(app.table.ledger.journal_after(0)))
    state = app.table.state
    with pytest.raises(Refused) as refused:
        apply(state, Deal())
    k.dealer(app, "deal")
    assert app.table.state is state
    assert len(list(app.table.ledger.journal_after(0))) == before
    assert app.toasts[-1].message == refused.value.message
    app.draw()
    assert k.not_blank(app.canvas)


def test_a_players_refusal_is_shown_on_the_seat(app: k.App) -> None:
    app.send(CashIn(1, START), "attendant")
    k.dealer(app, "shuffle")
    k.dealer(app, "open")
    k.tap(app, "seat:1:tie:1")  # a Tie Wager needs an Initial Wager on the spot first
    assert app.table.state.round.wagers[0][0].tie == 0
    message, _ = app.base.seat_messages[1]
    assert message == "a Tie Wager needs an Initial Wager on the same spot"


def test_the_betting_countdown_sends_no_more_bets(app: k.App) -> None:
    app.send(CashIn(1, START), "attendant")
    k.dealer(app, "shuffle")
    k.dealer(app, "open")
    k.tap(app, "seat:1:initial:1")
    betting_s = app.table.state.paytable.timers.betting_s
    k.run_for(app, betting_s - 1)
    assert app.table.state.phase is Phase.BETTING
    k.run_for(app, 1.5)
    assert app.table.state.phase is Phase.BETS_CLOSED
    assert _journal_tail(app)["actor"] == "timer"


def test_the_decision_countdown_applies_the_default_decision(app: k.App) -> None:
    table = app.table
    app.send(CashIn(2, START), "attendant")
    app.send(Shuffle(rigged_draw(table.state.paytable, DEAL), ShuffleReason.NEW_SHOE), "dealer")
    k.dealer(app, "open")
    k.tap(app, "seat:2:initial:2")
    k.dealer(app, "close")
    k.dealer(app, "deal")
    k.run_until(app, lambda: table.state.phase is Phase.DECISIONS)
    k.run_for(app, 1.0)
    app.draw()  # the countdown sits on the tied spot 2, ringed in the War colour
    x, y, w, _ = app.base.layout.spot_card(2)
    cx, cy = decision_clock_centre(x, y, w)
    assert tuple(app.canvas.get_at((cx, cy - 30)))[:3] == theme.WAR
    k.run_for(app, table.state.paytable.timers.decision_s - 1.2)
    assert table.state.phase is Phase.DECISIONS
    k.run_for(app, 0.3)
    assert table.state.phase is Phase.COMPLETE  # surrendered by default: nothing to deal
    assert table.state.credits[1] == START - 250
    assert _journal_tail(app)["actor"] == "timer"
    # never silent: a banner over the table and a note on the seat say what the clock did
    scene = app.base
    banners = [a.text for a in scene.presenter.active(app.now) if isinstance(a, Banner)]
    assert banners == ["TIME'S UP  ·  SEAT 2 SURRENDERED"]
    assert scene.seat_messages[2][0] == "SURRENDERED AT TIME-OUT"
    app.draw()
    assert k.not_blank(app.canvas)


def test_void_needs_the_supervisor_pin_and_returns_every_wager(app: k.App) -> None:
    from etg.config.cabinet_edit import set_cabinet_value
    from etg.table.pin import hash_pin

    set_cabinet_value(app.cabinet_file, "supervisor_pin_hash", hash_pin("8642"))
    app.send(CashIn(1, START), "attendant")
    k.dealer(app, "shuffle")
    k.dealer(app, "open")
    for tag in ("seat:1:initial:1", "seat:1:bonus:500"):
        k.tap(app, tag)
    assert app.table.state.credits[0] == START - 1000
    k.dealer(app, "void")
    assert app.top.name != "table" and app.table.state.phase is Phase.BETTING
    k.type_keys(app, "1111\r")  # a wrong PIN voids nothing
    assert app.table.state.phase is Phase.BETTING
    k.type_keys(app, "8642\r")
    assert app.top is app.base
    assert app.table.state.phase is Phase.VOIDED
    assert app.table.state.credits[0] == START  # MD Ch. 11: every wager returned
    voids = app.table.ledger.event_log("void")
    assert [(v["actor"], v["details"]["round"]) for v in voids] == [("supervisor", 1)]
    assert [e["kind"] for e in app.table.ledger.event_log()
            if e["kind"].startswith("pin_")] == ["pin_failed", "pin_ok"]


def test_attract_mode_after_the_idle_delay_and_a_touch_ends_it(app: k.App) -> None:
    delay = app.cabinet.attract_delay_s
    k.run_for(app, delay - 1)
    assert app.top is app.base
    k.run_for(app, 2)
    assert app.top.name == "attract"
    app.draw()
    assert k.not_blank(app.canvas)
    k.tap_at(app, 960, 540)
    assert app.top is app.base
    assert app.table.state.phase is Phase.IDLE  # the touch only woke the table
