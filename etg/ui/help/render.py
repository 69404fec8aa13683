"""A help page drawn like a casino's printed rack card: navy stock, gold rules, zebra charts.

:func:`render_page` draws a :class:`~etg.ui.help.model.HelpPage` once, at the
largest type that fits the card (a chart too wide is set smaller, and a scale
where no chart is squeezed is preferred), and says where its live meters go:
the meters are the only part of the page drawn every frame.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import lru_cache

import pygame

from etg.core.paytable import ProgressiveLevel
from etg.ui import theme
from etg.ui.assets import Style, fit_text, font, text
from etg.ui.canvas import LOGICAL_H, LOGICAL_W
from etg.ui.help.model import (
    Align,
    Block,
    Callout,
    Chart,
    Heading,
    HelpPage,
    LiveMeter,
    Paragraph,
    Steps,
)
from etg.ui.theme import shade
from etg.ui.widgets import draw_panel, draw_text

_CONTENT = pygame.Rect(70, 194, LOGICAL_W - 140, 726)
_FOOTER_Y = 944
_NAVY = (8, 18, 38)
NAVY_LIGHT = (20, 38, 70)
"""The rack card's lighter navy, which the scene's tabs are drawn in."""
_ROW_DARK = (12, 26, 50)
_ROW_LIGHT = (20, 40, 72)
_ROW_GOLD = (58, 44, 16)
_RULE = theme.GOLD_DARK


@dataclass
class Rendered:
    surface: pygame.Surface
    meters: list[tuple[ProgressiveLevel, pygame.Rect]] = field(default_factory=list)
    squeezed: bool = False  # a chart had to be set smaller than the text around it


@dataclass(frozen=True)
class _Sizes:
    """Type sizes at one scale; a page too long for the card is set smaller."""

    scale: float

    def __call__(self, size: int) -> int:
        return max(12, round(size * self.scale))


_SCALES = (1.24, 1.16, 1.08, 1.0, 0.94, 0.88, 0.82, 0.76, 0.7, 0.64)


@lru_cache(maxsize=16)
def render_page(page: HelpPage) -> Rendered:
    """The page drawn on the backdrop, and where its live meters go; shared, so never drawn on."""
    surface = _backdrop().copy()
    draw_text(surface, page.title, 50, theme.GOLD, (LOGICAL_W // 2, 146), style=Style.SERIF,
              shadow=True)
    title_w = text(page.title, 50, theme.GOLD, Style.SERIF).get_width()
    for side in (-1, 1):
        inner = LOGICAL_W // 2 + side * (title_w // 2 + 30)
        outer = LOGICAL_W // 2 + side * (title_w // 2 + 330)
        pygame.draw.line(surface, theme.GOLD_DARK, (inner, 146), (outer, 146), 2)
        pygame.draw.circle(surface, theme.GOLD, (inner, 146), 5)
    draw_text(surface, page.footer, 19, theme.TEXT_DIM, (LOGICAL_W // 2, _FOOTER_Y),
              style=Style.REGULAR, max_width=_CONTENT.width)
    weights = page.widths or (1,) * len(page.columns)
    gap = 56
    usable = _CONTENT.width - gap * (len(page.columns) - 1)
    widths = [usable * w // sum(weights) for w in weights]
    # The largest type that fits the card, preferring a scale where no chart is squeezed.
    fitting: list[list[Rendered]] = []
    for scale in _SCALES:
        sizes = _Sizes(scale)
        columns = [_render_column(blocks, width, sizes)
                   for blocks, width in zip(page.columns, widths, strict=True)]
        if all(c.surface.get_height() <= _CONTENT.height for c in columns):
            if not any(c.squeezed for c in columns):
                break
            fitting.append(columns)
    else:
        columns = fitting[0] if fitting else columns
    rendered = Rendered(surface)
    x = _CONTENT.x
    tallest = max(c.surface.get_height() for c in columns)
    top = _CONTENT.y + max(0, _CONTENT.height - tallest) // 3  # a short page sits high
    for column, width in zip(columns, widths, strict=True):
        y = top
        surface.blit(column.surface, (x, y), area=pygame.Rect(0, 0, width, _CONTENT.height))
        rendered.meters += [(level, slot.move(x, y)) for level, slot in column.meters]
        x += width + gap
    if len(columns) > 1:
        x = _CONTENT.x
        for width in widths[:-1]:
            x += width + gap // 2
            pygame.draw.line(surface, shade(theme.GOLD_DARK, 0.7), (x, top + 10),
                             (x, top + tallest - 10), 1)
            x += gap - gap // 2
    return rendered


def _render_column(blocks: Sequence[Block], width: int, sizes: _Sizes) -> Rendered:
    """Blocks top to bottom on a transparent surface as tall as they need."""
    parts = [_render_block(block, width, sizes) for block in blocks]
    spacing = sizes(18)
    height = sum(p.surface.get_height() for p in parts) + spacing * max(0, len(parts) - 1)
    out = pygame.Surface((width, max(1, height)), pygame.SRCALPHA)
    rendered = Rendered(out, squeezed=any(p.squeezed for p in parts))
    y = 0
    for part in parts:
        out.blit(part.surface, (0, y))
        rendered.meters += [(level, slot.move(0, y)) for level, slot in part.meters]
        y += part.surface.get_height() + spacing
    return rendered


def _render_block(block: Block, width: int, sizes: _Sizes) -> Rendered:
    if isinstance(block, Heading):
        return Rendered(_render_heading(block.text, width, sizes))
    if isinstance(block, Paragraph):
        size = sizes(21) if block.note else sizes(25)
        colour = theme.TEXT_DIM if block.note else theme.CREAM
        style = Style.REGULAR
        return Rendered(_render_lines(_wrap(block.text, size, style, width), size, colour,
                                      style))
    if isinstance(block, Steps):
        return Rendered(_render_steps(block, width, sizes))
    if isinstance(block, Chart):
        return _render_chart(block, width, sizes)
    if isinstance(block, Callout):
        return Rendered(_render_callout(block, width, sizes))
    return _render_meter(block, width, sizes)


def _render_heading(words: str, width: int, sizes: _Sizes) -> pygame.Surface:
    size = sizes(27)
    label = fit_text(words, size, theme.GOLD, width, Style.BOLD)
    out = pygame.Surface((width, label.get_height() + 8), pygame.SRCALPHA)
    out.blit(label, (0, 0))
    y = label.get_height() + 3
    pygame.draw.line(out, theme.GOLD_DARK, (0, y), (width, y), 2)
    return out


def _render_lines(lines: list[str], size: int, colour: theme.RGB,
                  style: Style) -> pygame.Surface:
    line_h = round(font(size, style).get_linesize() * 1.08)
    width = max([font(size, style).size(line)[0] for line in lines] + [1])
    out = pygame.Surface((width, max(1, line_h * len(lines))), pygame.SRCALPHA)
    for i, line in enumerate(lines):
        out.blit(text(line, size, colour, style), (0, i * line_h))
    return out


def _wrap(words: str, size: int, style: Style, width: int) -> list[str]:
    """Greedy word wrap by the font's metrics; a word wider than the line gets its own line."""
    measure = font(size, style).size
    lines: list[str] = []
    line = ""
    for word in words.split():
        candidate = f"{line} {word}" if line else word
        if line and measure(candidate)[0] > width:
            lines.append(line)
            line = word
        else:
            line = candidate
    if line:
        lines.append(line)
    return lines or [""]


def _render_steps(block: Steps, width: int, sizes: _Sizes) -> pygame.Surface:
    badge = sizes(44)
    indent = badge + sizes(18)
    head_size, body_size = sizes(24), sizes(23)
    parts: list[pygame.Surface] = []
    for number, (head, body) in enumerate(block.items, start=1):
        head_s = text(head, head_size, theme.GOLD, Style.BOLD)
        body_s = _render_lines(_wrap(body, body_size, Style.REGULAR, width - indent), body_size,
                               theme.CREAM, Style.REGULAR)
        h = max(badge, head_s.get_height() + body_s.get_height())
        part = pygame.Surface((width, h), pygame.SRCALPHA)
        centre = (badge // 2, badge // 2)
        pygame.draw.circle(part, theme.GOLD_DARK, centre, badge // 2)
        pygame.draw.circle(part, theme.GOLD, centre, badge // 2 - 3)
        digit = text(str(number), sizes(24), theme.INK, Style.SERIF)
        part.blit(digit, digit.get_rect(center=centre))
        part.blit(head_s, (indent, 0))
        part.blit(body_s, (indent, head_s.get_height()))
        parts.append(part)
    gap = sizes(12)
    out = pygame.Surface((width, sum(p.get_height() for p in parts) + gap * (len(parts) - 1)),
                         pygame.SRCALPHA)
    y = 0
    for part in parts:
        out.blit(part, (0, y))
        y += part.get_height() + gap
    return out


def _render_chart(chart: Chart, width: int, sizes: _Sizes) -> Rendered:
    """Header band, zebra rows with gold rules, columns sized to their widest cell."""
    columns = len(chart.headers)
    details = chart.details or ("",) * len(chart.rows)
    has_header = any(chart.headers)
    pad = sizes(14)
    head_size = sizes(19)
    cell_size, detail_size = sizes(24), sizes(18)
    wanted_size = cell_size

    def style_of(row: int, col: int) -> Style:
        return Style.BOLD if col == 0 or row in chart.strong else Style.REGULAR

    def natural(col: int, size: int) -> int:
        cells = [font(size, style_of(i, col)).size(row[col])[0]
                 for i, row in enumerate(chart.rows) if col < len(row) - 1 or (
                     col == len(row) - 1 == columns - 1)]
        head = font(head_size, Style.BOLD).size(chart.headers[col])[0]
        return max([head, *cells]) + 2 * pad

    def column_widths(size: int) -> list[int]:
        wanted = [natural(c, size) for c in range(columns)]
        for i, row in enumerate(chart.rows):
            if len(row) < columns:  # a spanning last cell needs the room of the columns it spans
                last = len(row) - 1
                need = font(size, style_of(i, last)).size(row[last])[0] + 2 * pad
                wanted[last] += max(0, need - sum(wanted[last:]))
        return wanted

    # Set the chart one size smaller at a time until every column fits its natural width.
    while True:
        wanted = column_widths(cell_size)
        if sum(wanted) <= width or cell_size <= 14:
            break
        cell_size -= 1
        detail_size = max(13, cell_size * 3 // 4)
    spare = width - sum(wanted)
    if spare >= 0:
        # The widest left-aligned column (the names) takes the spare room.
        grow = max((c for c in range(columns) if chart.align[c] == "left"),
                   key=lambda c: wanted[c], default=0)
        wanted[grow] += spare
    else:
        wanted = [w * width // sum(wanted) for w in wanted]
    edges = [sum(wanted[:c]) for c in range(columns + 1)]
    head_h = round(font(head_size, Style.BOLD).get_linesize() * 1.6) if has_header else 0
    line_h = font(cell_size, Style.REGULAR).get_linesize()
    detail_h = font(detail_size, Style.REGULAR).get_linesize()
    base_h = round(line_h * 1.42)
    heights = [base_h + (detail_h if detail else 0) for detail in details]
    tops = [head_h + sum(heights[:i]) for i in range(len(heights) + 1)]
    out = pygame.Surface((width, tops[-1] + 2), pygame.SRCALPHA)
    if has_header:
        pygame.draw.rect(out, (*theme.GOLD_DARK, 110), (0, 0, width, head_h),
                         border_top_left_radius=8, border_top_right_radius=8)
    for i in range(len(chart.rows)):
        fill = _ROW_LIGHT if i % 2 else _ROW_DARK
        if i in chart.strong:
            fill = _ROW_GOLD
        pygame.draw.rect(out, (*fill, 240), (0, tops[i], width, heights[i]))
    pygame.draw.line(out, _RULE, (0, head_h), (width, head_h), 2)
    pygame.draw.line(out, _RULE, (0, tops[-1]), (width, tops[-1]), 2)

    def put(words: str, size: int, colour: theme.RGB, style: Style, left: int, right: int,
            cy: int, align: Align) -> None:
        label = fit_text(words, size, colour, right - left - 2 * pad, style)
        if align == "left":
            rect = label.get_rect(midleft=(left + pad, cy))
        elif align == "right":
            rect = label.get_rect(midright=(right - pad, cy))
        else:
            rect = label.get_rect(center=((left + right) // 2, cy))
        out.blit(label, rect)

    for c in range(columns):
        put(chart.headers[c], head_size, theme.GOLD, Style.BOLD, edges[c], edges[c + 1],
            head_h // 2, chart.align[c])
    for i, row in enumerate(chart.rows):
        strong = i in chart.strong
        cy = tops[i] + base_h // 2
        for c, words in enumerate(row):
            right = edges[c + 1] if c < len(row) - 1 else edges[-1]  # the last cell spans
            colour = theme.WIN if strong else (theme.WHITE if c == 0 else theme.CREAM)
            put(words, cell_size, colour, style_of(i, c), edges[c], right, cy,
                chart.align[min(c if c < len(row) - 1 else columns - 1, columns - 1)])
        if details[i]:
            put(details[i], detail_size, theme.TEXT_DIM if not strong else theme.GOLD,
                Style.REGULAR, 0, width,
                tops[i] + (base_h - line_h) // 2 + line_h + detail_h // 2 - 2, "left")
    return Rendered(out, squeezed=cell_size < wanted_size)


def _render_callout(block: Callout, width: int, sizes: _Sizes) -> pygame.Surface:
    pad = sizes(18)
    title = text(block.title, sizes(26), theme.GOLD, Style.BOLD)
    body_size = sizes(23)
    body = _render_lines(_wrap(block.text, body_size, Style.REGULAR, width - 2 * pad - 8),
                         body_size, theme.CREAM, Style.REGULAR)
    h = pad + title.get_height() + sizes(4) + body.get_height() + pad
    out = pygame.Surface((width, h), pygame.SRCALPHA)
    draw_panel(out, out.get_rect(), (*_ROW_DARK, 235), theme.GOLD_DARK, radius=12, width=2)
    pygame.draw.rect(out, theme.GOLD, (0, sizes(14), 6, h - 2 * sizes(14)), border_radius=3)
    out.blit(title, (pad + 8, pad))
    out.blit(body, (pad + 8, pad + title.get_height() + sizes(4)))
    return out


def _render_meter(block: LiveMeter, width: int, sizes: _Sizes) -> Rendered:
    h = sizes(96)
    out = pygame.Surface((width, h), pygame.SRCALPHA)
    rect = out.get_rect()
    draw_panel(out, rect, (4, 8, 16), theme.GOLD, radius=12, width=3)
    pygame.draw.rect(out, theme.GOLD_DARK, rect.inflate(-10, -10), width=1, border_radius=9)
    label = fit_text(block.label, sizes(28), theme.GOLD, width // 2, Style.BOLD)
    note = fit_text(block.note, sizes(18), theme.TEXT_DIM, width // 2, Style.REGULAR)
    total = label.get_height() + note.get_height()
    out.blit(label, (sizes(20), (h - total) // 2))
    out.blit(note, (sizes(20), (h - total) // 2 + label.get_height()))
    slot_w = width - sizes(20) * 2 - max(label.get_width(), note.get_width()) - sizes(16)
    slot = pygame.Rect(width - sizes(20) - slot_w, (h - sizes(52)) // 2, slot_w, sizes(52))
    return Rendered(out, [(block.level, slot)])


@lru_cache(maxsize=1)
def _backdrop() -> pygame.Surface:
    """Dark navy with a soft centre glow and a gold double frame: the rack card's stock."""
    surface = pygame.Surface((LOGICAL_W, LOGICAL_H))
    for y in range(LOGICAL_H):
        t = abs(y - LOGICAL_H * 0.45) / (LOGICAL_H * 0.55)
        colour = tuple(round(a + (b - a) * t) for a, b in zip(NAVY_LIGHT, _NAVY, strict=True))
        pygame.draw.line(surface, colour, (0, y), (LOGICAL_W, y))
    # A faint diamond lattice, like the printed card's background.
    lattice = pygame.Surface((LOGICAL_W, LOGICAL_H), pygame.SRCALPHA)
    step = 48
    for x in range(-LOGICAL_H, LOGICAL_W, step):
        pygame.draw.line(lattice, (255, 255, 255, 7), (x, 0), (x + LOGICAL_H, LOGICAL_H))
        pygame.draw.line(lattice, (255, 255, 255, 7), (x + LOGICAL_H, 0), (x, LOGICAL_H))
    surface.blit(lattice, (0, 0))
    frame = pygame.Rect(18, 106, LOGICAL_W - 36, LOGICAL_H - 106 - 108)
    pygame.draw.rect(surface, theme.GOLD_DARK, frame, width=3, border_radius=22)
    pygame.draw.rect(surface, shade(theme.GOLD_DARK, 0.7), frame.inflate(-14, -14), width=1,
                     border_radius=16)
    return surface
