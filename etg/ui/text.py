"""A plain-text view of the table, for terminals and logs until the kiosk takes over.

It only reads the state and the events; every word of judgement (who won,
what was paid) comes from the engine's events.
"""

from __future__ import annotations

from etg.core.events import (
    BetsClosed,
    BetsOpened,
    BonusSpinTriggered,
    CardsBurned,
    CutCardOut,
    DecisionMade,
    EnvyBonus,
    Event,
    PayoutHandMade,
    PaytableSwitched,
    ProgressiveAwarded,
    RoundComplete,
    RoundVoided,
    ShoeShuffled,
    WagerSettled,
    WheelStopped,
)
from etg.core.money import format_cents as money
from etg.core.state import LEVELS, Phase, TableState

STATUS = {
    Phase.IDLE: "WAITING FOR THE DEALER",
    Phase.BETTING: "PLACE YOUR BETS",
    Phase.BETS_CLOSED: "NO MORE BETS",
    Phase.DEALT: "CARDS DEALT",
    Phase.DECISIONS: "TIE! WAR OR SURRENDER?",
    Phase.WAR_PENDING: "WAR",
    Phase.WAR_DEALT: "WAR",
    Phase.BONUS_SPIN: "BONUS SPIN!",
    Phase.COMPLETE: "ROUND COMPLETE",
    Phase.VOIDED: "ROUND VOID",
}


def render_table(state: TableState, demo: bool = False) -> str:
    """The table as a few lines of text: status, shoe, dealer, spots, seats."""
    p = state.paytable
    r = state.round
    lines = [f"{'DEMO  ' if demo else ''}{p.name}  ·  round {r.number}  ·  {STATUS[state.phase]}"]
    if state.shoe is not None:
        cut = "  · cut card out" if state.shoe.cut_card_out else ""
        lines.append(f"shoe {state.shoe.shuffle_number}: {state.shoe.remaining} cards left{cut}")
    dealer = str(r.dealer_card) if r.dealer_card else "--"
    war = f"   War: {r.dealer_war_card}" if r.dealer_war_card else ""
    lines.append(f"dealer  {dealer}{war}")
    spots = []
    for spot in range(1, p.spot_count + 1):
        card = r.spot_cards[spot - 1]
        war_card = r.war_cards[spot - 1]
        text = f"{spot}:{card if card else '--'}"
        spots.append(text + (f"/{war_card}" if war_card else ""))
    lines.append("spots   " + "  ".join(spots))
    meters = [f"{level.value.replace('_', ' ')} {money(m.cents)}"
              for level, m in zip(LEVELS, state.meters, strict=True) if m is not None]
    if meters:
        lines.append("meters  " + "  ·  ".join(meters))
    betting = state.phase is Phase.BETTING
    for seat in range(1, p.seats + 1):
        row = r.wagers[seat - 1] if betting else r.placed[seat - 1]
        bonus = (r.bonus_spin if betting else r.bonus_placed)[seat - 1]
        bets = [f"spot {spot} {money(w.initial)}" + (f" +tie {money(w.tie)}" if w.tie else "")
                + (f" +progressive {money(w.progressive_payout)}" if w.progressive_payout else "")
                for spot, w in enumerate(row, start=1) if w.initial]
        if bonus:
            bets.append(f"Bonus Spin {money(bonus)}")
        if bets or state.credits[seat - 1]:
            lines.append(f"seat {seat}  credits {money(state.credits[seat - 1]):>12}  "
                         + ("; ".join(bets) if bets else "no wagers"))
    return "\n".join(lines)


def describe(event: Event) -> str | None:
    """One line for the events a spectator would notice; None for the rest."""
    if isinstance(event, ShoeShuffled):
        return f"shoe shuffled ({event.reason.value})"
    if isinstance(event, BetsOpened):
        return "place your bets"
    if isinstance(event, BetsClosed):
        return "no more bets"
    if isinstance(event, CardsBurned):
        return f"{len(event.cards)} card{'s' if len(event.cards) > 1 else ''} burned"
    if isinstance(event, CutCardOut):
        return "cut card: last round of this shoe"
    if isinstance(event, DecisionMade):
        how = " (time up)" if event.by_default else ""
        return f"seat {event.seat} spot {event.spot}: {event.decision.value}{how}"
    if isinstance(event, WagerSettled):
        p = event.payment
        capped = f", {money(event.capped)} over the limit" if event.capped else ""
        where = f" spot {event.spot}" if event.spot else ""
        return (f"seat {event.seat}{where} {p.kind.value.replace('_', ' ')} {money(p.stake)}: "
                f"{p.result.value}, paid {money(event.paid)}{capped}")
    if isinstance(event, PayoutHandMade):
        return f"seat {event.seat} spot {event.spot}: {event.hand.value.replace('_', ' ')}"
    if isinstance(event, EnvyBonus):
        return (f"seat {event.seat}: Envy Bonus for seat {event.holder_seat}'s "
                f"{event.hand.value.replace('_', ' ')}")
    if isinstance(event, ProgressiveAwarded):
        return (f"seat {event.seat} wins {money(event.amount)} from the "
                f"{event.level.value.replace('_', ' ')} meter")
    if isinstance(event, BonusSpinTriggered):
        return f"BONUS SPIN! the dealer's {event.card} triggers the wheel"
    if isinstance(event, WheelStopped):
        return (f"wheel: community {event.community_symbol}, hot spot seat {event.stops.seat} "
                f"{event.hot_spot_symbol}")
    if isinstance(event, PaytableSwitched):
        return f"paytable switched: {event.old_id} -> {event.new_id}"
    if isinstance(event, RoundComplete):
        nets = ", ".join(f"seat {i} {money(n)}" for i, n in enumerate(event.net, start=1) if n)
        return f"round {event.round_number} complete" + (f": {nets}" if nets else "")
    if isinstance(event, RoundVoided):
        return f"round {event.round_number} void: {event.reason}"
    return None
