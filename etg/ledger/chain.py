"""The hash chain, its signed heads, the key it was once MACed with, and the anchor (SPEC §5).

- **The chain.** Every row that tells the money story is an entry of one
  append-only table, and each entry's ``hash`` is BLAKE2b-256 of the previous
  entry's hash and the entry's own content (:func:`digest`). Editing, deleting,
  inserting or reordering any entry breaks every link after it. Each commit's
  last entry is signed with the cabinet's Ed25519 private key; why one signature
  per commit, and not a MAC per entry, is argued in :mod:`etg.ledger.signing`.
- **The chain before the signatures.** Ledgers written before issue 25 were
  chained by a MAC under a secret key, ``<config>/keys/ledger.key``: keyed BLAKE2b
  (128 bits, :func:`mac`) for compact entries, HMAC-SHA256 (:func:`link`) for the
  verbose entries before them. Those entries are kept as written and **sealed**:
  the first entry of the signed chain records the last MACed entry's number and
  hash, and links to it. Checking the older links still needs the old key
  (:func:`load_key`); without it verify says which entries it could not check.
  The old key signs nothing new, and the seal, under the signatures, pins the old
  head: even someone holding the old key cannot change an older entry unseen.
- **The anchor.** A small file beside the ledger, rewritten atomically after
  each commit: the ledger's id, the last entry's number and hash, the rounds
  and the time, signed with the private key. A ledger file that is behind its
  anchor (truncated, emptied, restored from an older copy, its ``-wal`` lost) or
  is another ledger altogether (swapped) no longer matches it.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import os
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from etg.ledger.signing import KeyPair, LedgerKeyError, Verifier, keys_dir

__all__ = ["GENESIS", "Anchor", "AnchorError", "LedgerKeyError", "anchor_path", "canonical",
           "default_key_path", "digest", "fsync_folder", "link", "load_key", "mac",
           "read_anchor", "write_anchor"]

GENESIS = bytes(32)
"""The "previous hash" of entry 1."""

KEY_BYTES = 32


def default_key_path(config_dir: Path | None = None) -> Path:
    """The secret key older ledgers were MACed with, in the site configuration directory.

    Nothing makes it any more: it is read, where it is, to check the entries before
    the seal of a ledger written before the signatures."""
    return keys_dir(config_dir) / "ledger.key"


def load_key(path: Path) -> bytes:
    """The old key in ``path``; raises :class:`LedgerKeyError` if it is missing or damaged."""
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


DIGEST_BYTES = 32
"""An entry's hash in the signed chain: unkeyed, so 256 bits (:mod:`etg.ledger.signing`)."""


def digest(previous: bytes, content: bytes) -> bytes:
    """The hash of an entry of the signed chain: BLAKE2b-256 of the previous hash and the
    entry's content. Anyone can recompute it; only the private key signs a head."""
    return hashlib.blake2b(previous + content, digest_size=DIGEST_BYTES).digest()


def link(key: bytes, previous: bytes, content: bytes) -> bytes:
    """The hash of an older verbose entry: HMAC-SHA256 of the previous hash and the entry's
    content."""
    return hmac.digest(key, previous + content, hashlib.sha256)


MAC_BYTES = 16


def mac(key: bytes, previous: bytes, content: bytes) -> bytes:
    """The hash of an older compact entry: keyed BLAKE2b (RFC 7693's MAC mode), 128 bits, of the
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

    def signed(self, keys: KeyPair) -> dict[str, Any]:
        body = asdict(self)
        return {**body, "signature": keys.sign_document(canonical(body).encode()).hex()}


class AnchorError(RuntimeError):
    """The anchor file is unreadable or its signature does not hold."""


def anchor_path(db_path: Path) -> Path:
    return db_path.with_name(db_path.name + ".anchor")


def read_anchor(db_path: Path, key: Verifier) -> Anchor | None:
    """The anchor beside ``db_path``, or None if there is none; raises :class:`AnchorError`.

    Only an anchor signed with the private key of ``key`` (the public key) is one:
    an older one, MACed with the old secret key, is read by :func:`read_old_anchor`
    only while its ledger is sealed.
    """
    data = _anchor_document(db_path)
    if not data:
        return None
    path = anchor_path(db_path)
    signature = data.pop("signature", None)
    if "mac" in data:
        raise AnchorError(f"the anchor {path} is signed with the old secret key, not this "
                          f"cabinet's private key")
    anchor = _anchor(data, path)
    try:
        valid = isinstance(signature, str) and key.document_signed(
            canonical(data).encode(), bytes.fromhex(signature))
    except ValueError:
        valid = False
    if not valid:
        raise AnchorError(f"the anchor {path} is not signed by this cabinet's key "
                          f"(edited, or from another cabinet)")
    return anchor


def read_old_anchor(db_path: Path, key: bytes | None) -> Anchor | None:
    """The anchor an older program MACed with the old secret ``key``: read once, as its
    ledger is sealed (None without one); raises :class:`AnchorError`.

    Without the old key (None) the anchor's MAC cannot be checked, and it is read as
    it stands: the file's own entries are what the seal records either way.
    """
    data = _anchor_document(db_path)
    if not data:
        return None
    path = anchor_path(db_path)
    if "signature" in data:
        raise AnchorError(f"the anchor {path} is already signed, but its ledger is not sealed")
    mac_ = data.pop("mac", None)
    anchor = _anchor(data, path)
    if key is not None and (not isinstance(mac_, str)
                            or not hmac.compare_digest(mac_, _mac(key, data))):
        raise AnchorError(f"the anchor {path} is not signed by this cabinet's old key "
                          f"(edited, or from another cabinet)")
    return anchor


def _anchor_document(db_path: Path) -> dict[str, Any]:
    path = anchor_path(db_path)
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return {}
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as error:
        raise AnchorError(f"the anchor {path} cannot be read: {error}") from None
    if not isinstance(data, dict) or not data:
        raise AnchorError(f"the anchor {path} is damaged")
    return data


def _anchor(data: dict[str, Any], path: Path) -> Anchor:
    try:
        return Anchor(**data)
    except TypeError:
        raise AnchorError(f"the anchor {path} is damaged") from None


def write_anchor(db_path: Path, anchor: Anchor, key: KeyPair) -> None:
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
