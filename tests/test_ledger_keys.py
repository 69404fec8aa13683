"""Issue 25, items 3 and 4: nothing lost is recreated; verifying apart from signing.

End to end through the commands, as a dishonest technician with a shell would try it:
a forged entry made with the public key alone (finding 5), a lost private key (finding
4, and ``--config`` moving the key), a lost ledger and a lost ledger folder (finding 3);
``etg ledger init`` and ``etg ledger pubkey``; a ledger written with today's HMAC-era
chain (``tests/data/ledgers/schema-0004.db``) adopted by init and still verified.
"""

from __future__ import annotations

import json
import shutil
import sqlite3
from pathlib import Path

import pytest
from click.testing import CliRunner
from cryptography.hazmat.primitives.serialization import load_pem_public_key

from etg.cli import main
from etg.config.cabinet_edit import set_cabinet_value
from etg.ledger import chain
from etg.ledger.entry import compact_content
from etg.ledger.signing import (
    CABINET,
    THROWAWAY,
    LedgerKeyError,
    create_pair,
    keys_dir,
    load_signer,
    private_path,
    public_path,
)
from etg.ledger.store import Ledger, LedgerKind, Problem
from etg.table.controller import Table
from etg.table.pin import hash_pin
from tests.kiosk_support import config_copy
from tests.ledger_support import open_table, paytable, play

FIXTURE_4 = Path(__file__).parent / "data" / "ledgers" / "schema-0004.db"


def invoke(*args: str | Path, stdin: str | None = None) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, [str(a) for a in args], input=stdin)
    return result.exit_code, result.stdout, result.stderr


def _initialised(tmp_path: Path) -> tuple[Path, Path]:
    """A cabinet's site configuration (in tmp_path, not the session's) after etg ledger init,
    and its real ledger."""
    config = config_copy(tmp_path)
    db = tmp_path / "data" / "ledger.db"
    code, out, err = invoke("ledger", "init", "--config", config, "--db", db, "--json")
    assert code == 0, err
    made = json.loads(out)
    assert made["db"] == str(db) and made["adopted"] is False and made["rounds"] == 0
    return config, db


def _play_real(db: Path, config: Path, rounds: int) -> None:
    table = Table.open(Ledger.open(db, kind=LedgerKind.REAL, config_dir=config), paytable())
    play(table, rounds)
    table.close()


def _pin_config(config: Path) -> None:
    set_cabinet_value(config / "cabinet.yaml", "supervisor_pin_hash", hash_pin("4321"))


def _kiosk(config: Path, *db: str | Path) -> tuple[int, str]:
    """The real kiosk for two frames on the dummy display; its exit code and stderr."""
    extra = ["--db", db[0]] if db else []
    code, _, err = invoke("run", "--config", config, "--windowed", "--frames", "2", *extra)
    return code, err


# --- etg ledger init, etg ledger pubkey -----------------------------------------------------------

def test_init_makes_the_ledger_and_its_key_pair_once_and_records_them(tmp_path: Path) -> None:
    config, db = _initialised(tmp_path)
    keys = keys_dir(config)
    assert private_path(keys, CABINET).stat().st_mode & 0o777 == 0o600
    assert public_path(keys, CABINET).stat().st_mode & 0o777 == 0o644
    record = (config / "ledger.yaml").read_text()
    store = Ledger.open_readonly(db, config_dir=config)
    assert store.kind is LedgerKind.REAL and store.key is not None
    assert f"ledger_id: {store.ledger_id}" in record
    assert f"public_key_fingerprint: {store.key.fingerprint}" in record
    assert f"path: {db}" in record
    store.close()
    # nothing is ever made twice: a second init changes nothing
    before = {p: p.read_bytes() for p in (db, private_path(keys, CABINET), config / "ledger.yaml")}
    code, _, err = invoke("ledger", "init", "--config", config, "--db", db)
    assert code == 2 and err.count("\n") == 1
    assert "the cabinet's ledger was made already" in err and "nothing was changed" in err
    assert {p: p.read_bytes() for p in before} == before


def test_pubkey_prints_the_public_key_and_the_fingerprint_init_recorded(tmp_path: Path) -> None:
    config, _ = _initialised(tmp_path)
    code, out, _ = invoke("ledger", "pubkey", "--config", config, "--json")
    assert code == 0
    shown = json.loads(out)
    assert f"public_key_fingerprint: {shown['fingerprint']}" in (config / "ledger.yaml").read_text()
    assert shown["public_key"] == public_path(keys_dir(config)).read_text()
    load_pem_public_key(shown["public_key"].encode())  # a PEM anyone's tools read
    assert "PRIVATE" not in out
    code, out, _ = invoke("ledger", "pubkey", "--config", config)
    assert code == 0
    assert out.splitlines()[0] == f"fingerprint {shown['fingerprint']}"
    assert out.endswith(shown["public_key"])
    code, _, err = invoke("ledger", "pubkey", "--config", tmp_path / "nowhere")
    assert code == 2 and err.count("\n") == 1 and "run `etg ledger init`" in err


# --- finding 5: whoever can verify can forge ------------------------------------------------------

def _forge(db: Path) -> None:
    """What someone with the database and the public key alone can do: edit an event's actor
    and make every later link hold again (the hashes are public), the triggers dropped."""
    conn = sqlite3.connect(db, isolation_level=None)
    conn.execute("DROP TRIGGER entries_no_update")
    seq = conn.execute("SELECT max(seq) FROM entries WHERE kind = 'event'").fetchone()[0]
    conn.execute("UPDATE entries SET actor = 'attendant 99' WHERE seq = ?", [seq])
    previous = bytes(conn.execute("SELECT hash FROM entries WHERE seq = ?", [seq - 1]).fetchone()[0])
    for row in conn.execute("SELECT seq, kind, round, at, actor, tag, body FROM entries "
                            "WHERE seq >= ? ORDER BY seq", [seq]).fetchall():
        digest = chain.digest(previous, compact_content(row[0], row[1], row[2], row[3], row[4],
                                                        row[5], bytes(row[6])))
        conn.execute("UPDATE entries SET hash = ? WHERE seq = ?", [digest, row[0]])
        previous = digest
    conn.close()


def test_a_forged_entry_made_with_the_public_key_alone_fails_verify(tmp_path: Path) -> None:
    config, db = _initialised(tmp_path)
    _play_real(db, config, 2)
    # the verifier's copy of the configuration: the public key and nothing it could sign with
    verifier = tmp_path / "back-office"
    shutil.copytree(config, verifier)
    private_path(keys_dir(verifier)).unlink()
    code, out, _ = invoke("ledger", "verify", "--config", verifier, "--db", db, "--json")
    assert code == 0 and json.loads(out)["clean"], out
    _forge(db)
    code, out, _ = invoke("ledger", "verify", "--config", verifier, "--db", db, "--full",
                          "--json")
    report = json.loads(out)
    assert code == 1
    assert not any(p["check"] == "chain" for p in report["problems"])  # every link holds...
    signature = [p["message"] for p in report["problems"] if p["check"] == "signature"]
    assert signature and "does not hold under the cabinet's public key" in signature[0]  # ...but nobody without the private key could sign the new head
    # a regulator elsewhere checks with the public key file alone
    code, out, _ = invoke("ledger", "verify", "--db", db, "--pubkey",
                          public_path(keys_dir(config)), "--json")
    assert code == 1 and json.loads(out)["public_key_fingerprint"].startswith("sha256:")


def test_entries_cut_off_the_end_with_their_anchor_left_signed_are_found(tmp_path: Path) -> None:
    config, db = _initialised(tmp_path)
    _play_real(db, config, 2)
    conn = sqlite3.connect(db, isolation_level=None)
    conn.execute("DROP TRIGGER entries_no_delete")
    conn.execute("DELETE FROM entries WHERE seq > (SELECT max(seq) - 3 FROM entries)")
    conn.close()
    chain.anchor_path(db).unlink()  # and the anchor that would say so
    code, out, _ = invoke("ledger", "verify", "--config", config, "--db", db)
    assert code == 1
    assert "entries were cut off its end" in out


# --- finding 4: a missing key is never made again; --config moves the key ----------------------

def test_a_lost_private_key_is_refused_by_every_writer_and_never_made_again(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    config, db = _initialised(tmp_path)
    _play_real(db, config, 1)
    private = private_path(keys_dir(config))
    private.unlink()
    before = db.read_bytes()
    code, err = _kiosk(config, db)
    assert code == 2
    assert err.splitlines()[0] == (f"{db}: the ledger's private key {private} is missing; it "
                                   f"is never made again")
    _pin_config(config)
    code, _, err = invoke("ledger", "acknowledge", "--config", config, "--db", db, "--tilt",
                          "1", "--pin-stdin", stdin="4321\n")
    assert code == 2 and err.strip().endswith("it is never made again")
    code, _, err = invoke("ledger", "archive", "--config", config, "--db", db, "--before",
                          "2000-01-01", "--out", tmp_path / "a.db")
    assert code == 2 and err.strip().endswith("it is never made again")
    assert not private.exists() and db.read_bytes() == before
    # a test ledger's throwaway key alike, once the ledger exists
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "elsewhere"))
    test_db = tmp_path / "test.db"
    open_table(test_db).close()
    throwaway = private_path(keys_dir(), THROWAWAY)
    throwaway.unlink()
    code, _, err = invoke("autoplay", "--db", test_db, "--rounds", "1", "--seed", "1",
                          "--paytable", paytable().path)
    assert code == 2 and "is never made again" in err and not throwaway.exists()


def test_acknowledge_with_config_signs_with_that_configuration_s_key(tmp_path: Path) -> None:
    config, db = _initialised(tmp_path)
    _pin_config(config)
    _play_real(db, config, 1)
    table = Table.open(Ledger.open(db, kind=LedgerKind.REAL, config_dir=config), paytable())
    table.tilt_for([Problem("test", "a tilt to clear")])
    tilt = table.tilt
    assert tilt is not None
    table.close()
    default_keys = keys_dir()
    had = sorted(p.name for p in default_keys.iterdir()) if default_keys.exists() else []
    code, out, err = invoke("ledger", "tilts", "--config", config, "--db", db, "--json")
    [active] = [t for t in json.loads(out)["tilts"] if t["active"]]
    code, _, err = invoke("ledger", "acknowledge", "--config", config, "--db", db, "--tilt",
                          active["id"], "--pin-stdin", stdin="4321\n")
    assert code == 0, err
    code, out, _ = invoke("ledger", "verify", "--config", config, "--db", db, "--json")
    assert code == 0 and json.loads(out)["clean"], out
    after = sorted(p.name for p in default_keys.iterdir()) if default_keys.exists() else []
    assert after == had  # nothing made or used in the default configuration


# --- finding 3: a lost ledger or folder becomes nothing new -------------------------------------

def test_a_deleted_ledger_and_anchor_never_become_a_fresh_ledger(tmp_path: Path) -> None:
    config, db = _initialised(tmp_path)
    _play_real(db, config, 2)
    db.unlink()
    chain.anchor_path(db).unlink()
    code, err = _kiosk(config, db)
    assert code == 2
    assert err.splitlines()[0].startswith(f"{db}: the cabinet's ledger ")
    assert "is missing; a real ledger is never made again" in err.splitlines()[0]
    assert not db.exists() and not chain.anchor_path(db).exists()
    code, _, err = invoke("ledger", "verify", "--config", config, "--db", db)
    assert code == 2 and err == f"{db}: no such ledger\n"


def test_a_missing_ledger_folder_is_one_line_and_never_made(tmp_path: Path) -> None:
    config, db = _initialised(tmp_path)
    shutil.rmtree(db.parent)  # an unmounted data partition
    code, err = _kiosk(config, db)
    assert code == 2 and "is missing; a real ledger is never made again" in err
    assert not db.parent.exists()
    missing = tmp_path / "MISSING_DIR" / "ledger.db"
    code, err = _kiosk(config, missing)
    assert code == 2 and not missing.parent.exists()
    assert err.splitlines()[0] == (f"{missing}: no such ledger; the cabinet's ledger, made by "
                                   f"etg ledger init, is {db}")


def test_a_cabinet_without_init_says_to_run_it(tmp_path: Path) -> None:
    config = config_copy(tmp_path)
    db = tmp_path / "ledger.db"
    code, err = _kiosk(config, db)
    assert code == 2
    assert err.splitlines()[0] == f"{db}: no ledger: run `etg ledger init`"
    assert not db.exists() and not keys_dir(config).exists()


# --- the migration: a ledger written with the HMAC-era chain ---------------------------------------

def _old_cabinet(tmp_path: Path, with_old_key: bool = True) -> tuple[Path, Path]:
    config = config_copy(tmp_path)
    if with_old_key:
        keys_dir(config).mkdir()
        shutil.copy(FIXTURE_4.with_suffix(".key"), chain.default_key_path(config))
    db = tmp_path / "data" / "ledger.db"
    db.parent.mkdir()
    shutil.copy(FIXTURE_4, db)
    shutil.copy(FIXTURE_4.with_name(FIXTURE_4.name + ".anchor"), chain.anchor_path(db))
    return config, db


def test_init_adopts_an_hmac_era_ledger_and_seals_its_chain(tmp_path: Path) -> None:
    config, db = _old_cabinet(tmp_path)
    old_head = sqlite3.connect(db).execute("SELECT seq, hex(hash) FROM entries ORDER BY seq "
                                           "DESC LIMIT 1").fetchone()
    # before init the kiosk refuses it in one line, and makes no key
    code, err = _kiosk(config, db)
    assert code == 2 and "etg ledger init makes it" in err.splitlines()[0]
    code, out, err = invoke("ledger", "init", "--config", config, "--db", db, "--json")
    assert code == 0, err
    made = json.loads(out)
    assert made["adopted"] is True and made["rounds"] == 6
    store = Ledger.open_readonly(db, config_dir=config)
    seal = [e.data() for e in store.entries() if e.tag == "seal"]
    assert seal == [{"sealed_keyed_chain": {"seq": old_head[0], "head": old_head[1].lower(),
                                            "rounds": 6}}]
    assert store.schema_version == 5
    store.close()
    assert json.loads(chain.anchor_path(db).read_text()).keys() >= {"signature"}
    _play_real(db, config, 2)
    code, out, _ = invoke("ledger", "verify", "--config", config, "--db", db, "--full", "--json")
    assert code == 0 and json.loads(out)["clean"] and json.loads(out)["rounds"] == 8, out


def test_without_the_old_key_verify_says_which_rounds_it_could_not_check(
        tmp_path: Path) -> None:
    config, db = _old_cabinet(tmp_path)
    assert invoke("ledger", "init", "--config", config, "--db", db)[0] == 0
    chain.default_key_path(config).unlink()
    code, out, _ = invoke("ledger", "verify", "--config", config, "--db", db)
    assert code == 0, out  # start-up's walk is from the newest checkpoint, after the seal
    code, out, _ = invoke("ledger", "verify", "--config", config, "--db", db, "--full",
                          "--json")
    report = json.loads(out)
    assert code == 1
    assert [p["message"] for p in report["problems"]] == [
        "entries 1 to 142 (rounds 1 to 6) were chained under the old secret key "
        "(keys/ledger.key), which is not here: their links could not be checked"]


def test_an_edit_of_the_hmac_era_entries_is_found_after_the_seal(tmp_path: Path) -> None:
    config, db = _old_cabinet(tmp_path)
    assert invoke("ledger", "init", "--config", config, "--db", db)[0] == 0
    conn = sqlite3.connect(db, isolation_level=None)
    conn.execute("DROP TRIGGER entries_no_update")
    conn.execute("UPDATE entries SET actor = 'attendant 99' WHERE seq = 10")
    conn.close()
    code, out, _ = invoke("ledger", "verify", "--config", config, "--db", db, "--full")
    assert code == 1 and "entries row 10 " in out


def test_an_hmac_era_ledger_rolled_back_at_the_upgrade_is_not_sealed(tmp_path: Path) -> None:
    config, db = _old_cabinet(tmp_path)
    conn = sqlite3.connect(db, isolation_level=None)
    conn.execute("DROP TRIGGER entries_no_delete")
    conn.execute("DELETE FROM entries WHERE seq > 130")  # behind the old anchor (142)
    conn.close()
    code, _, err = invoke("ledger", "init", "--config", config, "--db", db)
    assert code == 2
    assert err == (f"{db}: the file ends at entry 130, but its anchor records entry 142; the "
                   f"ledger was not sealed\n")
    assert not private_path(keys_dir(config)).exists()  # init left nothing half made


def test_a_demo_ledger_is_still_made_on_first_use_with_the_throwaway_key(
        tmp_path: Path) -> None:
    config = config_copy(tmp_path)
    db = tmp_path / "demo" / "demo.db"
    Ledger.open(db, kind=LedgerKind.DEMO, config_dir=config).close()
    keys = keys_dir(config)
    assert sorted(p.name for p in keys.iterdir()) == ["throwaway.ed25519", "throwaway.pub"]
    store = Ledger.open_readonly(db, config_dir=config)
    assert store.kind is LedgerKind.DEMO and store.key is not None
    assert store.key.pem() == public_path(keys, THROWAWAY).read_text()
    store.close()
    code, out, _ = invoke("ledger", "verify", "--config", config, "--db", db)
    assert code == 0 and out.strip() == f"{db}: 0 rounds, clean"


# --- the key pair itself ----------------------------------------------------------------------------

def test_a_key_pair_is_never_replaced_and_a_swapped_public_key_is_refused(tmp_path: Path) -> None:
    folder = tmp_path / "keys"
    pair = create_pair(folder)
    kept = private_path(folder).read_bytes()
    with pytest.raises(LedgerKeyError, match="already exists; a ledger key is never replaced"):
        create_pair(folder)
    assert private_path(folder).read_bytes() == kept
    other = create_pair(tmp_path / "other")
    shutil.copy(public_path(tmp_path / "other"), public_path(folder))
    with pytest.raises(LedgerKeyError, match="is not the private key's"):
        load_signer(folder)
    # what a head's signature covers is never an anchor's, nor another head's
    signature = pair.sign_head(7, bytes(32))
    assert pair.verifier.head_signed(7, bytes(32), signature)
    assert not pair.verifier.head_signed(8, bytes(32), signature)
    assert not pair.verifier.document_signed(b"x", pair.sign_head(7, b"x"))
    assert not other.verifier.head_signed(7, bytes(32), signature)
