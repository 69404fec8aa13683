"""A kiosk in a real window on an X display (Xvfb), resized over and over while it plays.

Its frames are scaled straight into the window on a thread (etg.ui.screen), and SDL frees a
window's pixels when it handles a resize: the App finishes each scaling before it reads the
events. Without that, this kiosk crashed (SIGSEGV) within a few dozen resizes.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests import kiosk_support as k

# Run on the X display by xvfb-run: starts the kiosk, then resizes its window (found by
# its process id, which SDL gives the window) every few frames until the kiosk ends.
RESIZER = r"""
import subprocess, sys, time
kiosk = subprocess.Popen(sys.argv[1:])
resized = 0
while kiosk.poll() is None:
    found = subprocess.run(["xdotool", "search", "--pid", str(kiosk.pid)],
                           capture_output=True, text=True).stdout.split()
    if found:
        width, height = 900 + resized % 7 * 150, 500 + resized % 5 * 120
        done = subprocess.run(["xdotool", "windowsize", found[0], str(width), str(height)],
                              capture_output=True)
        resized += done.returncode == 0
    time.sleep(0.05)
print(f"resized {resized} exit {kiosk.returncode}")
"""


@pytest.mark.slow  # a demo round in a window: a minute or two
@pytest.mark.skipif(shutil.which("xvfb-run") is None or shutil.which("xdotool") is None,
                    reason="no X display to resize a window on: Debian's xvfb and xdotool")
def test_a_window_resized_over_and_over_while_its_frames_are_scaled_plays_on(
        tmp_path: Path) -> None:
    config = k.sized(k.config_copy(tmp_path, "maryland-community-7.yaml"), (1280, 800))
    env = {key: value for key, value in os.environ.items()
           if key not in ("DISPLAY", "WAYLAND_DISPLAY", "SDL_VIDEODRIVER")}
    result = subprocess.run(
        ["xvfb-run", "-a", "-s", "-screen 0 2560x1600x24", sys.executable, "-c", RESIZER,
         sys.executable, "-m", "etg", "run", "--windowed", "--demo", "--rounds", "1",
         "--config", str(config), "--db", str(tmp_path / "table.db")],
        capture_output=True, text=True, env=env, cwd=tmp_path, timeout=900, check=False)
    assert result.returncode == 0, result.stderr
    resized, code = result.stdout.split()[1::2]
    assert code == "0", result.stderr  # not -11: no crash
    assert int(resized) >= 50, result.stdout  # the window really was resized, many times
