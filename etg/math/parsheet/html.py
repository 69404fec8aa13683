"""The par sheet as one standalone HTML page: inline CSS and SVG, no script, no network.

:func:`render` is a pure function of a :class:`~etg.math.parsheet.figures.ParSheet`.
Percentages are rounded from the exact Fractions (never from a float), and a
Fraction is printed as ``p/q`` beside them when it is short enough to read.
Print CSS lays it out on A4, each major section on a new page.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from fractions import Fraction
from html import escape

from etg.core.cards import Rank
from etg.core.paytable import Layout, PayoutHand, PayoutLimitScope, Paytable, SettleFrom
from etg.math.exact import format_fraction_percent
from etg.math.longrun import MeterLongRun
from etg.math.parsheet import svg
from etg.math.parsheet.figures import (
    VOLATILITY_ROUNDS,
    BonusSheet,
    ParSheet,
    PayoutSheet,
    SegmentLine,
)
from etg.math.policies import Policy
from etg.math.precision import (
    bounded_decimal,
    bounded_money,
    bounded_percent,
    error_text,
    estimate_text,
    interval_text,
)

SHORT_FRACTION = 21  # characters: longer exact fractions are left to the JSON twin
_LIMIT_SCOPE = {PayoutLimitScope.HAND: "per hand (one seat's wagers on one spot)",
                PayoutLimitScope.SEAT_ROUND: "per seat per round"}

CSS = """
@page { size: A4; margin: 12mm; }
* { box-sizing: border-box; }
body { font-family: 'DejaVu Sans', Arial, sans-serif; font-size: 10pt; color: #222;
       max-width: 186mm; margin: 0 auto; padding: 6mm 0; line-height: 1.35; }
h1 { font-size: 17pt; margin: 0 0 2mm; }
h2 { font-size: 13pt; border-bottom: 2px solid #1f5fa8; margin: 7mm 0 2mm; padding-bottom: 1mm; }
h3 { font-size: 11pt; margin: 4mm 0 1.5mm; }
p.note { font-size: 8.5pt; color: #444; margin: 1mm 0 2mm; }
table { border-collapse: collapse; width: 100%; margin: 1mm 0 3mm; font-size: 8.5pt; }
th, td { border: 1px solid #bbb; padding: 1mm 1.5mm; vertical-align: top; }
th { background: #e9eef5; text-align: left; }
td.n { text-align: right; font-variant-numeric: tabular-nums; }
#volatility td.n { white-space: nowrap; }
#volatility table, table.compact { font-size: 7.5pt; }
table.compact th, table.compact td { padding: 0.8mm 1mm; }
td.ok { color: #1d6b1d; font-weight: bold; } td.bad { color: #a51d1d; font-weight: bold; }
svg.chart { width: 100%; height: auto; display: block; margin: 2mm 0; }
.wheel svg.chart { width: 75%; margin: 0 auto; }
dl.identity { display: grid; grid-template-columns: 38mm 1fr; gap: 0.6mm 3mm; margin: 0; }
dl.identity dt { font-weight: bold; } dl.identity dd { margin: 0; word-break: break-all; }
@media print {
  body { padding: 0; max-width: none; }
  section.major { break-before: page; }
  table, svg, .keep { break-inside: avoid; }
  h2, h3 { break-after: avoid; }
}
"""


def render(sheet: ParSheet) -> str:
    """The whole page for one paytable."""
    title = f"Par sheet — {sheet.identity.name} ({sheet.identity.id})"
    parts = [
        "<!DOCTYPE html>", "<html lang='en'><head><meta charset='utf-8'>",
        f"<title>{escape(title)}</title><style>{CSS}</style></head><body>",
        f"<h1>{escape(title)}</h1>",
        _identity(sheet), _rules(sheet.paytable), _main(sheet), _spread(sheet),
    ]
    if sheet.payout is not None:
        parts.append(_payout(sheet.payout, sheet.paytable))
    if sheet.bonus is not None:
        parts.append(_bonus(sheet.bonus, sheet))
    parts += [_volatility(sheet), _simulation(sheet), _engine_check(sheet), _method(),
              "</body></html>"]
    return "\n".join(parts)


# --- formatting -----------------------------------------------------------------------------

def pct(value: Fraction, digits: int = 4) -> str:
    return format_fraction_percent(value, digits)


def frac(value: Fraction | None) -> str:
    """``p/q`` when short, else an em dash (the JSON twin carries every exact value)."""
    if value is None:
        return "—"
    text = f"{value.numerator}/{value.denominator}" if value.denominator != 1 else str(value)
    return text if len(text) <= SHORT_FRACTION else "—"


def both(text: str, value: Fraction) -> str:
    """``text`` with the exact fraction beside it when that is short enough to read."""
    exact = frac(value)
    return text if exact == "—" else f"{text}  {exact}"


def money(cents: Fraction | int | float) -> str:
    value = float(cents) / 100
    return f"-${-value:,.2f}" if value < 0 else f"${value:,.2f}"


def one_in(p: Fraction) -> str:
    return "never" if not p else f"1 in {float(1 / p):,.1f}"


def _table(head: Sequence[str], rows: Iterable[Sequence[str]], numeric_from: int = 1,
           compact: bool = False) -> str:
    opening = "<table class='compact'>" if compact else "<table>"
    out = [f"{opening}<thead><tr>", *(f"<th>{escape(h)}</th>" for h in head),
           "</tr></thead><tbody>"]
    for row in rows:
        out.append("<tr>")
        for i, cell in enumerate(row):
            cls = " class='n'" if i >= numeric_from else ""
            out.append(f"<td{cls}>{escape(cell)}</td>")
        out.append("</tr>")
    out.append("</tbody></table>")
    return "".join(out)


def _note(text: str) -> str:
    return f"<p class='note'>{escape(text)}</p>"


# --- sections -------------------------------------------------------------------------------

def _identity(sheet: ParSheet) -> str:
    i = sheet.identity
    rows = [("File", i.file), ("Paytable id", i.id), ("Name", i.name), ("SHA-256", i.sha256),
            ("Jurisdiction", i.jurisdiction), ("Program", f"etg {i.version}")]
    if sheet.bonus is not None:  # the mix means nothing to a game without the wheel
        rows.append(("Bonus Spin mix", f"{pct(i.mix, 1)} of Bonus Spin wagers in the smallest "
                                       f"denomination"))
    rows.append(("Simulation", f"{sheet.sim_rounds:,} rounds" if sheet.sim_rounds else "not run"))
    items = "".join(f"<dt>{escape(k)}</dt><dd>{escape(v)}</dd>" for k, v in rows)
    return f"<section id='identity'><h2>Identity</h2><dl class='identity'>{items}</dl></section>"


def _rules(p: Paytable) -> str:
    o = p.payouts
    rows = [
        ("Layout", f"{p.layout.value}, {p.spot_count} spots, {p.seats} seats, up to "
                   f"{p.max_spots_per_seat} "
                   f"{'adjacent ' if p.adjacent_spots_only and p.max_spots_per_seat > 1 else ''}"
                   f"spots per seat"),
        ("Shoe", f"{p.shoe.decks} decks, cut card {p.shoe.penetration_min:g}–"
                 f"{p.shoe.penetration_max:g} of the shoe from its bottom"),
        ("Initial Wager", f"{money(p.limits.initial.min_cents)} to "
                          f"{money(p.limits.initial.max_cents)}, pays {o.initial}"),
        ("Tie Wager", f"{money(p.limits.tie.min_cents)} to {money(p.limits.tie.max_cents)}, "
                      f"pays {o.tie}; on the War deal: "
                      f"{'offered' if p.war_tie_wager else 'not offered'}"),
        ("War", f"form {p.war_form.value}: War pays {o.war}, War tie {o.war_tie}; "
                f"Surrender returns half; default decision {p.default_decision.value}"),
        ("War deal", f"{p.war_burn.before_players} cards burned before the players' War "
                     f"cards, {p.war_burn.before_dealer} before the dealer's (burns change no "
                     f"figure on this sheet)"),
        ("Settlement", "seat by seat from the dealer's "
                       f"{'left' if p.settle_from is SettleFrom.DEALER_LEFT else 'right'}"),
        ("Payout limit", f"{money(p.payout_limit_rules.amount_cents)} "
                         f"{_LIMIT_SCOPE[p.payout_limit_rules.scope]}"),
    ]
    if p.bonus_spin is not None:
        b = p.bonus_spin
        trig = ", ".join(f"{c.colour.value} {c.rank}" for c in b.trigger)
        wagers = ", ".join(money(c) for c in b.denominations_cents)
        rows.append(("Bonus Spin Xtreme", f"wagers {wagers}; "
                                          f"trigger: dealer's card {trig}; "
                                          f"{len(b.community_ring)} Community segments, "
                                          f"{p.seats} Seat segments, {len(b.hot_spot_ring)} Hot "
                                          f"Spot segments"))
        for name, m in (("primary", b.primary), ("secondary", b.secondary)):
            ceiling = money(m.ceiling_cents) if m.ceiling_cents is not None else "none"
            rows.append((f"Meter: {name}", f"initial {money(m.initial_cents)}, reset "
                                           f"{money(m.reset_cents)}, rate {m.rate:g}, ceiling "
                                           f"{ceiling}"))
    if p.progressive_payout is not None:
        w = p.progressive_payout
        pays = "; ".join(f"{h.label} {w.pays.of(h).pays} to {w.pays.of(h).to}"
                         + (f" + {w.pays.of(h).meter_percent} % of meter"
                            if w.pays.of(h).meter_percent else "") for h in PayoutHand)
        envy = "; ".join(f"{h.label} {money(w.envy_cents.of(h))}" for h in PayoutHand
                         if w.envy_cents.of(h))
        rows.append(("Progressive Payout", f"{money(w.wager_cents)} wager: {pays}"))
        rows.append(("Envy Bonus", envy or "none"))
        ceiling = money(w.meter.ceiling_cents) if w.meter.ceiling_cents is not None else "none"
        rows.append(("Meter: progressive payout", f"initial {money(w.meter.initial_cents)}, "
                                                  f"reset {money(w.meter.reset_cents)}, rate "
                                                  f"{w.meter.rate:g}, ceiling {ceiling}"))
    return ("<section id='rules'><h2>Rules summary</h2>"
            + _table(("rule", "as configured"), rows, numeric_from=9) + "</section>")


def _main(sheet: ParSheet) -> str:
    pol = sheet.policies
    head = ("figure (per unit of the Initial Wager)", *(f.policy.label for f in pol.by_policy))

    def line(label: str, values: Iterable[Fraction]) -> list[str]:
        return [label, *(both(pct(v), v) for v in values)]

    rows = [
        line("House edge per Initial Wager", (f.house_edge for f in pol.by_policy)),
        line("House edge per total wagered", (f.house_edge_per_wagered for f in pol.by_policy)),
        line("Element of risk", (f.element_of_risk for f in pol.by_policy)),
        line("Hit frequency (hand wins money)", (f.hit_frequency for f in pol.by_policy)),
        line("P(going to War)", (f.war_probability for f in pol.by_policy)),
        ["Variance of the net", *(both(f"{float(f.variance):.6f}", f.variance)
                                  for f in pol.by_policy)],
        ["Mean total wagered", *(both(f"{float(f.mean_wagered):.6f}", f.mean_wagered)
                                 for f in pol.by_policy)],
    ]
    differs = pol.best_differs_from_war
    best = ("The best decision is War on every tied rank: it equals always War."
            if not differs else f"The best decision surrenders ties of rank(s) "
                                f"{', '.join(Rank(r).label for r in differs)}; War on the others.")
    outcomes = []
    for f in pol.by_policy:
        if f.policy is Policy.BEST and not differs:
            continue
        for o in f.outcomes:
            outcomes.append([f.policy.label, o.label, f"{float(o.net):+g}", pct(o.probability),
                             frac(o.probability)])
    decisions = [[Rank(d.rank).label, pct(d.probability), f"{float(d.war):+.6f}", frac(d.war),
                  f"{float(d.surrender):+g}", d.best.value] for d in pol.decisions]
    m = sheet.main
    deals = [["Original deal: spot higher", pct(m.p_win), frac(m.p_win)],
             ["Original deal: spot lower", pct(m.p_lose), frac(m.p_lose)],
             ["Original deal: tie", pct(m.tie_probability), frac(m.tie_probability)],
             ["War deal: spot higher (given a tie)", pct(m.war_win_probability),
              frac(m.war_win_probability)],
             ["War deal: spot lower (given a tie)", pct(m.war_lose_probability),
              frac(m.war_lose_probability)],
             ["War deal: tie (given a tie)", pct(m.war_tie_probability),
              frac(m.war_tie_probability)]]
    ties = [[t.name, pct(t.probability), frac(t.probability), pct(t.house_edge),
             frac(t.house_edge), f"{float(t.variance):.4f}"] for t in sheet.tie_wagers]
    bars = [svg.Bar(f"{f.policy.label}: {o.label}", float(o.probability),
                    f"{pct(o.probability, 2)}") for f in pol.by_policy
            if f.policy is not Policy.BEST for o in f.outcomes]
    return (
        "<section id='main-game' class='major'><h2>Main game: the Initial Wager</h2>"
        + _note("Per spot; exact over the finite shoe (the spot's card, the dealer's card and "
                "the two War cards are four draws without replacement). Element of risk: the "
                "loss per unit of the final wager in action, a surrendered hand counting the "
                "half it loses.")
        + _table(head, rows)
        + f"<p>{escape(best)}</p>"
        + "<h3>Deals</h3>" + _table(("event", "probability", "exact"), deals)
        + "<h3>Outcomes per policy</h3>"
        + _table(("policy", "outcome", "net", "probability", "exact"), outcomes, numeric_from=2)
        + svg.bar_chart("Hit frequencies of the Initial Wager's outcomes", bars)
        + "<h3>Decision by tied rank (per unit of the Initial Wager)</h3>"
        + _table(("rank", "P(tie of rank)", "War: E[net]", "exact", "Surrender", "best"),
                 decisions)
        + "</section><section id='tie-wagers'><h2>Tie Wagers</h2>"
        + _note("Per unit of the Tie Wager; the War-deal Tie Wager is placed with the War "
                "Wager (MD Ch. 7 F(2)).")
        + _table(("wager", "P(win)", "exact", "house edge", "exact", "variance"), ties)
        + "</section>")


def _spread(sheet: ParSheet) -> str:
    rows = []
    for s in sheet.spread:
        rows.append([s.policy.label, f"{float(s.variance):.6f}", f"{float(s.covariance):.6f}",
                     f"{float(s.correlation):.6f}"])
    seats = [[s.policy.label, str(k.spots), f"{float(k.variance):.5f}",
              f"{math.sqrt(float(k.variance)):.5f}", f"{k.sd_per_wagered:.5f}"]
             for s in sheet.spread for k in s.seats]
    community = sheet.paytable.layout is Layout.COMMUNITY
    title = ("Community layout: spread within a round" if community
             else "Per-seat layout: seats of one round move together")
    return (f"<section id='spread'><h2>{escape(title)}</h2>"
            + _note("Every spot of a round meets the same dealer card (and the same dealer's "
                    "War card), so two spots' nets are correlated. Nets per unit of the "
                    "Initial Wager." if community else
                    "Every seat's card meets the same dealer card (and the same dealer's War "
                    "card), so two seats' nets are correlated. Nets per unit of the Initial "
                    "Wager.")
            + _table(("policy", "variance, one spot", "covariance, two spots",
                      "correlation"), rows)
            + _table(("policy", "spots played by a seat", "variance per round",
                      "sd per round", "sd per unit wagered"), seats)
            + "</section>")


def _payout(p: PayoutSheet, paytable: Paytable) -> str:
    pol = p.policies
    head = ("hand", *(f.policy.label for f in pol.by_policy))
    hands = [[h.label, *(both(pct(f.hands[h], 5), f.hands[h]) for f in pol.by_policy)]
             for h in PayoutHand]
    rows = [
        ["Hit frequency", *(pct(f.hit_frequency) for f in pol.by_policy)],
        ["RTP, fixed pays", *(both(pct(f.rtp_fixed), f.rtp_fixed) for f in pol.by_policy)],
        ["RTP, meter at reset", *(both(pct(f.rtp_at_reset), f.rtp_at_reset)
                                  for f in pol.by_policy)],
        ["RTP per $1,000 of meter", *(pct(f.meter_slope * 100_000) for f in pol.by_policy)],
        ["Break-even meter", *("never" if f.break_even_meter_cents is None
                               else money(f.break_even_meter_cents) for f in pol.by_policy)],
        ["Long-run RTP (renewal–reward)",
         *("meter never won" if p.long_run[f.policy] is None
           else bounded_percent(f.rtp_fixed + _lr(p.long_run[f.policy]).rtp,
                                _lr(p.long_run[f.policy]).errors.rtp)
           for f in pol.by_policy)],
        ["Envy Bonus per other seat's wager", *(pct(f.envy_per_other) for f in pol.by_policy)],
    ]
    at_meter = [[money(m), *(pct(f.rtp_at_meter(Fraction(m))) for f in pol.by_policy)]
                for m in p.meter_points]
    seats = paytable.seats
    envy = [[str(k), *(pct(f.rtp_at_reset + k * f.envy_per_other) for f in pol.by_policy)]
            for k in range(seats)]
    best = pol.of(Policy.BEST)
    war = pol.of(Policy.WAR)
    high = max(p.meter_points)
    chart = svg.line_chart(
        "Progressive Payout RTP against the meter",
        [svg.Series(f.policy.label, ((0.0, float(f.rtp_fixed)),
                                     (high / 100, float(f.rtp_at_meter(Fraction(high))))))
         for f in pol.by_policy if f.policy is not Policy.BEST],
        "meter ($)", "RTP",
        [(b / 100, f"break-even {money(b)}") for b in
         ([war.break_even_meter_cents] if war.break_even_meter_cents is not None else [])])
    differs = pol.best_differs_from_war
    best_text = (f"With an Initial Wager of {money(pol.initial_cents)} (the table minimum) and "
                 f"the meter at reset, the best decision is War on every tie class: best equals "
                 f"always War." if not differs else
                 f"The best decision surrenders: {', '.join(t.label for t in differs)}.")
    by_class = {(d.tie.rank, d.tie.suited): d for d in pol.decisions}
    classes = []
    for rank in sorted({d.tie.rank for d in pol.decisions}):
        row = [Rank(rank).label]
        for suited in (True, False):
            d = by_class.get((rank, suited))
            row += (["—", "—", "—"] if d is None else
                    [pct(d.probability, 4), f"{money(d.war_cents)} / {money(d.surrender_cents)}",
                     d.best.value])
        classes.append(row)
    lr = p.long_run[Policy.BEST]
    hand_bars = [svg.Bar(h.label, float(best.hands[h]), one_in(best.hands[h]))
                 for h in PayoutHand if best.hands[h]]
    return (
        "<section id='progressive-payout' class='major'><h2>Progressive Payout Wager</h2>"
        + _note("A player who surrenders keeps only the original deal's Suited Tie or Tie: the "
                "Double Tie and both Four-of-a-Kinds need the War cards (SPEC §4).")
        + "<h3>Hand probabilities per wager</h3>" + _table(head, hands)
        + svg.bar_chart("Progressive Payout Hands, best decision (log scale)", hand_bars,
                        log=True)
        + "<h3>Return per decision policy</h3>" + _table(("figure", *head[1:]), rows)
        + f"<p>{escape(best_text)}</p>"
        + "<h3>RTP as a function of the meter</h3>"
        + _table(("meter", *head[1:]), at_meter) + chart
        + "<h3>Envy Bonus: RTP at the reset meter with k other wagering seats</h3>"
        + _note("Each other seat holds one Progressive Payout Wager and decides its ties as "
                "the column's policy; the Envy Bonus is paid for their hands, never one's own.")
        + _table(("other seats with the wager", *head[1:]), envy)
        + "<h3>Decision by tie class (Initial Wager and Progressive Payout Wager)</h3>"
        + _note(f"Expected return of both wagers from the tie on, War / Surrender, "
                f"with a {money(pol.initial_cents)} Initial Wager and the meter at reset.")
        + _table(("rank", "P(suited tie)", "suited: War / Surrender", "best",
                  "P(unsuited tie)", "unsuited: War / Surrender", "best"), classes)
        + ("" if lr is None else "<h3>The meter's long run (best decision)</h3>"
           + _long_run_table([("progressive payout", lr)]) + _growth_chart(
               "Progressive Payout meter", lr))
        + "</section>")


def _lr(lr: MeterLongRun | None) -> MeterLongRun:
    assert lr is not None
    return lr


def _segment_rows(lines: tuple[SegmentLine, ...]) -> list[list[str]]:
    return [[s.symbol, str(s.weight), pct(s.probability, 3), *s.pays, one_in(s.hit_frequency)]
            for s in lines]


def _bonus(b: BonusSheet, sheet: ParSheet) -> str:
    p = sheet.paytable
    assert p.bonus_spin is not None
    columns = [money(c) for c in p.bonus_spin.denominations_cents]
    f = b.figures
    rings = [
        ("Community ring", [svg.Segment(s.symbol, s.weight, s.pays[-1]) for s in b.community]),
        ("Seat ring", [svg.Segment(f"seat {k}", 1) for k in range(1, p.seats + 1)]),
        ("Hot Spot ring", [svg.Segment(s.symbol, s.weight, s.pays[-1]) for s in b.hot_spot]),
    ]
    rtp_rows = []
    for d in b.denominations:
        rtp_rows.append([money(d.wager_cents), both(pct(d.rtp_community), d.rtp_community),
                         pct(d.rtp_hot_spot_fixed), both(pct(d.rtp_fixed), d.rtp_fixed),
                         pct(d.rtp_progressive_at_reset),
                         pct(d.rtp_progressive_at_reset + d.rtp_fixed),
                         bounded_percent(d.rtp_progressive_long_run, d.rtp_long_run_error),
                         bounded_percent(d.rtp_long_run, d.rtp_long_run_error),
                         error_text(d.rtp_long_run_error), pct(d.hit_frequency)])
    meters = [(m.level.value, m.long_run) for m in b.meters]
    pace = [[m.level.value, f"{float(m.long_run.wagers_between_hits):,.0f}",
             money(m.long_run.coin_in_between_hits_cents),
             f"{float(m.spins_between_hits):,.1f}", f"{float(m.rounds_between_hits):,.0f}"]
            for m in b.meters]
    hot_bars = [svg.Bar(s.symbol, float(s.hit_frequency), one_in(s.hit_frequency))
                for s in b.hot_spot]
    return (
        "<section id='bonus-spin' class='major'><h2>Bonus Spin Xtreme</h2>"
        + _note(f"Trigger: {one_in(f.trigger_probability)} rounds ({frac(f.trigger_probability)})"
                f". Each seat is the Hot Spot with probability 1/{p.seats}, wagering or not. "
                f"Hit frequencies are per wager.")
        + "<div class='wheel keep'>"
        + svg.wheel("The wheel ring by ring (angles are weights; pays of the largest wager)",
                    rings) + "</div>"
        + "<h3>Community ring (every wagering seat)</h3>"
        + _table(("symbol", "weight", "P(stop)", *columns, "hit frequency per wager"),
                 _segment_rows(b.community))
        + "<h3>Hot Spot ring (the Hot Spot seat only)</h3>"
        + _table(("symbol", "weight", "P(stop)", *columns, "hit frequency per wager"),
                 _segment_rows(b.hot_spot))
        + svg.bar_chart("Hot Spot symbols: hit frequency per wager (log scale)", hot_bars,
                        log=True)
        + "<h3>Return per denomination</h3>"
        + _table(("wager", "community", "Hot Spot fixed", "fixed total", "meters at reset",
                  "total at reset", "meters, long run", "total, long run", "long run: bound",
                  "hit frequency"), rtp_rows)
        + _note(f"Long run: renewal–reward with {pct(sheet.identity.mix, 1)} of the Bonus Spin "
                f"wagers in the smallest denomination; both denominations feed the same meters "
                f"and win their own share of them. A long-run figure that is not exact is the "
                f"midpoint of a proven bracket: it shows only the digits its bound vouches for "
                f"(within one unit of the last digit), the bound beside it.")
        + "<h3>Pace of the meters</h3>"
        + _table(("meter", "wagers between hits", "coin-in between hits",
                  "spins between hits (every seat wagering)",
                  "rounds between hits (every seat wagering)"), pace)
        + "<h3>The meters' long run</h3>" + _long_run_table(meters)
        + "".join(_growth_chart(f"{name} meter", lr) for name, lr in meters)
        + "</section>")


def _long_run_table(meters: Sequence[tuple[str, MeterLongRun]]) -> str:
    rows: list[list[str]] = []
    wagers: list[list[str]] = []
    for name, lr in meters:
        e = lr.errors
        ceiling = ("no ceiling" if lr.ceiling_cents is None else
                   f"{money(lr.ceiling_cents)}: "
                   f"{bounded_percent(lr.ceiling_probability, e.ceiling_probability, 6)}")
        rtp = bounded_percent(lr.rtp, e.rtp)
        rows.append([name, lr.method.value, one_in(lr.hit_probability),
                     bounded_money(lr.mean_start_cents, e.start_cents),
                     bounded_money(lr.mean_meter_at_hit_cents, e.meter_cents),
                     bounded_money(lr.mean_award_cents, e.award_cents),
                     bounded_money(lr.mean_seed_cents, e.seed_cents), ceiling,
                     bounded_money(lr.mean_reserve_at_hit_cents, e.reserve_cents),
                     both(rtp, lr.rtp) if lr.method.exact else rtp, error_text(e.rtp)])
        for d in lr.denominations:
            wagers.append([name, money(d.wager_cents), pct(d.share, 2), f"{d.percent} %",
                           bounded_money(d.mean_meter_at_hit_cents, d.meter_error_cents),
                           bounded_money(d.mean_award_cents, d.award_error_cents),
                           bounded_percent(d.rtp, d.rtp_error), error_text(d.rtp_error)])
    return (_table(("meter", "method", "hit per wager", "start after a hit", "meter at hit",
                    "award", "seed per hit", "ceiling: P(at it)", "reserve at hit",
                    "meter RTP", "RTP bound"), rows, compact=True)
            + _table(("meter", "wager", "share of wagers", "share of meter", "meter at hit",
                      "award", "meter RTP for this wager", "bound"), wagers))


def _growth_chart(title: str, lr: MeterLongRun) -> str:
    """Expected meter against wagers since the last hit, with the gap's mean and quantiles."""
    q = float(lr.hit_probability)
    gap = 1 / q
    start = float(lr.mean_start_cents) / 100
    per_wager = float(lr.contributions_between_hits_cents) / 100 / gap
    xs = [gap * 3 * k / 60 for k in range(61)]
    line = svg.Series("expected meter ($) before a hit", tuple((x, start + per_wager * x)
                                                               for x in xs))
    marks = [(gap, "mean gap"), (math.log(2) * gap, "median"), (math.log(20) * gap, "95 %")]
    return svg.line_chart(f"{title}: growth between hits", [line], "wagers since the last hit",
                          "meter ($)", marks)


def _volatility(sheet: ParSheet) -> str:
    head = ("wager", "RTP", "sd per unit",
            *(f"{n:.0e} rounds".replace("e+0", "e") for n in VOLATILITY_ROUNDS))
    rows = [[v.wager.replace(" (per Initial Wager)", ""), pct(v.rtp, 3), f"{v.sd:.3f}",
             *(f"{lo * 100:.2f} – {hi * 100:.2f} %" for _, lo, hi in v.limits)]
            for v in sheet.volatility]
    return ("<section id='volatility' class='major'><h2>Volatility: confidence limits of the "
            "payback</h2>"
            + _note("99 % limits of the payback over n wagers: RTP ± 2.5758 · sd / √n per wager "
                    "(the volatility index of slot par sheets). Initial Wager per unit of the "
                    "Initial Wager; Bonus Spin with meter awards at their long-run mean.")
            + _table(head, rows) + "</section>")


def _simulation(sheet: ParSheet) -> str:
    if not sheet.sim_rounds:
        return ("<section id='simulation'><h2>Simulation agreement</h2>"
                + _note("Not run for this sheet (--sim-rounds 0).") + "</section>")
    rows = [[r.name, exact_cell(r.exact, r.exact_error),
             *_simulated(r.estimate.mean, r.estimate.low, r.estimate.high),
             "agrees" if r.agrees else "OUTSIDE"] for r in sheet.agreement]
    meters = []
    for c in sheet.meter_checks:
        est = c.simulation.award_cents[c.wager_cents]
        half = Fraction((est.high - est.low) / 2)
        meters.append([f"{c.meter}, {money(c.wager_cents)} wager award", money(c.exact),
                       bounded_money(Fraction(est.mean), half),
                       f"{bounded_money(Fraction(est.low), half)} … "
                       f"{bounded_money(Fraction(est.high), half)}",
                       "agrees" if c.agrees else "OUTSIDE"])
    hits = sheet.meter_checks[0].simulation.hits if sheet.meter_checks else 0
    return ("<section id='simulation' class='major'><h2>Simulation agreement</h2>"
            + _note(f"Vectorised simulation of {sheet.sim_rounds:,} rounds: each exact figure "
                    f"beside its estimate and 99 % interval.")
            + _table(("figure", "exact", "simulated", "99 % interval", ""), rows)
            + "<h3>The meters' long run against a seeded play of each meter</h3>"
            + _note(f"{hits:,} hits per meter, played with the engine's own contribute and award.")
            + _table(("figure", "renewal–reward", "simulated", "99 % interval", ""), meters)
            + "</section>")


def exact_cell(value: float, error: float) -> str:
    """An agreement row's exact figure: six decimals, fewer if its bound vouches for fewer."""
    return bounded_decimal(Fraction(value), Fraction(error), exact_digits=6, cap=6)


def _simulated(mean: float, low: float, high: float) -> list[str]:
    """A simulated mean and its interval, with the decimals the interval's half-width allows."""
    return [estimate_text(mean, (high - low) / 2), interval_text(low, high)]


def _engine_check(sheet: ParSheet) -> str:
    """The same figures played through the real state machine: shown only when it was run."""
    if not sheet.engine_rounds:
        return ""
    rows = [[r.name, exact_cell(r.exact, r.exact_error),
             *_simulated(r.estimate.mean, r.estimate.low, r.estimate.high),
             "agrees" if r.agrees else "OUTSIDE"] for r in sheet.engine_agreement]
    return ("<section id='engine-check' class='major'><h2>Engine cross-check</h2>"
            + _note(f"{sheet.engine_rounds:,} rounds through the real state machine (the "
                    f"game's own engine, bots at every seat), over {sheet.engine_jobs} "
                    f"processes each with a seed stream of its own: each exact figure beside "
                    f"its estimate and 99 % interval.")
            + _table(("figure", "exact", "engine", "99 % interval", ""), rows)
            + "</section>")


def _method() -> str:
    return ("<section id='method'><h2>Method</h2>"
            + _note("Main game, Tie Wagers, Progressive Payout Hands and the Bonus Spin wheel: "
                    "exact Fractions by combinatorics over the finite shoe (etg.math.exact, "
                    "policies, spread, bonus, progressive_payout). The meters' long run: "
                    "renewal–reward over the cycles between hits (etg.math.longrun): closed "
                    "form where every award is 100 % and there is no ceiling; otherwise the "
                    "mean start of a cycle is bracketed between two Markov chains on a grid, "
                    "a lower and an upper bound with a proof (etg.math.meter_chain), and each "
                    "figure is the bracket's midpoint with its proven bound. Exact figures are "
                    "rounded from the exact fractions; a bounded figure shows only the digits "
                    "its bound vouches for; a simulated one only its interval's digits. The "
                    "JSON twin (--json) carries every exact fraction and every bound.")
            + "</section>")
