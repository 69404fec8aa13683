"""``etg parsheet``: the page parses, names no URL, carries every section and the exact figures."""

from __future__ import annotations

import json
from fractions import Fraction
from html.parser import HTMLParser
from pathlib import Path

import pytest
from click.testing import CliRunner

from etg.cli import main
from etg.config.loader import load_paytable
from etg.config.places import shipped_config_dir
from etg.math.parsheet import output_path
from etg.math.parsheet.figures import par_sheet, sheet_json
from etg.math.parsheet.html import frac, render

PAYTABLES = shipped_config_dir() / "paytables"
MD7 = PAYTABLES / "maryland-community-7.yaml"
SECTIONS = ("identity", "rules", "main-game", "tie-wagers", "spread", "progressive-payout",
            "bonus-spin", "volatility", "simulation", "method")


class _Checker(HTMLParser):
    """Collects element ids and attribute values; fails on a tag closed out of order."""

    VOID = frozenset({"meta", "br", "img", "input", "link", "hr", "path", "rect", "line",
                      "polyline"})

    def __init__(self) -> None:
        super().__init__()
        self.ids: set[str] = set()
        self.attributes: list[str] = []
        self.open: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        for name, value in attrs:
            self.attributes.append(f"{name}={value}")
            if name == "id" and value:
                self.ids.add(value)
        if tag not in self.VOID:
            self.open.append(tag)

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        for name, value in attrs:
            self.attributes.append(f"{name}={value}")

    def handle_endtag(self, tag: str) -> None:
        if tag in self.VOID:
            return
        assert self.open and self.open[-1] == tag, (tag, self.open[-5:])
        self.open.pop()


@pytest.fixture(scope="module")
def md7_html() -> str:
    return render(par_sheet(load_paytable(MD7)))


def test_the_page_parses_and_has_every_section(md7_html: str) -> None:
    checker = _Checker()
    checker.feed(md7_html)
    checker.close()
    assert checker.open == []
    assert set(SECTIONS) <= checker.ids
    assert md7_html.startswith("<!DOCTYPE html>")
    assert "<svg" in md7_html and "<style>" in md7_html and "@media print" in md7_html


def test_the_page_needs_no_network(md7_html: str) -> None:
    lowered = md7_html.lower()
    assert "http" not in lowered and "//" not in lowered.replace("://", "")
    assert "src=" not in lowered and "<script" not in lowered and "<link" not in lowered
    assert "url(" not in lowered and "@import" not in lowered


def test_the_page_shows_the_exact_figures(md7_html: str) -> None:
    for text in ("23/311",  # 6-deck tie
                 "23/622",  # always-Surrender edge
                 "23138/993023",  # always-War edge
                 "11569/533231",  # per total wagered
                 "2/993023",  # Suited Four-of-a-Kind, War on every tie
                 "5/311",  # Suited Tie, always Surrender
                 "188/311",  # Progressive Payout RTP, always Surrender
                 "1/26",  # Bonus Spin trigger
                 "$457,450.00",  # break-even meter, always War
                 "Markov chain", "closed form", "JACKPOT", "1e7 rounds"):
        assert text in md7_html, text


def test_the_json_twin_has_the_same_numbers() -> None:
    sheet = par_sheet(load_paytable(MD7), mix=Fraction(1, 4))
    data = json.loads(json.dumps(sheet_json(sheet)))
    assert data["identity"]["sha256"] == load_paytable(MD7).sha256
    assert data["identity"]["mix_smallest_bonus_denomination"]["exact"] == "1/4"
    policies = data["main_game"]["policies"]
    assert policies["surrender"]["house_edge"]["exact"] == "23/622"
    assert policies["war"]["house_edge"]["exact"] == "23138/993023"
    payout = data["progressive_payout"]
    assert payout["surrender"]["hands"]["double_tie"]["exact"] == "0/1"
    assert payout["war"]["hands"]["suited_four_of_a_kind"]["exact"] == "2/993023"
    assert payout["surrender"]["break_even_meter_cents"] is None
    assert payout["surrender"]["long_run"] is None
    assert payout["war"]["long_run"]["method"] == "closed_form"
    meters = data["bonus_spin"]["meters"]
    assert [m["level"] for m in meters] == ["primary", "secondary"]
    assert meters[0]["long_run"]["method"] == "bounded"
    assert meters[0]["long_run"]["proven"] is True
    rtp = meters[0]["long_run"]["rtp"]
    assert rtp["exact"] is None  # a bracket's midpoint is not exact: it carries its bound
    assert 0 < rtp["error"] < 2.5e-10
    assert abs(float(rtp["text"]) - rtp["value"]) <= 10 ** -len(rtp["text"].split(".")[1])
    assert payout["war"]["long_run"]["rtp"]["error"] == 0.0
    shares = [d["share"]["exact"] for d in meters[0]["long_run"]["denominations"]]
    assert shares == ["1/4", "3/4"]
    assert len(data["volatility"][0]["limits_99"]) == 5
    assert data["simulation"] == {"rounds": 0, "agreement": [], "meters": []}


@pytest.mark.parametrize("name", sorted(p.name for p in PAYTABLES.glob("*.yaml")))
def test_every_shipped_paytable_renders(name: str) -> None:
    loaded = load_paytable(PAYTABLES / name)
    sheet = par_sheet(loaded)
    page = render(sheet)
    assert loaded.sha256 in page
    tie = {6: "23/311", 8: "31/415"}[loaded.paytable.shoe.decks]  # 32·31 / (416·415)
    assert tie in page
    assert ("bonus-spin" in page) == (loaded.paytable.bonus_spin is not None)
    json.dumps(sheet_json(sheet))


def test_the_simulation_section_agrees() -> None:
    sheet = par_sheet(load_paytable(PAYTABLES / "maryland-community-3.yaml"),
                      sim_rounds=20_000, seed=3)
    assert sheet.agreement and sheet.meter_checks
    assert all(check.agrees for check in sheet.meter_checks)
    assert all(check.simulation.books_balance for check in sheet.meter_checks)
    assert "99 % interval" in render(sheet)


def test_cli_writes_the_page_and_prints_json(tmp_path: Path) -> None:
    out = tmp_path / "sheet.html"
    result = CliRunner().invoke(main, ["parsheet", str(MD7), "--out", str(out), "--json",
                                       "--sim-rounds", "0", "--mix", "1/2"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    (sheet,) = data["parsheets"]
    assert sheet["html"] == str(out) and out.read_text(encoding="utf-8").startswith("<!DOCTYPE")
    assert sheet["identity"]["id"] == "md-community-7"


def test_cli_several_files_get_one_page_each(tmp_path: Path) -> None:
    files = [str(PAYTABLES / "maryland-community-3.yaml"), str(PAYTABLES / "pennsylvania.yaml")]
    result = CliRunner().invoke(main, ["parsheet", *files, "--out", str(tmp_path / "ps.html"),
                                       "--sim-rounds", "0"])
    assert result.exit_code == 0, result.output
    assert sorted(p.name for p in tmp_path.iterdir()) == ["ps-md-community-3.html",
                                                         "ps-pa-2012.html"]


@pytest.mark.parametrize("mix,message", [("2", "not between 0 and 1"),
                                         ("half", "is not a number")])
def test_cli_refuses_a_bad_mix(tmp_path: Path, mix: str, message: str) -> None:
    result = CliRunner().invoke(main, ["parsheet", str(MD7), "--out", str(tmp_path / "x.html"),
                                       "--mix", mix])
    assert result.exit_code == 2 and message in result.output


def test_output_path_and_short_fractions() -> None:
    assert output_path(Path("a/b.html"), "md-7", False) == Path("a/b.html")
    assert output_path(Path("a/b.html"), "md-7", True) == Path("a/b-md-7.html")
    assert frac(Fraction(23, 311)) == "23/311" and frac(Fraction(3)) == "3"
    assert frac(Fraction(1, 10**30)) == "—" and frac(None) == "—"


def test_a_bounded_figure_shows_only_the_digits_its_bound_vouches_for() -> None:
    """md-community-7, half the wagers $1: the long run is a bracket's midpoint, not a Fraction.

    The page prints the $1 return as 89.7631570 % (nine decimals of the
    fraction, its bound under 2·10⁻¹⁰ beside it), the exact fixed-pay return to the
    page's four decimals with its fraction, and the JSON twin the bound and
    the same digits.
    """
    sheet = par_sheet(load_paytable(MD7), mix=Fraction(1, 2))
    assert sheet.bonus is not None
    one = next(d for d in sheet.bonus.denominations if d.wager_cents == 100)
    assert not one.rtp_long_run_exact and 0 < one.rtp_long_run_error <= Fraction(5, 10**10)
    page = render(sheet)
    assert "89.7631570 %" in page and "89.76315704" not in page
    assert f"± {float(one.rtp_long_run_error):.1e}" in page  # the bound beside it
    data = json.loads(json.dumps(sheet_json(sheet)))
    figure = data["bonus_spin"]["denominations"][0]["rtp_long_run"]
    assert figure["exact"] is None and figure["text"] == "0.897631570"
    assert figure["error"] == float(one.rtp_long_run_error)
    fixed = data["bonus_spin"]["denominations"][0]["rtp_fixed"]
    assert fixed["error"] == 0.0 and fixed["exact"] is not None
