"""The command line: exit codes, JSON shapes, and README kept in step with --help."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

import pytest
from click.testing import CliRunner

from etg.cli import main
from etg.config.places import shipped_config_dir
from etg.ledger.store import Ledger

ROOT = Path(__file__).resolve().parent.parent
MD5 = shipped_config_dir() / "paytables" / "maryland-community-5.yaml"
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
    assert sheet["exact"]["house_edge_war"] == "23138/993023"
    # MD Ch. 7 F(4): a red Ace is 2 of the 52 faces
    assert wagers["bonus_spin"]["trigger_probability"] == float(Fraction(1, 26))
    hands = wagers["progressive_payout"]["hands"]
    assert list(hands) == ["suited_four_of_a_kind", "suited_double_tie", "four_of_a_kind",
                           "double_tie", "suited_tie", "tie"]
    # every tie makes exactly one hand (War on every tie): the six partition P(tie) = 23/311
    exact = sheet["exact"]
    hand_fractions = [Fraction(value) for key, value in exact.items()
                      if key.startswith("progressive_payout.hands.")]
    assert len(hand_fractions) == 6 and sum(hand_fractions) == Fraction(23, 311)
    assert 0 < wagers["progressive_payout"]["rtp_at_reset"] < 1


def test_paytable_check_json_has_no_side_wagers_where_none_are_offered() -> None:
    code, out, _ = invoke("paytable", "check", str(shipped_config_dir() / "paytables" / "pennsylvania.yaml"),
                          "--json")
    assert code == 0
    wagers = json.loads(out)["paytables"][0]["wagers"]
    assert wagers["bonus_spin"] is None and wagers["progressive_payout"] is None


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
    code, out, _ = invoke("sim", str(MD5), "--rounds", "5000", "--seed", "4", "--json",
                          "--mode", "vector")
    assert code == 0
    vector = json.loads(out)
    # one table, one set of figures, whichever simulator plays it (etg.math.sim_figures)
    assert set(vector["figures"]) == set(data["figures"])
    assert {"house_edge_war", "tie_house_edge", "trigger_probability", "envy_bonus.rtp",
            "hand.suited_four_of_a_kind", "bonus_spin.500.rtp", "bonus_spin.100.rtp_fixed",
            "progressive_payout.rtp"} <= set(data["figures"])


def test_sim_on_an_invalid_file_exits_2() -> None:
    code, _, err = invoke("sim", str(BAD), "--rounds", "10")
    assert code == 2
    assert "spots" in err


def test_run_headless_demo_plays_rounds_with_the_default_paytable(tmp_path: Path) -> None:
    db = tmp_path / "d.db"
    code, _, err = invoke("run", "--headless", "--demo", "--rounds", "2", "--seed", "11",
                          "--db", str(db))
    assert code == 0, err
    ledger = Ledger.open(db)
    try:
        assert ledger.round_count() == 2
        assert ledger.rounds(last=1)[0]["paytable"]["id"] == "md-community-5"
        assert [e["kind"] for e in ledger.event_log()][-1] == "shutdown"
    finally:
        ledger.close()


@pytest.mark.slow
def test_python_dash_m_etg_is_the_same_program() -> None:
    done = subprocess.run([sys.executable, "-m", "etg", "--help"], capture_output=True, text=True,
                          check=True)
    for command in ("run", "paytable", "sim", "bench"):
        assert re.search(rf"^\s+{command}\s", done.stdout, re.M)


def test_readme_documents_every_command() -> None:
    readme = (ROOT / "README.md").read_text()
    for name, command in main.commands.items():  # type: ignore[attr-defined]
        assert f"etg {name}" in readme, f"README does not mention `etg {name}`"
        for sub in getattr(command, "commands", {}):  # a group's commands: etg paytable list
            assert f"etg {name} {sub}" in readme, f"README does not mention `etg {name} {sub}`"
    for option in ("--quiet", "--verbose", "_ETG_COMPLETE"):  # the group's options, completion
        assert option in readme, f"README does not mention {option}"


def test_paytable_check_warns_when_the_bonus_spin_return_leaves_the_operators_band(
    tmp_path: Path,
) -> None:
    # SPEC §3: the validator warns outside an operator-set band; it does not refuse
    text = MD5.read_text(encoding="utf-8")
    assert text.count("rtp_band: {min: 0.80, max: 0.95}") == 1
    narrow = tmp_path / "narrow-band.yaml"
    narrow.write_text(text.replace("rtp_band: {min: 0.80, max: 0.95}",
                                   "rtp_band: {min: 0.92, max: 0.95}"), encoding="utf-8")
    code, out, err = invoke("paytable", "check", str(narrow))
    assert code == 0
    assert err.count(f"{narrow}: warning: ") == 2  # $1 (89.55 %) and $5 (91.15 %)
    code, out, _ = invoke("paytable", "check", str(narrow), "--json")
    assert code == 0
    assert len(json.loads(out)["paytables"][0]["warnings"]) == 2
    code, out, _ = invoke("paytable", "check", str(MD5), "--json")
    assert json.loads(out)["paytables"][0]["warnings"] == []


@pytest.mark.slow
def test_sim_engine_over_two_jobs_gives_the_same_figures_twice() -> None:
    args = ("sim", str(MD5), "--rounds", "300", "--seed", "6", "--json", "--engine")
    runs = [json.loads(invoke(*args, "--jobs", "2")[1]) for _ in range(2)]
    assert runs[0]["jobs"] == 2
    assert runs[0]["figures"] == runs[1]["figures"]
    one = json.loads(invoke(*args, "--jobs", "1")[1])
    assert one["jobs"] == 1
    assert one["figures"]["house_edge_war"] != runs[0]["figures"]["house_edge_war"]


@pytest.mark.slow
def test_sim_engine_runs_on_every_core_by_default() -> None:
    from etg.math.engine_sim import cores

    code, out, _ = invoke("sim", str(MD5), "--rounds", "40", "--seed", "6", "--json")
    assert code == 0
    assert json.loads(out)["jobs"] == min(cores(), 40)


@pytest.mark.parametrize(("extra", "says"), [
    (("--mode", "vector", "--jobs", "2"), "--jobs is for engine mode"),
    (("--mode", "vector", "--engine"), "contradict"),
    (("--jobs", "0"), "--jobs"),
])
def test_sim_refuses_jobs_it_cannot_use(extra: tuple[str, ...], says: str) -> None:
    code, out, err = invoke("sim", str(MD5), "--rounds", "10", *extra)
    assert code == 2
    assert says in err and out == ""


def test_readme_says_where_crashes_go_and_what_ledger_verify_checks() -> None:
    """Issue 26: README put uncaught exceptions in faults.log (they go to etg.log, see
    tests/test_logsetup.py) and had `verify` check the active paytable file (it has no cabinet
    to compare with: tests/test_cli_operator.py's disagreement is found at the kiosk's start)."""
    readme = " ".join((ROOT / "README.md").read_text().split())
    assert "a crash (an uncaught exception) is written there with its traceback" in readme
    assert "faulthandler and uncaught exceptions" not in readme
    assert "the active paytable file is the approved one" not in readme
    assert "`etg ledger verify` has no cabinet to compare with" in readme
