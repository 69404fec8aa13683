"""Issue 25 finding 2, end to end through the commands: rolling the data directory back.

Keep an old ``<ledger>.anchor``, delete the newer entries, put the meters back, put the old
anchor back; or restore ledger and anchor from a backup. The ledger then agrees with its
anchor, and only what is kept outside the data directory (here the anchor's copy in the site
configuration, the default where there is no TPM) remembers how far the chain had come:
``etg ledger verify`` must exit 1 naming both positions, and the next start must tilt.
These fail on the main of before issue 25 (verify clean, play resumed). The same attacks
against a TPM counter are in tests/test_ledger_freshness.py.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from etg.ledger.chain import anchor_path
from tests.freshness_support import Site, cut_back, make_site, meters_of
from tests.ledger_support import open_table, play

pytestmark = pytest.mark.slow  # each plays rounds through the commands


def _copy_of(site: Site) -> Path:
    (copy,) = (site.config / "anchors").iterdir()
    return copy


def test_finding_2_an_old_anchor_put_back_over_a_cut_ledger_is_a_rollback(tmp_path: Path) -> None:
    """Keep the old anchor, delete the newer entries, put the meters back as they were, put the
    old anchor back: the ledger agrees with its anchor, but not with the copy outside."""
    site = make_site(tmp_path)  # the shipped cabinet.yaml: auto, and no TPM here
    assert site.autoplay(6).exit_code == 0
    old_anchor = anchor_path(site.db).read_bytes()
    old_meters = meters_of(site.db)
    old_seq = json.loads(old_anchor)["seq"]
    assert site.autoplay(12).exit_code == 0
    new_seq = json.loads(anchor_path(site.db).read_bytes())["seq"]

    cut_back(site.db, old_anchor, old_meters)

    verified = site.verify()
    assert verified.exit_code == 1, verified.output
    assert f"rolled back: the ledger ends at entry {old_seq} (round 6), its anchor at entry " \
           f"{old_seq} (round 6" in verified.output
    assert f"records entry {new_seq} (round 12" in verified.output
    # the head's signature (etg.ledger.signing) names a later entry than the cut ledger holds,
    # too: a rollback that leaves the signature table behind is seen twice
    assert "2 problems" in verified.output and "(6 rounds)" in verified.output
    assert "signature: head_signature" in verified.output
    assert site.verify("--full").exit_code == 1
    started = site.autoplay(20)  # play does not resume: the start tilts
    assert started.exit_code == 1 and "freshness: rolled back" in started.output


def test_restoring_ledger_and_anchor_from_a_backup_is_a_rollback(tmp_path: Path) -> None:
    site = make_site(tmp_path)
    assert site.autoplay(5).exit_code == 0
    backup = site.backup(tmp_path / "backup")
    assert site.autoplay(9).exit_code == 0
    site.restore(backup)
    verified = site.verify()
    assert verified.exit_code == 1
    assert re.search(r"rolled back: the ledger ends at entry \d+ \(round 5\).* records entry "
                     r"\d+ \(round 9,", verified.output), verified.output


def test_a_backup_restored_and_played_past_the_copy_is_a_replaced_ledger(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Restored from a backup and played on by a writer that keeps no copy (a script of the
    technician's with the cabinet's key) until it is past the copy's entry: that entry is
    another one than the copy recorded."""
    site = make_site(tmp_path)
    assert site.autoplay(4).exit_code == 0
    backup = site.backup(tmp_path / "backup")
    assert site.autoplay(6).exit_code == 0
    copy_seq = json.loads(_copy_of(site).read_bytes())["seq"]
    site.restore(backup)
    monkeypatch.setenv("ETG_CONFIG_DIR", str(site.config))
    table = open_table(site.db)
    play(table, 6)
    table.close()
    verified = site.verify()
    assert verified.exit_code == 1
    assert re.search(rf"freshness: replaced: the ledger ends at entry \d+ \(round 10\).*, but "
                     rf"its entry {copy_seq} is not the one the copy .* records entry "
                     rf"{copy_seq} \(round 6,", verified.output), verified.output
