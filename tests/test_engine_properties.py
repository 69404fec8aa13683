"""Property tests of the engine over random command sequences (hypothesis)."""

from __future__ import annotations

import copy

from hypothesis import given, settings
from hypothesis import strategies as st

from etg.bots import Bot, RoundDriver
from etg.core.commands import (
    BetKind,
    CashIn,
    CashOut,
    ClearWagers,
    CloseBets,
    CloseDecisions,
    Command,
    Deal,
    Decide,
    DoubleWagers,
    NextRound,
    OpenBets,
    PlaceWager,
    RepeatWagers,
    Settle,
    Shuffle,
    ShuffleReason,
    Void,
    WarDeal,
)
from etg.core.engine import TableState, apply, new_table
from etg.core.events import CreditsIn, CreditsOut, Event
from etg.core.paytable import Decision, Paytable
from etg.core.refusal import Refused
from etg.core.rng import SeededSource
from etg.core.shoe import draw_shoe
from tests.tables import maryland, pennsylvania, pennsylvania_2011, south_dakota, total_money

PAYTABLES = [maryland(3), maryland(7, decks=8), pennsylvania(), pennsylvania_2011(), south_dakota()]
seats = st.integers(0, 10)
spots = st.integers(0, 10)
amounts = st.sampled_from([-100, 0, 100, 250, 500, 1_000, 2_500, 10_000, 60_000])


def commands(p: Paytable) -> st.SearchStrategy[Command]:
    flow = st.sampled_from([OpenBets(), CloseBets(), Deal(), Settle(), WarDeal(), NextRound(),
                            CloseDecisions()])
    return st.one_of(
        flow, flow, flow,
        st.builds(PlaceWager, seats, spots, st.sampled_from(BetKind), amounts),
        st.builds(PlaceWager, seats, spots, st.sampled_from(BetKind), amounts),
        st.builds(Decide, seats, spots, st.sampled_from(Decision), st.sampled_from([0, 100, 150])),
        st.builds(ClearWagers, seats), st.builds(RepeatWagers, seats),
        st.builds(DoubleWagers, seats),
        st.builds(CashIn, seats, st.sampled_from([0, 500, 5_000])), st.builds(CashOut, seats),
        st.builds(Void, st.sampled_from(["", "misdeal"])),
        st.builds(lambda seed, reason: Shuffle(draw_shoe(p.shoe, SeededSource(seed)), reason),
                  st.integers(0, 3), st.sampled_from(ShuffleReason)),
    )


def sensible(p: Paytable, state: TableState, data: st.DataObject) -> Command:
    """A command a real table would likely see next, so random sessions reach every phase."""
    phase = state.phase.value
    seat = data.draw(st.integers(1, p.seats))
    if phase == "idle":
        if state.shoe is None or state.shuffle_due or data.draw(st.integers(0, 9)) == 0:
            seed = data.draw(st.integers(0, 3))
            return Shuffle(draw_shoe(p.shoe, SeededSource(seed)), ShuffleReason.SUPERVISOR)
        return OpenBets()
    if phase == "betting":
        choice = data.draw(st.integers(0, 9))
        if choice < 6:
            spot = seat if p.layout.value == "per_seat" else data.draw(st.integers(1, p.spots))
            kind = data.draw(st.sampled_from(BetKind))
            amount = p.unit_cents * data.draw(st.integers(1, 20))
            return PlaceWager(seat, spot, kind, amount)
        return data.draw(st.sampled_from([CloseBets(), ClearWagers(seat), RepeatWagers(seat),
                                          DoubleWagers(seat)]))
    if phase == "decisions":
        pending = state.pending_decisions()
        if pending and data.draw(st.integers(0, 4)):
            seat, spot = data.draw(st.sampled_from(pending))
            decision = data.draw(st.sampled_from(Decision))
            war_tie = data.draw(st.sampled_from([0, 0, p.limits.tie.min_cents]))
            return Decide(seat, spot, decision, war_tie if decision is Decision.WAR else 0)
        return CloseDecisions()
    if data.draw(st.integers(0, 30)) == 0:
        return Void("misdeal")
    return {"bets_closed": Deal(), "dealt": Settle(), "war_pending": WarDeal(),
            "war_dealt": Settle()}.get(phase, NextRound())


@settings(max_examples=200, deadline=None)
@given(st.sampled_from(PAYTABLES), st.data())
def test_money_is_conserved_and_refusals_change_nothing(p: Paytable, data: st.DataObject) -> None:
    state = new_table(p, tuple(5_000 * (i + 1) for i in range(p.seats)))
    constant = total_money(state)
    noise = commands(p)
    for _ in range(data.draw(st.integers(1, 150))):
        steer = data.draw(st.integers(0, 3))
        command = sensible(p, state, data) if steer else data.draw(noise)
        before = copy.deepcopy(state)
        try:
            state, events = apply(state, command)
        except Refused:
            assert state == before  # a refused command leaves the state as it was
            continue
        for event in events:
            if isinstance(event, CreditsIn):
                constant += event.amount
            elif isinstance(event, CreditsOut):
                constant -= event.amount
        # credits + wagers on the layout + house = what came in - what went out
        assert total_money(state) == constant
        assert min(state.credits) >= 0
        assert all(w.initial >= 0 and w.tie >= 0 and w.war >= 0 and w.war_tie >= 0
                   for row in state.round.wagers for w in row)
    if state.phase.value in ("idle", "complete", "voided"):
        assert state.on_table == 0  # nothing is left on the layout between rounds


def _recorded_rounds(p: Paytable, seed: int, rounds: int) -> tuple[list[Command], list[Event],
                                                                  TableState]:
    log: list[Command] = []

    def recording_apply(state: TableState, command: Command) -> tuple[TableState, list[Event]]:
        result = apply(state, command)
        log.append(command)
        return result

    bots = [Bot(1, (1,), 500, 100, Decision.WAR, 100 if p.war_tie_wager else 0),
            Bot(2, (2,), 1_000, 0, Decision.SURRENDER)]
    driver = RoundDriver(bots, SeededSource(seed), recording_apply)
    state = new_table(p)
    events: list[Event] = []
    for _ in range(rounds):
        state, new = driver.play_round(state)
        events += new
    return log, events, state


@settings(max_examples=40, deadline=None)
@given(st.sampled_from(PAYTABLES), st.integers(0, 2**32), st.integers(1, 60))
def test_replaying_recorded_draws_and_commands_reproduces_the_rounds(
    p: Paytable, seed: int, rounds: int
) -> None:
    log, events, final = _recorded_rounds(p, seed, rounds)
    state = new_table(p)
    replayed: list[Event] = []
    for command in log:  # the Shuffle commands carry the recorded draws
        state, new = apply(state, command)
        replayed += new
    assert replayed == events
    assert state == final
