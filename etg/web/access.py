"""Who may look at the floor: PIN logins, their throttle, and the sessions they open.

Only a floorperson or a supervisor (MD Ch. 9 J(4)(c): "a floorperson or above"
validates a progressive payout, so they are the ones who watch for one) logs in,
with the PIN of the table's own registry: the hashes ``etg pin set`` writes into
``cabinet.yaml`` (:mod:`etg.table.pin`), read again at every attempt so a new PIN
works without a restart.

Logins are throttled as the table's PIN pad is (:mod:`etg.ui.pinpad`): five wrong
PINs in a row from one address lock that address out for 60 s. A session is a
random token in an HttpOnly, SameSite=Strict cookie, kept only in this process's
memory, and ends after a fixed time whatever is done with it.
"""

from __future__ import annotations

import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from etg.config.loader import load_cabinet
from etg.table.pin import JACKPOT_VALIDATORS, Credential, pin_problem, verify_pin

MAX_FAILURES = 5
"""Wrong PINs in a row from one address before it is locked out (as the PIN pad)."""

LOCK_S = 60.0
"""How long a lock-out lasts."""

SESSION_S = 8 * 3600.0
"""A session's life: one shift. It never grows: a floorperson logs in again after."""

COOKIE = "etg_floor_session"

WHO_MAY_WATCH = Credential.of(*JACKPOT_VALIDATORS)
"""The floorperson's PIN, else the supervisor's; the floorperson's lock-out counts."""


def whose_pin(config_dir: Path, pin: str) -> str | None:
    """``"floorperson"`` or ``"supervisor"`` if ``pin`` is theirs in the cabinet's registry.

    None for any other PIN, a malformed one, or a role with no PIN set. PBKDF2 with
    the stored count makes this slow on purpose (some 0.3 s at 600,000 rounds): call
    it off the event loop. A cabinet file that cannot be read raises ConfigError.
    """
    if pin_problem(pin) is not None:
        return None
    cabinet = load_cabinet(config_dir / "cabinet.yaml")
    for who, stored in WHO_MAY_WATCH.stored(cabinet):
        if verify_pin(pin, stored):
            return who
    return None


@dataclass
class _Failures:
    in_a_row: int = 0
    locked_until: float = 0.0


@dataclass
class Throttle:
    """Wrong PINs in a row per address, and the lock-outs they lead to."""

    clock: Callable[[], float] = time.monotonic
    _seen: dict[str, _Failures] = field(default_factory=dict)
    _checking: set[str] = field(default_factory=set)

    def begin(self, address: str) -> bool:
        """Start checking a PIN from ``address``; False while another of its PINs is being
        checked. One at a time, as at the PIN pad: otherwise a burst of guesses sent
        together would all be checked before the first wrong one counted."""
        if address in self._checking:
            return False
        self._checking.add(address)
        return True

    def end(self, address: str) -> None:
        self._checking.discard(address)

    def wait_s(self, address: str) -> float:
        """Seconds until ``address`` may try again; 0.0 if it may now."""
        failures = self._seen.get(address)
        if failures is None:
            return 0.0
        return max(0.0, failures.locked_until - self.clock())

    def failed(self, address: str) -> None:
        failures = self._seen.setdefault(address, _Failures())
        failures.in_a_row += 1
        if failures.in_a_row >= MAX_FAILURES:
            failures.in_a_row = 0
            failures.locked_until = self.clock() + LOCK_S

    def succeeded(self, address: str) -> None:
        self._seen.pop(address, None)


@dataclass(frozen=True)
class Session:
    who: str
    expires: float


@dataclass
class Sessions:
    """The open sessions, by token; each one good for :data:`SESSION_S` from its login."""

    clock: Callable[[], float] = time.monotonic
    life_s: float = SESSION_S
    _open: dict[str, Session] = field(default_factory=dict)

    def open(self, who: str) -> str:
        self._forget_expired()
        token = secrets.token_urlsafe(32)
        self._open[token] = Session(who, self.clock() + self.life_s)
        return token

    def who(self, token: str | None) -> str | None:
        """Whose session ``token`` is, or None if it is unknown or has expired."""
        if token is None:
            return None
        session = self._open.get(token)
        if session is None:
            return None
        if self.clock() >= session.expires:
            del self._open[token]
            return None
        return session.who

    def close(self, token: str | None) -> None:
        if token is not None:
            self._open.pop(token, None)

    def _forget_expired(self) -> None:
        now = self.clock()
        for token in [t for t, s in self._open.items() if now >= s.expires]:
            del self._open[token]
