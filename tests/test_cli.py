"""The command line: exit codes, JSON shapes, and README kept in step with --help."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

from click.testing import CliRunner

from etg.cli import main

ROOT = Path(__file__).resolve().parent.parent
MD5 = ROOT / "config" / "paytables" / "maryland-community-5.yaml"
BAD = ROOT / "tests" / "data" / "paytables" / "bad" / "spots-4.yaml"


def invoke(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, list(args))
    return result.exit_code, result.stdout, result.stderr


def test_paytable_check_json_gives_the_exact_figures_in_spec_shape() -> None:
    code, out, _ = invoke("paytable", "check", str(MD5), "--json")
    assert code == 0
    [sheet] = json.loads(out)["paytables"]
    assert (sheet["file"], sheet["id"], sheet["decks"]) == (str(MD5), "md-community-5", 6)
    wagers = sheet["wagers"]
    assert wagers["tie_probability"] == float(Fraction(23, 311))
    assert wagers["initial"]["house_edge_surrender"] == float(Fraction(23, 622))
    assert wagers["initial"]["house_edge_war"] == float(Fraction(23138, 993023))
    assert wagers["tie"]["house_edge"] == float(Fraction(58, 311))
    assert wagers["war_tie_probability"] == float(Fraction(1181, 15965))
    assert wagers["bonus_spin"] is None and wagers["progressive_payout"] is None
    assert sheet["exact"]["house_edge_war"] == "23138/993023"


def test_paytable_check_refuses_an_invalid_file_with_its_location() -> None:
    code, out, err = invoke("paytable", "check", str(MD5), str(BAD))
    assert code == 2
    assert f"{BAD}:12:8: spots: a community layout uses 3, 5 or 7 spots (MD Ch. 9 L(2)), not 4" in err
    assert "23138/993023" in out  # the valid file is still reported


def test_paytable_check_json_lists_invalid_files() -> None:
    code, out, _ = invoke("paytable", "check", str(BAD), "--json")
    assert code == 2
    data = json.loads(out)
    assert data["paytables"] == []
    assert data["invalid"][0]["errors"][0].endswith("not 4")


def test_sim_json_reports_each_figure_beside_the_exact_one() -> None:
    code, out, _ = invoke("sim", str(MD5), "--rounds", "500", "--seed", "4", "--json")
    assert code == 0
    data = json.loads(out)
    assert (data["mode"], data["rounds"], data["seed"]) == ("engine", 500, 4)
    tie = data["figures"]["tie_probability"]
    assert tie["exact"] == float(Fraction(23, 311))
    assert tie["low"] < tie["measured"] < tie["high"]
    assert set(data["figures"]) == {"tie_probability", "war_tie_probability", "house_edge_war",
                                    "house_edge_surrender", "tie_house_edge",
                                    "war_tie_wager_house_edge"}


def test_sim_on_an_invalid_file_exits_2() -> None:
    code, _, err = invoke("sim", str(BAD), "--rounds", "10")
    assert code == 2
    assert "spots" in err


def test_run_plays_rounds_with_the_default_paytable() -> None:
    code, out, _ = invoke("run", "--rounds", "2", "--seed", "11")
    assert code == 0
    assert "Casino War – 5 community cards" in out
    assert out.count("ROUND COMPLETE") == 2
    assert "1 card burned" in out  # MD Ch. 8 E(1) on the new shoe


def test_python_dash_m_etg_is_the_same_program() -> None:
    done = subprocess.run([sys.executable, "-m", "etg", "--help"], capture_output=True, text=True,
                          check=True)
    for command in ("run", "paytable", "sim", "bench"):
        assert re.search(rf"^\s+{command}\s", done.stdout, re.M)


def test_readme_documents_every_command() -> None:
    readme = (ROOT / "README.md").read_text()
    for name in main.commands:  # type: ignore[attr-defined]
        assert f"etg {name}" in readme, f"README does not mention `etg {name}`"
