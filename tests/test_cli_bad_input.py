"""Every command-line option that takes a path or a number, given a bad one (issue 26): one line
on stderr, exit 2, and nothing written anywhere, checked by comparing the folders before and
after (the test's own, the data directory's and the site configuration's)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner

from etg.cli import main
from tests.kiosk_support import config_copy
from tests.ledger_support import played_ledger

# {tmp}: the test's folder, holding config/ (a cabinet), ledger.db (played), a file note.txt, a
# folder empty/ and the paytable md5.yaml; {missing}: a path that is not there.
CASES: list[tuple[str, ...]] = [
    ("--bogus",),
    ("run", "--headless", "--demo", "--rounds", "0", "--config", "{tmp}/config"),
    ("run", "--headless", "--demo", "--rounds", "abc", "--config", "{tmp}/config"),
    ("run", "--headless", "--demo", "--frames", "0", "--config", "{tmp}/config"),
    ("run", "--headless", "--demo", "--seed", "x", "--config", "{tmp}/config"),
    ("run", "--headless", "--demo", "--config", "{missing}"),
    ("run", "--headless", "--demo", "--config", "{tmp}/note.txt"),
    ("run", "--headless", "--demo", "--config", "{tmp}/config", "--db", "{missing}/x.db"),
    ("run", "--headless", "--demo", "--config", "{tmp}/config", "--db", "{tmp}/empty"),
    ("run", "--headless", "--demo", "--config", "{tmp}/config", "--screenshots",
     "{tmp}/note.txt"),
    ("autoplay", "--db", "{missing}/x.db", "--rounds", "1", "--paytable", "{tmp}/md5.yaml"),
    ("autoplay", "--db", "{tmp}/empty", "--rounds", "1", "--paytable", "{tmp}/md5.yaml"),
    ("autoplay", "--db", "{tmp}/a.db", "--rounds", "0", "--paytable", "{tmp}/md5.yaml"),
    ("autoplay", "--db", "{tmp}/a.db", "--rounds", "x", "--paytable", "{tmp}/md5.yaml"),
    ("autoplay", "--db", "{tmp}/a.db", "--rounds", "1", "--seed", "1.5",
     "--paytable", "{tmp}/md5.yaml"),
    ("autoplay", "--db", "{tmp}/a.db", "--rounds", "1", "--paytable", "{missing}"),
    ("autoplay", "--db", "{tmp}/a.db", "--rounds", "1", "--paytable", "{tmp}/empty"),
    ("ledger", "verify", "--db", "{missing}"),
    ("ledger", "verify", "--db", "{tmp}/note.txt"),
    ("ledger", "verify", "--db", "{tmp}/empty"),
    ("ledger", "verify", "--config", "{missing}"),
    ("ledger", "verify", "--db", "{tmp}/ledger.db", "--archive", "{missing}"),
    ("ledger", "archive", "--db", "{tmp}/ledger.db", "--before", "notadate",
     "--out", "{tmp}/a.db"),
    ("ledger", "archive", "--db", "{tmp}/ledger.db", "--before", "2000-01-01",
     "--out", "{missing}/a.db"),
    ("ledger", "archive", "--db", "{missing}", "--before", "2000-01-01", "--out", "{tmp}/a.db"),
    ("ledger", "archive", "--db", "{tmp}/ledger.db", "--before", "2999-01-01",
     "--out", "{tmp}/a.db"),
    ("ledger", "tilts", "--db", "{missing}"),
    ("ledger", "acknowledge", "--db", "{tmp}/ledger.db", "--tilt", "abc",
     "--config", "{tmp}/config"),
    ("ledger", "acknowledge", "--db", "{missing}", "--tilt", "1", "--config", "{tmp}/config"),
    ("ledger", "recall", "--db", "{tmp}/ledger.db", "--last", "0"),
    ("ledger", "recall", "--db", "{tmp}/ledger.db", "--last", "many"),
    ("ledger", "meters", "--db", "{tmp}/note.txt"),
    ("ledger", "export", "--db", "{tmp}/ledger.db", "--format", "csv", "--from", "20",
     "--to", "5"),
    ("ledger", "export", "--db", "{tmp}/ledger.db", "--format", "csv", "--from", "notadate"),
    ("ledger", "export", "--db", "{tmp}/ledger.db", "--format", "csv", "--to", "2024-13-01"),
    ("ledger", "export", "--db", "{tmp}/ledger.db", "--format", "csv",
     "--out", "{missing}/x.csv"),
    ("ledger", "export", "--db", "{tmp}/ledger.db", "--format", "csv", "--out", "{tmp}/note.txt"),
    ("ledger", "export", "--db", "{missing}", "--format", "csv"),
    ("paytable", "check", "{missing}"),
    ("paytable", "check", "{tmp}/empty"),
    ("paytable", "check", "{tmp}/note.txt"),
    ("paytable", "list", "--config", "{missing}"),
    ("paytable", "list", "--config", "{tmp}/config", "--db", "{tmp}/note.txt"),
    ("paytable", "activate", "md-community-7", "--config", "{missing}"),
    ("paytable", "activate", "md-community-7", "--config", "{tmp}/config",
     "--db", "{missing}"),
    ("parsheet", "{missing}", "--out", "{tmp}/p.html", "--sim-rounds", "0"),
    ("parsheet", "{tmp}/md5.yaml", "--out", "{missing}/p.html"),
    ("parsheet", "{tmp}/md5.yaml", "--out", "{tmp}/p.html", "--mix", "2"),
    ("parsheet", "{tmp}/md5.yaml", "--out", "{tmp}/p.html", "--mix", "half"),
    ("parsheet", "{tmp}/md5.yaml", "--out", "{tmp}/p.html", "--sim-rounds", "-1"),
    ("parsheet", "{tmp}/md5.yaml", "--out", "{tmp}/p.html", "--seed", "x"),
    ("sim", "{missing}", "--rounds", "10"),
    ("sim", "{tmp}/md5.yaml", "--rounds", "0"),
    ("sim", "{tmp}/md5.yaml", "--rounds", "10", "--mix", "2"),
    ("sim", "{tmp}/md5.yaml", "--rounds", "10", "--seed", "x"),
    ("verify", "--bundle", "{missing}"),
    ("verify", "--bundle", "{tmp}/note.txt"),
    ("pin", "set", "--config", "{missing}"),
    ("pin", "remove-dealer", "--config", "{missing}", "D0417"),
    ("paths", "--config", "{tmp}/note.txt"),
]


def _tree(*folders: Path) -> dict[str, tuple[int, int]]:
    """Every file and folder under ``folders``: its size and modification time."""
    def walk(folder: Path) -> Iterator[tuple[str, tuple[int, int]]]:
        for path in sorted(folder.rglob("*")):
            stat = path.stat()
            yield str(path), (stat.st_size if path.is_file() else -1, stat.st_mtime_ns)

    return {name: value for folder in folders if folder.exists() for name, value in walk(folder)}


@pytest.fixture(scope="module")
def world(tmp_path_factory: pytest.TempPathFactory) -> Path:
    tmp = tmp_path_factory.mktemp("bad-input")
    config_copy(tmp)
    played_ledger(tmp, rounds=1)
    (tmp / "note.txt").write_text("not a ledger, not a folder\n", encoding="utf-8")
    (tmp / "empty").mkdir()
    (tmp / "md5.yaml").write_bytes(
        (tmp / "config" / "paytables" / "maryland-community-5.yaml").read_bytes())
    return tmp


@pytest.mark.parametrize("case", CASES, ids=[" ".join(case) for case in CASES])
def test_bad_input_is_one_line_exit_2_and_writes_nothing(
        world: Path, site_config: Path, tmp_path: Path, case: tuple[str, ...]) -> None:
    args = [part.format(tmp=world, missing=world / "no-such") for part in case]
    watched = (world, site_config, tmp_path)
    before = _tree(*watched)
    result = CliRunner().invoke(main, args)
    assert result.exception is None or isinstance(result.exception, SystemExit), result.output
    assert result.exit_code == 2, result.output
    assert result.stdout == ""
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and lines[0].strip(), result.stderr
    assert _tree(*watched) == before
