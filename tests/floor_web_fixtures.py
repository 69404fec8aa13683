"""The fixtures of the floor's web pages' tests (tests/test_floor_web_*.py name this module in
``pytest_plugins``): a served floor, and Debian's chromium. The helpers they use are in
tests/floor_web_support.py."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from etg.floor import admin
from tests.floor_support import Floor
from tests.floor_web_support import CHROMIUM, CHROMIUM_ARGS, TABLES, WebFloor, site_config


@pytest.fixture
def web_floor(floor: Floor, tmp_path: Path) -> Iterator[WebFloor]:
    logins = floor.init(tables=TABLES)
    reader = admin.reader_login(floor.admin())
    made = WebFloor(floor, site_config(tmp_path / "site"), logins, floor.table_uri(reader))
    made.start()
    try:
        yield made
    finally:
        made.stop()


@pytest.fixture(scope="module")
def chromium() -> Iterator[Any]:
    """One headless chromium for a module's tests (Debian's; Playwright drives it).

    Not for the session: Playwright's synchronous API keeps an asyncio loop running on the
    main thread while it is open, and any later test of the worker that calls
    ``asyncio.run`` would fail ("cannot be called from a running event loop").
    """
    if not Path(CHROMIUM).exists():
        pytest.skip("no chromium here (Debian's chromium package, /usr/bin/chromium): the "
                    "floor pages' browser tests need a real browser")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            yield browser
        finally:
            browser.close()


@pytest.fixture
def browser(chromium: Any) -> Iterator[Any]:
    """A fresh browser context (no cookies) at 1920×1080, closed after the test."""
    context = chromium.new_context(viewport={"width": 1920, "height": 1080})
    try:
        yield context
    finally:
        context.close()
