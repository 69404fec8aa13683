"""The PIN pad: the lock in front of the operator menu, the supervisor's void, a jackpot's
validation and a dealer's sign-in (SPEC §6).

An overlay over the table (which stays visible, dimmed): masked entry, a big
3×4 keypad for a touch screen, and the keyboard for a technician's keyboard.
The PIN is checked against the hash in ``cabinet.yaml`` read again at every
attempt, so a PIN set with ``etg pin set`` while the kiosk runs works at once.
A pad asks for one :class:`Credential`: one role's PIN, any of several roles'
("a floorperson or above", MD Ch. 9 J(4)(c): the pad says whose PIN it was),
or one dealer's by ID.

Every attempt is written to the event log (``pin_ok``, ``pin_failed``,
``pin_locked``) with the role as the actor and never a digit of the PIN
(SPEC §5: "operator login and actions (who, when, what)"). Five wrong PINs
in a row lock the role for 60 s. The count and the lock are read back from the
event log when the App first guards a role, so neither cancelling the pad nor
restarting the program resets them.

The PBKDF2 check (600,000 iterations, 0.15–0.3 s) runs on a worker thread:
the pad says CHECKING and the screen keeps animating until the answer comes.
"""

from __future__ import annotations

import weakref
from collections.abc import Callable, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass
from datetime import UTC, datetime
from functools import lru_cache
from typing import TYPE_CHECKING, Any

import pygame

from etg.config.cabinet import Cabinet
from etg.config.loader import load_cabinet
from etg.config.problems import ConfigError
from etg.table.pin import MAX_DIGITS, PinRole, dealer_key, verify_pin
from etg.ui import theme
from etg.ui.canvas import LOGICAL
from etg.ui.input import Touch
from etg.ui.scene import Scene
from etg.ui.theme import shade
from etg.ui.widgets import Button, draw_button, draw_panel, draw_text

if TYPE_CHECKING:
    from etg.ui.app import App

__all__ = ["LOCK_S", "MAX_FAILURES", "Credential", "PinGuard", "PinPad", "PinRole", "guard",
           "require_any_pin", "require_pin"]

MAX_FAILURES = 5
"""Wrong PINs in a row before the pad locks."""

LOCK_S = 60.0
"""How long a lock lasts, in seconds of App time."""


@dataclass(frozen=True)
class Credential:
    """Whose PIN a pad asks for: the cabinet keys tried in turn, each with who it proves.

    ``guard`` is the role whose lock-out the attempts count against; ``keys`` are
    (who, key) pairs: ``who`` is the actor the event log names on success, ``key``
    the hash's place in ``cabinet.yaml`` (``floorperson_pin_hash``, ``dealers.D0417``).
    """

    guard: PinRole
    keys: tuple[tuple[str, str], ...]

    @classmethod
    def of(cls, *roles: PinRole) -> Credential:
        """Any one of ``roles``' PINs; the first role's lock-out counts."""
        return cls(roles[0], tuple((role.value, role.cabinet_key) for role in roles))

    @classmethod
    def dealer(cls, dealer_id: str) -> Credential:
        """One dealer's PIN (MD Ch. 8 E(4)); every dealer shares the dealers' lock-out."""
        return cls(PinRole.DEALER, ((f"dealer {dealer_id}", dealer_key(dealer_id)),))

    def stored(self, cabinet: Cabinet) -> list[tuple[str, str]]:
        """(who, hash) of each key the cabinet holds a hash for."""
        out: list[tuple[str, str]] = []
        for who, key in self.keys:
            section, _, name = key.partition(".")
            value = cabinet.dealers.get(name) if section == "dealers" else getattr(cabinet, key)
            if value is not None:
                out.append((who, value))
        return out


def require_pin(app: App, role: PinRole, title: str, on_success: Callable[[], None]) -> None:
    """Push a PIN pad for ``role``; ``on_success()`` runs once the right PIN is entered."""
    app.push(PinPad(app, role, title, on_success))


def require_any_pin(app: App, credential: Credential, title: str,
                    on_success: Callable[[str], None]) -> None:
    """Push a pad for ``credential``; ``on_success(who)`` runs with whose PIN was entered."""
    pad = PinPad(app, credential, title, lambda: on_success(pad.who or credential.keys[0][0]))
    app.push(pad)


@dataclass
class PinGuard:
    """One role's wrong attempts in a row and the end of its lock (App time)."""

    failures: int = 0
    locked_until: float = 0.0


def guard(app: App, role: PinRole) -> PinGuard:
    """The App's guard for ``role``, shared by every pad it opens; first read from the ledger."""
    guards = _GUARDS.setdefault(app, {})
    if role not in guards:
        guards[role] = _recorded_guard(app, role)
    return guards[role]


wall_clock: Callable[[], datetime] = lambda: datetime.now(UTC)  # noqa: E731
"""The time a lock recorded in the ledger is measured against (tests set it)."""

_CHECKER = ThreadPoolExecutor(max_workers=1, thread_name_prefix="pin-check")


def _recorded_guard(app: App, role: PinRole) -> PinGuard:
    """Wrong PINs in a row and any lock still running, as the event log has them."""
    entries = [e for e in app.table.ledger.last_events(("pin_ok", "pin_failed", "pin_locked"),
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
                         locked_until=app.now + remaining if remaining > 0 else 0.0)
    return g


_GUARDS: weakref.WeakKeyDictionary[Any, dict[PinRole, PinGuard]] = weakref.WeakKeyDictionary()


class PinPad(Scene):
    """A masked keypad that lets ``on_success`` happen only after the role's PIN."""

    opaque = False
    name = "pinpad"

    def __init__(self, app: App, role: PinRole | Credential, title: str,
                 on_success: Callable[[], None]) -> None:
        super().__init__(app)
        self.credential = role if isinstance(role, Credential) else Credential.of(role)
        self.role = self.credential.guard
        self.title = title
        self.on_success = on_success
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
        if _expire(guard(self.app, self.role), now):
            self._say("")

    def draw(self, surface: pygame.Surface, now: float) -> None:
        draw_pad(surface, self.title)
        self._draw_entry(surface, now)
        pressed = self.app.pressed_tags(self)
        for b in self.buttons(now):
            draw_button(surface, b, b.tag in pressed)

    def buttons(self, now: float) -> Sequence[Button]:
        return keypad_buttons(self.entry, not self.locked(now) and not self.no_pin, MAX_DIGITS)

    def tap(self, button: Button, touch: Touch) -> None:
        self.press(button.tag.removeprefix("pin:"))

    def key(self, key: int, unicode: str) -> bool:
        # The pad is modal: no key reaches the dealer console under it.
        what = keypad_key(key, unicode)
        if what is not None:
            self.press(what)
        return True

    # --- behaviour --------------------------------------------------------------------------

    def locked(self, now: float) -> bool:
        return now < guard(self.app, self.role).locked_until

    def press(self, what: str) -> None:
        """One key of the pad: a digit, ``clear``, ``back``, ``enter`` or ``cancel``."""
        if self.checking is not None:
            return  # one attempt at a time; it is being checked
        if what == "cancel":
            self.app.pop(self)
            return
        if self.locked(self.app.now) or self.no_pin:
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
            self._log("pin_failed", {"reason": "cabinet_invalid"})
            self._say(_config_message(error))
            return
        if not stored:
            self.no_pin = True
            self._log("pin_failed", {"reason": "no_pin_set"})
            self._say(_no_pin_message(self.credential))
            return
        _expire(guard(self.app, self.role), self.app.now)
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
        g = guard(self.app, self.role)
        if right:
            g.failures = 0
            self._log("pin_ok", {} if self.who == self.role.value else {"who": self.who},
                      actor=self.who)
            self.app.pop(self)
            self.on_success()
            return
        g.failures += 1
        self._log("pin_failed", {"reason": "wrong_pin", "failures": g.failures})
        if g.failures >= MAX_FAILURES:
            g.locked_until = self.app.now + LOCK_S
            self._log("pin_locked", {"failures": g.failures, "seconds": int(LOCK_S)})
            self._say(f"Wrong PIN {g.failures} times: locked for {int(LOCK_S)} seconds")
        else:
            left = MAX_FAILURES - g.failures
            self._say(f"Wrong PIN — {left} {'try' if left == 1 else 'tries'} left")

    def _stored_hashes(self) -> list[tuple[str, str]]:
        """(who, hash) as the cabinet file says now (it may have changed since start)."""
        return self.credential.stored(load_cabinet(self.app.cabinet_file))

    def _log(self, kind: str, details: dict[str, Any], actor: str | None = None) -> None:
        self.app.table.log(kind, actor or self.role.value, {"role": self.role.value, **details})

    def _say(self, message: str, error: bool = True) -> None:
        self.message, self.error = message, error

    # --- drawing helpers --------------------------------------------------------------------

    def _draw_entry(self, surface: pygame.Surface, now: float) -> None:
        box = draw_masked(surface, len(self.entry), MAX_DIGITS)
        message = self.message
        colour = theme.TILT if self.error else theme.TEXT_DIM
        if self.locked(now):
            remaining = guard(self.app, self.role).locked_until - now
            seconds = max(0, int(remaining + 0.999))
            message = (f"Locked — too many wrong PINs. "
                       f"Try again in {seconds // 60}:{seconds % 60:02d}")
            colour = theme.TILT
        elif not message:
            message, colour = "Enter the PIN", theme.TEXT_DIM
        draw_text(surface, message, 24, colour, (box.centerx, box.bottom + 34),
                  max_width=_PANEL[2] - 48)


# --- the keypad, shared with etg.ui.numberpad ----------------------------------------------------

def draw_pad(surface: pygame.Surface, title: str) -> None:
    """The dimmed table, the pad's panel and its title."""
    surface.blit(_dimmer(), (0, 0))
    panel = pygame.Rect(_PANEL)
    draw_panel(surface, panel.move(0, 8), (0, 0, 0, 110), (0, 0, 0), radius=28, width=0)
    draw_panel(surface, panel, theme.PANEL, theme.GOLD_DARK, radius=28, width=3)
    header = pygame.Rect(panel.x, panel.y, panel.width, 96)
    draw_panel(surface, header, theme.PANEL_LIGHT, theme.PANEL_LIGHT, radius=28, width=0)
    pygame.draw.rect(surface, theme.PANEL_LIGHT, (header.x, header.bottom - 28,
                                                  header.width, 28))
    pygame.draw.line(surface, theme.GOLD_DARK, (panel.x + 3, header.bottom),
                     (panel.right - 4, header.bottom), 2)
    pygame.draw.rect(surface, theme.GOLD_DARK, panel, width=3, border_radius=28)
    draw_text(surface, title, 34, theme.GOLD, header.center, max_width=header.width - 48,
              shadow=True)


def entry_box() -> pygame.Rect:
    """Where the pad shows what has been typed."""
    return pygame.Rect(_KEYPAD_X, _PANEL[1] + 124, 3 * _KEY_W + 2 * _GAP, 96)


def draw_masked(surface: pygame.Surface, typed: int, most: int) -> pygame.Rect:
    """A dot for each digit typed, never the digit; returns the entry box."""
    box = entry_box()
    draw_panel(surface, box, (6, 14, 24), theme.PANEL_EDGE, radius=16, width=2)
    step = box.width // (most + 1)
    for slot in range(most):
        centre = (box.x + step * (slot + 1), box.centery)
        if slot < typed:
            pygame.draw.circle(surface, theme.GOLD, centre, 15)
            pygame.draw.circle(surface, shade(theme.GOLD, 1.2), centre, 15, width=2)
        else:
            pygame.draw.circle(surface, theme.PANEL_LIGHT, centre, 7)
    return box


def keypad_buttons(entry: str, usable: bool, most: int) -> list[Button]:
    """The 3×4 keypad and CANCEL, tagged ``pin:<key>``."""
    out: list[Button] = []
    for index, label in enumerate(_KEYS):
        column, row = index % 3, index // 3
        rect = (_KEYPAD_X + column * (_KEY_W + _GAP), _KEYPAD_Y + row * (_KEY_H + _GAP),
                _KEY_W, _KEY_H)
        if label == "CLEAR":
            out.append(Button(rect, "CLEAR", "pin:clear", enabled=usable and bool(entry),
                              colour=_CLEAR, size=28))
        elif label == "ENTER":
            out.append(Button(rect, "ENTER", "pin:enter", enabled=usable and bool(entry),
                              colour=_ENTER, size=28))
        else:
            out.append(Button(rect, label, f"pin:{label}", enabled=usable and len(entry) < most,
                              size=48))
    cancel_y = _KEYPAD_Y + 4 * (_KEY_H + _GAP) + 8
    out.append(Button((_KEYPAD_X, cancel_y, 3 * _KEY_W + 2 * _GAP, 84), "CANCEL",
                      "pin:cancel", colour=_CANCEL, size=30))
    return out


def keypad_key(key: int, unicode: str) -> str | None:
    """What a keyboard key means to a keypad: a digit, ``back``, ``enter``, ``cancel``."""
    if unicode and unicode in "0123456789":
        return unicode
    if key == pygame.K_BACKSPACE:
        return "back"
    if key in (pygame.K_RETURN, pygame.K_KP_ENTER):
        return "enter"
    if key == pygame.K_ESCAPE:
        return "cancel"
    return None


_KEYS = ("1", "2", "3", "4", "5", "6", "7", "8", "9", "CLEAR", "0", "ENTER")
_KEY_W, _KEY_H, _GAP = 150, 112, 18
_PANEL = (LOGICAL[0] // 2 - 290, 70, 580, 940)
_KEYPAD_X = _PANEL[0] + (_PANEL[2] - (3 * _KEY_W + 2 * _GAP)) // 2
_KEYPAD_Y = _PANEL[1] + 300
_CLEAR: theme.RGB = (96, 72, 30)
_ENTER: theme.RGB = (24, 110, 64)
_CANCEL: theme.RGB = (120, 32, 40)


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


@lru_cache(maxsize=1)
def _dimmer() -> pygame.Surface:
    layer = pygame.Surface(LOGICAL, pygame.SRCALPHA)
    layer.fill((0, 0, 0, 170))
    return layer
