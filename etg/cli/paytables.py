"""``etg paytable list`` and ``etg paytable activate``: the paytables on this cabinet, and the
switch to another between rounds (SPEC §5: "only between rounds with no credits on any seat,
by an operator, logged").

The switch goes through the same controller path as the operator menu's SWITCH
(:func:`etg.table.switch.switch_paytable`), with the same records on the event
log (:mod:`etg.table.records`): the operator's PIN attempt, then the action with
the file, id, hash and any refusal. The ledger is the record of what is played:
the table is opened on the paytable the ledger's last switch made active, so an
operator who edited ``cabinet.yaml`` by hand resolves the start-up tilt here.
"""

from __future__ import annotations

import json
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, NoReturn

import click
from rich.console import Console
from rich.table import Table as Table_

from etg.cli.figures import paytable
from etg.cli.program import (
    _cabinet_or_exit,
    _logging,
    _refuse,
    _writer_lock,
    cabinet_ledger,
    say,
)
from etg.config.cabinet import Cabinet
from etg.config.loader import LoadedPaytable, default_config_dir, load_paytable
from etg.config.problems import ConfigError

if TYPE_CHECKING:
    from etg.ledger.store import Ledger
    from etg.table.controller import Table

REFUSED = 1
"""Exit code when the table refuses: a round under way, credits on a seat, a tilt, a wrong PIN."""

_CONFIG = click.option("--config", "config_dir", type=click.Path(file_okay=False, path_type=Path),
                       help="Site configuration directory with cabinet.yaml and paytables/ "
                            "(default: ETG_CONFIG_DIR, else ~/.config/etg, /etc/etg on a "
                            "cabinet; etg paths shows it).")
_DB = click.option("--db", "db_path", type=click.Path(dir_okay=False, path_type=Path),
                   help="Ledger file (default: the cabinet's ledger).")


@dataclass(frozen=True)
class Listed:
    """One file of ``paytables/``: loaded and validated, or the reason it cannot be."""

    file: Path
    loaded: LoadedPaytable | None
    error: str | None

    @property
    def id(self) -> str | None:
        return None if self.loaded is None else self.loaded.paytable.id


def listed(folder: Path) -> list[Listed]:
    """Every ``*.yaml`` of ``folder`` as the table would load it, by file name."""
    out = []
    for path in sorted(folder.glob("*.yaml")):
        try:
            out.append(Listed(path, load_paytable(path), None))
        except ConfigError as error:
            first = error.problems[0] if error.problems else None
            out.append(Listed(path, None, f"{first.key_path}: {first.message}" if first
                              else str(error)))
    return out


@paytable.command("list")
@_CONFIG
@_DB
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
def paytable_list(config_dir: Path | None, db_path: Path | None, as_json: bool) -> None:
    """The paytables on this cabinet: id, file, hash, approved (valid), and the active one.

    Active is the file ``cabinet.yaml`` names; where the ledger's last switch
    made another active, both are marked and the start-up tilt says how to resolve it.
    """
    cabinet_file = (config_dir or default_config_dir()) / "cabinet.yaml"
    cabinet = _cabinet_or_exit(cabinet_file)
    named = cabinet.paytable_path(cabinet_file).resolve()
    recorded = _ledger_paytable(db_path or cabinet_ledger(cabinet_file, cabinet))
    items = listed(cabinet_file.parent / "paytables")
    rows = [{"id": item.id, "file": str(item.file),
             "sha256": item.loaded.sha256 if item.loaded else None,
             "approved": item.loaded is not None, "error": item.error,
             "active": item.file.resolve() == named,
             "ledger_active": item.loaded is not None and item.loaded.sha256 == recorded}
            for item in items]
    if as_json:
        click.echo(json.dumps({"cabinet": str(cabinet_file), "ledger_sha256": recorded,
                               "paytables": rows}, indent=2))
        return
    table = Table_(title=f"paytables · {cabinet_file.parent / 'paytables'}")
    for column in ("id", "file", "sha256", "approved", "active"):
        table.add_column(column, overflow="fold")
    for item, row in zip(items, rows, strict=True):
        table.add_row(item.id or "—", item.file.name,
                      item.loaded.sha256[:12] if item.loaded else "",
                      "yes" if item.error is None else f"no: {item.error}",
                      _active_words(bool(row["active"]), bool(row["ledger_active"]),
                                    recorded is not None))
    Console(width=160).print(table)


@paytable.command("activate")
@click.argument("paytable_id", metavar="ID")
@_CONFIG
@_DB
@click.option("--pin-stdin", is_flag=True, help="Read the operator PIN from standard input.")
def paytable_activate(paytable_id: str, config_dir: Path | None, db_path: Path | None,
                      pin_stdin: bool) -> None:
    """Put the approved paytable ID into use, with the operator PIN: only between rounds with
    no credits on any seat; recorded in the ledger, then named in cabinet.yaml.

    Refused while the kiosk runs (it holds the ledger: use its operator menu).
    Exit 0 done, 1 refused by the table or the PIN, 2 invalid input.
    """
    from etg.core.commands import SwitchPaytable
    from etg.math.returns import return_violations
    from etg.table.pin import PinRole, verify_pin
    from etg.table.records import OPERATOR, OperatorAction, PinOk, WrongPin
    from etg.table.switch import cabinet_names, switch_paytable

    cabinet_file = (config_dir or default_config_dir()) / "cabinet.yaml"
    cabinet = _cabinet_or_exit(cabinet_file)
    if cabinet.operator_pin_hash is None:
        _refuse("no operator PIN is set: run etg pin set --role operator")
    target = _approved(cabinet_file, paytable_id)
    band = None if cabinet.return_band is None else cabinet.return_band.shares()
    unplayable = return_violations(target.paytable, band)
    if unplayable:  # the kiosk would not start on it (issue 26): never put it into use
        _refuse(f"{target.path}: {unplayable[0].message}; {paytable_id} was not activated")
    db_path = db_path or cabinet_ledger(cabinet_file, cabinet)
    if not db_path.exists():
        _refuse(f"{db_path}: no such ledger; nothing has been played on it, so set "
                f"active_paytable in {cabinet_file} and the kiosk records it at its first start")
    _logging("activate")  # once the input is known good: bad input writes nothing
    with _writer_lock(db_path):
        table = _open(db_path, cabinet_file, cabinet)
        try:
            if table.tilt is not None:
                _stop(f"{db_path}: the table is tilted: {table.tilt.message}; a supervisor "
                      f"acknowledges it first (etg ledger tilts, etg ledger acknowledge)")
            refusal = (None if target.sha256 == table.paytable.sha256
                       else table.refusal(SwitchPaytable(target.paytable)))
            if refusal is not None:
                _stop(f"{db_path}: {paytable_id} not activated: {refusal}")
            pin = (sys.stdin.readline().strip() if pin_stdin else
                   click.prompt("Operator PIN", hide_input=True, default="",
                                show_default=False))
            if not verify_pin(pin, cabinet.operator_pin_hash):
                table.record(WrongPin(PinRole.OPERATOR, 1))
                _stop(f"wrong operator PIN; {paytable_id} was not activated")
            table.record(PinOk(PinRole.OPERATOR, OPERATOR))
            details = {"file": target.path.name, "paytable_id": paytable_id,
                       "sha256": target.sha256, "where": "command line"}
            if target.sha256 == table.paytable.sha256:
                # The ledger already plays it: only cabinet.yaml is brought to name it.
                from etg.config.cabinet_edit import set_cabinet_value

                names = cabinet_names(target, cabinet_file)
                set_cabinet_value(cabinet_file, "active_paytable", names)
                table.record(OperatorAction("name_paytable", details))
                say(f"{paytable_id} was already active in the ledger; {cabinet_file} names "
                    f"{names} again")
            else:
                names = switch_paytable(table, target, OPERATOR, cabinet_file)
                table.record(OperatorAction("switch_paytable", {**details, "refused": None}))
                say(f"{paytable_id} active from the next round: the switch is in {db_path}, "
                    f"and {cabinet_file} names {names}")
        finally:
            table.close()  # a refusal too: a clean shutdown, the next start replays nothing
    click.echo(f"{paytable_id} active (sha256 {target.sha256})")


def _active_words(named: bool, in_ledger: bool, ledger_knows: bool) -> str:
    """The active column: yes, or which of the two names it where they disagree."""
    if named and (in_ledger or not ledger_knows):
        return "yes"
    if named:
        return "cabinet.yaml only (the ledger's last switch differs)"
    return "ledger only (cabinet.yaml names another)" if in_ledger else ""


def _approved(cabinet_file: Path, paytable_id: str) -> LoadedPaytable:
    """The file of ``paytables/`` with ``paytable_id``, validated; one line and exit 2 if none."""
    found = [item for item in listed(cabinet_file.parent / "paytables") if item.id == paytable_id]
    if not found:
        _refuse(f"no approved paytable {paytable_id!r} in {cabinet_file.parent / 'paytables'} "
                f"(etg paytable list)")
    if len(found) > 1:
        _refuse(f"paytable {paytable_id!r} is in more than one file: "
                f"{', '.join(item.file.name for item in found)}; keep one")
    loaded = found[0].loaded
    assert loaded is not None  # listed by id: it loaded
    return loaded


def _open(db_path: Path, cabinet_file: Path, cabinet: Cabinet) -> Table:
    """The table on the ledger, with the paytable the ledger's last switch made active."""
    from etg.ledger.freshness import keeper
    from etg.ledger.store import Ledger, LedgerError
    from etg.table.controller import Table

    current = _ledger_loaded(db_path) or _cabinets(cabinet_file, cabinet)
    try:
        ledger = Ledger.open(db_path, config_dir=cabinet_file.parent)  # its keys are there
        ledger.use_freshness(keeper(cabinet.freshness, cabinet_file.parent))
    except LedgerError as error:
        _refuse(str(error))
    try:
        table = Table.open(ledger, current)
    except LedgerError as error:
        ledger.close()
        _refuse(str(error))
    return table


def _stop(message: str) -> NoReturn:
    _refuse(message, code=REFUSED)


def _cabinets(cabinet_file: Path, cabinet: Cabinet) -> LoadedPaytable:
    try:
        return load_paytable(cabinet.paytable_path(cabinet_file))
    except ConfigError as error:
        _refuse(str(error))


def _ledger_paytable(db_path: Path) -> str | None:
    """The hash of the paytable the ledger's last switch made active, or None (no ledger)."""
    store = _read(db_path)
    if store is None:
        return None
    try:
        with store.reading():
            return store.setting("paytable_sha256")
    finally:
        store.close()


def _ledger_loaded(db_path: Path) -> LoadedPaytable | None:
    """The file the ledger's last switch made active, if it is still there unchanged."""
    store = _read(db_path)
    if store is None:
        return None
    try:
        with store.reading():
            recorded, path = store.setting("paytable_sha256"), store.setting("paytable_path")
    finally:
        store.close()
    if recorded is None or path is None:
        return None
    try:
        loaded = load_paytable(Path(path))
    except ConfigError:
        _refuse(f"{db_path}: the ledger's active paytable {path} cannot be loaded; put the "
                f"approved file back")
    if loaded.sha256 != recorded:
        _refuse(f"{db_path}: the ledger's active paytable {path} has changed since it was "
                f"recorded (sha256 {recorded[:12]}…); put the approved file back")
    return loaded


def _read(db_path: Path) -> Ledger | None:
    from etg.ledger.store import Ledger, LedgerError

    if not db_path.exists():
        return None
    try:
        return Ledger.open_readonly(db_path)
    except LedgerError as error:
        _refuse(str(error))
