"""The boundaries of SPEC §12, enforced: the core is pure, the UI holds no rules."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "etg"


def imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            names.add(node.module)
    return names


def test_core_imports_only_the_standard_library_and_itself() -> None:
    # No pygame, sqlite, pydantic, YAML, clock or I/O libraries in the rules.
    allowed = set(sys.stdlib_module_names) - {"sqlite3", "time", "datetime", "os", "socket",
                                               "io", "pathlib", "subprocess"}
    for path in sorted((PACKAGE / "core").glob("*.py")):
        for name in imports(path):
            top = name.split(".")[0]
            assert top in allowed or name.startswith("etg.core"), f"{path.name} imports {name}"
            if top == "secrets":
                assert path.name == "rng.py", "only the RNG source touches the CSPRNG"


def test_ui_sends_commands_and_draws_state_but_never_settles() -> None:
    forbidden = {"etg.core.settle", "etg.core.shoe", "etg.core.rng"}
    for path in sorted((PACKAGE / "ui").rglob("*.py")):
        assert not imports(path) & forbidden, f"{path.name} reaches into the rules"


def test_pygame_stays_out_of_core_config_math_and_ledger() -> None:
    for folder in ("core", "config", "math", "ledger"):
        for path in sorted((PACKAGE / folder).rglob("*.py")):
            assert "pygame" not in {n.split(".")[0] for n in imports(path)}, path



def test_the_screen_reads_the_books_and_writes_only_records() -> None:
    # Issue 12: the screens read the ledger through table.books (bounded reads) and put what
    # was done on them on the event log as typed records (table.record), never a free-form
    # table.log(kind, ...) nor anything of the ledger itself.
    for path in sorted((PACKAGE / "ui").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            where = f"{path.relative_to(PACKAGE)}:{getattr(node, 'lineno', '?')}"
            if isinstance(node, ast.Attribute):
                assert node.attr not in ("ledger", "_ledger"), f"{where} touches the ledger"
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
                writes_log = node.func.attr == "log" and _name(node.func.value) == "table"
                assert not writes_log, f"{where} calls table.log: hand table.record a record"


def _name(expression: ast.expr) -> str:
    """The last name in ``ctx.table`` or ``table``; empty for anything else."""
    if isinstance(expression, ast.Attribute):
        return expression.attr
    return expression.id if isinstance(expression, ast.Name) else ""
