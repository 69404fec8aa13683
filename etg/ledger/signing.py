"""Signing apart from verifying: the ledger's Ed25519 key pair (issue 25, item 4).

Until now each entry's hash was a MAC under one secret key, and whoever could
verify the chain held the key that writes it: a regulator's verifier, or anyone
who could read the key file, could forge a $5,000 round that verifies (issue 25,
finding 5). Now the one who writes and the ones who check hold different keys:

- **The chain is a plain hash chain.** Each entry's hash is BLAKE2b-256, unkeyed,
  of the previous entry's hash and the entry's own content
  (:func:`etg.ledger.chain.digest`): anyone can recompute it, so editing,
  deleting, inserting or reordering any entry breaks every link after it. The
  hash is 256 bits because it is unkeyed: a collision must cost 2**128, not the
  2**64 a 128-bit digest would leave (the keyed MAC could afford 128 bits because
  a forger had to guess the key first). BLAKE2b costs what the keyed MAC cost.
- **Each commit's head is signed.** When a transaction commits, its last entry's
  number and hash are signed with the **private key**, and the signature is kept
  in the one row of ``head_signature``, in the same transaction, in place of the
  one before. The head's signature covers everything before it through the
  chain, so older heads need none: one signature per commit (tens of microseconds,
  against the milliseconds of the commit's fsync), never one per entry, nothing more to
  store as the ledger grows, and a walk of a million rounds checks hashes and one
  signature. Nobody without the private key can extend or rewrite the chain and
  sign its new head.
- **The anchor is signed** the same way (:mod:`etg.ledger.chain`).
- **Verifying needs only the public key**: ``etg ledger verify``, the back office
  and a regulator read ``ledger.pub`` (``etg ledger pubkey`` prints it with its
  fingerprint), which may be given to everyone. The private key ``ledger.ed25519``
  is readable only by the writer's user (``install.sh``).

What a signature cannot tell is how far the chain had come: cutting the newest
entries off leaves an older, validly signed head. That is the anchor's job (and the
freshness record outside the data directory, issue 25 item 2).

Keys live in ``<site configuration>/keys``: ``ledger.ed25519`` and ``ledger.pub``
for the cabinet's ledger, made by ``etg ledger init`` and never by a writer;
``throwaway.ed25519`` and ``throwaway.pub`` for demo and test ledgers, made with the
first such ledger (those are throwaway by design, :data:`THROWAWAY`).
"""

from __future__ import annotations

import hashlib
import os
from dataclasses import dataclass
from pathlib import Path

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import (
    Ed25519PrivateKey,
    Ed25519PublicKey,
)
from cryptography.hazmat.primitives.serialization import (
    Encoding,
    NoEncryption,
    PrivateFormat,
    PublicFormat,
    load_pem_private_key,
    load_pem_public_key,
)

from etg.config.places import site_config_dir

__all__ = ["CABINET", "SIGNATURE_BYTES", "THROWAWAY", "KeyPair", "LedgerKeyError", "Verifier",
           "create_pair", "keys_dir", "load_signer", "load_verifier"]

CABINET = "ledger"
"""The cabinet's key pair: made by ``etg ledger init`` only."""

THROWAWAY = "throwaway"
"""The key pair of demo and test ledgers: made with the first of them, never for a real one."""

SIGNATURE_BYTES = 64

_HEAD = b"etg ledger head\0"
_DOCUMENT = b"etg ledger document\0"
"""What each kind of signed message starts with: a head's signature is never an anchor's."""


class LedgerKeyError(RuntimeError):
    """A ledger key is missing, unreadable or damaged; the message says which file and why."""


def keys_dir(config_dir: Path | None = None) -> Path:
    """The folder of the ledger's keys in the site configuration directory."""
    return (config_dir or site_config_dir()) / "keys"


def private_path(folder: Path, name: str = CABINET) -> Path:
    return folder / f"{name}.ed25519"


def public_path(folder: Path, name: str = CABINET) -> Path:
    return folder / f"{name}.pub"


@dataclass(frozen=True)
class Verifier:
    """A public key: checks heads and documents, signs nothing."""

    key: Ed25519PublicKey

    @property
    def raw(self) -> bytes:
        return self.key.public_bytes(Encoding.Raw, PublicFormat.Raw)

    @property
    def fingerprint(self) -> str:
        """``sha256:`` and the SHA-256 of the raw 32-byte key, in hex."""
        return "sha256:" + hashlib.sha256(self.raw).hexdigest()

    def pem(self) -> str:
        return self.key.public_bytes(Encoding.PEM, PublicFormat.SubjectPublicKeyInfo).decode()

    def head_signed(self, seq: int, head: bytes, signature: bytes) -> bool:
        return self._holds(head_message(seq, head), signature)

    def document_signed(self, text: bytes, signature: bytes) -> bool:
        return self._holds(_DOCUMENT + text, signature)

    def _holds(self, message: bytes, signature: bytes) -> bool:
        try:
            self.key.verify(signature, message)
        except InvalidSignature:
            return False
        return True


@dataclass(frozen=True)
class KeyPair:
    """The writer's keys: the private key signs, its public key checks."""

    signer: Ed25519PrivateKey
    verifier: Verifier

    def sign_head(self, seq: int, head: bytes) -> bytes:
        return self.signer.sign(head_message(seq, head))

    def sign_document(self, text: bytes) -> bytes:
        return self.signer.sign(_DOCUMENT + text)


def head_message(seq: int, head: bytes) -> bytes:
    """What a head's signature covers: the entry's number and its hash."""
    return _HEAD + seq.to_bytes(8, "big") + head


def create_pair(folder: Path, name: str = CABINET) -> KeyPair:
    """Make a new key pair in ``folder``: the private key mode 0600, the public key 0644.

    Never overwrites: either file already there raises :class:`LedgerKeyError`.
    """
    private, public = private_path(folder, name), public_path(folder, name)
    for path in (private, public):
        if path.exists():
            raise LedgerKeyError(f"{path} already exists; a ledger key is never replaced")
    try:
        folder.mkdir(parents=True, exist_ok=True, mode=0o755)
        signer = Ed25519PrivateKey.generate()
        _write_new(private, signer.private_bytes(Encoding.PEM, PrivateFormat.PKCS8,
                                                 NoEncryption()), 0o600)
        verifier = Verifier(signer.public_key())
        _write_new(public, verifier.pem().encode("ascii"), 0o644)
    except OSError as error:
        raise LedgerKeyError(f"{folder}: cannot make the ledger's keys: "
                             f"{error.strerror or error}") from None
    return KeyPair(signer, verifier)


def load_signer(folder: Path, name: str = CABINET) -> KeyPair:
    """The private key in ``folder`` and its public key; raises :class:`LedgerKeyError`.

    The public key file must be the private key's own: a swapped ``.pub`` would make
    the writer sign what verify then refuses (or the reverse).
    """
    path = private_path(folder, name)
    data = _read(path, "the ledger's private key")
    try:
        signer = load_pem_private_key(data, password=None)
    except (ValueError, TypeError):
        raise LedgerKeyError(f"the ledger's private key {path} is damaged") from None
    if not isinstance(signer, Ed25519PrivateKey):
        raise LedgerKeyError(f"the ledger's private key {path} is not an Ed25519 key")
    pair = KeyPair(signer, Verifier(signer.public_key()))
    public = load_verifier(folder, name)
    if public.raw != pair.verifier.raw:
        raise LedgerKeyError(f"the ledger's public key {public_path(folder, name)} is not the "
                             f"private key's ({path})")
    return pair


def load_verifier(folder: Path, name: str = CABINET) -> Verifier:
    """The public key in ``folder``; raises :class:`LedgerKeyError`."""
    return read_verifier(public_path(folder, name))


def read_verifier(path: Path) -> Verifier:
    """A public key file (PEM); raises :class:`LedgerKeyError`."""
    data = _read(path, "the ledger's public key")
    try:
        key = load_pem_public_key(data)
    except (ValueError, TypeError):
        raise LedgerKeyError(f"the ledger's public key {path} is damaged") from None
    if not isinstance(key, Ed25519PublicKey):
        raise LedgerKeyError(f"the ledger's public key {path} is not an Ed25519 key")
    return Verifier(key)


def _read(path: Path, what: str) -> bytes:
    try:
        return path.read_bytes()
    except FileNotFoundError:
        raise LedgerKeyError(f"{what} {path} is missing") from None
    except OSError as error:
        raise LedgerKeyError(f"{what} {path} cannot be read: "
                             f"{error.strerror or error}") from None


def _write_new(path: Path, data: bytes, mode: int) -> None:
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, mode)
    try:
        os.write(fd, data)
        os.fsync(fd)
    finally:
        os.close(fd)
    os.chmod(path, mode)  # whatever the umask
