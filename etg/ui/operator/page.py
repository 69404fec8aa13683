"""What a page of the operator menu is, and what it may use of the menu.

A page is an :class:`OperatorPage`: :meth:`~OperatorPage.read` lays it out
from the table and its books into a :class:`~etg.ui.operator.sheet.PageView`
when it is opened, after one of its actions, and, for a page that
:attr:`~OperatorPage.follows_play`, whenever the table changes under it;
:meth:`~OperatorPage.act` does what one of its buttons means. The menu is the
:class:`Desk` a page works at: it keeps the page's first row, shows a second
confirmation, puts each action on the event log and reads the page again.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from enum import Enum
from typing import TYPE_CHECKING, Any, Protocol

from etg.ui.operator.sheet import PageView

if TYPE_CHECKING:
    from etg.ui.scene import Context

class Page(Enum):
    """The menu's tabs, top to bottom."""

    METERS = "meters"
    RECALL = "recall"
    EVENT_LOG = "event_log"
    CREDITS = "credits"
    WAGERS = "wagers"  # the supervisor's: a single-wager void, an abandoned seat
    PROGRESSIVES = "progressives"
    JACKPOTS = "jackpots"  # MD Ch. 9 J(4): the lock, its validation and the hand pays
    DEALERS = "dealers"  # MD Ch. 8 E(4), Ch. 2 D: the dealers' PINs, rounds and tips
    PAYTABLES = "paytables"
    SOUND = "sound"
    SELF_TEST = "self_test"
    TILT = "tilt"
    RAM_CLEAR = "ram_clear"

    @property
    def label(self) -> str:
        return _PAGE_LABELS.get(self, self.value.replace("_", " ").upper())


_PAGE_LABELS = {Page.SELF_TEST: "SELF-TEST"}


@dataclass(frozen=True)
class Confirm:
    """A second confirmation: what it is about, and the action that CONFIRM runs."""

    title: str
    message: str
    detail: str
    action: Callable[[], None]
    danger: bool = True


class Desk(Protocol):
    """What a page may use of the menu it is on."""

    ctx: Context
    offset: int
    """The first row shown on a page that pages (0: its top)."""
    confirm: Confirm | None
    """A second confirmation to ask before an action: the menu shows it over the page."""

    def log(self, action: str, **details: Any) -> None:
        """Put an operator's action on the event log (SPEC §5: who, when, what)."""
        ...

    def reload(self) -> None:
        """Read the page again: an action has changed what it shows."""
        ...


class OperatorPage:
    """One page of the menu. Subclasses override what they need."""

    follows_play = False
    """Read again whenever the table changes under it: what it shows moves with play."""

    def opened(self) -> None:
        """Its tab was chosen: show the page from its beginning."""

    def read(self, desk: Desk) -> PageView:
        """The page laid out from the table and its books, ready to draw."""
        raise NotImplementedError

    def act(self, desk: Desk, tag: str) -> None:
        """One of the page's buttons was pressed: ``tag`` is the button's, e.g. ``cash:out:2``."""
