"""The PIN pad: the lock in front of the operator menu, the supervisor's void, a jackpot's
validation and a dealer's sign-in (SPEC §6).

An overlay over the table (which stays visible, dimmed): masked entry, a big
3×4 keypad for a touch screen, and the keyboard for a technician's keyboard.
The PIN is checked against the hash in ``cabinet.yaml`` read again at every
attempt, so a PIN set with ``etg pin set`` while the kiosk runs works at once.
A pad asks for one :class:`Credential`: one role's PIN, any of several roles'
("a floorperson or above", MD Ch. 9 J(4)(c): the pad says whose PIN it was),
or one dealer's by ID.

Every attempt is handed to the controller as a record (:mod:`etg.table.records`)
and written to the event log as ``pin_ok``, ``pin_failed`` or ``pin_locked``,
with the role as the actor and never a digit of the PIN (SPEC §5: "operator
login and actions (who, when, what)"). Five wrong PINs in a row lock the role
for 60 s. The count and the lock are read back from the event log when the
Context first guards a role, so neither cancelling the pad nor restarting the
program resets them.

The PBKDF2 check (600,000 iterations, 0.15–0.3 s) runs on a worker thread:
the pad says CHECKING and the screen keeps animating until the answer comes.
"""

from __future__ import annotations

import weakref
from collections.abc import Callable, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

import pygame

from etg.config.loader import load_cabinet
from etg.config.problems import ConfigError
from etg.table.pin import MAX_DIGITS, Credential, PinRole, verify_pin
from etg.table.records import PinLocked, PinOk, PinUnchecked, WrongPin
from etg.ui import theme
from etg.ui.keypad import PAD_WIDTH, draw_masked, draw_pad, keypad_buttons, pad_press
from etg.ui.scene import Close, Input, Scene
from etg.ui.widgets import Button, draw_button, draw_text

if TYPE_CHECKING:
    from etg.ui.scene import Context

__all__ = ["LOCK_S", "MAX_FAILURES", "PinGuard", "PinPad", "guard"]

MAX_FAILURES = 5
"""Wrong PINs in a row before the pad locks."""

LOCK_S = 60.0
"""How long a lock lasts, in seconds of App time."""


@dataclass
class PinGuard:
    """One role's wrong attempts in a row and the end of its lock (Context time)."""

    failures: int = 0
    locked_until: float = 0.0


def guard(ctx: Context, role: PinRole) -> PinGuard:
    """The App's guard for ``role``, shared by every pad it opens; first read from the ledger."""
    guards = _GUARDS.setdefault(ctx, {})
    if role not in guards:
        guards[role] = _recorded_guard(ctx, role)
    return guards[role]


wall_clock: Callable[[], datetime] = lambda: datetime.now(UTC)  # noqa: E731
"""The time a lock recorded in the ledger is measured against (tests set it)."""

_CHECKER = ThreadPoolExecutor(max_workers=1, thread_name_prefix="pin-check")


def _recorded_guard(ctx: Context, role: PinRole) -> PinGuard:
    """Wrong PINs in a row and any lock still running, as the event log has them."""
    entries = [e for e in ctx.table.books.last_events(("pin_ok", "pin_failed", "pin_locked"),
                                                      10 * MAX_FAILURES)
               if e["details"].get("role", e["actor"]) == role.value]
    g = PinGuard()
    for entry in entries:
        if entry["kind"] == "pin_ok":
            g = PinGuard()
        elif entry["kind"] == "pin_failed" and entry["details"].get("reason") == "wrong_pin":
            g.failures += 1
        elif entry["kind"] == "pin_locked":
            ends = datetime.fromisoformat(entry["at"]).timestamp() + LOCK_S
            remaining = ends - wall_clock().timestamp()
            g = PinGuard(failures=MAX_FAILURES if remaining > 0 else 0,
                         locked_until=ctx.now + remaining if remaining > 0 else 0.0)
    return g


_GUARDS: weakref.WeakKeyDictionary[Any, dict[PinRole, PinGuard]] = weakref.WeakKeyDictionary()


class PinPad(Scene):
    """A masked keypad that lets ``then(who)`` happen only after the credential's PIN."""

    opaque = False
    name = "pinpad"

    def __init__(self, ctx: Context, credential: Credential, title: str,
                 then: Callable[[str], None]) -> None:
        super().__init__(ctx)
        self.credential = credential
        self.role = credential.guard
        self.title = title
        self.then = then
        self.entry = ""
        self.message = ""
        self.error = False
        self.no_pin = False
        self.who: str | None = None  # whose PIN was entered, once one was
        self.checking: Future[bool] | None = None
        try:
            self.no_pin = not self._stored_hashes()
        except ConfigError as error:
            self._say(_config_message(error))
        if self.no_pin:
            self._say(_no_pin_message(self.credential))

    # --- what the App calls ---------------------------------------------------------------

    def update(self, now: float) -> None:
        if self.checking is not None and self.checking.done():
            self._answer(self.checking.result())
            return
        if _expire(guard(self.ctx, self.role), now):
            self._say("")

    def draw(self, surface: pygame.Surface, now: float) -> None:
        draw_pad(surface, self.title)
        self._draw_entry(surface, now)
        pressed = self.ctx.pressed_tags(self)
        for b in self.buttons(now):
            draw_button(surface, b, b.tag in pressed)

    def buttons(self, now: float) -> Sequence[Button]:
        return keypad_buttons(self.entry, not self.locked(now) and not self.no_pin, MAX_DIGITS)

    def handle(self, event: Input) -> bool:
        what = pad_press(event)
        if what is not None:
            self.press(what)
        return True  # modal: no key reaches the dealer's keys under it

    # --- behaviour --------------------------------------------------------------------------

    def locked(self, now: float) -> bool:
        return now < guard(self.ctx, self.role).locked_until

    def press(self, what: str) -> None:
        """One key of the pad: a digit, ``clear``, ``back``, ``enter`` or ``cancel``."""
        if self.checking is not None:
            return  # one attempt at a time; it is being checked
        if what == "cancel":
            self.ctx.go(Close(self))
            return
        if self.locked(self.ctx.now) or self.no_pin:
            return
        if what.isdigit() and len(what) == 1:
            if len(self.entry) < MAX_DIGITS:
                self.entry += what
        elif what == "clear":
            self.entry = ""
        elif what == "back":
            self.entry = self.entry[:-1]
        elif what == "enter" and self.entry:
            self._check()

    def _check(self) -> None:
        attempt, self.entry = self.entry, ""
        try:
            stored = self._stored_hashes()
        except ConfigError as error:
            self.ctx.table.record(PinUnchecked(self.role, "cabinet_invalid"))
            self._say(_config_message(error))
            return
        if not stored:
            self.no_pin = True
            self.ctx.table.record(PinUnchecked(self.role, "no_pin_set"))
            self._say(_no_pin_message(self.credential))
            return
        _expire(guard(self.ctx, self.role), self.ctx.now)
        self.checking = _CHECKER.submit(self._verify, attempt, stored)
        self._say("Checking…", error=False)

    def _verify(self, attempt: str, stored: list[tuple[str, str]]) -> bool:
        """On the checker's thread: whose PIN ``attempt`` is, kept in :attr:`who`.

        Every stored hash is tried, so the time taken does not say whose PIN it was.
        """
        matched = [who for who, hashed in stored if verify_pin(attempt, hashed)]
        self.who = matched[0] if matched else None  # read after the future is done
        return bool(matched)

    def _answer(self, right: bool) -> None:
        """The worker's answer to the last attempt: open, or count a failure and maybe lock."""
        self.checking = None
        g = guard(self.ctx, self.role)
        if right:
            g.failures = 0
            self.ctx.table.record(PinOk(self.role, self.who or self.role.value))
            self.ctx.go(Close(self))
            self.then(self.who or self.credential.keys[0][0])
            return
        g.failures += 1
        self.ctx.table.record(WrongPin(self.role, g.failures))
        if g.failures >= MAX_FAILURES:
            g.locked_until = self.ctx.now + LOCK_S
            self.ctx.table.record(PinLocked(self.role, g.failures, int(LOCK_S)))
            self._say(f"Wrong PIN {g.failures} times: locked for {int(LOCK_S)} seconds")
        else:
            left = MAX_FAILURES - g.failures
            self._say(f"Wrong PIN — {left} {'try' if left == 1 else 'tries'} left")

    def _stored_hashes(self) -> list[tuple[str, str]]:
        """(who, hash) as the cabinet file says now (it may have changed since start)."""
        return self.credential.stored(load_cabinet(self.ctx.cabinet_file))

    def _say(self, message: str, error: bool = True) -> None:
        self.message, self.error = message, error

    # --- drawing helpers --------------------------------------------------------------------

    def _draw_entry(self, surface: pygame.Surface, now: float) -> None:
        box = draw_masked(surface, len(self.entry), MAX_DIGITS)
        message = self.message
        colour = theme.TILT if self.error else theme.TEXT_DIM
        if self.locked(now):
            remaining = guard(self.ctx, self.role).locked_until - now
            seconds = max(0, int(remaining + 0.999))
            message = (f"Locked — too many wrong PINs. "
                       f"Try again in {seconds // 60}:{seconds % 60:02d}")
            colour = theme.TILT
        elif not message:
            message, colour = "Enter the PIN", theme.TEXT_DIM
        draw_text(surface, message, 24, colour, (box.centerx, box.bottom + 34),
                  max_width=PAD_WIDTH - 48)


def _expire(g: PinGuard, now: float) -> bool:
    """End a lock whose time is up, with its count; True if one just ended."""
    if g.locked_until and now >= g.locked_until:
        g.locked_until = 0.0
        g.failures = 0
        return True
    return False


def _config_message(error: ConfigError) -> str:
    first = error.problems[0].message if error.problems else str(error)
    return f"cabinet.yaml cannot be read: {first}"


def _no_pin_message(credential: Credential) -> str:
    role = credential.guard
    if role is PinRole.DEALER:
        who = credential.keys[0][0]
        return f"No PIN for {who} — add the dealer on the operator menu's DEALERS page"
    return f"No {role.value} PIN is set — run: etg pin set --role {role.value}"
