"""Test toolkit: paytables built in code, rigged shoes, and a helper to run commands."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import replace

from etg.core.cards import CARDS_PER_DECK, Card
from etg.core.commands import Command, Shuffle, ShuffleReason
from etg.core.engine import TableState, apply, new_table
from etg.core.events import Event
from etg.core.paytable import (
    Decision,
    Jurisdiction,
    Layout,
    Limit,
    Limits,
    Odds,
    Payouts,
    Paytable,
    Shoe,
    WarForm,
)
from etg.core.shoe import ShoeDraw

MD_PAYOUTS = Payouts(Odds(1), Odds(10), Odds(1), Odds(2))


def maryland(spots: int = 5, decks: int = 6, **changes: object) -> Paytable:
    """Maryland community-card paytable like config/paytables/maryland-community-5.yaml."""
    p = Paytable(
        id=f"md-community-{spots}", name="test", jurisdiction=Jurisdiction.MARYLAND,
        layout=Layout.COMMUNITY, shoe=Shoe(decks, 0.25, 0.40), spots=spots, seats=6,
        max_spots_per_seat=3, unit_cents=100,
        limits=Limits(Limit(500, 50_000), Limit(100, 10_000)),
        payout_limit_per_hand_cents=10_000_000, payouts=MD_PAYOUTS,
        war_form=WarForm.INITIAL_PUSHED, default_decision=Decision.SURRENDER,
    )
    return replace(p, **changes)  # type: ignore[arg-type]


def pennsylvania(**changes: object) -> Paytable:
    p = maryland(jurisdiction=Jurisdiction.PENNSYLVANIA, layout=Layout.PER_SEAT, seats=9, spots=9,
                 max_spots_per_seat=1, id="pa-2012")
    return replace(p, **changes)  # type: ignore[arg-type]


def pennsylvania_2011(**changes: object) -> Paytable:
    p = maryland(jurisdiction=Jurisdiction.PENNSYLVANIA_2011, layout=Layout.PER_SEAT, seats=7,
                 spots=7, max_spots_per_seat=1, shoe=Shoe(8, 0.25, 0.4), id="pa-2011",
                 war_form=WarForm.INITIAL_FORFEITED,
                 payouts=Payouts(Odds(1), Odds(10), Odds(2), Odds(3)))
    return replace(p, **changes)  # type: ignore[arg-type]


def south_dakota(**changes: object) -> Paytable:
    p = maryland(jurisdiction=Jurisdiction.SOUTH_DAKOTA, layout=Layout.PER_SEAT, seats=7, spots=7,
                 max_spots_per_seat=1, id="sd", war_form=WarForm.DEALER_MATCHED,
                 payouts=Payouts(Odds(1), Odds(10), Odds(1, 2), Odds(1, 1)), war_tie_wager=False)
    return replace(p, **changes)  # type: ignore[arg-type]


def rigged_draw(paytable: Paytable, codes: Sequence[str], cut_index: int | None = None) -> ShoeDraw:
    """A shoe whose first cards are ``codes`` (the burn card first), the rest in slot order."""
    n = paytable.shoe.cards
    free: dict[int, list[int]] = {}
    for slot in range(n - 1, -1, -1):
        free.setdefault(slot % CARDS_PER_DECK, []).append(slot)
    front = [free[Card.parse(code).index].pop() for code in codes]
    used = set(front)
    order = tuple(front + [slot for slot in range(n) if slot not in used])
    _low, high = paytable.shoe.cut_window()
    return ShoeDraw(order, high if cut_index is None else cut_index)


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
