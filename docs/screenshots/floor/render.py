"""Render docs/screenshots/floor: the floor dashboard and the meter sign, live from a real floor.

Run from the repository root (no screen needed; Debian's chromium)::

    .venv/bin/python docs/screenshots/floor/render.py [--out docs/screenshots/floor]

(``apt-get install pngquant`` first keeps the files a third of the size.)

It starts a throwaway PostgreSQL (``etg.floor.server``), links ten tables to the Bonus
Spin primary and secondary levels and the Progressive Payout level, and plays a floor's
evening through the controller's own functions as the tables' own roles: a few thousand
contributions, hits paid and validated, one jackpot still waiting for its floorperson, a
tilted table, one whose link has gone quiet and one closed. Then ``etg.web.serve`` and
chromium take the pictures: the dashboard at 1920×1080 and 1366×768, the login, the sign
at 1920×1080, and the sign showing a hit as it lands.
"""

from __future__ import annotations

import argparse
import random
import shutil
import subprocess
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

PIN = "24680"
CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run", "--hide-scrollbars"]
LEVELS = [LevelRules(ProgressiveLevel.PRIMARY, 1_000_000, 1_000_000, 15_000, None),
          LevelRules(ProgressiveLevel.SECONDARY, 500_000, 500_000, 5_000, 2_500_000),
          LevelRules(ProgressiveLevel.PROGRESSIVE_PAYOUT, 2_500_000, 2_500_000, 10_000, None)]
TABLES = [(f"bj{n:02d}", f"BSX-{410 + n:04d}") for n in range(1, 11)]
DEALERS = [f"D0{417 + n}" for n in range(10)]
HOLD_S = 10  # how long the sign shows a hit here: the evening's hits are no news by then


class Floor:
    def __init__(self, server: Server) -> None:
        self.server = server
        self.admin = psycopg.connect(server.uri(), autocommit=True)
        logins = admin.init_floor(self.admin, LEVELS, TABLES)
        self.tables = {login.table_id: psycopg.connect(server.uri(login.role, login.password),
                                                       autocommit=True) for login in logins}
        reader = admin.reader_login(self.admin)
        self.reader_uri = server.uri(reader.role, reader.password)
        self.rounds = dict.fromkeys(self.tables, 0)
        self.last_hit_at = 0.0

    def play(self, table: str, rng: random.Random) -> None:
        """One round's linked wagers: a few seats on the Bonus Spin, now and then the
        Progressive Payout."""
        self.rounds[table] += 1
        round_no = self.rounds[table]
        batch = []
        for seat in rng.sample(range(1, 10), rng.randint(2, 7)):
            batch.append(functions.Contribution(round_no, seat, "primary",
                                                rng.choice([100, 100, 500])))
            batch.append(functions.Contribution(round_no, seat, "secondary",
                                                rng.choice([100, 100, 500])))
            if rng.random() < 0.4:
                batch.append(functions.Contribution(round_no, seat, "progressive_payout", 500))
        functions.ship(self.tables[table], table, batch, chain_seq=round_no,
                       chain_head=f"{round_no:064x}", rounds=round_no)

    def hit(self, table: str, level: str, seat: int, validated: bool) -> functions.Hit:
        conn = self.tables[table]
        hit = functions.claim_hit(conn, table, self.rounds[table], seat, 0, level, 100)
        self.last_hit_at = time.time()
        if validated:
            functions.validate_hit(conn, table, hit.hit_id, "floorperson", "floorperson")
        return hit

    def beat(self, table: str, state: str, index: int) -> None:
        functions.heartbeat(self.tables[table], table, state,
                            None if state == "closed" else DEALERS[index], 0)

    def close(self) -> None:
        for conn in self.tables.values():
            conn.close()
        self.admin.close()


def evening(floor: Floor) -> None:
    rng = random.Random(36_05_03_24)
    names = list(floor.tables)
    for turn in range(1_400):
        floor.play(rng.choice(names[:-1]), rng)  # the last table is closed tonight
        if turn == 300:
            floor.hit("bj04", "secondary", 3, validated=True)
        if turn == 700:
            floor.hit("bj07", "primary", 6, validated=True)
        if turn == 1_000:
            floor.hit("bj02", "progressive_payout", 1, validated=True)
        if turn == 1_200:
            floor.hit("bj09", "secondary", 5, validated=True)
    floor.hit("bj06", "primary", 2, validated=False)
    for _ in range(250):  # the floor plays on while bj06 waits for its floorperson
        floor.play(rng.choice([name for name in names[:-1] if name != "bj06"]), rng)


def states(floor: Floor, *, quiet_table: bool) -> None:
    """Every table's heartbeat; one table's link has gone quiet if ``quiet_table``."""
    for index, table in enumerate(floor.tables):
        if quiet_table and table == "bj08":
            continue
        state = {"bj06": "jackpot", "bj03": "tilted", "bj10": "closed"}.get(table, "open")
        floor.beat(table, state, index)


def shoot(out: Path) -> None:
    from playwright.sync_api import sync_playwright

    out.mkdir(parents=True, exist_ok=True)
    work = Path(tempfile.mkdtemp(prefix="etg-floor-shots-"))
    config = seed_site_config(work / "site")
    set_cabinet_value(config / "cabinet.yaml", "floorperson_pin_hash", hash_pin(PIN))
    try:
        with Server.throwaway(port=0) as server:
            floor = Floor(server)
            try:
                evening(floor)
                floor.beat("bj08", "open", 7)
                time.sleep(4)  # BJ08's last beat is now past the 3 s a link may be quiet
                states(floor, quiet_table=True)
                served = serve(floor.reader_uri, config)
                try:
                    with sync_playwright() as playwright:
                        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS)
                        try:
                            _pictures(browser, floor, served.addresses.dashboard,
                                      served.addresses.sign, out)
                        finally:
                            browser.close()
                finally:
                    served.stop()
            finally:
                floor.close()
    finally:
        shutil.rmtree(work, ignore_errors=True)


def _pictures(browser: Any, floor: Floor, dashboard: str, sign: str, out: Path) -> None:
    for width, height in ((1920, 1080), (1366, 768)):
        page = browser.new_page(viewport={"width": width, "height": height})
        page.goto(dashboard)
        if width == 1920:
            page.wait_for_timeout(300)
            page.screenshot(path=str(out / "login-1920x1080.png"))
        page.fill("#pin", PIN)
        page.click("button[type=submit]")
        page.wait_for_selector("#pending .jackpot")
        states(floor, quiet_table=True)
        page.wait_for_timeout(1_200)
        page.screenshot(path=str(out / f"dashboard-{width}x{height}.png"))
        page.close()
    page = browser.new_page(viewport={"width": 1920, "height": 1080})
    time.sleep(max(0.0, floor.last_hit_at + HOLD_S + 1 - time.time()))  # the evening's are old
    page.goto(sign + f"&hold={HOLD_S}")
    page.wait_for_selector(".meter[data-level='primary'] .figure")
    page.wait_for_timeout(1_500)
    page.screenshot(path=str(out / "sign-1920x1080.png"))
    floor.play("bj05", random.Random(5))
    floor.hit("bj05", "secondary", 7, validated=False)
    page.wait_for_selector("#hit", state="visible")
    page.wait_for_timeout(900)  # the banner has arrived and stopped growing
    page.screenshot(path=str(out / "sign-hit-1920x1080.png"))
    page.close()


def squeeze(folder: Path) -> None:
    """Debian's pngquant, where it is installed, as docs/screenshots/render.py uses it."""
    tool = shutil.which("pngquant")
    if tool is not None:
        subprocess.run([tool, "--quality", "80-98", "--speed", "1", "--force", "--ext",
                        ".png", *map(str, sorted(folder.glob("*.png")))], check=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=Path("docs/screenshots/floor"))
    out = parser.parse_args().out
    shoot(out)
    squeeze(out)


if __name__ == "__main__":
    main()
