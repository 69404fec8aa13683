"""The paytable: every rule of the game that an operator's YAML file may vary.

The frozen dataclasses here *are* the schema: :mod:`etg.config` validates YAML
straight into them (strict types, unknown keys refused), then checks
:func:`rule_violations` for values that are impossible or below a
jurisdiction's floor. Money is integer cents; odds are ``pays`` to ``to``.

``__pydantic_config__`` is a plain dict read by pydantic in ``etg.config``; the
core itself never imports pydantic.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from enum import Enum
from typing import Any, ClassVar

from etg.core.cards import Colour, Rank

_STRICT: dict[str, Any] = {"extra": "forbid", "strict": True}


class Jurisdiction(Enum):
    MARYLAND = "maryland"
    PENNSYLVANIA = "pennsylvania"
    PENNSYLVANIA_2011 = "pennsylvania_2011"
    SOUTH_DAKOTA = "south_dakota"


class Layout(Enum):
    """``community``: 3/5/7 community cards (MD Ch. 9 L); ``per_seat``: a card per player."""

    COMMUNITY = "community"
    PER_SEAT = "per_seat"


class WarForm(Enum):
    """How a War is paid; all give +1 / +2 Initial Wagers on a War win / War tie.

    - ``initial_pushed``: Initial Wager returned, War Wager 1:1, 2:1 on a tie
      (MD Ch. 9 I, Ch. 10 A(3)-(4); 58 Pa. Code § 651a.9(g), § 651a.10(3)).
    - ``initial_forfeited``: the Initial Wager is collected on going to War,
      War Wager 2:1, 3:1 on a tie (PA 2011 proposal § 651a.9(c)(2), § 651a.10(3)).
    - ``dealer_matched``: the dealer matches the Initial Wager; the player wins
      the three wagers, plus one more on a tie (S.D. Admin. R. 20:18:16:15.17(4)(d)).
      ``war`` and ``war_tie`` odds apply to Initial plus War Wager (SD: 1 to 2, 1 to 1).
    """

    INITIAL_PUSHED = "initial_pushed"
    INITIAL_FORFEITED = "initial_forfeited"
    DEALER_MATCHED = "dealer_matched"


class SettleFrom(Enum):
    """Where the dealer starts settling (seat 1 sits at the dealer's far left, MD Ch. 8 F).

    It decides who is paid first from a progressive meter (SPEC §3).
    """

    __hash__ = object.__hash__  # members are singletons: hash by identity, in C

    DEALER_RIGHT = "dealer_right"  # highest seat first: MD Ch. 9 A, I; 58 Pa. Code § 651a.9(a)
    DEALER_LEFT = "dealer_left"  # seat 1 first: PA 2011 § 651a.9(a), (g); S.D. 20:18:16:15.17(4)


@dataclass(frozen=True, slots=True)
class WarBurn:
    """Cards burned face down in the War deal: before the players' War cards, before the dealer's.

    Burns move no probability: every card still unseen is equally likely to be
    the next one dealt, however many are burned first (the par sheet's figures
    hold for any burns; see :mod:`etg.math.exact`).
    """

    before_players: int = 3  # MD Ch. 9 H; 58 Pa. Code § 651a.9(f); S.D. 20:18:16:15.17(4)(d)
    before_dealer: int = 0  # S.D. 20:18:16:15.17(4)(d): "The dealer burns three more cards"
    __pydantic_config__: ClassVar[dict[str, Any]] = _STRICT


class Decision(Enum):
    """A player's choice on a tie hand (MD Ch. 9 E)."""

    __hash__ = object.__hash__  # members are singletons: hash by identity, in C

    WAR = "war"
    SURRENDER = "surrender"


class AbandonedWager(Enum):
    """What becomes of a tie hand's pending decision when a supervisor marks its seat abandoned.

    MD Ch. 7 B(3)-(4): a player who has received cards stays seated until the round is
    complete; "If a player leaves the table during a round of play, any wagers made by the
    player may be considered abandoned and may be treated as a losing wager."

    - ``forfeit``: the Initial Wager awaiting War or Surrender is collected as a losing
      wager (MD Ch. 7 B(4)).
    - ``default_decision``: the paytable's ``default_decision`` applies, exactly as when
      the decision countdown runs out (Surrender if the seat cannot cover a War Wager).
    """

    __hash__ = object.__hash__  # members are singletons: hash by identity, in C

    FORFEIT = "forfeit"
    DEFAULT_DECISION = "default_decision"


class PayoutLimitScope(Enum):
    """What one payout limit caps (MD Ch. 2 B(5)(b): "the payout limit per hand")."""

    __hash__ = object.__hash__  # members are singletons: hash by identity, in C

    HAND = "hand"  # one seat's wagers on one spot: a hand, as the regulation says
    SEAT_ROUND = "seat_round"  # everything one seat wins in a round


@dataclass(frozen=True, slots=True)
class PayoutLimit:
    """The payout limit per hand the operator posts (MD Ch. 2 B(5)(b), B(6)).

    It caps the winnings of the fixed-odds wagers (Initial, Tie, War, the War
    deal's Tie, the Progressive Payout Wager's odds) of one hand, or of one
    seat's round with ``scope: seat_round``; the excess stays with the house and
    is recorded. The Bonus Spin and the Envy Bonus are not hands (a wheel, and a
    bonus for another seat's hand), so they are paid outside the limit unless
    ``bonus_spin_inside`` / ``envy_bonus_inside`` say otherwise; inside it with
    ``scope: hand`` they count as the seat's own hand apart from its spots (the
    Bonus Spin's wins together with the Envy Bonuses, spot 0). Progressive meter
    awards follow the paytable's ``progressive_in_payout_limit``.
    """

    amount_cents: int
    scope: PayoutLimitScope = PayoutLimitScope.HAND
    bonus_spin_inside: bool = False
    envy_bonus_inside: bool = False
    __pydantic_config__: ClassVar[dict[str, Any]] = _STRICT


@dataclass(frozen=True, slots=True)
class Odds:
    """Payout odds ``pays`` to ``to`` (e.g. Tie Wager 10 to 1)."""

    pays: int
    to: int = 1
    __pydantic_config__: ClassVar[dict[str, Any]] = _STRICT

    def win(self, amount: int) -> int:
        """The winnings on ``amount`` cents; exact when ``amount`` is a multiple of ``to``."""
        return amount * self.pays // self.to

    def __str__(self) -> str:
        return f"{self.pays} to {self.to}"


@dataclass(frozen=True, slots=True)
class Shoe:
    """``decks`` and the cut card window, as shares of the shoe from its bottom."""

    decks: int
    penetration_min: float = 0.25  # MD Ch. 5 F(2): at least 1/4 of the way in from the bottom
    penetration_max: float = 0.5
    __pydantic_config__: ClassVar[dict[str, Any]] = _STRICT

    @property
    def cards(self) -> int:
        return 52 * self.decks

    def cut_window(self) -> tuple[int, int]:
        """Smallest and largest index the cut card may stand before (inclusive)."""
        n = self.cards
        return n - math.floor(self.penetration_max * n), n - math.ceil(self.penetration_min * n)


@dataclass(frozen=True, slots=True)
class Limit:
    min_cents: int
    max_cents: int
    __pydantic_config__: ClassVar[dict[str, Any]] = _STRICT


@dataclass(frozen=True, slots=True)
class Limits:
    initial: Limit
    tie: Limit
    __pydantic_config__: ClassVar[dict[str, Any]] = _STRICT


@dataclass(frozen=True, slots=True)
class Payouts:
    initial: Odds
    tie: Odds
    war: Odds
    war_tie: Odds
    __pydantic_config__: ClassVar[dict[str, Any]] = _STRICT


@dataclass(frozen=True, slots=True)
class Timers:
    betting_s: int = 20
    decision_s: int = 10
    auto_open: bool = False  # open betting by itself after NEXT ROUND
    __pydantic_config__: ClassVar[dict[str, Any]] = _STRICT


class ProgressiveLevel(Enum):
    """The three progressive meters of the table."""

    __hash__ = object.__hash__  # members are singletons: hash by identity, in C

    PRIMARY = "primary"  # Bonus Spin Xtreme (MD Ch. 10 D(1)(a))
    SECONDARY = "secondary"  # Bonus Spin Xtreme (MD Ch. 10 D(1)(b))
    PROGRESSIVE_PAYOUT = "progressive_payout"  # Progressive Payout Wager (MD Ch. 10 B(1))


RATE_SCALE = 1_000_000  # rates of progression are exact in millionths


@dataclass(frozen=True, slots=True)
class Meter:
    """A progressive meter's rules (MD Ch. 10 C(1)-(2), D(3)).

    ``rate`` is the share of each wager added to the meter at No More Bets,
    exact to a millionth; above ``ceiling_cents`` contributions overflow to a
    reserve that funds the next reset.
    """

    initial_cents: int
    reset_cents: int
    rate: float
    ceiling_cents: int | None = None
    __pydantic_config__: ClassVar[dict[str, Any]] = _STRICT

    @property
    def rate_millionths(self) -> int:
        return round(self.rate * RATE_SCALE)


@dataclass(frozen=True, slots=True)
class WheelSegment:
    """One segment of a Bonus Spin ring: its symbol, weight and pay per denomination.

    A segment pays fixed amounts (``pays_cents``, one per denomination, "for
    one") or, on the Hot Spot ring, a share of a progressive meter
    (``progressive`` with ``meter_percent``, one per denomination).
    """

    symbol: str
    weight: int
    pays_cents: tuple[int, ...] | None = None
    progressive: ProgressiveLevel | None = None
    meter_percent: tuple[int, ...] | None = None
    __pydantic_config__: ClassVar[dict[str, Any]] = _STRICT

    def pay_cents(self, column: int) -> int:
        """The fixed pay of denomination ``column``; 0 for a progressive segment."""
        return self.pays_cents[column] if self.pays_cents is not None else 0


@dataclass(frozen=True, slots=True)
class DesignatedCard:
    """A trigger card by rank and colour, e.g. a red Ace (MD Ch. 7 F(4))."""

    rank: str
    colour: Colour
    __pydantic_config__: ClassVar[dict[str, Any]] = _STRICT


@dataclass(frozen=True, slots=True)
class RtpBand:
    """The operator's band for the Bonus Spin RTP; outside it the validator warns."""

    min: float = 0.80
    max: float = 0.95
    __pydantic_config__: ClassVar[dict[str, Any]] = _STRICT


@dataclass(frozen=True, slots=True)
class BonusSpin:
    """Bonus Spin Xtreme (MD Ch. 7 F(4), Ch. 10 D-E; SPEC §3).

    ``denominations_cents`` orders every per-denomination list below ($1 and
    $5 in Maryland). The Seat ring is not configured: it has one equally
    weighted segment per seat of the table.
    """

    denominations_cents: tuple[int, ...]
    trigger: tuple[DesignatedCard, ...]
    community_ring: tuple[WheelSegment, ...]
    hot_spot_ring: tuple[WheelSegment, ...]
    primary: Meter
    secondary: Meter
    rtp_band: RtpBand = RtpBand()
    __pydantic_config__: ClassVar[dict[str, Any]] = _STRICT

    def column(self, amount_cents: int) -> int:
        """The pay column of a wager of ``amount_cents``; raises ValueError for another amount."""
        return self.denominations_cents.index(amount_cents)

    def meter(self, level: ProgressiveLevel) -> Meter:
        return self.primary if level is ProgressiveLevel.PRIMARY else self.secondary


class PayoutHand(Enum):
    """Progressive Payout Hands, highest first (MD Ch. 10 B(1)-(6); SPEC §4)."""

    SUITED_FOUR_OF_A_KIND = "suited_four_of_a_kind"
    SUITED_DOUBLE_TIE = "suited_double_tie"
    FOUR_OF_A_KIND = "four_of_a_kind"
    DOUBLE_TIE = "double_tie"
    SUITED_TIE = "suited_tie"
    TIE = "tie"

    @property
    def label(self) -> str:
        """The hand's name as MD Ch. 10 B writes it, e.g. "Suited Four-of-a-Kind"."""
        return _HAND_LABELS[self]


_HAND_LABELS = {
    PayoutHand.SUITED_FOUR_OF_A_KIND: "Suited Four-of-a-Kind",
    PayoutHand.SUITED_DOUBLE_TIE: "Suited Double Tie",
    PayoutHand.FOUR_OF_A_KIND: "Four-of-a-Kind",
    PayoutHand.DOUBLE_TIE: "Double Tie",
    PayoutHand.SUITED_TIE: "Suited Tie",
    PayoutHand.TIE: "Tie",
}


@dataclass(frozen=True, slots=True)
class HandPay:
    """``pays`` to ``to``, plus ``meter_percent`` of the progressive meter."""

    pays: int
    to: int = 1
    meter_percent: int = 0
    __pydantic_config__: ClassVar[dict[str, Any]] = _STRICT


@dataclass(frozen=True, slots=True)
class HandPays:
    suited_four_of_a_kind: HandPay
    suited_double_tie: HandPay
    four_of_a_kind: HandPay
    double_tie: HandPay
    suited_tie: HandPay
    tie: HandPay
    __pydantic_config__: ClassVar[dict[str, Any]] = _STRICT

    def of(self, hand: PayoutHand) -> HandPay:
        pay: HandPay = getattr(self, hand.value)
        return pay


@dataclass(frozen=True, slots=True)
class EnvyPays:
    """Envy Bonus per qualifying hand of another seat, in cents; 0: the hand does not qualify."""

    suited_four_of_a_kind: int = 0
    suited_double_tie: int = 0
    four_of_a_kind: int = 0
    double_tie: int = 0
    suited_tie: int = 0
    tie: int = 0
    __pydantic_config__: ClassVar[dict[str, Any]] = _STRICT

    def of(self, hand: PayoutHand) -> int:
        cents: int = getattr(self, hand.value)
        return cents


@dataclass(frozen=True, slots=True)
class ProgressivePayout:
    """The Progressive Payout Wager with its Envy Bonus (MD Ch. 7 F(3), Ch. 9 J, Ch. 10 B-C)."""

    wager_cents: int
    pays: HandPays
    envy_cents: EnvyPays
    meter: Meter
    __pydantic_config__: ClassVar[dict[str, Any]] = _STRICT


@dataclass(frozen=True, slots=True)
class Paytable:
    id: str
    name: str
    jurisdiction: Jurisdiction
    layout: Layout
    shoe: Shoe
    spots: int
    seats: int
    max_spots_per_seat: int
    unit_cents: int
    limits: Limits
    payouts: Payouts
    war_form: WarForm
    default_decision: Decision = Decision.SURRENDER
    war_tie_wager: bool = True  # MD Ch. 7 F(2): a Tie Wager may be placed with the War Wager
    timers: Timers = Timers()
    bonus_spin: BonusSpin | None = None
    progressive_payout: ProgressivePayout | None = None
    # MD Ch. 2 B(5)(b) caps fixed-odds winnings; meter awards are outside unless this says so
    progressive_in_payout_limit: bool = False
    war_burn: WarBurn = WarBurn()
    settle_from: SettleFrom = SettleFrom.DEALER_RIGHT
    payout_limit: PayoutLimit | None = None  # MD Ch. 2 B(5)(b); see payout_limit_rules
    # The payout limit as paytables wrote it before it had a scope. Rounds recorded under
    # such a paytable (the ledger's checkpoints, tests/data/replay) must replay bit for bit,
    # so it keeps the meaning it was recorded with: one seat's round, the Bonus Spin and
    # the Envy Bonus inside. New paytables write ``payout_limit`` (scope ``hand``).
    payout_limit_per_hand_cents: int | None = None
    abandoned_wager: AbandonedWager = AbandonedWager.DEFAULT_DECISION  # MD Ch. 7 B(3)-(4)
    # MD Ch. 7 E: "the number of adjacent boxes on which a player may place a wager": a seat's
    # spots form one unbroken run (spots 1 and 3 without 2 are refused). False only counts them.
    adjacent_spots_only: bool = True
    __pydantic_config__: ClassVar[dict[str, Any]] = _STRICT

    @property
    def payout_limit_rules(self) -> PayoutLimit:
        """The payout limit in force: ``payout_limit``, or the older form with its old meaning.

        A paytable with neither is refused by :func:`rule_violations`; read anyway, it
        has no limit to speak of (the largest amount a round could pay is far below it).
        """
        if self.payout_limit is not None:
            return self.payout_limit
        if self.payout_limit_per_hand_cents is not None:
            return PayoutLimit(self.payout_limit_per_hand_cents, PayoutLimitScope.SEAT_ROUND,
                               bonus_spin_inside=True, envy_bonus_inside=True)
        return _NO_LIMIT

    def meter(self, level: ProgressiveLevel) -> Meter | None:
        """The rules of one progressive meter, or None if the paytable has no such meter."""
        if level is ProgressiveLevel.PROGRESSIVE_PAYOUT:
            return self.progressive_payout.meter if self.progressive_payout else None
        return self.bonus_spin.meter(level) if self.bonus_spin else None

    @property
    def spot_count(self) -> int:
        """Card positions on the layout: the community spots, or one per seat."""
        return self.spots if self.layout is Layout.COMMUNITY else self.seats

    def max_cards_per_round(self) -> int:
        """The shoe's burn and a new dealer's (MD Ch. 8 E(1), E(4)), every spot, the dealer,
        the War deal's burns, every spot's War card and the dealer's War card."""
        burns = self.war_burn.before_players + self.war_burn.before_dealer
        return 2 + self.spot_count + 1 + burns + self.spot_count + 1


@dataclass(frozen=True, slots=True)
class Violation:
    """A rule a paytable breaks: ``path`` of keys into the file, and why."""

    path: tuple[str | int, ...]
    message: str


# Jurisdiction floors. Each entry quotes the section it comes from.
_DECKS: dict[Jurisdiction, tuple[int, ...]] = {
    Jurisdiction.MARYLAND: (6, 8),  # MD Ch. 3 A
    Jurisdiction.PENNSYLVANIA: (6, 8),  # 58 Pa. Code § 651a.3(a)
    Jurisdiction.PENNSYLVANIA_2011: (6, 8),  # PA 2011 proposal § 651a.3(a)
    Jurisdiction.SOUTH_DAKOTA: (6, 7, 8),  # S.D. Admin. R. 20:18:16:15.17(1): six to eight decks
}
_MAX_SEATS: dict[Jurisdiction, int] = {
    Jurisdiction.MARYLAND: 9,  # MD Ch. 2 A
    Jurisdiction.PENNSYLVANIA: 9,  # 58 Pa. Code § 651a.2(a)
    Jurisdiction.PENNSYLVANIA_2011: 7,  # PA 2011 proposal § 651a.2(a)
    # S.D. 20:18:16:15.17 sets no number of positions; nine is the most any of the
    # other rules allows and what a Casino War layout offers.
    Jurisdiction.SOUTH_DAKOTA: 9,
}
_WAR_DEAL: dict[Jurisdiction, tuple[WarBurn, SettleFrom]] = {
    Jurisdiction.MARYLAND: (WarBurn(3, 0), SettleFrom.DEALER_RIGHT),  # MD Ch. 9 A, H, I
    Jurisdiction.PENNSYLVANIA: (WarBurn(3, 0), SettleFrom.DEALER_RIGHT),  # § 651a.9(a), (f), (g)
    Jurisdiction.PENNSYLVANIA_2011: (WarBurn(3, 0), SettleFrom.DEALER_LEFT),  # § 651a.9(a),(f),(g)
    Jurisdiction.SOUTH_DAKOTA: (WarBurn(3, 3), SettleFrom.DEALER_LEFT),  # 20:18:16:15.17(4)
}
"""Each jurisdiction's War-deal burns and where settlement starts, as its rules say."""
_WAR_FORM: dict[Jurisdiction, WarForm] = {
    Jurisdiction.MARYLAND: WarForm.INITIAL_PUSHED,  # MD Ch. 9 I(2)-(3)
    Jurisdiction.PENNSYLVANIA: WarForm.INITIAL_PUSHED,  # 58 Pa. Code § 651a.9(g)
    Jurisdiction.PENNSYLVANIA_2011: WarForm.INITIAL_FORFEITED,  # PA 2011 § 651a.9(e)
    Jurisdiction.SOUTH_DAKOTA: WarForm.DEALER_MATCHED,  # S.D. 20:18:16:15.17(4)(d)
}
# Minimum payout odds per jurisdiction: (initial, tie, war, war_tie).
_MIN_ODDS: dict[Jurisdiction, tuple[Odds, Odds, Odds, Odds]] = {
    # MD Ch. 10 A(1)-(4)
    Jurisdiction.MARYLAND: (Odds(1), Odds(10), Odds(1), Odds(2)),
    # 58 Pa. Code § 651a.10(1)-(3)
    Jurisdiction.PENNSYLVANIA: (Odds(1), Odds(10), Odds(1), Odds(2)),
    # PA 2011 proposal § 651a.10(1)-(3)
    Jurisdiction.PENNSYLVANIA_2011: (Odds(1), Odds(10), Odds(2), Odds(3)),
    # S.D. 20:18:16:15.17(2),(4)(c),(5): beat dealer 1 to 1, tie 10 to 1,
    # war win 1 to 2, war tie 1 to 1
    Jurisdiction.SOUTH_DAKOTA: (Odds(1), Odds(10), Odds(1, 2), Odds(1, 1)),
}
_NO_LIMIT = PayoutLimit(2**62)  # only a paytable that skipped validation has no limit
# Only Maryland's rules let an abandoned wager be treated as a losing one (MD Ch. 7 B(4));
# 58 Pa. Code Ch. 651a, the PA 2011 proposal and S.D. 20:18:16:15.17 have no such rule.
_FORFEIT_ALLOWED = frozenset({Jurisdiction.MARYLAND})
_COMMUNITY_SPOTS = (3, 5, 7)  # MD Ch. 9 L(2)
_MAX_TIMER_S = 600


def rule_violations(p: Paytable) -> list[Violation]:
    """Every value of ``p`` that is impossible or below its jurisdiction's floor."""
    out: list[Violation] = []

    def bad(path: tuple[str | int, ...], message: str) -> None:
        out.append(Violation(path, message))

    j = p.jurisdiction
    for name in ("id", "name"):
        if not getattr(p, name).strip():
            bad((name,), "must not be empty")
    out += bound_violations(p)
    if p.shoe.decks not in _DECKS[j]:
        bad(("shoe", "decks"), f"{j.value} allows {_or(_DECKS[j])} decks, not {p.shoe.decks}")
    if not 0.25 <= p.shoe.penetration_min <= 0.9:
        bad(("shoe", "penetration_min"),
            f"must be between 0.25 (MD Ch. 5 F(2)) and 0.9, not {p.shoe.penetration_min}")
    if not p.shoe.penetration_min <= p.shoe.penetration_max <= 0.9:
        bad(("shoe", "penetration_max"),
            f"must be between penetration_min ({p.shoe.penetration_min}) and 0.9, "
            f"not {p.shoe.penetration_max}")
    if not 1 <= p.seats <= _MAX_SEATS[j]:
        bad(("seats",), f"{j.value} allows 1 to {_MAX_SEATS[j]} seats, not {p.seats}")
    if p.layout is Layout.COMMUNITY:
        if j is not Jurisdiction.MARYLAND:
            bad(("layout",), f"the community-card layout is a Maryland game (MD Ch. 9 L), "
                             f"not allowed for {j.value}")
        if p.spots not in _COMMUNITY_SPOTS:
            bad(("spots",),
                f"a community layout uses 3, 5 or 7 spots (MD Ch. 9 L(2)), not {p.spots}")
        if not 1 <= p.max_spots_per_seat <= p.spots:
            bad(("max_spots_per_seat",), f"must be between 1 and spots ({p.spots}), "
                                         f"not {p.max_spots_per_seat}")
    else:
        if p.spots != p.seats:
            bad(("spots",), f"a per_seat layout has one spot per seat: spots must equal seats "
                            f"({p.seats}), not {p.spots}")
        if p.max_spots_per_seat != 1:
            bad(("max_spots_per_seat",), "a per_seat layout plays one spot per seat: must be 1")
    if p.unit_cents <= 0 or p.unit_cents % 2:
        bad(("unit_cents",), f"must be a positive even number of cents so that half a wager "
                             f"is exact (MD Ch. 9 E(1)), not {p.unit_cents}")
    unit_ok = p.unit_cents > 0 and not p.unit_cents % 2
    for name in ("initial", "tie"):
        limit: Limit = getattr(p.limits, name)
        _check_limit(p, ("limits", name), limit, bad, unit_ok)
    _check_payout_limit(p, bad, unit_ok)
    if p.war_form is not _WAR_FORM[j]:
        bad(("war_form",), f"{j.value} uses war_form {_WAR_FORM[j].value}, not {p.war_form.value}")
    burns, settle_from = _WAR_DEAL[j]
    for name in ("before_players", "before_dealer"):
        wanted, given = getattr(burns, name), getattr(p.war_burn, name)
        if given != wanted:
            bad(("war_burn", name), f"{j.value} burns {wanted} cards here in the War deal, "
                                    f"not {given}")
    if p.settle_from is not settle_from:
        side = "left" if settle_from is SettleFrom.DEALER_LEFT else "right"
        bad(("settle_from",), f"{j.value} settles from the dealer's {side} "
                              f"({settle_from.value}), not {p.settle_from.value}")
    if p.abandoned_wager is AbandonedWager.FORFEIT and j not in _FORFEIT_ALLOWED:
        bad(("abandoned_wager",), f"{j.value} has no rule that lets an abandoned wager be "
                                  f"treated as a losing one (that is MD Ch. 7 B(4)): use "
                                  f"default_decision")
    for name, floor in zip(("initial", "tie", "war", "war_tie"), _MIN_ODDS[j], strict=True):
        odds: Odds = getattr(p.payouts, name)
        if odds.pays <= 0 or odds.to <= 0:
            bad(("payouts", name), f"odds must be positive, not {odds}")
        elif odds.pays * floor.to < floor.pays * odds.to:
            bad(("payouts", name), f"{j.value} pays at least {floor}, not {odds}")
        elif unit_ok and (p.unit_cents * odds.pays) % odds.to:
            bad(("payouts", name), f"{odds} on a unit of {p.unit_cents} cents is not a whole cent")
    for name in ("betting_s", "decision_s"):
        seconds: int = getattr(p.timers, name)
        if not 1 <= seconds <= _MAX_TIMER_S:
            bad(("timers", name), f"must be between 1 and {_MAX_TIMER_S} seconds, not {seconds}")
    if p.bonus_spin is not None:
        _check_bonus_spin(p, p.bonus_spin, bad)
    if p.progressive_payout is not None:
        _check_progressive_payout(p, p.progressive_payout, bad)
    behind_cut = math.ceil(p.shoe.penetration_min * p.shoe.cards)
    if behind_cut < p.max_cards_per_round():
        bad(("shoe", "penetration_min"),
            f"leaves {behind_cut} cards behind the cut card, fewer than the "
            f"{p.max_cards_per_round()} one round can use")
    return out


def _check_limit(
    p: Paytable, path: tuple[str, str], limit: Limit, bad: Any, unit_ok: bool
) -> None:
    if limit.min_cents <= 0:
        bad((*path, "min_cents"), f"must be positive, not {limit.min_cents}")
    elif unit_ok and limit.min_cents % p.unit_cents:
        bad((*path, "min_cents"), f"must be a multiple of unit_cents ({p.unit_cents}), "
                                  f"not {limit.min_cents}")
    if limit.max_cents < limit.min_cents:
        bad((*path, "max_cents"), f"must be at least min_cents ({limit.min_cents}), "
                                  f"not {limit.max_cents}")
    elif unit_ok and limit.max_cents % p.unit_cents:
        bad((*path, "max_cents"), f"must be a multiple of unit_cents ({p.unit_cents}), "
                                  f"not {limit.max_cents}")


def _check_payout_limit(p: Paytable, bad: Any, unit_ok: bool) -> None:
    """One payout limit per hand, posted (MD Ch. 2 B(5)(b)): positive, in whole units."""
    if p.payout_limit is not None and p.payout_limit_per_hand_cents is not None:
        bad(("payout_limit_per_hand_cents",), "is the older form of payout_limit: give "
                                              "payout_limit only")
        return
    if p.payout_limit is None and p.payout_limit_per_hand_cents is None:
        bad(("payout_limit",), "missing: the payout limit per hand the table posts "
                               "(MD Ch. 2 B(5)(b)), e.g. {amount_cents: 10000000, scope: hand}")
        return
    path: tuple[str, ...] = (("payout_limit", "amount_cents") if p.payout_limit is not None
                             else ("payout_limit_per_hand_cents",))
    amount = p.payout_limit_rules.amount_cents
    if amount <= 0:
        bad(path, f"must be positive (MD Ch. 2 B(5)(b)), not {amount}")
    elif unit_ok and amount % p.unit_cents:
        bad(path, f"must be a multiple of unit_cents ({p.unit_cents}), not {amount}")


def _or(values: tuple[int, ...]) -> str:
    words = [str(v) for v in values]
    return ", ".join(words[:-1]) + " or " + words[-1] if len(words) > 1 else words[0]


# Maryland Paytable A for the $5 Bonus Spin Xtreme wager: symbol -> minimum pay in cents.
MD_COMMUNITY_PAYS_5 = {  # MD Ch. 10 E(1)(a)-(h)
    "$150": 15_000, "$100": 12_500, "$75": 10_000, "$50": 7_500, "$40": 5_000, "$35": 4_000,
    "$30": 3_000, "$25": 2_500,
}
MD_HOT_SPOT_PAYS_5 = {  # MD Ch. 10 D(1)(c)-(j)
    "$1000": 100_000, "$600": 60_000, "$500": 50_000, "$400": 40_000, "$350": 35_000,
    "$300": 30_000, "$250": 25_000, "$200": 20_000,
}
MD_BONUS_DENOMINATIONS = (100, 500)  # MD Ch. 7 F(4): $1.00 or $5.00
MD_BONUS_INITIAL_MIN, MD_BONUS_RESET_MIN = 1_000_000, 500_000  # MD Ch. 10 D(3)(b)(i)
MD_PAYOUT_METER_MIN = 1_000_000  # MD Ch. 10 C(2): initial and reset at least $10,000
MD_HAND_PAYS = {  # MD Ch. 10 B(1)-(6): minimum odds to 1, and the meter share
    PayoutHand.SUITED_FOUR_OF_A_KIND: (1000, 100), PayoutHand.SUITED_DOUBLE_TIE: (200, 0),
    PayoutHand.FOUR_OF_A_KIND: (150, 0), PayoutHand.DOUBLE_TIE: (30, 0),
    PayoutHand.SUITED_TIE: (15, 0), PayoutHand.TIE: (5, 0),
}
MD_ENVY_5 = {PayoutHand.SUITED_FOUR_OF_A_KIND: 500_000}  # MD Ch. 10 C(3)(c)(i), $5 wager


def _check_bonus_spin(p: Paytable, b: BonusSpin, bad: Any) -> None:
    root: tuple[str, ...] = ("bonus_spin",)
    if p.jurisdiction is not Jurisdiction.MARYLAND:
        bad(root, f"the Bonus Spin Xtreme wager is a Maryland game (MD Ch. 7 F(4)), "
                  f"not offered in {p.jurisdiction.value}")
    columns = len(b.denominations_cents)
    denominations_ok = bool(b.denominations_cents) and len(set(b.denominations_cents)) == columns
    if not denominations_ok:
        bad((*root, "denominations_cents"), "must list each denomination once")
    for i, cents in enumerate(b.denominations_cents):
        if cents not in MD_BONUS_DENOMINATIONS:
            denominations_ok = False
            bad((*root, "denominations_cents", i),
                f"a Bonus Spin wager is $1.00 or $5.00 (MD Ch. 7 F(4)), not {cents} cents")
    if not b.trigger:
        bad((*root, "trigger"), "must name at least one designated card")
    for i, card in enumerate(b.trigger):
        try:
            Rank.parse(card.rank)
        except ValueError as error:
            bad((*root, "trigger", i, "rank"), str(error))
    five = b.denominations_cents.index(500) if 500 in b.denominations_cents else None
    for ring, floors in (("community_ring", MD_COMMUNITY_PAYS_5),
                         ("hot_spot_ring", MD_HOT_SPOT_PAYS_5)):
        segments: tuple[WheelSegment, ...] = getattr(b, ring)
        if not segments:
            bad((*root, ring), "must have at least one segment")
        if not denominations_ok:
            continue  # every pay column is read against the denominations: fix those first
        for i, segment in enumerate(segments):
            _check_segment(segment, (*root, ring, i), columns, five, floors,
                           ring == "hot_spot_ring", bad)
    for level in (ProgressiveLevel.PRIMARY, ProgressiveLevel.SECONDARY):
        if b.hot_spot_ring and not any(s.progressive is level for s in b.hot_spot_ring):
            bad((*root, "hot_spot_ring"), f"no segment pays the {level.value} progressive: its "
                                          f"contributions could never be won "
                                          f"(MD Ch. 10 D(1)(a)-(b))")
    for level in (ProgressiveLevel.PRIMARY, ProgressiveLevel.SECONDARY):
        _check_meter(b.meter(level), (*root, level.value), MD_BONUS_INITIAL_MIN,
                     MD_BONUS_RESET_MIN, "MD Ch. 10 D(3)(b)", bad)
    if not 0 < b.rtp_band.min <= b.rtp_band.max <= 1:
        bad((*root, "rtp_band"), f"must satisfy 0 < min <= max <= 1, not {b.rtp_band.min} "
                                 f"and {b.rtp_band.max}")


def _check_segment(
    s: WheelSegment, path: tuple[str | int, ...], columns: int, five: int | None,
    floors: dict[str, int], hot_spot: bool, bad: Any,
) -> None:
    if s.weight <= 0:
        bad((*path, "weight"), f"must be a positive whole number, not {s.weight}")
    fixed = s.pays_cents is not None
    if fixed == (s.progressive is not None):
        bad(path, "a segment pays either pays_cents or a progressive meter share")
        return
    if s.pays_cents is not None:
        if len(s.pays_cents) != columns:
            bad((*path, "pays_cents"), f"needs one pay per denomination ({columns}), "
                                       f"not {len(s.pays_cents)}")
        elif any(cents <= 0 for cents in s.pays_cents):
            bad((*path, "pays_cents"), "every pay must be positive")
        elif five is not None:
            floor = floors.get(s.symbol)
            if floor is None:
                bad((*path, "symbol"), f"{s.symbol!r} is not a Paytable A symbol "
                                       f"({', '.join(floors)})")
            elif s.pays_cents[five] < floor:
                rule = "MD Ch. 10 D(1)" if hot_spot else "MD Ch. 10 E(1)"
                bad((*path, "pays_cents"), f"Maryland pays at least {floor} cents for "
                                           f"{s.symbol} on the $5 wager ({rule}), "
                                           f"not {s.pays_cents[five]}")
        if s.meter_percent is not None:
            bad((*path, "meter_percent"), "a fixed-pay segment has no meter share")
        return
    if not hot_spot or s.progressive is ProgressiveLevel.PROGRESSIVE_PAYOUT:
        bad((*path, "progressive"), "only the Hot Spot ring pays the primary or secondary "
                                    "progressive (MD Ch. 10 D(1)(a)-(b))")
    if s.meter_percent is None or len(s.meter_percent) != columns:
        given = 0 if s.meter_percent is None else len(s.meter_percent)
        bad((*path, "meter_percent"), f"needs one share per denomination ({columns}), "
                                      f"not {given}")
    elif any(not 1 <= pct <= 100 for pct in s.meter_percent):
        bad((*path, "meter_percent"), "each share must be between 1 and 100 percent")
    elif five is not None and s.meter_percent[five] != 100:
        bad((*path, "meter_percent"), f"the $5 wager wins 100% of the meter "
                                      f"(MD Ch. 10 D(1)(a)-(b)), not {s.meter_percent[five]}%")


def _check_meter(
    m: Meter, path: tuple[str | int, ...], initial_min: int, reset_min: int, rule: str, bad: Any
) -> None:
    if m.initial_cents < initial_min:
        bad((*path, "initial_cents"), f"must be at least {initial_min} ({rule}), "
                                      f"not {m.initial_cents}")
    if m.reset_cents < reset_min:
        bad((*path, "reset_cents"), f"must be at least {reset_min} ({rule}), not {m.reset_cents}")
    if not 0 < m.rate < 1:
        bad((*path, "rate"), f"is the share of each wager added to the meter (0.015 = 1.5%): "
                             f"must be more than 0 and less than 1, not {m.rate:g}")
    elif abs(m.rate * RATE_SCALE - m.rate_millionths) > 1e-6:
        bad((*path, "rate"), f"must be a whole number of millionths (at most 6 decimals), "
                             f"not {m.rate:.10f}".rstrip("0"))
    floor = max(m.initial_cents, m.reset_cents)
    if m.ceiling_cents is not None and m.ceiling_cents < floor:
        bad((*path, "ceiling_cents"), f"must be at least the initial and reset amounts "
                                      f"({floor}), not {m.ceiling_cents}")


def _check_progressive_payout(p: Paytable, w: ProgressivePayout, bad: Any) -> None:
    root: tuple[str, ...] = ("progressive_payout",)
    if p.jurisdiction is not Jurisdiction.MARYLAND:
        bad(root, f"the Progressive Payout Wager is a Maryland game (MD Ch. 7 F(3)), "
                  f"not offered in {p.jurisdiction.value}")
    if w.wager_cents <= 0 or (p.unit_cents > 0 and w.wager_cents % p.unit_cents):
        bad((*root, "wager_cents"), f"must be a positive multiple of unit_cents "
                                    f"({p.unit_cents}), not {w.wager_cents}")
    for hand, (odds, percent) in MD_HAND_PAYS.items():
        pay = w.pays.of(hand)
        path = (*root, "pays", hand.value)
        if pay.pays <= 0 or pay.to <= 0:
            bad(path, f"odds must be positive, not {pay.pays} to {pay.to}")
        elif pay.pays < odds * pay.to:
            rule = f"MD Ch. 10 B({list(MD_HAND_PAYS).index(hand) + 1})"
            bad(path, f"Maryland pays at least {odds} to 1 ({rule}), not {pay.pays} to {pay.to}")
        elif (w.wager_cents * pay.pays) % pay.to:
            bad(path, f"{pay.pays} to {pay.to} on {w.wager_cents} cents is not a whole cent")
        if not 0 <= pay.meter_percent <= 100:
            bad((*path, "meter_percent"), f"must be between 0 and 100, not {pay.meter_percent}")
        elif percent and pay.meter_percent != percent:
            bad((*path, "meter_percent"),
                f"Maryland pays {percent}% of the meter on this hand, not {pay.meter_percent}%")
    for hand in PayoutHand:
        cents = w.envy_cents.of(hand)
        if cents < 0:
            bad((*root, "envy_cents", hand.value), f"must be 0 or more, not {cents}")
        elif w.wager_cents == 500 and cents < MD_ENVY_5.get(hand, 0):
            bad((*root, "envy_cents", hand.value),
                f"Maryland pays an Envy Bonus of at least {MD_ENVY_5[hand]} cents on a $5 "
                f"wager (MD Ch. 10 C(3)(c)), not {cents}")
    _check_meter(w.meter, (*root, "meter"), MD_PAYOUT_METER_MIN, MD_PAYOUT_METER_MIN,
                 "MD Ch. 10 C(2)", bad)


# --- bounds: a paytable that validates can be played (issue 26) -------------------------------
# Every amount and ratio is bounded so that no sum or product a round makes (a wager times its
# odds, a meter plus a round's contributions, a seat's winnings) can leave a signed 64-bit
# integer, SQLite's INTEGER and NumPy's int64, nor a float's exact range: the largest product,
# MAX_CENTS x MAX_PAYS, is 10^14, some 90,000 times below 2^63.
MAX_CENTS = 10_000_000_000
"""The largest amount of money a paytable may write: $100,000,000.00."""
MAX_PAYS, MAX_TO = 10_000, 100
"""Odds of at most 10,000 to 1 (ten times MD's largest, 1,000 to 1: MD Ch. 10 B(1)), ``to`` 100."""
MAX_WEIGHT = 1_000_000
"""The heaviest wheel segment: weights are relative, so a million is a millionth's resolution."""
MAX_SEGMENTS = 100
"""Segments on one ring: each is drawn wide enough for an upright label (SPEC §6)."""
ID_PATTERN = re.compile(r"[a-z0-9][a-z0-9-]{0,63}")
"""A paytable's ``id``: it names files (demo ledgers, par sheets), so nothing else may be in it."""


def bound_violations(p: Paytable) -> list[Violation]:
    """Every amount, odds, weight and the ``id`` of ``p`` outside what can be played safely."""
    out: list[Violation] = []
    if p.id.strip() and not ID_PATTERN.fullmatch(p.id):
        shown = p.id if len(p.id) <= 40 else p.id[:37] + "..."
        out.append(Violation(("id",), f"must be 1 to 64 lower-case letters, digits and "
                                      f"hyphens, starting with a letter or digit (it names "
                                      f"files), not {shown!r}"))
    for path, cents in _amounts(p):
        if cents > MAX_CENTS:
            out.append(Violation(path, f"must be at most {MAX_CENTS} cents "
                                       f"($100,000,000.00), not {cents}"))
    for path, pays, to in _odds(p):
        if pays > MAX_PAYS or to > MAX_TO:
            out.append(Violation(path, f"odds must be at most {MAX_PAYS} to 1, with 'to' at "
                                       f"most {MAX_TO}, not {pays} to {to}"))
    if p.bonus_spin is not None:
        for ring in ("community_ring", "hot_spot_ring"):
            segments: tuple[WheelSegment, ...] = getattr(p.bonus_spin, ring)
            if len(segments) > MAX_SEGMENTS:
                out.append(Violation(("bonus_spin", ring), f"at most {MAX_SEGMENTS} segments "
                                                           f"fit on a ring, not {len(segments)}"))
            out += [Violation(("bonus_spin", ring, i, "weight"),
                              f"must be at most {MAX_WEIGHT}, not {segment.weight}")
                    for i, segment in enumerate(segments) if segment.weight > MAX_WEIGHT]
    return out


def _amounts(p: Paytable) -> list[tuple[tuple[str | int, ...], int]]:
    """Every amount of money ``p`` writes, with its path."""
    out: list[tuple[tuple[str | int, ...], int]] = [(("unit_cents",), p.unit_cents)]
    for name in ("initial", "tie"):
        limit: Limit = getattr(p.limits, name)
        out += [(("limits", name, "min_cents"), limit.min_cents),
                (("limits", name, "max_cents"), limit.max_cents)]
    if p.payout_limit is not None:
        out.append((("payout_limit", "amount_cents"), p.payout_limit.amount_cents))
    if p.payout_limit_per_hand_cents is not None:
        out.append((("payout_limit_per_hand_cents",), p.payout_limit_per_hand_cents))
    meters: list[tuple[tuple[str, ...], Meter]] = []
    if p.bonus_spin is not None:
        b = p.bonus_spin
        out += [(("bonus_spin", "denominations_cents", i), c)
                for i, c in enumerate(b.denominations_cents)]
        for ring in ("community_ring", "hot_spot_ring"):
            for i, segment in enumerate(getattr(b, ring)):
                out += [(("bonus_spin", ring, i, "pays_cents", k), c)
                        for k, c in enumerate(segment.pays_cents or ())]
        meters += [(("bonus_spin", "primary"), b.primary), (("bonus_spin", "secondary"),
                                                             b.secondary)]
    if p.progressive_payout is not None:
        w = p.progressive_payout
        out.append((("progressive_payout", "wager_cents"), w.wager_cents))
        out += [(("progressive_payout", "envy_cents", hand.value), w.envy_cents.of(hand))
                for hand in PayoutHand]
        meters.append((("progressive_payout", "meter"), w.meter))
    for path, m in meters:
        out += [((*path, "initial_cents"), m.initial_cents), ((*path, "reset_cents"),
                                                              m.reset_cents)]
        if m.ceiling_cents is not None:
            out.append(((*path, "ceiling_cents"), m.ceiling_cents))
    return out


def _odds(p: Paytable) -> list[tuple[tuple[str, ...], int, int]]:
    """Every pair of odds ``p`` writes, with its path."""
    out: list[tuple[tuple[str, ...], int, int]] = [(("payouts", name), odds.pays, odds.to)
           for name in ("initial", "tie", "war", "war_tie")
           for odds in [getattr(p.payouts, name)]]
    if p.progressive_payout is not None:
        out += [(("progressive_payout", "pays", hand.value), pay.pays, pay.to)
                for hand in PayoutHand for pay in [p.progressive_payout.pays.of(hand)]]
    return out
