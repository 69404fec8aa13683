"""The cabinet's floor settings (hand-pay threshold, tips, floorperson and dealer PINs) and
``etg pin`` for them (MD Ch. 9 J(4), Ch. 8 E(4), Ch. 2 D)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from etg.cli.pin import pin
from etg.config.loader import load_cabinet
from etg.config.places import shipped_config_dir
from etg.config.problems import ConfigError
from etg.table.pin import verify_pin
from tests.ledger_support import played_ledger, with_site_keys
from tests.test_config import MD5


@pytest.fixture
def config(tmp_path: Path) -> Path:
    target = tmp_path / "config"
    shutil.copytree(shipped_config_dir(), target)
    return target


def test_the_shipped_cabinet_hand_pays_from_1200_and_tips_1_5_or_25(config: Path) -> None:
    cabinet = load_cabinet(config / "cabinet.yaml")
    assert cabinet.hand_pay_threshold_cents == 120_000
    assert cabinet.tip_amounts_cents == (100, 500, 2_500)
    assert (cabinet.floorperson_pin_hash, cabinet.dealers) == (None, {})


def test_floor_settings_problems(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "paytables").mkdir()
    shutil.copy(MD5, tmp_path / "paytables" / "md5.yaml")
    (tmp_path / "cabinet.yaml").write_text(
        "active_paytable: paytables/md5.yaml\n"
        "hand_pay_threshold_cents: 0\n"
        "tip_amounts_cents: [100, 0]\n"
        "floorperson_pin_hash: ''\n"
        "dealers:\n"
        "  D0417: ''\n"
        "  d12: null\n", "utf-8")
    with pytest.raises(ConfigError) as caught:
        load_cabinet(Path("cabinet.yaml"))
    assert str(caught.value).splitlines() == [
        "cabinet.yaml:2:27: hand_pay_threshold_cents: must be between 100 and 100,000,000 "
        "cents, not 0",
        "cabinet.yaml:3:26: tip_amounts_cents.1: must be between 1 and 100,000 cents, not 0",
        "cabinet.yaml:4:23: floorperson_pin_hash: must not be empty (null if not set)",
        "cabinet.yaml:6:10: dealers.D0417: must not be empty (null: removed)",
        "cabinet.yaml:7:8: dealers.d12: a dealer ID is D and 1 to 8 digits (D0417), not 'd12'",
    ]
    (tmp_path / "cabinet.yaml").write_text(
        "active_paytable: paytables/md5.yaml\n"
        "tip_amounts_cents: [100, 200, 300, 400]\n", "utf-8")
    with pytest.raises(ConfigError) as caught:
        load_cabinet(Path("cabinet.yaml"))
    assert str(caught.value) == ("cabinet.yaml:2:20: tip_amounts_cents: at most 3 amounts fit "
                                 "on a seat, not 4")


def _pin(config: Path, typed: str, *args: str) -> tuple[int, str]:
    result = CliRunner().invoke(pin, [*args[:1], "--config", str(config), *args[1:]],
                                input=typed)
    return result.exit_code, result.output


def test_pin_set_for_the_floorperson_and_a_dealer_then_remove_the_dealer(
        config: Path, tmp_path: Path) -> None:
    db = str(played_ledger(tmp_path, rounds=1))  # a removal is recorded: it needs the ledger
    with_site_keys(config)  # the keys it is signed with, where --config names them
    code, output = _pin(config, "1357\n1357\n", "set", "--db", db, "--role", "floorperson")
    assert code == 0, output
    code, output = _pin(config, "2468\n2468\n", "set", "--db", db, "--role", "dealer",
                        "--dealer", "D0417")
    assert code == 0, output
    assert output.splitlines()[-2].startswith("Dealer D0417 PIN set in ")
    cabinet = load_cabinet(config / "cabinet.yaml")
    assert verify_pin("1357", cabinet.floorperson_pin_hash)
    assert verify_pin("2468", cabinet.dealers["D0417"])
    assert "2468" not in (config / "cabinet.yaml").read_text(encoding="utf-8")
    code, output = _pin(config, "1357\n", "remove-dealer", "--db", db, "D0417")
    assert code == 0, output
    assert "(recorded in the ledger, by floorperson)" in output
    assert load_cabinet(config / "cabinet.yaml").dealers == {"D0417": None}
    code, output = _pin(config, "", "remove-dealer", "--db", db, "D0417")
    assert code == 2 and "no dealer D0417 with a PIN; nothing was changed" in output


@pytest.mark.parametrize(("args", "message"), [
    # Issue 26: whole sentences that say what to type, not a fragment.
    (("--role", "dealer"), "etg pin set: --role dealer needs the dealer's ID: --dealer ID "
                           "(e.g. D0417); nothing was changed"),
    (("--dealer", "D1"), "etg pin set: --dealer is for a dealer's PIN (--role dealer), not the "
                         "operator's; nothing was changed"),
    (("--role", "dealer", "--dealer", "417"),
     "PIN refused: a dealer ID is D and 1 to 8 digits (D0417), not '417'; nothing was changed"),
])
def test_pin_set_refuses_a_dealer_without_a_proper_id(config: Path, args: tuple[str, ...],
                                                      message: str) -> None:
    original = (config / "cabinet.yaml").read_bytes()
    code, output = _pin(config, "1234\n1234\n", "set", *args)
    assert code == 2 and message in output
    assert (config / "cabinet.yaml").read_bytes() == original
