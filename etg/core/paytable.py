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
from dataclasses import dataclass
from enum import Enum
from typing import Any, ClassVar

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


class Decision(Enum):
    """A player's choice on a tie hand (MD Ch. 9 E)."""

    WAR = "war"
    SURRENDER = "surrender"


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
    payout_limit_per_hand_cents: int
    payouts: Payouts
    war_form: WarForm
    default_decision: Decision = Decision.SURRENDER
    war_tie_wager: bool = True  # MD Ch. 7 F(2): a Tie Wager may be placed with the War Wager
    timers: Timers = Timers()
    __pydantic_config__: ClassVar[dict[str, Any]] = _STRICT

    @property
    def spot_count(self) -> int:
        """Card positions on the layout: the community spots, or one per seat."""
        return self.spots if self.layout is Layout.COMMUNITY else self.seats

    def max_cards_per_round(self) -> int:
        """Burn, every spot, dealer, three War burns, every spot's War card, dealer's War card."""
        return 1 + self.spot_count + 1 + 3 + self.spot_count + 1


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
    if p.payout_limit_per_hand_cents <= 0:
        bad(("payout_limit_per_hand_cents",), "must be positive (MD Ch. 2 B(5)(b))")
    elif unit_ok and p.payout_limit_per_hand_cents % p.unit_cents:
        bad(("payout_limit_per_hand_cents",), f"must be a multiple of unit_cents "
                                              f"({p.unit_cents}), not "
                                              f"{p.payout_limit_per_hand_cents}")
    if p.war_form is not _WAR_FORM[j]:
        bad(("war_form",), f"{j.value} uses war_form {_WAR_FORM[j].value}, not {p.war_form.value}")
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


def _or(values: tuple[int, ...]) -> str:
    words = [str(v) for v in values]
    return ", ".join(words[:-1]) + " or " + words[-1] if len(words) > 1 else words[0]
