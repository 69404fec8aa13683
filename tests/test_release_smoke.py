"""``etg smoke-test``: every check passes on a good install and names what is broken on a bad one."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from etg.cli import main
from etg.config import places
from etg.release.smoke import run_smoke_test

CHECKS = ["software", "assets", "paytables", "ledger", "sounds", "frames"]


def test_every_check_passes_on_this_install_and_reports_in_order() -> None:
    seen: list[str] = []
    results = run_smoke_test(lambda r: seen.append(r.name))
    assert [r.name for r in results] == CHECKS == seen
    assert all(r.ok for r in results), [r for r in results if not r.ok]
    details = {r.name: r.detail for r in results}
    assert details["software"].startswith("source install")
    assert details["assets"] == "4 fonts, 2 texts load"  # the DejaVu faces, licence and README
    shipped = len(list((places.shipped_config_dir() / "paytables").glob("*.yaml")))
    assert details["paytables"] == f"{shipped} paytables and cabinet.yaml validate"
    assert details["sounds"] == "7 sounds made and the mixer takes them"
    assert details["frames"].startswith("12 frames of the table drawn at 1920x1080")


def test_it_leaves_the_cabinets_places_and_ledgers_alone(tmp_path: Path,
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ETG_CONFIG_DIR", str(tmp_path / "site"))
    monkeypatch.delenv("ETG_DATA_DIR", raising=False)
    run_smoke_test()
    assert os.environ["ETG_CONFIG_DIR"] == str(tmp_path / "site")
    assert "ETG_DATA_DIR" not in os.environ
    assert not (tmp_path / "site").exists()  # no key, no cabinet.yaml made in the real place
    assert not places.data_dir().exists()


def test_a_missing_font_fails_the_assets_check_and_the_rest_still_run(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    assets = tmp_path / "assets"
    shutil.copytree(places.assets_dir(), assets)
    (assets / "fonts" / "DejaVuSerif-Bold.ttf").unlink()
    monkeypatch.setenv("ETG_ASSETS", str(assets))
    by_name = {r.name: r for r in run_smoke_test()}
    assert not by_name["assets"].ok
    assert by_name["assets"].detail == (
        f"missing: {assets / 'fonts' / 'DejaVuSerif-Bold.ttf'}")  # words, not a class name
    assert by_name["paytables"].ok and by_name["ledger"].ok


def test_a_damaged_font_file_is_named(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    assets = tmp_path / "assets"
    shutil.copytree(places.assets_dir(), assets)
    (assets / "fonts" / "DejaVuSans.ttf").write_bytes(b"\x00" * 64)  # overwritten bytes
    monkeypatch.setenv("ETG_ASSETS", str(assets))
    result = {r.name: r for r in run_smoke_test()}["assets"]
    assert not result.ok and result.detail.startswith("error:")


def test_a_broken_shipped_paytable_is_named_by_file_and_line(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    config = tmp_path / "config"
    shutil.copytree(places.shipped_config_dir(), config)
    broken = config / "paytables" / "south-dakota.yaml"
    broken.write_text(broken.read_text(encoding="utf-8").replace("decks: 6", "decks: six", 1),
                      encoding="utf-8")
    monkeypatch.setattr(places, "shipped_config_dir", lambda: config)
    result = {r.name: r for r in run_smoke_test()}["paytables"]
    assert not result.ok
    assert f"{broken}:" in result.detail and "decks" in result.detail


def test_the_command_prints_a_line_per_check_and_exits_by_the_result(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    result = CliRunner().invoke(main, ["smoke-test"])
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert [line.split(":")[0].split()[-1] for line in lines[:6]] == CHECKS
    assert lines[-1] == "etg smoke-test: all 6 checks pass"
    monkeypatch.setenv("ETG_ASSETS", str(tmp_path / "nothing"))
    result = CliRunner().invoke(main, ["smoke-test"])
    assert result.exit_code == 1
    assert "FAIL  assets: missing:" in result.output
    assert result.output.splitlines()[-1] == "etg smoke-test: 1 of 6 checks failed (assets)"


