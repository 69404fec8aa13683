"""The floor's pages in a real browser (Debian's chromium through Playwright), live from a real
floor: every table listed, a contribution shipped by a table moving the open pages' meters
without a reload, a hit on the sign with the winning table's asset number and seat, the
waiting jackpot first, the login refusing a wrong PIN, a reconnecting page, the sorting, and
both pages fitting their screens."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import psycopg
import pytest

from etg.floor import admin, functions
from etg.web.serve import Place
from tests.floor_support import PRIMARY_RULES, SECONDARY_RULES, own_server
from tests.floor_web_support import (
    ASSETS,
    FLOORPERSON_PIN,
    TABLES,
    WebFloor,
    logged_in,
    shown_cents,
    site_config,
    wait_for_cents,
)

pytestmark = pytest.mark.slow  # a browser and a server per test

SIGN = ".meter[data-level='{}'] .figure"
TODAY = ".level[data-level='{}'] dd.today"  # the level's contributions today

pytest_plugins = ["tests.floor_web_fixtures"]  # web_floor, chromium, browser


def money(cents: int) -> str:
    return f"${cents // 100:,}.{cents % 100:02d}"


def test_the_dashboard_lists_every_table_with_its_asset_number_state_and_dealer(
        web_floor: WebFloor, browser: Any) -> None:
    for table in TABLES:
        web_floor.beat(table, state="open", dealer="D0417")
    page = logged_in(browser, web_floor)
    page.wait_for_function("() => document.querySelectorAll('#tables tbody tr').length === 4")
    rows = page.eval_on_selector_all(
        "#tables tbody tr", "rows => rows.map(r => [...r.cells].map(c => c.textContent))")
    assert sorted((row[0], row[1], row[2], row[3], row[6]) for row in rows) == [
        (table, ASSETS[table], "Open", "up", "D0417") for table in TABLES]


def test_a_contribution_moves_the_meter_on_the_open_pages_without_a_reload(
        web_floor: WebFloor, browser: Any) -> None:
    dashboard = logged_in(browser, web_floor)
    sign = browser.new_page()
    sign.goto(web_floor.sign_url)
    before = web_floor.meter("primary")
    wait_for_cents(sign, "primary", before, selector=SIGN)
    assert shown_cents(dashboard, "primary") == before
    dashboard.evaluate("window.stillTheSamePage = true")
    sign.evaluate("window.stillTheSamePage = true")

    today = shown_cents(dashboard, "primary", TODAY)
    shipped = web_floor.ship("t2", 1, 3, "primary", 50_000)  # $500 at 1.5 %: $7.50
    after = shipped.meters["primary"]
    assert after == before + 750

    wait_for_cents(dashboard, "primary", after)
    wait_for_cents(dashboard, "primary", today + 750, selector=TODAY)  # contributions today
    assert dashboard.inner_text(TODAY.format("primary")) == money(today + 750)
    assert dashboard.inner_text(".level[data-level='primary'] .meter") == money(after)
    wait_for_cents(sign, "primary", after, selector=SIGN)
    sign.wait_for_function("([sel, text]) => document.querySelector(sel).textContent === text",
                           arg=[SIGN.format("primary"), money(after)])  # counted up to it
    assert dashboard.evaluate("window.stillTheSamePage") is True
    assert sign.evaluate("window.stillTheSamePage") is True


def test_a_hit_shows_on_the_sign_with_the_winning_table_and_seat_then_the_reset_meter(
        web_floor: WebFloor, browser: Any) -> None:
    sign = browser.new_page()
    sign.goto(web_floor.sign_url + "&hold=2")
    web_floor.ship("t3", 7, 4, "primary", 100_000)
    wait_for_cents(sign, "primary", web_floor.meter("primary"), selector=SIGN)
    assert sign.is_hidden("#hit")

    hit = functions.claim_hit(web_floor.table("t3"), "t3", 7, 4, 0, "primary", 100)
    sign.wait_for_selector("#hit", state="visible")
    assert sign.get_attribute("#hit", "data-hit") == str(hit.hit_id)
    assert sign.inner_text("#hit-amount") == money(hit.amount_cents)
    assert sign.inner_text("#hit-where") == "TABLE A-T3 · SEAT 4"
    assert sign.inner_text("#hit-level") == "BONUS SPIN JACKPOT"
    assert shown_cents(sign, "primary", SIGN) == hit.reset_to_cents  # under the banner

    sign.wait_for_selector("#hit", state="hidden", timeout=10_000)
    assert sign.inner_text(SIGN.format("primary")) == money(hit.reset_to_cents)
    assert sign.inner_text("#last") == (f"LAST WIN {money(hit.amount_cents)} · BONUS SPIN "
                                        f"JACKPOT · TABLE A-T3 · SEAT 4")


def test_a_jackpot_waiting_for_validation_is_first_and_goes_once_validated(
        web_floor: WebFloor, browser: Any) -> None:
    page = logged_in(browser, web_floor)
    assert page.is_hidden("#pending")
    web_floor.ship("t4", 2, 1, "secondary", 20_000)
    hit = functions.claim_hit(web_floor.table("t4"), "t4", 2, 1, 0, "secondary", 100)
    page.wait_for_selector("#pending .jackpot", state="visible")
    assert page.inner_text("#pending .jackpot .where") == "Table A-T4 · seat 1"
    assert page.inner_text("#pending .jackpot .amount") == money(hit.amount_cents)
    first = page.evaluate("document.querySelector('#pending').getBoundingClientRect().top")
    levels = page.evaluate("document.querySelector('#levels').getBoundingClientRect().top")
    assert first < levels  # above everything but the title bar
    assert page.get_attribute("#hits tbody tr", "data-hit") == str(hit.hit_id)

    functions.validate_hit(web_floor.table("t4"), "t4", hit.hit_id, "floorperson", "floorperson")
    page.wait_for_selector("#pending", state="hidden")
    assert page.inner_text("#hits tbody tr td:last-child") == "floorperson"


def test_a_wrong_pin_is_refused_on_the_login_page(web_floor: WebFloor, browser: Any) -> None:
    page = browser.new_page()
    page.goto(web_floor.url + "/")
    assert page.url == web_floor.url + "/login"
    page.fill("#pin", "9999")
    page.click("button[type=submit]")
    assert page.inner_text("#message") == ("Wrong PIN: a floorperson's or a supervisor's PIN "
                                           "opens the floor.")
    assert browser.cookies() == []
    page.fill("#pin", FLOORPERSON_PIN)
    page.click("button[type=submit]")
    page.wait_for_selector(".level .meter")
    assert page.url == web_floor.url + "/"


def test_a_sign_that_lost_its_server_reads_everything_again_when_it_comes_back(
        web_floor: WebFloor, browser: Any) -> None:
    sign = browser.new_page()
    sign.goto(web_floor.sign_url)
    wait_for_cents(sign, "primary", web_floor.meter("primary"), selector=SIGN)
    port = int(web_floor.url.rsplit(":", 1)[1])
    sign.evaluate("window.stillTheSamePage = true")
    web_floor.stop()
    sign.wait_for_selector("#link.down")
    shipped = web_floor.ship("t1", 1, 2, "primary", 30_000)  # no page could hear of it
    web_floor.start(Place(port=port))
    wait_for_cents(sign, "primary", shipped.meters["primary"], selector=SIGN)
    sign.wait_for_selector("#link.down", state="detached")
    assert sign.evaluate("window.stillTheSamePage") is True


def test_a_dashboard_whose_server_restarted_asks_for_the_pin_again(
        web_floor: WebFloor, browser: Any) -> None:
    page = logged_in(browser, web_floor)
    port = int(web_floor.url.rsplit(":", 1)[1])
    web_floor.stop()
    page.wait_for_selector("#link.down")
    web_floor.start(Place(port=port))  # sessions live in the server's memory only
    page.wait_for_url(web_floor.url + "/login")
    page.fill("#pin", FLOORPERSON_PIN)
    page.click("button[type=submit]")
    page.wait_for_selector(".level .meter")


def test_the_page_never_shows_a_meter_going_down_without_a_hit_or_an_adjustment(
        web_floor: WebFloor, browser: Any) -> None:
    page = logged_in(browser, web_floor)
    shown = page.evaluate("""async () => {
        const { MeterGuard } = await import('/static/floor.js');
        const guard = new MeterGuard();
        const level = (cents, hits, adjustments, contributions) =>
            ({ level: 'primary', current_cents: cents, hits, adjustments,
               contributions_cents: contributions });
        return [
            guard.accept(level(1000, 0, 0, 10)),
            guard.accept(level(1200, 0, 0, 30)),
            guard.accept(level(1100, 0, 0, 30)),   // lower, nothing recorded: kept at 1200
            guard.accept(level(1000, 0, 0, 10)),   // an older read: set aside
            guard.accept(level(500, 1, 0, 40)),    // a hit: the reset shows
            guard.accept(level(1250, 0, 0, 35)),   // from before the hit: set aside
            guard.accept(level(400, 1, -100, 40)), // a signed adjustment down: shows
            guard.accept(level(450, 1, -100, 45)),
        ];
    }""")
    assert shown == [1000, 1200, 1200, 1200, 500, 500, 400, 450]


def test_the_tables_sort_by_any_column_both_ways(web_floor: WebFloor, browser: Any) -> None:
    for rounds, table in ((5, "t3"), (9, "t1"), (1, "t4"), (7, "t2")):
        for round_no in range(1, rounds + 1):
            web_floor.ship(table, round_no, 1, "secondary", 500)
    for table in TABLES:
        web_floor.beat(table)
    page = logged_in(browser, web_floor)
    page.wait_for_function("() => [...document.querySelectorAll('#tables tbody tr td:last-child')]"
                           ".map(c => c.textContent).sort().join() === '1,5,7,9'")

    def order() -> list[str]:
        return page.eval_on_selector_all("#tables tbody tr", "rows => rows.map(r => r.dataset.table)")

    page.click("#tables th[data-key='rounds_today']")
    assert order() == ["t4", "t3", "t2", "t1"]
    page.click("#tables th[data-key='rounds_today']")
    assert order() == ["t1", "t2", "t3", "t4"]
    assert page.get_attribute("#tables th[data-key='rounds_today']", "aria-sort") == "descending"
    page.focus("#tables th[data-key='asset_number']")
    page.keyboard.press("Enter")  # from the keyboard as well
    assert order() == ["t1", "t2", "t3", "t4"]
    page.keyboard.press("Enter")
    assert order() == ["t4", "t3", "t2", "t1"]


@pytest.mark.parametrize(("width", "height"), [(1366, 768), (1920, 1080)])
def test_both_pages_fit_the_screen_without_scroll_bars(web_floor: WebFloor, chromium: Any,
                                                       width: int, height: int) -> None:
    context = chromium.new_context(viewport={"width": width, "height": height})
    try:
        for table in TABLES:
            web_floor.beat(table)
        dashboard = logged_in(context, web_floor)
        sign = context.new_page()
        sign.goto(web_floor.sign_url)
        sign.wait_for_selector(SIGN.format("primary"))
        fits = ("() => { const e = document.scrollingElement;"
                " return [e.scrollWidth <= innerWidth, e.scrollHeight <= innerHeight]; }")
        assert dashboard.evaluate(fits) == [True, True]
        assert sign.evaluate(fits) == [True, True]
        # Every meter's figure fits inside its frame on the sign.
        inside = sign.eval_on_selector_all(".meter", """frames => frames.map(f => {
            const box = f.getBoundingClientRect();
            const figure = f.querySelector('.figure').getBoundingClientRect();
            return figure.left >= box.left && figure.right <= box.right; })""")
        assert inside == [True, True]
    finally:
        context.close()


def test_the_pages_say_when_the_controller_is_down_and_read_it_all_again_when_it_is_back(
        chromium: Any, tmp_path: Path) -> None:
    """PostgreSQL SIGKILLed under the open dashboard and sign: both say the controller is
    unreachable (never passing the old figures off as live), and once it is back they show
    what it holds, without a reload."""
    with own_server() as server:
        with psycopg.connect(server.uri(), autocommit=True) as conn:
            [login] = admin.init_floor(conn, [PRIMARY_RULES, SECONDARY_RULES], [("t1", "A-T1")])
            reader = admin.reader_login(conn)
        web = WebFloor(None, site_config(tmp_path / "site"), {},
                       server.uri(reader.role, reader.password))
        web.start()
        context = chromium.new_context(viewport={"width": 1920, "height": 1080})
        try:
            dashboard = logged_in(context, web)
            sign = context.new_page()
            sign.goto(web.sign_url)
            sign.wait_for_selector(SIGN.format("primary"))
            dashboard.evaluate("window.stillTheSamePage = true")

            server.kill()
            dashboard.wait_for_selector("#link.down")
            assert dashboard.inner_text("#link").startswith("CONTROLLER UNREACHABLE since ")
            sign.wait_for_selector("#link.down")

            server.restart()
            with psycopg.connect(server.uri(login.role, login.password), autocommit=True) as table:
                shipped = functions.ship(table, "t1", [functions.Contribution(1, 1, "primary",
                                                                              20_000)],
                                         chain_seq=1, chain_head="0" * 64, rounds=1)
            wait_for_cents(dashboard, "primary", shipped.meters["primary"])
            wait_for_cents(sign, "primary", shipped.meters["primary"], selector=SIGN)
            dashboard.wait_for_selector("#link.live")
            assert dashboard.evaluate("window.stillTheSamePage") is True
        finally:
            context.close()
            web.stop()
