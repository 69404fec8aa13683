"""The round state machine: ``apply(state, command) -> (state, events)``.

A pure function of the paytable, the recorded draws (the shoe's shuffle, the
wheel's stops) and the commands: no clock, no randomness, no I/O. A refused
command raises :class:`Refused` and the caller keeps the state it had, so a
refusal can never change anything.

Money moves in integer cents between three places, and their sum only changes
by cash in and cash out: the seats' ``credits``, the wagers on the layout, and
the ``house`` (its net win). Placing a wager moves credits to the layout;
settling moves the layout to the seat or the house, and winnings from the house.
Progressive meters are the house's liability, kept beside it in ``meters``.

Seats and spots are numbered from 1, at the dealer's far left (MD Ch. 8 F).
Cards are dealt from spot 1 upward; wagers are settled seat by seat from the
dealer's right, highest seat first (MD Ch. 9 A, 58 Pa. Code § 651a.9(a)), or from
the dealer's left where the paytable's ``settle_from`` says so (PA 2011, S.D.).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeVar

from etg.core.cards import Card
from etg.core.cashier import Cashier
from etg.core.commands import (
    BetKind,
    CashIn,
    CashOut,
    ClearWagers,
    CloseBets,
    CloseDecisions,
    Command,
    ConfirmLinkedHit,
    Deal,
    Decide,
    DoubleWagers,
    LinkLevels,
    MarkAbandoned,
    NextRound,
    OpenBets,
    PlaceBonusSpin,
    PlaceWager,
    RepeatWagers,
    SetJackpotRules,
    SetLinkStatus,
    Settle,
    ShowLinkedMeters,
    Shuffle,
    SignInDealer,
    Spin,
    SwitchPaytable,
    Tip,
    ValidateJackpot,
    Void,
    VoidWager,
    WarDeal,
)
from etg.core.events import (
    BetsClosed,
    BetsOpened,
    BonusSpinTriggered,
    CardDealt,
    CardsBurned,
    CreditsIn,
    CreditsOut,
    CutCardOut,
    DecisionMade,
    DecisionsOpened,
    Events,
    JackpotLocked,
    JackpotRulesSet,
    JackpotValidated,
    LinkedContributed,
    PaytableSwitched,
    ProgressiveContributed,
    RoundComplete,
    RoundVoided,
    SeatAbandoned,
    ShoeShuffled,
    TableCleared,
    Target,
    WagerPlaced,
    WagersCleared,
)
from etg.core.evolve import evolve
from etg.core.floor import sign_in, tip
from etg.core.jackpot import AfterJackpot, JackpotLock, paid_on_validation
from etg.core.link import (
    confirm_linked_hit,
    link_levels,
    linked_wager_refusal,
    set_link_status,
    show_linked_meters,
    unconfirmed_refusal,
)
from etg.core.money import format_cents as _money
from etg.core.paytable import (
    AbandonedWager,
    Decision,
    Layout,
    Limit,
    Paytable,
    ProgressiveLevel,
    rule_violations,
)
from etg.core.progressive import MeterState, contribute
from etg.core.refusal import Reason, Refused
from etg.core.settle import (
    Outcome,
    Payment,
    Result,
    WagerKind,
    compare,
    settle_going_to_war,
    settle_original,
    settle_surrender,
    settle_war,
)
from etg.core.shoe import ShoeState, draw_problem
from etg.core.side_wagers import (
    collect_bonus_spin,
    settle_progressive_payouts,
    settle_spin,
    triggers,
)
from etg.core.state import (
    IN_PLAY,
    LEVELS,
    NO_WAGERS,
    VOIDABLE,
    Phase,
    Round,
    SpotWagers,
    TableState,
    empty_grid,
    empty_row,
    is_tie,
    new_round,
    new_table,
)
from etg.core.voids import void_wagers, voided_wagers
from etg.core.wheel import stops_problem

__all__ = ["Phase", "Round", "SpotWagers", "TableState", "apply", "new_table"]

T = TypeVar("T")


def apply(state: TableState, command: Command) -> tuple[TableState, Events]:
    """The table after ``command`` and what happened; raises :class:`Refused`."""
    handler = _HANDLERS.get(type(command))
    if handler is None:
        raise TypeError(f"not a command: {command!r}")
    if state.phase is _JACKPOT and type(command) not in _IN_JACKPOT_LOCK:
        seats = state.jackpot.seats if state.jackpot else ()
        who = ("seat " if len(seats) == 1 else "seats ") + ", ".join(map(str, seats))
        raise Refused(Reason.JACKPOT_LOCKED,
                      f"the table is locked on a jackpot ({who}) until a floorperson "
                      f"validates it (MD Ch. 9 J(4)(c))")
    return handler(state, command)


# --- between rounds -------------------------------------------------------------------------

def _shuffle(s: TableState, c: Shuffle) -> tuple[TableState, Events]:
    if s.phase is not Phase.IDLE:
        raise Refused(Reason.ROUND_IN_PROGRESS, "the shoe is shuffled only between rounds")
    problem = draw_problem(s.paytable.shoe, c.draw)
    if problem:
        raise Refused(Reason.INVALID_DRAW, problem)
    number = (s.shoe.shuffle_number if s.shoe else 0) + 1
    shoe = ShoeState(c.draw, shuffle_number=number)
    return evolve(s, shoe=shoe, shuffle_due=False), Events.of(
        ShoeShuffled, number, c.reason, c.draw.cut_index)


def _open_bets(s: TableState, c: OpenBets) -> tuple[TableState, Events]:
    _need_phase(s, Phase.IDLE, "betting opens between rounds")
    if s.shoe is None or s.shuffle_due:
        raise Refused(Reason.SHUFFLE_DUE, "the shoe must be shuffled before the next round")
    return evolve(s, phase=Phase.BETTING), Events.of(BetsOpened, s.round.number)


def _next_round(s: TableState, c: NextRound) -> tuple[TableState, Events]:
    if s.phase not in (Phase.COMPLETE, Phase.VOIDED):
        raise Refused(Reason.WRONG_PHASE, "the round is not over")
    number = s.round.number + 1
    return evolve(s, phase=Phase.IDLE, round=new_round(s.paytable, number),
                  last_bets=s.round.placed, last_bonus=s.round.bonus_placed), Events.of(
        TableCleared, number)


def refusal(state: TableState, command: Command) -> str | None:
    """The engine's reason to refuse ``command`` now, or None if it would be accepted.

    A pure dry run of :func:`apply`: a screen can disable a control and show the
    reason before anyone presses it, without a rule of its own.
    """
    try:
        apply(state, command)
    except Refused as refused:
        return refused.message
    return None


def _switch_paytable(s: TableState, c: SwitchPaytable) -> tuple[TableState, Events]:
    """A new game configuration: new shoe, the same round count, progressive meters carried.

    A meter the new paytable does not have would take the players' contributions
    with it, so such a switch is refused.
    """
    if s.phase is not Phase.IDLE:
        raise Refused(Reason.ROUND_IN_PROGRESS, "the paytable is switched only between rounds")
    seats = [i for i, credits in enumerate(s.credits, start=1) if credits]
    if seats:
        raise Refused(Reason.ROUND_IN_PROGRESS,
                      f"the paytable is switched only with no credits on the seats "
                      f"(seat {seats[0]} has {_money(s.credits[seats[0] - 1])})")
    problems = rule_violations(c.paytable)
    if problems:
        raise Refused(Reason.INVALID_PAYTABLE, f"not a valid paytable: {problems[0].message}")
    fresh = new_table(c.paytable)
    for linked in s.linked:
        if c.paytable.meter(linked.level) is None:
            raise Refused(Reason.NOT_OFFERED, f"the new paytable has no {linked.level.value} "
                                              f"meter for the floor's linked level")
    meters: list[MeterState | None] = list(fresh.meters)
    carried: list[ProgressiveLevel] = []
    for i, level in enumerate(LEVELS):
        old = s.meters[i]
        if old is None:
            continue
        if meters[i] is None:
            raise Refused(Reason.NOT_OFFERED, f"the new paytable has no {level.value} meter to "
                                              f"carry {_money(old.cents)} to")
        meters[i] = old
        carried.append(level)
    switched = evolve(fresh, round=new_round(c.paytable, s.round.number), meters=tuple(meters),
                      house=s.house, dealer=s.dealer, dealer_burn_due=s.dealer_burn_due,
                      jackpot_rules=s.jackpot_rules, linked=s.linked, link_down=s.link_down)
    return switched, Events.of(PaytableSwitched, s.paytable.id, c.paytable.id, tuple(carried))


def _cash_in(s: TableState, c: CashIn) -> tuple[TableState, Events]:
    _need_seat(s, c.seat)
    if c.amount <= 0:
        raise Refused(Reason.NOT_POSITIVE, "cash in must be a positive amount")
    credits = _add(s.credits, c.seat, c.amount)
    return evolve(s, credits=credits), Events.of(CreditsIn, c.seat, c.amount, credits[c.seat - 1])


def _cash_out(s: TableState, c: CashOut) -> tuple[TableState, Events]:
    _need_seat(s, c.seat)
    amount = s.credits[c.seat - 1]
    if amount <= 0:
        raise Refused(Reason.NO_CREDITS, f"seat {c.seat} has no credits")
    # MD Ch. 11: a void returns every wager of the round and takes back what it paid, so a
    # seat with any stake in the round in progress keeps its credits until the round is over.
    if s.phase in VOIDABLE and (_seat_total(s, c.seat) or s.round.staked[c.seat - 1]):
        raise Refused(Reason.ROUND_IN_PROGRESS,
                      f"seat {c.seat} has wagers in this round; cash out after the round "
                      f"(a void would return them)")
    return (evolve(s, credits=_add(s.credits, c.seat, -amount)),
            Events.of(CreditsOut, c.seat, amount))


# --- betting (MD Ch. 7) ---------------------------------------------------------------------

def _place(s: TableState, c: PlaceWager) -> tuple[TableState, Events]:
    _need_betting(s)
    p = s.paytable
    seat, spot, kind, amount = c.seat, c.spot, c.kind, c.amount
    _need_seat(s, seat)
    _need_spot(s, seat, spot)
    _need_amount(p.unit_cents, amount)
    row = s.round.wagers[seat - 1]
    current = row[spot - 1]
    if kind is _INITIAL:
        if not current.initial:
            _need_spot_limit(p.max_spots_per_seat, p.adjacent_spots_only, row, spot)
        total = current.initial + amount
        _need_limit("Initial Wager", p.limits.initial, total)
        wagers = evolve(current, initial=total)
    elif kind is _PROGRESSIVE_PAYOUT:
        _need_progressive_payout(p, current.initial, current.progressive_payout, amount)
        if s.linked:
            linked_wager_refusal(s, ProgressiveLevel.PROGRESSIVE_PAYOUT)
        total = amount
        wagers = evolve(current, progressive_payout=total)
    elif kind is _BONUS_SPIN:
        raise Refused(Reason.NO_SUCH_SPOT, "the Bonus Spin wager is per seat, not on a spot")
    else:
        if not current.initial:
            raise Refused(Reason.TIE_WITHOUT_INITIAL,
                          "a Tie Wager needs an Initial Wager on the same spot (MD Ch. 7 F(2))")
        total = current.tie + amount
        _need_limit("Tie Wager", p.limits.tie, total)
        wagers = evolve(current, tie=total)
    _need_credits(s, seat, amount)
    r = s.round
    credits = s.credits[seat - 1] - amount
    row = (*row[: spot - 1], wagers, *row[spot:])
    r = evolve(r, wagers=_put(r.wagers, seat, row), staked=_add(r.staked, seat, amount))
    s = evolve(s, credits=_put(s.credits, seat, credits), round=r)
    return s, Events.of(WagerPlaced, seat, spot, kind, amount, total, credits)


def _need_spot_limit(most: int, adjacent: bool, row: tuple[SpotWagers, ...], spot: int) -> None:
    """A new Initial Wager on ``spot`` keeps the seat on at most ``most`` spots, and where the
    paytable says ``adjacent_spots_only`` (every Maryland file), in one unbroken run.

    MD Ch. 7 E speaks of "the number of adjacent boxes on which a player may place a
    wager": spots 1 and 3 without 2 are refused (place 2 first).
    """
    spots = [n for n, w in enumerate(row, start=1) if w.initial]
    if len(spots) >= most:
        raise Refused(Reason.SPOT_LIMIT, f"a seat may wager on at most {most} spots (MD Ch. 7 E)")
    if not adjacent:
        return
    spots.append(spot)
    if max(spots) - min(spots) >= most:
        # MD Ch. 7 E: "the number of adjacent boxes on which a player may place a wager":
        # a seat's spots lie within that many adjacent boxes
        raise Refused(Reason.SPOT_LIMIT,
                      f"a seat's spots must be adjacent: spot {spot} is too far from "
                      f"spot {min(spots) if spot == max(spots) else max(spots)} "
                      f"(at most {most} adjacent spots, MD Ch. 7 E)")
    if max(spots) - min(spots) + 1 != len(spots):
        gap = next(n for n in range(min(spots), max(spots)) if n not in spots)
        raise Refused(Reason.SPOT_LIMIT,
                      f"a seat's spots must be adjacent: spot {spot} leaves spot {gap} "
                      f"empty between them (MD Ch. 7 E)")


def _place_bonus_spin(s: TableState, c: PlaceBonusSpin) -> tuple[TableState, Events]:
    _need_betting(s)
    seat, amount = c.seat, c.amount
    _need_seat(s, seat)
    _need_bonus_spin(s, seat, amount)
    r = s.round
    if r.bonus_spin[seat - 1]:
        raise Refused(Reason.ALREADY_WAGERED,
                      f"seat {seat} already has a Bonus Spin wager this round")
    _need_credits(s, seat, amount)
    credits = s.credits[seat - 1] - amount
    r = evolve(r, bonus_spin=_put(r.bonus_spin, seat, amount), staked=_add(r.staked, seat, amount))
    return evolve(s, credits=_put(s.credits, seat, credits), round=r), Events.of(
        WagerPlaced, seat, 0, _BONUS_SPIN, amount, amount, credits)


def _clear(s: TableState, c: ClearWagers) -> tuple[TableState, Events]:
    _need_betting(s)
    _need_seat(s, c.seat)
    refund = _seat_total(s, c.seat)
    if not refund:
        raise Refused(Reason.NOTHING_TO_CLEAR, f"seat {c.seat} has no wagers to clear")
    r = s.round
    wagers = _put(r.wagers, c.seat, empty_row(len(r.spot_cards)))
    s = evolve(s, credits=_add(s.credits, c.seat, refund),
               round=evolve(r, wagers=wagers, staked=_add(r.staked, c.seat, -refund),
                            bonus_spin=_put(r.bonus_spin, c.seat, 0)))
    return s, Events.of(WagersCleared, c.seat, refund, s.credits[c.seat - 1])


def _repeat(s: TableState, c: RepeatWagers) -> tuple[TableState, Events]:
    _need_betting(s)
    seat = c.seat
    _need_seat(s, seat)
    if _seat_total(s, seat):
        raise Refused(Reason.ALREADY_WAGERED, "REPEAT places last round's wagers on an empty seat")
    return _replace_row(s, seat, s.last_bets[seat - 1], s.last_bonus[seat - 1],
                        Reason.NOTHING_TO_REPEAT, remembered=True)


def _double(s: TableState, c: DoubleWagers) -> tuple[TableState, Events]:
    _need_betting(s)
    _need_seat(s, c.seat)
    row = s.round.wagers[c.seat - 1]
    if not _row_total(row):
        raise Refused(Reason.NOTHING_TO_DOUBLE, f"seat {c.seat} has no wagers to double")
    # The fixed-amount side wagers (Progressive Payout, Bonus Spin) stay as they are.
    doubled = tuple(evolve(w, initial=2 * w.initial, tie=2 * w.tie) for w in row)
    return _replace_row(s, c.seat, doubled, s.round.bonus_spin[c.seat - 1],
                        Reason.NOTHING_TO_DOUBLE)


_NOTHING = {Reason.NOTHING_TO_REPEAT: "seat {} had no wagers last round",
            Reason.NOTHING_TO_DOUBLE: "seat {} has no wagers to double"}


def _replace_row(s: TableState, seat: int, row: tuple[SpotWagers, ...], bonus: int,
                 nothing: Reason, remembered: bool = False) -> tuple[TableState, Events]:
    """Put ``row`` and ``bonus`` on the seat (REPEAT, DOUBLE), all or nothing, after every check.

    Each spot is checked as its own PLACE would be, and the events are those of placing the
    wagers one by one. A row with no wager on it is refused for ``nothing``. ``remembered``:
    the row is one that comes back round after round (REPEAT's), whose checks are kept.
    """
    r = s.round
    i = seat - 1
    before = r.wagers[i]
    if s.linked:  # a linked level's wager is checked against the link as it is now
        change = _check_row_change(s.paytable, before, row, s)
    elif remembered:
        change = _row_change(s.paytable, before, row)
    else:
        change = _check_row_change(s.paytable, before, row)
    if not change.placed:
        raise Refused(nothing, _NOTHING[nothing].format(seat))
    was_bonus = r.bonus_spin[i]
    if bonus:
        _need_bonus_spin(s, seat, bonus, initial=change.initial)
    added = change.placed + bonus - change.taken - was_bonus
    _need_credits(s, seat, added)
    events = Events()
    record = events.record
    credits = s.credits[i]
    for spot, kind, amount, total in change.placements:
        credits -= amount
        record(WagerPlaced, seat, spot, kind, amount, total, credits)
    if bonus != was_bonus:
        credits -= bonus - was_bonus
        record(WagerPlaced, seat, 0, _BONUS_SPIN, bonus, bonus, credits)
    r = evolve(r, wagers=_put(r.wagers, seat, row), bonus_spin=_put(r.bonus_spin, seat, bonus),
               staked=_add(r.staked, seat, added))
    return evolve(s, credits=_add(s.credits, seat, -added), round=r), events


@dataclass(frozen=True, slots=True)
class _RowChange:
    """One seat's row of spots put in place of another, checked against the paytable."""

    placements: tuple[tuple[int, BetKind, int, int], ...]  # (spot, kind, added, total), in order
    placed: int  # cents on the new row
    taken: int  # cents on the row it replaces
    initial: bool  # the new row holds an Initial Wager


def _row_change(p: Paytable, before: tuple[SpotWagers, ...],
                after: tuple[SpotWagers, ...]) -> _RowChange:
    """:func:`_check_row_change` on a table with no linked levels, worked out once per rows.

    REPEAT puts last round's row, the very tuple, on an empty row, the shared
    :func:`~etg.core.state.empty_row`, round after round: those checks and placements are
    the same every time. Keyed by identity (a row's hash would cost more than it saves); an
    entry holds its objects, so no key's ids can be reused while it is kept.
    """
    key = (id(p), id(before), id(after))
    known = _ROW_CHANGES.get(key)
    if known is not None:
        return known[3]
    change = _check_row_change(p, before, after)
    if len(_ROW_CHANGES) >= _ROW_CHANGES_KEPT:  # a few per seat are ever in use
        _ROW_CHANGES.clear()
    _ROW_CHANGES[key] = (p, before, after, change)
    return change


_ROW_CHANGES: dict[tuple[int, int, int], tuple[Any, Any, Any, _RowChange]] = {}
_ROW_CHANGES_KEPT = 256


def _check_row_change(p: Paytable, before: tuple[SpotWagers, ...], after: tuple[SpotWagers, ...],
                      linked: TableState | None = None) -> _RowChange:
    """What ``after`` in place of ``before`` places, spot by spot, each checked as its PLACE
    would be; raises :class:`Refused`. ``linked``: the table, whose linked levels a
    Progressive Payout Wager is checked against as well."""
    limits = p.limits
    placements: list[tuple[int, BetKind, int, int]] = []
    taken = placed = 0  # cents on the seat's spots before and after
    initial = False
    for spot, (was, now) in enumerate(zip(before, after, strict=True), start=1):
        if now is was is NO_WAGERS:
            continue
        if was is not NO_WAGERS:
            taken += was.on_table
        if now is not NO_WAGERS:
            if now.initial:
                _need_limit("Initial Wager", limits.initial, now.initial)
                initial = True
            if now.tie:
                _need_limit("Tie Wager", limits.tie, now.tie)
            if now.progressive_payout:
                _need_progressive_payout(p, now.initial, 0, now.progressive_payout)
                if linked is not None:
                    linked_wager_refusal(linked, ProgressiveLevel.PROGRESSIVE_PAYOUT)
            placed += now.on_table
        if now is not was:
            for kind, before_cents, after_cents in (
                    (_INITIAL, was.initial, now.initial), (_TIE, was.tie, now.tie),
                    (_PROGRESSIVE_PAYOUT, was.progressive_payout, now.progressive_payout)):
                if after_cents != before_cents:
                    placements.append((spot, kind, after_cents - before_cents, after_cents))
    return _RowChange(tuple(placements), placed, taken, initial)


def _close_bets(s: TableState, c: CloseBets) -> tuple[TableState, Events]:
    _need_phase(s, Phase.BETTING, "betting is not open")
    r = s.round
    empty = empty_row(len(r.spot_cards))
    initial = False  # an Initial Wager anywhere on the layout
    payout = 0  # the Progressive Payout Wagers, for their meter
    for row in r.wagers:
        if row is not empty:
            for w in row:
                if w is not NO_WAGERS:
                    if w.initial:
                        initial = True
                    payout += w.progressive_payout
    if not initial:
        raise Refused(Reason.NO_WAGERS, "no Initial Wager has been placed")
    events = Events.of(BetsClosed, r.number)
    meters = list(s.meters)
    bonus = sum(r.bonus_spin)
    fed_by = (bonus, bonus, payout)  # in LEVELS order: primary, secondary, Progressive Payout
    for i, level in enumerate(LEVELS):  # MD Ch. 10 C(1), D(3)(a): at No More Bets
        meter, wagers = meters[i], fed_by[i]
        if meter is None or not wagers:
            continue
        if s.linked and s.linked_meter(level) is not None:
            _contribute_linked(s, level, events)  # the floor's controller adds the share
            continue
        rules = s.paytable.meter(level)
        if rules is None:
            continue
        after, done = contribute(rules, meter, wagers)
        meters[i] = after
        events.record(ProgressiveContributed, level, wagers, done.millionths, done.to_meter,
                      done.to_reserve, after.cents)
    r = evolve(r, placed=r.wagers, bonus_placed=r.bonus_spin, meters_before=s.meters)
    return evolve(s, phase=Phase.BETS_CLOSED, round=r, meters=tuple(meters)), events


def _contribute_linked(s: TableState, level: ProgressiveLevel, events: Events) -> None:
    """Each seat's wagers feeding the linked ``level``, for the outbox to ship (SPEC §13).

    Per seat, as the controller keys a contribution by (table, round, seat, level).
    """
    r = s.round
    for seat in range(1, s.paytable.seats + 1):
        if level is ProgressiveLevel.PROGRESSIVE_PAYOUT:
            wagers = sum(w.progressive_payout for w in r.wagers[seat - 1])
        else:
            wagers = r.bonus_spin[seat - 1]
        if wagers:
            events.record(LinkedContributed, level, seat, wagers)


# --- the deals (MD Ch. 8, Ch. 9 H) ----------------------------------------------------------

def _deal(s: TableState, c: Deal) -> tuple[TableState, Events]:
    _need_phase(s, Phase.BETS_CLOSED, "the original deal follows No More Bets")
    assert s.shoe is not None
    events = Events()
    dealer = _Dealer(s.shoe, events)
    if not s.shoe.burned:  # MD Ch. 8 E(1): the first card after a shuffle is burned
        dealer.burn(1)
    if s.dealer_burn_due:  # MD Ch. 8 E(4): each new dealer "shall also" burn the first card
        dealer.burn(1)
    r = s.round
    cards: list[Card | None] = [None] * len(r.spot_cards)
    for spot in _spots_in_play(s):  # MD Ch. 8 F(1): from the dealer's left, spot 1 upward
        cards[spot - 1] = dealer.deal(_SPOT, spot, war=False)
    dealer_card = dealer.deal(_DEALER, 0, war=False)  # MD Ch. 8 F(2)
    r = evolve(r, spot_cards=tuple(cards), dealer_card=dealer_card)
    return evolve(s, phase=Phase.DEALT, shoe=dealer.shoe(burned=True), round=r,
                  dealer_burn_due=False), events


def _war_deal(s: TableState, c: WarDeal) -> tuple[TableState, Events]:
    _need_phase(s, Phase.WAR_PENDING, "the War deal follows the War Wagers")
    assert s.shoe is not None
    events = Events()
    dealer = _Dealer(s.shoe, events)
    burns = s.paytable.war_burn
    if burns.before_players:  # MD Ch. 9 H: three cards burned face down
        dealer.burn(burns.before_players)
    r = s.round
    war_cards: list[Card | None] = [None] * len(r.spot_cards)
    at_war = {spot for row in r.wagers for spot, w in enumerate(row, start=1)
              if w.decision is _WAR}
    for spot in range(1, len(r.spot_cards) + 1):
        # MD Ch. 9 H: a War card to each spot with a War Wager; none where all surrendered
        if spot in at_war:
            war_cards[spot - 1] = dealer.deal(_SPOT, spot, war=True)
    if burns.before_dealer:  # S.D. 20:18:16:15.17(4)(d): "The dealer burns three more cards"
        dealer.burn(burns.before_dealer)
    dealer_card = dealer.deal(_DEALER, 0, war=True)
    r = evolve(r, war_cards=tuple(war_cards), dealer_war_card=dealer_card)
    return evolve(s, phase=Phase.WAR_DEALT, shoe=dealer.shoe(), round=r), events


class _Dealer:
    """Deals from the shoe within one command, recording each card as an event.

    The cut card comes out before the card it stands in front of (MD Ch. 8 G).
    """

    def __init__(self, shoe: ShoeState, events: Events) -> None:
        self._shoe = shoe
        self._position = shoe.position
        self._events = events

    def _next(self) -> Card:
        if self._position == self._shoe.draw.cut_index:
            self._events.record(CutCardOut)
        card = self._shoe.card_at(self._position)
        self._position += 1
        return card

    def burn(self, count: int) -> None:
        self._events.record(CardsBurned, tuple(self._next() for _ in range(count)))

    def deal(self, target: Target, spot: int, war: bool) -> Card:
        card = self._next()
        self._events.record(CardDealt, target, spot, card, war)
        return card

    def shoe(self, **changes: Any) -> ShoeState:
        return evolve(self._shoe, position=self._position, **changes)




# --- settlement (MD Ch. 9 B, E, I; Ch. 10 A) ------------------------------------------------

def _settle(s: TableState, c: Settle) -> tuple[TableState, Events]:
    if s.phase is Phase.DEALT:
        return _settle_original(s)
    if s.phase is Phase.WAR_DEALT:
        return _settle_war(s)
    raise Refused(Reason.WRONG_PHASE, "there is no deal to settle")


def _settle_original(s: TableState) -> tuple[TableState, Events]:
    p = s.paytable
    r = s.round
    assert r.dealer_card is not None
    events = Events()
    cashier = Cashier(s, events)
    pending: list[tuple[int, int]] = []
    outcomes = [None if card is None else compare(card, r.dealer_card) for card in r.spot_cards]
    for seat, spot, w in cashier.hands():
        outcome = outcomes[spot - 1]
        assert outcome is not None
        cashier.pay(seat, spot, settle_original(p.payouts, outcome, w.initial, w.tie))
        if outcome is _TIED and w.initial:
            pending.append((seat, spot))  # the Initial Wager awaits War or Surrender
    if pending:
        if cashier.held:  # a big Tie Wager win: validated before the decisions open
            return _lock(cashier, AfterJackpot.DECISIONS)
        events.record(DecisionsOpened, tuple(pending))
        return cashier.state(phase=Phase.DECISIONS), events
    return _finish(cashier)


def _decide(s: TableState, c: Decide) -> tuple[TableState, Events]:
    _need_phase(s, Phase.DECISIONS, "there is no tie hand to decide")
    _need_seat(s, c.seat)
    if not 1 <= c.spot <= len(s.round.spot_cards):
        raise Refused(Reason.NO_SUCH_SPOT, f"there is no spot {c.spot}")
    w = s.round.wagers[c.seat - 1][c.spot - 1]
    if w.decision is not None:
        raise Refused(Reason.ALREADY_DECIDED,
                      f"seat {c.seat} has already chosen {w.decision.value} on spot {c.spot}")
    if not w.initial or not is_tie(s.round, c.spot):
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
    events = Events()
    cashier = Cashier(s, events)
    _make_decision(cashier, c.seat, c.spot, c.decision, c.war_tie, False)
    return _after_decision(cashier)


def _close_decisions(s: TableState, c: CloseDecisions) -> tuple[TableState, Events]:
    _need_phase(s, Phase.DECISIONS, "there are no decisions to close")
    events = Events()
    cashier = Cashier(s, events)
    default = s.paytable.default_decision
    for seat, spot in s.pending_decisions():
        initial = cashier.wager(seat, spot).initial
        # A seat that cannot cover the War Wager surrenders (SPEC §2 step 5).
        can_cover = cashier.credits[seat - 1] >= initial
        decision = default if can_cover else Decision.SURRENDER
        _make_decision(cashier, seat, spot, decision, 0, True)
    return _after_decision(cashier)


def _make_decision(
    cashier: Cashier, seat: int, spot: int, decision: Decision, war_tie: int, by_default: bool
) -> None:
    w = cashier.wager(seat, spot)
    if decision is Decision.SURRENDER:
        cashier.set_wager(seat, spot, evolve(w, decision=decision))
        cashier.events.record(DecisionMade, seat, spot, decision, by_default, 0,
                              cashier.credits[seat - 1])
        cashier.pay(seat, spot, [settle_surrender(w.initial)])
        return
    # MD Ch. 9 E(2): a War Wager equal to the Initial Wager
    cashier.stake(seat, spot, w.initial + war_tie,
                  evolve(w, war=w.initial, war_tie=war_tie, decision=decision))
    cashier.events.record(DecisionMade, seat, spot, decision, by_default, war_tie,
                          cashier.credits[seat - 1])
    cashier.pay(seat, spot, settle_going_to_war(cashier.s.paytable.war_form, w.initial))


def _after_decision(cashier: Cashier) -> tuple[TableState, Events]:
    s = cashier.state()
    if s.pending_decisions():
        return s, cashier.events
    empty = empty_row(len(s.round.spot_cards))
    if any(w.decision is _WAR for row in cashier.wagers if row is not empty for w in row):
        return evolve(s, phase=Phase.WAR_PENDING), cashier.events
    return _finish(cashier)


def _settle_war(s: TableState) -> tuple[TableState, Events]:
    p = s.paytable
    r = s.round
    assert r.dealer_war_card is not None
    events = Events()
    cashier = Cashier(s, events)
    for seat, spot, w in cashier.hands():
        if w.decision is not _WAR:
            continue
        card = r.war_cards[spot - 1]
        assert card is not None
        outcome = compare(card, r.dealer_war_card)
        cashier.pay(seat, spot, settle_war(p.war_form, p.payouts, outcome, w.initial, w.war,
                                           w.war_tie))
    return _finish(cashier)


def _finish(cashier: Cashier) -> tuple[TableState, Events]:
    """After the main game: Progressive Payout Wagers, then the Bonus Spin (SPEC §2 step 8)."""
    settle_progressive_payouts(cashier)
    if cashier.held:  # MD Ch. 9 J(4): the hand is validated before anything else happens
        return _lock(cashier, AfterJackpot.BONUS_SPIN)
    return _bonus_spin_or_complete(cashier)


def _bonus_spin_or_complete(cashier: Cashier) -> tuple[TableState, Events]:
    """The Bonus Spin if it is triggered and wagered on; otherwise the round is complete."""
    s = cashier.s
    bonus = s.paytable.bonus_spin
    r = s.round
    seats = tuple([seat for seat in s.settlement_seats if cashier.bonus[seat - 1]])
    if seats and bonus is not None and r.dealer_card is not None:
        if triggers(bonus, r.dealer_card):
            cashier.events.record(BonusSpinTriggered, r.dealer_card, seats)
            return cashier.state(phase=Phase.BONUS_SPIN), cashier.events
        collect_bonus_spin(cashier)
    return _complete(cashier)


def _spin(s: TableState, c: Spin) -> tuple[TableState, Events]:
    _need_phase(s, Phase.BONUS_SPIN, "the wheel spins only when the Bonus Spin is triggered")
    assert s.paytable.bonus_spin is not None
    problem = stops_problem(s.paytable.bonus_spin, s.paytable.seats, c.stops)
    if problem:
        raise Refused(Reason.INVALID_DRAW, problem)
    events = Events()
    cashier = Cashier(s, events)
    settle_spin(cashier, c.stops)
    if cashier.held:  # a Hot Spot progressive, or a Bonus Spin award of a hand pay's size
        return _lock(cashier, AfterJackpot.COMPLETE, {"wheel": c.stops})
    return _complete(cashier, {"wheel": c.stops})


# --- jackpot validation and hand pays (MD Ch. 9 J(4)) ---------------------------------------

def _lock(cashier: Cashier, then: AfterJackpot,
          round_changes: dict[str, Any] | None = None) -> tuple[TableState, Events]:
    """Stop the round on its held awards: the hand and the progressive light stay on screen."""
    number = cashier.s.round.number
    lock = JackpotLock(number, tuple(cashier.held), then)
    cashier.held.clear()
    cashier.events.record(JackpotLocked, number, lock.awards)
    return cashier.state(phase=Phase.JACKPOT, jackpot=lock,
                         round_changes=round_changes or {}), cashier.events


def _validate_jackpot(s: TableState, c: ValidateJackpot) -> tuple[TableState, Events]:
    """MD Ch. 9 J(4)(c)-(e): validated, the hand is paid, then its Envy Bonuses; play goes on.

    Each award goes to the credits, or to the attendant when it was held as a hand
    pay; the round then takes the step the lock interrupted.
    """
    lock = s.jackpot
    if s.phase is not Phase.JACKPOT or lock is None:
        raise Refused(Reason.NO_JACKPOT, "there is no jackpot to validate")
    if not c.validator.strip():
        raise Refused(Reason.NO_JACKPOT, "a validation names the floorperson who made it")
    unconfirmed_refusal(s)
    if c.validator == s.dealer:
        # MD Ch. 9 J(4)(c): "a floorperson or above validates"; the dealer whose table it
        # is never validates its own jackpot, whatever PIN is offered (SPEC §5).
        raise Refused(Reason.NOT_A_VALIDATOR,
                      f"dealer {s.dealer} deals this table and cannot validate its jackpot: "
                      f"a floorperson or above validates it (MD Ch. 9 J(4)(c))")
    events = Events.of(JackpotValidated, lock.round_number, c.validator, lock.amount,
                       lock.hand_pay_amount, c.role)
    cashier = Cashier(evolve(s, jackpot=None), events)
    for held in lock.awards:
        cashier.release(held, lock.round_number, c.validator, c.role)
    if lock.then is AfterJackpot.DECISIONS:
        decided = cashier.state(phase=Phase.DECISIONS)
        events.record(DecisionsOpened, decided.pending_decisions())
        return decided, events
    if lock.then is AfterJackpot.BONUS_SPIN:
        return _bonus_spin_or_complete(cashier)
    return _complete(cashier)


def _set_jackpot_rules(s: TableState, c: SetJackpotRules) -> tuple[TableState, Events]:
    """The cabinet's hand-pay threshold; awards already held keep the decision they were held
    with."""
    rules = c.rules
    if rules is not None and rules.hand_pay_cents <= 0:
        raise Refused(Reason.NOT_POSITIVE, "the hand-pay threshold must be a positive amount")
    before = s.jackpot_rules
    return evolve(s, jackpot_rules=rules), Events.of(
        JackpotRulesSet, None if rules is None else rules.hand_pay_cents,
        None if before is None else before.hand_pay_cents)


def _complete(cashier: Cashier,
              round_changes: dict[str, Any] | None = None) -> tuple[TableState, Events]:
    """The round is over: each seat's net, and a reshuffle due if the cut card came out."""
    s = cashier.s
    assert s.shoe is not None
    net = tuple([back - put for back, put in zip(cashier.returned, cashier.staked, strict=True)])
    due = s.shoe.cut_card_out
    cashier.events.record(RoundComplete, s.round.number, net, due)
    return cashier.state(phase=Phase.COMPLETE, shuffle_due=due,
                         round_changes=round_changes or {}), cashier.events


# --- void (MD Ch. 11) -----------------------------------------------------------------------

def _void(s: TableState, c: Void) -> tuple[TableState, Events]:
    if s.phase not in VOIDABLE:
        raise Refused(Reason.WRONG_PHASE, "there is no round in progress to void")
    if not c.reason.strip():
        raise Refused(Reason.WRONG_PHASE, "a void needs a reason")
    r = s.round
    if s.jackpot is not None and any(a.linked is not None for a in s.jackpot.awards):
        # SPEC §13: the floor's controller has paid (or will pay) the level for this hit and
        # reset it on every linked table; only the validation finishes such a round.
        raise Refused(Reason.JACKPOT_PAID,
                      f"round {r.number} holds a linked progressive hit: the floor's meter is "
                      f"paid for it, so the round is finished by its validation, not voided "
                      f"(SPEC §13; MD Ch. 9 J(4))")
    if paid_on_validation(r.settled(), s.jackpot_rules):
        # SPEC §2: what a validated jackpot paid stays paid and on its meters; a void would
        # put a paid meter back on display (a jackpot paid twice) and lose the hand pay.
        raise Refused(Reason.JACKPOT_PAID,
                      f"round {r.number} has paid a validated jackpot: what was paid stays "
                      f"paid and on its meters, so the round is finished, not voided "
                      f"(SPEC §2; MD Ch. 9 J(4))")
    refunds = tuple(put - back for put, back in zip(r.staked, r.returned, strict=True))
    credits = tuple(c_ + f for c_, f in zip(s.credits, refunds, strict=True))
    house = s.house - (sum(refunds) - s.on_table)
    # The round's meter contributions and awards are undone with its wagers.
    meters = r.meters_before or s.meters
    r = evolve(r, wagers=empty_grid(s.paytable), returned=r.staked,
               bonus_spin=(0,) * s.paytable.seats)
    due = s.shoe.cut_card_out if s.shoe else True
    # A void during a jackpot lock returns the wagers and drops the held awards with them.
    return (evolve(s, phase=Phase.VOIDED, credits=credits, house=house, round=r, shuffle_due=due,
                   meters=meters, jackpot=None),
            Events.of(RoundVoided, r.number, c.reason, refunds))


def _void_wager(s: TableState, c: VoidWager) -> tuple[TableState, Events]:
    """One seat's wagers on a spot, or one side wager, returned while no card has been dealt
    to them (MD Ch. 11 C).

    The round goes on for the rest, at the same step: a wager voided before the deal
    that decides it leaves every decision, War Wager and Bonus Spin wager of the
    round as it was.
    """
    wagers = voided_wagers(s, c)
    events = Events()
    cashier = Cashier(s, events)
    void_wagers(cashier, c, wagers)
    return cashier.state(), events


def _mark_abandoned(s: TableState, c: MarkAbandoned) -> tuple[TableState, Events]:
    """The seat's player left (MD Ch. 7 B(3)-(4)): its pending decisions take the paytable's
    ``abandoned_wager`` at once, the seat's other wagers ride and settle as usual."""
    _need_phase(s, Phase.DECISIONS, "a seat is marked abandoned while its tie hands await War "
                                    "or Surrender (MD Ch. 7 B(3)-(4))")
    _need_seat(s, c.seat)
    spots = tuple(spot for seat, spot in s.pending_decisions() if seat == c.seat)
    if not spots:
        raise Refused(Reason.NO_DECISION_PENDING,
                      f"seat {c.seat} has no tie hand awaiting War or Surrender "
                      f"(MD Ch. 7 B(3)-(4))")
    rule = s.paytable.abandoned_wager
    events = Events.of(SeatAbandoned, c.seat, rule, spots)
    cashier = Cashier(s, events)
    for spot in spots:
        initial = cashier.wager(c.seat, spot).initial
        if rule is AbandonedWager.FORFEIT:
            # MD Ch. 7 B(4): "may be considered abandoned and may be treated as a losing wager"
            cashier.pay(c.seat, spot, [Payment(WagerKind.INITIAL, Result.ABANDONED, initial)])
        else:
            # As when the decision countdown runs out (SPEC §2 step 5)
            can_cover = cashier.credits[c.seat - 1] >= initial
            decision = s.paytable.default_decision if can_cover else Decision.SURRENDER
            _make_decision(cashier, c.seat, spot, decision, 0, True)
    return _after_decision(cashier)


# --- helpers --------------------------------------------------------------------------------

def _spots_in_play(s: TableState) -> list[int]:
    """Community: every spot gets a card; per seat: each player with an Initial Wager.

    The Initial Wagers still on the layout: one a supervisor voided gets no card.
    """
    spots = range(1, s.paytable.spot_count + 1)
    if s.paytable.layout is Layout.COMMUNITY:
        return list(spots)
    return [spot for spot in spots if any(row[spot - 1].initial for row in s.round.wagers)]


def _row_total(row: tuple[SpotWagers, ...]) -> int:
    return sum(w.on_table for w in row if w is not NO_WAGERS)


def _seat_total(s: TableState, seat: int) -> int:
    """Everything the seat has on the layout, Bonus Spin included."""
    r = s.round
    row = r.wagers[seat - 1]
    on_spots = 0 if row is empty_row(len(row)) else _row_total(row)
    return on_spots + r.bonus_spin[seat - 1]


def _put(values: tuple[T, ...], seat: int, value: T) -> tuple[T, ...]:
    """``values`` with the seat's replaced by ``value``."""
    changed = list(values)
    changed[seat - 1] = value
    return tuple(changed)


def _add(values: tuple[int, ...], seat: int, delta: int) -> tuple[int, ...]:
    """``values`` with ``delta`` added to the seat's."""
    changed = list(values)
    changed[seat - 1] += delta
    return tuple(changed)


def _need_phase(s: TableState, phase: Phase, message: str) -> None:
    if s.phase is not phase:
        raise Refused(Reason.WRONG_PHASE, f"{message} (the table is {s.phase.value})")


def _need_betting(s: TableState) -> None:
    if s.phase is _BETTING:
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
    if spot != seat and s.paytable.layout is Layout.PER_SEAT:
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


def _need_progressive_payout(p: Paytable, initial: int, placed: int, amount: int) -> None:
    """``amount`` may join the spot's ``initial`` and the ``placed`` Progressive Payout Wager."""
    rules = p.progressive_payout
    if rules is None:
        raise Refused(Reason.NOT_OFFERED, "this paytable offers no Progressive Payout Wager")
    if not initial:
        raise Refused(Reason.INITIAL_REQUIRED, "a Progressive Payout Wager needs an Initial "
                                               "Wager on the same spot (MD Ch. 7 F(3)(a))")
    if placed:
        raise Refused(Reason.ALREADY_WAGERED, "the Progressive Payout Wager is already placed")
    if amount != rules.wager_cents:
        raise Refused(Reason.WRONG_AMOUNT, f"the Progressive Payout Wager is "
                                           f"{_money(rules.wager_cents)}, not {_money(amount)}")


def _need_bonus_spin(s: TableState, seat: int, amount: int, initial: bool | None = None) -> None:
    bonus = s.paytable.bonus_spin
    if bonus is None:
        raise Refused(Reason.NOT_OFFERED, "this paytable offers no Bonus Spin Xtreme wager")
    if amount not in bonus.denominations_cents:
        choices = " or ".join(_money(d) for d in bonus.denominations_cents)
        raise Refused(Reason.WRONG_AMOUNT,
                      f"a Bonus Spin wager is {choices} (MD Ch. 7 F(4)), not {_money(amount)}")
    if s.linked:
        linked_wager_refusal(s, ProgressiveLevel.PRIMARY)
        linked_wager_refusal(s, ProgressiveLevel.SECONDARY)
    if initial is None:
        initial = any(w.initial for w in s.round.wagers[seat - 1])
    if not initial:
        raise Refused(Reason.INITIAL_REQUIRED,
                      "a Bonus Spin wager needs an Initial Wager (MD Ch. 7 F(4))")


def _need_credits(s: TableState, seat: int, amount: int) -> None:
    if s.credits[seat - 1] < amount:
        raise Refused(Reason.INSUFFICIENT_CREDITS,
                      f"seat {seat} has {_money(s.credits[seat - 1])}, needs {_money(amount)}")


# Enum members are class attributes behind a descriptor in CPython 3.11 (tens of nanoseconds
# a look-up); the checks that run for every wager use these module-level names.
_BETTING = Phase.BETTING
_INITIAL, _TIE = BetKind.INITIAL, BetKind.TIE
_PROGRESSIVE_PAYOUT, _BONUS_SPIN = BetKind.PROGRESSIVE_PAYOUT, BetKind.BONUS_SPIN
_WAR = Decision.WAR
_TIED = Outcome.TIE
_SPOT, _DEALER = Target.SPOT, Target.DEALER
_JACKPOT = Phase.JACKPOT

# MD Ch. 9 J(4)(c): while a jackpot waits for its validation, play stops; the supervisor may
# still void the round, and a seat with nothing in the round may still be paid out.
# SPEC §13: the controller's answers (its meters, its amount for a linked hit, the link's
# state) come in whatever the table is doing.
_IN_JACKPOT_LOCK = frozenset({ValidateJackpot, Void, CashOut, ShowLinkedMeters, SetLinkStatus,
                              ConfirmLinkedHit})

_Handler = Callable[[TableState, Any], tuple[TableState, Events]]
_HANDLERS: dict[type, _Handler] = {
    Shuffle: _shuffle, OpenBets: _open_bets, PlaceWager: _place,
    PlaceBonusSpin: _place_bonus_spin, Spin: _spin, ClearWagers: _clear,
    RepeatWagers: _repeat, DoubleWagers: _double, CloseBets: _close_bets, Deal: _deal,
    Settle: _settle, Decide: _decide, CloseDecisions: _close_decisions, WarDeal: _war_deal,
    Void: _void, NextRound: _next_round, CashIn: _cash_in, CashOut: _cash_out,
    SwitchPaytable: _switch_paytable, VoidWager: _void_wager, MarkAbandoned: _mark_abandoned,
    ValidateJackpot: _validate_jackpot, SignInDealer: sign_in,
    Tip: tip, SetJackpotRules: _set_jackpot_rules, LinkLevels: link_levels,
    ShowLinkedMeters: show_linked_meters, SetLinkStatus: set_link_status,
    ConfirmLinkedHit: confirm_linked_hit,
}
