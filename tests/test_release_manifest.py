"""Software verification: a changed, added or removed file of the bundle tilts the table."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from etg.cli import check_software, main
from etg.release.manifest import MANIFEST_NAME, manifest_digest, verify_bundle, write_manifest
from tests.ledger_support import open_table


@pytest.fixture
def bundle(tmp_path: Path) -> Path:
    root = tmp_path / "etg"
    (root / "_internal" / "etg" / "data").mkdir(parents=True)
    (root / "etg").write_bytes(b"\x7fELF the program")
    (root / "_internal" / "libpython.so").write_bytes(bytes(range(256)) * 50)
    (root / "_internal" / "etg" / "data" / "cabinet.yaml").write_text("active_paytable: x\n")
    write_manifest(root, "1.2.3")
    return root


def test_a_fresh_bundle_matches_its_manifest(bundle: Path) -> None:
    assert verify_bundle(bundle) == []
    data = json.loads((bundle / MANIFEST_NAME).read_text())
    assert data["version"] == "1.2.3" and sorted(data["files"]) == [
        "_internal/etg/data/cabinet.yaml", "_internal/libpython.so", "etg"]


@pytest.mark.parametrize(("change", "problem"), [
    ("changed", "_internal/libpython.so: changed"),
    ("added", "_internal/etg/data/extra.py: extra (not in the manifest)"),
    ("removed", "_internal/etg/data/cabinet.yaml: missing"),
])
def test_each_difference_is_named_and_tilts_at_start_up(bundle: Path, tmp_path: Path,
                                                        change: str, problem: str) -> None:
    if change == "changed":
        library = bundle / "_internal" / "libpython.so"
        data = bytearray(library.read_bytes())
        data[1000] ^= 1
        library.write_bytes(bytes(data))
    elif change == "added":
        (bundle / "_internal" / "etg" / "data" / "extra.py").write_text("print('hi')\n")
    else:
        (bundle / "_internal" / "etg" / "data" / "cabinet.yaml").unlink()
    assert verify_bundle(bundle) == [problem]
    table = open_table(tmp_path / "ledger.db")
    check_software(table, bundle)
    assert table.tilt is not None and table.tilt.message == f"software: {problem}"
    assert table.ledger.event_log("tilt")[-1]["details"] == {"check": "software",
                                                             "message": problem}
    table.close()


def test_a_clean_bundle_does_not_tilt(bundle: Path, tmp_path: Path) -> None:
    table = open_table(tmp_path / "ledger.db")
    check_software(table, bundle)
    assert table.tilt is None
    table.close()


def test_etg_verify_prints_the_digest_a_lab_compares(bundle: Path) -> None:
    digest = manifest_digest(bundle / MANIFEST_NAME)
    result = CliRunner().invoke(main, ["verify", "--bundle", str(bundle), "--json"])
    assert result.exit_code == 0
    assert json.loads(result.output) == {"manifest": str(bundle / MANIFEST_NAME),
                                         "sha256": digest, "version": "1.2.3", "problems": []}
    (bundle / "etg").write_bytes(b"patched")
    result = CliRunner().invoke(main, ["verify", "--bundle", str(bundle)])
    assert result.exit_code == 1 and f"{bundle}: etg: changed" in result.output
    assert manifest_digest(bundle / MANIFEST_NAME) == digest  # the manifest itself is unchanged


def test_a_source_install_says_it_has_no_manifest() -> None:
    result = CliRunner().invoke(main, ["verify"])
    assert result.exit_code == 0 and "a source install has no software manifest" in result.output
