"""``etg ledger export``: CSV, JSON Lines and JSON, streamed, for a span of rounds or dates (SPEC §9)."""

from __future__ import annotations

import itertools
import json
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from etg.cli import main
from etg.ledger.export import csv_lines, export_csv, export_json, json_chunks, jsonl_lines
from etg.ledger.store import Ledger, Span
from tests.ledger_support import played_ledger

ROUNDS = 12


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return played_ledger(tmp_path_factory.mktemp("export"), rounds=ROUNDS)


def export(db: Path, *args: str) -> str:
    result = CliRunner().invoke(main, ["ledger", "export", "--db", str(db), *args])
    assert result.exit_code == 0, result.output
    return result.output


def stored(db: Path) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    store = Ledger.open_readonly(db)
    try:
        with store.reading():
            return store.rounds(), store.event_log()
    finally:
        store.close()


def test_jsonl_holds_every_round_and_event_as_stored_in_chain_order(db: Path) -> None:
    lines = [json.loads(line) for line in export(db, "--format", "jsonl").splitlines()]
    rounds, events = stored(db)
    assert [{k: v for k, v in x.items() if k != "type"} for x in lines
            if x["type"] == "round"] == rounds
    assert [{k: v for k, v in x.items() if k != "type"} for x in lines
            if x["type"] == "event"] == events
    # chain order: each round comes after every event logged before its table opened
    last_event_id = 0
    for line in lines:
        if line["type"] == "event":
            last_event_id = line["id"]
        else:
            assert line["opened_seq"] > last_event_id


def test_csv_and_json_are_byte_for_byte_what_the_whole_ledger_gives(db: Path) -> None:
    rounds, events = stored(db)
    assert export(db, "--format", "csv") == export_csv(rounds)
    assert export(db, "--format", "json") == export_json(rounds, events)


def test_a_span_of_round_numbers_exports_exactly_those_rounds_and_their_events(db: Path) -> None:
    lines = [json.loads(line) for line in
             export(db, "--format", "jsonl", "--from", "3", "--to", "5").splitlines()]
    assert [x["round"] for x in lines if x["type"] == "round"] == [3, 4, 5]
    rounds, events = stored(db)
    opened, closed = rounds[2]["opened_seq"], rounds[5]["opened_seq"]
    assert [x["id"] for x in lines if x["type"] == "event"] == [
        e["id"] for e in events if opened <= e["id"] < closed]
    csv_rounds = {line.split(",")[0] for line in
                  export(db, "--format", "csv", "--from", "11").splitlines()[1:]}
    assert csv_rounds == {"11", "12"}
    assert export(db, "--format", "jsonl", "--from", "13") == ""


def test_a_span_of_dates_or_times(db: Path) -> None:
    rounds, _ = stored(db)
    today = datetime.fromisoformat(rounds[0]["ended_at"]).date()
    every = export(db, "--format", "jsonl")
    assert export(db, "--format", "jsonl", "--from", today.isoformat(),
                  "--to", today.isoformat()) == every
    assert export(db, "--format", "jsonl", "--to", (today - timedelta(days=1)).isoformat()) == ""
    assert export(db, "--format", "jsonl", "--from",
                  (today + timedelta(days=1)).isoformat()) == ""
    sixth = rounds[5]["ended_at"]  # --to a time: up to and including it
    lines = [json.loads(x) for x in export(db, "--format", "jsonl", "--to", sixth).splitlines()]
    assert [x["round"] for x in lines if x["type"] == "round"] == [1, 2, 3, 4, 5, 6]
    naive = datetime.fromisoformat(sixth).astimezone(UTC).replace(tzinfo=None).isoformat()
    assert export(db, "--format", "jsonl", "--to", naive) == export(db, "--format", "jsonl",
                                                                     "--to", sixth)


def test_a_bound_that_is_neither_a_round_nor_a_date_is_refused_in_one_line(db: Path) -> None:
    result = CliRunner().invoke(main, ["ledger", "export", "--db", str(db), "--format", "csv",
                                       "--from", "last week"])
    assert result.exit_code == 2
    assert result.output == ("etg ledger export: --from 'last week' is neither a round number "
                             "nor a date (YYYY-MM-DD) or ISO time\n")


def test_the_writers_stream_one_item_at_a_time() -> None:
    def endless() -> Iterator[dict[str, Any]]:
        for n in itertools.count(1):
            yield {"round": n, "outcome": "complete", "ended_at": "t",
                   "paytable": {"id": "p"}, "events": []}

    assert next(jsonl_lines(("round", r) for r in endless())) == (
        '{"type":"round","round":1,"outcome":"complete","ended_at":"t",'
        '"paytable":{"id":"p"},"events":[]}\n')
    chunks = csv_lines(endless())
    assert next(chunks).startswith("round,outcome,ended_at,")
    assert next(chunks) == ""  # a round with no settlement has no row, and did not block
    pieces = json_chunks(endless(), [])
    assert next(pieces) == "{\n" and next(pieces) == '  "rounds": ['


@pytest.mark.parametrize(("records", "entries"), [
    ([], []),
    ([{"round": 1, "events": [{"a": [1, {"b": None}]}]}], []),
    ([], [{"id": 2, "details": {"x": "é\n"}}]),
    ([{"round": 1}, {"round": 2, "nested": {"deep": [[], {}]}}], [{"id": 1}, {"id": 3}]),
])
def test_the_streamed_json_is_exactly_the_indented_document(records: list[dict[str, Any]],
                                                            entries: list[dict[str, Any]]) -> None:
    assert "".join(json_chunks(iter(records), iter(entries))) == json.dumps(
        {"rounds": records, "event_log": entries}, indent=2, ensure_ascii=False)


def test_the_audit_trail_reads_only_its_span(db: Path) -> None:
    store = Ledger.open_readonly(db)
    try:
        with store.reading():
            assert [r["round"] for k, r in store.audit_trail(Span(first_round=7, last_round=7))
                    if k == "round"] == [7]
            assert list(store.audit_trail(Span(first_round=9, last_round=8))) == []
    finally:
        store.close()


def test_a_span_of_times_holds_exactly_the_items_of_those_times_at_every_edge(db: Path) -> None:
    """SQLite leaves out the entries outside the times before Python reads them: each bound
    set at an entry's own time (and a microsecond either side) keeps what it always kept."""
    store = Ledger.open_readonly(db)
    try:
        with store.reading():
            every = list(store.audit_trail())

            def when(item: tuple[str, dict[str, Any]]) -> str:
                kind, value = item
                return str(value["at"] if kind == "event" else value["ended_at"])

            times = sorted({when(item) for item in every})
            edges = {times[0], times[len(times) // 3], times[len(times) // 2], times[-1]}
            for edge in sorted(edges):
                moment = datetime.fromisoformat(edge)
                for bound in (moment - timedelta(microseconds=1), moment,
                              moment + timedelta(microseconds=1)):
                    text = bound.isoformat()
                    assert list(store.audit_trail(Span(since=text))) == [
                        item for item in every if when(item) >= text]
                    assert list(store.audit_trail(Span(before=text))) == [
                        item for item in every if when(item) < text]
    finally:
        store.close()
