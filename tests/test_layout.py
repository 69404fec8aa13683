"""The repository's layout: the top level an operator expects, and one copy of each shipped file.

The shipped defaults live at the top level (``config/``, ``assets/``); pyproject.toml maps
them onto the package data ``etg/data/config`` and ``etg/data/assets`` of the wheel, so
they have no second copy in the tree. That the editable install, an installed wheel and
the frozen build each find them is checked in test_release_wheel.py and
test_release_frozen.py (slow).
"""

from __future__ import annotations

import hashlib
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from etg.config import places

ROOT = Path(__file__).resolve().parent.parent
TOP_LEVEL = {"pyproject.toml", "etg", "assets", "config", "build", "tests", "README.md",
             "benchmarks", "docs"}
SHIPPED = {"etg.data.config": "config", "etg.data.assets": "assets"}


def tree() -> list[str]:
    """The files of the repository's tree, tracked or new, without what git ignores
    (the virtualenv, caches, build output in build/out and dist/)."""
    if not (ROOT / ".git").exists():
        pytest.skip("not a git checkout")
    listed = subprocess.run(["git", "-C", str(ROOT), "ls-files", "-z", "--cached", "--others",
                             "--exclude-standard"], capture_output=True, check=True).stdout
    return [name for name in listed.decode().split("\0") if name and (ROOT / name).is_file()]


def shipped_digests(top: Path) -> dict[str, str]:
    """The SHA-256 of every shipped file under ``top``, by its path from there:
    ``config/...`` and ``assets/...`` (the repository's root, or an install's ``etg/data``)."""
    return {path.relative_to(top).as_posix(): hashlib.sha256(path.read_bytes()).hexdigest()
            for folder in SHIPPED.values() for path in sorted((top / folder).rglob("*"))
            if path.is_file()}


def pyproject() -> dict[str, object]:
    with (ROOT / "pyproject.toml").open("rb") as file:
        return tomllib.load(file)


def test_the_top_level_is_the_requested_one() -> None:
    top = {name.split("/")[0] for name in tree()}
    assert {name for name in top if not name.startswith(".")} == TOP_LEVEL
    # an install writes its metadata (the egg-info) into build/, not beside them: see
    # test_release_wheel.py for an editable install doing so
    assert pyproject()["tool"]["distutils"]["egg_info"] == {"egg_base": "build"}  # type: ignore[index]


def test_no_shipped_file_has_a_second_copy_in_the_tree() -> None:
    files = tree()
    shipped = [name for name in files if name.split("/")[0] in SHIPPED.values()]
    assert "config/cabinet.yaml" in shipped
    assert "config/paytables/maryland-community-5.yaml" in shipped
    assert "assets/fonts/DejaVuSans.ttf" in shipped
    digests: dict[str, list[str]] = {}
    for name in files:
        digests.setdefault(hashlib.sha256((ROOT / name).read_bytes()).hexdigest(), []).append(name)
    copies = {name: others for name in shipped
              if len(others := digests[hashlib.sha256((ROOT / name).read_bytes()).hexdigest()]) > 1}
    assert copies == {}
    assert not (ROOT / "etg" / "data").exists()


def test_pyproject_maps_the_top_level_folders_onto_the_package_data() -> None:
    setuptools = pyproject()["tool"]["setuptools"]  # type: ignore[index]
    assert setuptools["package-dir"] == SHIPPED
    for package in SHIPPED:
        assert setuptools["package-data"][package] == ["**/*"]


def test_pyproject_names_every_package_of_etg() -> None:
    """setuptools cannot discover a mapped package, so pyproject.toml lists the packages; a
    new subpackage missing from the list would be missing from the wheel and the build."""
    found = {".".join(folder.relative_to(ROOT).parts) for folder in [ROOT / "etg",
                                                                     *(ROOT / "etg").rglob("*")]
             if folder.is_dir() and any(folder.glob("*.py"))}
    listed = pyproject()["tool"]["setuptools"]["packages"]  # type: ignore[index]
    assert sorted(listed) == sorted(found | set(SHIPPED))


def test_a_checkout_reads_the_shipped_defaults_from_the_top_level_folders(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("ETG_ASSETS", raising=False)
    assert places.shipped_config_dir() == ROOT / "config"
    assert places.assets_dir() == ROOT / "assets"


def test_the_frozen_build_reads_the_package_data_it_bundles(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.delenv("ETG_ASSETS", raising=False)
    monkeypatch.setattr(sys, "_MEIPASS", str(tmp_path), raising=False)
    assert places.shipped_config_dir() == tmp_path / "etg" / "data" / "config"
    assert places.assets_dir() == tmp_path / "etg" / "data" / "assets"


def test_etg_assets_overrides_the_assets_only(monkeypatch: pytest.MonkeyPatch,
                                              tmp_path: Path) -> None:
    monkeypatch.setenv("ETG_ASSETS", str(tmp_path))
    assert places.assets_dir() == tmp_path
    assert places.shipped_config_dir() == ROOT / "config"
