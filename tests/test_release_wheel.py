"""A plain wheel, installed into a fresh virtualenv (not editable), runs from any directory.

The shipped configuration, the fonts and the distribution's metadata must
travel inside the wheel as package data: the smoke test runs from a
temporary directory, with no PYTHONPATH and no checkout in sight.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def run(*args: str | Path, cwd: Path) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items()
           if k not in ("PYTHONPATH", "VIRTUAL_ENV") and not k.startswith("ETG_")}
    result = subprocess.run([str(a) for a in args], cwd=cwd, env=env, capture_output=True,
                            text=True, timeout=900)
    assert result.returncode == 0, result.stdout + result.stderr
    return result


@pytest.mark.slow
def test_the_built_wheel_installs_into_a_fresh_venv_and_passes_its_smoke_test(
        tmp_path: Path) -> None:
    wheels = tmp_path / "wheels"
    run(sys.executable, "-m", "pip", "wheel", "--no-deps", "--quiet", "-w", wheels, ROOT,
        cwd=tmp_path)
    (wheel,) = wheels.glob("etg_casino_war-*.whl")
    venv = tmp_path / "venv"
    run(sys.executable, "-m", "venv", venv, cwd=tmp_path)
    run(venv / "bin" / "python", "-m", "pip", "install", "--quiet", wheel, cwd=tmp_path)

    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    where = run(venv / "bin" / "python", "-c", "import etg, sys; print(etg.__file__)",
                cwd=elsewhere).stdout.strip()
    assert Path(where).is_relative_to(venv), where  # the wheel's copy, not this checkout
    result = run(venv / "bin" / "etg", "smoke-test", cwd=elsewhere)
    assert result.stdout.splitlines()[-1] == "etg smoke-test: all 6 checks pass", result.stdout
    version = run(venv / "bin" / "etg", "--version", cwd=elsewhere).stdout
    assert version.startswith("etg, version ")
