"""``etg floor demo`` (issue 27, item 5): a throwaway floor, linked bot tables, exact books."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path
from typing import Any

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


@pytest.mark.slow
@pytest.mark.skipif(shutil.which("xvfb-run") is None,
                    reason="no X display to open a window on: Debian's xvfb is not installed")
def test_the_windowed_demo_plays_in_a_real_window_on_an_x_display(tmp_path: Path) -> None:
    # SDL's own driver choice, as on a cabinet (no SDL_VIDEODRIVER): under Xvfb that is X11.
    # A kiosk that found no screen would refuse in one line (tests/test_kiosk_screens.py);
    # here the window opens, its table plays its round linked with the other, and the
    # floor's books come out exact.
    env = {key: value for key, value in os.environ.items()
           if key not in ("DISPLAY", "WAYLAND_DISPLAY", "SDL_VIDEODRIVER")}
    result = subprocess.run(
        ["xvfb-run", "-a", "-s", "-screen 0 1280x800x24", sys.executable, "-m", "etg",
         "floor", "demo", "--tables", "2", "--rounds", "1", "--windowed", "--seed", "3"],
        capture_output=True, text=True, env=env, cwd=tmp_path, timeout=600, check=False)
    assert result.returncode == 0, result.stderr
    assert "no display" not in result.stderr
    assert "reconciliation: exact" in result.stdout


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


def _picture_levels(stream: Any) -> dict[str, int]:
    """The next ``floor`` event of a page's stream: each level's current cents."""
    for raw in stream:
        line = raw.decode("utf-8").rstrip("\n")
        if line.startswith("data: "):
            data = json.loads(line[len("data: "):])
            if "levels" in data:
                return {level["level"]: int(level["current_cents"]) for level in data["levels"]}
    raise AssertionError("the stream ended")


@pytest.mark.slow
def test_the_demo_with_web_prints_both_pages_and_they_follow_the_tables_live() -> None:
    """Issue 28: ``etg floor demo --tables 4 --web`` prints the dashboard's and the sign's
    addresses; the dashboard opens with the demo's floorperson PIN, the sign with its link,
    and both pages' streams carry the pool as the tables play, without a reload."""
    demo = subprocess.Popen([sys.executable, "-m", "etg", "floor", "demo", "--tables", "4",
                             "--rounds", "60", "--seed", "5", "--json", "--web"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert demo.stderr is not None
        said: dict[str, str] = {}
        while len(said) < 2:
            line = demo.stderr.readline()
            assert line, f"the demo ended first (exit {demo.poll()})"
            for name in ("dashboard", "meter sign"):
                if line.startswith(f"{name}: "):
                    said[name] = line.split(": ", 1)[1].strip()
        dashboard, pin = said["dashboard"].split()[0], said["dashboard"].split("PIN ")[1][:6]
        assert dashboard.startswith("http://127.0.0.1:") and pin.isdigit()
        sign = urllib.parse.urlsplit(said["meter sign"])
        assert sign.path == "/sign" and sign.query.startswith("t=")

        no_redirects = urllib.request.build_opener(_NoRedirect)
        with pytest.raises(urllib.error.HTTPError) as refused:  # a wrong PIN opens nothing
            no_redirects.open(urllib.request.Request(
                dashboard + "login", data=urllib.parse.urlencode({"pin": "000000" if pin != "000000"
                                                                   else "111111"}).encode()))
        assert refused.value.code == 401
        with pytest.raises(urllib.error.HTTPError) as logged_in:  # 303 to the dashboard
            no_redirects.open(urllib.request.Request(
                dashboard + "login", data=urllib.parse.urlencode({"pin": pin}).encode()))
        assert logged_in.value.code == 303
        cookie = logged_in.value.headers["set-cookie"].split(";")[0]
        page = urllib.request.Request(dashboard + "events", headers={"Cookie": cookie})
        origin = f"{sign.scheme}://{sign.netloc}"
        with urllib.request.urlopen(page, timeout=30) as board, \
                urllib.request.urlopen(f"{origin}/sign/events?{sign.query}", timeout=30) as shown:
            first, first_sign = _picture_levels(board), _picture_levels(shown)
            moved = False
            for _ in range(200):  # contributions arrive as the four tables play
                later = _picture_levels(board)
                if later != first:
                    moved = True
                    break
            assert moved, "the dashboard's stream never carried a new meter"
            assert first_sign.keys() == first.keys() == {"primary", "secondary"}
    finally:
        demo.terminate()
        demo.wait(timeout=60)


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args: Any, **kwargs: Any) -> None:
        return None
