"""BONUS SPIN XTREME: what spins the wheel, the chance of each segment and what it pays, and
the Hot Spot's live meters (MD Ch. 10 D-E).
"""

from __future__ import annotations

from fractions import Fraction

from etg.core.paytable import BonusSpin, Paytable, ProgressiveLevel, WheelSegment
from etg.math.bonus import trigger_probability
from etg.ui.help.model import Align, Block, Chart, Heading, HelpPage, LiveMeter, Paragraph
from etg.ui.help.words import METER_RULE, denominations, meter_label, money, trigger_words


def bonus_spin_page(p: Paytable, b: BonusSpin) -> HelpPage:
    chance = trigger_probability(b, p.shoe.decks)
    bets = " or ".join(denominations(b))
    # Every segment of a ring is drawn the same width on the wheel (SPEC §6: visual width is
    # not the weight), so the odds are printed here: each segment's weight, and its chance
    # as an exact fraction of the ring's total weight and as a percent.
    headers = ("SYMBOL", "WEIGHT", "CHANCE", "%", *(f"{money(d)} WAGER"
                                                    for d in b.denominations_cents))
    flush: Align = "right"
    align: tuple[Align, ...] = ("left", flush, flush, flush,
                                *(flush,) * len(b.denominations_cents))
    # MD Ch. 10 E(1): Community Pay, to every Bonus Spin wager.
    community = Chart(headers, _ring_rows(b.community_ring, b), align)
    # MD Ch. 10 D(1): Hot Spot Pay, to the Hot Spot seat's wager only (SPEC §3).
    hot = Chart(headers, _ring_rows(b.hot_spot_ring, b), align,
                strong=tuple(i for i, s in enumerate(b.hot_spot_ring) if s.progressive))
    left: list[Block] = [
        Paragraph(f"THE WHEEL SPINS when the dealer's card is {trigger_words(b)}: "
                  f"{_chance(chance)}. Bet {bets} once a round, with an Initial Wager. "
                  f"Each Bonus Spin wager is collected; wins are paid as amounts on top. "
                  f"On the wheel all segments of a ring are the same size; their chances are "
                  f"in the tables."),
        Heading("COMMUNITY RING · every Bonus Spin wager wins"),
        community,
        Heading("SEAT RING · picks the Hot Spot"),
        Paragraph(f"{p.seats} equal segments, one per seat ({_chance(Fraction(1, p.seats))} "
                  f"each), wagering or not. A Hot Spot seat with a Bonus Spin wager also wins "
                  f"the Hot Spot ring."),
    ]
    right: list[Block] = [Heading("HOT SPOT RING · the Hot Spot seat wins"), hot]
    for level in (ProgressiveLevel.PRIMARY, ProgressiveLevel.SECONDARY):
        meter = b.meter(level)
        right.append(LiveMeter(level, meter_label(p, level),
                               f"{level.value} progressive · resets to "
                               f"{money(meter.reset_cents)}"))
    right.append(Paragraph(METER_RULE, note=True))
    return HelpPage("BONUS SPIN XTREME", "BONUS SPIN", (tuple(left), tuple(right)),
                    widths=(50, 50))


def _ring_rows(segments: tuple[WheelSegment, ...],
               b: BonusSpin) -> tuple[tuple[str, ...], ...]:
    """Symbol, weight, chance (weight over the ring's total, as a fraction and a percent)
    and pay per denomination of each segment."""
    total = sum(s.weight for s in segments)
    rows = []
    for s in segments:
        if s.meter_percent is not None:
            pays = [f"{pct}% of meter" for pct in s.meter_percent]
        else:
            pays = [money(s.pay_cents(c)) for c in range(len(b.denominations_cents))]
        chance = Fraction(s.weight, total)
        rows.append((s.symbol, str(s.weight), _fraction(chance), _percent(chance), *pays))
    return tuple(rows)


def _chance(p: Fraction) -> str:
    """``1 in 26`` for a small chance, ``49.5%`` for a large one."""
    if p <= 0:
        return "never"
    if p.numerator == 1:
        return f"1 in {p.denominator}"
    if p < Fraction(1, 10):
        return f"1 in {float(1 / p):.1f}"
    return f"{float(p) * 100:.1f}%"


def _percent(p: Fraction) -> str:
    """A ring segment's chance, ``0.83%`` or ``49.5%``: one format down a chart's column."""
    digits = 2 if p < Fraction(1, 100) else 1
    return f"{float(p) * 100:.{digits}f}%"


def _fraction(p: Fraction) -> str:
    """An exact chance in lowest terms: ``1/60``."""
    return f"{p.numerator}/{p.denominator}"
