"""Linked progressive meters as values: what the floor's controller said, as the table keeps it.

A linked level (SPEC §13) is a Bonus Spin or Progressive Payout meter kept by
the floor's controller for many tables, not by this table. The table never
computes such a meter: it records the wagers that feed it (shipped to the
controller) and shows the amounts the controller answers, which enter the
engine as recorded commands, as the RNG's draws do, so a replay of the ledger
alone gives back every round. The table's own meter for a linked level stays
as it was when the level was linked: neither fed nor paid while it is linked.
"""

from __future__ import annotations

from dataclasses import dataclass

from etg.core.paytable import ProgressiveLevel


@dataclass(frozen=True, slots=True)
class LinkedMeter:
    """A linked level and the amount its controller last said it stands at (cents).

    ``cents`` is None until the controller's first answer reaches the table.
    """

    level: ProgressiveLevel
    cents: int | None = None


LINK_DOWN = "progressive link down"
"""The refusal's words on the table and the dealer console (issue 27, item 3)."""


def linked_level(meters: tuple[LinkedMeter, ...], level: ProgressiveLevel) -> bool:
    """Whether ``level`` is one of the linked ``meters``."""
    return any(m.level is level for m in meters)
