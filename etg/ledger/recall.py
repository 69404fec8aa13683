"""Game recall: a finished round as it was played, in plain text for an auditor (SPEC §5).

Everything shown comes from the hand ledger record: the cards and the wagers as
locked at No More Bets from its fields, every result from its events exactly as
the engine emitted them. Nothing is recomputed from the rules, so a recall
shows what happened even if a later paytable or a later version of the rules
would settle the same cards differently.

The text is ASCII apart from what the record itself holds (a void reason, a
wheel symbol), so it prints the same on a cabinet console, a log and paper.
Cards are shown in their ledger codes ("10H"); burned cards stay face down.
"""

from __future__ import annotations

from typing import Any

from etg.core.events import (
    BonusSpinTriggered,
    CutCardOut,
    DecisionMade,
    EnvyBonus,
    Event,
    HandPaid,
    JackpotLocked,
    JackpotValidated,
    PayoutHandMade,
    ProgressiveAwarded,
    ProgressiveContributed,
    RoundComplete,
    RoundVoided,
    SeatAbandoned,
    TipGiven,
    WagerSettled,
    WagerVoided,
    WheelStopped,
)
from etg.core.jackpot import validator_words
from etg.core.money import format_cents as money
from etg.core.money import format_gain as signed_money
from etg.core.paytable import AbandonedWager, ProgressiveLevel
from etg.core.settle import WagerKind
from etg.ledger.meters import round_events

WAGER_LABELS: dict[WagerKind, str] = {
    WagerKind.INITIAL: "Initial Wager",
    WagerKind.TIE: "Tie Wager",
    WagerKind.WAR: "War Wager",
    WagerKind.WAR_TIE: "Tie Wager on the War deal",
    WagerKind.PROGRESSIVE_PAYOUT: "Progressive Payout Wager",
    WagerKind.BONUS_SPIN: "Bonus Spin Xtreme",
    WagerKind.PROGRESSIVE: "Progressive award",
    WagerKind.ENVY_BONUS: "Envy Bonus",
}
"""What each wager is called on screen and in recall: the regulations' own names."""

LEVEL_LABELS: dict[ProgressiveLevel, str] = {
    ProgressiveLevel.PRIMARY: "Primary progressive",
    ProgressiveLevel.SECONDARY: "Secondary progressive",
    ProgressiveLevel.PROGRESSIVE_PAYOUT: "Progressive Payout meter",
}

# The wagers a player places while betting is open, as the record's ``wagers`` names them.
_PLACED = (("initial", WagerKind.INITIAL), ("tie", WagerKind.TIE),
           ("progressive_payout", WagerKind.PROGRESSIVE_PAYOUT))


def render_round(record: dict[str, Any]) -> str:
    """The round in ``record`` as lines of text, without a final newline."""
    events = round_events(record)
    lines = _header(record, events)
    lines += _cards(record)
    lines += _table_events(events)
    for seat in range(1, int(record["seats"]) + 1):
        lines += _seat(record, events, seat)
    meters = record.get("meters_after") or {}
    if meters:
        lines.append("Meters after: " + ", ".join(
            f"{LEVEL_LABELS[ProgressiveLevel(level)]} {money(cents)}"
            for level, cents in meters.items()))
    return "\n".join(lines)


# --- sections ----------------------------------------------------------------------------------

def _header(record: dict[str, Any], events: list[Event]) -> list[str]:
    outcome = str(record["outcome"])
    title = f"Round {record['round']}: {outcome}"
    if outcome == "voided":
        title = f"Round {record['round']}: VOIDED ({record.get('void_reason') or 'no reason'})"
    paytable = record["paytable"]
    shoe = record["shoe"]
    cut = "; the cut card came out" if any(isinstance(e, CutCardOut) for e in events) else ""
    dealer = record.get("dealer")  # MD Ch. 8 E(4); absent from records older than sign-in
    return [
        title,
        f"Paytable {paytable['id']}, sha256 {str(paytable['sha256'])[:12]}",
        f"Started {record['started_at']}, ended {record['ended_at']}",
        f"Shoe {shoe['shuffle_number']}, cut card at {shoe['cut_index']}{cut}",
        *([f"Dealer {dealer}"] if dealer else []),
    ]


def _cards(record: dict[str, Any]) -> list[str]:
    lines = [f"Dealer: {_with_war(record['dealer_card'], record['dealer_war_card'])}"]
    for spot, (card, war) in enumerate(zip(record["spot_cards"], record["war_cards"],
                                           strict=True), start=1):
        lines.append(f"Spot {spot}: {_with_war(card, war)}")
    return lines


def _with_war(card: str | None, war: str | None) -> str:
    return (card or "--") + (f", War card {war}" if war else "")


def _table_events(events: list[Event]) -> list[str]:
    """What happened to the whole table: meter contributions, the Bonus Spin and its wheel."""
    lines: list[str] = []
    for event in events:
        match event:
            case ProgressiveContributed(level=level, to_meter=to_meter, to_reserve=to_reserve,
                                        meter=meter):
                reserve = f" and {money(to_reserve)} to its reserve" if to_reserve else ""
                lines.append(f"Contribution: {LEVEL_LABELS[level]} +{money(to_meter)}{reserve}, "
                             f"meter {money(meter)}")
            case BonusSpinTriggered(card=card, seats=seats):
                lines.append(f"Bonus Spin triggered by {card.code} for seats "
                             f"{', '.join(str(s) for s in sorted(seats))}")
            case WheelStopped(stops=stops, community_symbol=community, hot_spot_symbol=hot_spot):
                lines.append(f"Wheel: Community ring stop {stops.community} \"{community}\", "
                             f"Seat ring stop {stops.seat}, "
                             f"Hot Spot ring stop {stops.hot_spot} \"{hot_spot}\"")
            case JackpotLocked(awards=awards):
                held = ", ".join(f"seat {a.seat} {WAGER_LABELS[a.payment.kind]} {money(a.win)}"
                                 f"{' (hand pay)' if a.hand_pay else ''}" for a in awards)
                lines.append(f"Jackpot lock: {held}")
            case JackpotValidated(validator=validator, role=role, amount=amount,
                                  hand_paid=hand_paid):
                lines.append(f"Jackpot validated by {validator_words(validator, role)}: "
                             f"{money(amount)}, of which {money(hand_paid)} paid by the "
                             f"attendant")
            case _:
                pass
    return lines


def _seat(record: dict[str, Any], events: list[Event], seat: int) -> list[str]:
    """One seat: its credits, the wagers it placed, and each of its results in order."""
    body = _placed(record, seat)
    for event in events:
        line = _seat_event(event, seat)
        if line:
            body.append(f"  {line}")
    if not body:
        return []
    before = record["credits_before"][seat - 1]
    after = record["credits_after"][seat - 1]
    net = next((f", net {signed_money(e.net[seat - 1])}" for e in events
                if isinstance(e, RoundComplete)), "")
    return [f"Seat {seat}: credits {money(before)} -> {money(after)}{net}", *body]


def _placed(record: dict[str, Any], seat: int) -> list[str]:
    lines: list[str] = []
    for spot, wagers in enumerate(record["wagers"][seat - 1], start=1):
        placed = [f"{WAGER_LABELS[kind]} {money(wagers[name])}" for name, kind in _PLACED
                  if wagers.get(name)]
        if placed:
            lines.append(f"  placed   spot {spot}: {', '.join(placed)}")
    bonus = record["bonus_spin"][seat - 1]
    if bonus:
        lines.append(f"  placed   {WAGER_LABELS[WagerKind.BONUS_SPIN]} {money(bonus)}")
    return lines


def _seat_event(event: Event, seat: int) -> str | None:
    """The recall line of ``event`` if it concerns ``seat``, else None."""
    match event:
        case DecisionMade(seat=s, spot=spot, decision=decision, by_default=by_default,
                          war_tie=war_tie) if s == seat:
            tie = f", with a {money(war_tie)} Tie Wager on the War deal" if war_tie else ""
            who = "by default" if by_default else "by the player"
            return f"decision spot {spot}: {decision.value.capitalize()}{tie}, {who}"
        case WagerSettled(seat=s, spot=spot, payment=payment, paid=paid, capped=capped) \
                if s == seat:
            stake = "" if payment.kind in _AWARDS else f", stake {money(payment.stake)}"
            cap = f", capped {money(capped)}" if capped else ""
            return (f"settled  {_where(spot)}{WAGER_LABELS[payment.kind]} "
                    f"{payment.result.value}{stake}, paid {money(paid)}{cap}")
        case PayoutHandMade(seat=s, spot=spot, hand=hand) if s == seat:
            return f"hand     spot {spot}: Progressive Payout Hand {hand.label}"
        case EnvyBonus(seat=s, holder_seat=holder, holder_spot=holder_spot, hand=hand) \
                if s == seat:
            return (f"envy     for seat {holder}'s {hand.label} "
                    f"on spot {holder_spot}")
        case ProgressiveAwarded(seat=s) if s == seat:
            return f"award    {_where(event.spot)}{_award(event)}"
        case RoundVoided(refunds=refunds) if refunds[seat - 1]:
            return f"void     credited {signed_money(refunds[seat - 1])}"
        case WagerVoided(seat=s, spot=spot, wagers=wagers, amount=amount, reason=reason) \
                if s == seat:
            voided = ", ".join(f"{WAGER_LABELS[p.kind]} {money(p.stake)}" for p in wagers)
            return (f"void     {_where(spot)}{voided} voided and returned, credited "
                    f"{money(amount)} ({reason})")
        case SeatAbandoned(seat=s, rule=rule, spots=spots) if s == seat:
            where = (f"tie hand on spot {spots[0]}" if len(spots) == 1 else
                     f"tie hands on spots {', '.join(str(spot) for spot in spots)}")
            return (f"abandoned seat marked abandoned by the supervisor; {where}: "
                    f"{_ABANDONED_RULE[rule]}")
        case HandPaid(seat=s, spot=spot, kind=kind, amount=amount, validator=validator,
                      role=role) if s == seat:
            return (f"hand pay {_where(spot)}{WAGER_LABELS[kind]} {money(amount)} paid by the "
                    f"attendant, validated by {validator_words(validator, role)}")
        case TipGiven(seat=s, dealer_id=dealer, amount=amount) if s == seat:
            return f"tip      {money(amount)} to dealer {dealer}"
    return None


_ABANDONED_RULE = {
    AbandonedWager.FORFEIT: "the Initial Wager is lost (MD Ch. 7 B(4))",
    AbandonedWager.DEFAULT_DECISION: "the paytable's default decision applies",
}


_AWARDS = frozenset({WagerKind.PROGRESSIVE, WagerKind.ENVY_BONUS})


def _where(spot: int) -> str:
    """Spot 0 is the seat's own (Bonus Spin, Envy Bonus): no spot to name."""
    return f"spot {spot}: " if spot else ""


def _award(e: ProgressiveAwarded) -> str:
    extra = "".join(f", {name} {money(cents)}" for name, cents in
                    (("seeded", e.seeded), ("from reserve", e.from_reserve)) if cents)
    return (f"{LEVEL_LABELS[e.level]} {money(e.amount)}, "
            f"meter {money(e.meter_before)} -> {money(e.meter_after)}{extra}")
