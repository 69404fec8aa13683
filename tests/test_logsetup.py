"""The log: a rotating file in the data directory, faults and crashes caught, no PIN in it."""

from __future__ import annotations

import logging
import os
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from etg.cli import logs as logsetup
from tests.ledger_support import MD5


@pytest.fixture(autouse=True)
def _closed() -> Iterator[None]:
    yield
    logsetup.shutdown()


def test_a_line_lands_in_the_file_with_time_level_and_pid(tmp_path: Path) -> None:
    files = logsetup.configure(tmp_path, program="test")
    logsetup.get("table").warning("tilt: meters row (md-5, seat 1, coin_in.initial)")
    logsetup.configure(tmp_path, program="test")  # twice: the handlers are not doubled
    logsetup.get("table").info("power-up: round 3")
    text = files.log.read_text()
    assert text.count("tilt: meters row") == 1 and text.count("power-up: round 3") == 1
    line = next(x for x in text.splitlines() if "tilt:" in x)
    assert f"WARNING etg.table pid={os.getpid()} test: tilt" in line
    assert line[:24].endswith("Z") and line[10] == "T"


def test_the_file_rotates(tmp_path: Path) -> None:
    files = logsetup.configure(tmp_path, program="test", file_bytes=2_000)
    for i in range(200):
        logsetup.get("kiosk").info("refused PlaceWager from player: betting is closed %d", i)
    assert (files.log.parent / "etg.log.1").exists()
    assert files.log.stat().st_size <= 2_000


def test_a_pin_that_slips_into_a_message_is_blanked(tmp_path: Path) -> None:
    files = logsetup.configure(tmp_path, program="test")
    logsetup.get("pin").warning("wrong PIN 4826 for supervisor")
    logsetup.get("pin").warning("pin=123456 entered", extra={"pin": "123456"})
    text = files.log.read_text()
    assert "4826" not in text and "123456" not in text
    assert "wrong PIN ****" in text and "pin=****" in text


def test_stderr_gets_warnings_not_information(tmp_path: Path,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    logsetup.configure(tmp_path, program="test", stderr_level=logging.WARNING)
    logsetup.get("table").info("power-up: round 1")
    logsetup.get("table").error("tilt: the ledger is behind its anchor")
    err = capsys.readouterr().err
    assert "tilt: the ledger is behind its anchor" in err and "power-up" not in err


def _child(tmp_path: Path, body: str) -> subprocess.CompletedProcess[str]:
    code = ("import pathlib, sys\nfrom etg.cli import logs as logsetup\n"
            f"logsetup.configure(pathlib.Path({str(tmp_path)!r}), program='kiosk', "
            f"fault_file=True)\n{body}\n")
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=60)


def test_a_crash_in_c_code_leaves_its_stack_in_faults_log(tmp_path: Path) -> None:
    done = _child(tmp_path, "import faulthandler\nfaulthandler._sigsegv()")
    assert done.returncode != 0
    faults = (tmp_path / "logs" / "faults.log").read_text()
    assert "kiosk pid" in faults and "Fatal Python error: Segmentation fault" in faults


def test_an_uncaught_exception_is_logged_with_its_traceback(tmp_path: Path) -> None:
    done = _child(tmp_path, "raise RuntimeError('the wheel fell off')")
    assert done.returncode == 1
    text = (tmp_path / "logs" / "etg.log").read_text()
    assert "CRITICAL etg" in text and "uncaught RuntimeError: the wheel fell off" in text
    assert "Traceback (most recent call last)" in text


@pytest.mark.slow
def test_autoplay_writes_its_log_in_the_data_directory_without_cards(tmp_path: Path) -> None:
    db = tmp_path / "ledger.db"
    done = subprocess.run([sys.executable, "-m", "etg", "autoplay", "--db", str(db),
                           "--rounds", "2", "--seed", "3", "--paytable", str(MD5)],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    log = Path(os.environ["XDG_DATA_HOME"]) / "etg" / "logs" / "etg.log"
    text = log.read_text()
    assert "autoplay started" in text and "power-up: round 1" in text and "shutdown:" in text
    # cards are written as ledger codes such as "10H" or "KS": none may appear in the log
    assert re.search(r"\b(?:[2-9]|10|[JQKA])[HDCS]\b", text) is None
