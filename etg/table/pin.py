"""Operator, supervisor, floorperson and dealer PINs: checked against a salted hash, never
kept in clear (SPEC §6).

The cabinet file holds only ``pbkdf2_sha256$<iterations>$<salt hex>$<hash hex>``:
a PBKDF2-HMAC-SHA256 of the PIN with a random 16-byte salt. A PIN has at most
10⁸ values, so no hash makes it unguessable to someone who can read the file;
what the hash buys is that the digits never appear in a file, a backup or a
log, and that each guess costs real time (600,000 iterations, OWASP's 2023
figure for PBKDF2-HMAC-SHA256). At the screen the PIN pad adds the lock-out
that stops guessing (see :mod:`etg.ui.pinpad`).

The stored string says its own iteration count, so a later program can raise
the count without invalidating the PINs already set.
"""

from __future__ import annotations

import hashlib
import hmac
import os
import re
from dataclasses import dataclass
from enum import Enum

from etg.config.cabinet import Cabinet
from etg.core.commands import ValidateJackpot
from etg.core.jackpot import ValidatorRole

SCHEME = "pbkdf2_sha256"
"""The first field of a stored hash: the only scheme this program writes or reads."""

ITERATIONS = 600_000
"""PBKDF2 rounds for a new hash (OWASP Password Storage Cheat Sheet, 2023)."""

SALT_BYTES = 16

MIN_DIGITS, MAX_DIGITS = 4, 8

_MAX_ITERATIONS = 10_000_000  # a stored count above this is damage, not a stronger hash
_DIGITS = re.compile(r"[0-9]*")
_STORED = re.compile(r"pbkdf2_sha256\$([1-9][0-9]{0,7})\$([0-9a-f]{32,128})\$([0-9a-f]{64})")


class PinRole(Enum):
    """Who a PIN belongs to; the value is the actor name written to the event log."""

    OPERATOR = "operator"  # the operator menu: meters, credits, paytables, RAM clear
    SUPERVISOR = "supervisor"  # a void of the round in progress (MD Ch. 11)
    FLOORPERSON = "floorperson"  # validates a jackpot before it is paid (MD Ch. 9 J(4)(c))
    DEALER = "dealer"  # signs in at the table (MD Ch. 8 E(4)): one PIN per dealer ID

    @property
    def cabinet_key(self) -> str:
        """The key of ``cabinet.yaml`` holding this role's hash (a dealer's: :func:`dealer_key`)."""
        if self is PinRole.DEALER:
            raise ValueError("each dealer's PIN is kept under its ID: see dealer_key()")
        return f"{self.value}_pin_hash"

    @property
    def label(self) -> str:
        return self.value.upper()


JACKPOT_VALIDATORS: tuple[PinRole, ...] = (PinRole.FLOORPERSON, PinRole.SUPERVISOR)
"""MD Ch. 9 J(4)(c): "a floorperson or above validates the progressive payout".

The operator, the attendant who pays a hand pay, is not among them: the one
who pays is never the one who validates.
"""


CHANGED_BY: dict[PinRole, tuple[PinRole, ...]] = {
    PinRole.SUPERVISOR: (PinRole.SUPERVISOR,),
    PinRole.OPERATOR: (PinRole.OPERATOR, PinRole.SUPERVISOR),
    PinRole.FLOORPERSON: (PinRole.FLOORPERSON, PinRole.SUPERVISOR),
    PinRole.DEALER: (PinRole.DEALER, PinRole.OPERATOR, PinRole.FLOORPERSON, PinRole.SUPERVISOR),
}
"""Whose PIN may replace a PIN that is set (issue 25, finding 8): the role's own, or a higher
role's. The supervisor is above everyone (voids, tilts, jackpots: MD Ch. 11, Ch. 9 J(4)(c));
the floorperson, who validates jackpots, is above the dealer, as is the operator, whose menu
adds and removes dealers. A first PIN, where none is set, asks for none.
"""


def pin_fingerprint(stored: str | None) -> str | None:
    """What the ledger keeps of a stored hash to tell a change: 16 hex digits of its SHA-256.

    Never the PIN nor the hash: without the salt, which only ``cabinet.yaml``
    holds, the fingerprint does not help to guess the PIN.
    """
    return None if stored is None else hashlib.sha256(stored.encode("utf-8")).hexdigest()[:16]


def jackpot_validation(who: str) -> ValidateJackpot:
    """The validation a PIN accepted by :data:`JACKPOT_VALIDATORS`' pad sends.

    ``who`` is whose PIN the pad matched in the PIN registry (``cabinet.yaml``'s
    hashes): a validator role's own PIN, so it is the ID and names the role the
    validation is recorded with (MD Ch. 9 J(4)(c)). Raises ValueError for anyone
    else, whose PIN never validates.
    """
    if who not in {role.value for role in JACKPOT_VALIDATORS}:
        raise ValueError(f"{who!r} is not a floorperson or above (MD Ch. 9 J(4)(c))")
    return ValidateJackpot(who, ValidatorRole(who))


def dealer_key(dealer_id: str) -> str:
    """The key path of ``cabinet.yaml`` that holds the dealer's hash: ``dealers.D0417``."""
    return f"dealers.{dealer_id}"


def hash_pin(pin: str, salt: bytes | None = None) -> str:
    """The string to store for ``pin``: a fresh random salt unless ``salt`` is given.

    Raises ValueError for a PIN that :func:`pin_problem` refuses, so a bad PIN
    can never be stored.
    """
    problem = pin_problem(pin)
    if problem is not None:
        raise ValueError(problem)
    salt = os.urandom(SALT_BYTES) if salt is None else salt
    if not salt:
        raise ValueError("the salt must not be empty")
    digest = hashlib.pbkdf2_hmac("sha256", pin.encode("ascii"), salt, ITERATIONS)
    return f"{SCHEME}${ITERATIONS}${salt.hex()}${digest.hex()}"


def verify_pin(pin: str, stored: str | None) -> bool:
    """True if ``pin`` is the PIN ``stored`` was made from.

    False, never an exception, for no hash (``None``), a malformed or foreign
    string, or a PIN that is not 4 to 8 digits. The digests are compared in
    constant time.
    """
    if stored is None or pin_problem(pin) is not None:
        return False
    match = _STORED.fullmatch(stored)
    if match is None:
        return False
    iterations = int(match.group(1))
    if iterations > _MAX_ITERATIONS:
        return False
    salt = bytes.fromhex(match.group(2))
    expected = bytes.fromhex(match.group(3))
    digest = hashlib.pbkdf2_hmac("sha256", pin.encode("ascii"), salt, iterations)
    return hmac.compare_digest(digest, expected)


def pin_problem(pin: str) -> str | None:
    """Why ``pin`` cannot be a PIN, or None: a PIN is 4 to 8 of the digits 0-9."""
    if not _DIGITS.fullmatch(pin):
        return "a PIN is made of the digits 0-9 only"
    if not MIN_DIGITS <= len(pin) <= MAX_DIGITS:
        return f"a PIN has {MIN_DIGITS} to {MAX_DIGITS} digits, not {len(pin)}"
    return None


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

    @classmethod
    def to_change(cls, role: PinRole, dealer_id: str | None = None) -> Credential:
        """Whose PIN may replace ``role``'s PIN that is set: its own, or a higher role's
        (:data:`CHANGED_BY`); a dealer's own PIN is the one of ``dealer_id``."""
        keys: list[tuple[str, str]] = []
        for by in CHANGED_BY[role]:
            if by is PinRole.DEALER:
                if dealer_id is None:
                    raise ValueError("a dealer's PIN is changed by dealer ID: dealer_id is needed")
                keys.append((f"dealer {dealer_id}", dealer_key(dealer_id)))
            else:
                keys.append((by.value, by.cabinet_key))
        return cls(role, tuple(keys))

    def match(self, cabinet: Cabinet, pin: str) -> str | None:
        """Who ``pin`` proves among the stored hashes, or None.

        Every stored hash is tried, as the PIN pad does, so the time taken does
        not say whose PIN it was.
        """
        matched = [who for who, stored in self.stored(cabinet) if verify_pin(pin, stored)]
        return matched[0] if matched else None

    def stored(self, cabinet: Cabinet) -> list[tuple[str, str]]:
        """(who, hash) of each key the cabinet holds a hash for."""
        out: list[tuple[str, str]] = []
        for who, key in self.keys:
            section, _, name = key.partition(".")
            value = cabinet.dealers.get(name) if section == "dealers" else getattr(cabinet, key)
            if value is not None:
                out.append((who, value))
        return out
