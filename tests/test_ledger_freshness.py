"""Freshness outside the data directory (issue 25, item 2 and finding 2).

Each attack is done to the files as a technician with a shell would, then the commands are
run: ``etg ledger verify`` must exit 1 naming where the ledger stands and where the record
kept outside the data directory says it had come, and the next start must tilt. Against the
anchor's copy in the site configuration, and against a TPM counter (Debian's swtpm, started
here; skipped where it is not installed).
"""

from __future__ import annotations

import json
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from etg.config.cabinet import Freshness
from etg.core.rng import SeededSource
from etg.ledger import chain
from etg.ledger.chain import Anchor, anchor_path
from etg.ledger.freshness import AnchorCopy, NoFreshness, Source, TpmCounter, keeper
from etg.ledger.signing import THROWAWAY, keys_dir, load_signer
from etg.ledger.store import Ledger
from etg.ledger.verify import active_tilts
from etg.table.controller import Table, TableTilted
from tests.freshness_support import (
    Site,
    SoftTpm,
    cut_back,
    make_site,
    meters_of,
    soft_tpm,
)
from tests.ledger_support import open_table, paytable, play

pytestmark = pytest.mark.slow  # each plays rounds through the commands, most with a TPM


@pytest.fixture
def tpm(tmp_path: Path) -> Iterator[SoftTpm]:
    yield from soft_tpm(tmp_path / "swtpm")


def _tpm_site(folder: Path, tpm: SoftTpm, every_s: int = 5) -> Site:
    return make_site(folder, source="tpm", tcti=tpm.tcti, increment_every_s=every_s)


def _copy_of(site: Site) -> Path:
    (copy,) = (site.config / "anchors").iterdir()
    return copy


# --- finding 2, against the anchor's copy -------------------------------------------------------

def test_a_clean_ledger_verifies_and_reports_its_copy(tmp_path: Path) -> None:
    site = make_site(tmp_path)
    assert site.autoplay(3).exit_code == 0
    report = site.verify_json()
    anchor = json.loads(anchor_path(site.db).read_bytes())
    assert report["clean"] is True
    assert report["freshness"] == {"source": "anchor_copy", "copy": str(_copy_of(site)),
                                   "copy_entry": anchor["seq"], "copy_round": 3}
    assert _copy_of(site).name == f"{anchor['ledger_id']}.anchor"
    assert json.loads(_copy_of(site).read_bytes()) == anchor  # the same signed document


def test_a_missing_copy_is_a_finding_once_the_copy_was_recorded(tmp_path: Path) -> None:
    site = make_site(tmp_path)
    assert site.autoplay(3).exit_code == 0
    _copy_of(site).unlink()  # the ledger recorded the copy at its first start
    verified = site.verify()
    assert verified.exit_code == 1 and "freshness: the anchor's copy" in verified.output
    assert "is missing: the ledger (entry" in verified.output


def test_another_source_than_the_ledger_recorded_is_a_finding(tmp_path: Path) -> None:
    site = make_site(tmp_path, source="none")
    assert site.autoplay(3).exit_code == 0
    assert not (site.config / "anchors").exists()
    store = Ledger.open_readonly(site.db)
    assert store.setting("freshness") == "none"
    store.close()
    site.set_freshness(source="anchor-copy")
    changed = site.verify()
    assert changed.exit_code == 1
    assert "freshness: the ledger recorded freshness source none, this start has anchor_copy" \
        in changed.output


def test_turned_on_for_a_ledger_with_rounds_the_copy_starts_without_a_tilt(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A ledger played before freshness was turned on has rounds and no copy: not a finding
    the first time; the ledger records the source, and from then on the copy is expected."""
    site = make_site(tmp_path)
    monkeypatch.setenv("ETG_CONFIG_DIR", str(site.config))
    table = open_table(site.db)  # a program from before freshness: no copy, no record
    play(table, 3)
    table.close()
    assert site.verify().exit_code == 0
    assert site.autoplay(5).exit_code == 0
    store = Ledger.open_readonly(site.db)
    assert store.setting("freshness") == "anchor_copy"
    store.close()
    _copy_of(site).unlink()
    assert site.verify().exit_code == 1  # from now on a missing copy is a finding


def test_a_copy_that_cannot_be_read_at_start_up_tilts(tmp_path: Path) -> None:
    site = make_site(tmp_path)
    assert site.autoplay(2).exit_code == 0
    shutil.rmtree(site.config / "anchors")
    (site.config / "anchors").write_text("not a folder")  # a real fault, even for root
    played = site.autoplay(4)
    assert played.exit_code == 1
    assert "TILT: freshness: the anchor's copy" in played.output
    assert "cannot be read: [Errno 20] Not a directory" in played.output


def test_a_copy_that_cannot_be_written_in_play_is_one_tilt(tmp_path: Path) -> None:
    """A real fault mid-play: where the copies go becomes a file. The commit stands (it is in
    the ledger, and its anchor beside it); the table tilts once, not a storm."""
    ledger = Ledger.open(tmp_path / "ledger.db")
    copy = AnchorCopy(tmp_path / "anchors")
    ledger.use_freshness(copy)
    table = Table.open(ledger, paytable(), SeededSource(1))
    play(table, 1)
    copy.flush()  # the copy's thread is done with the folder
    shutil.rmtree(tmp_path / "anchors")
    (tmp_path / "anchors").write_text("not a folder")
    with pytest.raises(TableTilted, match="the freshness record \\(anchor_copy\\) cannot be "
                                          "written"):
        play(table, 3)
    tilts = [t for t in active_tilts(table.ledger)
             if "freshness record" in t["details"]["message"]]
    assert len(tilts) == 1
    table.close()


# --- against the TPM counter --------------------------------------------------------------------

def test_tpm_rollback_with_an_old_anchor_is_detected(tmp_path: Path, tpm: SoftTpm) -> None:
    site = _tpm_site(tmp_path, tpm)
    assert site.autoplay(6).exit_code == 0
    old_anchor = anchor_path(site.db).read_bytes()
    old_meters = meters_of(site.db)
    old = json.loads(old_anchor)
    assert old["counter"] == tpm.counter()  # the shutdown's increment
    assert site.autoplay(12).exit_code == 0
    now = tpm.counter()
    assert now > old["counter"]

    cut_back(site.db, old_anchor, old_meters)

    verified = site.verify()
    assert verified.exit_code == 1, verified.output
    assert f"rolled back: the anchor (entry {old['seq']}, round 6, {old['at']}) belongs to TPM " \
           f"counter value {old['counter']}, the TPM counter 0x01000e7c is at {now}" \
           in verified.output
    started = site.autoplay(20)
    assert started.exit_code == 1 and "TILT: " in started.output
    assert "freshness: rolled back" in started.output


def test_tpm_restoring_ledger_and_anchor_from_a_backup_is_detected(
        tmp_path: Path, tpm: SoftTpm) -> None:
    site = _tpm_site(tmp_path, tpm)
    assert site.autoplay(4).exit_code == 0
    backup = site.backup(tmp_path / "backup")
    assert site.autoplay(8).exit_code == 0
    site.restore(backup)
    verified = site.verify()
    assert verified.exit_code == 1 and "freshness: rolled back" in verified.output
    assert site.autoplay(10).exit_code == 1


def test_tpm_a_crash_between_the_anchor_and_the_increment_is_not_a_rollback(
        tmp_path: Path, tpm: SoftTpm) -> None:
    """The anchor is written with the value the counter is about to reach, then the counter
    is incremented: a crash between leaves the anchor one ahead, which the next start finishes
    (the anchor on disk below is the very one the writer writes before its increment)."""
    site = _tpm_site(tmp_path, tpm)
    assert site.autoplay(3).exit_code == 0
    before = tpm.counter()
    store = Ledger.open_readonly(site.db, config_dir=site.config)
    assert store.key is not None
    on_disk = chain.read_anchor(site.db, store.key)
    assert on_disk is not None and on_disk.counter == before
    writer = load_signer(keys_dir(site.config), THROWAWAY)  # the test ledger's private key
    chain.write_anchor(site.db, Anchor(on_disk.ledger_id, on_disk.seq, on_disk.head,
                                       on_disk.rounds, on_disk.at, before + 1), writer)
    store.close()

    assert site.verify().exit_code == 0  # one ahead: an increment to finish, not a rollback
    assert site.autoplay(5).exit_code == 0
    assert tpm.counter() > before + 1  # finished at the start, then moved on with play
    report = site.verify_json()
    assert report["clean"] is True
    assert report["freshness"] == {"source": "tpm", "tcti": tpm.tcti, "nv_index": "0x01000e7c",
                                   "counter": tpm.counter(), "anchor_counter": tpm.counter()}


def test_tpm_a_writer_without_the_counter_keeps_the_anchors_value(
        tmp_path: Path, tpm: SoftTpm, monkeypatch: pytest.MonkeyPatch) -> None:
    """A writer that keeps no freshness source (a script with the cabinet's key) writes
    anchors with the counter value the anchor had: the next start is clean, and the counter
    still tells an older anchor from it."""
    site = _tpm_site(tmp_path, tpm)
    assert site.autoplay(2).exit_code == 0
    value = tpm.counter()
    monkeypatch.setenv("ETG_CONFIG_DIR", str(site.config))
    table = open_table(site.db)
    play(table, 2)
    table.close()
    assert json.loads(anchor_path(site.db).read_bytes())["counter"] == value
    assert site.verify().exit_code == 0
    assert site.autoplay(6).exit_code == 0


def test_tpm_an_anchor_ahead_of_the_counter_by_more_than_one_is_another_tpm(
        tmp_path: Path, tpm: SoftTpm) -> None:
    site = _tpm_site(tmp_path, tpm)
    assert site.autoplay(2).exit_code == 0
    other = tmp_path / "other"
    other.mkdir()
    site_two = Site(site.config, other / "ledger.db")
    site_two.set_freshness(source="tpm", tcti=tpm.tcti, nv_index="0x01000e7d")
    verified = site_two.etg("ledger", "verify", "--db", str(site.db))
    assert verified.exit_code == 1
    assert "the TPM counter 0x01000e7d is not defined (a cleared or another TPM)" \
        in verified.output


def test_tpm_counter_moves_at_a_bounded_rate(tmp_path: Path, tpm: SoftTpm) -> None:
    """Between checkpoints the counter moves at most every ``every_s`` of play: ten commits
    within the interval move it once, a checkpoint's commit moves it again."""
    clock = [100.0]
    counter = TpmCounter(tpm.tcti, every_s=5, clock=lambda: clock[0])
    ledger = Ledger.open(tmp_path / "ledger.db")
    ledger.use_freshness(counter)
    with ledger.atomic():
        ledger.log("power_up", None, {})  # defines the counter, and the first increment
    start = tpm.counter()
    for _ in range(10):
        clock[0] += 0.1
        with ledger.atomic():
            ledger.log("power_up", None, {})
    assert tpm.counter() == start  # within 5 s of the last increment
    clock[0] += 5
    with ledger.atomic():
        ledger.log("power_up", None, {})
    assert tpm.counter() == start + 1
    with ledger.atomic():
        ledger.log("shutdown", None, {})
    assert tpm.counter() == start + 2  # a shutdown is always worth an increment
    assert ledger.key is not None
    anchor = chain.read_anchor(ledger.path, ledger.key)
    assert anchor is not None and anchor.counter == start + 2
    ledger.close()


def test_tpm_unreachable_is_one_tilt_and_a_finding(tmp_path: Path, tpm: SoftTpm) -> None:
    site = _tpm_site(tmp_path, tpm)
    assert site.autoplay(2).exit_code == 0
    site.set_freshness(source="tpm", tcti="swtpm:host=127.0.0.1,port=1")
    verified = site.verify()
    assert verified.exit_code == 1 and "freshness: the TPM counter 0x01000e7c cannot be read" \
        in verified.output


# --- the keeper chosen by cabinet.yaml ----------------------------------------------------------

def test_the_site_chooses_the_source(tmp_path: Path) -> None:
    assert isinstance(keeper(Freshness(source="anchor-copy"), tmp_path), AnchorCopy)
    assert keeper(Freshness(source="none"), tmp_path).source is Source.NONE
    assert type(keeper(Freshness(source="none"), tmp_path)) is NoFreshness
    chosen = keeper(Freshness(source="tpm", tcti="swtpm:port=1", nv_index="0x01000010"),
                    tmp_path)
    assert isinstance(chosen, TpmCounter) and chosen.handle == "0x01000010"
    auto = keeper(Freshness(), tmp_path)  # no /dev/tpmrm0 here, no tcti: the copy
    if not Path("/dev/tpmrm0").exists():
        assert isinstance(auto, AnchorCopy) and auto.folder == tmp_path / "anchors"


@pytest.mark.parametrize(("setting", "message"), [
    ({"source": "tmp"}, "freshness.source: must be one of auto, tpm, anchor-copy, none, "
                        "not 'tmp'"),
    ({"nv_index": "0x81000001"}, "freshness.nv_index: must be an owner NV index in hex"),
    ({"nv_index": "seven"}, "freshness.nv_index: must be an owner NV index"),
    ({"increment_every_s": 0}, "freshness.increment_every_s: must be between 1 and 3600 "
                               "seconds, not 0"),
    ({"tcti": " "}, "freshness.tcti: must not be empty"),
])
def test_a_bad_freshness_setting_is_one_line_and_exit_2(tmp_path: Path, setting: dict[str, Any],
                                                         message: str) -> None:
    site = make_site(tmp_path, **setting)
    result = site.autoplay(1)
    assert result.exit_code == 2 and message in result.output
    assert "Traceback" not in result.output


def test_a_rollback_tilt_stands_until_a_supervisor_accepts_the_ledger_as_it_is(
        tmp_path: Path) -> None:
    """The rollback is on record in the tilt; once acknowledged, the copy follows the ledger
    as it stands and the next start is clean (as the anchor's own tilts are)."""
    db, folder = tmp_path / "ledger.db", tmp_path / "anchors"

    def start() -> Table:
        ledger = Ledger.open(db)
        ledger.use_freshness(AnchorCopy(folder))
        return Table.open(ledger, paytable(), SeededSource(1))

    table = start()
    play(table, 2)
    table.close()
    backup = {p: p.read_bytes() for p in (db, anchor_path(db))}
    table = start()
    play(table, 2)
    table.close()
    for path, data in backup.items():
        path.write_bytes(data)
    table = start()
    assert table.tilt is not None and "freshness: rolled back" in table.tilt.message
    table.acknowledge_tilt("supervisor 9")
    table.close()
    again = start()
    assert again.tilt is None
    again.close()
