"""The par sheet's engine cross-check: its figures through the real state machine, over processes."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from etg.cli import main
from etg.config.loader import load_paytable
from etg.config.places import shipped_config_dir
from etg.math.agreement import agreement_rows
from etg.math.engine_sim import simulate_engine_full
from etg.math.parsheet.figures import DEFAULT_MIX, par_sheet, sheet_json
from etg.math.parsheet.html import render
from etg.math.sim_setup import standard_setup

MD3 = shipped_config_dir() / "paytables" / "maryland-community-3.yaml"


@pytest.mark.slow
def test_the_engine_check_is_the_engine_simulation_over_the_jobs_asked_for() -> None:
    loaded = load_paytable(MD3)
    sheet = par_sheet(loaded, sim_rounds=0, seed=5, engine_rounds=300, jobs=2)
    setup = standard_setup(loaded.paytable, DEFAULT_MIX)
    expected = agreement_rows(loaded.paytable, setup,
                              simulate_engine_full(loaded.paytable, 300, 5, setup, jobs=2))
    assert sheet.engine_agreement == tuple(expected)
    assert (sheet.engine_rounds, sheet.engine_jobs) == (300, 2)
    one_job = par_sheet(loaded, sim_rounds=0, seed=5, engine_rounds=300, jobs=1)
    assert one_job.engine_agreement != sheet.engine_agreement  # other streams, other rounds
    page = render(sheet)
    assert "Engine cross-check" in page and "300 rounds" in page and "over 2 processes" in page
    check = sheet_json(sheet)["engine_check"]
    assert (check["rounds"], check["jobs"]) == (300, 2)
    assert [row["name"] for row in check["agreement"]] == [r.name for r in expected]


def test_without_engine_rounds_the_sheet_has_no_engine_check() -> None:
    sheet = par_sheet(load_paytable(MD3))
    assert sheet.engine_agreement == () and sheet.engine_rounds == 0
    assert "Engine cross-check" not in render(sheet)
    assert sheet_json(sheet)["engine_check"] == {"rounds": 0, "jobs": 0, "agreement": []}


@pytest.mark.slow
def test_cli_runs_the_engine_check_on_the_jobs_given(tmp_path: Path) -> None:
    out = tmp_path / "sheet.html"
    result = CliRunner().invoke(main, ["parsheet", str(MD3), "--out", str(out), "--json",
                                       "--sim-rounds", "0", "--engine-rounds", "200",
                                       "--jobs", "2"])
    assert result.exit_code == 0, result.output
    (sheet,) = json.loads(result.output)["parsheets"]
    assert (sheet["engine_check"]["rounds"], sheet["engine_check"]["jobs"]) == (200, 2)
    assert sheet["engine_check"]["agreement"]
    assert "Engine cross-check" in out.read_text(encoding="utf-8")
