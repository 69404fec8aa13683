"""What the screens put on the event log: a closed set of records, one per kind of entry.

The operator menu and the PIN pad never write to the ledger: they hand the
controller one of these records (:meth:`Table.record`), and each record knows
the event-log entry it makes, its kind, actor and details. SPEC §5 asks for
"operator login and actions (who, when, what)" and for every PIN attempt,
never with a digit of the PIN. The kinds, actors and details are the ones the
event log has always had, so the ``operator_menu_entries`` meter counts the
same logins and the screens that read the entries back (the PIN pad's lock,
the operator menu's histories) read older ledgers the same way.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

from etg.table.pin import PinRole
from etg.table.selftest import SelfTest

OPERATOR = PinRole.OPERATOR.value
"""Who the operator menu acts as: in its records, and in the paytable switch and RAM clear
it asks of the controller. The menu opens only behind that role's PIN."""

NewEntry = tuple[str, str, dict[str, Any]]
"""An event-log entry to write: its kind, its actor and its details."""


@dataclass(frozen=True)
class OperatorLogin:
    """The operator's PIN opened the menu: the login the ``operator_menu_entries`` meter counts."""

    def entry(self) -> NewEntry:
        return "operator_login", OPERATOR, {"role": OPERATOR}


@dataclass(frozen=True)
class OperatorAction:
    """One step on the operator menu: entering it, a page opened or turned, an action.

    ``details`` says what the step was about (a seat, an amount, a file) and,
    for an action the table refused, ``refused``: the reason.
    """

    action: str
    details: Mapping[str, Any] = field(default_factory=dict)

    def entry(self) -> NewEntry:
        return "operator_menu", OPERATOR, {"action": self.action, **self.details}


@dataclass(frozen=True)
class SelfTestRun:
    """The RNG and shoe self-test, run from the operator menu, with every figure it measured."""

    result: SelfTest

    def entry(self) -> NewEntry:
        return "self_test", OPERATOR, self.result.figures()


@dataclass(frozen=True)
class PinOk:
    """A PIN was accepted; ``who`` is whose it was: the role, or one of several (a dealer's
    ID, or the supervisor where a floorperson or above may validate)."""

    role: PinRole
    who: str

    def entry(self) -> NewEntry:
        whose = {} if self.who == self.role.value else {"who": self.who}
        return "pin_ok", self.who, {"role": self.role.value, **whose}


@dataclass(frozen=True)
class WrongPin:
    """A wrong PIN: ``failures`` in a row for the role, this one included."""

    role: PinRole
    failures: int

    def entry(self) -> NewEntry:
        return "pin_failed", self.role.value, {"role": self.role.value, "reason": "wrong_pin",
                                               "failures": self.failures}


@dataclass(frozen=True)
class PinUnchecked:
    """A PIN that could not be checked: no PIN is set for the role, or ``cabinet.yaml``,
    which holds the hashes, cannot be read."""

    role: PinRole
    reason: Literal["no_pin_set", "cabinet_invalid"]

    def entry(self) -> NewEntry:
        return "pin_failed", self.role.value, {"role": self.role.value, "reason": self.reason}


@dataclass(frozen=True)
class PinLocked:
    """Too many wrong PINs in a row: the role is locked out for ``seconds``."""

    role: PinRole
    failures: int
    seconds: int

    def entry(self) -> NewEntry:
        return "pin_locked", self.role.value, {"role": self.role.value, "failures": self.failures,
                                               "seconds": self.seconds}


@dataclass(frozen=True)
class PinChanged:
    """A PIN set, changed or taken away (issue 25, finding 8): one kind of entry wherever it was
    done, the operator menu, ``etg pin set`` or a hand edit of ``cabinet.yaml`` found at start.

    ``whose``: the PIN's holder as the PIN registry names it (``supervisor``, ``dealer
    D0417``); ``by``: who made the change, as the PIN given proved it (the actor), or
    ``technician`` where no PIN was asked (a first PIN, an edit found at start);
    ``fingerprint``: :func:`etg.table.pin.pin_fingerprint` of the new hash, None when
    taken away, so a start can tell a change made outside the program. The time is the
    entry's own. Never the PIN nor its hash (SPEC §5).
    """

    whose: str
    by: str
    where: Literal["operator menu", "command line", "cabinet.yaml"]
    fingerprint: str | None

    def entry(self) -> NewEntry:
        return "pin_change", self.by, {"role": self.whose, "fingerprint": self.fingerprint,
                                       "where": self.where}


TECHNICIAN = "technician"
"""Who a PIN change is put down to where no PIN proved anyone: a first PIN set, or a change of
``cabinet.yaml`` by other means, found at start."""


Record = (OperatorLogin | OperatorAction | SelfTestRun | PinOk | WrongPin | PinUnchecked
          | PinLocked | PinChanged)
"""Everything a screen may put on the event log."""
