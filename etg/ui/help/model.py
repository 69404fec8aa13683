"""The help pages as data: headings, paragraphs, numbered steps, charts, callouts and live meters.

A page is a :class:`HelpPage` of columns of blocks, so a test reads every word
of it (:attr:`HelpPage.text`) without drawing anything; :mod:`etg.ui.help.render`
lays the blocks out like a casino's printed rack card.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Literal

from etg.core.paytable import ProgressiveLevel

Align = Literal["left", "right", "center"]


@dataclass(frozen=True, slots=True)
class Heading:
    """A gold section title inside a column."""

    text: str


@dataclass(frozen=True, slots=True)
class Paragraph:
    """Running text, word-wrapped; ``note`` is the smaller, dimmer print of a rack card."""

    text: str
    note: bool = False


@dataclass(frozen=True, slots=True)
class Steps:
    """Numbered steps: (headline, text) each."""

    items: tuple[tuple[str, str], ...]


@dataclass(frozen=True, slots=True)
class Chart:
    """A table with a header row and aligned columns.

    A row shorter than the headers lets its last cell span the columns left over.
    ``details`` (one per row, may be empty) is small print under a row's first cell;
    ``strong`` rows (the jackpots) are drawn in gold.
    """

    headers: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]
    align: tuple[Align, ...]
    strong: tuple[int, ...] = ()
    details: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Callout:
    """A framed box with a gold ``title`` and wrapped text: one option, one rule."""

    title: str
    text: str


@dataclass(frozen=True, slots=True)
class LiveMeter:
    """A progressive meter shown live: its ``label``, a note, and the amount drawn each frame."""

    level: ProgressiveLevel
    label: str
    note: str = ""


Block = Heading | Paragraph | Steps | Chart | Callout | LiveMeter


@dataclass(frozen=True, slots=True)
class HelpPage:
    """One help page: its ``title``, the short ``tab`` label, and columns of blocks."""

    title: str
    tab: str
    columns: tuple[tuple[Block, ...], ...]
    widths: tuple[int, ...] = ()  # relative column widths; empty: equal
    footer: str = ""

    @property
    def blocks(self) -> Iterator[Block]:
        for column in self.columns:
            yield from column

    @property
    def text(self) -> str:
        """Every word on the page, one block per line (what tests and screen readers read)."""
        lines = [self.title]
        for block in self.blocks:
            if isinstance(block, Heading | Paragraph):
                lines.append(block.text)
            elif isinstance(block, Steps):
                lines.extend(f"{head}: {body}" for head, body in block.items)
            elif isinstance(block, Chart):
                lines.append(" | ".join(block.headers))
                details = block.details or ("",) * len(block.rows)
                lines.extend(" | ".join(row) + (f" ({detail})" if detail else "")
                             for row, detail in zip(block.rows, details, strict=True))
            elif isinstance(block, Callout):
                lines.append(f"{block.title}: {block.text}")
            else:
                lines.append(f"{block.label}: {block.note}")
        lines.append(self.footer)
        return "\n".join(lines)

    @property
    def meters(self) -> tuple[ProgressiveLevel, ...]:
        return tuple(b.level for b in self.blocks if isinstance(b, LiveMeter))
