"""What a configuration error looks like: ``FILE:LINE:COLUMN: key.path: message``.

Every check of the configuration layer (reading, YAML syntax, schema, the
paytable rules) reports the same :class:`Problem`, so an operator gets one
list of everything wrong with a file, in file order, in a format that editors
and ``grep`` understand, and the program refuses to start on it.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

KeyPath = tuple[str | int, ...]
"""Keys from the top of a document down to a value; list items by index."""

ROOT = "<root>"
"""The key path text of the document itself."""


@dataclass(frozen=True, slots=True)
class Problem:
    """One thing wrong with a configuration file; ``line`` and ``column`` are 1-based."""

    file: str
    line: int
    column: int
    key_path: str
    message: str

    def __str__(self) -> str:
        return f"{self.file}:{self.line}:{self.column}: {self.key_path}: {self.message}"


class ConfigError(ValueError):
    """A configuration file was refused; ``problems`` lists every reason, by line."""

    def __init__(self, problems: Iterable[Problem]) -> None:
        self.problems: list[Problem] = sorted(problems, key=lambda p: (p.line, p.column))
        super().__init__(tuple(self.problems))

    def __str__(self) -> str:
        return "\n".join(str(p) for p in self.problems)


def key_path_text(path: KeyPath) -> str:
    """``("limits", "initial", "min_cents")`` -> ``limits.initial.min_cents``; ``()`` -> ROOT."""
    return ".".join(str(part) for part in path) if path else ROOT
