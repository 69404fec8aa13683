"""Inline SVG for the par sheet: bar charts, line charts and the wheel, as strings.

Pure functions of their numbers: no state, no I/O, no script. Text is
escaped with :func:`html.escape`; sizes are in CSS pixels of a ``viewBox``
so that the page scales them to the printed width.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from html import escape

FONT = "font-family='DejaVu Sans, Arial, sans-serif'"
INK = "#222"
GRID = "#ccc"
PALETTE = ("#1f5fa8", "#d9822b", "#3a923a", "#b5322e", "#7b57a8", "#8c6d31", "#c75fa0",
           "#5f6f7a", "#b8a122", "#2aa3b8")


@dataclass(frozen=True)
class Bar:
    label: str
    value: float
    note: str = ""  # printed after the bar, e.g. "1 in 26"


@dataclass(frozen=True)
class Series:
    name: str
    points: tuple[tuple[float, float], ...]


@dataclass(frozen=True)
class Segment:
    """A wheel segment: its label, weight (its angle) and a second line (its pay)."""

    label: str
    weight: int
    pay: str = ""


def bar_chart(title: str, bars: Sequence[Bar], log: bool = False, width: int = 720) -> str:
    """Horizontal bars, one per row; ``log`` scales lengths by log10 (for probabilities)."""
    row, left, right, top = 22, 230, 120, 30
    height = top + row * len(bars) + 30
    values = [b.value for b in bars if b.value > 0]
    if not values:
        return ""
    if log:
        low = math.floor(math.log10(min(values)))
        high = math.ceil(math.log10(max(values)))
        high = max(high, low + 1)

        def length(v: float) -> float:
            return 0.0 if v <= 0 else (math.log10(v) - low) / (high - low)
    else:
        top_value = max(values)

        def length(v: float) -> float:
            return max(0.0, v) / top_value
    span = width - left - right
    out = [_open(width, height, title),
           f"<text x='{width / 2}' y='18' text-anchor='middle' font-size='14' {FONT} "
           f"fill='{INK}'>{escape(title)}</text>"]
    if log:
        for exponent in range(low, high + 1):
            x = left + span * (exponent - low) / (high - low)
            out.append(f"<line x1='{x:.1f}' y1='{top - 4}' x2='{x:.1f}' "
                       f"y2='{height - 26}' stroke='{GRID}'/>")
            out.append(f"<text x='{x:.1f}' y='{height - 10}' text-anchor='middle' font-size='10' "
                       f"{FONT} fill='{INK}'>1e{exponent}</text>")
    for i, b in enumerate(bars):
        y = top + i * row
        w = span * length(b.value)
        colour = PALETTE[i % len(PALETTE)]
        out.append(f"<text x='{left - 6}' y='{y + 14}' text-anchor='end' font-size='11' {FONT} "
                   f"fill='{INK}'>{escape(b.label)}</text>")
        out.append(f"<rect x='{left}' y='{y + 3}' width='{w:.1f}' height='{row - 6}' "
                   f"fill='{colour}'/>")
        out.append(f"<text x='{left + w + 4:.1f}' y='{y + 14}' font-size='10' {FONT} "
                   f"fill='{INK}'>{escape(b.note)}</text>")
    out.append("</svg>")
    return "".join(out)


def line_chart(title: str, series: Sequence[Series], x_label: str, y_label: str,
               marks: Sequence[tuple[float, str]] = (), width: int = 720,
               height: int = 300) -> str:
    """Lines through each series' points, with vertical ``marks`` (x, label)."""
    left, right, top, bottom = 80, 20, 30, 48
    xs = [x for s in series for x, _ in s.points] + [x for x, _ in marks]
    ys = [y for s in series for _, y in s.points]
    if not xs or not ys:
        return ""
    x0, x1 = min(xs), max(xs)
    y0, y1 = min(ys), max(ys)
    if x1 == x0:
        x1 = x0 + 1
    pad = (y1 - y0) * 0.08 or abs(y1) * 0.1 or 1.0
    y0, y1 = (y0 - pad if y0 - pad >= 0 or y0 < 0 else 0.0), y1 + pad
    pw, ph = width - left - right, height - top - bottom

    def px(x: float) -> float:
        return left + pw * (x - x0) / (x1 - x0)

    def py(y: float) -> float:
        return top + ph * (1 - (y - y0) / (y1 - y0))

    out = [_open(width, height, title),
           f"<text x='{width / 2}' y='18' text-anchor='middle' font-size='14' {FONT} "
           f"fill='{INK}'>{escape(title)}</text>",
           f"<rect x='{left}' y='{top}' width='{pw}' height='{ph}' fill='none' "
           f"stroke='{GRID}'/>"]
    for k in range(5):
        y = y0 + (y1 - y0) * k / 4
        out.append(f"<line x1='{left}' y1='{py(y):.1f}' x2='{left + pw}' y2='{py(y):.1f}' "
                   f"stroke='{GRID}' stroke-dasharray='2,3'/>")
        out.append(f"<text x='{left - 4}' y='{py(y) + 4:.1f}' text-anchor='end' font-size='10' "
                   f"{FONT} fill='{INK}'>{escape(_short(y))}</text>")
        x = x0 + (x1 - x0) * k / 4
        out.append(f"<text x='{px(x):.1f}' y='{top + ph + 14}' text-anchor='middle' "
                   f"font-size='10' {FONT} fill='{INK}'>{escape(_short(x))}</text>")
    out.append(f"<text x='{left + pw / 2}' y='{height - 8}' text-anchor='middle' font-size='11' "
               f"{FONT} fill='{INK}'>{escape(x_label)}</text>")
    out.append(f"<text x='14' y='{top + ph / 2}' text-anchor='middle' font-size='11' {FONT} "
               f"fill='{INK}' transform='rotate(-90 14 {top + ph / 2})'>{escape(y_label)}</text>")
    for k, (x, label) in enumerate(marks):
        # Labels stagger downwards and sit left of a line near the right edge.
        anchor, dx = ("end", -3) if px(x) > left + pw * 0.7 else ("start", 3)
        out.append(f"<line x1='{px(x):.1f}' y1='{top}' x2='{px(x):.1f}' y2='{top + ph}' "
                   f"stroke='#888' stroke-dasharray='4,3'/>")
        out.append(f"<text x='{px(x) + dx:.1f}' y='{top + ph - 8 - 12 * k}' text-anchor='{anchor}' "
                   f"font-size='10' {FONT} fill='#555'>{escape(label)}</text>")
    for i, s in enumerate(series):
        colour = PALETTE[i % len(PALETTE)]
        path = " ".join(f"{px(x):.1f},{py(y):.1f}" for x, y in s.points)
        out.append(f"<polyline points='{path}' fill='none' stroke='{colour}' stroke-width='2'/>")
        out.append(f"<text x='{left + 8}' y='{top + 16 + 14 * i}' "
                   f"font-size='11' {FONT} fill='{colour}'>{escape(s.name)}</text>")
    out.append("</svg>")
    return "".join(out)


def wheel(title: str, rings: Sequence[tuple[str, Sequence[Segment]]], size: int = 640) -> str:
    """Concentric rings, outermost first; each segment's angle is its share of the weights.

    A segment's symbol is written in it when it is wide enough; the tables
    beside the drawing list every weight and pay.
    """
    c = size / 2
    outer = c - 10
    band = outer / (len(rings) + 1)
    out = [_open(size, size + 24, title),
           f"<text x='{c}' y='{size + 18}' text-anchor='middle' font-size='13' {FONT} "
           f"fill='{INK}'>{escape(title)}</text>"]
    for r_index, (_name, segments) in enumerate(rings):
        r1 = outer - r_index * band
        r0 = r1 - band * 0.92
        total = sum(s.weight for s in segments)
        angle = -math.pi / 2
        for s_index, s in enumerate(segments):
            sweep = 2 * math.pi * s.weight / total
            colour = PALETTE[(s_index + r_index * 3) % len(PALETTE)]
            out.append(f"<path d='{_sector(c, r0, r1, angle, sweep)}' fill='{colour}' "
                       f"fill-opacity='0.85' stroke='white' stroke-width='1'/>")
            mid = angle + sweep / 2
            radius = (r0 + r1) / 2
            if sweep * radius > 26:
                x, y = c + radius * math.cos(mid), c + radius * math.sin(mid)
                out.append(f"<text x='{x:.1f}' y='{y:.1f}' text-anchor='middle' font-size='9' "
                           f"{FONT} fill='white'>{escape(s.label)}</text>")
                if s.pay:
                    out.append(f"<text x='{x:.1f}' y='{y + 10:.1f}' text-anchor='middle' "
                               f"font-size='8' {FONT} fill='white'>{escape(s.pay)}</text>")
            angle += sweep
    legend_y = c - band * 0.3
    out.append(f"<text x='{c}' y='{legend_y:.1f}' text-anchor='middle' font-size='11' {FONT} "
               f"fill='{INK}'>outer: {escape(rings[0][0])}</text>")
    for k, (name, _) in enumerate(rings[1:], start=1):
        out.append(f"<text x='{c}' y='{legend_y + 14 * k:.1f}' text-anchor='middle' "
                   f"font-size='11' {FONT} fill='{INK}'>{k + 1}: {escape(name)}</text>")
    out.append("</svg>")
    return "".join(out)


def _sector(c: float, r0: float, r1: float, start: float, sweep: float) -> str:
    """An annular sector's path; a full turn is drawn as two halves."""
    if sweep >= 2 * math.pi - 1e-9:
        half = math.pi
        return _sector(c, r0, r1, start, half) + " " + _sector(c, r0, r1, start + half, half)
    end = start + sweep
    large = 1 if sweep > math.pi else 0

    def pt(r: float, a: float) -> str:
        return f"{c + r * math.cos(a):.2f},{c + r * math.sin(a):.2f}"

    return (f"M{pt(r1, start)} A{r1:.2f},{r1:.2f} 0 {large} 1 {pt(r1, end)} "
            f"L{pt(r0, end)} A{r0:.2f},{r0:.2f} 0 {large} 0 {pt(r0, start)} Z")


def _open(width: float, height: float, title: str) -> str:
    # Inline SVG in HTML needs no namespace declaration: the page names no URL at all.
    return (f"<svg viewBox='0 0 {width} {height}' "
            f"role='img' aria-label='{escape(title, quote=True)}' class='chart'>")


def _short(v: float) -> str:
    """A tick label: 1.2M, 35k, 0.823, 12."""
    a = abs(v)
    if a >= 1e6:
        return f"{v / 1e6:.3g}M"
    if a >= 1e4:
        return f"{v / 1e3:.3g}k"
    if a >= 100:
        return f"{v:.0f}"
    return f"{v:.3g}"
