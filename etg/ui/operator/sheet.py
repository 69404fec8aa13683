"""The operator pages' vocabulary: where a page lies, what it is made of, how it is painted.

A page is laid out once, when it is read, on a :class:`Sheet`: text cells,
panels, recalled cards and buttons, each placed on the 1920×1080 canvas. The
sheet becomes a :class:`PageView`, which :func:`paint` blits every frame
without reading anything or laying anything out again.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from functools import lru_cache
from typing import Any

import pygame

from etg.config.loader import LoadedPaytable
from etg.core.cards import Card
from etg.core.money import format_cents
from etg.ui import theme
from etg.ui.assets import Colour, Style, font
from etg.ui.canvas import LOGICAL
from etg.ui.cards import card_face, card_size
from etg.ui.widgets import Anchor, Button, draw_panel, draw_text

# --- where things lie -----------------------------------------------------------------------

HEADER_H = 88
NAV_X, NAV_Y, NAV_W = 24, HEADER_H + 24, 300
CONTENT = (NAV_X + NAV_W + 24, HEADER_H + 24, LOGICAL[0] - (NAV_X + NAV_W + 24) - 24,
           LOGICAL[1] - HEADER_H - 48)
"""The panel right of the tabs: the page's title at its top, then its body."""
BODY_X = CONTENT[0] + 32
BODY_Y = CONTENT[1] + 120
BODY_W = CONTENT[2] - 64
PAGER_Y = CONTENT[1] + CONTENT[3] - 84
HEAD_GAP = 4
"""Between a table's header row and its first row."""
RED: theme.RGB = (150, 28, 36)
"""What cannot be undone: RAM CLEAR, a void, a dealer's removal."""


# --- what a page is made of --------------------------------------------------------------------

@dataclass(frozen=True)
class Cell:
    """One piece of text on a page, placed and styled when the page was read."""

    text: str
    at: tuple[int, int]
    size: int = 21
    colour: theme.RGB = theme.WHITE
    anchor: Anchor = "topleft"
    style: Style = Style.REGULAR
    max_width: int | None = None


@dataclass(frozen=True)
class Box:
    """A panel or a stripe behind rows."""

    rect: tuple[int, int, int, int]
    fill: Colour
    edge: theme.RGB = theme.PANEL_EDGE
    radius: int = 10
    width: int = 0


@dataclass(frozen=True)
class CardSlot:
    """A recalled card (or an empty place for one) at its position."""

    card: Card | None
    at: tuple[int, int]
    width: int


@dataclass(frozen=True)
class PaytableEntry:
    """One file of ``paytables/``, as the PAYTABLES page lists it: loaded, or the reason it
    cannot be."""

    file: str
    loaded: LoadedPaytable | None
    error: str | None
    active: bool


@dataclass(frozen=True)
class PageView:
    """Everything a page draws, read when it was opened: cells, boxes, cards and buttons."""

    title: str = ""
    subtitle: str = ""
    boxes: tuple[Box, ...] = ()
    cells: tuple[Cell, ...] = ()
    cards: tuple[CardSlot, ...] = ()
    buttons: tuple[Button, ...] = ()
    rows: int = 0  # rows in all, for paging
    page_size: int = 0  # rows a page shows; 0: the page does not page
    paytables: tuple[PaytableEntry, ...] = ()


Column = tuple[str, int, str]
"""A table column: its title, width and alignment ("l" or "r")."""

Text = str | tuple[str, theme.RGB]
"""A table cell: its text, or its text and colour."""


class Sheet:
    """Collects a page's cells, boxes, cards and buttons while it is laid out."""

    def __init__(self) -> None:
        self.boxes: list[Box] = []
        self.cells: list[Cell] = []
        self.cards: list[CardSlot] = []
        self.buttons: list[Button] = []

    def text(self, words: str, x: float, y: float, size: int = 21,
             colour: theme.RGB = theme.WHITE, anchor: Anchor = "topleft",
             style: Style = Style.REGULAR, max_width: int | None = None) -> None:
        self.cells.append(Cell(words, (round(x), round(y)), size, colour, anchor, style,
                               max_width))

    def box(self, rect: tuple[float, float, float, float], fill: Colour,
            edge: theme.RGB = theme.PANEL_EDGE, radius: int = 10, width: int = 0) -> None:
        x, y, w, h = rect
        self.boxes.append(Box((round(x), round(y), round(w), round(h)), fill, edge, radius,
                              width))

    def label_value(self, label: str, value: str, x: float, y: float, width: float,
                    colour: theme.RGB = theme.WHITE, size: int = 21) -> None:
        """A label on the left and its value right-aligned, on one line ``width`` wide."""
        self.text(label, x, y, size, theme.TEXT_DIM)
        room = round(width) - font(size, Style.REGULAR).size(label)[0] - 24
        self.text(value, x + width, y, size, colour, "topright", Style.BOLD,
                  max_width=max(room, round(width * 0.3)))

    def section(self, title: str, x: float, y: float, width: float) -> None:
        self.text(title, x, y, 20, theme.GOLD, style=Style.BOLD)
        self.box((x, y + 30, width, 2), theme.GOLD_DARK)

    def table(self, columns: Sequence[Column], rows: Sequence[Sequence[Text]], x: float,
              y: float, row_h: int = 38, size: int = 21) -> float:
        """Header and zebra rows; returns the y below the last row.

        Each column is (title, width, "l" or "r"); a cell is its text, or its text and
        colour.
        """
        total = sum(width for _, width, _ in columns)
        self.box((x, y, total, row_h), theme.PANEL_LIGHT, radius=8)
        self._row([title for title, _, _ in columns], columns, x, y, row_h, 18,
                  theme.TEXT_DIM, Style.BOLD)
        y += row_h + HEAD_GAP
        for index, row in enumerate(rows):
            if index % 2:
                self.box((x, y, total, row_h), (255, 255, 255, 14), radius=6)
            self._row(row, columns, x, y, row_h, size, theme.WHITE, Style.REGULAR)
            y += row_h
        return y

    def history(self, columns: Sequence[Column], rows: Sequence[Sequence[Text]], x: float,
                y: float, row_h: int, size: int, empty: str) -> None:
        """Entries of the event log as a table at ``y``; where there are none, ``empty``."""
        if rows:
            self.table(columns, rows, x, y, row_h, size)
        else:
            self.text(empty, x, y + 4, 21, theme.TEXT_DIM)

    def _row(self, cells: Sequence[Text], columns: Sequence[Column], x: float,
             y: float, row_h: int, size: int, ink: theme.RGB, style: Style) -> None:
        left = x
        for cell, (_, width, align) in zip(cells, columns, strict=False):
            text, colour = (cell, ink) if isinstance(cell, str) else cell
            if align == "r":
                self.text(text, left + width - 14, y + row_h / 2, size, colour, "midright",
                          style, max_width=width - 20)
            else:
                self.text(text, left + 14, y + row_h / 2, size, colour, "midleft", style,
                          max_width=width - 20)
            left += width

    def view(self, title: str, subtitle: str = "", **more: Any) -> PageView:
        return PageView(title, subtitle, tuple(self.boxes), tuple(self.cells),
                        tuple(self.cards), tuple(self.buttons), **more)


# --- what pages share --------------------------------------------------------------------------

def rows_fit(top: float, row_h: int) -> int:
    """Rows of a table starting at ``top`` that fit above the pager."""
    return max(1, int(PAGER_Y - 12 - top - row_h - HEAD_GAP) // row_h)


def pager(sheet: Sheet, offset: int, size: int, total: int, end: float,
          more: bool | None = None) -> None:
    """PAGE UP / PAGE DOWN at the bottom right when the rows do not fit one page.

    ``more``: the page was read with one row to spare, so ``total`` counts only what
    was read and whether more rows follow is ``more`` (no count of the whole log).
    """
    if total <= size:
        return
    y = PAGER_Y
    right = BODY_X + BODY_W
    shown_to = min(offset + size, total)
    of = "" if more is not None else f" of {total:,}"
    sheet.text(f"{offset + 1:,}–{shown_to:,}{of}", right - 500,
               y + 32, 20, theme.TEXT_DIM, "midright")
    sheet.buttons.append(Button((right - 470, y, 220, 64), "▲ PAGE UP", "page:up",
                                enabled=offset > 0, size=22))
    sheet.buttons.append(Button((right - 230, y, 220, 64), "PAGE DOWN ▼", "page:down",
                                enabled=more if more is not None else offset + size < total,
                                size=22))


def when(at: str) -> str:
    """An ISO timestamp from the ledger as ``2024-05-01 21:04:09`` (UTC)."""
    try:
        return datetime.fromisoformat(at).strftime("%Y-%m-%d %H:%M:%S")
    except ValueError:
        return at


def clip(words: str, size: int, width: int, style: Style = Style.REGULAR) -> str:
    """``words`` cut to fit ``width`` pixels at ``size``, with an ellipsis if cut."""
    face = font(size, style)
    if face.size(words)[0] <= width:
        return words
    low, high = 0, len(words)
    while low < high:
        middle = (low + high + 1) // 2
        if face.size(words[:middle] + "…")[0] <= width:
            low = middle
        else:
            high = middle - 1
    return words[:low] + "…"


def dollars(cents: int) -> str:
    return format_cents(cents, whole_dollars=True)


# --- painting ----------------------------------------------------------------------------------

def paint(view: PageView, surface: pygame.Surface) -> None:
    """Blit a page as it was laid out when read: boxes, then cards, then text."""
    for box in view.boxes:
        if len(box.fill) == 4:  # translucent: the layer is made once, not every frame
            surface.blit(_layer(box.rect[2], box.rect[3], box.fill, box.radius), box.rect[:2])
            if box.width:
                pygame.draw.rect(surface, box.edge, box.rect, box.width,
                                 border_radius=box.radius)
        else:
            draw_panel(surface, box.rect, box.fill, box.edge, box.radius, box.width)
    for slot in view.cards:
        if slot.card is None:
            w, h = card_size(slot.width)
            draw_panel(surface, (slot.at[0], slot.at[1], w, h), (255, 255, 255, 10),
                       (70, 110, 90), radius=8, width=2)
        else:
            surface.blit(_card_shadow(slot.width), (slot.at[0] + 3, slot.at[1] + 5))
            surface.blit(card_face(slot.card, slot.width), slot.at)
    for cell in view.cells:
        draw_text(surface, cell.text, cell.size, cell.colour, cell.at, cell.anchor, cell.style,
                  max_width=cell.max_width)


@lru_cache(maxsize=256)
def _layer(width: int, height: int, fill: Colour, radius: int) -> pygame.Surface:
    layer = pygame.Surface((max(width, 1), max(height, 1)), pygame.SRCALPHA)
    pygame.draw.rect(layer, fill, layer.get_rect(), border_radius=radius)
    return layer


@lru_cache(maxsize=8)
def _card_shadow(width: int) -> pygame.Surface:
    w, h = card_size(width)
    layer = pygame.Surface((w, h), pygame.SRCALPHA)
    pygame.draw.rect(layer, (0, 0, 0, 90), layer.get_rect(), border_radius=max(4, w // 12))
    return layer
