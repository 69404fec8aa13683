"""The floor pages' access, without a server: the sign's signed link, the PIN registry a
login is checked against, the throttle on wrong PINs and the sessions' expiry."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

from etg.config.cabinet_edit import set_cabinet_value
from etg.config.loader import seed_site_config
from etg.table.pin import hash_pin
from etg.web.access import LOCK_S, MAX_FAILURES, SESSION_S, Sessions, Throttle, whose_pin
from etg.web.tokens import KEY_BYTES, KEY_FILE, SignKeyError, make_token, sign_key, token_good


class Clock:
    def __init__(self) -> None:
        self.now = 1_000.0

    def __call__(self) -> float:
        return self.now


# -- the sign's link ---------------------------------------------------------------------------

def test_a_sign_key_is_made_once_private_and_kept(tmp_path: Path) -> None:
    key = sign_key(tmp_path)
    assert len(key) == KEY_BYTES
    assert stat.S_IMODE(os.stat(tmp_path / KEY_FILE).st_mode) == 0o600
    assert sign_key(tmp_path) == key
    renewed = sign_key(tmp_path, renew=True)
    assert renewed != key
    assert sign_key(tmp_path) == renewed


def test_a_damaged_sign_key_is_refused_in_one_line(tmp_path: Path) -> None:
    (tmp_path / KEY_FILE).write_bytes(b"short")
    with pytest.raises(SignKeyError, match=r"is damaged \(5 bytes, not 32\): make a new one "
                                           r"with --new-sign-key"):
        sign_key(tmp_path)


def test_a_token_is_good_until_its_expiry_and_only_with_its_key(tmp_path: Path) -> None:
    key = sign_key(tmp_path)
    token = str(make_token(key, 2_000))
    assert token_good(key, token, 1_999.9)
    assert not token_good(key, token, 2_000)  # the expiry is the first moment it is refused
    assert not token_good(b"\x00" * KEY_BYTES, token, 1_000)


@pytest.mark.parametrize("forged", [
    "", "2000", "2000.", ".abc", "9999.{sig}",  # another expiry with the first's signature
    "²000.{sig}", "-1.{sig}", "2000.{sig}0", "1234567890123.{sig}",
])
def test_a_forged_or_garbled_token_is_refused(tmp_path: Path, forged: str) -> None:
    key = sign_key(tmp_path)
    signature = make_token(key, 2_000).signature
    assert not token_good(key, forged.format(sig=signature), 1_000)


# -- the PIN registry ----------------------------------------------------------------------------

@pytest.fixture
def config_dir(tmp_path: Path) -> Path:
    folder = seed_site_config(tmp_path / "site")
    cabinet = folder / "cabinet.yaml"
    set_cabinet_value(cabinet, "floorperson_pin_hash", hash_pin("2468"))
    set_cabinet_value(cabinet, "supervisor_pin_hash", hash_pin("13579"))
    set_cabinet_value(cabinet, "operator_pin_hash", hash_pin("1111"))
    return folder


def test_the_floorperson_and_the_supervisor_log_in_and_no_one_else(config_dir: Path) -> None:
    assert whose_pin(config_dir, "2468") == "floorperson"
    assert whose_pin(config_dir, "13579") == "supervisor"
    assert whose_pin(config_dir, "1111") is None  # the operator pays; never validates
    assert whose_pin(config_dir, "0000") is None
    assert whose_pin(config_dir, "24680") is None
    assert whose_pin(config_dir, "") is None
    assert whose_pin(config_dir, "2468' OR 1=1") is None


def test_a_pin_set_while_serving_works_at_the_next_login(config_dir: Path) -> None:
    assert whose_pin(config_dir, "8642") is None
    set_cabinet_value(config_dir / "cabinet.yaml", "floorperson_pin_hash", hash_pin("8642"))
    assert whose_pin(config_dir, "8642") == "floorperson"
    assert whose_pin(config_dir, "2468") is None


# -- the throttle and the sessions ---------------------------------------------------------------

def test_five_wrong_pins_in_a_row_lock_that_address_for_a_minute() -> None:
    clock = Clock()
    throttle = Throttle(clock)
    for _ in range(MAX_FAILURES - 1):
        throttle.failed("10.0.0.7")
    assert throttle.wait_s("10.0.0.7") == 0.0
    throttle.failed("10.0.0.7")
    assert throttle.wait_s("10.0.0.7") == LOCK_S == 60.0
    assert throttle.wait_s("10.0.0.8") == 0.0  # another terminal is not locked out
    clock.now += 59.5
    assert throttle.wait_s("10.0.0.7") == 0.5
    clock.now += 0.5
    assert throttle.wait_s("10.0.0.7") == 0.0


def test_a_right_pin_clears_the_wrong_ones_before_it() -> None:
    throttle = Throttle(Clock())
    for _ in range(MAX_FAILURES - 1):
        throttle.failed("10.0.0.7")
    throttle.succeeded("10.0.0.7")
    throttle.failed("10.0.0.7")
    assert throttle.wait_s("10.0.0.7") == 0.0


def test_one_pin_at_a_time_is_checked_for_an_address() -> None:
    throttle = Throttle(Clock())
    assert throttle.begin("10.0.0.7")
    assert not throttle.begin("10.0.0.7")  # a second guess sent alongside the first
    assert throttle.begin("10.0.0.8")
    throttle.end("10.0.0.7")
    assert throttle.begin("10.0.0.7")


def test_a_session_lasts_one_shift_and_no_longer() -> None:
    clock = Clock()
    sessions = Sessions(clock)
    token = sessions.open("floorperson")
    assert len(token) >= 43  # 32 random bytes
    assert sessions.who(token) == "floorperson"
    assert sessions.who("not-a-token") is None
    assert sessions.who(None) is None
    clock.now += SESSION_S - 1
    assert sessions.who(token) == "floorperson"
    clock.now += 1
    assert sessions.who(token) is None


def test_a_closed_session_is_gone_and_others_stay() -> None:
    sessions = Sessions(Clock())
    first, second = sessions.open("floorperson"), sessions.open("supervisor")
    assert first != second
    sessions.close(first)
    assert sessions.who(first) is None
    assert sessions.who(second) == "supervisor"
