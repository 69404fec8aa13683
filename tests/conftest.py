"""Every test runs in its own world: no real user's data, settings, keys or ledgers are touched.

``XDG_DATA_HOME`` and ``XDG_CONFIG_HOME`` point into the test's ``tmp_path``,
so the per-user ledger, its anchor and logs, and the cabinet's ledger key all
land in temporary folders; SDL never opens a real display or sound card.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from sqlite_utils import Database

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")


@pytest.fixture(scope="session", autouse=True)
def site_config(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """One site configuration directory (with one cabinet key) for the whole session.

    Session-scoped and autouse, so it is in place before any module fixture
    makes a ledger; the data directory gets the same treatment for them.
    """
    folder = tmp_path_factory.mktemp("xdg-config")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("XDG_CONFIG_HOME", str(folder))
        patch.setenv("XDG_DATA_HOME", str(tmp_path_factory.mktemp("xdg-data")))
        yield folder


@pytest.fixture(scope="session", autouse=True)
def ledger_builds(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """A folder for the played ledgers the session builds once and copies to each test that
    asks for one (tests.ledger_support.built_once)."""
    from tests import ledger_support

    ledger_support.BUILDS = tmp_path_factory.mktemp("ledger-builds")
    yield
    ledger_support.BUILDS = None


@pytest.fixture(scope="session", autouse=True)
def wheel_pictures_kept() -> Iterator[None]:
    """The Bonus Spin wheel's still artwork is painted once a session for each ring and size.

    A ``WheelView`` paints its rim, hub and pointer, fits its labels and turns each
    ring's artwork six ways: some 0.15 s, most of what making a kiosk App costs, and a
    test session makes well over a hundred. All of it is a pure function of its
    arguments (a ring, a radius, an angle) and none of it is ever drawn on: the program
    keeps a few the same way (``paint_ring``, ``turned``), never enough for a whole
    wheel, let alone the several table sizes a session goes through. Here they are kept
    for the session, in caches of the same kind: what a test draws is pixel for pixel
    what painting afresh draws, and each spin's labelled copies and still pictures are
    still made by the wheel itself (``RingArt``'s own caches are left alone). A test that
    must draw from scratch empties them (``kiosk_support.forget_kept_pictures``).
    """
    from tests import kiosk_support

    with pytest.MonkeyPatch.context() as patch:
        kiosk_support.keep_wheel_pictures(patch)
        yield


@pytest.fixture(autouse=True)
def private_places(tmp_path: Path, site_config: Path,
                   monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Point the per-user data and configuration directories away from the real user's.

    Each test has its own data directory; the configuration directory, and so
    the cabinet's ledger key, is shared by the session, as on one cabinet.
    """
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg-data"))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(site_config))
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    monkeypatch.setenv("SDL_AUDIODRIVER", "dummy")
    yield


@pytest.fixture(autouse=True)
def quick_pin_hashes(request: pytest.FixtureRequest,
                     monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """PINs hashed in a test take 1,000 PBKDF2 rounds, not the 600,000 a cabinet's take.

    A stored hash says its own count, so checking one is exactly as in production, only
    quicker. Tests marked ``real_pin_cost`` keep the real count: those of tests/test_pin.py
    that check the count and the digest a new hash is made with, and those that need a
    check to take as long as a cabinet's.
    """
    if request.node.get_closest_marker("real_pin_cost") is None:
        monkeypatch.setattr("etg.table.pin.ITERATIONS", 1_000)
    yield


def _no_fsync(fd: int) -> None:
    """``os.fsync`` in a test: the bytes are already in the OS's cache, which every reader sees."""


class _UnsyncedDatabase(Database):
    """The ledger's connection, set to hand its commits to the OS without a sync."""

    def __init__(self, conn: Any, *args: Any, **kwargs: Any) -> None:
        super().__init__(conn, *args, **kwargs)
        conn.execute("PRAGMA synchronous=OFF")


@pytest.fixture(autouse=True)
def quick_commits(request: pytest.FixtureRequest,
                  monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """A commit in a test reaches the OS, not the platter: no fsync, SQLite ``synchronous=OFF``.

    Nothing a test can see depends on it: another connection, a reopened ledger,
    the anchor and every file read back the same bytes, and a killed process
    loses nothing the OS has taken (only a power cut would). What it saves is the
    wait for the disk, two syncs a commit and a commit for each command of a round
    (some twenty for six seats of bots), which on a busy disk was most of the ledger
    tests' time. Programs a test starts (``python -m etg``) keep their real, durable
    commits, and so do the tests marked ``durable_commits``.
    """
    if request.node.get_closest_marker("durable_commits") is None:
        # Every ledger connection passes through Database(conn): the migrations of a new
        # ledger, then Ledger.__init__ after ledger_file.prepare has set synchronous=FULL.
        monkeypatch.setattr("etg.ledger.store.Database", _UnsyncedDatabase)
        monkeypatch.setattr(os, "fsync", _no_fsync)
    yield


def _heap_left_as_it_is() -> bool:
    """``etg.ui.heap.settle`` in a test: glibc's thresholds left as they are."""
    return False


@pytest.fixture(autouse=True)
def unsettled_heap(request: pytest.FixtureRequest,
                   monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """The App and ``etg run`` leave glibc's malloc thresholds as they are in a test.

    ``etg.ui.heap.settle()`` fixes them for the rest of the process, so that each
    large picture gets a mapping of its own and goes back to the system when
    dropped: what keeps a kiosk's memory flat over a day. In a test worker it
    would stay in force for every later test, each canvas, ring and card then
    mapped, zero-filled page by page and unmapped again: some 12 s of system CPU
    over the fast set. No test reads the thresholds but tests/test_ui_heap.py,
    which settles in fresh interpreters and is marked ``real_heap``.
    """
    if request.node.get_closest_marker("real_heap") is None:
        monkeypatch.setattr("etg.ui.heap.settle", _heap_left_as_it_is)
    yield


# The floor's real PostgreSQL (issue 27): a server per session, a fresh database per test.
from tests.floor_support import floor, floor_server  # noqa: E402, F401
