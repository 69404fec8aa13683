"""Settlement of Casino War wagers: pure functions shared by the round and the math.

Each function returns :class:`Payment` records, one per wager, in the
jurisdiction's own terms. The round engine applies them to credits; the exact
math multiplies them by probabilities. Neither re-states a payout rule.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from functools import lru_cache

from etg.core.cards import Card
from etg.core.paytable import Payouts, WarForm


class Outcome(Enum):
    """A spot's card against the dealer's (MD Ch. 9 B, I)."""

    __hash__ = object.__hash__  # members are singletons: hash by identity, in C

    LOWER = "lower"
    HIGHER = "higher"
    TIE = "tie"


def compare(spot: Card, dealer: Card) -> Outcome:
    """Rank against rank; suits are equal (MD Ch. 6 B)."""
    if spot.rank < dealer.rank:
        return _LOWER
    if spot.rank > dealer.rank:
        return _HIGHER
    return _TIED


class WagerKind(Enum):
    """What a payment settles. The spot wagers' values name their SpotWagers fields."""

    __hash__ = object.__hash__  # members are singletons: hash by identity, in C

    INITIAL = "initial"
    TIE = "tie"  # on the original deal (MD Ch. 7 F(2))
    WAR = "war"
    WAR_TIE = "war_tie"  # Tie Wager placed with the War Wager, on the War deal (MD Ch. 7 F(2))
    PROGRESSIVE_PAYOUT = "progressive_payout"  # fixed odds of a Progressive Payout Hand
    BONUS_SPIN = "bonus_spin"  # the seat's Bonus Spin wager: collected, wins paid as amounts
    PROGRESSIVE = "progressive"  # a meter award (no stake of its own)
    ENVY_BONUS = "envy_bonus"  # MD Ch. 9 J(4)(e): for another seat's qualifying hand


class Result(Enum):
    __hash__ = object.__hash__  # members are singletons: hash by identity, in C

    LOST = "lost"
    WON = "won"
    PUSHED = "pushed"  # returned without winnings
    SURRENDERED = "surrendered"  # half returned (MD Ch. 9 E(1))
    FORFEITED = "forfeited"  # Initial Wager collected on going to War (PA 2011 § 651a.9(e))
    VOIDED = "voided"  # returned by a void (MD Ch. 11)
    ABANDONED = "abandoned"  # collected: its player left before deciding (MD Ch. 7 B(4))


# Enum members cost a metaclass look-up each in CPython 3.11; the settlement of every hand reads
# these, so they are read once here.
_LOWER, _HIGHER, _TIED = Outcome.LOWER, Outcome.HIGHER, Outcome.TIE
_INITIAL, _TIE, _WAR, _WAR_TIE = WagerKind.INITIAL, WagerKind.TIE, WagerKind.WAR, WagerKind.WAR_TIE


@dataclass(frozen=True, slots=True)
class Payment:
    """What became of one wager: ``returned`` of the ``stake`` plus ``win`` from the house."""

    kind: WagerKind
    result: Result
    stake: int
    returned: int = 0
    win: int = 0

    @property
    def net(self) -> int:
        """The player's gain (negative: loss) on this wager."""
        return self.returned + self.win - self.stake


# Payments are immutable values and a table sees the same few again and again
# ($5 Initial lost, $5 won 1:1, ...), so the common ones are shared, not rebuilt.
@lru_cache(maxsize=4096)
def lost(kind: WagerKind, stake: int) -> Payment:
    return Payment(kind, Result.LOST, stake)


@lru_cache(maxsize=4096)
def won(kind: WagerKind, stake: int, win: int) -> Payment:
    return Payment(kind, Result.WON, stake, stake, win)


@lru_cache(maxsize=4096)
def pushed(kind: WagerKind, stake: int) -> Payment:
    return Payment(kind, Result.PUSHED, stake, stake)


def settle_original(payouts: Payouts, outcome: Outcome, initial: int, tie: int) -> list[Payment]:
    """Initial and Tie Wagers on the original deal (MD Ch. 9 B; Ch. 10 A(1)-(2)).

    On a tie hand the Initial Wager awaits the player's decision and is not in the result.
    """
    out: list[Payment] = []
    if outcome is _LOWER:
        out.append(lost(_INITIAL, initial))  # MD Ch. 9 B(1)
    elif outcome is _HIGHER:
        out.append(won(_INITIAL, initial, payouts.initial.win(initial)))  # MD Ch. 9 B(2)
    if tie:
        if outcome is _TIED:
            out.append(won(_TIE, tie, payouts.tie.win(tie)))  # MD Ch. 9 B(3)
        else:
            out.append(lost(_TIE, tie))
    return out


def settle_surrender(initial: int) -> Payment:
    """Half the Initial Wager collected, half returned.

    MD Ch. 9 E(1); 58 Pa. Code § 651a.9(c)(1).
    """
    return Payment(_INITIAL, Result.SURRENDERED, initial, initial // 2)


def settle_going_to_war(form: WarForm, initial: int) -> list[Payment]:
    """What happens to the Initial Wager when the War Wager is placed.

    Only the PA 2011 form collects it now (PA 2011 proposal § 651a.9(c)(2), (e)).
    """
    if form is WarForm.INITIAL_FORFEITED:
        return [Payment(_INITIAL, Result.FORFEITED, initial)]
    return []


def settle_war(
    form: WarForm, payouts: Payouts, outcome: Outcome, initial: int, war: int, war_tie: int
) -> list[Payment]:
    """Initial, War and War-deal Tie Wagers after the War deal."""
    out: list[Payment] = []
    if form is WarForm.INITIAL_PUSHED:
        # MD Ch. 9 I(1)-(3), Ch. 10 A(3)-(4); 58 Pa. Code § 651a.9(g), § 651a.10(3)
        if outcome is _LOWER:
            out += [lost(_INITIAL, initial), lost(_WAR, war)]
        else:
            odds = payouts.war if outcome is _HIGHER else payouts.war_tie
            out += [pushed(_INITIAL, initial), won(_WAR, war, odds.win(war))]
    elif form is WarForm.INITIAL_FORFEITED:
        # PA 2011 proposal § 651a.9(g), § 651a.10(3): the Initial Wager went on going to War
        if outcome is _LOWER:
            out.append(lost(_WAR, war))
        else:
            odds = payouts.war if outcome is _HIGHER else payouts.war_tie
            out.append(won(_WAR, war, odds.win(war)))
    else:
        # S.D. 20:18:16:15.17(4)(d): the dealer matches the Initial Wager; the player
        # wins the three wagers, and one more on a tie. Odds apply to Initial + War.
        if outcome is _LOWER:
            out += [lost(_INITIAL, initial), lost(_WAR, war)]
        else:
            odds = payouts.war if outcome is _HIGHER else payouts.war_tie
            out += [pushed(_INITIAL, initial),
                    won(_WAR, war, odds.win(initial + war))]
    if war_tie:
        if outcome is _TIED:
            out.append(won(_WAR_TIE, war_tie, payouts.tie.win(war_tie)))
        else:
            out.append(lost(_WAR_TIE, war_tie))
    return out
