"""Test toolkit: paytables built in code, rigged shoes, and a helper to run commands."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import replace

from etg.core.cards import Colour
from etg.core.commands import Command, Shuffle, ShuffleReason
from etg.core.engine import TableState, apply, new_table
from etg.core.events import Event
from etg.core.paytable import (
    BonusSpin,
    Decision,
    DesignatedCard,
    EnvyPays,
    HandPay,
    HandPays,
    Jurisdiction,
    Layout,
    Limit,
    Limits,
    Meter,
    Odds,
    PayoutLimit,
    Payouts,
    Paytable,
    ProgressiveLevel,
    ProgressivePayout,
    SettleFrom,
    Shoe,
    WarBurn,
    WarForm,
    WheelSegment,
)
from etg.core.shoe import ShoeDraw, stacked_draw

MD_PAYOUTS = Payouts(Odds(1), Odds(10), Odds(1), Odds(2))


def maryland(spots: int = 5, decks: int = 6, **changes: object) -> Paytable:
    """Maryland community-card paytable like config/paytables/maryland-community-5.yaml."""
    p = Paytable(
        id=f"md-community-{spots}", name="test", jurisdiction=Jurisdiction.MARYLAND,
        layout=Layout.COMMUNITY, shoe=Shoe(decks, 0.25, 0.40), spots=spots, seats=6,
        max_spots_per_seat=3, unit_cents=100,
        limits=Limits(Limit(500, 50_000), Limit(100, 10_000)),
        payout_limit=PayoutLimit(10_000_000), payouts=MD_PAYOUTS,
        war_form=WarForm.INITIAL_PUSHED, default_decision=Decision.SURRENDER,
    )
    return replace(p, **changes)  # type: ignore[arg-type]


def _ring(rows: list[tuple[str, int, int, int]]) -> tuple[WheelSegment, ...]:
    return tuple(WheelSegment(symbol, weight, (one, five)) for symbol, weight, one, five in rows)


# Maryland Paytable A ($5 column; the $1 column pays a fifth and 20 % of a meter), 6 seats.
COMMUNITY_RING = _ring([("$150", 1, 3000, 15000), ("$100", 2, 2500, 12500),
                        ("$75", 3, 2000, 10000), ("$50", 4, 1500, 7500), ("$40", 6, 1000, 5000),
                        ("$35", 10, 800, 4000), ("$30", 20, 600, 3000), ("$25", 45, 500, 2500)])
HOT_SPOT_RING = (
    WheelSegment("JACKPOT", 1, progressive=ProgressiveLevel.PRIMARY, meter_percent=(20, 100)),
    WheelSegment("MINI JACKPOT", 2, progressive=ProgressiveLevel.SECONDARY,
                 meter_percent=(20, 100)),
    *_ring([("$1000", 3, 20000, 100000), ("$600", 5, 12000, 60000), ("$500", 7, 10000, 50000),
            ("$400", 9, 8000, 40000), ("$350", 12, 7000, 35000), ("$300", 16, 6000, 30000),
            ("$250", 25, 5000, 25000), ("$200", 40, 4000, 20000)]),
)
BONUS_SPIN = BonusSpin(
    denominations_cents=(100, 500),
    trigger=(DesignatedCard("A", Colour.RED),),
    community_ring=COMMUNITY_RING,
    hot_spot_ring=HOT_SPOT_RING,
    primary=Meter(1_000_000, 1_000_000, 0.015, None),
    secondary=Meter(1_000_000, 500_000, 0.005, 2_500_000),
)
PROGRESSIVE_PAYOUT = ProgressivePayout(
    wager_cents=500,
    pays=HandPays(HandPay(1000, 1, 100), HandPay(200), HandPay(150), HandPay(30), HandPay(15),
                  HandPay(5)),
    envy_cents=EnvyPays(suited_four_of_a_kind=500_000),
    meter=Meter(1_000_000, 1_000_000, 0.05, None),
)


def maryland_bonus(spots: int = 5, **changes: object) -> Paytable:
    """Maryland with the Bonus Spin Xtreme and the Progressive Payout Wager (Paytable A)."""
    sections: dict[str, object] = {"bonus_spin": BONUS_SPIN,
                                   "progressive_payout": PROGRESSIVE_PAYOUT}
    return maryland(spots, **{**sections, **changes})


def pennsylvania(**changes: object) -> Paytable:
    p = maryland(jurisdiction=Jurisdiction.PENNSYLVANIA, layout=Layout.PER_SEAT, seats=9, spots=9,
                 max_spots_per_seat=1, id="pa-2012")
    return replace(p, **changes)  # type: ignore[arg-type]


def pennsylvania_2011(**changes: object) -> Paytable:
    p = maryland(jurisdiction=Jurisdiction.PENNSYLVANIA_2011, layout=Layout.PER_SEAT, seats=7,
                 spots=7, max_spots_per_seat=1, shoe=Shoe(8, 0.25, 0.4), id="pa-2011",
                 war_form=WarForm.INITIAL_FORFEITED,
                 payouts=Payouts(Odds(1), Odds(10), Odds(2), Odds(3)),
                 settle_from=SettleFrom.DEALER_LEFT)  # proposed § 651a.9(a)
    return replace(p, **changes)  # type: ignore[arg-type]


def south_dakota(**changes: object) -> Paytable:
    p = maryland(jurisdiction=Jurisdiction.SOUTH_DAKOTA, layout=Layout.PER_SEAT, seats=7, spots=7,
                 max_spots_per_seat=1, id="sd", war_form=WarForm.DEALER_MATCHED,
                 payouts=Payouts(Odds(1), Odds(10), Odds(1, 2), Odds(1, 1)), war_tie_wager=False,
                 war_burn=WarBurn(3, 3), settle_from=SettleFrom.DEALER_LEFT)  # 15.17(4)
    return replace(p, **changes)  # type: ignore[arg-type]


def rigged_draw(paytable: Paytable, codes: Sequence[str], cut_index: int | None = None) -> ShoeDraw:
    """A shoe whose first cards are ``codes`` (the burn card first): see stacked_draw."""
    return stacked_draw(paytable.shoe, codes, cut_index)


def table(paytable: Paytable, codes: Sequence[str] = (), credits: int = 100_000,
          cut_index: int | None = None) -> TableState:
    """A table with ``credits`` on every seat and a rigged shoe, ready to open betting."""
    state = new_table(paytable, (credits,) * paytable.seats)
    state, _ = apply(state, Shuffle(rigged_draw(paytable, codes, cut_index), ShuffleReason.NEW_SHOE))
    return state


def run(state: TableState, commands: Iterable[Command]) -> tuple[TableState, list[Event]]:
    events: list[Event] = []
    for command in commands:
        state, new = apply(state, command)
        events.extend(new)
    return state, events


def total_money(state: TableState) -> int:
    return sum(state.credits) + state.on_table + state.house
