"""A site configuration of a test's own, Debian's swtpm as the cabinet's TPM, and the attacks of
issue 25 finding 2 done to a ledger's files as a technician with a shell would do them."""

from __future__ import annotations

import json
import os
import shutil
import socket
import sqlite3
import subprocess
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result

from etg.cli import main
from etg.config.loader import seed_site_config
from etg.ledger.chain import anchor_path

TPM_TOOLS = ("swtpm", "tpm2_nvdefine", "tpm2_nvincrement", "tpm2_nvread")


@dataclass(frozen=True)
class Site:
    """A cabinet: its site configuration directory and its ledger, in a test's folder."""

    config: Path
    db: Path

    def etg(self, *args: str) -> Result:
        """``etg ARGS`` in this process, with this site's configuration."""
        env = {"ETG_CONFIG_DIR": str(self.config)}
        return CliRunner().invoke(main, list(args), env=env)

    def autoplay(self, rounds: int) -> Result:
        return self.etg("autoplay", "--db", str(self.db), "--rounds", str(rounds), "--seed", "1")

    def verify(self, *extra: str) -> Result:
        return self.etg("ledger", "verify", "--db", str(self.db), *extra)

    def verify_json(self) -> dict[str, object]:
        result = self.verify("--json")
        document: dict[str, object] = json.loads(result.output)
        return document

    def set_freshness(self, source: str = "auto", tcti: str | None = None,
                      nv_index: str = "0x01000e7c", increment_every_s: int = 5) -> None:
        """Replace the ``freshness:`` block of cabinet.yaml (every key of it, as the
        technician's editor would keep them)."""
        cabinet = self.config / "cabinet.yaml"
        lines = cabinet.read_text(encoding="utf-8").split("\n")
        start = lines.index(next(line for line in lines if line.startswith("freshness:")))
        end = start + 1
        while end < len(lines) and lines[end].startswith("  "):
            end += 1
        block = ["freshness:", f"  source: {source}",
                 f"  tcti: {'null' if tcti is None else json.dumps(tcti)}",
                 f"  nv_index: {json.dumps(nv_index)}", f"  increment_every_s: {increment_every_s}"]
        cabinet.write_text("\n".join([*lines[:start], *block, *lines[end:]]), encoding="utf-8")

    def backup(self, folder: Path) -> Path:
        """The ledger and its anchor copied as a backup would (the kiosk is off: no -wal)."""
        folder.mkdir()
        for path in (self.db, anchor_path(self.db)):
            shutil.copy2(path, folder / path.name)
        return folder

    def restore(self, folder: Path) -> None:
        for name in (f"{self.db.name}-wal", f"{self.db.name}-shm"):
            (self.db.parent / name).unlink(missing_ok=True)
        for path in folder.iterdir():
            shutil.copy2(path, self.db.parent / path.name)


def make_site(folder: Path, **freshness: Any) -> Site:
    """A site seeded from the shipped configuration; ``freshness``: its keys to set."""
    config = seed_site_config(folder / "config")
    site = Site(config, folder / "data" / "ledger.db")
    site.db.parent.mkdir()
    if freshness:
        site.set_freshness(**freshness)
    return site


def cut_back(db: Path, old_anchor: bytes, meters: list[tuple[object, ...]]) -> None:
    """Finding 2: entries after the old anchor's deleted (the append-only trigger dropped and
    made again as it was), the meters put back as they stood then, the old anchor put back."""
    seq = json.loads(old_anchor)["seq"]
    conn = sqlite3.connect(db, isolation_level=None)
    try:
        (trigger,) = conn.execute("SELECT sql FROM sqlite_master WHERE type = 'trigger' AND "
                                  "name = 'entries_no_delete'").fetchone()
        conn.execute("DROP TRIGGER entries_no_delete")
        conn.execute("DELETE FROM entries WHERE seq > ?", [seq])
        conn.execute(trigger)
        conn.execute("DELETE FROM meters")
        conn.executemany("INSERT INTO meters VALUES (?, ?, ?, ?)", meters)
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    finally:
        conn.close()
    anchor_path(db).write_bytes(old_anchor)


def meters_of(db: Path) -> list[tuple[object, ...]]:
    conn = sqlite3.connect(db)
    try:
        return list(conn.execute("SELECT paytable_id, seat, name, value FROM meters"))
    finally:
        conn.close()


# --- swtpm --------------------------------------------------------------------------------------

@dataclass(frozen=True)
class SoftTpm:
    """A software TPM 2.0 (Debian's swtpm) listening on ``port``; ``tcti`` for tpm2-tools."""

    port: int
    state: Path

    @property
    def tcti(self) -> str:
        return f"swtpm:host=127.0.0.1,port={self.port}"

    def counter(self, index: str = "0x01000e7c") -> int:
        done = subprocess.run(["tpm2_nvread", "-C", "o", "-s", "8", index], capture_output=True,
                              env={**os.environ, "TPM2TOOLS_TCTI": self.tcti}, check=True)
        return int.from_bytes(done.stdout, "big")


def soft_tpm(folder: Path) -> Iterator[SoftTpm]:
    """Start swtpm on two free ports (server, control) and stop it after; skip without it."""
    missing = [tool for tool in TPM_TOOLS if shutil.which(tool) is None]
    if missing:
        pytest.skip(f"Debian's swtpm and tpm2-tools are needed ({', '.join(missing)} missing)")
    folder.mkdir()
    for _ in range(5):
        port = _free_port_pair()
        started = subprocess.run(
            ["swtpm", "socket", "--tpm2", "--tpmstate", f"dir={folder}",
             "--server", f"type=tcp,port={port}", "--ctrl", f"type=tcp,port={port + 1}",
             "--flags", "not-need-init,startup-clear", "--daemon",
             "--pid", f"file={folder / 'pid'}"], capture_output=True, check=False)
        if started.returncode == 0:
            break
    else:
        pytest.fail(f"swtpm would not start: {started.stderr.decode()}")
    pid = int(_wait_for(folder / "pid").read_text().strip())
    try:
        yield SoftTpm(port, folder)
    finally:
        os.kill(pid, 15)


def _free_port_pair() -> int:
    """A port whose next one is free too (swtpm's control channel)."""
    while True:
        with socket.socket() as first:
            first.bind(("127.0.0.1", 0))
            port = int(first.getsockname()[1])
            if port >= 65535:
                continue
            with socket.socket() as second:
                try:
                    second.bind(("127.0.0.1", port + 1))
                except OSError:
                    continue
            return port


def _wait_for(path: Path) -> Path:
    deadline = time.monotonic() + 10
    while not path.exists() or not path.read_text().strip():
        if time.monotonic() > deadline:
            pytest.fail(f"swtpm wrote no pid file {path}")
        time.sleep(0.02)
    return path
