"""The real release archive of ``bash build/build.sh``: installed, smoke-tested, tampered, removed.

These tests need the PyInstaller build in ``dist/``; without one they are
skipped. ``.ci/run`` builds it after the suite and runs this file again, so CI
always exercises the frozen program, from ``/`` with no PYTHONPATH.
"""

from __future__ import annotations

import json
import os
import subprocess
import tarfile
from pathlib import Path

import pytest

from etg.release.manifest import MANIFEST_NAME
from tests.test_layout import shipped_digests

ROOT = Path(__file__).resolve().parent.parent
ARCHIVES = sorted((ROOT / "dist").glob("etg-*-linux-*.tar.gz"))

pytestmark = [pytest.mark.slow,
              pytest.mark.skipif(not ARCHIVES, reason="no release build: bash build/build.sh")]


def run(*args: str | Path, check: bool = True) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items()
           if k not in ("PYTHONPATH", "VIRTUAL_ENV") and not k.startswith("ETG_")}
    result = subprocess.run([str(a) for a in args], cwd="/", env=env, capture_output=True,
                            text=True, timeout=600)
    if check:
        assert result.returncode == 0, result.stdout + result.stderr
    return result


@pytest.fixture
def installed(tmp_path: Path) -> Path:
    """The newest archive unpacked and installed under a temporary prefix."""
    with tarfile.open(ARCHIVES[-1]) as archive:
        archive.extractall(tmp_path / "unpacked", filter="tar")
    (release,) = (tmp_path / "unpacked").iterdir()
    prefix = tmp_path / "cabinet"
    user = run("id", "-un").stdout.strip()
    run(release / "install.sh", "--prefix", prefix, "--user", user)
    return prefix


def test_the_installed_frozen_program_passes_its_smoke_test_from_root(installed: Path) -> None:
    result = run(installed / "usr" / "local" / "bin" / "etg", "smoke-test")
    lines = result.stdout.splitlines()
    assert lines[0].startswith("ok    software: every file of ")
    assert lines[-1] == "etg smoke-test: all 6 checks pass"


def test_the_frozen_build_bundles_config_and_assets_as_they_are_and_its_manifest_covers_them(
        installed: Path) -> None:
    """The wheel's package data, mapped from the top-level config/ and assets/, is what the
    frozen program reads (its smoke test above loads every paytable and font from there)."""
    program = installed / "opt" / "etg" / "current"
    data = program / "_internal" / "etg" / "data"
    shipped = shipped_digests(ROOT)
    assert shipped_digests(data) == shipped
    recorded = json.loads((program / MANIFEST_NAME).read_text())["files"]
    assert {name: recorded.get(f"_internal/etg/data/{name}") for name in shipped} == shipped


@pytest.mark.parametrize("damage", ["changed", "added", "removed"])
def test_a_tampered_bundle_tilts_the_kiosk_at_start_up(installed: Path, tmp_path: Path,
                                                       damage: str) -> None:
    program = installed / "opt" / "etg" / "current"
    internal = program / "_internal"
    paytable = internal / "etg" / "data" / "config" / "paytables" / "south-dakota.yaml"
    internal.chmod(0o755)
    paytable.parent.chmod(0o755)
    if damage == "changed":
        paytable.chmod(0o644)
        paytable.write_text(paytable.read_text() + "# edited\n")
        expected = "_internal/etg/data/config/paytables/south-dakota.yaml: changed"
    elif damage == "added":
        (internal / "patch.py").write_text("print('hi')\n")
        expected = "_internal/patch.py: extra (not in the manifest)"
    else:
        paytable.unlink()
        expected = "_internal/etg/data/config/paytables/south-dakota.yaml: missing"
    etg = installed / "usr" / "local" / "bin" / "etg"
    db = tmp_path / "demo.db"
    kiosk = run(etg, "run", "--headless", "--demo", "--db", db, "--frames", "3", check=False)
    # A headless run that tilts stops and says so, exit 2: nobody is there to acknowledge it.
    assert kiosk.returncode == 2 and "etg run: TILT: software: " in kiosk.stderr
    tilts = json.loads(run(etg, "ledger", "tilts", "--db", db, "--json").stdout)
    assert [(t["check"], t["message"]) for t in tilts["tilts"] if t["active"]] == [
        ("software", expected)]
    smoke = run(etg, "smoke-test", check=False)
    assert smoke.returncode == 1 and "FAIL  software:" in smoke.stdout
