"""The operator menu: the table's back office, behind the operator PIN (SPEC §5, §6).

SPEC §6 lists what it holds: "meters, game recall, event log, credits in and
out per seat, progressive meters, paytable view and switch, shoe and RNG
self-test, tilt clear, RAM clear (second confirmation)", and the sound's
"volume and mute"; SPEC §2 adds the supervisor's single-wager void and
abandoned seat (the WAGERS page, each behind the supervisor PIN), and the
floor's procedures JACKPOTS (a lock waiting for its validation, the hand pays)
and DEALERS (the dealers' PINs, rounds and tips; actions in :mod:`etg.ui.floor`).
Each is a page here, chosen from a column of tabs on the left.

The menu reads; it changes the table only through the controller's own
operations (:meth:`App.send` for credits, :meth:`App.switch_paytable`,
:meth:`Table.acknowledge_tilt`, :meth:`Table.ram_clear`), each of which
writes its own record; the SOUND page writes ``cabinet.yaml`` and sets the
App's :class:`~etg.ui.audio.Audio`. On top of that every page opened and every action is
written to the event log as ``operator_menu`` with the operator as the actor
(SPEC §5: "operator login and actions (who, when, what)"), and entering the
menu writes ``operator_login``, which the ``operator_menu_entries`` meter
counts.

Ledger data is read when a page opens or an action happens and kept as
ready-to-draw rows, so a frame only blits: ``draw`` reads nothing and
changes nothing.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from enum import Enum
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pygame

from etg.config.cabinet import MAX_VOLUME
from etg.config.cabinet_edit import CabinetKeyError, set_cabinet_value
from etg.config.loader import LoadedPaytable, default_config_dir, load_cabinet, load_paytable
from etg.config.problems import ConfigError
from etg.core.cards import Card
from etg.core.commands import Actor, CashIn, CashOut, MarkAbandoned, SwitchPaytable, VoidWager
from etg.core.events import (
    BonusSpinTriggered,
    DecisionMade,
    EnvyBonus,
    Event,
    HandPaid,
    PayoutHandMade,
    ProgressiveAwarded,
    ProgressiveContributed,
    RoundComplete,
    RoundVoided,
    SeatAbandoned,
    TipGiven,
    WagerSettled,
    WagerVoided,
    WheelStopped,
)
from etg.core.money import format_cents, format_gain
from etg.core.paytable import Paytable, ProgressiveLevel
from etg.core.state import LEVELS, TableState
from etg.ledger.meters import (
    ATTENDANT_PAID_JACKPOTS,
    ATTENDANT_PAID_JACKPOTS_AMOUNT,
    CASH_IN,
    CASH_OUT,
    DEFINITIONS,
    TABLE,
    dealer_meter,
    round_events,
)
from etg.ledger.recall import LEVEL_LABELS
from etg.table.controller import TableTilted
from etg.table.pin import PinRole
from etg.table.selftest import SelfTest, run_self_test
from etg.ui import theme
from etg.ui.assets import Colour, Style, font
from etg.ui.audio import Cue
from etg.ui.canvas import LOGICAL
from etg.ui.cards import card_face, card_size
from etg.ui.floor import AWARD_WORDS, add_dealer, dealer_rows, recent, remove_dealer
from etg.ui.floor import validate_jackpot as validate_jackpot_with_pin
from etg.ui.scene import AskPin, Close, Input, KeyPress, Quit, Scene, Tap
from etg.ui.theme import shade
from etg.ui.wager_desk import VOID_REASONS, abandon_actions, command_for, describe, wager_lines
from etg.ui.widgets import Anchor, Button, draw_button, draw_panel, draw_text

if TYPE_CHECKING:
    from etg.ui.scene import Context

ACTOR = PinRole.OPERATOR.value
"""Who the menu's actions are logged as."""

CASH_IN_CENTS: tuple[int, ...] = (2_000, 10_000, 50_000)
"""The attendant's cash-in buttons: $20, $100, $500."""

RECALL_ROUNDS = 10
"""Rounds the recall page goes back (SPEC §5: "the last 10 rounds at least")."""

VOLUME_STEP = 10
"""What one tap of the SOUND page's − or + changes the volume (0–100) by."""


class Page(Enum):
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


class OperatorMenu(Scene):
    """The back office: page tabs on the left, the chosen page on the right."""

    opaque = True
    name = "operator"
    holds_the_clock = True  # betting and decision countdowns resume where they stood

    def __init__(self, ctx: Context) -> None:
        super().__init__(ctx)
        self.page = Page.METERS
        self.confirm: Confirm | None = None
        self.offset = 0  # first row shown on paged pages
        self.meters_paytable: str | None = None
        self.recall_index = -1
        self.viewing: int | None = None  # paytable list index shown in full
        self.void_reason = 0  # index into VOID_REASONS: the WAGERS page's chosen reason
        self.self_test: SelfTest | None = None
        self.view: PageView = PageView()
        self._load()

    # --- what the Context calls ---------------------------------------------------------------

    def draw(self, surface: pygame.Surface, now: float) -> None:
        surface.blit(_backdrop(), (0, 0))
        self._draw_header(surface)
        pressed = self.ctx.pressed_tags(self)
        content = pygame.Rect(_CONTENT)
        draw_text(surface, self.view.title, 34, theme.GOLD, (content.x + 32, content.y + 22),
                  "topleft", shadow=True)
        if self.view.subtitle:
            draw_text(surface, self.view.subtitle, 20, theme.TEXT_DIM,
                      (content.x + 34, content.y + 66), "topleft", Style.REGULAR,
                      max_width=content.width - 420)
        _paint(self.view, surface)
        for b in self._page_buttons() + self._nav_buttons():
            draw_button(surface, b, b.tag in pressed and self.confirm is None)
        if self.confirm is not None:
            self._draw_confirm(surface, self.confirm, pressed)

    def buttons(self, now: float) -> Sequence[Button]:
        if self.confirm is not None:
            return self._confirm_buttons(self.confirm)
        return self._nav_buttons() + self._page_buttons()

    def enter(self) -> None:
        """Opened after the operator's PIN: logged as a login and an entry."""
        self.ctx.table.log("operator_login", ACTOR, {"role": ACTOR})
        self.ctx.table.log("operator_menu", ACTOR, {"action": "enter"})

    def handle(self, event: Input) -> bool:
        if isinstance(event, Tap):
            self.act(event.button.tag)
        elif isinstance(event, KeyPress):
            key = event.key
            if key == pygame.K_ESCAPE:
                self.act("confirm:no" if self.confirm is not None else "exit")
            elif key in (pygame.K_RETURN, pygame.K_KP_ENTER) and self.confirm is not None:
                self.act("confirm:yes")
            elif key == pygame.K_PAGEUP and self.confirm is None:
                self.act("page:up")
            elif key == pygame.K_PAGEDOWN and self.confirm is None:
                self.act("page:down")
        # Modal: no key reaches the dealer's keys under the menu.
        return True

    def table_changed(self, state: TableState, events: Sequence[Event]) -> None:
        if self.page in (Page.METERS, Page.CREDITS, Page.WAGERS, Page.PROGRESSIVES, Page.TILT,
                         Page.JACKPOTS, Page.DEALERS):
            self._load()  # what those pages show has just changed on the table

    # --- actions ----------------------------------------------------------------------------

    def act(self, tag: str) -> None:
        """Do what the button ``tag`` means (taps and keys both come here)."""
        if self.confirm is not None:
            confirm, self.confirm = self.confirm, None
            if tag == "confirm:yes":
                confirm.action()
            elif tag == "confirm:no":
                self._log("cancel", what=confirm.title)
            return
        head, _, rest = tag.partition(":")
        if head == "tab":
            self.open(Page(rest))
        elif tag == "exit":
            self._log("exit")
            self.ctx.go(Close(self))
        elif tag == "shutdown":
            self.confirm = Confirm("SHUT DOWN THE TABLE?",
                                   "The program closes; the ledger is saved and closed.",
                                   "The round in progress resumes exactly where it stopped "
                                   "at the next start.", self._shut_down)
        elif tag in ("page:up", "page:down"):
            self._page(-1 if tag == "page:up" else 1)
        elif head == "meters":
            self.meters_paytable, self.offset = rest, 0
            self._load()
        elif head == "recall":
            self.recall_index += -1 if rest == "prev" else 1
            self.offset = 0
            self._load()
            self._log("recall", round=self.view.extra.get("round"))
        elif head == "cash":
            self._cash(rest)
        elif head == "wager":
            self._wager(rest)
        elif head == "pt":
            self._paytable_action(rest)
        elif head == "sound":
            self._sound(rest)
        elif tag == "selftest:run":
            self._run_self_test()
        elif tag == "jackpot:validate":
            self._log("validate_jackpot")
            validate_jackpot_with_pin(self.ctx)
        elif head == "dealer":
            self._dealer(rest)
        elif tag == "tilt:ack":
            self._acknowledge()
        elif tag == "ram:clear":
            self.confirm = Confirm("CONFIRM RAM CLEAR",
                                   "This zeroes every meter. The hand ledger and event log "
                                   "are kept.",
                                   "Every paytable, every seat. The clear itself is logged and "
                                   "cannot be undone.", self._ram_clear)

    def open(self, page: Page) -> None:
        """Show ``page``, read fresh from the ledger; logged."""
        self.page, self.offset, self.viewing = page, 0, None
        if page is Page.RECALL:
            self.recall_index = -1
        self._log("page", page=page.value)
        self._load()

    def _page(self, step: int) -> None:
        size = self.view.page_size
        if not size:
            return
        offset = self.offset + step * size
        if 0 <= offset < max(self.view.rows, 1):
            self.offset = offset
            self._log("page_turn", page=self.page.value, offset=offset)
            self._load()

    def _cash(self, what: str) -> None:
        parts = what.split(":")
        if parts[0] == "in":
            seat, cents = int(parts[1]), int(parts[2])
            refusal = self.ctx.send(CashIn(seat, cents), "attendant")
            self._log("cash_in", seat=seat, amount=cents, refused=refusal)
        else:
            seat = int(parts[1])
            amount = self.ctx.table.state.credits[seat - 1]
            refusal = self.ctx.send(CashOut(seat), "attendant")
            self._log("cash_out", seat=seat, amount=amount, refused=refusal)
            if refusal is None:
                self.ctx.notify(f"SEAT {seat}: PAY {format_cents(amount)}", error=False)
        self._load()

    def _wager(self, what: str) -> None:
        """Choose the void reason, or ask the supervisor's PIN for a void or an abandoned seat.

        MD Ch. 11 C and Ch. 7 B(3)-(4) are the supervisor's calls, as the round's
        void is: the command is sent only after the supervisor PIN.
        """
        verb, _, index = what.partition(":")
        if verb == "reason":
            self.void_reason = int(index)
            self._load()
            return
        command = command_for(what, VOID_REASONS[self.void_reason])
        self.ctx.go(AskPin.role(PinRole.SUPERVISOR, f"SUPERVISOR PIN  ·  {describe(command)}",
                                lambda: self._supervise(command)))

    def _supervise(self, command: VoidWager | MarkAbandoned) -> None:
        refusal = self.ctx.send(command, Actor.SUPERVISOR)
        if isinstance(command, VoidWager):
            self._log("void_wager", seat=command.seat, spot=command.spot,
                      wager=command.target.value, reason=command.reason, refused=refusal)
        else:
            self._log("mark_abandoned", seat=command.seat, refused=refusal)
        self._load()

    def _paytable_action(self, what: str) -> None:
        verb, _, index_text = what.partition(":")
        if verb == "back":
            self.viewing = None
            self._load()
            return
        index = int(index_text)
        entry = self.view.paytables[index]
        if verb == "view":
            self.viewing = index
            self._log("view_paytable", file=entry.file)
            self._load()
        elif verb == "switch" and entry.loaded is not None:
            loaded = entry.loaded
            self.confirm = Confirm(
                f"SWITCH TO {loaded.paytable.id}?", loaded.paytable.name,
                "Allowed only between rounds with no credits on any seat. The switch is "
                "logged with the old and new hashes.",
                lambda: self._switch(loaded), danger=False)

    def _switch(self, loaded: LoadedPaytable) -> None:
        try:
            refusal = self.ctx.switch_paytable(loaded, ACTOR)
        except (TableTilted, ConfigError, OSError) as error:
            refusal = str(error)
            self.ctx.notify(refusal)
        self._log("switch_paytable", file=loaded.path.name, paytable_id=loaded.paytable.id,
                  sha256=loaded.sha256, refused=refusal)
        self.viewing = None
        self._load()

    def _sound(self, what: str) -> None:
        """Volume down or up a step, mute on or off (saved, then applied at once), or a test."""
        ctx = self.ctx
        verb, _, name = what.partition(":")
        if verb == "test":
            ctx.audio.play(Cue(name))
            self._log("sound_test", cue=name)
            return
        sound = ctx.cabinet.sound
        value: int | bool
        if verb == "mute":
            key, value = "sound.mute", not sound.mute
        else:
            step = VOLUME_STEP if verb == "up" else -VOLUME_STEP
            key, value = "sound.volume", min(MAX_VOLUME, max(0, sound.volume + step))
        refusal = None
        try:
            set_cabinet_value(ctx.cabinet_file, key, value)
            ctx.cabinet = load_cabinet(ctx.cabinet_file)
        except (ConfigError, CabinetKeyError, ValueError, OSError) as error:
            refusal = str(error)
            ctx.notify(refusal)
        sound = ctx.cabinet.sound  # as the file now says: the live sound never disagrees
        ctx.audio.configure(sound.volume, sound.mute)
        self._log("sound", volume=sound.volume, mute=sound.mute, refused=refusal)
        self._load()

    def _dealer(self, what: str) -> None:
        """Add a dealer or change a dealer's PIN (badge, new PIN twice), or remove one."""
        verb, _, dealer_id = what.partition(":")
        if verb == "add":
            add_dealer(self.ctx, self._dealer_set)
        elif verb == "remove":
            self.confirm = Confirm(f"REMOVE DEALER {dealer_id}?",
                                   "The dealer's PIN no longer signs in at this table.",
                                   "The ID stays in cabinet.yaml (null) and in the ledger's "
                                   "rounds; the change is logged.",
                                   lambda: self._dealer_removed(dealer_id))

    def _dealer_set(self, dealer_id: str, refusal: str | None) -> None:
        self._log("dealer_pin", dealer=dealer_id, refused=refusal)
        self.ctx.notify(f"DEALER {dealer_id}: PIN NOT SET  ·  {refusal}" if refusal else
                        f"DEALER {dealer_id}: PIN SET", error=refusal is not None)
        self._load()

    def _dealer_removed(self, dealer_id: str) -> None:
        refusal = remove_dealer(self.ctx, dealer_id)
        self._log("dealer_removed", dealer=dealer_id, refused=refusal)
        if refusal is not None:
            self.ctx.notify(refusal)
        self._load()

    def _run_self_test(self) -> None:
        result = run_self_test(self.ctx.table.state.paytable.shoe)
        self.ctx.table.log("self_test", ACTOR, result.figures())
        self.ctx.table.log("operator_menu", ACTOR, {"action": "self_test", "passed": result.passed})
        self.self_test = result
        self._load()

    def _acknowledge(self) -> None:
        """A tilt is cleared by a supervisor (SPEC §5): the supervisor's PIN, then the clear."""
        self.ctx.go(AskPin.role(PinRole.SUPERVISOR, "SUPERVISOR PIN  ·  ACKNOWLEDGE TILT",
                                self._acknowledged))

    def _acknowledged(self) -> None:
        table = self.ctx.table
        message = table.tilt.message if table.tilt is not None else None
        try:
            table.acknowledge_tilt(PinRole.SUPERVISOR.value)
        except TableTilted as fault:
            self.ctx.notify(str(fault))
        else:
            table.log("operator_menu", ACTOR, {"action": "acknowledge_tilt", "tilt": message})
        self._load()

    def _ram_clear(self) -> None:
        table = self.ctx.table
        try:
            table.ram_clear(ACTOR, confirmed=True)
        except TableTilted as fault:
            self.ctx.notify(str(fault))
            self._load()
            return
        table.log("operator_menu", ACTOR, {"action": "ram_clear"})
        self.ctx.notify("RAM CLEAR DONE  ·  EVERY METER IS ZERO", error=False)
        self._load()

    def _shut_down(self) -> None:
        self._log("shutdown")
        self.ctx.go(Quit())

    def _log(self, action: str, **details: Any) -> None:
        self.ctx.table.log("operator_menu", ACTOR, {"action": action, **details})

    # --- reading ------------------------------------------------------------------------------

    def _load(self) -> None:
        """Read what the page shows from the table and its ledger, ready to draw.

        The ledger is read once the writer has committed everything sent so far,
        and held off until the page is read (etg.table.controller: reads wait for the writer).
        """
        with self.ctx.table.reading():
            self.view = _LOADERS[self.page](self)

    # --- buttons ------------------------------------------------------------------------------

    def _nav_buttons(self) -> list[Button]:
        out = []
        # every tab fits above EXIT, each at least 48 px high
        room = LOGICAL[1] - 24 - 2 * _TAB_H - 2 * _TAB_GAP - _NAV_Y
        tab_h = min(_TAB_H, room // len(Page) - _TAB_GAP)
        for index, page in enumerate(Page):
            rect = (_NAV_X, _NAV_Y + index * (tab_h + _TAB_GAP), _NAV_W, tab_h)
            colour = _RED if page is Page.RAM_CLEAR else theme.BUTTON
            out.append(Button(rect, page.label, f"tab:{page.value}", hot=page is self.page,
                              colour=colour, size=24))
        bottom = LOGICAL[1] - 24
        out.append(Button((_NAV_X, bottom - 2 * _TAB_H - _TAB_GAP, _NAV_W, _TAB_H), "EXIT",
                          "exit", colour=(40, 92, 70), size=26))
        out.append(Button((_NAV_X, bottom - _TAB_H, _NAV_W, _TAB_H), "SHUT DOWN", "shutdown",
                          colour=(92, 30, 36), size=24))
        return out

    def _page_buttons(self) -> list[Button]:
        return list(self.view.buttons)

    def _confirm_buttons(self, confirm: Confirm) -> list[Button]:
        box = pygame.Rect(_CONFIRM)
        y = box.bottom - 120
        return [
            Button((box.centerx - 340, y, 320, 88), "CONFIRM", "confirm:yes",
                   colour=_RED if confirm.danger else (24, 110, 64), size=30),
            Button((box.centerx + 20, y, 320, 88), "CANCEL", "confirm:no", size=30),
        ]

    # --- drawing ------------------------------------------------------------------------------

    def _draw_header(self, surface: pygame.Surface) -> None:
        draw_text(surface, "OPERATOR MENU", 38, theme.GOLD, (_NAV_X + 4, 44), "midleft",
                  shadow=True)
        table = self.ctx.table
        state = table.state
        info = (f"{state.paytable.name}  ·  {state.paytable.id}  ·  round {state.round.number}"
                f"  ·  {state.phase.value.replace('_', ' ')}")
        draw_text(surface, info, 22, theme.CREAM, (420, 44), "midleft", Style.REGULAR,
                  max_width=980)
        badges = []
        if self.ctx.options.demo:
            badges.append(("DEMO", theme.DEMO))
        badges.append(("TILT", theme.TILT) if table.tilted else ("NO TILT", (40, 130, 80)))
        x = LOGICAL[0] - 24
        for label, colour in badges:
            words = font(22, Style.BOLD).size(label)[0]
            rect = pygame.Rect(x - words - 36, 22, words + 36, 44)
            draw_panel(surface, rect, colour, shade(colour, 1.4), radius=10, width=2)
            draw_text(surface, label, 22, theme.WHITE, rect.center)
            x = rect.x - 12

    def _draw_confirm(self, surface: pygame.Surface, confirm: Confirm,
                      pressed: set[str]) -> None:
        surface.blit(_dimmer(), (0, 0))
        box = pygame.Rect(_CONFIRM)
        edge = theme.TILT if confirm.danger else theme.GOLD
        draw_panel(surface, box.move(0, 10), (0, 0, 0, 120), (0, 0, 0), radius=24, width=0)
        draw_panel(surface, box, theme.PANEL, edge, radius=24, width=4)
        draw_text(surface, confirm.title, 40, edge, (box.centerx, box.y + 64), shadow=True,
                  max_width=box.width - 80)
        draw_text(surface, confirm.message, 28, theme.WHITE, (box.centerx, box.y + 150),
                  max_width=box.width - 80)
        draw_text(surface, confirm.detail, 22, theme.TEXT_DIM, (box.centerx, box.y + 200),
                  style=Style.REGULAR, max_width=box.width - 80)
        for b in self._confirm_buttons(confirm):
            draw_button(surface, b, b.tag in pressed)


# --- page views ----------------------------------------------------------------------------------

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
    """One file of ``paytables/``: loaded, or the reason it cannot be."""

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
    extra: dict[str, Any] = field(default_factory=dict)


Column = tuple[str, int, str]
"""A table column: its title, width and alignment ("l" or "r")."""

Text = str | tuple[str, theme.RGB]
"""A table cell: its text, or its text and colour."""


class _Sheet:
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
        y += row_h + _HEAD_GAP
        for index, row in enumerate(rows):
            if index % 2:
                self.box((x, y, total, row_h), (255, 255, 255, 14), radius=6)
            self._row(row, columns, x, y, row_h, size, theme.WHITE, Style.REGULAR)
            y += row_h
        return y

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


# --- METERS ----------------------------------------------------------------------------------

def _meters_view(menu: OperatorMenu) -> PageView:
    table = menu.ctx.table
    ledger = table.ledger
    meters = ledger.meters()
    active = table.state.paytable.id
    ids = sorted(meters, key=lambda pid: (pid != active, pid == "cabinet", pid))
    if active not in ids:
        ids.insert(0, active)
    selected = menu.meters_paytable if menu.meters_paytable in ids else ids[0]
    values = meters.get(selected, Counter())
    seats = max([s for s, _ in values] + [table.state.paytable.seats if selected == active
                                          else 0])
    sheet = _Sheet()
    x, y, width = _BODY_X, _BODY_Y, _BODY_W
    for index, pid in enumerate(ids[:5]):
        label = "CABINET" if pid == "cabinet" else pid
        sheet.buttons.append(Button((x + width - (index + 1) * 262 + 12, _CONTENT[1] + 20, 250,
                                     56), label, f"meters:{pid}", hot=pid == selected, size=20))
    clears = ledger.last_events(("ram_clear",), 1)
    since = f"since the RAM clear of {_when(clears[-1]['at'])}" if clears else \
        "since installation"
    coin_in = sum(v for (s, n), v in values.items() if s == TABLE and n.startswith("coin_in."))
    coin_out = sum(v for (s, n), v in values.items() if s == TABLE and n.startswith("coin_out."))
    figures = [("ROUNDS IN LEDGER", f"{ledger.round_count():,}"),
               ("GAMES PLAYED", f"{values[TABLE, 'games.played']:,}"),
               ("COIN IN", format_cents(coin_in)), ("COIN OUT", format_cents(coin_out)),
               ("HOLD", format_cents(coin_in - coin_out)),
               ("CASH IN", format_cents(values[TABLE, "cash_in"])),
               ("CASH OUT", format_cents(values[TABLE, "cash_out"]))]
    tile_w = (width - 6 * 12) // 7
    for index, (label, value) in enumerate(figures):
        tx = x + index * (tile_w + 12)
        sheet.box((tx, y, tile_w, 92), theme.PANEL_LIGHT, theme.PANEL_EDGE, 12, 1)
        sheet.text(label, tx + tile_w / 2, y + 14, 16, theme.TEXT_DIM, "midtop", Style.BOLD)
        sheet.text(value, tx + tile_w / 2, y + 44, 28, theme.GOLD if label == "HOLD"
                   else theme.WHITE, "midtop", Style.BOLD, max_width=tile_w - 16)
    names = [n for n in DEFINITIONS if any(name == n for _, name in values)]
    names += sorted({name for _, name in values} - set(names))
    columns: list[tuple[str, int, str]] = [("METER", 0, "l"), ("TABLE", 0, "r")]
    columns += [(f"SEAT {s}", 0, "r") for s in range(1, seats + 1)]
    number_w = min(150, (width - 380) // max(1, len(columns) - 1))
    columns = [(title, (width - number_w * (len(columns) - 1)) if i == 0 else number_w, align)
               for i, (title, _, align) in enumerate(columns)]
    size = _rows_fit(y + 116, 34)
    shown = names[menu.offset:menu.offset + size]
    rows = [[meter_label(name)] + [meter_value(name, values[s, name])
                                   for s in range(0, seats + 1)] for name in shown]
    if not names:
        sheet.text("No meter has moved " + since + ".", x, y + 140, 24, theme.TEXT_DIM)
    else:
        end = sheet.table(columns, rows, x, y + 116, row_h=34, size=20)
        _pager(sheet, menu.offset, size, len(names), end)
    owner = "the cabinet (power-ups, menu entries)" if selected == "cabinet" else selected
    return sheet.view("METERS", f"Meters of {owner}, {since}. TABLE is the whole table.",
                      rows=len(names), page_size=size)


_METER_WORDS: dict[str, str] = {
    "capped": "Withheld by the payout limit",
    "games.played": "Games played", "games.won": "Games won", "games.lost": "Games lost",
    "games.tied": "Games tied", "wars": "Wars", "surrenders": "Surrenders", "voids": "Voids",
    "wager_voids": "Single wagers voided", "wager_voids.amount": "Single wagers voided, amount",
    "bonus_spin.triggers": "Bonus Spin triggers", "bonus_spin.spins": "Bonus Spin spins",
    "attendant_paid_jackpots": "Hand pays (attendant-paid jackpots)",
    "attendant_paid_jackpots.amount": "Hand pays, amount", "tips": "Tips to the dealers",
    "cash_in": "Cash in", "cash_out": "Cash out (cancelled credits)", "power_ups": "Power-ups",
    "operator_menu_entries": "Operator menu entries",
}
_KIND_WORDS: dict[str, str] = {
    "initial": "Initial", "tie": "Tie", "war": "War", "war_tie": "War-deal Tie",
    "progressive_payout": "Progressive Payout", "bonus_spin": "Bonus Spin",
    "progressive": "Progressive awards", "envy_bonus": "Envy Bonus",
}
_PREFIX_WORDS: dict[str, str] = {
    "coin_in.": "Coin in", "coin_out.": "Coin out",
    "progressive.contribution_millionths.": "Contribution (µ¢)",
    "progressive.contribution.": "Contribution", "progressive.hits.": "Hits",
    "progressive.amount.": "Awarded",
}
_MONEY_PREFIXES = ("coin_in.", "coin_out.", "progressive.contribution.", "progressive.amount.")
_MONEY_NAMES = frozenset({"capped", "cash_in", "cash_out", "attendant_paid_jackpots.amount",
                          "wager_voids.amount", "tips"})


def meter_label(name: str) -> str:
    """A meter's name as the screen says it, e.g. ``coin_in.tie`` -> "Coin in · Tie"."""
    if name in _METER_WORDS:
        return _METER_WORDS[name]
    dealer = dealer_meter(name)
    if dealer is not None:
        return f"Dealer {dealer[0]} · {'rounds dealt' if dealer[1] == 'rounds' else 'tips'}"
    for prefix, words in _PREFIX_WORDS.items():
        if name.startswith(prefix):
            tail = name.removeprefix(prefix)
            if tail in _KIND_WORDS and prefix.startswith("coin"):
                return f"{words} · {_KIND_WORDS[tail]}"
            level = next((lv for lv in ProgressiveLevel if lv.value == tail), None)
            return f"{words} · {LEVEL_LABELS[level] if level else tail}"
    return name


def meter_value(name: str, value: int) -> str:
    """Cents as money, millionths of a cent as cents, counts as counts; zero as a dash."""
    if not value:
        return "—"
    dealer = dealer_meter(name)
    if name in _MONEY_NAMES or name.startswith(_MONEY_PREFIXES) or (dealer and
                                                                     dealer[1] == "tips"):
        return format_cents(value)
    if name.startswith("progressive.contribution_millionths."):
        cents, rest = divmod(value, 1_000_000)
        return f"{cents:,}.{rest:06d}¢"
    return f"{value:,}"


# --- RECALL ----------------------------------------------------------------------------------

def _recall_view(menu: OperatorMenu) -> PageView:
    records = menu.ctx.table.ledger.rounds(last=RECALL_ROUNDS)
    sheet = _Sheet()
    if not records:
        sheet.text("No round has been played on this ledger yet.", _BODY_X, _BODY_Y + 20, 24,
                   theme.TEXT_DIM)
        return sheet.view("GAME RECALL", "The last 10 rounds, as they were played.")
    menu.recall_index = max(-len(records), min(-1, menu.recall_index))
    position = len(records) + menu.recall_index  # 0 = oldest shown
    record = records[position]
    sheet.buttons += [
        Button((_BODY_X + _BODY_W - 470, _CONTENT[1] + 20, 220, 64), "◀ OLDER", "recall:prev",
               enabled=position > 0, size=22),
        Button((_BODY_X + _BODY_W - 230, _CONTENT[1] + 20, 220, 64), "NEWER ▶", "recall:next",
               enabled=position < len(records) - 1, size=22),
    ]
    events = round_events(record)
    _recall_header(sheet, record, position, len(records))
    cards_bottom = _recall_cards(sheet, record, events)
    lines = recall_lines(record, events)
    columns = [("SEAT", 70, "l"), ("SPOT", 70, "l"), ("WAGERS", 370, "l"),
               ("DECISIONS AND RESULTS", _BODY_W - 910, "l"), ("NET", 130, "r"),
               ("CREDITS BEFORE → AFTER", 270, "r")]
    size = _rows_fit(cards_bottom + 8, 32)
    shown = lines[menu.offset:menu.offset + size]
    end = sheet.table(columns, [line.cells for line in shown], _BODY_X, cards_bottom + 8,
                      row_h=32, size=19)
    if not lines:
        sheet.text("No seat had a wager in this round.", _BODY_X + 14, end + 8, 21,
                   theme.TEXT_DIM)
    _pager(sheet, menu.offset, size, len(lines), end)
    return sheet.view(f"GAME RECALL  ·  ROUND {record['round']}",
                      f"Record {position + 1} of the last {len(records)}; "
                      f"everything below is read from the hand ledger.",
                      rows=len(lines), page_size=size, extra={"round": record["round"]})


@dataclass(frozen=True)
class RecallLine:
    """One line of the recall table: a seat's spot, its Bonus Spin, or its totals."""

    cells: tuple[Text, ...]


def recall_lines(record: dict[str, Any], events: list[Event]) -> list[RecallLine]:
    """Per seat: one line per spot wagered on, one for the seat's own wagers and awards."""
    out: list[RecallLine] = []
    net = next((e.net for e in events if isinstance(e, RoundComplete)), None)
    refunds = next((e.refunds for e in events if isinstance(e, RoundVoided)), None)
    for seat in range(1, int(record["seats"]) + 1):
        before = record["credits_before"][seat - 1]
        after = record["credits_after"][seat - 1]
        rows: list[tuple[str, str, str]] = []
        for spot, wagers in enumerate(record["wagers"][seat - 1], start=1):
            placed = _placed(wagers)
            results = _results(events, seat, spot)
            if placed or results:
                rows.append((str(spot), placed, results))
        bonus = record["bonus_spin"][seat - 1]
        own = _results(events, seat, 0)
        if bonus or own:
            rows.append(("—", f"Bonus Spin {_dollars(bonus)}" if bonus else "", own))
        if not rows and before == after:
            continue
        if net is not None:
            gain = net[seat - 1]
        elif refunds is not None:
            gain = 0
            rows.append(("—", "", f"Void: {format_cents(refunds[seat - 1])} returned"))
        else:
            gain = after - before
        colour = theme.WIN if gain > 0 else theme.LOSE if gain < 0 else theme.PUSH
        for index, (spot_text, placed, results) in enumerate(rows or [("—", "", "")]):
            first = index == 0
            out.append(RecallLine((
                (f"{seat}", theme.seat_colour(seat)) if first else "", spot_text, placed,
                results, (format_gain(gain), colour) if first else "",
                f"{format_cents(before)} → {format_cents(after)}" if first else "",
            )))
    return out


def _placed(wagers: dict[str, int]) -> str:
    parts = [f"{words} {_dollars(wagers[name])}" for name, words in
             (("initial", "Initial"), ("tie", "Tie"), ("progressive_payout", "Prog. Payout"))
             if wagers.get(name)]
    return " · ".join(parts)


def _results(events: list[Event], seat: int, spot: int) -> str:
    parts: list[str] = []
    for event in events:
        match event:
            case DecisionMade(seat=s, spot=p, decision=decision, by_default=by_default,
                              war_tie=war_tie) if s == seat and p == spot:
                tie = f" + Tie {_dollars(war_tie)}" if war_tie else ""
                how = " (time up)" if by_default else ""
                parts.append(f"{decision.value.capitalize()}{tie}{how}")
            case WagerSettled(seat=s, spot=p, payment=payment, paid=paid, capped=capped) \
                    if s == seat and p == spot and payment.kind.value != "progressive":
                # the award itself is told by its ProgressiveAwarded, with its meter
                parts.append(_settled(payment.kind.value, payment.result.value, paid, capped))
            case PayoutHandMade(seat=s, spot=p, hand=hand) if s == seat and p == spot:
                parts.append(hand.label)
            case EnvyBonus(seat=s, holder_seat=holder, hand=hand) if s == seat and spot == 0:
                parts.append(f"Envy: seat {holder} {hand.label}")
            case ProgressiveAwarded(seat=s, spot=p, level=level, amount=amount) \
                    if s == seat and p == spot:
                parts.append(f"{LEVEL_LABELS[level]} {format_cents(amount)}")
            case WagerVoided(seat=s, spot=p, amount=amount, reason=reason) \
                    if s == seat and p == spot:
                parts.append(f"Voided, {_dollars(amount)} returned ({reason})")
            case SeatAbandoned(seat=s, spots=spots, rule=rule) if s == seat and spot in spots:
                parts.append(f"Abandoned ({rule.value.replace('_', ' ')})")
            case HandPaid(seat=s, spot=p, amount=amount) if s == seat and p == spot:
                parts.append(f"Hand pay {format_cents(amount)}")
            case TipGiven(seat=s, dealer_id=dealer, amount=amount) if s == seat and spot == 0:
                parts.append(f"Tip {_dollars(amount)} to {dealer}")
            case _:
                pass
    return " · ".join(parts)


def _settled(kind: str, result: str, paid: int, capped: int) -> str:
    """One wager's result as the engine recorded it, e.g. "Initial won, paid $10"."""
    words = _KIND_WORDS.get(kind, kind)
    paid_text = f", paid {_dollars(paid)}" if paid else ""
    cap = f" (capped {_dollars(capped)})" if capped else ""
    return f"{words} {result}{paid_text}{cap}"


def _recall_header(sheet: _Sheet, record: dict[str, Any], position: int, count: int) -> None:
    x, y = _BODY_X, _BODY_Y - 4
    voided = record["outcome"] == "voided"
    badge = "VOIDED" if voided else "COMPLETE"
    colour = theme.TILT if voided else (40, 130, 80)
    sheet.box((x, y, 170, 40), colour, shade(colour, 1.4), 10, 2)
    sheet.text(badge, x + 85, y + 20, 20, theme.WHITE, "center", Style.BOLD)
    paytable = record["paytable"]
    shoe = record["shoe"]
    reason = f"  ·  reason: {record.get('void_reason')}" if voided else ""
    dealer = f"  ·  dealer {record['dealer']}" if record.get("dealer") else ""
    sheet.text(f"Paytable {paytable['id']}  ·  sha256 {str(paytable['sha256'])[:16]}…"
               f"  ·  shoe {shoe['shuffle_number']}, cut card at {shoe['cut_index']}{dealer}"
               f"{reason}",
               x + 190, y + 2, 20, theme.CREAM, max_width=_BODY_W - 200)
    sheet.text(f"Started {_when(record['started_at'])}   ·   ended {_when(record['ended_at'])}",
               x + 190, y + 26, 18, theme.TEXT_DIM)


def _recall_cards(sheet: _Sheet, record: dict[str, Any], events: list[Event]) -> int:
    """Dealer and spot cards, original deal above the War deal; returns the bottom edge."""
    width = 80
    _, height = card_size(width)
    spots = len(record["spot_cards"])
    column = 122
    x0 = _BODY_X + 150
    top = _BODY_Y + 62
    rows = (("ORIGINAL", record["dealer_card"], record["spot_cards"]),
            ("WAR DEAL", record["dealer_war_card"], record["war_cards"]))
    panel_w = 150 + column * (spots + 1) + 10
    sheet.box((_BODY_X, top - 8, panel_w, 2 * height + 74), theme.FELT_DARK,
              theme.FELT_LIGHT, 16, 2)
    for index, title in enumerate(["DEALER"] + [f"SPOT {n}" for n in range(1, spots + 1)]):
        sheet.text(title, x0 + index * column + width / 2, top, 17,
                   theme.GOLD if index == 0 else theme.CREAM, "midtop", Style.BOLD)
    for row, (label, dealer, spot_cards) in enumerate(rows):
        y = top + 28 + row * (height + 12)
        sheet.text(label, _BODY_X + 18, y + height / 2, 17, theme.TEXT_DIM, "midleft",
                   Style.BOLD)
        for index, code in enumerate([dealer, *spot_cards]):
            card = Card.parse(code) if code else None
            sheet.cards.append(CardSlot(card, (x0 + index * column, y), width))
    _recall_wheel(sheet, events, _BODY_X + panel_w + 20, top - 8,
                  _BODY_W - panel_w - 20, 2 * height + 74)
    return top - 8 + 2 * height + 74 + 14


def _recall_wheel(sheet: _Sheet, events: list[Event], x: float, y: float, width: float,
                  height: float) -> None:
    """The round's totals and its Bonus Spin, beside the cards."""
    sheet.box((x, y, width, height), theme.PANEL_LIGHT, theme.PANEL_EDGE, 16, 1)
    settled = [e for e in events if isinstance(e, WagerSettled)]
    staked = sum(e.payment.stake for e in settled)
    paid = sum(e.paid for e in settled)
    contributed = sum(e.to_meter + e.to_reserve for e in events
                      if isinstance(e, ProgressiveContributed))
    hand_paid = [e for e in events if isinstance(e, HandPaid)]
    sections: list[tuple[str, list[tuple[str, str]]]] = [
        ("ROUND", [("Wagered / paid", f"{format_cents(staked)} / {format_cents(paid)}"),
                   ("To the meters", format_cents(contributed)),
                   *([("Hand paid", f"{format_cents(sum(e.amount for e in hand_paid))}  ·  "
                                    f"validated by {hand_paid[0].validator}")]
                     if hand_paid else [])]),
    ]
    trigger = next((e for e in events if isinstance(e, BonusSpinTriggered)), None)
    stopped = next((e for e in events if isinstance(e, WheelStopped)), None)
    bonus: list[tuple[str, str]] = []
    if trigger is None:
        bonus.append(("Trigger", "not triggered"))
    else:
        seats = ", ".join(str(s) for s in sorted(trigger.seats)) or "none"
        bonus.append(("Trigger", f"{trigger.card}  ·  seats {seats}"))
    if stopped is not None:
        bonus += [("Community", f"stop {stopped.stops.community}  ·  {stopped.community_symbol}"),
                  ("Hot Spot", f"seat {stopped.stops.seat}  ·  stop {stopped.stops.hot_spot}"
                               f"  ·  {stopped.hot_spot_symbol}")]
    sections.append(("BONUS SPIN", bonus))
    row_y = y + 14
    for title, rows in sections:
        sheet.text(title, x + 20, row_y, 18, theme.GOLD, style=Style.BOLD)
        row_y += 32
        for label, value in rows:
            sheet.label_value(label, value, x + 20, row_y, width - 40, size=18)
            row_y += 29
        row_y += 12


def _dollars(cents: int) -> str:
    return format_cents(cents, whole_dollars=True)


# --- EVENT LOG -------------------------------------------------------------------------------

def _event_log_view(menu: OperatorMenu) -> PageView:
    sheet = _Sheet()
    size = _rows_fit(_BODY_Y, 38)
    page = menu.ctx.table.ledger.event_page(menu.offset, size + 1)  # one more: is there a next?
    shown = page[:size]
    known = menu.offset + len(page)  # as many as the pager needs to know, never the whole log
    detail_w = _BODY_W - 250 - 250 - 170
    columns = [("TIME (UTC)", 250, "l"), ("KIND", 250, "l"), ("ACTOR", 170, "l"),
               ("DETAILS", detail_w, "l")]
    rows: list[list[Text]] = [
        [_when(e["at"]), (str(e["kind"]), _KIND_COLOURS.get(str(e["kind"]), theme.CREAM)),
         str(e["actor"] or "—"), clip(compact(e["details"]), 18, detail_w - 24)]
        for e in shown]
    end = sheet.table(columns, rows, _BODY_X, _BODY_Y, row_h=38, size=18)
    _pager(sheet, menu.offset, size, known, end, more=len(page) > size)
    first = menu.offset + 1 if shown else 0
    last = menu.offset + len(shown)
    return sheet.view("EVENT LOG", f"Newest first: entries {first:,}–{last:,}"
                                   f"{' and older' if len(page) > size else ''}.",
                      rows=known, page_size=size)


_KIND_COLOURS: dict[str, theme.RGB] = {
    "tilt": theme.TILT, "pin_failed": (240, 170, 70), "pin_locked": theme.TILT,
    "ram_clear": (240, 120, 90), "void": (240, 170, 70), "cash_in": (140, 220, 160),
    "cash_out": (140, 220, 160), "cash_out_request": theme.WIN, "tilt_cleared": theme.PUSH,
    "wager_void": (240, 170, 70), "seat_abandoned": (240, 170, 70),
    "jackpot_lock": theme.GOLD, "jackpot_validated": theme.GOLD, "hand_pay": theme.WIN,
    "dealer_sign_in": (150, 190, 240), "tip": (200, 170, 240),
}


def compact(details: dict[str, Any]) -> str:
    """Details as compact JSON: sorted keys, no spaces."""
    return json.dumps(details, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


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


# --- CREDITS ---------------------------------------------------------------------------------

PENDING_WINDOW = 1_000
"""Newest cash-out requests and cash-outs read for the CREDITS page: a request is paid
within minutes, so one still pending lies far inside this window."""


def _credits_view(menu: OperatorMenu) -> PageView:
    table = menu.ctx.table
    ledger = table.ledger
    state = table.state
    seats = state.paytable.seats
    # The totals are the meters (since the last RAM clear), never a sum over the event log.
    cash_in: Counter[int] = Counter()
    cash_out: Counter[int] = Counter()
    for counter in ledger.meters().values():
        for (seat, name), value in counter.items():
            if name == CASH_IN:
                cash_in[seat] += value
            elif name == CASH_OUT:
                cash_out[seat] += value
    # A request is pending until a cash-out of its seat follows it; only recent ones can be.
    pending: dict[int, dict[str, Any]] = {}
    for entry in ledger.last_events(("cash_out_request", "cash_out"), PENDING_WINDOW):
        seat = int(entry["details"]["seat"])
        if entry["kind"] == "cash_out_request":
            pending[seat] = entry
        else:
            pending.pop(seat, None)
    sheet = _Sheet()
    columns = [("SEAT", 110, "l"), ("CREDITS", 220, "r"), ("CASH IN", 200, "r"),
               ("CASH OUT", 200, "r"), ("CASH-OUT REQUEST", 260, "l")]
    row_h = min(92, (_CONTENT[3] - 150) // max(seats, 1) - 4)
    x, y = _BODY_X, _BODY_Y
    sheet.box((x, y, _BODY_W, 40), theme.PANEL_LIGHT, radius=8)
    left = x
    for title, width, align in columns:
        sheet.text(title, left + width - 14 if align == "r" else left + 14, y + 20, 18,
                   theme.TEXT_DIM, "midright" if align == "r" else "midleft", Style.BOLD)
        left += width
    sheet.text("ATTENDANT", left + 14, y + 20, 18, theme.TEXT_DIM, "midleft", Style.BOLD)
    y += 48
    buttons_x = left + 10
    button_w = (x + _BODY_W - buttons_x - 3 * 10) // 4
    for seat in range(1, seats + 1):
        credits = state.credits[seat - 1]
        if seat % 2 == 0:
            sheet.box((x, y, _BODY_W, row_h), (255, 255, 255, 14), radius=8)
        sheet.box((x + 14, y + row_h / 2 - 20, 40, 40), theme.seat_colour(seat),
                  shade(theme.seat_colour(seat), 1.3), 20, 2)
        sheet.text(str(seat), x + 34, y + row_h / 2, 22, theme.INK, "center", Style.BOLD)
        cells = [format_cents(credits), format_cents(cash_in[seat]), format_cents(cash_out[seat])]
        left = x + 110
        for index, (text, (_, width, _)) in enumerate(zip(cells, columns[1:4], strict=True)):
            first = index == 0
            sheet.text(text, left + width - 14, y + row_h / 2, 24 if first else 21,
                       theme.GOLD if first and credits else theme.WHITE, "midright",
                       Style.BOLD if first else Style.REGULAR)
            left += width
        request = pending.get(seat)
        if request is not None:
            asked = format_cents(int(request["details"].get("credits", 0)))
            sheet.text(f"PENDING  {asked}", left + 14, y + row_h / 2 - 12, 20, theme.WIN,
                       "midleft", Style.BOLD)
            sheet.text(_when(request["at"]), left + 14, y + row_h / 2 + 14, 16,
                       theme.TEXT_DIM, "midleft")
        else:
            sheet.text("—", left + 14, y + row_h / 2, 20, theme.TEXT_DIM, "midleft")
        button_h = min(64, row_h - 16)
        by = y + (row_h - button_h) / 2
        for index, cents in enumerate(CASH_IN_CENTS):
            sheet.buttons.append(Button((buttons_x + index * (button_w + 10), by, button_w,
                                         button_h), f"+{_dollars(cents)}",
                                        f"cash:in:{seat}:{cents}", colour=(30, 96, 66),
                                        size=24, sublabel="CASH IN"))
        sheet.buttons.append(Button((buttons_x + 3 * (button_w + 10), by, button_w, button_h),
                                    "CASH OUT", f"cash:out:{seat}", enabled=credits > 0,
                                    hot=request is not None and credits > 0, colour=(120, 60, 30),
                                    size=22))
        y += row_h + 4
    total_in, total_out = sum(cash_in.values()), sum(cash_out.values())
    sheet.text(f"All seats: cash in {format_cents(total_in)}  ·  cash out "
               f"{format_cents(total_out)}  ·  on the seats now "
               f"{format_cents(sum(state.credits))}", x + 14, y + 12, 20, theme.CREAM)
    return sheet.view("CREDITS", "Credits enter and leave only through the attendant; "
                                 "every cash in and cash out is logged with who and how much.")


# --- WAGERS (supervisor) ------------------------------------------------------------------------

def _wagers_view(menu: OperatorMenu) -> PageView:
    """The round's wagers on the layout, each with its void, and the seats' ABANDONED.

    Every control asks the engine whether it would be accepted now; a disabled
    one is the engine's refusal, not a rule of the screen.
    """
    table = menu.ctx.table
    state = table.state
    sheet = _Sheet()
    x, y = _BODY_X, _BODY_Y - 20
    sheet.text("VOID REASON", x, y + 28, 18, theme.TEXT_DIM, "midleft", Style.BOLD)
    reason_w = (_BODY_W - 240 - 3 * 10) // len(VOID_REASONS)
    for index, words in enumerate(VOID_REASONS):
        sheet.buttons.append(Button((x + 240 + index * (reason_w + 10), y, reason_w, 56),
                                    words, f"wager:reason:{index}",
                                    hot=index == menu.void_reason, size=17))
    y += 72
    sheet.text("ABANDONED SEAT", x, y + 28, 18, theme.TEXT_DIM, "midleft", Style.BOLD)
    abandon = abandon_actions(state, table.refusal)
    seat_w = min(170, (_BODY_W - 240 - (len(abandon) - 1) * 10) // max(len(abandon), 1))
    for index, action in enumerate(abandon):
        sheet.buttons.append(Button((x + 240 + index * (seat_w + 10), y, seat_w, 56),
                                    f"SEAT {index + 1}", action.tag,
                                    enabled=action.refusal is None, colour=(120, 60, 30),
                                    size=20, sublabel="ABANDONED"))
    y += 80
    lines = wager_lines(state, table.refusal)
    columns = [("SEAT", 90, "l"), ("SPOT", 110, "l"), ("ON THE LAYOUT", _BODY_W - 200 - 660,
                                                        "l")]
    row_h = 60
    size = max(1, _rows_fit(y, row_h))
    shown = lines[menu.offset:menu.offset + size]
    rows: list[list[Text]] = [
        [(str(line.seat), theme.seat_colour(line.seat)),
         str(line.spot) if line.spot else "Bonus", line.on_layout] for line in shown]
    sheet.table([*columns, ("VOID", 660, "l")], rows, x, y, row_h=row_h, size=20)
    button_w = (660 - 4 * 10) // 3
    for index, line in enumerate(shown):
        top = y + row_h + _HEAD_GAP + index * row_h + 4
        for n, action in enumerate(line.actions):
            sheet.buttons.append(Button((x + _BODY_W - 660 + 10 + n * (button_w + 10), top,
                                         button_w, row_h - 8), action.label, action.tag,
                                        enabled=action.refusal is None, colour=_RED, size=18))
    if not lines:
        sheet.text(f"No wager is on the layout (the table is "
                   f"{state.phase.value.replace('_', ' ')}).", x + 14,
                   y + row_h + _HEAD_GAP + 12, 21, theme.TEXT_DIM)
    _pager(sheet, menu.offset, size, len(lines), y + row_h + _HEAD_GAP + len(shown) * row_h)
    return sheet.view(f"WAGERS IN PLAY  ·  ROUND {state.round.number}",
                      "The supervisor voids a wager before it is settled (MD Ch. 11 C) or "
                      "marks a seat abandoned (MD Ch. 7 B(3)-(4)); each asks the supervisor "
                      "PIN and is logged.", rows=len(lines), page_size=size)


# --- PROGRESSIVES ----------------------------------------------------------------------------

def _progressives_view(menu: OperatorMenu) -> PageView:
    table = menu.ctx.table
    state = table.state
    paytable = state.paytable
    meters = table.ledger.meters().get(paytable.id, Counter())
    awards = recent_awards(table.ledger.rounds(last=200))
    sheet = _Sheet()
    gap = 24
    width = (_BODY_W - 2 * gap) // 3
    for index, level in enumerate(LEVELS):
        x = _BODY_X + index * (width + gap)
        y = _BODY_Y
        height = _CONTENT[1] + _CONTENT[3] - 32 - y
        sheet.box((x, y, width, height), theme.PANEL_LIGHT, theme.PANEL_EDGE, 16, 1)
        sheet.text(LEVEL_LABELS[level].upper(), x + width / 2, y + 20, 22, theme.GOLD,
                   "midtop", Style.BOLD)
        meter = state.meter(level)
        rules = paytable.meter(level)
        if meter is None or rules is None:
            sheet.text("Not offered by this paytable", x + width / 2, y + 120, 22,
                       theme.TEXT_DIM, "midtop")
            continue
        sheet.box((x + 24, y + 62, width - 48, 96), (4, 10, 18), theme.GOLD_DARK, 12, 2)
        sheet.text(format_cents(meter.cents), x + width / 2, y + 110, 50, theme.WIN, "center",
                   Style.BOLD, max_width=width - 70)
        rows = [
            ("Initial amount", format_cents(rules.initial_cents)),
            ("Reset amount", format_cents(rules.reset_cents)),
            ("Ceiling", format_cents(rules.ceiling_cents) if rules.ceiling_cents is not None
             else "none"),
            ("Rate of progression", f"{rules.rate_millionths / 10_000:g} % of wagers"),
            ("Reserve", format_cents(meter.reserve_cents)),
            ("Carry", f"{meter.carry / 1_000_000:.6f}¢"),
            ("Hits", f"{meters[TABLE, f'progressive.hits.{level.value}']:,}"),
            ("Awarded", format_cents(meters[TABLE, f"progressive.amount.{level.value}"])),
            ("Contributed", format_cents(meters[TABLE,
                                                f"progressive.contribution.{level.value}"])),
        ]
        row_y = y + 184
        for label, value in rows:
            sheet.label_value(label, value, x + 28, row_y, width - 56)
            row_y += 38
        sheet.section("LAST AWARDS", x + 28, row_y + 12, width - 56)
        row_y += 56
        mine = [a for a in awards if a.level is level][:6]
        if not mine:
            sheet.text("None in the last 200 rounds", x + 28, row_y, 19, theme.TEXT_DIM)
        for award in mine:
            sheet.label_value(f"Round {award.round}  ·  seat {award.seat}",
                              format_cents(award.amount), x + 28, row_y, width - 56, theme.WIN,
                              size=19)
            row_y += 32
    return sheet.view("PROGRESSIVES", f"Live meters of {paytable.id}; hits and amounts are "
                                      f"the meters since the last RAM clear.")


@dataclass(frozen=True)
class Award:
    round: int
    level: ProgressiveLevel
    seat: int
    amount: int


def recent_awards(records: list[dict[str, Any]]) -> list[Award]:
    """Progressive awards in ``records``, newest first."""
    out: list[Award] = []
    for record in reversed(records):
        if not any(e.get("type") == "ProgressiveAwarded" for e in record["events"]):
            continue
        for event in reversed(round_events(record)):
            if isinstance(event, ProgressiveAwarded):
                out.append(Award(int(record["round"]), event.level, event.seat, event.amount))
    return out


# --- JACKPOTS (MD Ch. 9 J(4)) -----------------------------------------------------------------

HAND_PAYS_SHOWN = 10
"""Hand pays the JACKPOTS page lists, newest first."""


def _jackpots_view(menu: OperatorMenu) -> PageView:
    table = menu.ctx.table
    state = table.state
    sheet = _Sheet()
    x, width = _BODY_X, _BODY_W
    y: float = _BODY_Y
    rules = state.jackpot_rules
    threshold = ("no validation (the cabinet sets none)" if rules is None else
                 f"awards of {format_cents(rules.hand_pay_cents)} or more are hand paid")
    lock = state.jackpot
    sheet.section("JACKPOT LOCK" if lock else "NO JACKPOT WAITS", x, y, width)
    if lock is None:
        sheet.text("Play goes on: no award is held for validation.", x, y + 48, 22,
                   theme.TEXT_DIM)
        y += 100
    else:
        rows: list[list[Text]] = [
            [str(a.seat), str(a.spot or "—"), AWARD_WORDS[a.payment.kind.value],
             (format_cents(a.win), theme.WIN),
             ("HAND PAY", theme.WAR) if a.hand_pay else "to credits"] for a in lock.awards]
        y = sheet.table([("SEAT", 90, "l"), ("SPOT", 90, "l"), ("AWARD", 420, "l"),
                         ("AMOUNT", 240, "r"), ("PAID", width - 840 - 380, "l")],
                        rows[:6], x, y + 44, 38, 20)
        sheet.buttons.append(Button((x + width - 360, _BODY_Y + 44, 360, 96), "VALIDATE",
                                    "jackpot:validate", hot=True, colour=(150, 100, 20), size=30,
                                    sublabel="FLOORPERSON PIN"))
        y += 24
    meters = Counter[tuple[int, str]]()
    for counter in table.ledger.meters().values():
        meters.update(counter)
    sheet.text(f"Hand-pay threshold: {threshold}.  Hand pays since the last RAM clear: "
               f"{meters[TABLE, ATTENDANT_PAID_JACKPOTS]:,}, "
               f"{format_cents(meters[TABLE, ATTENDANT_PAID_JACKPOTS_AMOUNT])}.", x, y, 21,
               theme.CREAM, max_width=width)
    y += 48
    sheet.section("HAND PAYS", x, y, width)
    pays = recent(menu.ctx, "hand_pay", HAND_PAYS_SHOWN)
    rows = [[_when(e["at"]), str(e["details"]["round"]), str(e["details"]["seat"]),
             AWARD_WORDS.get(str(e["details"]["kind"]), str(e["details"]["kind"])),
             (format_cents(int(e["details"]["amount"])), theme.WIN),
             str(e["details"]["validator"])] for e in pays]
    if rows:
        sheet.table([("TIME (UTC)", 260, "l"), ("ROUND", 120, "r"), ("SEAT", 100, "r"),
                     ("AWARD", 420, "l"), ("AMOUNT", 240, "r"),
                     ("VALIDATED BY", width - 1140, "l")], rows, x, y + 44, 36, 19)
    else:
        sheet.text("No hand pay has been recorded on this ledger.", x, y + 48, 21,
                   theme.TEXT_DIM)
    return sheet.view("JACKPOTS", "A progressive award, or an award at the hand-pay threshold, "
                                  "waits for a floorperson's PIN (MD Ch. 9 J(4)).")


# --- DEALERS (MD Ch. 8 E(4), Ch. 2 D) ----------------------------------------------------------

TIPS_SHOWN = 8
"""Tips the DEALERS page lists, newest first."""


def _dealers_view(menu: OperatorMenu) -> PageView:
    ctx = menu.ctx
    sheet = _Sheet()
    x, y, width = _BODY_X, _BODY_Y, _BODY_W
    end: float
    at_table = ctx.table.state.dealer
    sheet.text(f"At the table: {'dealer ' + at_table if at_table else 'no dealer signed in'}",
               x, y - 6, 24, theme.GOLD if at_table else theme.TEXT_DIM, style=Style.BOLD)
    sheet.buttons.append(Button((x + width - 360, _CONTENT[1] + 20, 360, 72), "ADD / SET PIN",
                                "dealer:add", colour=(30, 96, 66), size=24))
    dealers = dealer_rows(ctx)
    row_h = 44
    columns = [("DEALER", 220, "l"), ("PIN", 200, "l"), ("ROUNDS DEALT", 240, "r"),
               ("TIPS", 240, "r"), ("", width - 900, "l")]
    top = y + 40
    rows: list[list[Text]] = [
        [(d.dealer_id, theme.GOLD) if d.at_table else d.dealer_id,
         "set" if d.has_pin else ("removed", theme.TEXT_DIM), f"{d.rounds:,}",
         format_cents(d.tips), "at the table" if d.at_table else ""] for d in dealers[:8]]
    if rows:
        end = sheet.table(columns, rows, x, top, row_h, 21)
        for index, d in enumerate(dealers[:8]):
            if d.has_pin:
                sheet.buttons.append(Button((x + width - 200, top + row_h + _HEAD_GAP + index
                                             * row_h + 2, 190, row_h - 4), "REMOVE",
                                            f"dealer:remove:{d.dealer_id}", colour=_RED, size=18))
    else:
        sheet.text("No dealer yet: ADD / SET PIN adds one (badge number and PIN).", x, top + 8,
                   21, theme.TEXT_DIM)
        end = top + 50
    sheet.section("TIPS", x, end + 24, width)
    tips = recent(ctx, "tip", TIPS_SHOWN)
    tip_rows: list[list[Text]] = [
        [_when(e["at"]), str(e["details"]["seat"]), str(e["details"]["dealer"]),
         (format_cents(int(e["details"]["amount"])), theme.WIN)] for e in tips]
    if tip_rows:
        sheet.table([("TIME (UTC)", 300, "l"), ("SEAT", 140, "r"), ("DEALER", 260, "l"),
                     ("AMOUNT", 240, "r")], tip_rows, x, end + 68, 36, 19)
    else:
        sheet.text("No tip has been given on this ledger.", x, end + 72, 21, theme.TEXT_DIM)
    return sheet.view("DEALERS", "A dealer signs in at the console with a badge number and PIN; "
                                 "tips go from the seats' credits to the dealer at the table.")


# --- PAYTABLES -------------------------------------------------------------------------------

def _paytables_view(menu: OperatorMenu) -> PageView:
    ctx = menu.ctx
    active = ctx.table.paytable
    folder = (ctx.options.config_dir or default_config_dir()) / "paytables"
    entries = tuple(_paytable_entry(path, active) for path in sorted(folder.glob("*.yaml")))
    sheet = _Sheet()
    x, y = _BODY_X, _BODY_Y
    if menu.viewing is not None and menu.viewing < len(entries) \
            and entries[menu.viewing].loaded is not None:
        entry = entries[menu.viewing]
        assert entry.loaded is not None
        _paytable_summary(sheet, entry.loaded, x, y)
        sheet.buttons.append(Button((x + _BODY_W - 470, _CONTENT[1] + 20, 220, 64), "◀ BACK",
                                    "pt:back", size=22))
        why_not = None if entry.active else _switch_refusal(ctx, entry.loaded)
        sheet.buttons.append(Button((x + _BODY_W - 230, _CONTENT[1] + 20, 220, 64), "SWITCH",
                                    f"pt:switch:{menu.viewing}",
                                    enabled=not entry.active and why_not is None,
                                    colour=(24, 110, 64), size=22))
        subtitle = f"{entry.file}: the figures as read and validated from the file"
        return sheet.view(f"PAYTABLE  ·  {entry.loaded.paytable.id}",
                          subtitle if why_not is None else f"SWITCH is off: {why_not}",
                          paytables=entries)
    sheet.box((x, y, _BODY_W, 150), theme.FELT_DARK, theme.GOLD_DARK, 14, 2)
    sheet.text("ACTIVE", x + 24, y + 18, 18, theme.GOLD, style=Style.BOLD)
    sheet.text(active.paytable.name, x + 24, y + 44, 30, theme.WHITE, style=Style.BOLD)
    sheet.text(f"id {active.paytable.id}  ·  file {_relative(active.path)}", x + 24, y + 88,
               20, theme.CREAM)
    sheet.text(f"sha256 {active.sha256}", x + 24, y + 116, 18, theme.TEXT_DIM)
    y += 176
    sheet.box((x, y, _BODY_W, 40), theme.PANEL_LIGHT, radius=8)
    for title, offset in (("FILE", 14), ("ID", 430), ("NAME", 660), ("SHA-256", 1040)):
        sheet.text(title, x + offset, y + 20, 18, theme.TEXT_DIM, "midleft", Style.BOLD)
    y += 46
    row_h = 72
    for index, entry in enumerate(entries):
        if index % 2:
            sheet.box((x, y, _BODY_W, row_h), (255, 255, 255, 14), radius=8)
        middle = y + row_h / 2
        sheet.text(entry.file, x + 14, middle, 20, theme.WHITE, "midleft", Style.BOLD,
                   max_width=400)
        if entry.loaded is None:
            sheet.text(entry.error or "cannot be loaded", x + 430, middle, 18, theme.TILT,
                       "midleft", max_width=_BODY_W - 450)
        else:
            p = entry.loaded.paytable
            sheet.text(p.id, x + 430, middle, 20, theme.CREAM, "midleft", max_width=215)
            sheet.text(p.name, x + 660, middle, 20, theme.CREAM, "midleft", max_width=365)
            sheet.text(entry.loaded.sha256[:12], x + 1040, middle, 18, theme.TEXT_DIM,
                       "midleft")
            sheet.buttons.append(Button((x + _BODY_W - 300, y + 8, 140, row_h - 16), "VIEW",
                                        f"pt:view:{index}", size=22))
            if entry.active:
                sheet.box((x + _BODY_W - 150, y + 8, 140, row_h - 16), theme.FELT_DARK,
                          theme.GOLD, 12, 2)
                sheet.text("ACTIVE", x + _BODY_W - 80, middle, 20, theme.GOLD, "center",
                           Style.BOLD)
            else:
                sheet.buttons.append(Button((x + _BODY_W - 150, y + 8, 140, row_h - 16),
                                            "SWITCH", f"pt:switch:{index}",
                                            enabled=_switch_refusal(ctx, entry.loaded) is None,
                                            colour=(24, 110, 64), size=22))
        y += row_h
    why_not = _switch_refusal(ctx, active)  # the active file is valid: what is left is the table
    rule = ("A switch is allowed only between rounds with no credits on any seat."
            if why_not is None else f"SWITCH is off: {why_not}.")
    return sheet.view("PAYTABLES", f"Approved files in {folder}. {rule}", paytables=entries)


def _switch_refusal(ctx: Context, loaded: LoadedPaytable) -> str | None:
    """Why the engine would refuse a switch to ``loaded`` now (a dry run), or None."""
    return ctx.table.refusal(SwitchPaytable(loaded.paytable))


def _paytable_entry(path: Path, active: LoadedPaytable) -> PaytableEntry:
    try:
        loaded = load_paytable(path)
    except ConfigError as error:
        problems = error.problems
        first = f"{problems[0].key_path}: {problems[0].message}" if problems else str(error)
        more = f" (and {len(problems) - 1} more)" if len(problems) > 1 else ""
        return PaytableEntry(path.name, None, first + more, False)
    is_active = loaded.sha256 == active.sha256 and path.resolve() == active.path.resolve()
    return PaytableEntry(path.name, loaded, None, is_active)


def paytable_summary(p: Paytable) -> list[tuple[str, list[tuple[str, str]]]]:
    """The figures of ``p`` an operator checks before a switch, by section."""
    money = format_cents
    sections: list[tuple[str, list[tuple[str, str]]]] = [
        ("GAME", [("Jurisdiction", p.jurisdiction.value.replace("_", " ").title()),
                  ("Layout", f"{p.layout.value.replace('_', ' ')}, {p.spot_count} spots"),
                  ("Seats", f"{p.seats}, up to {p.max_spots_per_seat} spots each"),
                  ("Shoe", f"{p.shoe.decks} decks, cut card at {p.shoe.penetration_min:.0%}"
                           f"–{p.shoe.penetration_max:.0%} from the bottom")]),
        ("LIMITS", [("Initial Wager", f"{money(p.limits.initial.min_cents)} – "
                                      f"{money(p.limits.initial.max_cents)}"),
                    ("Tie Wager", f"{money(p.limits.tie.min_cents)} – "
                                  f"{money(p.limits.tie.max_cents)}"),
                    ("Wager unit", money(p.unit_cents)),
                    ("Payout limit", f"{money(p.payout_limit_rules.amount_cents)} per "
                                     f"{p.payout_limit_rules.scope.value.replace('_', ' ')}")]),
        ("PAYOUTS", [("Initial Wager", str(p.payouts.initial)), ("Tie Wager", str(p.payouts.tie)),
                     ("War Wager", str(p.payouts.war)),
                     ("War Wager on a tie", str(p.payouts.war_tie)),
                     ("War form", p.war_form.value.replace("_", " ")),
                     ("Default decision", p.default_decision.value),
                     ("Tie Wager with War", "offered" if p.war_tie_wager else "not offered")]),
        ("TIMERS", [("Betting", f"{p.timers.betting_s} s"),
                    ("Decision", f"{p.timers.decision_s} s"),
                    ("Opens by itself", "yes" if p.timers.auto_open else "no")]),
    ]
    side: list[tuple[str, str]] = []
    if p.bonus_spin is not None:
        b = p.bonus_spin
        trigger = ", ".join(f"{c.colour.value} {c.rank}" for c in b.trigger)
        side += [("Bonus Spin Xtreme", " / ".join(_dollars(c) for c in b.denominations_cents)),
                 ("  trigger", trigger),
                 ("  rings", f"{len(b.community_ring)} community, {len(b.hot_spot_ring)} "
                             f"Hot Spot, {p.seats} seat segments"),
                 ("  primary meter", _meter_words(b.primary.initial_cents, b.primary.rate)),
                 ("  secondary meter", _meter_words(b.secondary.initial_cents,
                                                    b.secondary.rate))]
    if p.progressive_payout is not None:
        w = p.progressive_payout
        best = w.pays.suited_four_of_a_kind
        side += [("Progressive Payout", money(w.wager_cents)),
                 ("  best hand", f"{best.pays} to {best.to} + {best.meter_percent}% of meter"),
                 ("  Envy Bonus", money(w.envy_cents.suited_four_of_a_kind)),
                 ("  meter", _meter_words(w.meter.initial_cents, w.meter.rate))]
    sections.append(("SIDE WAGERS", side or [("Side wagers", "none")]))
    return sections


def _meter_words(initial: int, rate: float) -> str:
    return f"from {format_cents(initial)}, {rate * 100:g} % of wagers"


def _paytable_summary(sheet: _Sheet, loaded: LoadedPaytable, x: float, y: float) -> None:
    p = loaded.paytable
    sections = paytable_summary(p)
    column_w = (_BODY_W - 48) // 2
    columns = ([sections[0], sections[1], sections[3]], [sections[2], sections[4]])
    sheet.text(p.name, x, y - 10, 28, theme.WHITE, style=Style.BOLD)
    sheet.text(f"sha256 {loaded.sha256}", x + _BODY_W, y - 2, 18, theme.TEXT_DIM, "topright")
    for index, group in enumerate(columns):
        cx = x + index * (column_w + 48)
        cy = y + 48
        for title, rows in group:
            sheet.section(title, cx, cy, column_w)
            cy += 44
            for label, value in rows:
                sheet.label_value(label, value, cx, cy, column_w)
                cy += 33
            cy += 14


def _relative(path: Path) -> str:
    return f"{path.parent.name}/{path.name}"


# --- SELF-TEST -------------------------------------------------------------------------------

def _self_test_view(menu: OperatorMenu) -> PageView:
    sheet = _Sheet()
    x, y = _BODY_X, _BODY_Y
    sheet.buttons.append(Button((x + _BODY_W - 300, _CONTENT[1] + 20, 300, 72), "RUN SELF-TEST",
                                "selftest:run", colour=(24, 110, 64), size=24))
    result = menu.self_test
    rng = result.rng if result is not None else None
    shoe = result.shoe if result is not None else None
    decks = menu.ctx.table.state.paytable.shoe.decks
    panels: list[tuple[str, bool | None, list[tuple[str, str]], str]] = [
        ("RNG  ·  randbelow(52)", None if rng is None else rng.passed, [
            ("Draws", f"{rng.draws:,}" if rng else "—"),
            ("Chi-square, 51 degrees of freedom", f"{rng.chi_square:.2f}" if rng else "—"),
            ("p-value", f"{rng.p_value:.4f}" if rng else "—"),
            ("Fewest / most of one card",
             f"{rng.smallest_count:,} / {rng.largest_count:,}" if rng else "—"),
            ("Runs low/high, expected", f"{rng.runs:,} / {rng.runs_expected:,.1f}" if rng
             else "—"),
            ("Runs z", f"{rng.runs_z:+.2f}" if rng else "—"),
        ], "Fails above chi-square 87.968 (p = 0.001) or beyond |z| = 3.29."),
        ("SHOE  ·  draw_shoe", None if shoe is None else shoe.passed, [
            ("Shoes shuffled", f"{shoe.shoes}" if shoe else "—"),
            ("Cards per shoe", f"{shoe.cards:,} ({shoe.decks} decks)" if shoe else "—"),
            ("Each of the 52 cards", (f"{shoe.decks} times in every shoe" if shoe.passed
                                      else "see the problems") if shoe else "—"),
            ("Cut card window", f"positions {shoe.cut_low}–{shoe.cut_high}" if shoe else "—"),
            ("Cut cards drawn", f"{min(shoe.cuts)}–{max(shoe.cuts)}" if shoe and shoe.cuts
             else "—"),
            ("Problems", f"{len(shoe.problems)}" if shoe else "—"),
        ], f"Every card exactly {decks} times; cut card at least 1/4 in (MD Ch. 5 F(2))."),
    ]
    width = (_BODY_W - 32) // 2
    for index, (title, passed, rows, rule) in enumerate(panels):
        bx = x + index * (width + 32)
        sheet.box((bx, y, width, 440), theme.PANEL_LIGHT, theme.PANEL_EDGE, 16, 1)
        sheet.text(title, bx + 28, y + 26, 24, theme.GOLD, style=Style.BOLD)
        colour = (90, 100, 112) if passed is None else (40, 130, 80) if passed else theme.TILT
        badge = "NOT RUN" if passed is None else "PASS" if passed else "FAIL"
        sheet.box((bx + width - 190, y + 16, 162, 52), colour, shade(colour, 1.4), 12, 2)
        sheet.text(badge, bx + width - 109, y + 42, 24 if passed is None else 28, theme.WHITE,
                   "center", Style.BOLD)
        row_y = y + 96
        for label, value in rows:
            sheet.label_value(label, value, bx + 28, row_y, width - 56, size=21)
            row_y += 42
        problems = shoe.problems[:2] if shoe is not None and index == 1 else ()
        for problem in problems:
            sheet.text(problem, bx + 28, row_y, 17, theme.TILT, max_width=width - 56)
            row_y += 24
        sheet.text(rule, bx + 28, y + 400, 17, theme.TEXT_DIM, max_width=width - 56)
    y += 470
    sheet.section("EARLIER RUNS", x, y, _BODY_W)
    logged = menu.ctx.table.ledger.last_events(("self_test",), 7)[::-1]
    rows_out: list[list[Text]] = []
    for entry in logged:
        figures = entry["details"]
        ok = bool(figures.get("passed"))
        rng_figures, shoe_figures = figures.get("rng", {}), figures.get("shoe", {})
        rows_out.append([
            _when(entry["at"]), ("PASS", (110, 210, 140)) if ok else ("FAIL", theme.TILT),
            str(entry["actor"] or "—"), _figure(rng_figures.get("chi_square"), "{:.2f}"),
            _figure(rng_figures.get("runs_z"), "{:+.2f}"),
            f"{len(shoe_figures.get('problems', []))}"])
    if rows_out:
        sheet.table([("TIME (UTC)", 300, "l"), ("RESULT", 180, "l"), ("BY", 220, "l"),
                     ("CHI-SQUARE", 260, "r"), ("RUNS Z", 260, "r"),
                     ("SHOE PROBLEMS", _BODY_W - 1220, "r")], rows_out, x, y + 46, 36, 19)
    else:
        sheet.text("The self-test has never been run on this ledger.", x, y + 50, 21,
                   theme.TEXT_DIM)
    subtitle = "The production CSPRNG and shuffle, on this cabinet; every run is logged."
    return sheet.view("SHOE AND RNG SELF-TEST", subtitle)


# --- SOUND ------------------------------------------------------------------------------------

_CUE_LABELS = {Cue.CHIP: "CHIPS", Cue.DEAL: "CARD DEAL", Cue.FLIP: "CARD FLIP",
               Cue.TICK: "WHEEL TICK", Cue.WIN: "WIN", Cue.BIG_WIN: "BIG WIN",
               Cue.JACKPOT: "JACKPOT"}


def _sound_view(menu: OperatorMenu) -> PageView:
    ctx = menu.ctx
    sound = ctx.cabinet.sound
    audio = ctx.audio
    sheet = _Sheet()
    x, y = _BODY_X, _BODY_Y
    sheet.box((x, y, _BODY_W, 240), theme.FELT_DARK, theme.GOLD_DARK, 16, 2)
    sheet.text("VOLUME", x + 32, y + 24, 20, theme.GOLD, style=Style.BOLD)
    sheet.text("MUTED" if sound.mute else f"{sound.volume}", x + 32, y + 64, 48,
               theme.TILT if sound.mute else theme.WHITE, style=Style.BOLD)
    steps = MAX_VOLUME // VOLUME_STEP
    lit = theme.TEXT_DIM if sound.mute else theme.WIN
    for step in range(steps):
        on = sound.volume >= (step + 1) * VOLUME_STEP
        sheet.box((x + 290 + step * 54, y + 60 + 60 - 6 * step, 46, 50 + 6 * step),
                  lit if on else theme.PANEL_LIGHT, radius=6)
    sheet.buttons.append(Button((x + 860, y + 60, 160, 110), f"− {VOLUME_STEP}", "sound:down",
                                enabled=sound.volume > 0, size=34))
    sheet.buttons.append(Button((x + 1040, y + 60, 160, 110), f"+ {VOLUME_STEP}", "sound:up",
                                enabled=sound.volume < MAX_VOLUME, size=34))
    sheet.buttons.append(Button((x + _BODY_W - 260, y + 60, 236, 110),
                                "UNMUTE" if sound.mute else "MUTE", "sound:mute", hot=sound.mute,
                                colour=_RED if not sound.mute else theme.BUTTON, size=30))
    if not audio.enabled:
        status, colour = ("No sound device: the table plays silently. The settings are kept "
                          "for when one is connected."), theme.TILT
    elif sound.mute:
        status, colour = "Muted: the table is silent until it is unmuted.", theme.CREAM
    else:
        status, colour = (f"Sound on at {sound.volume} of {MAX_VOLUME}: every channel plays "
                          f"at {audio.gain:.0%} of full level."), theme.CREAM
    sheet.text(status, x + 32, y + 192, 21, colour, max_width=_BODY_W - 64)
    y += 268
    sheet.section("TEST A SOUND", x, y, _BODY_W)
    cues = list(Cue)
    gap = 16
    width = (_BODY_W - gap * (len(cues) - 1)) / len(cues)
    for index, cue in enumerate(cues):
        sheet.buttons.append(Button((x + index * (width + gap), y + 48, width, 80),
                                    _CUE_LABELS[cue], f"sound:test:{cue.value}",
                                    enabled=audio.enabled and not sound.mute, size=21))
    y += 150
    sheet.section("SETTINGS", x, y, _BODY_W)
    lines = [
        "Saved in cabinet.yaml as sound.volume and sound.mute, and applied at once.",
        f"The big-win fanfare plays for winnings of {sound.big_win_multiple} times the seat's "
        f"stake or more (sound.big_win_multiple).",
        "Every sound is made by the program when it starts: there are no sound files.",
    ]
    for index, line in enumerate(lines):
        sheet.text(line, x, y + 46 + index * 32, 21, theme.CREAM, max_width=_BODY_W)
    y += 160
    sheet.section("EARLIER CHANGES", x, y, _BODY_W)
    changes = [e for e in ctx.table.ledger.last_events(("operator_menu",), 200)
               if e["details"].get("action") == "sound"][::-1][:4]
    if changes:
        rows: list[list[Text]] = [
            [_when(e["at"]), str(e["actor"] or "—"), f"{e['details'].get('volume', '—')}",
             "MUTED" if e["details"].get("mute") else "ON",
             clip(str(e["details"].get("refused") or ""), 19, _BODY_W - 1000 - 24)]
            for e in changes]
        sheet.table([("TIME (UTC)", 300, "l"), ("BY", 260, "l"), ("VOLUME", 220, "r"),
                     ("SOUND", 220, "l"), ("REFUSED", _BODY_W - 1000, "l")], rows, x, y + 46,
                    36, 19)
    else:
        sheet.text("The sound has never been changed from the menu on this ledger.", x,
                   y + 50, 21, theme.TEXT_DIM)
    return sheet.view("SOUND", "Chips, cards, the wheel and wins; volume and mute for the "
                               "whole table.")


def _figure(value: Any, pattern: str) -> str:
    return pattern.format(value) if isinstance(value, int | float) else "—"


# --- TILT ------------------------------------------------------------------------------------

def _tilt_view(menu: OperatorMenu) -> PageView:
    table = menu.ctx.table
    sheet = _Sheet()
    x, y = _BODY_X, _BODY_Y
    tilt = table.tilt
    colour = theme.TILT if tilt is not None else (40, 130, 80)
    sheet.box((x, y, _BODY_W, 240), shade(colour, 0.35), colour, 18, 3)
    if tilt is None:
        sheet.text("NO TILT", x + 40, y + 40, 48, theme.WHITE, style=Style.BOLD)
        sheet.text("Every start-up check passed; play is allowed.", x + 40, y + 120, 24,
                   theme.CREAM)
    else:
        sheet.text("TILT  ·  PLAY IS STOPPED", x + 40, y + 30, 44, theme.WHITE, style=Style.BOLD)
        for index, problem in enumerate(tilt.problems[:4]):
            sheet.text(f"{problem.check}: {problem.message}", x + 40, y + 100 + index * 32, 21,
                       theme.CREAM, max_width=_BODY_W - 420)
    sheet.buttons.append(Button((x + _BODY_W - 340, y + 80, 300, 88), "ACKNOWLEDGE",
                                "tilt:ack", enabled=tilt is not None, colour=(150, 100, 20),
                                size=26))
    y += 272
    sheet.section("TILT HISTORY", x, y, _BODY_W)
    history = table.ledger.last_events(("tilt", "tilt_cleared"), 12)[::-1]
    rows: list[list[Text]] = [
        [_when(e["at"]), ("TILT", theme.TILT) if e["kind"] == "tilt" else ("CLEARED", theme.PUSH),
         str(e["actor"] or "—"), clip(_tilt_words(e), 19, _BODY_W - 700 - 24)]
        for e in history[:12]]
    if rows:
        sheet.table([("TIME (UTC)", 260, "l"), ("EVENT", 200, "l"), ("BY", 240, "l"),
                     ("WHAT", _BODY_W - 700, "l")], rows, x, y + 48, 38, 19)
    else:
        sheet.text("No tilt has ever been recorded on this ledger.", x, y + 52, 21,
                   theme.TEXT_DIM)
    return sheet.view("TILT", "An integrity failure stops play until an operator "
                              "acknowledges it; both are logged.")


def _tilt_words(entry: dict[str, Any]) -> str:
    details = entry["details"]
    if entry["kind"] == "tilt":
        return f"{details.get('check')}: {details.get('message')}"
    return str(details.get("problems", ""))


# --- RAM CLEAR -------------------------------------------------------------------------------

def _ram_clear_view(menu: OperatorMenu) -> PageView:
    ledger = menu.ctx.table.ledger
    sheet = _Sheet()
    x, y = _BODY_X, _BODY_Y
    sheet.box((x, y, _BODY_W, 300), shade(_RED, 0.3), _RED, 18, 3)
    lines = [
        ("A RAM clear sets every meter to zero: every paytable, every seat.", theme.WHITE),
        ("The hand ledger, the event log and the credits on the seats are kept.", theme.CREAM),
        ("The meters then count from this point of the ledger; the clear itself is logged.",
         theme.CREAM),
        ("A second confirmation is asked for.", theme.TEXT_DIM),
    ]
    for index, (line, colour) in enumerate(lines):
        sheet.text(line, x + 36, y + 36 + index * 40, 24, colour, max_width=_BODY_W - 500)
    moving = sum(len(c) for c in ledger.meters().values())
    sheet.text(f"{moving} meters hold a value now.", x + 36, y + 220, 22, theme.GOLD,
               style=Style.BOLD)
    sheet.buttons.append(Button((x + _BODY_W - 460, y + 95, 420, 110), "RAM CLEAR", "ram:clear",
                                colour=_RED, size=34, sublabel="ZERO EVERY METER"))
    y += 332
    sheet.section("EARLIER RAM CLEARS", x, y, _BODY_W)
    clears = ledger.last_events(("ram_clear",), 10)[::-1]
    if clears:
        rows: list[list[Text]] = [[_when(e["at"]), str(e["actor"] or "—"),
                                   f"{e['details'].get('after_round', '—')}"] for e in clears]
        sheet.table([("TIME (UTC)", 360, "l"), ("BY", 360, "l"),
                     ("AFTER ROUND", _BODY_W - 720, "l")], rows, x, y + 46, 38, 20)
    else:
        sheet.text("The meters have never been cleared on this ledger.", x, y + 50, 21,
                   theme.TEXT_DIM)
    return sheet.view("RAM CLEAR", "Meters only; the history is never erased.")


# --- shared helpers ----------------------------------------------------------------------------

def _rows_fit(top: float, row_h: int) -> int:
    """Rows of a table starting at ``top`` that fit above the pager."""
    return max(1, int(_PAGER_Y - 12 - top - row_h - _HEAD_GAP) // row_h)


def _pager(sheet: _Sheet, offset: int, size: int, total: int, end: float,
           more: bool | None = None) -> None:
    """PAGE UP / PAGE DOWN at the bottom right when the rows do not fit one page.

    ``more``: the page was read with one row to spare, so ``total`` counts only what
    was read and whether more rows follow is ``more`` (no count of the whole log).
    """
    if total <= size:
        return
    y = _PAGER_Y
    right = _BODY_X + _BODY_W
    shown_to = min(offset + size, total)
    of = "" if more is not None else f" of {total:,}"
    sheet.text(f"{offset + 1:,}–{shown_to:,}{of}", right - 500,
               y + 32, 20, theme.TEXT_DIM, "midright")
    sheet.buttons.append(Button((right - 470, y, 220, 64), "▲ PAGE UP", "page:up",
                                enabled=offset > 0, size=22))
    sheet.buttons.append(Button((right - 230, y, 220, 64), "PAGE DOWN ▼", "page:down",
                                enabled=more if more is not None else offset + size < total,
                                size=22))


def _when(at: str) -> str:
    """An ISO timestamp from the ledger as ``2024-05-01 21:04:09`` (UTC)."""
    try:
        return datetime.fromisoformat(at).strftime("%Y-%m-%d %H:%M:%S")
    except ValueError:
        return at


def _paint(view: PageView, surface: pygame.Surface) -> None:
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


_LOADERS: dict[Page, Callable[[OperatorMenu], PageView]] = {
    Page.METERS: _meters_view, Page.RECALL: _recall_view, Page.EVENT_LOG: _event_log_view,
    Page.CREDITS: _credits_view, Page.WAGERS: _wagers_view,
    Page.PROGRESSIVES: _progressives_view,
    Page.JACKPOTS: _jackpots_view, Page.DEALERS: _dealers_view,
    Page.PAYTABLES: _paytables_view, Page.SOUND: _sound_view, Page.SELF_TEST: _self_test_view,
    Page.TILT: _tilt_view,
    Page.RAM_CLEAR: _ram_clear_view,
}

# --- layout ------------------------------------------------------------------------------------

_HEADER_H = 88
_NAV_X, _NAV_Y, _NAV_W = 24, _HEADER_H + 24, 300
_TAB_H, _TAB_GAP = 68, 10
_NAV_ROOM = LOGICAL[1] - 24 - 2 * _TAB_H - _TAB_GAP - 10 - _NAV_Y  # down to EXIT, less a gap
_CONTENT = (_NAV_X + _NAV_W + 24, _HEADER_H + 24, LOGICAL[0] - (_NAV_X + _NAV_W + 24) - 24,
            LOGICAL[1] - _HEADER_H - 48)
_BODY_X = _CONTENT[0] + 32
_BODY_Y = _CONTENT[1] + 120
_BODY_W = _CONTENT[2] - 64
_PAGER_Y = _CONTENT[1] + _CONTENT[3] - 84
_HEAD_GAP = 4
_CONFIRM = (LOGICAL[0] // 2 - 500, LOGICAL[1] // 2 - 200, 1000, 400)
_RED: theme.RGB = (150, 28, 36)


@lru_cache(maxsize=1)
def _backdrop() -> pygame.Surface:
    """Gradient, header bar and the content panel: drawn once, blitted every frame."""
    surface = pygame.Surface(LOGICAL)
    top, bottom = (18, 34, 54), (5, 10, 18)
    for y in range(LOGICAL[1]):
        t = y / (LOGICAL[1] - 1)
        colour = tuple(round(a + (b - a) * t) for a, b in zip(top, bottom, strict=True))
        pygame.draw.line(surface, colour, (0, y), (LOGICAL[0], y))
    pygame.draw.rect(surface, (10, 20, 34), (0, 0, LOGICAL[0], _HEADER_H))
    pygame.draw.line(surface, theme.GOLD_DARK, (0, _HEADER_H), (LOGICAL[0], _HEADER_H), 3)
    draw_panel(surface, _CONTENT, (10, 20, 33), (44, 70, 100), radius=18, width=2)
    return surface


@lru_cache(maxsize=1)
def _dimmer() -> pygame.Surface:
    layer = pygame.Surface(LOGICAL, pygame.SRCALPHA)
    layer.fill((0, 0, 0, 160))
    return layer


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
