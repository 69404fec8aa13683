"""The floor's web pages: contribution committed at a table → shown on the open dashboard,
measured in the browser (``web_display_ms_p99``; issue 28: p99 ≤ 1,000 ms).

A throwaway PostgreSQL (``etg.floor.server``, the pip package's binaries) with two linked
levels and four tables; the web server (``etg.web.serve``) reading it as the reader login;
Debian's chromium (Playwright) logged in on the dashboard at 1920×1080. One table ships
one contribution at a time through ``floor.ship`` as its own role, as a linked table's
link does, notes the wall-clock time the commit returned, then ``floor.announce``s it as the
link does (the NOTIFY follows the answer, migration 005); the page notes, on its own
clock (``performance.timeOrigin + performance.now()``, the same system clock), the moment
its meter first carries the new cents, seen by a MutationObserver on the levels. The
difference is the whole path: NOTIFY, LISTEN, the web server's re-read of the floor, the
event stream, the page's parse and render. Contributions come at random gaps of 50 to
250 ms, faster than a table's rounds, so the re-reads overlap the next commit.

``web_display_ms`` carries the p50 and the worst beside; ``quick``: 5 contributions.
Without chromium the figure is null and ``web_display_note`` says why.
"""

from __future__ import annotations

import random
import shutil
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

import psycopg

from etg.config.cabinet_edit import set_cabinet_value
from etg.config.loader import seed_site_config
from etg.core.paytable import ProgressiveLevel
from etg.floor import admin, functions
from etg.floor.admin import LevelRules
from etg.floor.server import Server
from etg.table.pin import hash_pin
from etg.web.serve import serve

CONTRIBUTIONS = 300
QUICK_CONTRIBUTIONS = 5
PIN = "24680"
CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run"]

WATCH = """() => {
  window.benchSeen = new Map();
  const note = () => {
    const meter = document.querySelector(".level[data-level='primary'] .meter");
    if (meter && !window.benchSeen.has(meter.dataset.cents))
      window.benchSeen.set(meter.dataset.cents, performance.timeOrigin + performance.now());
  };
  new MutationObserver(note).observe(document.getElementById("levels"),
                                     {childList: true, subtree: true, attributes: true});
  note();
}"""


def measure(config_dir: Path, *, quick: bool = False) -> dict[str, object]:
    if not Path(CHROMIUM).exists():
        return {"web_display_ms_p99": None, "web_display_ms": None,
                "web_display_note": "no chromium here (Debian's chromium, /usr/bin/chromium)"}
    folder = Path(tempfile.mkdtemp(prefix="etg-bench-web-"))
    try:
        ms = _latencies(folder, QUICK_CONTRIBUTIONS if quick else CONTRIBUTIONS)
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    ms.sort()
    p99 = ms[int(0.99 * (len(ms) - 1))]
    return {"web_display_ms_p99": round(p99, 1),
            "web_display_ms": {"p50": round(statistics.median(ms), 1), "p99": round(p99, 1),
                               "worst": round(ms[-1], 1), "contributions": len(ms)}}


def _latencies(folder: Path, count: int) -> list[float]:
    from playwright.sync_api import sync_playwright

    config = seed_site_config(folder / "site")
    set_cabinet_value(config / "cabinet.yaml", "floorperson_pin_hash", hash_pin(PIN))
    with Server.throwaway(port=0) as server:
        with psycopg.connect(server.uri(), autocommit=True) as conn:
            logins = admin.init_floor(
                conn, [LevelRules(ProgressiveLevel.PRIMARY, 1_000_000, 1_000_000, 15_000, None),
                       LevelRules(ProgressiveLevel.SECONDARY, 500_000, 500_000, 5_000, None)],
                [(f"t{n}", f"A-T{n}") for n in range(1, 5)])
            reader = admin.reader_login(conn)
        served = serve(server.uri(reader.role, reader.password), config)
        table = psycopg.connect(server.uri(logins[0].role, logins[0].password), autocommit=True)
        try:
            with sync_playwright() as playwright:
                browser = playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS)
                try:
                    page = browser.new_page(viewport={"width": 1920, "height": 1080})
                    _log_in(page, served.addresses.dashboard)
                    return _ship_and_watch(page, table, logins[0].table_id, count)
                finally:
                    browser.close()
        finally:
            table.close()
            served.stop()


def _log_in(page: Any, dashboard: str) -> None:
    page.goto(dashboard)
    page.fill("#pin", PIN)
    page.click("button[type=submit]")
    page.wait_for_selector(".level[data-level='primary'] .meter")
    page.evaluate(WATCH)


def _ship_and_watch(page: Any, table: psycopg.Connection[Any], table_id: str,
                    count: int) -> list[float]:
    gaps = random.Random(28)
    committed: list[tuple[int, float]] = []
    for round_no in range(1, count + 1):
        shipped = functions.ship(table, table_id,
                                 [functions.Contribution(round_no, 1, "primary", 10_000)],
                                 chain_seq=round_no, chain_head=f"{round_no:064x}",
                                 rounds=round_no, announce_new=False)
        committed.append((shipped.meters["primary"], time.time() * 1_000))
        functions.announce(table, table_id)  # as the link does, once the commit is answered
        time.sleep(gaps.uniform(0.05, 0.25))
    last = committed[-1][0]
    page.wait_for_function("(cents) => window.benchSeen.has(cents)", arg=str(last))
    seen: dict[str, float] = dict(page.evaluate("[...window.benchSeen.entries()]"))
    # A meter the page skipped (two commits inside one re-read) was shown with the next one.
    out = []
    for cents, at in committed:
        shown = min(when for value, when in seen.items() if int(value) >= cents)
        out.append(shown - at)
    return out
