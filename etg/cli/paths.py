"""``etg paths``: where this cabinet's files are, so nobody has to guess (SPEC §10's places)."""

from __future__ import annotations

import json
from pathlib import Path

import click

from etg.cli.program import _cabinet_or_exit, cabinet_ledger, main


@main.command("paths")
@click.option("--config", "config_dir", type=click.Path(file_okay=False, path_type=Path),
              help="Site configuration directory with cabinet.yaml (default: "
                   "ETG_CONFIG_DIR, else ~/.config/etg, /etc/etg on a cabinet).")
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
def paths(config_dir: Path | None, as_json: bool) -> None:
    """Where things live: configuration, paytables, ledger, its anchor and keys, logs.

    Reads only: nothing is made (the kiosk's first start copies the shipped
    configuration into place; until then it is marked missing).
    """
    from etg.config.places import data_dir, shipped_config_dir, site_config_dir
    from etg.ledger.chain import anchor_path
    from etg.ledger.signing import keys_dir, private_path, public_path
    from etg.ledger.site_record import record_path

    config = config_dir or site_config_dir()
    cabinet_file = config / "cabinet.yaml"
    places: dict[str, Path] = {"configuration": config, "cabinet.yaml": cabinet_file,
                               "paytables": config / "paytables"}
    if cabinet_file.is_file():
        cabinet = _cabinet_or_exit(cabinet_file)
        ledger = cabinet_ledger(cabinet_file, cabinet)
        places["active paytable"] = cabinet.paytable_path(cabinet_file)
    else:
        from etg.ledger.ledger_file import default_path

        ledger = default_path()
    logs = data_dir() / "logs"
    places |= {"ledger": ledger, "ledger anchor": anchor_path(ledger),
               "ledger private key": private_path(keys_dir(config)),
               "ledger public key": public_path(keys_dir(config)),
               "ledger record": record_path(config), "data": data_dir(), "log": logs / "etg.log",
               "crash dumps": logs / "faults.log", "shipped configuration": shipped_config_dir()}
    if as_json:
        click.echo(json.dumps({name: {"path": str(path), "exists": path.exists()}
                               for name, path in places.items()}, indent=2))
        return
    width = max(map(len, places))
    for name, path in places.items():
        click.echo(f"{name:<{width}}  {path}{'' if path.exists() else '  (missing)'}")
