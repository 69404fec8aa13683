"""Property tests of the engine over random command sequences (hypothesis)."""

from __future__ import annotations

import copy

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

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
    MarkAbandoned,
    NextRound,
    OpenBets,
    PlaceBonusSpin,
    PlaceWager,
    RepeatWagers,
    SetJackpotRules,
    Settle,
    Shuffle,
    ShuffleReason,
    SignInDealer,
    Spin,
    Tip,
    ValidateJackpot,
    Void,
    VoidTarget,
    VoidWager,
    WarDeal,
)
from etg.core.engine import TableState, apply, new_table
from etg.core.events import (
    CreditsIn,
    CreditsOut,
    Event,
    HandPaid,
    JackpotLocked,
    ProgressiveAwarded,
    ProgressiveContributed,
    RoundComplete,
    RoundVoided,
    TipGiven,
)
from etg.core.jackpot import JackpotRules, ValidatorRole
from etg.core.paytable import (
    RATE_SCALE,
    AbandonedWager,
    Decision,
    PayoutLimit,
    PayoutLimitScope,
    Paytable,
)
from etg.core.refusal import Refused
from etg.core.rng import SeededSource
from etg.core.shoe import draw_shoe
from etg.core.state import LEVELS
from etg.core.wheel import WheelStops
from etg.ledger.meters import ATTENDANT_PAID_JACKPOTS_AMOUNT, TABLE, round_meters
from etg.table.bots import Bot, RoundDriver, busiest_bots
from tests.tables import (
    maryland,
    maryland_bonus,
    pennsylvania,
    pennsylvania_2011,
    rigged_draw,
    south_dakota,
    total_money,
)
from tests.test_ledger_meters import record

FLOORPERSON, SUPERVISOR = ValidatorRole.FLOORPERSON, ValidatorRole.SUPERVISOR

PAYTABLES = [maryland(3, abandoned_wager=AbandonedWager.FORFEIT), maryland(7, decks=8),
             pennsylvania(), pennsylvania_2011(), south_dakota(), maryland_bonus(),
             maryland_bonus(7, seats=9),
             # a low limit per hand with the wheel and the Envy Bonus inside: caps happen
             maryland_bonus(payout_limit=PayoutLimit(1_000, PayoutLimitScope.HAND, True, True),
                            abandoned_wager=AbandonedWager.FORFEIT)]
RIGGED = ["AH", "AD", "AS", "9H", "9D", "9S", "9C", "2C"]
seats = st.integers(0, 10)
spots = st.integers(0, 10)
amounts = st.sampled_from([-100, 0, 100, 250, 500, 1_000, 2_500, 10_000, 60_000])
dealers = st.sampled_from(["D1", "D2", "D0417", "", "417"])
# Hand-pay thresholds low enough that Tie Wager wins, Envy Bonuses and wheel pays lock the table.
jackpot_rules = st.sampled_from([None, JackpotRules(), JackpotRules(1_000), JackpotRules(100_000)])


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
        st.builds(VoidWager, seats, spots, st.sampled_from(VoidTarget),
                  st.sampled_from(["", "no card dealt"])),
        st.builds(MarkAbandoned, seats),
        st.builds(PlaceBonusSpin, seats, st.sampled_from([100, 200, 500])),
        st.builds(Spin, st.builds(WheelStops, st.integers(-1, 12), st.integers(0, 10),
                                  st.integers(-1, 12))),
        st.builds(lambda seed, reason: Shuffle(draw_shoe(p.shoe, SeededSource(seed)), reason),
                  st.integers(0, 3), st.sampled_from(ShuffleReason)),
        st.builds(ValidateJackpot, st.sampled_from(["floorperson", "", " ", "D0417"]),
                  st.sampled_from([*ValidatorRole, None])),
        st.builds(SignInDealer, dealers),
        st.builds(Tip, seats, amounts),
        st.builds(SetJackpotRules, jackpot_rules),
    )


def sensible(p: Paytable, state: TableState, data: st.DataObject) -> Command:
    """A command a real table would likely see next, so random sessions reach every phase."""
    phase = state.phase.value
    seat = data.draw(st.integers(1, p.seats))
    if data.draw(st.integers(0, 19)) == 0:  # a tip, at any time (refused in a jackpot lock)
        return Tip(seat, p.unit_cents * data.draw(st.integers(1, 5)))
    if phase == "jackpot":  # MD Ch. 9 J(4)(c): validated, now and then voided instead
        return Void("misdeal") if data.draw(st.integers(0, 9)) == 0 else ValidateJackpot("floor", FLOORPERSON)
    if phase in ("idle", "complete") and data.draw(st.integers(0, 9)) == 0:
        return SignInDealer(data.draw(dealers))
    if phase == "idle":
        if state.shoe is None or state.shuffle_due or data.draw(st.integers(0, 9)) == 0:
            # A shoe rigged with red Aces and nines: triggers, ties, Wars and meter awards.
            front = data.draw(st.lists(st.sampled_from(RIGGED), min_size=30, max_size=60))
            return Shuffle(rigged_draw(p, front), ShuffleReason.SUPERVISOR)
        return OpenBets()
    if phase == "betting":
        choice = data.draw(st.integers(0, 9))
        if choice < 6:
            spot = seat if p.layout.value == "per_seat" else data.draw(st.integers(1, p.spots))
            kind = data.draw(st.sampled_from(BetKind))
            if kind is BetKind.BONUS_SPIN:
                return PlaceBonusSpin(seat, data.draw(st.sampled_from([100, 500])))
            amount = (500 if kind is BetKind.PROGRESSIVE_PAYOUT
                      else p.unit_cents * data.draw(st.integers(1, 20)))
            return PlaceWager(seat, spot, kind, amount)
        return data.draw(st.sampled_from([CloseBets(), ClearWagers(seat), RepeatWagers(seat),
                                          DoubleWagers(seat)]))
    if phase in ("bets_closed", "dealt", "decisions", "war_pending", "war_dealt",
                 "bonus_spin") and data.draw(st.integers(0, 9)) == 0:
        # MD Ch. 11 C: a supervisor voids one seat's wagers on a spot, or one side wager
        r = state.round
        on_layout = [(s, spot) for s in range(1, p.seats + 1)
                     for spot, w in enumerate(r.wagers[s - 1], start=1) if w.on_table]
        on_layout += [(s, 0) for s in range(1, p.seats + 1) if r.bonus_spin[s - 1]]
        if on_layout:
            seat, spot = data.draw(st.sampled_from(on_layout))
            target = VoidTarget.BONUS_SPIN if spot == 0 else data.draw(st.sampled_from(
                [VoidTarget.SPOT, VoidTarget.TIE, VoidTarget.PROGRESSIVE_PAYOUT]))
            return VoidWager(seat, spot, target, "no card dealt")
    if phase == "decisions":
        pending = state.pending_decisions()
        if pending and data.draw(st.integers(0, 9)) == 0:
            return MarkAbandoned(data.draw(st.sampled_from(pending))[0])  # MD Ch. 7 B(3)-(4)
        if pending and data.draw(st.integers(0, 4)):
            seat, spot = data.draw(st.sampled_from(pending))
            decision = data.draw(st.sampled_from(Decision))
            war_tie = data.draw(st.sampled_from([0, 0, p.limits.tie.min_cents]))
            return Decide(seat, spot, decision, war_tie if decision is Decision.WAR else 0)
        return CloseDecisions()
    if data.draw(st.integers(0, 30)) == 0:
        return Void("misdeal")
    if phase == "bonus_spin":  # every segment equally likely here, so jackpots come often
        assert p.bonus_spin is not None
        return Spin(WheelStops(data.draw(st.integers(0, len(p.bonus_spin.community_ring) - 1)),
                               data.draw(st.integers(1, p.seats)),
                               data.draw(st.integers(0, len(p.bonus_spin.hot_spot_ring) - 1))))
    return {"bets_closed": Deal(), "dealt": Settle(), "war_pending": WarDeal(),
            "war_dealt": Settle()}.get(phase, NextRound())


@pytest.mark.slow
@settings(max_examples=200, deadline=None)
@given(st.sampled_from(PAYTABLES), st.data())
def test_money_is_conserved_and_refusals_change_nothing(p: Paytable, data: st.DataObject) -> None:
    state = new_table(p, tuple(5_000 * (i + 1) for i in range(p.seats)),
                      data.draw(jackpot_rules))
    constant = total_money(state)
    noise = commands(p)
    meters = MeterBooks(state)
    house = HouseBooks(state)
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
            elif isinstance(event, CreditsOut | TipGiven | HandPaid):
                constant -= event.amount  # out by the attendant, or to the dealer's tip box
        meters.record(events)
        house.record(events, state)
        # credits + wagers on the layout + house = what came in - what went out
        assert total_money(state) == constant
        assert min(state.credits) >= 0
        assert all(w.initial >= 0 and w.tie >= 0 and w.war >= 0 and w.war_tie >= 0
                   for row in state.round.wagers for w in row)
        meters.check(state)
    if state.phase.value in ("idle", "complete", "voided"):
        assert state.on_table == 0  # nothing is left on the layout between rounds
        assert state.jackpot is None
    assert (state.jackpot is not None) == (state.phase.value == "jackpot")


class HouseBooks:
    """Each round's meters tell the house's win: coin in - coin out - attendant-paid jackpots.

    Checked at every round's end from the meters the ledger would count for it
    (etg.ledger.meters.round_meters): a voided round counts no coin, so it must
    leave the house as it was, hand pays included (SPEC §2). A round with a
    progressive award and no jackpot lock is left out: its meters count the award
    as attendant-paid though it was credited, as the program before validation did.
    """

    def __init__(self, state: TableState) -> None:
        self.house = state.house  # at the end of the last round: nothing else moves it
        self.events: list[Event] = []

    def record(self, events: list[Event], state: TableState) -> None:
        for event in events:
            self.events.append(event)
            if isinstance(event, RoundComplete | RoundVoided):
                self._check(event, state)

    def _check(self, end: RoundComplete | RoundVoided, state: TableState) -> None:
        events, self.events = self.events, []
        outcome = "complete" if isinstance(end, RoundComplete) else "voided"
        counted = round_meters(record(events, outcome=outcome))
        credited_awards = any(isinstance(e, ProgressiveAwarded) for e in events) and not any(
            isinstance(e, JackpotLocked) for e in events)
        if not credited_awards:
            coin = sum(value if name.startswith("coin_in.") else -value
                       for (seat, name), value in counted.items()
                       if seat == TABLE and name.startswith(("coin_in.", "coin_out.")))
            assert state.house - self.house == coin - counted[TABLE, ATTENDANT_PAID_JACKPOTS_AMOUNT]
        self.house = state.house


class MeterBooks:
    """Every millionth contributed is on a meter, in its carry or reserve, or was paid out.

    contributions + seeds = growth of (meter + reserve) + carry + awards, per meter,
    to the millionth of a cent; a void takes its round's contributions and awards back.
    """

    def __init__(self, state: TableState) -> None:
        self.start = {level: m.cents for level, m in zip(LEVELS, state.meters, strict=True)
                      if m is not None}
        self.kept = {level: 0 for level in self.start}  # contributions + seeds - awards
        self.round = dict(self.kept)

    def record(self, events: list[Event]) -> None:
        for event in events:
            if isinstance(event, ProgressiveContributed):
                self.round[event.level] += event.millionths
            elif isinstance(event, ProgressiveAwarded):
                self.round[event.level] += (event.seeded - event.amount) * RATE_SCALE
            elif isinstance(event, RoundComplete):
                self.kept = {k: self.kept[k] + self.round[k] for k in self.kept}
                self.round = {k: 0 for k in self.kept}
            elif isinstance(event, RoundVoided):
                self.round = {k: 0 for k in self.kept}

    def check(self, state: TableState) -> None:
        for level, start in self.start.items():
            m = state.meter(level)
            assert m is not None
            held = (m.cents - start + m.reserve_cents) * RATE_SCALE + m.carry
            assert 0 <= m.carry < RATE_SCALE
            assert held == self.kept[level] + self.round[level]


def _recorded_rounds(p: Paytable, seed: int, rounds: int, rules: JackpotRules | None = None,
                     ) -> tuple[list[Command], list[Event], TableState]:
    log: list[Command] = []

    def recording_apply(state: TableState, command: Command) -> tuple[TableState, list[Event]]:
        result = apply(state, command)
        log.append(command)
        return result

    payout = 500 if p.progressive_payout else 0
    bonus = 500 if p.bonus_spin else 0
    bots = [Bot(1, (1,), 500, 100, Decision.WAR, 100 if p.war_tie_wager else 0, payout, bonus),
            Bot(2, (2,), 1_000, 0, Decision.SURRENDER, bonus_spin=bonus // 5)]
    driver = RoundDriver(bots, SeededSource(seed), recording_apply)
    state = new_table(p, jackpot_rules=rules)
    events: list[Event] = []
    for _ in range(rounds):
        state, new = driver.play_round(state)
        events += new
    return log, events, state


@settings(max_examples=40, deadline=None)
@given(st.sampled_from(PAYTABLES), st.integers(0, 2**32), st.integers(1, 60), jackpot_rules)
def test_replaying_recorded_draws_and_commands_reproduces_the_rounds(
    p: Paytable, seed: int, rounds: int, rules: JackpotRules | None
) -> None:
    """With jackpot validation too: the bots' floorperson validates each lock (etg.table.bots)."""
    log, events, final = _recorded_rounds(p, seed, rounds, rules)
    state = new_table(p, jackpot_rules=rules)
    replayed: list[Event] = []
    for command in log:  # the Shuffle commands carry the recorded draws
        state, new = apply(state, command)
        replayed += new
    assert replayed == events
    assert state == final


@pytest.mark.parametrize("p", [maryland_bonus(7, seats=9), pennsylvania_2011()],
                         ids=["md-7-spots-9-seats", "pa-2011"])
def test_bots_pressing_repeat_play_the_same_rounds_as_bots_placing_each_wager(p: Paytable) -> None:
    """The benchmark's REPEAT: the same wagers, events and states as placing them one by one."""
    def play(repeat: bool) -> tuple[list[type], list[Event], TableState]:
        sent: list[type] = []

        def counting_apply(state: TableState, command: Command) -> tuple[TableState, list[Event]]:
            sent.append(type(command))
            return apply(state, command)

        driver = RoundDriver(busiest_bots(p), SeededSource(5), counting_apply, repeat=repeat)
        state = new_table(p)
        events: list[Event] = []
        for _ in range(30):
            state, new = driver.play_round(state)
            events += new
        return sent, events, state

    one_by_one, repeated = play(False), play(True)
    assert repeated[1] == one_by_one[1]
    assert repeated[2] == one_by_one[2]
    assert repeated[0].count(RepeatWagers) == 29 * p.seats
    assert repeated[0].count(PlaceWager) == one_by_one[0].count(PlaceWager) // 30 > 0
