"""The link in cabinet.yaml (SPEC §13, issue 27 item 2): validated like the other keys."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from etg.config import ConfigError, load_cabinet
from etg.config.cabinet import Link
from etg.core.paytable import ProgressiveLevel
from tests.ledger_support import MD5


def _cabinet(tmp_path: Path, text: str) -> Path:
    (tmp_path / "paytables").mkdir(exist_ok=True)
    shutil.copy(MD5, tmp_path / "paytables" / "md5.yaml")
    (tmp_path / "cabinet.yaml").write_text("active_paytable: paytables/md5.yaml\n" + text,
                                           "utf-8")
    return Path("cabinet.yaml")


def test_a_cabinet_without_a_link_is_standalone(tmp_path: Path,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    assert load_cabinet(_cabinet(tmp_path, "")).link is None


def test_the_link_names_the_controller_the_table_and_its_levels(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    cabinet = load_cabinet(_cabinet(tmp_path, (
        "link:\n"
        "  uri: postgresql://table_t01:pw@localhost/floor\n"
        "  table_id: t01\n"
        "  levels: [primary, progressive_payout]\n")))
    assert cabinet.link == Link("postgresql://table_t01:pw@localhost/floor", "t01",
                                (ProgressiveLevel.PRIMARY, ProgressiveLevel.PROGRESSIVE_PAYOUT))


def test_the_link_defaults_to_the_bonus_spin_meters(tmp_path: Path,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    cabinet = load_cabinet(_cabinet(tmp_path, "link: {uri: 'postgres://t@h/f', table_id: t9}\n"))
    assert cabinet.link is not None
    assert cabinet.link.levels == (ProgressiveLevel.PRIMARY, ProgressiveLevel.SECONDARY)


def test_link_problems_are_located_and_said_once_each(tmp_path: Path,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    path = _cabinet(tmp_path, (
        "link:\n"
        "  uri: mysql://x\n"
        "  table_id: 'Table One'\n"
        "  levels: [primary, primary]\n"))
    with pytest.raises(ConfigError) as caught:
        load_cabinet(path)
    assert str(caught.value).splitlines() == [
        "cabinet.yaml:3:8: link.uri: must be a PostgreSQL connection string "
        "(postgresql://role:password@host/database)",
        "cabinet.yaml:4:13: link.table_id: must be 1 to 32 lower-case letters, digits, - and _, "
        "starting with a letter or digit, not 'Table One'",
        "cabinet.yaml:5:11: link.levels: each level once",
    ]
    path = _cabinet(tmp_path, "link: {uri: 'postgresql://a@b/c', table_id: t1, levels: [tertiary]}\n")
    with pytest.raises(ConfigError) as caught:
        load_cabinet(path)
    assert "link.levels.0" in str(caught.value)
