"""The web server's pages: the floor dashboard (``/``), the meter sign (``/sign``), the login.

Starlette (see docs/floor-web.md for why): every page is a static file of this
package; the figures reach it only through its event stream (Server-Sent Events),
which sends the whole floor at once when the page connects, and again after every
change the controller announces. A page never asks for anything on a timer.

Access: ``/login``, ``/static/`` and ``/fonts/`` are all that is served without a session (the
dashboard's) or a sign token (the sign's). Nothing here changes the floor: there
is no route that writes, and the connections are read-only (:mod:`etg.web.follow`).
"""

from __future__ import annotations

import asyncio
import contextlib
import html
import json
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from urllib.parse import parse_qs

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.datastructures import MutableHeaders
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import (
    HTMLResponse,
    PlainTextResponse,
    RedirectResponse,
    Response,
    StreamingResponse,
)
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from etg.config.places import assets_dir
from etg.config.problems import ConfigError
from etg.web.access import COOKIE, Sessions, Throttle, whose_pin
from etg.web.board import Board, Closed, Picture
from etg.web.follow import Follower, Reader
from etg.web.tokens import token_good

STATIC = resources.files("etg.web") / "static"

KEEP_ALIVE_S = 15.0
"""A comment down an idle stream this often, so that a dead connection is noticed."""

RETRY_MS = 1_000
"""How soon a page's EventSource connects again after losing its stream."""

MAX_FORM_BYTES = 1_024

_HEADERS = {  # every response: no framing, no inline code, and no address passed on
    "Content-Security-Policy": "default-src 'self'; script-src 'self'; style-src 'self'; "
                               "img-src 'self' data:; connect-src 'self'; "
                               "frame-ancestors 'none'; base-uri 'none'; form-action 'self'",
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
    # The sign's token is in its URL: no Referer may carry it anywhere.
    "Referrer-Policy": "no-referrer",
}


@dataclass
class Settings:
    """What one web server is made of (:func:`create_app`)."""

    conninfo: str
    read: Reader
    config_dir: Path
    sign_key: bytes
    secure: bool = False  # served over TLS: the cookie is marked Secure
    sessions: Sessions = field(default_factory=Sessions)
    throttle: Throttle = field(default_factory=Throttle)
    wall_clock: Callable[[], float] = time.time
    sign_view: Callable[[Picture], Picture] | None = None


def create_app(settings: Settings) -> Starlette:
    """The ASGI application; its lifespan follows the controller while it serves."""
    board = Board()
    follower = Follower(settings.conninfo, settings.read, board)

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        following = asyncio.create_task(follower.run())
        try:
            yield
        finally:
            await board.close()
            following.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await following

    pages = _Pages(settings, board)
    app = Starlette(
        routes=[
            Route("/", pages.dashboard),
            Route("/events", pages.dashboard_events),
            Route("/sign", pages.sign),
            Route("/sign/events", pages.sign_events),
            Route("/login", pages.login_page, methods=["GET"]),
            Route("/login", pages.login, methods=["POST"]),
            Route("/logout", pages.logout, methods=["POST"]),
            Mount("/static", StaticFiles(directory=str(STATIC)), name="static"),
            # The table's own fonts (DejaVu), shared with the kiosk rather than copied.
            Mount("/fonts", StaticFiles(directory=str(assets_dir() / "fonts")), name="fonts"),
        ],
        middleware=[Middleware(_Guarded)],
        lifespan=lifespan,
    )
    app.state.board = board
    return app


class _Guarded:
    """Adds :data:`_HEADERS` to every response, and no-store to all but the static files.

    Plain ASGI rather than Starlette's BaseHTTPMiddleware, which would sit between
    the event streams and the network.
    """

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        cached = str(scope["path"]).startswith(("/static/", "/fonts/"))

        async def send_guarded(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = MutableHeaders(scope=message)
                headers.update(_HEADERS)
                if not cached:
                    headers["Cache-Control"] = "no-store"
            await send(message)

        await self.app(scope, receive, send_guarded)


def _page(name: str) -> str:
    return (STATIC / name).read_text(encoding="utf-8")


class _Pages:
    def __init__(self, settings: Settings, board: Board) -> None:
        self.settings = settings
        self.board = board

    # -- who is asking ------------------------------------------------------------------------

    def _who(self, request: Request) -> str | None:
        return self.settings.sessions.who(request.cookies.get(COOKIE))

    def _sign_allowed(self, request: Request) -> bool:
        token = request.query_params.get("t")
        return (token_good(self.settings.sign_key, token, self.settings.wall_clock())
                or self._who(request) is not None)

    # -- the login ----------------------------------------------------------------------------

    async def login_page(self, request: Request) -> Response:
        if self._who(request) is not None:
            return RedirectResponse("/", status_code=303)
        return _login("")

    async def login(self, request: Request) -> Response:
        address = request.client.host if request.client else "?"
        throttle = self.settings.throttle
        if (wait := throttle.wait_s(address)) > 0:
            return _locked(wait)
        body = await _bounded_body(request)
        if body is None:
            return _login("The login form was too large.", 413)
        pin = parse_qs(body).get("pin", [""])[0]
        if not throttle.begin(address):
            return _login("A PIN from this terminal is being checked: one at a time.", 429)
        try:
            who = await run_in_threadpool(whose_pin, self.settings.config_dir, pin)
        except ConfigError as error:
            return _login(f"The PIN registry cannot be read: {error}", 503)
        finally:
            throttle.end(address)
        if who is None:
            throttle.failed(address)
            if (wait := throttle.wait_s(address)) > 0:
                return _locked(wait)
            return _login("Wrong PIN: a floorperson's or a supervisor's PIN opens the floor.",
                          401)
        throttle.succeeded(address)
        response = RedirectResponse("/", status_code=303)
        response.set_cookie(COOKIE, self.settings.sessions.open(who),
                            max_age=int(self.settings.sessions.life_s), path="/",
                            secure=self.settings.secure, httponly=True, samesite="strict")
        return response

    async def logout(self, request: Request) -> Response:
        self.settings.sessions.close(request.cookies.get(COOKIE))
        response = RedirectResponse("/login", status_code=303)
        response.delete_cookie(COOKIE, path="/", secure=self.settings.secure, httponly=True,
                               samesite="strict")
        return response

    # -- the pages ----------------------------------------------------------------------------

    async def dashboard(self, request: Request) -> Response:
        who = self._who(request)
        if who is None:
            return RedirectResponse("/login", status_code=303)
        return HTMLResponse(_page("dashboard.html").replace("{{who}}", html.escape(who)))

    async def dashboard_events(self, request: Request) -> Response:
        if self._who(request) is None:
            return PlainTextResponse("log in first\n", status_code=401)
        return _stream(self.board, lambda picture: picture)

    async def sign(self, request: Request) -> Response:
        if not self._sign_allowed(request):
            return HTMLResponse(_page("sign-refused.html"), status_code=403)
        return HTMLResponse(_page("sign.html"))

    async def sign_events(self, request: Request) -> Response:
        if not self._sign_allowed(request):
            return PlainTextResponse("this sign link is not valid\n", status_code=403)
        view = self.settings.sign_view or (lambda picture: picture)
        return _stream(self.board, view)


def _login(message: str, status: int = 200) -> HTMLResponse:
    text = _page("login.html").replace("{{message}}", html.escape(message))
    return HTMLResponse(text, status_code=status)


def _locked(wait_s: float) -> HTMLResponse:
    seconds = max(1, round(wait_s))
    response = _login(f"Too many wrong PINs from this terminal: try again in {seconds} s.", 429)
    response.headers["Retry-After"] = str(seconds)
    return response


async def _bounded_body(request: Request) -> str | None:
    chunks: list[bytes] = []
    size = 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > MAX_FORM_BYTES:
            return None
        chunks.append(chunk)
    return b"".join(chunks).decode("utf-8", errors="replace")


def _stream(board: Board, view: Callable[[Picture], Picture]) -> StreamingResponse:
    """The page's event stream: the whole floor now, then after every change."""

    async def events() -> AsyncIterator[str]:
        yield f"retry: {RETRY_MS}\n\n"
        version = 0
        while True:
            waiting: Awaitable[tuple[int, Picture]] = board.newer_than(version)
            try:
                version, picture = await asyncio.wait_for(waiting, KEEP_ALIVE_S)
            except TimeoutError:
                yield ": still here\n\n"
                continue
            except Closed:
                return
            yield f"event: floor\ndata: {json.dumps(view(picture), separators=(',', ':'))}\n\n"

    return StreamingResponse(events(), media_type="text/event-stream",
                             headers={"X-Accel-Buffering": "no"})
