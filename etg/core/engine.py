"""The round state machine: ``apply(state, command) -> (state, events)``.

A pure function of the paytable, the recorded shoe draws and the commands: no
clock, no randomness, no I/O. A refused command raises :class:`Refused` and the
caller keeps the state it had, so a refusal can never change anything.

Money moves in integer cents between three places, and their sum only changes
by cash in and cash out: the seats' ``credits``, the wagers on the layout, and
the ``house`` (its net win). Placing a wager moves credits to the layout;
settling moves the layout to the seat or the house, and winnings from the house.

Seats and spots are numbered from 1, at the dealer's far left (MD Ch. 8 F).
Cards are dealt from spot 1 upward; wagers are settled seat by seat from the
dealer's right, highest seat first (MD Ch. 9 A, 58 Pa. Code § 651a.9(a)).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from enum import Enum
from typing import Any

from etg.core.cards import Card
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
    Void,
    WarDeal,
)
from etg.core.events import (
    BetsClosed,
    BetsOpened,
    CardDealt,
    CardsBurned,
    CreditsIn,
    CreditsOut,
    CutCardOut,
    DecisionMade,
    DecisionsOpened,
    Event,
    RoundComplete,
    RoundVoided,
    ShoeShuffled,
    TableCleared,
    Target,
    WagerPlaced,
    WagersCleared,
    WagerSettled,
)
from etg.core.evolve import evolve
from etg.core.paytable import Decision, Layout, Limit, Paytable
from etg.core.refusal import Reason, Refused
from etg.core.settle import (
    Outcome,
    Payment,
    compare,
    settle_going_to_war,
    settle_original,
    settle_surrender,
    settle_war,
)
from etg.core.shoe import ShoeState, draw_problem


class Phase(Enum):
    IDLE = "idle"  # between rounds
    BETTING = "betting"  # MD Ch. 7 C: wagers before "no more bets"
    BETS_CLOSED = "bets_closed"  # MD Ch. 7 D: locked
    DEALT = "dealt"  # original deal on the table (MD Ch. 8 F)
    DECISIONS = "decisions"  # tie hands choose War or Surrender (MD Ch. 9 E)
    WAR_PENDING = "war_pending"  # War Wagers placed, War deal due
    WAR_DEALT = "war_dealt"  # War deal on the table (MD Ch. 9 H)
    COMPLETE = "complete"
    VOIDED = "voided"  # MD Ch. 11


IN_PLAY = frozenset({Phase.BETS_CLOSED, Phase.DEALT, Phase.DECISIONS, Phase.WAR_PENDING,
                     Phase.WAR_DEALT})
VOIDABLE = IN_PLAY | {Phase.BETTING}


@dataclass(frozen=True, slots=True)
class SpotWagers:
    """One seat's wagers on one spot; amounts still on the layout, in cents."""

    initial: int = 0
    tie: int = 0
    war: int = 0
    war_tie: int = 0
    decision: Decision | None = None

    @property
    def on_table(self) -> int:
        return self.initial + self.tie + self.war + self.war_tie


NO_WAGERS = SpotWagers()
Grid = tuple[tuple[SpotWagers, ...], ...]  # [seat - 1][spot - 1]


@dataclass(frozen=True, slots=True)
class Round:
    """The round on the table: wagers, cards and what each seat has put in and taken out."""

    number: int
    wagers: Grid  # live: what is still at stake on the layout
    placed: Grid  # the Initial and Tie Wagers as locked at No More Bets
    spot_cards: tuple[Card | None, ...]
    dealer_card: Card | None = None
    war_cards: tuple[Card | None, ...] = ()
    dealer_war_card: Card | None = None
    staked: tuple[int, ...] = ()  # per seat: taken from credits this round
    returned: tuple[int, ...] = ()  # per seat: credited back this round, winnings included
    won: tuple[int, ...] = ()  # per seat: fixed-odds winnings paid (the payout limit's count)
    results: tuple[WagerSettled, ...] = ()


@dataclass(frozen=True, slots=True)
class TableState:
    paytable: Paytable
    phase: Phase
    credits: tuple[int, ...]  # per seat
    house: int  # the house's net win, cents
    shoe: ShoeState | None
    shuffle_due: bool
    round: Round
    last_bets: Grid  # the previous round's bets, for REPEAT

    @property
    def on_table(self) -> int:
        """Cents at stake on the layout."""
        return sum(w.on_table for row in self.round.wagers for w in row)

    def seat_wagers(self, seat: int) -> tuple[SpotWagers, ...]:
        return self.round.wagers[seat - 1]

    def pending_decisions(self) -> tuple[tuple[int, int], ...]:
        """(seat, spot) tie hands still waiting for War or Surrender, in settlement order."""
        if self.phase is not Phase.DECISIONS:
            return ()
        return tuple(
            (seat, spot) for seat, spot, w in _settlement_order(self.round.wagers)
            if w.initial and w.decision is None and _is_tie(self.round, spot)
        )


def new_table(paytable: Paytable, credits: tuple[int, ...] | None = None) -> TableState:
    """A table between rounds with no shoe yet: the first command is a :class:`Shuffle`."""
    seats = paytable.seats
    start = credits if credits is not None else (0,) * seats
    if len(start) != seats:
        raise ValueError(f"credits for {len(start)} seats, the paytable has {seats}")
    empty = _empty_grid(paytable)
    return TableState(paytable, Phase.IDLE, start, 0, None, True, _new_round(paytable, 1), empty)


def apply(state: TableState, command: Command) -> tuple[TableState, list[Event]]:
    """The table after ``command`` and what happened; raises :class:`Refused`."""
    handler = _HANDLERS.get(type(command))
    if handler is None:
        raise TypeError(f"not a command: {command!r}")
    return handler(state, command)


# --- between rounds -------------------------------------------------------------------------

def _shuffle(s: TableState, c: Shuffle) -> tuple[TableState, list[Event]]:
    if s.phase is not Phase.IDLE:
        raise Refused(Reason.ROUND_IN_PROGRESS, "the shoe is shuffled only between rounds")
    problem = draw_problem(s.paytable.shoe, c.draw)
    if problem:
        raise Refused(Reason.INVALID_DRAW, problem)
    number = (s.shoe.shuffle_number if s.shoe else 0) + 1
    shoe = ShoeState(c.draw, shuffle_number=number)
    return evolve(s, shoe=shoe, shuffle_due=False), [
        ShoeShuffled(number, c.reason, c.draw.cut_index)]


def _open_bets(s: TableState, c: OpenBets) -> tuple[TableState, list[Event]]:
    _need_phase(s, Phase.IDLE, "betting opens between rounds")
    if s.shoe is None or s.shuffle_due:
        raise Refused(Reason.SHUFFLE_DUE, "the shoe must be shuffled before the next round")
    return evolve(s, phase=Phase.BETTING), [BetsOpened(s.round.number)]


def _next_round(s: TableState, c: NextRound) -> tuple[TableState, list[Event]]:
    if s.phase not in (Phase.COMPLETE, Phase.VOIDED):
        raise Refused(Reason.WRONG_PHASE, "the round is not over")
    number = s.round.number + 1
    return evolve(s, phase=Phase.IDLE, round=_new_round(s.paytable, number),
                   last_bets=s.round.placed), [TableCleared(number)]


def _cash_in(s: TableState, c: CashIn) -> tuple[TableState, list[Event]]:
    _need_seat(s, c.seat)
    if c.amount <= 0:
        raise Refused(Reason.NOT_POSITIVE, "cash in must be a positive amount")
    credits = _add(s.credits, c.seat, c.amount)
    return evolve(s, credits=credits), [CreditsIn(c.seat, c.amount, credits[c.seat - 1])]


def _cash_out(s: TableState, c: CashOut) -> tuple[TableState, list[Event]]:
    _need_seat(s, c.seat)
    amount = s.credits[c.seat - 1]
    if amount <= 0:
        raise Refused(Reason.NO_CREDITS, f"seat {c.seat} has no credits")
    if s.phase in VOIDABLE and _row_total(s.round.wagers[c.seat - 1]):
        raise Refused(Reason.ROUND_IN_PROGRESS,
                      f"seat {c.seat} has wagers in play; cash out after the round")
    return evolve(s, credits=_add(s.credits, c.seat, -amount)), [CreditsOut(c.seat, amount)]


# --- betting (MD Ch. 7) ---------------------------------------------------------------------

def _place(s: TableState, c: PlaceWager) -> tuple[TableState, list[Event]]:
    _need_betting(s)
    p = s.paytable
    _need_seat(s, c.seat)
    _need_spot(s, c.seat, c.spot)
    _need_amount(p.unit_cents, c.amount)
    row = s.round.wagers[c.seat - 1]
    current = row[c.spot - 1]
    if c.kind is BetKind.INITIAL:
        if not current.initial and sum(1 for w in row if w.initial) >= p.max_spots_per_seat:
            raise Refused(Reason.SPOT_LIMIT,
                          f"a seat may wager on at most {p.max_spots_per_seat} spots (MD Ch. 7 E)")
        total = current.initial + c.amount
        _need_limit("Initial Wager", p.limits.initial, total)
        wagers = evolve(current, initial=total)
    else:
        if not current.initial:
            raise Refused(Reason.TIE_WITHOUT_INITIAL,
                          "a Tie Wager needs an Initial Wager on the same spot (MD Ch. 7 F(2))")
        total = current.tie + c.amount
        _need_limit("Tie Wager", p.limits.tie, total)
        wagers = evolve(current, tie=total)
    _need_credits(s, c.seat, c.amount)
    s = _stake(s, c.seat, c.amount, _set(s.round.wagers, c.seat, c.spot, wagers))
    return s, [WagerPlaced(c.seat, c.spot, c.kind, c.amount, total, s.credits[c.seat - 1])]


def _clear(s: TableState, c: ClearWagers) -> tuple[TableState, list[Event]]:
    _need_betting(s)
    _need_seat(s, c.seat)
    refund = _row_total(s.round.wagers[c.seat - 1])
    if not refund:
        raise Refused(Reason.NOTHING_TO_CLEAR, f"seat {c.seat} has no wagers to clear")
    r = s.round
    empty = tuple(NO_WAGERS for _ in r.spot_cards)
    wagers = _set_row(r.wagers, c.seat, empty)
    s = evolve(s, credits=_add(s.credits, c.seat, refund),
                round=evolve(r, wagers=wagers, staked=_add(r.staked, c.seat, -refund)))
    return s, [WagersCleared(c.seat, refund, s.credits[c.seat - 1])]


def _repeat(s: TableState, c: RepeatWagers) -> tuple[TableState, list[Event]]:
    _need_betting(s)
    _need_seat(s, c.seat)
    if _row_total(s.round.wagers[c.seat - 1]):
        raise Refused(Reason.ALREADY_WAGERED, "REPEAT places last round's wagers on an empty seat")
    last = s.last_bets[c.seat - 1]
    total = _row_total(last)
    if not total:
        raise Refused(Reason.NOTHING_TO_REPEAT, f"seat {c.seat} had no wagers last round")
    return _replace_row(s, c.seat, last, total)


def _double(s: TableState, c: DoubleWagers) -> tuple[TableState, list[Event]]:
    _need_betting(s)
    _need_seat(s, c.seat)
    row = s.round.wagers[c.seat - 1]
    total = _row_total(row)
    if not total:
        raise Refused(Reason.NOTHING_TO_DOUBLE, f"seat {c.seat} has no wagers to double")
    doubled = tuple(evolve(w, initial=2 * w.initial, tie=2 * w.tie) for w in row)
    return _replace_row(s, c.seat, doubled, total)


def _replace_row(
    s: TableState, seat: int, row: tuple[SpotWagers, ...], added: int
) -> tuple[TableState, list[Event]]:
    """Put ``row`` on the seat (REPEAT, DOUBLE), all or nothing, after checking every limit."""
    p = s.paytable
    for w in row:
        if w.initial:
            _need_limit("Initial Wager", p.limits.initial, w.initial)
        if w.tie:
            _need_limit("Tie Wager", p.limits.tie, w.tie)
    _need_credits(s, seat, added)
    old = s.round.wagers[seat - 1]
    s = _stake(s, seat, added, _set_row(s.round.wagers, seat, row))
    events: list[Event] = []
    credits = s.credits[seat - 1] + added
    for spot, (before, after) in enumerate(zip(old, row, strict=True), start=1):
        for kind, was, now in ((BetKind.INITIAL, before.initial, after.initial),
                               (BetKind.TIE, before.tie, after.tie)):
            if now != was:
                credits -= now - was
                events.append(WagerPlaced(seat, spot, kind, now - was, now, credits))
    return s, events


def _close_bets(s: TableState, c: CloseBets) -> tuple[TableState, list[Event]]:
    _need_phase(s, Phase.BETTING, "betting is not open")
    if not any(w.initial for row in s.round.wagers for w in row):
        raise Refused(Reason.NO_WAGERS, "no Initial Wager has been placed")
    r = evolve(s.round, placed=s.round.wagers)
    return evolve(s, phase=Phase.BETS_CLOSED, round=r), [BetsClosed(r.number)]


# --- the deals (MD Ch. 8, Ch. 9 H) ----------------------------------------------------------

def _deal(s: TableState, c: Deal) -> tuple[TableState, list[Event]]:
    _need_phase(s, Phase.BETS_CLOSED, "the original deal follows No More Bets")
    assert s.shoe is not None
    events: list[Event] = []
    dealer = _Dealer(s.shoe, events)
    if not s.shoe.burned:  # MD Ch. 8 E(1): the first card after a shuffle is burned
        dealer.burn(1)
    r = s.round
    cards: list[Card | None] = [None] * len(r.spot_cards)
    for spot in _spots_in_play(s):  # MD Ch. 8 F(1): from the dealer's left, spot 1 upward
        cards[spot - 1] = dealer.deal(Target.SPOT, spot, war=False)
    dealer_card = dealer.deal(Target.DEALER, 0, war=False)  # MD Ch. 8 F(2)
    r = evolve(r, spot_cards=tuple(cards), dealer_card=dealer_card)
    return evolve(s, phase=Phase.DEALT, shoe=dealer.shoe(burned=True), round=r), events


def _war_deal(s: TableState, c: WarDeal) -> tuple[TableState, list[Event]]:
    _need_phase(s, Phase.WAR_PENDING, "the War deal follows the War Wagers")
    assert s.shoe is not None
    events: list[Event] = []
    dealer = _Dealer(s.shoe, events)
    dealer.burn(3)  # MD Ch. 9 H: three cards burned face down
    r = s.round
    war_cards: list[Card | None] = [None] * len(r.spot_cards)
    for spot in range(1, len(r.spot_cards) + 1):
        # MD Ch. 9 H: a War card to each spot with a War Wager; none where all surrendered
        if any(row[spot - 1].decision is Decision.WAR for row in r.wagers):
            war_cards[spot - 1] = dealer.deal(Target.SPOT, spot, war=True)
    dealer_card = dealer.deal(Target.DEALER, 0, war=True)
    r = evolve(r, war_cards=tuple(war_cards), dealer_war_card=dealer_card)
    return evolve(s, phase=Phase.WAR_DEALT, shoe=dealer.shoe(), round=r), events


class _Dealer:
    """Deals from the shoe within one command, recording each card as an event.

    The cut card comes out before the card it stands in front of (MD Ch. 8 G).
    """

    def __init__(self, shoe: ShoeState, events: list[Event]) -> None:
        self._shoe = shoe
        self._position = shoe.position
        self._events = events

    def _next(self) -> Card:
        if self._position == self._shoe.draw.cut_index:
            self._events.append(CutCardOut())
        card = self._shoe.card_at(self._position)
        self._position += 1
        return card

    def burn(self, count: int) -> None:
        self._events.append(CardsBurned(tuple(self._next() for _ in range(count))))

    def deal(self, target: Target, spot: int, war: bool) -> Card:
        card = self._next()
        self._events.append(CardDealt(target, spot, card, war))
        return card

    def shoe(self, **changes: Any) -> ShoeState:
        return evolve(self._shoe, position=self._position, **changes)


# --- settlement (MD Ch. 9 B, E, I; Ch. 10 A) ------------------------------------------------

def _settle(s: TableState, c: Settle) -> tuple[TableState, list[Event]]:
    if s.phase is Phase.DEALT:
        return _settle_original(s)
    if s.phase is Phase.WAR_DEALT:
        return _settle_war(s)
    raise Refused(Reason.WRONG_PHASE, "there is no deal to settle")


def _settle_original(s: TableState) -> tuple[TableState, list[Event]]:
    p = s.paytable
    r = s.round
    assert r.dealer_card is not None
    events: list[Event] = []
    cashier = _Cashier(s, events)
    for seat, spot, w in _settlement_order(r.wagers):
        card = r.spot_cards[spot - 1]
        assert card is not None
        outcome = compare(card, r.dealer_card)
        cashier.pay(seat, spot, settle_original(p.payouts, outcome, w.initial, w.tie))
    s = cashier.state(phase=Phase.DECISIONS)
    pending = s.pending_decisions()
    if pending:
        events.append(DecisionsOpened(pending))
        return s, events
    return _complete(s, events)


def _decide(s: TableState, c: Decide) -> tuple[TableState, list[Event]]:
    _need_phase(s, Phase.DECISIONS, "there is no tie hand to decide")
    _need_seat(s, c.seat)
    if not 1 <= c.spot <= len(s.round.spot_cards):
        raise Refused(Reason.NO_SUCH_SPOT, f"there is no spot {c.spot}")
    w = s.round.wagers[c.seat - 1][c.spot - 1]
    if w.decision is not None:
        raise Refused(Reason.ALREADY_DECIDED,
                      f"seat {c.seat} has already chosen {w.decision.value} on spot {c.spot}")
    if not w.initial or not _is_tie(s.round, c.spot):
        raise Refused(Reason.SEAT_NOT_TIED, f"seat {c.seat} has no tie hand on spot {c.spot}")
    if c.war_tie:
        p = s.paytable
        if c.decision is not Decision.WAR or not p.war_tie_wager:
            raise Refused(Reason.WAR_TIE_NOT_OFFERED,
                          "a Tie Wager on the War deal is placed only with a War Wager"
                          if p.war_tie_wager
                          else "this paytable offers no Tie Wager on the War deal")
        _need_amount(p.unit_cents, c.war_tie)
        _need_limit("Tie Wager", p.limits.tie, c.war_tie)
    if c.decision is Decision.WAR:
        _need_credits(s, c.seat, w.initial + c.war_tie)
    events: list[Event] = []
    cashier = _Cashier(s, events)
    _make_decision(cashier, c.seat, c.spot, c.decision, c.war_tie, False)
    return _after_decision(cashier.state(), events)


def _close_decisions(s: TableState, c: CloseDecisions) -> tuple[TableState, list[Event]]:
    _need_phase(s, Phase.DECISIONS, "there are no decisions to close")
    events: list[Event] = []
    cashier = _Cashier(s, events)
    default = s.paytable.default_decision
    for seat, spot in s.pending_decisions():
        initial = cashier.wager(seat, spot).initial
        # A seat that cannot cover the War Wager surrenders (SPEC §2 step 5).
        can_cover = cashier.credits[seat - 1] >= initial
        decision = default if can_cover else Decision.SURRENDER
        _make_decision(cashier, seat, spot, decision, 0, True)
    return _after_decision(cashier.state(), events)


def _make_decision(
    cashier: _Cashier, seat: int, spot: int, decision: Decision, war_tie: int, by_default: bool
) -> None:
    w = cashier.wager(seat, spot)
    if decision is Decision.SURRENDER:
        cashier.wagers[seat - 1][spot - 1] = evolve(w, decision=decision)
        cashier.events.append(DecisionMade(seat, spot, decision, by_default, 0,
                                           cashier.credits[seat - 1]))
        cashier.pay(seat, spot, [settle_surrender(w.initial)])
        return
    # MD Ch. 9 E(2): a War Wager equal to the Initial Wager
    cashier.stake(seat, spot, w.initial + war_tie,
                  evolve(w, war=w.initial, war_tie=war_tie, decision=decision))
    cashier.events.append(DecisionMade(seat, spot, decision, by_default, war_tie,
                                       cashier.credits[seat - 1]))
    cashier.pay(seat, spot, settle_going_to_war(cashier.s.paytable.war_form, w.initial))


def _after_decision(s: TableState, events: list[Event]) -> tuple[TableState, list[Event]]:
    if s.pending_decisions():
        return s, events
    if any(w.decision is Decision.WAR for row in s.round.wagers for w in row):
        return evolve(s, phase=Phase.WAR_PENDING), events
    return _complete(s, events)


def _settle_war(s: TableState) -> tuple[TableState, list[Event]]:
    p = s.paytable
    r = s.round
    assert r.dealer_war_card is not None
    events: list[Event] = []
    cashier = _Cashier(s, events)
    for seat, spot, w in _settlement_order(r.wagers):
        if w.decision is not Decision.WAR:
            continue
        card = r.war_cards[spot - 1]
        assert card is not None
        outcome = compare(card, r.dealer_war_card)
        cashier.pay(seat, spot, settle_war(p.war_form, p.payouts, outcome, w.initial, w.war,
                                           w.war_tie))
    return _complete(cashier.state(), events)


class _Cashier:
    """Moves settled wagers off the layout to the seats or the house, within one command.

    It accumulates in local lists and builds the new state once, however many
    wagers a deal settles. Winnings above the payout limit per hand
    (MD Ch. 2 B(5)(b)) stay with the house and are recorded as ``capped``.
    """

    def __init__(self, s: TableState, events: list[Event]) -> None:
        r = s.round
        self.s = s
        self.events = events
        self.limit = s.paytable.payout_limit_per_hand_cents
        self.credits = list(s.credits)
        self.house = s.house
        self.staked = list(r.staked)
        self.returned = list(r.returned)
        self.won = list(r.won)
        self.wagers = [list(row) for row in r.wagers]
        self.results: list[WagerSettled] = []

    def wager(self, seat: int, spot: int) -> SpotWagers:
        return self.wagers[seat - 1][spot - 1]

    def stake(self, seat: int, spot: int, amount: int, wagers: SpotWagers) -> None:
        """Take ``amount`` from the seat's credits onto the layout as ``wagers``."""
        self.credits[seat - 1] -= amount
        self.staked[seat - 1] += amount
        self.wagers[seat - 1][spot - 1] = wagers

    def pay(self, seat: int, spot: int, payments: list[Payment]) -> None:
        if not payments:
            return
        i = seat - 1
        for payment in payments:
            win = min(payment.win, max(0, self.limit - self.won[i]))
            paid = payment.returned + win
            self.credits[i] += paid
            self.returned[i] += paid
            self.won[i] += win
            self.house += payment.stake - paid
            settled = WagerSettled(seat, spot, payment, paid, payment.win - win, self.credits[i])
            self.results.append(settled)
            self.events.append(settled)
        # WagerKind values name the SpotWagers fields they settle
        self.wagers[i][spot - 1] = evolve(self.wagers[i][spot - 1],
                                          **{payment.kind.value: 0 for payment in payments})

    def state(self, **changes: Any) -> TableState:
        r = self.s.round
        r = evolve(r, wagers=tuple(tuple(row) for row in self.wagers), staked=tuple(self.staked),
                   returned=tuple(self.returned), won=tuple(self.won),
                   results=r.results + tuple(self.results))
        return evolve(self.s, credits=tuple(self.credits), house=self.house, round=r, **changes)


def _complete(s: TableState, events: list[Event]) -> tuple[TableState, list[Event]]:
    r = s.round
    assert s.shoe is not None
    net = tuple(back - put for back, put in zip(r.returned, r.staked, strict=True))
    due = s.shoe.cut_card_out
    events.append(RoundComplete(r.number, net, due))
    return evolve(s, phase=Phase.COMPLETE, shuffle_due=due), events


# --- void (MD Ch. 11) -----------------------------------------------------------------------

def _void(s: TableState, c: Void) -> tuple[TableState, list[Event]]:
    if s.phase not in VOIDABLE:
        raise Refused(Reason.WRONG_PHASE, "there is no round in progress to void")
    if not c.reason.strip():
        raise Refused(Reason.WRONG_PHASE, "a void needs a reason")
    r = s.round
    refunds = tuple(put - back for put, back in zip(r.staked, r.returned, strict=True))
    credits = tuple(c_ + f for c_, f in zip(s.credits, refunds, strict=True))
    house = s.house - (sum(refunds) - s.on_table)
    empty = _empty_grid(s.paytable)
    r = evolve(r, wagers=empty, returned=r.staked)
    due = s.shoe.cut_card_out if s.shoe else True
    return (evolve(s, phase=Phase.VOIDED, credits=credits, house=house, round=r, shuffle_due=due),
            [RoundVoided(r.number, c.reason, refunds)])


# --- helpers --------------------------------------------------------------------------------

def _new_round(p: Paytable, number: int) -> Round:
    zeros = (0,) * p.seats
    empty = _empty_grid(p)
    return Round(number, empty, empty, (None,) * p.spot_count, None, (None,) * p.spot_count,
                 None, zeros, zeros, zeros, ())


def _empty_grid(p: Paytable) -> Grid:
    row = (NO_WAGERS,) * p.spot_count
    return (row,) * p.seats


def _spots_in_play(s: TableState) -> list[int]:
    """Community: every spot gets a card; per seat: each player with an Initial Wager."""
    spots = range(1, s.paytable.spot_count + 1)
    if s.paytable.layout is Layout.COMMUNITY:
        return list(spots)
    return [spot for spot in spots if any(row[spot - 1].initial for row in s.round.placed)]


def _settlement_order(grid: Grid) -> list[tuple[int, int, SpotWagers]]:
    """Highest seat first (MD Ch. 9 A), then spot by spot; only spots with wagers."""
    out: list[tuple[int, int, SpotWagers]] = []
    for seat in range(len(grid), 0, -1):
        row = grid[seat - 1]
        if row.count(NO_WAGERS) == len(row):
            continue
        out.extend((seat, spot, w) for spot, w in enumerate(row, start=1) if w.on_table)
    return out


def _is_tie(r: Round, spot: int) -> bool:
    card = r.spot_cards[spot - 1]
    return card is not None and r.dealer_card is not None and (
        compare(card, r.dealer_card) is Outcome.TIE)


def _stake(s: TableState, seat: int, amount: int, wagers: Grid) -> TableState:
    r = s.round
    return evolve(s, credits=_add(s.credits, seat, -amount),
                   round=evolve(r, wagers=wagers, staked=_add(r.staked, seat, amount)))


def _set(grid: Grid, seat: int, spot: int, w: SpotWagers) -> Grid:
    row = grid[seat - 1]
    return _set_row(grid, seat, (*row[: spot - 1], w, *row[spot:]))


def _set_row(grid: Grid, seat: int, row: tuple[SpotWagers, ...]) -> Grid:
    return (*grid[: seat - 1], row, *grid[seat:])


def _row_total(row: tuple[SpotWagers, ...]) -> int:
    return sum(w.on_table for w in row)


def _put(values: tuple[int, ...], seat: int, value: int) -> tuple[int, ...]:
    return (*values[: seat - 1], value, *values[seat:])


def _add(values: tuple[int, ...], seat: int, delta: int) -> tuple[int, ...]:
    return _put(values, seat, values[seat - 1] + delta)


def _need_phase(s: TableState, phase: Phase, message: str) -> None:
    if s.phase is not phase:
        raise Refused(Reason.WRONG_PHASE, f"{message} (the table is {s.phase.value})")


def _need_betting(s: TableState) -> None:
    if s.phase is Phase.BETTING:
        return
    if s.phase in IN_PLAY:  # MD Ch. 7 D: no wager made, increased or withdrawn after "no more bets"
        raise Refused(Reason.BETTING_CLOSED, "no more bets: wagers are locked for this round")
    raise Refused(Reason.BETTING_CLOSED, f"betting is not open (the table is {s.phase.value})")


def _need_seat(s: TableState, seat: int) -> None:
    if not 1 <= seat <= s.paytable.seats:
        raise Refused(Reason.NO_SUCH_SEAT, f"there is no seat {seat}")


def _need_spot(s: TableState, seat: int, spot: int) -> None:
    if not 1 <= spot <= s.paytable.spot_count:
        raise Refused(Reason.NO_SUCH_SPOT, f"there is no spot {spot}")
    if s.paytable.layout is Layout.PER_SEAT and spot != seat:
        raise Refused(Reason.NOT_YOUR_SPOT, f"seat {seat} wagers on its own hand only")


def _need_amount(unit: int, amount: int) -> None:
    if amount <= 0:
        raise Refused(Reason.NOT_POSITIVE, "a wager must be a positive amount")
    if amount % unit:
        raise Refused(Reason.NOT_A_MULTIPLE_OF_UNIT,
                      f"wagers are in multiples of {_money(unit)}, not {_money(amount)}")


def _need_limit(name: str, limit: Limit, total: int) -> None:
    if total < limit.min_cents:
        raise Refused(Reason.UNDER_MINIMUM,
                      f"the {name} minimum is {_money(limit.min_cents)}, not {_money(total)}")
    if total > limit.max_cents:
        raise Refused(Reason.OVER_MAXIMUM,
                      f"the {name} maximum is {_money(limit.max_cents)}, not {_money(total)}")


def _need_credits(s: TableState, seat: int, amount: int) -> None:
    if s.credits[seat - 1] < amount:
        raise Refused(Reason.INSUFFICIENT_CREDITS,
                      f"seat {seat} has {_money(s.credits[seat - 1])}, needs {_money(amount)}")


def _money(cents: int) -> str:
    return f"${cents // 100:,}.{cents % 100:02d}"


_Handler = Callable[[TableState, Any], tuple[TableState, list[Event]]]
_HANDLERS: dict[type, _Handler] = {
    Shuffle: _shuffle, OpenBets: _open_bets, PlaceWager: _place, ClearWagers: _clear,
    RepeatWagers: _repeat, DoubleWagers: _double, CloseBets: _close_bets, Deal: _deal,
    Settle: _settle, Decide: _decide, CloseDecisions: _close_decisions, WarDeal: _war_deal,
    Void: _void, NextRound: _next_round, CashIn: _cash_in, CashOut: _cash_out,
}
