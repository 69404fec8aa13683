"""A compact round's body: its header and its detail, each deflated, the pair primed by a
dictionary the ledger itself holds.

A round's record is small and much like every other round's, so compressed
alone it stays large (about 1.5 KB on the busiest table). Primed with a
dictionary of a real round — the same keys, wager kinds, results and packed
event shapes — it compresses to about half, and fits one page of the file.

The dictionary is **the first round recorded under each layout**: that round
is written unprimed (flag 0), and every later round under the same layout is
primed with its header and detail text (flag 1). Nothing outside the ledger is
needed to read it back, and the dictionary can never change under a round.

    body = flag (1 byte) · header length (4 bytes) · deflate(header) · deflate(detail)

The header is what an audit adds up (:data:`etg.ledger.entry.ROUND_HEADER`); it
is read without inflating the detail (cards, wagers and events).
"""

from __future__ import annotations

import json
import zlib
from typing import Any

from etg.ledger.chain import canonical

UNPRIMED, PRIMED = 0, 1

Dictionary = tuple[bytes, bytes]
"""The header text and the detail text of the round that primes the others."""


def encode_round(header: dict[str, Any], detail: dict[str, Any],
                 dictionary: Dictionary | None) -> tuple[bytes, Dictionary]:
    """The body, and the texts that make it (the dictionary for later rounds if none is yet)."""
    texts = canonical(header).encode("utf-8"), canonical(detail).encode("utf-8")
    head = _deflate(texts[0], dictionary[0] if dictionary else None)
    rest = _deflate(texts[1], dictionary[1] if dictionary else None)
    flag = PRIMED if dictionary else UNPRIMED
    return bytes([flag]) + len(head).to_bytes(4, "big") + head + rest, texts


def decode_round(body: bytes, dictionary: Dictionary | None,
                 header_only: bool = False) -> tuple[dict[str, Any], Dictionary | None]:
    """The record (its header alone with ``header_only``), and the texts if the round is
    unprimed (it is then the dictionary of its layout). Raises ValueError if unreadable."""
    if len(body) < 5 or body[0] not in (UNPRIMED, PRIMED):
        raise ValueError("not a compact round body")
    primed = body[0] == PRIMED
    if primed and dictionary is None:
        raise ValueError("the round's dictionary (its layout's first round) is missing")
    size = int.from_bytes(body[1:5], "big")
    use = dictionary if primed else None
    try:
        head = _inflate(body[5:5 + size], use[0] if use else None)
        record = json.loads(head)
        if header_only:
            return record, None
        rest = _inflate(body[5 + size:], use[1] if use else None)
    except zlib.error as error:
        raise ValueError(f"compressed body damaged: {error}") from None
    record.update(json.loads(rest))
    return record, None if primed else (head, rest)


def _deflate(data: bytes, dictionary: bytes | None) -> bytes:
    compressor = (zlib.compressobj(9, zlib.DEFLATED, -15, 9, zlib.Z_DEFAULT_STRATEGY, dictionary)
                  if dictionary else zlib.compressobj(9, zlib.DEFLATED, -15, 9))
    return compressor.compress(data) + compressor.flush()


def _inflate(data: bytes, dictionary: bytes | None) -> bytes:
    inflater = (zlib.decompressobj(-15, dictionary) if dictionary
                else zlib.decompressobj(-15))
    out = inflater.decompress(data) + inflater.flush()
    if not inflater.eof:
        raise zlib.error("the stream is cut short")
    return out
