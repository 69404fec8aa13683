"""The floor's web pages under test: a real PostgreSQL floor, the web server on a thread, and
Debian's chromium driven by Playwright.

``web_floor`` (a fixture of tests/floor_web_fixtures.py) is a fresh floor database with two
levels and four tables, a site configuration with the floorperson's and the supervisor's
PINs, and ``etg.web.serve`` reading it as the controller's reader login. The tables speak
through the controller's own functions as their own roles (``floor.ship``,
``floor.claim_hit``), as a linked table does, so every change reaches the pages the way a
real one would: committed, NOTIFY, LISTEN, a re-read, the event stream.

The browser tests skip, saying why, where no chromium is installed.
"""

from __future__ import annotations

import shutil
import urllib.error
import urllib.request
from dataclasses import dataclass, field
from http.client import HTTPResponse
from pathlib import Path
from typing import Any

import psycopg

from etg.config.cabinet_edit import set_cabinet_value
from etg.config.loader import seed_site_config
from etg.floor import admin, functions
from etg.table.pin import hash_pin
from etg.web.serve import Place, Served, serve
from tests.floor_support import Floor

FLOORPERSON_PIN, SUPERVISOR_PIN, OPERATOR_PIN = "2468", "13579", "1111"
TABLES = ("t1", "t2", "t3", "t4")
ASSETS = {table: f"A-{table.upper()}" for table in TABLES}  # as floor_support's Floor.init names them

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]


def site_config(folder: Path) -> Path:
    """A site configuration with the floorperson's, the supervisor's and the operator's PINs."""
    config = seed_site_config(folder)
    cabinet = config / "cabinet.yaml"
    set_cabinet_value(cabinet, "floorperson_pin_hash", hash_pin(FLOORPERSON_PIN))
    set_cabinet_value(cabinet, "supervisor_pin_hash", hash_pin(SUPERVISOR_PIN))
    set_cabinet_value(cabinet, "operator_pin_hash", hash_pin(OPERATOR_PIN))
    return config


@dataclass
class WebFloor:
    """A floor, its tables' connections, and the web server reading it (``floor`` None: a
    server of the test's own, whose tables the test drives itself)."""

    floor: Floor | None
    config_dir: Path
    logins: dict[str, admin.TableLogin]
    reader_uri: str
    served: Served | None = None
    _tables: dict[str, psycopg.Connection[Any]] = field(default_factory=dict)
    _seq: dict[str, int] = field(default_factory=dict)

    @property
    def url(self) -> str:
        assert self.served is not None
        return self.served.addresses.dashboard.rstrip("/")

    @property
    def sign_url(self) -> str:
        assert self.served is not None
        return self.served.addresses.sign

    def start(self, place: Place | None = None) -> Served:
        self.served = serve(self.reader_uri, self.config_dir, place)
        return self.served

    def stop(self) -> None:
        if self.served is not None:
            self.served.stop()
            self.served = None

    def table(self, table_id: str) -> psycopg.Connection[Any]:
        assert self.floor is not None
        if table_id not in self._tables:
            self._tables[table_id] = self.floor.table(self.logins[table_id])
        return self._tables[table_id]

    def ship(self, table_id: str, round_no: int, seat: int, level: str,
             wager_cents: int) -> functions.Shipped:
        """One linked wager's contribution, as the table's link ships it; committed on return."""
        seq = self._seq.get(table_id, 0) + 1
        self._seq[table_id] = seq
        return functions.ship(self.table(table_id), table_id,
                              [functions.Contribution(round_no, seat, level, wager_cents)],
                              chain_seq=seq, chain_head=f"{seq:064x}", rounds=round_no)

    def beat(self, table_id: str, state: str = "open", dealer: str | None = "D0417",
             outbox: int = 0) -> None:
        functions.heartbeat(self.table(table_id), table_id, state, dealer, outbox)

    def meter(self, level: str) -> int:
        assert self.floor is not None
        row = self.floor.admin().execute(
            "SELECT current_cents FROM floor.level_meters WHERE level = %s", (level,)).fetchone()
        assert row is not None
        return int(row[0])


def logged_in(context: Any, web: WebFloor, pin: str = FLOORPERSON_PIN) -> Any:
    """A page of ``context`` on the dashboard, logged in with ``pin``, its first picture shown."""
    page = context.new_page()
    page.goto(web.url + "/")
    page.fill("#pin", pin)
    page.click("button[type=submit]")
    page.wait_for_selector(".level .meter")
    return page


def shown_cents(page: Any, level: str, selector: str = ".level[data-level='{}'] .meter") -> int:
    return int(page.get_attribute(selector.format(level), "data-cents"))


def wait_for_cents(page: Any, level: str, cents: int, *,
                   selector: str = ".level[data-level='{}'] .meter") -> None:
    """Until the page's meter for ``level`` says ``cents`` (Playwright's 30 s at most)."""
    page.wait_for_function(
        "([sel, cents]) => { const m = document.querySelector(sel);"
        " return m !== null && m.dataset.cents === String(cents); }",
        arg=[selector.format(level), cents])


# --- plain HTTP, no browser ---------------------------------------------------------------------

class _NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args: Any, **kwargs: Any) -> None:
        return None


def http(url: str, *, data: bytes | None = None, cookie: str | None = None,
         context: Any = None) -> tuple[int, dict[str, str], str]:
    """(status, headers, body) of one request, redirects not followed."""
    request = urllib.request.Request(url, data=data)
    if cookie is not None:
        request.add_header("Cookie", cookie)
    opener = urllib.request.build_opener(_NoRedirect(), urllib.request.HTTPSHandler(
        context=context))
    try:
        response: HTTPResponse = opener.open(request, timeout=30)
    except urllib.error.HTTPError as error:
        return error.code, _headers(error.headers.items()), error.read().decode(errors="replace")
    with response:
        return (response.status, _headers(response.headers.items()),
                response.read().decode(errors="replace"))


def _headers(pairs: Any) -> dict[str, str]:
    return {name.lower(): value for name, value in pairs}


def login(url: str, pin: str, context: Any = None) -> tuple[int, dict[str, str], str]:
    return http(url + "/login", data=f"pin={pin}".encode(), context=context)
