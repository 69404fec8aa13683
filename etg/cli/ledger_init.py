"""``etg ledger init`` and ``etg ledger pubkey``: the cabinet's ledger and its key pair, made once.

A real ledger and its Ed25519 key pair are made by one explicit act, run by
``install.sh``, and recorded in ``<config>/ledger.yaml`` (:mod:`etg.ledger.site_record`).
Nothing else ever makes them: a lost ledger, folder or key is a fault, never a fresh
start (issue 25, findings 3 and 4). ``pubkey`` prints what a verifier needs and nothing
it could sign with.
"""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import click
from rich.console import Console
from rich.table import Table as Table_

from etg.cli.ledger import ledger
from etg.cli.program import _cabinet_or_exit, _refuse, _writer_lock, cabinet_ledger
from etg.config.loader import default_config_dir
from etg.ledger.terms import LedgerKind

_CONFIG = click.option("--config", "config_dir", type=click.Path(file_okay=False, path_type=Path),
                       help="Site configuration directory (default: ETG_CONFIG_DIR, else "
                            "~/.config/etg, /etc/etg on a cabinet): the keys and ledger.yaml "
                            "are kept there.")


@ledger.command("init")
@_CONFIG
@click.option("--db", "db_path", type=click.Path(dir_okay=False, path_type=Path),
              help="The ledger file to make (default: cabinet.yaml's database, else ledger.db "
                   "in the data directory).")
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
def ledger_init(config_dir: Path | None, db_path: Path | None, as_json: bool) -> None:
    """Make the cabinet's real ledger and its key pair, once, and record them in ledger.yaml.

    The private key (keys/ledger.ed25519, mode 0600) is for the ledger's writer
    alone; the public key (keys/ledger.pub) verifies, and may go to anyone. A ledger
    written before the signatures is adopted: its MACed chain is sealed under the new
    key. Run by install.sh; refused once done: nothing is ever made twice.
    """
    from etg.ledger.signing import (
        CABINET,
        LedgerKeyError,
        create_pair,
        keys_dir,
        private_path,
        public_path,
    )
    from etg.ledger.site_record import SiteLedger, read_record, record_path, write_record
    from etg.ledger.store import Ledger, LedgerError, LedgerKind
    from etg.ledger.terms import now

    config = config_dir or default_config_dir()
    cabinet_file = config / "cabinet.yaml"
    db_path = db_path or cabinet_ledger(cabinet_file, _cabinet_or_exit(cabinet_file))
    try:
        record = read_record(config)
    except LedgerError as error:
        _refuse(str(error))
    if record is not None:
        _refuse(f"{record_path(config)}: the cabinet's ledger was made already ({record.ledger_id} "
                f"at {record.path}, public key {record.fingerprint}); nothing was changed")
    folder = keys_dir(config)
    for path in (private_path(folder, CABINET), public_path(folder, CABINET)):
        if path.exists():
            _refuse(f"{path}: a cabinet key is there already, but no ledger.yaml records it; "
                    f"nothing was changed")
    adopted = db_path.exists()
    if adopted and _kind_of(db_path) not in (None, LedgerKind.REAL):
        _refuse(f"{db_path}: not a real ledger; etg ledger init makes or adopts only the "
                f"cabinet's real ledger")
    try:
        db_path.parent.mkdir(parents=True, exist_ok=True)  # the one place a ledger folder is made
    except OSError as error:
        _refuse(f"{db_path.parent}: cannot make the ledger's folder: {error.strerror or error}")
    with _writer_lock(db_path):
        try:
            pair = create_pair(folder, CABINET)
        except LedgerKeyError as error:
            _refuse(str(error))
        try:
            store = Ledger.open(db_path, kind=LedgerKind.REAL, config_dir=config, rng="csprng",
                                create=True)
        except LedgerError as error:  # nothing was signed with the new pair: it goes again
            private_path(folder, CABINET).unlink()
            public_path(folder, CABINET).unlink()
            _refuse(str(error))
        ledger_id, rounds = store.ledger_id, store.round_count()
        store.close()
    written = write_record(config, SiteLedger(ledger_id, db_path.resolve(),
                                              pair.verifier.fingerprint, now()))
    result = {"ledger_id": ledger_id, "db": str(db_path.resolve()), "adopted": adopted,
              "rounds": rounds, "public_key_fingerprint": pair.verifier.fingerprint,
              "private_key": str(private_path(folder, CABINET)),
              "public_key": str(public_path(folder, CABINET)), "record": str(written)}
    if as_json:
        click.echo(json.dumps(result, indent=2))
        return
    table = Table_(title="etg ledger init" + (" (an existing ledger adopted)" if adopted else ""))
    table.add_column("what")
    table.add_column("value", overflow="fold")
    for name, value in result.items():
        table.add_row(name, str(value))
    Console(width=160).print(table)


def _kind_of(db_path: Path) -> LedgerKind | None:
    """The kind an existing file's genesis records, read without changing it."""
    from etg.ledger.store import recorded_kind

    try:
        conn = sqlite3.connect(f"{db_path.resolve().as_uri()}?mode=ro", uri=True)
    except sqlite3.Error:
        return None
    try:
        return recorded_kind(conn)
    except sqlite3.Error:
        return None
    finally:
        conn.close()


@ledger.command("pubkey")
@_CONFIG
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
def ledger_pubkey(config_dir: Path | None, as_json: bool) -> None:
    """Print the ledger's public key (PEM) and its fingerprint: what verify, the back office
    and a regulator need to check the ledger; it signs nothing."""
    from etg.config.places import site_config_dir
    from etg.ledger.signing import CABINET, LedgerKeyError, keys_dir, load_verifier, public_path
    from etg.ledger.site_record import read_record
    from etg.ledger.store import LedgerError

    config = config_dir or site_config_dir()
    try:
        verifier = load_verifier(keys_dir(config), CABINET)
        record = read_record(config)
    except LedgerKeyError as error:
        _refuse(f"{error}: run `etg ledger init`")
    except LedgerError as error:
        _refuse(str(error))
    if record is not None and record.fingerprint != verifier.fingerprint:
        _refuse(f"{public_path(keys_dir(config), CABINET)}: its fingerprint "
                f"{verifier.fingerprint} is not the one etg ledger init recorded "
                f"({record.fingerprint})", code=1)
    if as_json:
        click.echo(json.dumps({"fingerprint": verifier.fingerprint, "public_key": verifier.pem(),
                               "path": str(public_path(keys_dir(config), CABINET)),
                               "ledger_id": None if record is None else record.ledger_id},
                              indent=2))
        return
    click.echo(f"fingerprint {verifier.fingerprint}")
    click.echo(verifier.pem(), nl=False)
