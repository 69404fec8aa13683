"""install.sh and uninstall.sh on a temporary prefix: places, modes, the unit, and a ledger kept.

The release folder is laid out as ``build/build.sh`` lays it out, around a
stand-in bundle: ``etg/etg`` runs this checkout's program, and the bundle has
its own SHA-256 manifest, so install.sh's software verification is the real one.
(``test_release_frozen.py`` installs the real PyInstaller archive when it is built.)
"""

from __future__ import annotations

import os
import shutil
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from etg.config.places import shipped_config_dir
from etg.release.manifest import write_manifest

ROOT = Path(__file__).resolve().parent.parent
RELEASE = ROOT / "build" / "release"
VERSION = "9.8.7"


def release_folder(tmp: Path, version: str = VERSION) -> Path:
    """An unpacked release: etg/ with a manifest, install.sh, uninstall.sh, unit, INSTALL.txt."""
    folder = tmp / f"etg-{version}-linux-x86_64"
    bundle = folder / "etg"
    (bundle / "_internal" / "etg" / "data").mkdir(parents=True)
    shutil.copytree(shipped_config_dir(), bundle / "_internal" / "etg" / "data" / "config")
    program = bundle / "etg"
    program.write_text(f"#!/bin/sh\nexec {sys.executable} -m etg \"$@\"\n")
    program.chmod(0o755)
    write_manifest(bundle, version)
    for name in ("install.sh", "uninstall.sh", "etg-kiosk.service.in", "INSTALL.txt"):
        shutil.copy2(RELEASE / name, folder / name)
    return folder


def sh(*args: str | Path, cwd: Path | None = None,
       check: bool = True) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("ETG_")}
    env["PYTHONPATH"] = str(ROOT)  # the stand-in bundle runs this checkout
    result = subprocess.run([str(a) for a in args], cwd=cwd or Path("/"), env=env,
                            capture_output=True, text=True, timeout=300)
    if check:
        assert result.returncode == 0, result.stdout + result.stderr
    return result


def me() -> str:
    return subprocess.run(["id", "-un"], capture_output=True, text=True, check=True).stdout.strip()


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


@pytest.mark.slow
def test_install_then_uninstall_keeps_the_ledger_anchor_keys_and_configuration(
        tmp_path: Path) -> None:
    release = release_folder(tmp_path)
    prefix = tmp_path / "cabinet"
    out = sh(release / "install.sh", "--prefix", prefix, "--user", me(), "--display", ":1")
    assert f"installed: {prefix}/opt/etg/current -> {VERSION}" in out.stdout

    program = prefix / "opt" / "etg" / VERSION
    assert os.readlink(prefix / "opt" / "etg" / "current") == VERSION
    assert (program / "etg-manifest.json").is_file()
    assert mode(program / "etg-manifest.json") & 0o222 == 0  # the program is read-only
    config, data = prefix / "etc" / "etg", prefix / "var" / "lib" / "etg"
    assert (mode(config), mode(config / "keys"), mode(data)) == (0o755, 0o755, 0o750)
    # etg ledger init ran once: the real ledger, the private key for the kiosk's user alone,
    # the public key and the record for everyone
    keys = config / "keys"
    assert (mode(keys / "ledger.ed25519"), mode(keys / "ledger.pub"),
            mode(config / "ledger.yaml")) == (0o600, 0o644, 0o644)
    assert (data / "ledger.db").is_file() and not (keys / "ledger.key").exists()
    shipped = sorted(p.name for p in (shipped_config_dir() / "paytables").glob("*.yaml"))
    assert sorted(p.name for p in (config / "paytables").glob("*.yaml")) == shipped
    assert (config / "cabinet.yaml").read_bytes() == (shipped_config_dir()
                                                      / "cabinet.yaml").read_bytes()

    unit = (prefix / "etc" / "systemd" / "system" / "etg-kiosk.service").read_text()
    assert f"ExecStart={prefix}/opt/etg/current/etg run\n" in unit
    assert f"Environment=ETG_CONFIG_DIR={config}\n" in unit
    assert f"Environment=ETG_DATA_DIR={data}\n" in unit
    assert "Environment=DISPLAY=:1\n" in unit and "Restart=on-failure\n" in unit
    assert f"User={me()}\n" in unit and "WantedBy=graphical.target\n" in unit
    assert "@" not in unit.replace("file://", "")  # every placeholder filled

    # The technician's command finds the cabinet's places: the ledger, its anchor and keys.
    command = prefix / "usr" / "local" / "bin" / "etg"
    verify = sh(command, "ledger", "verify")
    assert verify.stdout.strip() == f"{data / 'ledger.db'}: 0 rounds, clean"
    sh(command, "autoplay", "--db", data / "test.db", "--rounds", "2", "--seed", "3",
       "--paytable", config / "paytables" / "maryland-community-5.yaml")
    kept = {path: path.read_bytes() for path in (data / "ledger.db", data / "ledger.db.anchor",
                                                  data / "test.db", keys / "ledger.ed25519",
                                                  keys / "ledger.pub", config / "ledger.yaml",
                                                  config / "cabinet.yaml")}
    verify = sh(command, "ledger", "verify", "--db", data / "test.db")
    assert ", clean; the whole history (2 rounds) " in verify.stdout  # checked since a checkpoint

    out = sh(prefix / "opt" / "etg" / "uninstall.sh", "--prefix", prefix)
    assert "kept:" in out.stdout
    assert not (prefix / "opt" / "etg").exists()
    assert not command.exists()
    assert not (prefix / "etc" / "systemd" / "system" / "etg-kiosk.service").exists()
    assert {path: path.read_bytes() for path in kept} == kept


@pytest.mark.slow
def test_an_upgrade_moves_current_and_never_overwrites_the_site_configuration(
        tmp_path: Path) -> None:
    prefix = tmp_path / "cabinet"
    sh(release_folder(tmp_path / "a") / "install.sh", "--prefix", prefix, "--user", me())
    cabinet = prefix / "etc" / "etg" / "cabinet.yaml"
    cabinet.write_text(cabinet.read_text() + "# the technician's edit\n")
    edited = cabinet.read_bytes()
    sh(release_folder(tmp_path / "b", "9.9.0") / "install.sh", "--prefix", prefix,
       "--user", me())
    assert os.readlink(prefix / "opt" / "etg" / "current") == "9.9.0"
    assert (prefix / "opt" / "etg" / VERSION).is_dir()  # the old release stays for a rollback
    assert cabinet.read_bytes() == edited
    assert len(list((prefix / "etc" / "etg" / "keys").iterdir())) == 2  # init ran once only


@pytest.mark.slow
@pytest.mark.parametrize("damage", ["changed", "added", "removed"])
def test_a_damaged_archive_is_refused_and_nothing_is_installed(tmp_path: Path,
                                                               damage: str) -> None:
    release = release_folder(tmp_path)
    bundle = release / "etg"
    if damage == "changed":
        (bundle / "_internal" / "etg" / "data" / "config" / "cabinet.yaml").write_text("x: 1\n")
    elif damage == "added":
        (bundle / "_internal" / "evil.so").write_bytes(b"\x7fELF")
    else:
        (bundle / "_internal" / "etg" / "data" / "config" / "cabinet.yaml").unlink()
    prefix = tmp_path / "cabinet"
    result = sh(release / "install.sh", "--prefix", prefix, "--user", me(), check=False)
    assert result.returncode == 2
    assert result.stderr.strip().splitlines()[-1] == (
        "install.sh: the program's files do not match its software manifest; "
        "nothing was installed")
    assert not (prefix / "opt").exists() and not (prefix / "etc").exists()


@pytest.mark.slow
def test_under_a_prefix_the_kiosk_user_must_exist(tmp_path: Path) -> None:
    result = sh(release_folder(tmp_path) / "install.sh", "--prefix", tmp_path / "c",
                "--user", "no-such-user-etg", check=False)
    assert result.returncode == 2
    assert "user no-such-user-etg does not exist" in result.stderr


def test_unknown_options_are_refused_in_one_line(tmp_path: Path) -> None:
    release = release_folder(tmp_path)
    for script in ("install.sh", "uninstall.sh"):
        result = sh(release / script, "--prefx", "/tmp/x", check=False)
        assert result.returncode == 2
        assert result.stderr == f"{script}: unknown option --prefx (see --help)\n"
