"""``benchmarks/bench_engine.py``: its figures in quick mode, and a worker's fault reported."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType

import pytest

from etg.config.loader import load_paytable
from etg.config.places import shipped_config_dir
from etg.math.engine_sim import cores

BENCHMARKS = Path(__file__).resolve().parents[1] / "benchmarks"


def bench_engine() -> ModuleType:
    """Loaded from its file as ``etg bench`` loads it (``benchmarks/`` is not a package)."""
    spec = importlib.util.spec_from_file_location("etg_bench_bench_engine",
                                                  BENCHMARKS / "bench_engine.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.slow
def test_quick_mode_reports_every_engine_figure_of_the_same_run() -> None:
    figures = bench_engine().measure(shipped_config_dir(), quick=True)
    assert set(figures) == {"engine_rounds_per_s", "engine_floor_rounds_per_s",
                            "engine_floor_ratio", "engine_rounds_per_s_all", "engine_jobs",
                            "engine_scaling", "engine_scaling_cpu", "engine_workload"}
    one, floor = figures["engine_rounds_per_s"], figures["engine_floor_rounds_per_s"]
    every, jobs = figures["engine_rounds_per_s_all"], figures["engine_jobs"]
    assert isinstance(one, int) and isinstance(floor, int) and isinstance(every, int)
    assert jobs == cores()
    assert one > 0 and floor > 0 and every > 0
    # from the unrounded rates: within a rounding of the rounded ones
    assert figures["engine_floor_ratio"] == pytest.approx(one / floor, rel=2e-2)
    assert figures["engine_scaling"] == pytest.approx(every / (jobs * one), rel=2e-2)
    cpu = figures["engine_scaling_cpu"]
    assert isinstance(cpu, float) and cpu > 0
    assert "maryland-community-7.yaml" in str(figures["engine_workload"])


@pytest.mark.slow
def test_a_worker_that_fails_is_reported_not_waited_for() -> None:
    """Zero rounds trip the worker's own check that a round has events."""
    paytable = load_paytable(shipped_config_dir() / "paytables"
                             / "maryland-community-7.yaml").paytable
    with pytest.raises(RuntimeError, match="an engine worker failed: AssertionError"):
        bench_engine().rounds_per_second_all(paytable, 0, 2, seed=0)
