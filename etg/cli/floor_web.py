"""``etg floor web``: the floor dashboard and the meter sign, served from the controller.

It reads the controller's PostgreSQL (read-only) and pushes every change to the open
pages as it is committed (:mod:`etg.web`). ``--sign-url`` prints the sign's address
with a signed token instead of serving: the TV over the tables opens that URL, and
no one types a PIN on it.
"""

from __future__ import annotations

import json
import time
from datetime import UTC, datetime
from pathlib import Path

import click

from etg.cli.floor import floor
from etg.cli.program import _refuse
from etg.config.loader import default_config_dir

MAX_SIGN_DAYS = 3_650


@floor.command("web")
@click.option("--floor", "floor_uri", envvar="ETG_FLOOR_URI", metavar="URI",
              help="The floor's PostgreSQL: the reader's connection string etg floor init "
                   "prints is all it needs (default: ETG_FLOOR_URI).")
@click.option("--config", "config_dir", type=click.Path(file_okay=False, path_type=Path),
              help="Site configuration directory: cabinet.yaml with the floorperson's and the "
                   "supervisor's PINs, and the sign's key (default: ETG_CONFIG_DIR, else "
                   "~/.config/etg, /etc/etg on a cabinet; etg paths shows it).")
@click.option("--host", default="127.0.0.1", show_default=True,
              help="Address to listen on; only this machine unless told otherwise.")
@click.option("--port", type=click.IntRange(0, 65_535), default=8470, show_default=True,
              help="TCP port to listen on (0: any free one, printed at the start).")
@click.option("--cert", type=click.Path(dir_okay=False, exists=True, path_type=Path),
              help="TLS certificate (PEM); with --key the pages are served over HTTPS.")
@click.option("--key", type=click.Path(dir_okay=False, exists=True, path_type=Path),
              help="The certificate's private key (PEM).")
@click.option("--sign-url", is_flag=True,
              help="Print the meter sign's address with a signed token, and exit.")
@click.option("--sign-days", type=click.FloatRange(0, MAX_SIGN_DAYS, min_open=True),
              default=90, show_default=True, help="How long a --sign-url link stays good.")
@click.option("--new-sign-key", is_flag=True,
              help="With --sign-url: a new key first, so that every older sign link is refused.")
@click.option("--json", "as_json", is_flag=True, help="--sign-url's answer as JSON.")
def floor_web(floor_uri: str | None, config_dir: Path | None, host: str, port: int,
              cert: Path | None, key: Path | None, sign_url: bool, sign_days: float,
              new_sign_key: bool, as_json: bool) -> None:
    """Serve the floor dashboard (/) and the meter sign (/sign), live from the controller.

    The dashboard asks for a floorperson's or a supervisor's PIN (etg pin set); the
    sign opens with the link --sign-url prints. Read-only: nothing here changes a meter.
    """
    from etg.web.serve import Place, WebSetupError, run, sign_url_for
    from etg.web.tokens import SignKeyError

    if new_sign_key and not sign_url:
        _refuse("etg floor web: --new-sign-key goes with --sign-url")
    if as_json and not sign_url:
        _refuse("etg floor web: --json is for --sign-url's answer")
    if sign_url and port == 0:
        _refuse("etg floor web: --sign-url needs the --port the server listens on, not 0")
    if not sign_url and not floor_uri:
        _refuse("etg floor web: no floor given: --floor URI or ETG_FLOOR_URI")
    config_dir = config_dir or default_config_dir()
    place = Place(host, port, cert, key)
    try:
        if sign_url:
            now = time.time()
            link = sign_url_for(place, port, config_dir, days=sign_days, renew=new_sign_key,
                                now=now)
            expires = datetime.fromtimestamp(int(now + sign_days * 86_400), UTC).isoformat()
            click.echo(json.dumps({"sign": link, "expires": expires}) if as_json
                       else f"{link}\n(good until {expires})")
            return
        assert floor_uri is not None
        run(floor_uri, config_dir, place, announce=lambda dashboard: click.echo(
            f"floor dashboard: {dashboard}\nmeter sign: etg floor web --sign-url "
            f"--port {port} prints its link", err=True))
    except (WebSetupError, SignKeyError) as error:
        _refuse(f"etg floor web: {error}")
