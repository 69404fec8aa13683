"""PINs as salted hashes, the in-place cabinet edit, and ``etg pin set`` (SPEC §6)."""

from __future__ import annotations

import hashlib
import re
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from etg.cli.pin import pin
from etg.config.cabinet_edit import CabinetKeyError, set_cabinet_value, yaml_scalar
from etg.config.loader import load_cabinet
from etg.config.places import shipped_config_dir
from etg.config.problems import ConfigError
from etg.table.pin import ITERATIONS, PinRole, hash_pin, pin_problem, verify_pin

STORED = re.compile(r"pbkdf2_sha256\$(\d+)\$([0-9a-f]{32})\$([0-9a-f]{64})")


@pytest.fixture
def config(tmp_path: Path) -> Path:
    target = tmp_path / "config"
    shutil.copytree(shipped_config_dir(), target)
    return target


# --- hashing ----------------------------------------------------------------------------------

@pytest.mark.real_pin_cost  # the count and digest a cabinet's hash is made with
def test_hash_has_the_documented_format_and_enough_iterations() -> None:
    stored = hash_pin("1234")
    match = STORED.fullmatch(stored)
    assert match is not None, stored
    assert int(match.group(1)) == ITERATIONS >= 200_000


@pytest.mark.real_pin_cost  # the count and digest a cabinet's hash is made with
def test_hash_is_pbkdf2_sha256_of_the_pin_with_its_salt() -> None:
    salt = bytes(range(16))
    expected = hashlib.pbkdf2_hmac("sha256", b"90210", salt, ITERATIONS).hex()
    assert hash_pin("90210", salt) == f"pbkdf2_sha256${ITERATIONS}${salt.hex()}${expected}"


def test_each_hash_gets_its_own_random_salt() -> None:
    first, second = hash_pin("1234"), hash_pin("1234")
    assert first != second
    assert first.split("$")[2] != second.split("$")[2]
    assert verify_pin("1234", first) and verify_pin("1234", second)


def test_verify_accepts_the_right_pin_and_refuses_a_wrong_one() -> None:
    stored = hash_pin("24680")
    assert verify_pin("24680", stored) is True
    assert verify_pin("24681", stored) is False
    assert verify_pin("2468", stored) is False
    assert verify_pin("246800", stored) is False


def test_verify_is_false_without_a_hash_or_with_a_damaged_one() -> None:
    stored = hash_pin("1234")
    _, iterations, salt, digest = stored.split("$")
    assert verify_pin("1234", None) is False
    for damaged in (
        "",
        "1234",  # a PIN stored in clear is never accepted
        f"pbkdf2_sha1${iterations}${salt}${digest}",
        f"pbkdf2_sha256${int(iterations) - 1}${salt}${digest}",  # iterations edited
        f"pbkdf2_sha256$0${salt}${digest}",
        f"pbkdf2_sha256$99999999999${salt}${digest}",
        f"pbkdf2_sha256${iterations}${salt}${digest[:-1]}",
        f"pbkdf2_sha256${iterations}${salt}${digest.upper()}",
        f"pbkdf2_sha256${iterations}$zz{salt[2:]}${digest}",
        f"pbkdf2_sha256${iterations}${salt}${digest}$",
        f" {stored}",
    ):
        assert verify_pin("1234", damaged) is False, damaged


def test_verify_refuses_an_input_that_is_not_a_pin_without_hashing_it() -> None:
    stored = hash_pin("1234")
    assert verify_pin("1234\n", stored) is False
    assert verify_pin("١٢٣٤", stored) is False  # Arabic-Indic digits are not 0-9


@pytest.mark.parametrize(("candidate", "problem"), [
    ("1234", None),
    ("0000", None),
    ("12345678", None),
    ("123", "a PIN has 4 to 8 digits, not 3"),
    ("123456789", "a PIN has 4 to 8 digits, not 9"),
    ("", "a PIN has 4 to 8 digits, not 0"),
    ("12a4", "a PIN is made of the digits 0-9 only"),
    (" 1234", "a PIN is made of the digits 0-9 only"),
    ("１２３４", "a PIN is made of the digits 0-9 only"),  # full-width digits
    ("12.4", "a PIN is made of the digits 0-9 only"),
])
def test_pin_problem(candidate: str, problem: str | None) -> None:
    assert pin_problem(candidate) == problem


def test_a_bad_pin_is_never_hashed() -> None:
    with pytest.raises(ValueError, match="4 to 8 digits"):
        hash_pin("123")


def test_roles_name_their_cabinet_keys() -> None:
    assert PinRole.OPERATOR.value == "operator"
    assert PinRole.OPERATOR.cabinet_key == "operator_pin_hash"
    assert PinRole.SUPERVISOR.cabinet_key == "supervisor_pin_hash"


# --- set_cabinet_value ------------------------------------------------------------------------

def test_setting_a_value_changes_one_line_and_keeps_its_comment(config: Path) -> None:
    cabinet = config / "cabinet.yaml"
    before = cabinet.read_bytes().decode().splitlines(keepends=True)
    stored = hash_pin("1234")
    set_cabinet_value(cabinet, "operator_pin_hash", stored)
    after = cabinet.read_bytes().decode().splitlines(keepends=True)
    assert len(after) == len(before)
    changed = [i for i, (a, b) in enumerate(zip(before, after, strict=True)) if a != b]
    assert len(changed) == 1
    line = after[changed[0]]
    assert line.startswith(f"operator_pin_hash: {stored}  # ")
    assert line.endswith("# salted hash of the operator PIN; null until one is set\n")
    assert verify_pin("1234", load_cabinet(cabinet).operator_pin_hash)
    assert load_cabinet(cabinet).supervisor_pin_hash is None


def test_setting_null_again_gives_back_the_original_bytes(config: Path) -> None:
    cabinet = config / "cabinet.yaml"
    original = cabinet.read_bytes()
    set_cabinet_value(cabinet, "supervisor_pin_hash", hash_pin("5555"))
    set_cabinet_value(cabinet, "supervisor_pin_hash", None)
    assert cabinet.read_bytes() == original


def test_crlf_line_endings_are_kept(config: Path) -> None:
    cabinet = config / "cabinet.yaml"
    cabinet.write_bytes(cabinet.read_bytes().replace(b"\n", b"\r\n"))
    set_cabinet_value(cabinet, "language", "fr")
    data = cabinet.read_bytes()
    assert b"\nlanguage: fr   " in data
    assert data.count(b"\r\n") == data.count(b"\n")
    assert load_cabinet(cabinet).language == "fr"


@pytest.mark.parametrize("value", ["true", "010", "null", "a # b", "it's", "~", "1.5", "-x"])
def test_values_are_quoted_so_they_read_back_as_the_same_text(config: Path, value: str) -> None:
    cabinet = config / "cabinet.yaml"
    set_cabinet_value(cabinet, "database", value)
    assert load_cabinet(cabinet).database == value


def test_plain_values_stay_plain() -> None:
    assert yaml_scalar("paytables/maryland-community-3.yaml") == \
        "paytables/maryland-community-3.yaml"
    assert yaml_scalar(None) == "null"
    assert yaml_scalar("true") == "'true'"
    assert yaml_scalar("x\ny") == '"x\\ny"'


@pytest.mark.parametrize(("key", "value", "message"), [
    ("operator_pin_hash", "", "must not be empty"),
    ("active_paytable", "paytables/nope.yaml", "no such file"),
    ("language", "English", "must be a language code"),
])
def test_an_invalid_value_leaves_the_file_untouched(config: Path, key: str, value: str,
                                                   message: str) -> None:
    cabinet = config / "cabinet.yaml"
    original = cabinet.read_bytes()
    with pytest.raises(ConfigError, match=message) as error:
        set_cabinet_value(cabinet, key, value)
    assert all(p.file == str(cabinet) for p in error.value.problems)
    assert cabinet.read_bytes() == original
    assert sorted(p.name for p in config.iterdir()) == ["cabinet.yaml", "paytables"]


def test_a_missing_key_is_a_clear_key_error(config: Path) -> None:
    cabinet = config / "cabinet.yaml"
    original = cabinet.read_bytes()
    with pytest.raises(KeyError) as error:
        set_cabinet_value(cabinet, "nonsense_key", "x")
    assert isinstance(error.value, CabinetKeyError)
    assert str(error.value) == f"{cabinet}: no top-level 'nonsense_key:' line to change"
    with pytest.raises(CabinetKeyError):
        set_cabinet_value(cabinet, "index", "1")  # nested under display:, not top level
    assert cabinet.read_bytes() == original


def test_a_mapping_is_not_overwritten_by_a_scalar(config: Path) -> None:
    cabinet = config / "cabinet.yaml"
    with pytest.raises(ValueError, match="holds a block"):
        set_cabinet_value(cabinet, "display", "x")


def test_a_broken_file_is_reported_not_edited(config: Path) -> None:
    cabinet = config / "cabinet.yaml"
    cabinet.write_text("language: [en\n", encoding="utf-8")
    with pytest.raises(ConfigError):
        set_cabinet_value(cabinet, "language", "fr")
    assert cabinet.read_text(encoding="utf-8") == "language: [en\n"


# --- etg pin set --------------------------------------------------------------------------------

def _run(config: Path, typed: str, *args: str) -> tuple[int, str]:
    result = CliRunner().invoke(pin, ["set", "--config", str(config), *args], input=typed)
    return result.exit_code, result.output


def test_pin_set_writes_a_hash_that_verifies_and_never_prints_the_pin(config: Path) -> None:
    code, output = _run(config, "918273\n918273\n")
    assert code == 0, output
    cabinet = load_cabinet(config / "cabinet.yaml")
    assert verify_pin("918273", cabinet.operator_pin_hash)
    assert cabinet.supervisor_pin_hash is None
    assert output.splitlines()[-2] == (f"Operator PIN set in {config / 'cabinet.yaml'} "
                                       f"(salted PBKDF2-SHA256 hash).")
    assert output.splitlines()[-1].endswith("/ledger.db yet: its first start records this PIN.")
    assert "918273" not in output.replace(str(config), "")
    assert "918273" not in (config / "cabinet.yaml").read_text(encoding="utf-8")


def test_pin_set_for_the_supervisor(config: Path) -> None:
    code, output = _run(config, "4321\n4321\n", "--role", "supervisor")
    assert code == 0, output
    cabinet = load_cabinet(config / "cabinet.yaml")
    assert verify_pin("4321", cabinet.supervisor_pin_hash)
    assert cabinet.operator_pin_hash is None
    assert output.splitlines()[-2].startswith("Supervisor PIN set in ")


@pytest.mark.parametrize(("typed", "message"), [
    ("1234\n1243\n", "PIN refused: the two entries differ; nothing was changed"),
    ("123\n123\n", "PIN refused: a PIN has 4 to 8 digits, not 3; nothing was changed"),
    ("12ab\n12ab\n", "PIN refused: a PIN is made of the digits 0-9 only; nothing was changed"),
])
def test_pin_set_refuses_with_exit_code_2(config: Path, typed: str, message: str) -> None:
    original = (config / "cabinet.yaml").read_bytes()
    code, output = _run(config, typed)
    assert code == 2
    assert message in output
    assert (config / "cabinet.yaml").read_bytes() == original


def test_pin_set_refuses_a_missing_or_invalid_cabinet(tmp_path: Path, config: Path) -> None:
    code, output = _run(tmp_path / "nowhere", "1234\n1234\n")
    assert code == 2
    assert "cannot read the file" in output
    (config / "cabinet.yaml").write_text("active_paytable: paytables/none.yaml\n",
                                         encoding="utf-8")
    code, output = _run(config, "1234\n1234\n")
    assert code == 2
    assert "no such file" in output
    assert "New operator PIN" not in output  # refused before asking for the PIN
