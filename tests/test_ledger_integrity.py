"""Tampering, walked over the schema: every table, every column, and rows deleted, inserted, moved.

Each edit is made with plain SQLite, as a tamperer with any SQLite tool would,
after dropping the append-only triggers. ``etg ledger verify`` must then exit 1
naming the table and the row, and the kiosk must tilt at start-up. The list of
edits is built from ``sqlite_master`` and ``PRAGMA table_info``, not by hand, so
a table or column added later is walked too.
"""

from __future__ import annotations

import shutil
import sqlite3
from dataclasses import dataclass
from pathlib import Path

import pytest
from click.testing import CliRunner

from etg.cli import main
from etg.core.commands import CashIn, CashOut, OpenBets, Void
from etg.ledger.chain import anchor_path
from etg.ledger.store import Ledger
from etg.table.controller import Table
from tests.ledger_support import open_table, paytable, play


@dataclass(frozen=True)
class Edit:
    name: str
    statements: tuple[str, ...]
    names: tuple[str, ...]  # what verify's output must mention (the table and the row)
    tail: bool = True  # at or after the newest checkpoint: start-up must find it too


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A ledger with every kind of entry: rounds, a void, cash in and out, a RAM clear."""
    folder = tmp_path_factory.mktemp("played")
    db = folder / "ledger.db"
    table = open_table(db)
    play(table, 4)
    table.send(CashIn(2, 7_500), actor="attendant 3")
    table.send(OpenBets())
    table.send(Void("the shoe was dropped"), actor="supervisor 1")
    play(table, 2)
    table.send(CashOut(2), actor="attendant 3")
    table.ram_clear("operator 2", confirmed=True)
    play(table, 1)
    table.close()
    return db


def _copy(played: Path, folder: Path) -> Path:
    for source in (played, anchor_path(played)):
        shutil.copy(source, folder / source.name)
    return folder / played.name


def _tables(db: Path) -> dict[str, list[tuple[str, str]]]:
    conn = sqlite3.connect(db)
    try:
        names = [r[0] for r in conn.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")]
        return {name: [(c[1], c[2].upper()) for c in conn.execute(f"PRAGMA table_info({name})")]
                for name in names}
    finally:
        conn.close()


def _edits(db: Path) -> list[Edit]:
    """Every column of a row of each kind, of every table; and delete, insert, move per table."""
    conn = sqlite3.connect(db)
    edits: list[Edit] = []
    newest = conn.execute("SELECT max(seq) FROM entries WHERE kind = 'checkpoint'").fetchone()[0]
    try:
        for table, columns in _tables(db).items():
            if table == "entries":
                targets = [r[0] for r in conn.execute(
                    "SELECT max(seq) FROM entries GROUP BY kind")]
                key = "seq"
            else:
                targets = [r[0] for r in conn.execute(f"SELECT rowid FROM {table}")][:2]
                key = "rowid"
            for target in targets:
                mention = f"row {target}" if table == "entries" else ""
                tail = table != "entries" or target >= newest
                for column, kind in columns:
                    edits.append(Edit(f"{table}.{column}@{target}", (
                        f"UPDATE {table} SET {column} = {_changed(column, kind, table)} "
                        f"WHERE {key} = {target}",), (table, mention), tail))
            first, last = min(targets), max(targets)
            edits.append(Edit(f"{table}: delete", (f"DELETE FROM {table} WHERE {key} = {first}",),
                              (table,), table != "entries" or first >= newest))
            edits.append(Edit(f"{table}: insert", (_insert(table, columns, key, last),), (table,)))
            if first != last:  # a table of one row (the signed head) has no order to change
                edits.append(Edit(f"{table}: move", _move(table, columns, key, first, last),
                                  (table,)))
    finally:
        conn.close()
    return edits


def _changed(column: str, kind: str, table: str) -> str:
    if table == "entries" and column == "seq":
        return "seq + 1000000"
    if kind == "INTEGER":
        return f"{column} + 1"
    if kind == "BLOB":
        return (f"CAST((CASE WHEN substr({column}, 1, 1) = x'00' THEN x'01' ELSE x'00' END) "
                f"|| substr({column}, 2) AS BLOB)")
    return f"coalesce({column}, '') || 'x'"


def _insert(table: str, columns: list[tuple[str, str]], key: str, last: int) -> str:
    names = [c for c, _ in columns]
    values = ["seq + 1000" if c == "seq" else "name || '.copy'" if (table, c) == ("meters", "name")
              else c for c in names]
    return (f"INSERT INTO {table} ({', '.join(names)}) SELECT {', '.join(values)} "
            f"FROM {table} WHERE {key} = {last}")


def _move(table: str, columns: list[tuple[str, str]], key: str, first: int,
          last: int) -> tuple[str, ...]:
    """Two rows trade places: the keys swap, every other column stays with its row."""
    if table == "entries":
        return (f"UPDATE entries SET seq = -1 WHERE seq = {first}",
                f"UPDATE entries SET seq = {first} WHERE seq = {last}",
                f"UPDATE entries SET seq = {last} WHERE seq = -1")
    # rows without an order of their own: swap the values of the first two
    value = columns[-1][0]
    return (f"UPDATE {table} SET {value} = (SELECT {value} FROM {table} WHERE rowid = {last}) "
            f"|| '' WHERE rowid = {first} AND (SELECT {value} FROM {table} WHERE rowid = {last}) "
            f"!= {value}",)


def _tamper(db: Path, statements: tuple[str, ...]) -> None:
    conn = sqlite3.connect(db)
    conn.execute("DROP TRIGGER IF EXISTS entries_no_update")
    conn.execute("DROP TRIGGER IF EXISTS entries_no_delete")
    for statement in statements:
        conn.execute(statement)
    conn.commit()
    conn.close()


def test_the_walk_covers_every_table_and_column(played: Path) -> None:
    tables = _tables(played)
    assert set(tables) == {"entries", "meters", "_sqlite_migrations", "head_signature"}
    edits = _edits(played)
    for table, columns in tables.items():
        for column, _ in columns:
            assert any(e.name.startswith(f"{table}.{column}@") for e in edits)
        for what in ("delete", "insert", "move")[:2 if table == "head_signature" else 3]:
            assert any(e.name == f"{table}: {what}" for e in edits)
    kinds = {e.name.split("@")[1] for e in edits if e.name.startswith("entries.body@")}
    assert len(kinds) == 8  # genesis, schema, paytable, setting, checkpoint, command, event, round


def test_the_played_ledger_is_clean(played: Path, tmp_path: Path) -> None:
    db = _copy(played, tmp_path)
    result = CliRunner().invoke(main, ["ledger", "verify", "--db", str(db), "--full"])
    assert result.exit_code == 0, result.output
    assert result.output.strip().endswith(" rounds, clean")


@pytest.mark.slow
def test_every_edit_is_found_by_verify_and_tilts_the_kiosk(played: Path, tmp_path: Path) -> None:
    missed: list[str] = []
    edits = _edits(played)
    assert sum(e.tail for e in edits) > len(edits) // 3  # the walk reaches into the tail too
    for number, edit in enumerate(edits):
        folder = tmp_path / str(number)
        folder.mkdir()
        db = _copy(played, folder)
        try:
            _tamper(db, edit.statements)
        except sqlite3.IntegrityError:
            continue  # the database itself refused the edit (a key that must stay unique)
        # --full walks from the first entry and finds everything; start-up (and verify
        # without --full) walks from the newest checkpoint: it finds what lies in that tail,
        # the meters and the schema, in constant time whatever the history (issue 11).
        for full in (True, False) if edit.tail else (True,):
            args = ["ledger", "verify", "--db", str(db)] + (["--full"] if full else [])
            result = CliRunner().invoke(main, args)
            found = result.output
            if result.exit_code != 1 or not all(name in found for name in edit.names):
                missed.append(f"{edit.name} (full={full}): exit {result.exit_code}: {found}")
        if edit.tail:
            table = Table.open(Ledger.open(db), paytable())
            if table.tilt is None:
                missed.append(f"{edit.name}: the kiosk started without a tilt")
            table.ledger.close()
    assert missed == [], "\n".join(missed)
