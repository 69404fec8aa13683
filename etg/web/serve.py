"""Running the web server: on a thread beside a demo (:func:`serve`), or as the program.

``etg floor web`` runs :func:`run` in the foreground; ``etg floor demo --web``
calls :func:`serve`, which starts uvicorn on a thread of its own and returns once
it listens, with the two addresses to print and a ``stop()``. Port 0 asks the
system for a free port (the tests and the demo); the socket is bound here, before
uvicorn starts, so the address is known and a port in use is one clear error.
"""

from __future__ import annotations

import asyncio
import socket
import ssl
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import uvicorn

from etg.web.app import Settings, create_app
from etg.web.board import Board
from etg.web.picture import read_picture, sign_view
from etg.web.tokens import make_token, sign_key

SIGN_DAYS = 90
"""How long a sign link made without ``--sign-days`` stays good."""

_STARTED_S = 20.0  # a server that does not listen by then will not


class _Server(uvicorn.Server):
    """uvicorn's server, closing every page's event stream first when it stops.

    An event stream never ends by itself; left open, uvicorn would wait for it until its
    graceful-shutdown timeout and then cancel it mid-write.
    """

    def __init__(self, config: uvicorn.Config, board: Board) -> None:
        super().__init__(config)
        self.board = board

    async def shutdown(self, sockets: list[socket.socket] | None = None) -> None:
        await self.board.close()
        await super().shutdown(sockets)


class WebSetupError(Exception):
    """The server cannot start as asked: the reason in one line."""


@dataclass(frozen=True)
class Place:
    """Where the server listens and how a browser reaches it."""

    host: str = "127.0.0.1"
    port: int = 8470
    cert: Path | None = None
    key: Path | None = None

    @property
    def scheme(self) -> str:
        return "https" if self.cert is not None else "http"

    def url(self, port: int, path: str) -> str:
        host = socket.gethostname() if self.host in ("0.0.0.0", "::", "") else self.host
        if ":" in host:
            host = f"[{host}]"
        return f"{self.scheme}://{host}:{port}{path}"


@dataclass(frozen=True)
class Addresses:
    dashboard: str
    sign: str  # with a token good for ``sign_days``


def sign_url_for(place: Place, port: int, config_dir: Path, *, days: float = SIGN_DAYS,
             renew: bool = False, now: float | None = None) -> str:
    """The sign's address with a token good for ``days`` (``renew``: a new key first)."""
    key = sign_key(config_dir, renew=renew)
    expires = int((time.time() if now is None else now) + days * 86_400)
    return place.url(port, f"/sign?t={make_token(key, expires)}")


class Served:
    """A web server running on a thread of its own (:func:`serve`)."""

    def __init__(self, server: _Server, thread: threading.Thread,
                 addresses: Addresses) -> None:
        self._server = server
        self._thread = thread
        self.addresses = addresses

    def stop(self) -> None:
        """Close every page's stream, stop listening, and wait for the thread."""
        self._server.should_exit = True
        self._thread.join(timeout=10)


def serve(conninfo: str, config_dir: Path, place: Place | None = None, *,
          sign_days: float = SIGN_DAYS) -> Served:
    """Start the web server on a thread; returns once it listens (raises WebSetupError)."""
    place = place or Place(port=0)
    server, sock = _prepared(conninfo, config_dir, place)
    port = sock.getsockname()[1]
    failed: list[BaseException] = []

    def run() -> None:
        try:
            asyncio.run(server.serve(sockets=[sock]))
        except BaseException as error:  # reported to the caller waiting for the start
            failed.append(error)

    thread = threading.Thread(target=run, name="etg-floor-web", daemon=True)
    thread.start()
    deadline = time.monotonic() + _STARTED_S
    while not server.started:
        if failed or not thread.is_alive() or time.monotonic() > deadline:
            server.should_exit = True
            reason = failed[0] if failed else "it did not start"
            raise WebSetupError(f"the floor's web server could not start: {reason}")
        time.sleep(0.02)
    addresses = Addresses(place.url(port, "/"),
                          sign_url_for(place, port, config_dir, days=sign_days))
    return Served(server, thread, addresses)


def run(conninfo: str, config_dir: Path, place: Place, *,
        announce: Callable[[str], None] = lambda dashboard: None) -> None:
    """Serve in the foreground until SIGINT or SIGTERM (raises WebSetupError).

    ``announce`` hears the dashboard's address once the socket is bound.
    """
    server, sock = _prepared(conninfo, config_dir, place)
    announce(place.url(sock.getsockname()[1], "/"))
    server.run(sockets=[sock])


def _prepared(conninfo: str, config_dir: Path, place: Place) -> tuple[_Server, socket.socket]:
    _check_tls(place)
    settings = Settings(conninfo=conninfo, read=read_picture, config_dir=config_dir,
                        sign_key=sign_key(config_dir), secure=place.cert is not None,
                        sign_view=sign_view)
    app = create_app(settings)
    config = uvicorn.Config(
        app, log_level="warning", lifespan="on",
        ssl_certfile=str(place.cert) if place.cert else None,
        ssl_keyfile=str(place.key) if place.key else None,
        timeout_graceful_shutdown=5)
    return _Server(config, app.state.board), _bound(place)


def _check_tls(place: Place) -> None:
    if (place.cert is None) != (place.key is None):
        raise WebSetupError("TLS needs both --cert and --key")
    if place.cert is None or place.key is None:
        return
    try:
        ssl.create_default_context(ssl.Purpose.CLIENT_AUTH).load_cert_chain(place.cert, place.key)
    except (OSError, ssl.SSLError) as error:
        raise WebSetupError(f"cannot use the certificate {place.cert} with the key "
                            f"{place.key}: {error}") from None


def _bound(place: Place) -> socket.socket:
    family = socket.AF_INET6 if ":" in place.host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((place.host, place.port))
    except OSError as error:
        sock.close()
        raise WebSetupError(f"cannot listen on {place.host}:{place.port}: "
                            f"{error.strerror}") from None
    sock.set_inheritable(True)
    return sock
