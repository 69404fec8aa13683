"""The keyed chain, the cabinet's ledger key and the anchor beside the ledger file (SPEC §5).

- **The chain.** Every row that tells the money story is an entry of one
  append-only table, and each entry's ``hash`` is a MAC, under the cabinet's
  key, of the previous entry's hash and the entry's own content: keyed BLAKE2b
  (128 bits) for compact entries, HMAC-SHA256 for the verbose entries of
  ledgers written before the compact format (:mod:`etg.ledger.entry`).
  Editing, deleting, inserting or reordering any entry breaks the chain, and
  nobody without the key can build a new one that holds.
- **The key.** 32 random bytes made at the first start, kept outside the
  database in the site configuration directory, mode 0600. Whoever holds the
  key file as well as the database could rewrite history: that is the threat
  model's limit, stated in README.
- **The anchor.** A small file beside the ledger, rewritten atomically after
  each commit: the ledger's id, the last entry's number and hash, the rounds
  and the time, signed with the key. A ledger file that is behind its anchor
  (truncated, emptied, restored from an older copy, its ``-wal`` lost) or is
  another ledger altogether (swapped) no longer matches it.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import os
import secrets
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from etg.config.places import site_config_dir

GENESIS = bytes(32)
"""The "previous hash" of entry 1."""

KEY_BYTES = 32


class LedgerKeyError(RuntimeError):
    """The ledger key is missing or unreadable; the message says which file and why."""


def default_key_path() -> Path:
    """The cabinet's ledger key in the site configuration directory (never inside the program)."""
    return site_config_dir() / "keys" / "ledger.key"


def load_key(path: Path) -> bytes:
    """The key in ``path``; raises :class:`LedgerKeyError` if it is missing or damaged."""
    try:
        text = path.read_text(encoding="ascii").strip()
    except FileNotFoundError:
        raise LedgerKeyError(f"the ledger key {path} is missing") from None
    except (OSError, UnicodeDecodeError) as error:
        raise LedgerKeyError(f"the ledger key {path} cannot be read: {error}") from None
    try:
        key = bytes.fromhex(text)
    except ValueError:
        key = b""
    if len(key) != KEY_BYTES:
        raise LedgerKeyError(f"the ledger key {path} is damaged (not {KEY_BYTES} bytes of hex)")
    return key


def create_key(path: Path) -> bytes:
    """Make a new random key at ``path`` (mode 0600); never overwrites an existing one."""
    path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    key = secrets.token_bytes(KEY_BYTES)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    try:
        os.write(fd, key.hex().encode("ascii") + b"\n")
        os.fsync(fd)
    finally:
        os.close(fd)
    return key


def load_or_create_key(path: Path) -> bytes:
    return load_key(path) if path.exists() else create_key(path)


def link(key: bytes, previous: bytes, content: bytes) -> bytes:
    """The hash of a verbose entry: HMAC-SHA256 of the previous hash and the entry's content."""
    return hmac.digest(key, previous + content, hashlib.sha256)


MAC_BYTES = 16


def mac(key: bytes, previous: bytes, content: bytes) -> bytes:
    """The hash of a compact entry: keyed BLAKE2b (RFC 7693's MAC mode), 128 bits, of the
    previous hash and the entry's content. As strong a MAC as the HMAC it follows, at a
    third of the cost, so ``verify --full`` walks a million rounds in under a minute."""
    return hashlib.blake2b(previous + content, key=key, digest_size=MAC_BYTES).digest()


def canonical(data: Any) -> str:
    """The one text of ``data`` that hashes are taken over: sorted keys, no spaces."""
    return json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


# --- the anchor ---------------------------------------------------------------------------------

@dataclass(frozen=True)
class Anchor:
    """Where the chain stood after the last commit, as the program last saw it."""

    ledger_id: str
    seq: int  # the last entry
    head: str  # its hash, hex
    rounds: int  # the hand ledger's last round number
    at: str  # the time of the last commit
    counter: int | None = None  # the TPM counter value it belongs to (etg.ledger.freshness)

    def signed(self, key: bytes) -> dict[str, Any]:
        body = asdict(self)
        return {**body, "mac": _mac(key, body)}


class AnchorError(RuntimeError):
    """The anchor file is unreadable or its signature does not hold."""


def anchor_path(db_path: Path) -> Path:
    return db_path.with_name(db_path.name + ".anchor")


def read_anchor(db_path: Path, key: bytes) -> Anchor | None:
    """The anchor beside ``db_path``, or None if there is none; raises :class:`AnchorError`."""
    path = anchor_path(db_path)
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return None
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as error:
        raise AnchorError(f"the anchor {path} cannot be read: {error}") from None
    if not isinstance(data, dict):
        raise AnchorError(f"the anchor {path} is damaged")
    mac = data.pop("mac", None)
    try:
        anchor = Anchor(**data)
    except TypeError:
        raise AnchorError(f"the anchor {path} is damaged") from None
    if not isinstance(mac, str) or not hmac.compare_digest(mac, _mac(key, data)):
        raise AnchorError(f"the anchor {path} is not signed by this cabinet's key "
                          f"(edited, or from another cabinet)")
    return anchor


def write_anchor(db_path: Path, anchor: Anchor, key: bytes) -> None:
    """Replace the anchor atomically: a crash leaves the old one or the new one, never half.

    The rename is made durable by an fsync of the folder: until then a power loss
    may bring back the old anchor, behind a ledger that did commit (a false
    tilt), or no anchor at all.
    """
    path = anchor_path(db_path)
    temporary = path.with_name(path.name + ".tmp")
    data = (canonical(anchor.signed(key)) + "\n").encode("utf-8")
    fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
    try:
        os.write(fd, data)
        os.fsync(fd)
    finally:
        os.close(fd)
    os.replace(temporary, path)
    fsync_folder(path.parent)


def fsync_folder(folder: Path) -> None:
    """Make the names in ``folder`` (a rename, a new file) durable."""
    fd = os.open(folder, os.O_RDONLY | os.O_DIRECTORY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def _mac(key: bytes, body: dict[str, Any]) -> str:
    return hmac.new(key, canonical(body).encode("utf-8"), hashlib.sha256).hexdigest()
