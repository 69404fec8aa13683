"""The par sheet looked at as a page: headless Chromium (Debian's ``chromium``) screenshots it.

Skipped when ``/usr/bin/chromium`` is absent (CI may not have it). The
screenshot must be an A4-shaped page (1240 × 1754) with the page drawn on
it: enough ink, and the wheel's colours, not a blank or an error page.
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from etg.config.loader import load_paytable
from etg.config.places import shipped_config_dir
from etg.math.parsheet.figures import par_sheet
from etg.math.parsheet.html import render

CHROMIUM = Path("/usr/bin/chromium")
PAGE = (1240, 1754)

pytestmark = [pytest.mark.slow,
              pytest.mark.skipif(not CHROMIUM.exists(), reason="needs Debian's chromium")]


def screenshot(html: Path, png: Path, profile: Path, height: int = PAGE[1]) -> None:
    """One screenshot of ``html``'s top, ``PAGE[0]`` wide and ``height`` high."""
    subprocess.run(
        [str(CHROMIUM), "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
         "--no-first-run", "--disable-background-networking", "--disable-component-update",
         "--disable-sync", f"--user-data-dir={profile}", "--hide-scrollbars",
         f"--window-size={PAGE[0]},{height}", f"--screenshot={png}", html.as_uri()],
        check=True, capture_output=True, timeout=120)


def test_the_seven_spot_sheet_renders_in_chromium(tmp_path: Path) -> None:
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    import pygame

    loaded = load_paytable(shipped_config_dir() / "paytables" / "maryland-community-7.yaml")
    html = tmp_path / "sheet.html"
    html.write_text(render(par_sheet(loaded)), encoding="utf-8")
    png = tmp_path / "page.png"
    screenshot(html, png, tmp_path / "profile", height=6000)
    image = pygame.image.load(str(png))
    assert image.get_size() == (PAGE[0], 6000)
    ink = coloured = 0
    for y in range(0, 6000, 7):
        for x in range(0, PAGE[0], 7):
            r, g, b, *_ = image.get_at((x, y))
            if min(r, g, b) < 200:
                ink += 1
            if max(r, g, b) - min(r, g, b) > 80:
                coloured += 1
    assert ink > 2_000, ink  # text, table rules and charts
    assert coloured > 500, coloured  # the bars and the wheel's segments


@pytest.mark.parametrize("file", sorted(p.name for p in (shipped_config_dir() / "paytables")
                                         .glob("*.yaml")))
def test_every_shipped_paytables_sheet_opens_as_a_page(tmp_path: Path, file: str) -> None:
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    import pygame

    loaded = load_paytable(shipped_config_dir() / "paytables" / file)
    html = tmp_path / "sheet.html"
    html.write_text(render(par_sheet(loaded, sim_rounds=0)), encoding="utf-8")
    png = tmp_path / "page.png"
    screenshot(html, png, tmp_path / "profile")
    image = pygame.image.load(str(png))
    ink = sum(1 for y in range(0, PAGE[1], 9) for x in range(0, PAGE[0], 9)
              if min(image.get_at((x, y))[:3]) < 200)
    assert ink > 600, (file, ink)  # the title, the identity and the rules tables
