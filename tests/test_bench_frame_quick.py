"""``bench_frame``'s quick mode (``measure(config_dir, quick=True)``): a few seconds of the
same round through the same path, scaled to 1280×800, with the keys of a full run."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType

import pytest

from tests import kiosk_support as k

BENCH = Path(__file__).resolve().parent.parent / "benchmarks" / "bench_frame.py"


def load_bench() -> ModuleType:
    """The module as ``etg bench`` loads it: from its file, not registered as a module."""
    spec = importlib.util.spec_from_file_location("etg_bench_frame_test", BENCH)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.slow  # a kiosk window for four seconds of play, and a cold start in a subprocess
@pytest.mark.durable_commits  # the bench checks its ledger commits as the kiosk's do
def test_quick_mode_measures_the_scaled_round_briefly_under_the_full_runs_keys(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))  # its ledgers, not the user's
    figures = load_bench().measure(k.config_copy(tmp_path, "maryland-community-7.yaml"),
                                   quick=True)
    assert set(figures) == {"frame_ms", "cold_start_s", "cold_start_source_s"}
    frame_ms = figures["frame_ms"]
    assert set(frame_ms) == {"p50", "p99", "phases", "displays", "p99_by_display", "plain",
                             "commit_ms", "ledger_wait_ms"}
    display = frame_ms["displays"]["1280x800"]
    assert list(frame_ms["displays"]) == ["1280x800"]
    phases = display["phases"]
    assert sum(phase["frames"] for phase in phases.values()) == 240
    assert frame_ms["p99_by_display"] == {
        "1280x800": {name: phase["p99"] for name, phase in phases.items()}}
    assert frame_ms["p99"] == max(phase["p99"] for phase in phases.values())
    assert figures["cold_start_source_s"] > 0
    assert list((tmp_path / "cache" / "etg").iterdir()) == []  # its folder removed after
