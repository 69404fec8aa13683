"""``etg bench``: it runs from a checkout, every benchmark in quick mode, one with --only, and a
program without its checkout says so in one line.

The whole ``etg bench --quick`` run is here so that a benchmark that cannot run
fails the suite: the figures themselves are never asserted against targets
(SPEC §11 is measured, not tested).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

import etg
from etg.cli import main
from etg.release.bench import KEYS, benchmarks_dir, chosen, load, names, run

ROOT = Path(__file__).resolve().parent.parent

# SPEC §11, "`etg bench --json` prints one object with these keys", word for word.
SPEC_KEYS = (
    "frame_ms", "commit_ms", "commit_rate_ratio", "parsheet_s", "sim_rounds_per_s",
    "sim_full_rounds_per_s", "engine_rounds_per_s", "engine_floor_rounds_per_s",
    "engine_rounds_per_s_all", "engine_jobs", "engine_workload", "cold_start_s",
    "ledger_bytes_per_round", "disk_bytes_per_round", "startup_s_empty", "startup_s_1m",
    "verify_full_rounds_per_s", "export_peak_rss_mb", "rss_mb_100", "rss_mb_10000",
    "link_display_ms_p99", "link_ack_ms_p99", "link_down_s", "link_drain_s", "link_tables",
    "web_display_ms_p99")

# What each benchmark of this checkout measures, even on a quick run: none may come back null.
MEASURED = {
    "engine": ("engine_rounds_per_s", "engine_workload"),
    "frame": ("frame_ms", "cold_start_source_s"),
    "ledger": ("commit_ms", "commit_rate_ratio"),
    "link": ("link_display_ms_p99", "link_ack_ms_p99", "link_down_s", "link_drain_s",
             "link_tables"),
    "ledger_scale": ("ledger_bytes_per_round", "disk_bytes_per_round",
                     "disk_bytes_per_round_each_alone", "startup_s_empty", "startup_s_1m",
                     "verify_full_rounds_per_s", "export_peak_rss_mb"),
    "math": ("sim_rounds_per_s", "sim_full_rounds_per_s"),
    "memory": ("rss_mb_100", "rss_mb_10000"),
    "parsheet": ("parsheet_s",),
    "reverify": ("reverify_rounds_per_s", "reverify_hours_1m", "reverify_step_ms"),
}


def invoke(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, list(args))
    return result.exit_code, result.stdout, result.stderr


def test_the_runner_knows_every_key_of_spec_section_11() -> None:
    assert set(SPEC_KEYS) <= set(KEYS)
    # The nested ones keep their shape.
    assert KEYS["frame_ms"] == {"p50": None, "p99": None, "phases": None, "displays": None}
    assert KEYS["commit_ms"] == {"p50": None, "p99": None}


def test_the_checkout_s_benchmarks_are_found_beside_the_package() -> None:
    assert benchmarks_dir() == ROOT / "benchmarks"
    assert set(MEASURED) <= set(names(ROOT / "benchmarks"))


def test_an_unknown_name_is_one_line_naming_the_benchmarks_and_exit_2() -> None:
    code, out, err = invoke("bench", "--only", "ledger", "--only", "nosuch", "--json")
    assert code == 2
    assert out == ""
    assert err == (f"etg bench: no benchmark nosuch; the benchmarks are "
                   f"{', '.join(names(ROOT / 'benchmarks'))}\n")
    assert err.startswith("etg bench: no benchmark nosuch; the benchmarks are engine, frame, ")


def test_a_frozen_build_says_it_has_no_benchmarks_and_exit_2(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sys, "frozen", True, raising=False)  # as PyInstaller's bootloader sets
    code, out, err = invoke("bench", "--quick")
    assert (code, out) == (2, "")
    assert err == ("etg bench: a frozen build carries no benchmarks: run etg bench from a "
                   "source checkout\n")


@pytest.mark.slow
def test_a_copy_of_the_package_without_its_checkout_says_so_in_one_line_and_exit_2(
        tmp_path: Path) -> None:
    site = tmp_path / "site-packages"  # as a wheel installs it: the package alone
    shutil.copytree(Path(etg.__file__).parent, site / "etg",
                    ignore=shutil.ignore_patterns("__pycache__"))
    env = {**os.environ, "PYTHONPATH": str(site)}
    done = subprocess.run([sys.executable, "-m", "etg", "bench", "--quick"], cwd=site, env=env,
                          capture_output=True, text=True, timeout=300)
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr == (f"etg bench: this etg ({site / 'etg'}) is installed without its "
                           f"source checkout: etg bench runs the benchmarks/ folder beside "
                           f"etg/ in one\n")


def _benchmarks(folder: Path, **bodies: str) -> Path:
    folder.mkdir()
    for name, body in bodies.items():
        (folder / f"bench_{name}.py").write_text(body, encoding="utf-8")
    (folder / "engine_floor.py").write_text("raise SystemExit('not a benchmark')\n")
    return folder


QUICK_OR_NOT = ("def measure(config_dir, *, quick=False):\n"
                "    return {'commit_rate_ratio': 0.25 if quick else 0.75}\n")
PAYTABLES = ("def measure(config_dir, *, quick=False):\n"
             "    return {'parsheet_s': len(list((config_dir / 'paytables').glob('*.yaml')))}\n")


def test_every_benchmark_runs_with_quick_and_fills_its_keys_of_all_the_others(
        tmp_path: Path) -> None:
    folder = _benchmarks(tmp_path / "benchmarks", a=QUICK_OR_NOT, b=PAYTABLES)
    config = tmp_path / "config"
    (config / "paytables").mkdir(parents=True)
    for n in range(3):
        (config / "paytables" / f"p{n}.yaml").write_text("")
    heard: list[str] = []
    figures = run(folder, chosen(folder, ()), config, quick=True, report=heard.append)
    assert list(figures) == ["quick", *KEYS]
    assert figures["quick"] is True
    assert (figures["commit_rate_ratio"], figures["parsheet_s"]) == (0.25, 3)
    assert {key: value for key, value in figures.items()
            if key not in ("quick", "commit_rate_ratio", "parsheet_s")} == {
        key: value for key, value in KEYS.items() if key not in ("commit_rate_ratio",
                                                                 "parsheet_s")}
    assert [line.split(" in ")[0] for line in heard] == [
        "a: running (quick)", "a: done", "b: running (quick)", "b: done"]


def test_only_runs_the_one_named_and_prints_only_what_it_measured(tmp_path: Path) -> None:
    folder = _benchmarks(tmp_path / "benchmarks", a=QUICK_OR_NOT,
                         b="raise RuntimeError('never loaded')\n")
    figures = run(folder, chosen(folder, ("a",)), tmp_path, quick=False, report=lambda _: None)
    assert figures == {"quick": False, "commit_rate_ratio": 0.75}


def test_a_benchmark_without_the_quick_keyword_fails_the_run(tmp_path: Path) -> None:
    folder = _benchmarks(tmp_path / "benchmarks",
                         old="def measure(config_dir):\n    return {}\n")
    with pytest.raises(TypeError, match="quick"):
        run(folder, ["old"], tmp_path, quick=True, report=lambda _: None)


def test_only_math_quick_prints_its_two_rates_as_json() -> None:
    code, out, err = invoke("bench", "--quick", "--only", "math", "--json")
    assert code == 0, err
    figures = json.loads(out)
    assert set(figures) == {"quick", "sim_rounds_per_s", "sim_full_rounds_per_s"}
    assert figures["quick"] is True
    assert isinstance(figures["sim_rounds_per_s"], int) and figures["sim_rounds_per_s"] > 0
    assert isinstance(figures["sim_full_rounds_per_s"], int)
    assert figures["sim_full_rounds_per_s"] > 0
    assert err.splitlines()[0] == "etg bench: math: running (quick)"


@pytest.mark.slow
def test_only_reverify_quick_prints_its_pace_and_the_hours_a_million_rounds_take(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    code, out, err = invoke("bench", "--quick", "--only", "reverify", "--json")
    assert code == 0, err
    figures = json.loads(out)
    assert set(figures) == {"quick", "reverify_rounds_per_s", "reverify_hours_1m",
                            "reverify_step_ms"}
    rate, steps = figures["reverify_rounds_per_s"], figures["reverify_step_ms"]
    assert isinstance(rate, int) and rate > 0
    assert set(steps) == {"p50", "p99", "max", "given", "cpu_p99", "cpu_max"}
    assert 0 < steps["p50"] <= steps["p99"] <= steps["max"]
    # A million rounds at that pace, a step of the frame's idle time each 60th of a second.
    hours = 1_000_000 / (rate * steps["given"] / 1_000 * 60) / 3_600
    assert figures["reverify_hours_1m"] == pytest.approx(hours, rel=0.01)


@pytest.mark.slow
def test_etg_bench_quick_json_runs_every_benchmark_and_prints_every_key(
        tmp_path: Path) -> None:
    # Its temporary ledgers go to a cache directory of the test's own, never the user's.
    env = {**os.environ, "XDG_CACHE_HOME": str(tmp_path / "cache")}
    done = subprocess.run([sys.executable, "-m", "etg", "bench", "--quick", "--json"],
                          cwd=ROOT, env=env, capture_output=True, text=True, timeout=900)
    assert done.returncode == 0, done.stderr[-3000:]
    figures = json.loads(done.stdout)
    assert figures["quick"] is True
    assert set(SPEC_KEYS) <= set(figures)
    ran = [line.removeprefix("etg bench: ").split(":")[0]
           for line in done.stderr.splitlines() if " done in " in line]
    assert ran == names(ROOT / "benchmarks")  # each of them, once, in order
    for name, keys in MEASURED.items():
        for key in keys:
            assert figures[key] is not None, f"bench_{name}.py measured no {key}"
    assert figures["frame_ms"]["p99"] is not None
    assert figures["commit_ms"]["p99"] is not None
    assert list((tmp_path / "cache" / "etg").iterdir()) == []  # every temporary ledger gone


@pytest.mark.slow
def test_a_command_s_peak_rss_is_its_own_not_the_benchmark_process_s() -> None:
    # ``export_peak_rss_mb`` is read with wait4 of the command's process. Started straight from
    # the benchmark's process, the kernel counted the RSS that process had when it forked (the
    # command's image before exec): after ``bench_frame`` that was some 240 MB, whatever the
    # export itself used.
    scale = load(ROOT / "benchmarks" / "bench_ledger_scale.py")
    ballast = b"\x01" * (400 * 1024 * 1024)  # this process made large, its pages touched
    done, peak_mb = scale._command(["--version"])
    assert done.returncode == 0 and "version" in done.stdout
    assert 5 < peak_mb < 200 < len(ballast) / 2**20
