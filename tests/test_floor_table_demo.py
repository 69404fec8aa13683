"""``etg floor demo`` (issue 27, item 5): a throwaway floor, linked bot tables, exact books."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from etg.cli import main


@pytest.mark.slow
def test_the_demo_ends_by_itself_and_prints_the_floors_books_exact() -> None:
    result = CliRunner().invoke(main, ["floor", "demo", "--tables", "2", "--rounds", "6",
                                       "--json", "--seed", "4"])
    assert result.exit_code == 0, result.output
    floor = json.loads(result.stdout)
    assert [(t["id"], t["rounds"]) for t in floor["tables"]] == [("t01", 6), ("t02", 6)]
    for level in floor["levels"]:
        # seed + contributions = current + wins + overflow + reserve, to the cent
        assert (level["seed"] + level["contributions"] + level["adjustments"]
                == level["current"] + level["wins"] + level["overflow"] + level["reserve"])
        assert level["contributions"] == sum(t["contributions"].get(level["level"], 0)
                                             for t in floor["tables"])
        assert level["contributions"] > 0
    assert {lv["level"] for lv in floor["levels"]} == {"primary", "secondary"}
    assert floor["reconciliation"] == {"exact": True, "tables_checked": ["t01", "t02"],
                                       "differences": []}
    assert len(floor["hits"]) == sum(lv["hits"] for lv in floor["levels"])


@pytest.mark.parametrize(("args", "message"), [
    (["--json"], "etg floor demo: --json prints the floor once it has ended: give --rounds\n"),
    (["--link", "tertiary", "--rounds", "1"],
     "etg floor demo: --link 'tertiary': levels are primary, secondary and "
     "progressive_payout\n"),
])
def test_bad_input_is_one_line_and_exit_2(args: list[str], message: str) -> None:
    result = CliRunner().invoke(main, ["floor", "demo", *args])
    assert result.exit_code == 2
    assert result.stderr == message


def test_a_floor_needs_a_table() -> None:
    result = CliRunner().invoke(main, ["floor", "demo", "--tables", "0"])
    assert result.exit_code == 2
    assert "--tables" in result.stderr and "Traceback" not in result.output
