"""One entry of the ledger's chain, in either of the two formats a ledger can hold.

- **Compact** (``format = 1``, every entry written since migration
  ``0004_compact_ledger``): the time is whole microseconds since 1970 UTC, the
  body is bytes — commands and events as positional lists
  (:mod:`etg.ledger.compact`), the round, checkpoint and paytable bodies
  compressed with zlib — and the hash is BLAKE2b-256 of the previous hash and
  the content (:func:`etg.ledger.chain.digest`), each commit's head signed with
  the private key (:mod:`etg.ledger.signing`). Compact entries written before
  the signatures keep their keyed BLAKE2b of 128 bits (:func:`etg.ledger.chain.mac`),
  sealed like the verbose ones.
- **Verbose** (``format`` NULL, written by the ``0003_chained_ledger``
  program): ISO 8601 times, canonical JSON bodies, command entries carrying
  their events, 32-byte hashes. Those entries are kept exactly as written and
  sealed: the first compact entry links to the last of them, so one chain runs
  through both and ``etg ledger verify --full`` recomputes every link.

Each fact is stored once: a command entry holds the command (the draws of a
shuffle or a spin travel inside it), and the round's record holds the round's
events. The journal replays from the commands; recall reads the events the
round really had, never a re-computation by a later program.
"""

from __future__ import annotations

import json
import zlib
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from enum import Enum
from typing import Any, Required

from pydantic import ConfigDict, TypeAdapter, with_config
from pydantic_core import from_json
from typing_extensions import TypedDict

from etg.core.state import TableState
from etg.ledger.chain import canonical
from etg.ledger.compact import Layout, Layouts
from etg.ledger.round_codec import PRIMED, UNPRIMED, decode_round

COMPACT = 1
"""The ``format`` column of a compact entry (NULL: the verbose format)."""



class EntryKind(Enum):
    GENESIS = "genesis"
    SCHEMA = "schema"
    COMMAND = "command"
    ROUND = "round"
    EVENT = "event"
    PAYTABLE = "paytable"
    SETTING = "setting"
    CHECKPOINT = "checkpoint"


COMPRESSED = frozenset({"checkpoint", "paytable"})
"""Kinds whose compact body is zlib-compressed JSON (the others but ``round`` are plain JSON)."""

ROUND_HEADER = ("round", "outcome", "void_reason", "paytable", "opened_seq", "started_at",
                "ended_at", "credits_before", "credits_after", "meters_after", "summary")
"""What a compact round's body keeps apart from the rest: the figures an audit
adds up (credits, the progressive meters, the round's summary of money and meters). The
cards, the wagers and the events follow, compressed, and are read only when asked for."""

_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
_MICROSECOND = timedelta(microseconds=1)


def micros(at: str) -> int:
    """An ISO 8601 time as whole microseconds since 1970 UTC (exact, no float)."""
    moment = datetime.fromisoformat(at)
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    return (moment - _EPOCH) // _MICROSECOND


def iso(us: int) -> str:
    """Microseconds since 1970 UTC as the ISO 8601 text the program shows and exports."""
    return (_EPOCH + us * _MICROSECOND).isoformat()


def verbose_content(seq: int, kind: str, round_: int, at: str, actor: str | None,
                    tag: str | None, body: str) -> bytes:
    """What a verbose entry's hash covers: every column but the hash, as canonical JSON."""
    return canonical([seq, kind, round_, at, actor, tag, body]).encode("utf-8")


def compact_content(seq: int, kind: str, round_: int, at_us: int, actor: str | None,
                    tag: str | None, body: bytes) -> bytes:
    """What a compact entry's hash covers: every column but the hash.

    The columns are joined with NUL, which no kind, actor or tag may hold
    (:func:`check_label`), NULL is written as 0x01, the format is 1 and the body
    comes last: one content is one row, and SQLite itself can put it together
    for a walk of a million rounds (:mod:`etg.ledger.chain_walk`).
    """
    return (f"{seq}\0{kind}\0{round_}\0{at_us}\0{_label(actor)}\0{_label(tag)}\0{COMPACT}\0"
            .encode() + body)


def check_label(value: str | None) -> None:
    if value is not None and ("\0" in value or value == "\1"):
        raise ValueError(f"an actor or tag cannot hold NUL or be 0x01: {value!r}")


def _label(value: str | None) -> str:
    return "\1" if value is None else value


def encode_body(kind: str, body: Any) -> bytes:
    """A compact body: canonical JSON, compressed for the large kinds (a round's body is
    made by :func:`etg.ledger.round_codec.encode_round`)."""
    raw = canonical(body).encode("utf-8")
    return zlib.compress(raw, 6) if kind in COMPRESSED else raw


def decode_json(kind: str, body: bytes | str, fmt: int | None) -> Any:
    """A body that is JSON (every kind but a compact round), undoing the compression;
    raises ValueError if it is not readable."""
    return json.loads(json_text(kind, body, fmt))


def json_text(kind: str, body: bytes | str, fmt: int | None) -> bytes | str:
    """The JSON text of a body that is JSON, its compression undone; raises ValueError."""
    if fmt is None:
        return body
    if not isinstance(body, bytes):
        raise ValueError("a compact body must be bytes")
    try:
        return zlib.decompress(body) if kind in COMPRESSED else body
    except zlib.error as error:
        raise ValueError(f"compressed body damaged: {error}") from None


def round_header(body: bytes | str, layout: Layout) -> dict[str, Any]:
    """A compact round's header (:data:`ROUND_HEADER`) from its body, the rest left deflated.

    What the audits add up a million times over: the header's deflate stream alone
    (the body is laid out as :mod:`etg.ledger.round_codec` says: flag, header length,
    header, detail) and its JSON read by pydantic's parser, which gives the values
    :func:`json.loads` gives in a fraction of the time. Raises ValueError if unreadable.
    """
    if not isinstance(body, bytes):
        raise ValueError("a compact body must be bytes")
    if len(body) < 5 or body[0] not in (UNPRIMED, PRIMED):
        raise ValueError("not a compact round body")
    if body[0] == PRIMED:
        if layout.dictionary is None:
            raise ValueError("the round's dictionary (its layout's first round) is missing")
        inflater = zlib.decompressobj(-15, layout.dictionary[0])
    else:
        inflater = zlib.decompressobj(-15)
    size = int.from_bytes(body[1:5], "big")
    try:
        text = inflater.decompress(body[5:5 + size]) + inflater.flush()
    except zlib.error as error:
        raise ValueError(f"compressed body damaged: {error}") from None
    if not inflater.eof:
        raise ValueError("compressed body damaged: the stream is cut short")
    header = from_json(text, cache_strings="keys")
    if not isinstance(header, dict):
        raise ValueError("a round's header is not an object")
    return header


@with_config(ConfigDict(extra="allow"))
class _CheckpointBody(TypedDict, total=False):
    state: Required[TableState]


_CHECKPOINT: list[TypeAdapter[_CheckpointBody]] = []


def checkpoint_data(entry: Entry) -> tuple[dict[str, Any], TableState]:
    """A checkpoint's body and the table state it holds.

    One pass of pydantic over the body's text: the state is validated exactly as
    :func:`etg.ledger.codec.load_state` validates it, the rest comes back as
    :func:`json.loads` gives it, in a third of the time of reading the body and then
    its state. Raises ValueError (or KeyError, TypeError) if it cannot be read.
    """
    if not _CHECKPOINT:
        _CHECKPOINT.append(TypeAdapter(_CheckpointBody))
    body: dict[str, Any] = dict(_CHECKPOINT[0].validate_json(
        json_text(entry.kind, entry.body, entry.format)))
    state: TableState = body["state"]
    return body, state


@dataclass(frozen=True)
class Entry:
    """One row of the chain, read back; :meth:`data` decodes its body."""

    seq: int
    kind: str
    round: int
    at: str  # ISO 8601 UTC, whatever the format stores
    actor: str | None
    tag: str | None
    body: str | bytes
    hash: bytes
    format: int | None = None
    at_stored: Any = None  # the ``at`` column as stored (text, or microseconds for compact)
    layouts: Layouts | None = field(default=None, compare=False, repr=False)

    def content(self) -> bytes:
        """The bytes this entry's hash covers, in its own format."""
        if self.format == COMPACT:
            body = self.body if isinstance(self.body, bytes) else self.body.encode("utf-8")
            return compact_content(self.seq, self.kind, self.round, int(self.at_stored),
                                   self.actor, self.tag, body)
        text = self.body if isinstance(self.body, str) else self.body.decode("utf-8", "replace")
        return verbose_content(self.seq, self.kind, self.round, str(self.at_stored), self.actor,
                               self.tag, text)

    def data(self) -> Any:
        """The body as the program reads it: a command entry as ``{"command": …}`` (with its
        ``"events"`` in the verbose format), a round as its record with its events.

        A body that cannot be read (an edited row) comes back as ``{"unreadable": …}``:
        the chain check reports the row, readers go on without a traceback.
        """
        try:
            value = self.raw()
            if self.format != COMPACT:
                return value
            if self.kind == EntryKind.COMMAND.value:
                return {"command": self._layout().unpack_command(value)}
            if self.kind == EntryKind.ROUND.value:
                return self._round(value)
            return value
        except (ValueError, LookupError, TypeError) as error:
            return {"unreadable": str(error)}

    def round_header(self) -> dict[str, Any]:
        """A compact round's header alone; raises ValueError (or LookupError) if unreadable."""
        if self.format == COMPACT and self.kind == EntryKind.ROUND.value:
            return round_header(self.body, self._layout())
        header: dict[str, Any] = self.raw(header_only=True)
        return header

    def _round(self, value: dict[str, Any]) -> dict[str, Any]:
        """A compact round's record as the program made it: its time, its events by name."""
        layout = self._layout()
        record = {**value, "ended_at": self.at}
        if "events" in value:
            record["events"] = [layout.unpack_event(e) for e in value["events"]]
        return record

    def raw(self, header_only: bool = False) -> Any:
        """The body's JSON as stored (a compact round's events still packed); raises ValueError
        (or LookupError).

        ``header_only``: a compact round's header alone (see :data:`ROUND_HEADER`).
        """
        if self.format == COMPACT and self.kind == EntryKind.ROUND.value:
            if not isinstance(self.body, bytes):
                raise ValueError("a compact body must be bytes")
            layout = self._layout()
            record, texts = decode_round(self.body, layout.dictionary, header_only)
            if texts is not None and layout.dictionary is None:
                layout.dictionary = texts  # the layout's first round: it primes the others
            return record
        return decode_json(self.kind, self.body, self.format)

    def _layout(self) -> Any:
        if self.layouts is None:
            raise LookupError("the ledger's layouts were not read")
        return self.layouts.at(self.seq)


ENTRY_SELECT = ("seq, kind, round, at, actor, tag, CAST(body AS BLOB), CAST(hash AS BLOB), "
                "format")
"""The columns :func:`entry_of` reads, the hash as bytes even if someone wrote text into it."""


def entry_of(row: Any, layouts: Layouts | None) -> Entry:
    seq, kind, round_, at, actor, tag, body, digest, fmt = row
    if fmt == COMPACT:
        try:
            shown = iso(int(at))
        except (TypeError, ValueError, OverflowError):
            shown = str(at)
    else:
        shown = str(at)
    return Entry(int(seq), kind, int(round_), shown, actor, tag, body, bytes(digest), fmt, at,
                 layouts)
