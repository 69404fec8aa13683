"""The meter sign's link: ``/sign?t=<expiry>.<signature>``, an HMAC-SHA256 over its expiry.

A sign is a TV in kiosk mode over a bank of tables: no one types a PIN on it. It
is opened instead by a URL that ``etg floor web --sign-url`` prints, carrying a
token that says until when it is good and a signature over that. HMAC rather than
Ed25519: the one program that makes the token is the one that checks it, on the
same machine, so there is no public half to hand out, and the standard library
does it (:mod:`hmac`, compared in constant time).

The key is 32 random bytes in ``floor-web-sign.key`` beside ``cabinet.yaml``
(mode 0600), made at the first use. Deleting the file (or ``--new-sign-key``)
revokes every sign link made so far; an expired link is refused by itself.
"""

from __future__ import annotations

import hashlib
import hmac
import os
import re
import secrets
from dataclasses import dataclass
from pathlib import Path

KEY_FILE = "floor-web-sign.key"
KEY_BYTES = 32
_PURPOSE = b"etg floor sign\x00"  # the key signs nothing else: a signature is for a sign only
_EXPIRES = re.compile(r"[0-9]{1,12}")


class SignKeyError(Exception):
    """The sign key cannot be read or made (a one-line reason)."""


@dataclass(frozen=True)
class SignToken:
    """A sign link's token: good until ``expires`` (Unix seconds)."""

    expires: int
    signature: str

    def __str__(self) -> str:
        return f"{self.expires}.{self.signature}"


def sign_key(config_dir: Path, *, renew: bool = False) -> bytes:
    """The sign key kept in ``config_dir``, made (0600) if absent or if ``renew``."""
    path = config_dir / KEY_FILE
    if not renew:
        try:
            key = path.read_bytes()
        except FileNotFoundError:
            pass
        except OSError as error:
            raise SignKeyError(f"cannot read the sign key {path}: {error.strerror}") from None
        else:
            if len(key) != KEY_BYTES:
                raise SignKeyError(f"the sign key {path} is damaged ({len(key)} bytes, not "
                                   f"{KEY_BYTES}): make a new one with --new-sign-key")
            return key
    key = secrets.token_bytes(KEY_BYTES)
    partial = path.with_name(path.name + ".new")
    try:
        config_dir.mkdir(parents=True, exist_ok=True)
        descriptor = os.open(partial, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(descriptor, "wb") as out:
            out.write(key)
        os.replace(partial, path)  # never a half-written key in place
    except OSError as error:
        raise SignKeyError(f"cannot write the sign key {path}: {error.strerror}") from None
    return key


def make_token(key: bytes, expires: int) -> SignToken:
    """A token good until ``expires`` (Unix seconds)."""
    return SignToken(expires, _signature(key, expires))


def token_good(key: bytes, text: str | None, now: float) -> bool:
    """True if ``text`` is a token this key made and ``now`` is before its expiry."""
    if not text:
        return False
    expires_text, dot, signature = text.partition(".")
    if not dot or not _EXPIRES.fullmatch(expires_text):
        return False
    expires = int(expires_text)
    if not hmac.compare_digest(signature.encode(), _signature(key, expires).encode()):
        return False
    return now < expires


def _signature(key: bytes, expires: int) -> str:
    return hmac.new(key, _PURPOSE + str(expires).encode(), hashlib.sha256).hexdigest()
