"""Exact main-game figures of a paytable, by combinatorics over the finite shoe.

Why four draws without replacement are exact
--------------------------------------------
A shoe of ``d`` decks holds ``N = 52 d`` cards, ``4 d`` of each of the 13 ranks,
in a uniformly random order. One spot's fate depends on four cards only: the
spot card, the dealer card, and after a tie the spot's War card and the
dealer's War card. Whatever else is dealt or burned around them (other spots,
the burn card of a fresh shoe, the War-deal burns however many the paytable's
``war_burn`` asks for and wherever they fall (South Dakota's three more before
the dealer's War card), other spots' War cards,
earlier rounds of the same shoe), those four cards are an ordered 4-tuple drawn
without replacement from the full shoe:

- For four *fixed* positions this is plain exchangeability: every ordered
  4-tuple of distinct cards is equally likely at any four distinct positions.
- Some positions are not fixed: the spot's War card comes after the War cards
  of the tied spots to its left, so its position depends on the other spots'
  cards, and a round starts wherever the previous one ended. Each such position
  is a *stopping time*: it is decided by cards already dealt. Given the cards
  dealt so far, the unseen ones are still in uniformly random order, so the
  share of each rank among the unseen cards is a martingale, and by optional
  stopping the card dealt at a (bounded) stopping time has the law of a fresh
  draw from the cards not yet accounted for. Applying this to the four cards in
  turn, conditioning each time on the ones before, gives the 4-tuple's law.
- The cut card only decides *when* the shoe is reshuffled, between rounds
  (MD Ch. 8 G), and the penetration floor leaves enough cards for a whole
  round, so it never splits the four cards across two shoes.

So the per-spot figures here are exact for the community layout and the
per-seat layout alike, and for any number of spots.

What is computed
----------------
Probabilities are summed over ranks from the rank counts (never hard-coded
closed forms): the original deal over the full shoe, the War deal over the
shoe less the two tied cards, for each tied rank. Money comes from
:mod:`etg.core.settle` on an integer stake at which every payout is a whole
number of cents; each net is then divided by the stake, so the house edges are
exact Fractions *per unit of the Initial Wager* (SPEC §8), for always-War and
always-Surrender. The Tie Wager edges are per unit of the Tie Wager.

The three War forms (Initial pushed, Initial forfeited, dealer matched) give
+1 / +2 Initial Wagers on a War win / War tie with their shipped odds, hence
the same edges; nothing here special-cases a form.

The side wagers have their own modules, on the same four-card argument:
:mod:`etg.math.bonus` (Bonus Spin Xtreme) and :mod:`etg.math.progressive_payout`
(Progressive Payout Wager). :func:`check_json`, :func:`side_wager_rows` and
:func:`bonus_rtp_warnings` put their figures beside the main game's.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, fields
from fractions import Fraction
from typing import Any

from etg.core.money import format_cents
from etg.core.paytable import Paytable
from etg.core.settle import (
    Outcome,
    Payment,
    WagerKind,
    settle_going_to_war,
    settle_original,
    settle_surrender,
    settle_war,
)
from etg.math.bonus import (
    BonusSpinFigures,
    DenominationFigures,
    bonus_spin_figures,
    bounded_rtp_long_run_of_mix,
)
from etg.math.progressive_payout import ProgressivePayoutFigures, progressive_payout_figures

RANK_COUNT = 13
SUITS_PER_DECK = 4
CHECK_MIX = Fraction(1, 2)  # share of $1 Bonus Spin wagers for the mixed long run of the check


@dataclass(frozen=True)
class MainGameFigures:
    """Exact main-game figures of one paytable, per spot (community or per-seat alike).

    Edges are the house's expected gain per unit wagered: the Initial Wager for
    ``house_edge_war`` / ``house_edge_surrender``, the Tie Wager for the two Tie
    Wager edges. ``war_tie_wager_house_edge`` is ``None`` when the paytable
    offers no Tie Wager on the War deal.
    """

    decks: int
    tie_probability: Fraction  # P(original tie)
    p_win: Fraction  # P(spot card higher) on the original deal
    p_lose: Fraction  # P(spot card lower) on the original deal
    war_tie_probability: Fraction  # P(War cards tie | original tie)
    war_win_probability: Fraction  # P(spot War card higher | original tie)
    war_lose_probability: Fraction  # P(spot War card lower | original tie)
    house_edge_war: Fraction  # always go to War
    house_edge_surrender: Fraction  # always Surrender
    tie_house_edge: Fraction  # Tie Wager on the original deal
    war_tie_wager_house_edge: Fraction | None  # Tie Wager placed with the War Wager


@dataclass(frozen=True)
class MainGameNets:
    """The player's net per unit wagered for each outcome, from :mod:`etg.core.settle`.

    ``original`` maps LOWER / HIGHER to the Initial Wager's net; ``war`` maps each
    War-deal outcome to the net of the whole hand after an original tie and going
    to War (Initial plus War Wager, including an Initial forfeited on going to War),
    per unit of the Initial Wager. ``tie_win`` / ``tie_lose`` are per unit of the
    Tie Wager; the ``war_tie_*`` ones are ``None`` when that wager is not offered.
    """

    original: dict[Outcome, Fraction]
    surrender: Fraction
    war: dict[Outcome, Fraction]
    tie_win: Fraction
    tie_lose: Fraction
    war_tie_win: Fraction | None
    war_tie_lose: Fraction | None


def main_game_figures(paytable: Paytable) -> MainGameFigures:
    """Every exact main-game figure of ``paytable``."""
    counts = [SUITS_PER_DECK * paytable.shoe.decks] * RANK_COUNT
    original = pair_probabilities(counts)
    war = _war_probabilities(counts)
    nets = main_game_nets(paytable)
    p_tie = original[Outcome.TIE]
    ev_war_deal = sum((war[o] * nets.war[o] for o in Outcome), Fraction(0))
    ev_decided = (original[Outcome.HIGHER] * nets.original[Outcome.HIGHER]
                  + original[Outcome.LOWER] * nets.original[Outcome.LOWER])
    ev_war = ev_decided + p_tie * ev_war_deal
    ev_surrender = ev_decided + p_tie * nets.surrender
    ev_tie = p_tie * nets.tie_win + (1 - p_tie) * nets.tie_lose
    war_tie_edge: Fraction | None = None
    if nets.war_tie_win is not None and nets.war_tie_lose is not None:
        p_war_tie = war[Outcome.TIE]
        war_tie_edge = -(p_war_tie * nets.war_tie_win + (1 - p_war_tie) * nets.war_tie_lose)
    return MainGameFigures(
        decks=paytable.shoe.decks,
        tie_probability=p_tie,
        p_win=original[Outcome.HIGHER],
        p_lose=original[Outcome.LOWER],
        war_tie_probability=war[Outcome.TIE],
        war_win_probability=war[Outcome.HIGHER],
        war_lose_probability=war[Outcome.LOWER],
        house_edge_war=-ev_war,
        house_edge_surrender=-ev_surrender,
        tie_house_edge=-ev_tie,
        war_tie_wager_house_edge=war_tie_edge,
    )


def main_game_nets(paytable: Paytable) -> MainGameNets:
    """Nets per unit wagered for each outcome, settled by :mod:`etg.core.settle`.

    The stake is a whole number of cents at which every payout of the paytable
    is exact (a multiple of the unit, of 2 for Surrender's half and of every
    odds' ``to``), so dividing by it loses nothing.
    """
    p = paytable.payouts
    form = paytable.war_form
    stake = exact_stake(paytable)
    original = {
        o: _per_unit(settle_original(p, o, stake, 0), stake)
        for o in (Outcome.LOWER, Outcome.HIGHER)
    }
    surrender = _per_unit([settle_surrender(stake)], stake)
    going = settle_going_to_war(form, stake)
    war = {o: _per_unit(going + settle_war(form, p, o, stake, stake, 0), stake) for o in Outcome}
    tie = {o: _per_unit(_of(WagerKind.TIE, settle_original(p, o, 0, stake)), stake)
           for o in Outcome}
    war_tie_win: Fraction | None = None
    war_tie_lose: Fraction | None = None
    if paytable.war_tie_wager:
        # Only the War-deal Tie Wager's own payment: the Initial and War Wagers are in ``war``.
        side = {o: _per_unit(_of(WagerKind.WAR_TIE, settle_war(form, p, o, stake, stake, stake)),
                             stake)
                for o in Outcome}
        war_tie_win, war_tie_lose = side[Outcome.TIE], side[Outcome.LOWER]
    return MainGameNets(
        original=original,
        surrender=surrender,
        war=war,
        tie_win=tie[Outcome.TIE],
        tie_lose=tie[Outcome.LOWER],
        war_tie_win=war_tie_win,
        war_tie_lose=war_tie_lose,
    )


def exact_stake(paytable: Paytable) -> int:
    """A wager in cents at which every payout of ``paytable`` is a whole number of cents."""
    p = paytable.payouts
    return math.lcm(paytable.unit_cents, 2, p.initial.to, p.tie.to, p.war.to, p.war_tie.to)


def check_json(paytable: Paytable, file: str) -> dict[str, Any]:
    """One paytable's entry of ``etg paytable check --json`` (SPEC §9), plus ``exact``.

    Probabilities, edges and RTPs are floats as fractions (0.0233, not 2.33).
    ``exact`` maps every Fraction figure to ``"p/q"`` so that a test lab can
    check the exact values: the main game's by their :class:`MainGameFigures`
    names, the side wagers' under dotted keys (``"bonus_spin.500.rtp_fixed"``,
    ``"progressive_payout.hands.tie"``, ...), present only when offered.

    ``bonus_spin`` carries SPEC §9's keys for the largest denomination ($5 in
    Maryland, the one Maryland's paytable prints), ``rtp_at_reset`` beside them,
    and every denomination under ``by_denomination`` keyed by its cents, with
    ``rtp_long_run_mix``: the renewal–reward long run when half the wagers are
    of the smallest denomination (:func:`etg.math.bonus.bounded_rtp_long_run_of_mix`;
    ``etg parsheet --mix`` chooses another share) and ``rtp_long_run_mix_error``
    its proven bound (0 when exact);
    ``progressive_payout`` the hands, the RTP at the reset meter and the
    break-even meter. Each stays ``None`` when the paytable has no such wager.
    """
    f = main_game_figures(paytable)
    exact: dict[str, str | None] = {
        name: None if value is None else fraction_text(value)
        for name, value in _fraction_figures(f)
    }
    bonus = bonus_spin_figures(paytable)
    payout = progressive_payout_figures(paytable)
    if bonus is not None:
        exact.update((f"bonus_spin.{name}", fraction_text(value))
                     for name, value in _bonus_exact(bonus))
    if payout is not None:
        exact.update((f"progressive_payout.{name}", fraction_text(value))
                     for name, value in _payout_exact(payout))
    return {
        "file": file,
        "id": paytable.id,
        "decks": paytable.shoe.decks,
        "wagers": {
            "initial": {
                "house_edge_war": float(f.house_edge_war),
                "house_edge_surrender": float(f.house_edge_surrender),
            },
            "tie": {"house_edge": float(f.tie_house_edge)},
            "war_tie_probability": float(f.war_tie_probability),
            "tie_probability": float(f.tie_probability),
            "bonus_spin": None if bonus is None else _bonus_json(bonus, paytable),
            "progressive_payout": None if payout is None else _payout_json(payout),
        },
        "exact": exact,
    }


def fraction_text(value: Fraction) -> str:
    return f"{value.numerator}/{value.denominator}"


def _denomination_json(d: DenominationFigures) -> dict[str, float]:
    return {
        "rtp_fixed": float(d.rtp_fixed),
        "rtp_with_progressive": float(d.rtp_with_progressive),
        "rtp_at_reset": float(d.rtp_at_reset),
        "rtp_community": float(d.rtp_community),
        "rtp_hot_spot_fixed": float(d.rtp_hot_spot_fixed),
        "rtp_progressive_at_reset": float(d.rtp_progressive_at_reset),
        "rtp_progressive_long_run": float(d.rtp_progressive_long_run),
        **{f"{m.level.value}_hit_probability": float(m.hit_probability) for m in d.meters},
    }


def _bonus_json(b: BonusSpinFigures, paytable: Paytable) -> dict[str, Any]:
    top = b.largest
    mixed = bounded_rtp_long_run_of_mix(paytable, CHECK_MIX)
    by_denomination = {str(d.wager_cents): {
        **_denomination_json(d), "rtp_long_run_mix": float(mixed[d.wager_cents][0]),
        "rtp_long_run_mix_error": float(mixed[d.wager_cents][1])} for d in b.denominations}
    return {
        "trigger_probability": float(b.trigger_probability),
        "rtp_fixed": float(top.rtp_fixed),
        "rtp_with_progressive": float(top.rtp_with_progressive),
        "rtp_at_reset": float(top.rtp_at_reset),
        "denomination_cents": top.wager_cents,
        "seats": b.seats,
        "mix_smallest_denomination": float(CHECK_MIX),
        "by_denomination": by_denomination,
    }


def _bonus_exact(b: BonusSpinFigures) -> list[tuple[str, Fraction]]:
    out = [("trigger_probability", b.trigger_probability)]
    for d in b.denominations:
        for name in ("rtp_fixed", "rtp_at_reset", "rtp_with_progressive"):
            out.append((f"{d.wager_cents}.{name}", getattr(d, name)))
    return out


def _payout_json(w: ProgressivePayoutFigures) -> dict[str, Any]:
    return {
        "hands": {hand.value: {"probability": float(p)} for hand, p in w.hands.items()},
        "rtp_at_reset": float(w.rtp_at_reset),
        "break_even_meter_cents": w.break_even_meter_cents,
        "rtp_fixed": float(w.rtp_fixed),
        "rtp_long_run": float(w.rtp_long_run),
        "envy_rtp_per_other_wager": float(w.envy_rtp_per_other),
        "wager_cents": w.wager_cents,
    }


def _payout_exact(w: ProgressivePayoutFigures) -> list[tuple[str, Fraction]]:
    out = [(f"hands.{hand.value}", p) for hand, p in w.hands.items()]
    out += [("rtp_at_reset", w.rtp_at_reset), ("rtp_long_run", w.rtp_long_run),
            ("envy_rtp_per_other_wager", w.envy_rtp_per_other)]
    if w.break_even_meter is not None:
        out.append(("break_even_meter", w.break_even_meter))
    return out


def format_fraction_percent(value: Fraction, digits: int = 4) -> str:
    """``value`` as a percentage rounded half-even to ``digits`` decimals, e.g. ``"2.3300 %"``.

    Rounded from the exact Fraction, so no float ever decides the last digit.
    """
    scaled = round(value * 100 * 10**digits)
    sign = "-" if scaled < 0 else ""
    whole, frac = divmod(abs(scaled), 10**digits)
    text = f"{sign}{whole}.{frac:0{digits}d}" if digits > 0 else f"{sign}{whole}"
    return f"{text} %"


def figure_rows(figures: MainGameFigures) -> list[tuple[str, str, str]]:
    """(label, exact fraction, percent) rows for a CLI or par-sheet table."""
    rows: list[tuple[str, str, str]] = []
    for name, value in _fraction_figures(figures):
        label = _LABELS[name]
        if value is None:
            rows.append((label, "not offered", "—"))
        else:
            rows.append((label, f"{value.numerator}/{value.denominator}",
                         format_fraction_percent(value)))
    return rows


def bonus_rtp_warnings(paytable: Paytable) -> list[str]:
    """Why a Bonus Spin denomination's long-run RTP lies outside the paytable's ``rtp_band``.

    The band is the operator's (SPEC §3: the validator warns, it does not
    refuse); the figure is the RTP with the meters at their mean, compared
    exactly with the band's decimal bounds.
    """
    bonus = bonus_spin_figures(paytable)
    if bonus is None or paytable.bonus_spin is None:
        return []
    band = paytable.bonus_spin.rtp_band
    low, high = Fraction(repr(band.min)), Fraction(repr(band.max))
    out: list[str] = []
    for d in bonus.denominations:
        rtp = d.rtp_with_progressive
        if not low <= rtp <= high:
            out.append(
                f"bonus_spin: the {format_cents(d.wager_cents, whole_dollars=True)} wager returns "
                f"{format_fraction_percent(rtp, 2)} with the meters at their mean, outside "
                f"the band {format_fraction_percent(low, 2)} to "
                f"{format_fraction_percent(high, 2)} (rtp_band)")
    return out




_LABELS: dict[str, str] = {
    "tie_probability": "Original deal: tie",
    "p_win": "Original deal: spot wins",
    "p_lose": "Original deal: spot loses",
    "war_tie_probability": "War deal: tie (given a tie)",
    "war_win_probability": "War deal: spot wins (given a tie)",
    "war_lose_probability": "War deal: spot loses (given a tie)",
    "house_edge_war": "House edge, Initial Wager, always War",
    "house_edge_surrender": "House edge, Initial Wager, always Surrender",
    "tie_house_edge": "House edge, Tie Wager",
    "war_tie_wager_house_edge": "House edge, Tie Wager on the War deal",
}


def _fraction_figures(figures: MainGameFigures) -> list[tuple[str, Fraction | None]]:
    """The Fraction-valued fields of ``figures`` in declaration order."""
    out: list[tuple[str, Fraction | None]] = []
    for field in fields(figures):
        value = getattr(figures, field.name)
        if field.name != "decks":
            out.append((field.name, value))
    return out


def _of(kind: WagerKind, payments: list[Payment]) -> list[Payment]:
    return [pay for pay in payments if pay.kind is kind]


def _per_unit(payments: list[Payment], stake: int) -> Fraction:
    return Fraction(sum(pay.net for pay in payments), stake)


def pair_probabilities(counts: list[int]) -> dict[Outcome, Fraction]:
    """Spot card against dealer card, two cards drawn without replacement from ``counts``.

    ``counts[i]`` is the number of cards of the i-th rank, lowest rank first.
    """
    n = sum(counts)
    pairs = n * (n - 1)
    tie = sum(c * (c - 1) for c in counts)
    higher = sum(counts[s] * counts[t] for s in range(len(counts)) for t in range(s))
    lower = pairs - tie - higher
    return {
        Outcome.LOWER: Fraction(lower, pairs),
        Outcome.HIGHER: Fraction(higher, pairs),
        Outcome.TIE: Fraction(tie, pairs),
    }


def _war_probabilities(counts: list[int]) -> dict[Outcome, Fraction]:
    """The War deal's outcome given an original tie, summed over the tied rank."""
    n = sum(counts)
    joint = dict.fromkeys(Outcome, Fraction(0))
    p_tie = Fraction(0)
    for rank, c in enumerate(counts):
        p_rank = Fraction(c * (c - 1), n * (n - 1))  # both original cards of this rank
        if not p_rank:
            continue
        p_tie += p_rank
        rest = [k - 2 if i == rank else k for i, k in enumerate(counts)]
        for outcome, p in pair_probabilities(rest).items():
            joint[outcome] += p_rank * p
    return {outcome: p / p_tie for outcome, p in joint.items()}
