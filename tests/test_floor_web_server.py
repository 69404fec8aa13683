"""The floor's web server over plain HTTP, against a real floor: who gets in (a floorperson's
or a supervisor's PIN, the throttle, the cookie's flags), what is served without a session
(the login and the static files only), that nothing can write, and ``etg floor web``'s
command line."""

from __future__ import annotations

import datetime
import json
import re
import ssl
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import psycopg
import pytest
from click.testing import CliRunner
from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import NameOID

from etg.cli import main
from etg.floor.server import free_port
from etg.web.access import MAX_FAILURES
from etg.web.app import Settings, create_app
from etg.web.follow import READ_ONLY
from etg.web.picture import read_picture
from etg.web.serve import Place, serve
from etg.web.tokens import make_token, sign_key, token_good
from tests.floor_web_support import (
    FLOORPERSON_PIN,
    OPERATOR_PIN,
    SUPERVISOR_PIN,
    WebFloor,
    http,
    login,
    site_config,
)

pytest_plugins = ["tests.floor_web_fixtures"]  # web_floor, chromium, browser


def session_cookie(headers: dict[str, str]) -> str:
    return headers["set-cookie"].split(";")[0]


# -- without a session -------------------------------------------------------------------------

@pytest.mark.parametrize("path", ["/", "/?x=1"])
def test_a_page_without_a_session_is_sent_to_the_login(web_floor: WebFloor, path: str) -> None:
    status, headers, _ = http(web_floor.url + path)
    assert (status, headers["location"]) == (303, "/login")


def test_only_the_login_and_the_static_files_answer_without_a_session(
        web_floor: WebFloor) -> None:
    assert http(web_floor.url + "/login")[0] == 200
    assert http(web_floor.url + "/static/floor.css")[0] == 200
    assert http(web_floor.url + "/fonts/DejaVuSans.ttf")[0] == 200
    status, _, body = http(web_floor.url + "/events")
    assert (status, body) == (401, "log in first\n")
    assert http(web_floor.url + "/sign")[0] == 403
    assert http(web_floor.url + "/sign/events")[0] == 403
    assert http(web_floor.url + "/static/../picture.py")[0] == 404


def test_a_forged_or_expired_sign_link_is_refused_and_a_good_one_opens_the_sign(
        web_floor: WebFloor) -> None:
    key = sign_key(web_floor.config_dir)
    good = web_floor.sign_url
    assert http(good)[0] == 200
    token = good.split("t=")[1]
    expires, signature = token.split(".")
    assert http(f"{web_floor.url}/sign?t={int(expires) + 1}.{signature}")[0] == 403
    assert http(f"{web_floor.url}/sign?t={make_token(key, 1_000)}")[0] == 403  # long expired
    assert http(f"{web_floor.url}/sign/events?t={int(expires) + 1}.{signature}")[0] == 403


# -- the login -------------------------------------------------------------------------------

def test_the_floorperson_s_pin_opens_a_session_with_a_strict_httponly_expiring_cookie(
        web_floor: WebFloor) -> None:
    status, headers, _ = login(web_floor.url, FLOORPERSON_PIN)
    assert (status, headers["location"]) == (303, "/")
    flags = [part.strip().lower() for part in headers["set-cookie"].split(";")[1:]]
    assert sorted(flags) == ["httponly", "max-age=28800", "path=/", "samesite=strict"]
    status, _, body = http(web_floor.url + "/", cookie=session_cookie(headers))
    assert status == 200
    assert '<span class="who">floorperson</span>' in body


def test_the_supervisor_s_pin_opens_it_too_and_the_operator_s_does_not(
        web_floor: WebFloor) -> None:
    status, headers, _ = login(web_floor.url, SUPERVISOR_PIN)
    assert status == 303
    assert '<span class="who">supervisor</span>' in http(
        web_floor.url + "/", cookie=session_cookie(headers))[2]
    status, headers, _ = login(web_floor.url, OPERATOR_PIN)
    assert status == 401
    assert "set-cookie" not in headers


def test_a_wrong_pin_is_refused_with_a_message_and_no_cookie(web_floor: WebFloor) -> None:
    status, headers, body = login(web_floor.url, "0000")
    assert status == 401
    assert "set-cookie" not in headers
    assert ("Wrong PIN: a floorperson&#x27;s or a supervisor&#x27;s PIN opens the floor."
            in body)


def test_five_wrong_pins_lock_the_terminal_out_even_for_the_right_one(
        web_floor: WebFloor) -> None:
    answers = [login(web_floor.url, "0000")[0] for _ in range(MAX_FAILURES)]
    assert answers == [401] * (MAX_FAILURES - 1) + [429]
    status, headers, body = login(web_floor.url, FLOORPERSON_PIN)
    assert status == 429
    assert "set-cookie" not in headers
    assert 55 <= int(headers["retry-after"]) <= 60
    assert re.search(r"Too many wrong PINs from this terminal: try again in \d+ s\.", body)


@pytest.mark.slow
@pytest.mark.real_pin_cost  # each check takes a cabinet's time, so the guesses overlap
def test_guesses_sent_together_are_not_all_checked(web_floor: WebFloor) -> None:
    with ThreadPoolExecutor(8) as pool:
        answers = list(pool.map(lambda pin: login(web_floor.url, pin),
                                [f"{n:04d}" for n in range(8)]))
    statuses = [status for status, _, _ in answers]
    assert set(statuses) <= {401, 429}
    busy = [body for status, _, body in answers if "being checked: one at a time" in body]
    assert busy, statuses
    assert statuses.count(401) < len(statuses)


def test_logging_out_ends_the_session(web_floor: WebFloor) -> None:
    cookie = session_cookie(login(web_floor.url, FLOORPERSON_PIN)[1])
    status, headers, _ = http(web_floor.url + "/logout", data=b"", cookie=cookie)
    assert (status, headers["location"]) == (303, "/login")
    assert http(web_floor.url + "/", cookie=cookie)[0] == 303
    assert http(web_floor.url + "/events", cookie=cookie)[0] == 401


def test_every_answer_forbids_framing_inline_code_and_referrers(web_floor: WebFloor) -> None:
    for path in ("/login", "/", "/static/floor.js"):
        headers = http(web_floor.url + path)[1]
        assert "script-src 'self';" in headers["content-security-policy"]
        assert "frame-ancestors 'none'" in headers["content-security-policy"]
        assert headers["x-frame-options"] == "DENY"
        assert headers["referrer-policy"] == "no-referrer"
    assert http(web_floor.url + "/login")[1]["cache-control"] == "no-store"


# -- read-only -------------------------------------------------------------------------------

def test_no_route_changes_anything(web_floor: WebFloor) -> None:
    app = create_app(Settings(web_floor.reader_uri, read_picture, web_floor.config_dir,
                              sign_key(web_floor.config_dir)))
    methods = {getattr(route, "path", ""): getattr(route, "methods", None) or {"GET"}
               for route in app.routes}
    writes = {path for path, allowed in methods.items() if allowed - {"GET", "HEAD"}}
    assert writes == {"/login", "/logout"}  # the session's, never the floor's


def test_the_server_s_connections_cannot_write_even_with_a_superuser_s_login(
        web_floor: WebFloor) -> None:
    assert web_floor.floor is not None
    with psycopg.connect(web_floor.floor.admin_uri, autocommit=True, options=READ_ONLY) as conn, \
            pytest.raises(psycopg.errors.ReadOnlySqlTransaction):
        conn.execute("UPDATE floor.levels SET current_cents = 0")


def test_a_server_that_cannot_reach_the_controller_says_so_down_its_streams(
        tmp_path: Path) -> None:
    config = site_config(tmp_path / "site")
    nowhere = f"postgresql://nobody@127.0.0.1:{free_port()}/floor?connect_timeout=2"
    served = serve(nowhere, config)
    try:
        with urllib.request.urlopen(served.addresses.sign.replace("/sign?", "/sign/events?"),
                                    timeout=30) as stream:
            assert stream.readline() == b"retry: 1000\n"
            assert stream.readline() == b"\n"
            assert stream.readline() == b"event: floor\n"
            picture = json.loads(stream.readline().removeprefix(b"data: "))
    finally:
        served.stop()
    assert picture["controller"]["up"] is False
    assert (picture["levels"], picture["hits"]) == ([], [])


# -- TLS -------------------------------------------------------------------------------------

def _self_signed(folder: Path) -> tuple[Path, Path]:
    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "127.0.0.1")])
    now = datetime.datetime.now(datetime.UTC)
    cert = (x509.CertificateBuilder().subject_name(name).issuer_name(name)
            .public_key(key.public_key()).serial_number(x509.random_serial_number())
            .not_valid_before(now - datetime.timedelta(days=1))
            .not_valid_after(now + datetime.timedelta(days=2))
            .add_extension(x509.SubjectAlternativeName(
                [x509.IPAddress(__import__("ipaddress").ip_address("127.0.0.1"))]),
                critical=False)
            .sign(key, hashes.SHA256()))
    cert_file, key_file = folder / "cert.pem", folder / "key.pem"
    cert_file.write_bytes(cert.public_bytes(serialization.Encoding.PEM))
    key_file.write_bytes(key.private_bytes(serialization.Encoding.PEM,
                                           serialization.PrivateFormat.PKCS8,
                                           serialization.NoEncryption()))
    return cert_file, key_file


def test_with_a_certificate_it_serves_https_and_marks_the_cookie_secure(
        web_floor: WebFloor, tmp_path: Path) -> None:
    cert, key = _self_signed(tmp_path)
    web_floor.stop()
    web_floor.start(Place(port=0, cert=cert, key=key))
    assert web_floor.url.startswith("https://127.0.0.1:")
    trust = ssl.create_default_context(cafile=str(cert))
    status, headers, _ = login(web_floor.url, FLOORPERSON_PIN, context=trust)
    assert status == 303
    assert "secure" in [part.strip().lower() for part in headers["set-cookie"].split(";")]
    assert web_floor.sign_url.startswith(web_floor.url + "/sign?t=")


# -- etg floor web ---------------------------------------------------------------------------

def invoke(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, ["floor", "web", *args])
    return result.exit_code, result.stdout, result.stderr


def test_sign_url_prints_a_link_the_server_accepts(tmp_path: Path) -> None:
    code, out, err = invoke("--config", str(tmp_path), "--sign-url", "--port", "9000",
                            "--sign-days", "2", "--json")
    assert (code, err) == (0, "")
    answer = json.loads(out)
    assert answer["sign"].startswith("http://127.0.0.1:9000/sign?t=")
    token = answer["sign"].split("t=")[1]
    expires = datetime.datetime.fromisoformat(answer["expires"]).timestamp()
    assert token_good(sign_key(tmp_path), token, expires - 1)
    assert not token_good(sign_key(tmp_path), token, expires)


def test_a_new_sign_key_revokes_the_links_made_before(tmp_path: Path) -> None:
    old = json.loads(invoke("--config", str(tmp_path), "--sign-url", "--json")[1])["sign"]
    code, out, _ = invoke("--config", str(tmp_path), "--sign-url", "--new-sign-key", "--json")
    assert code == 0
    now = datetime.datetime.now(datetime.UTC).timestamp()
    assert not token_good(sign_key(tmp_path), old.split("t=")[1], now)
    assert token_good(sign_key(tmp_path), json.loads(out)["sign"].split("t=")[1], now)


@pytest.mark.parametrize(("args", "message"), [
    (["--sign-url", "--sign-days", "0"], "Invalid value for '--sign-days'"),
    (["--sign-url", "--port", "0"], "etg floor web: --sign-url needs the --port the server "
                                    "listens on, not 0"),
    (["--new-sign-key"], "etg floor web: --new-sign-key goes with --sign-url"),
    ([], "etg floor web: no floor given: --floor URI or ETG_FLOOR_URI"),
])
def test_bad_options_are_one_line_and_exit_2(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                             args: list[str], message: str) -> None:
    monkeypatch.delenv("ETG_FLOOR_URI", raising=False)
    code, out, err = invoke("--config", str(tmp_path), *args)
    assert (code, out) == (2, "")
    assert err.count("\n") == 1
    assert message in err


def test_a_certificate_that_does_not_match_its_key_is_one_line_and_exit_2(
        tmp_path: Path) -> None:
    cert, _ = _self_signed(tmp_path)
    other = tmp_path / "other"
    other.mkdir()
    _, key = _self_signed(other)
    code, out, err = invoke("--config", str(tmp_path), "--floor", "postgresql://nowhere/x",
                            "--port", "0", "--cert", str(cert), "--key", str(key))
    assert (code, out) == (2, "")
    assert err.startswith(f"etg floor web: cannot use the certificate {cert} with the key {key}")
    assert err.count("\n") == 1
