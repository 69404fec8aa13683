"""`pip install .` and `pip install -e .`, each into a fresh virtualenv, run from `/`.

The shipped configuration, the fonts and the distribution's metadata must
travel inside the wheel as package data, mapped there from the repository's
top-level ``config/`` and ``assets/``; an editable install reads those folders
where they are. The smoke test runs from ``/``, with no PYTHONPATH and no
checkout in sight. (The frozen build: test_release_frozen.py.)
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.test_layout import shipped_digests

ROOT = Path(__file__).resolve().parent.parent
WHERE = ("import etg, sys; from etg.config import places; "
         "print(etg.__file__, places.shipped_config_dir(), places.assets_dir(), sep='\\n')")


def run(*args: str | Path, cwd: Path) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items()
           if k not in ("PYTHONPATH", "VIRTUAL_ENV") and not k.startswith("ETG_")}
    result = subprocess.run([str(a) for a in args], cwd=cwd, env=env, capture_output=True,
                            text=True, timeout=900)
    assert result.returncode == 0, result.stdout + result.stderr
    return result


def fresh_venv(tmp_path: Path) -> Path:
    venv = tmp_path / "venv"
    run(sys.executable, "-m", "venv", venv, cwd=tmp_path)
    return venv


def smoke_test_from_root(venv: Path) -> None:
    result = run(venv / "bin" / "etg", "smoke-test", cwd=Path("/"))
    assert result.stdout.splitlines()[-1] == "etg smoke-test: all 6 checks pass", result.stdout
    version = run(venv / "bin" / "etg", "--version", cwd=Path("/")).stdout
    assert version.startswith("etg, version ")


@pytest.mark.slow
def test_pip_install_dot_into_a_fresh_venv_carries_the_shipped_files_and_passes_its_smoke_test(
        tmp_path: Path) -> None:
    venv = fresh_venv(tmp_path)
    run(venv / "bin" / "python", "-m", "pip", "install", "--quiet", ROOT, cwd=tmp_path)

    package, config, assets = map(Path, run(venv / "bin" / "python", "-c", WHERE,
                                            cwd=Path("/")).stdout.splitlines())
    assert package.is_relative_to(venv), package  # the wheel's copy, not this checkout
    data = package.parent / "data"
    assert (config, assets) == (data / "config", data / "assets")
    # every file of config/ and assets/, byte for byte, and nothing more
    assert shipped_digests(data) == shipped_digests(ROOT)
    assert sorted(p.name for p in data.iterdir()) == ["assets", "config"]
    smoke_test_from_root(venv)


@pytest.mark.slow
def test_an_editable_install_reads_the_top_level_folders_and_passes_its_smoke_test(
        tmp_path: Path) -> None:
    # A copy of the project, so that installing it never writes into this checkout.
    source = tmp_path / "source"
    skip = shutil.ignore_patterns("__pycache__", "out", "*.egg-info")
    source.mkdir()
    for name in ("pyproject.toml", "README.md"):
        shutil.copy2(ROOT / name, source / name)
    for name in ("etg", "config", "assets", "build"):
        shutil.copytree(ROOT / name, source / name, ignore=skip)
    venv = fresh_venv(tmp_path)
    run(venv / "bin" / "python", "-m", "pip", "install", "--quiet", "-e", source, cwd=tmp_path)

    package, config, assets = map(Path, run(venv / "bin" / "python", "-c", WHERE,
                                            cwd=Path("/")).stdout.splitlines())
    assert package == source / "etg" / "__init__.py"
    assert (config, assets) == (source / "config", source / "assets")
    assert not (source / "etg" / "data").exists()
    # the install left the top level as it was: its metadata went to build/
    assert sorted(p.name for p in source.iterdir()) == ["README.md", "assets", "build", "config",
                                                        "etg", "pyproject.toml"]
    assert (source / "build" / "etg_casino_war.egg-info" / "PKG-INFO").is_file()
    smoke_test_from_root(venv)
