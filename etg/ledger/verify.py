"""Integrity of a ledger (SPEC §5): run at every start-up and by ``etg ledger verify``.

1. ``PRAGMA quick_check``: the file itself.
2. The hash chain: every hand-ledger row matches its hash, links to the one
   before, and no round is missing.
3. The meters equal the sums over the hand ledger and the event log since the
   last RAM clear.
4. The active paytable file is the one the ledger recorded.
5. The journal replays from the last snapshot through the engine.
"""

from __future__ import annotations

import hashlib
from collections import Counter
from typing import Any

from etg.config.loader import LoadedPaytable
from etg.core.engine import apply
from etg.ledger.codec import load_command
from etg.ledger.meters import sum_meters
from etg.ledger.store import Ledger, Problem

MAX_METER_PROBLEMS = 5


def verify(ledger: Ledger, paytable: LoadedPaytable | None = None,
           full: bool = True) -> list[Problem]:
    """Every problem found; an empty list means the ledger is sound.

    The whole chain is checked every time (hashing only, cheap). Recomputing
    the meters from every record is what grows with a cabinet's history, so
    ``full=False`` (start-up) takes the meter sums of the last checkpoint,
    once the chain still holds the hash it was taken at, and adds what came
    after; ``etg ledger verify`` recomputes everything.
    """
    problems = ledger.quick_check()
    if problems:
        return problems  # a damaged file: the other checks would only repeat it
    problems += ledger.check_chain()
    checkpoint = None if full else usable_checkpoint(ledger)
    if checkpoint is not None and ledger.round_hash(checkpoint["round"]) != checkpoint["hash"]:
        checkpoint = None  # the chain changed under it (already reported): recompute in full
    problems += check_meters(ledger, checkpoint)
    problems += check_paytable(ledger, paytable)
    problems += check_journal(ledger)
    return problems


def usable_checkpoint(ledger: Ledger) -> dict[str, Any] | None:
    """The last checkpoint, unless a RAM clear came after it (the meters restarted there)."""
    checkpoint = ledger.last_checkpoint()
    clears = ledger.event_log("ram_clear")
    if checkpoint is not None and clears and clears[-1]["id"] > checkpoint["event_id"]:
        return None
    return checkpoint


def checkpoint(ledger: Ledger) -> None:
    """Record the meter sums and chain hash as verified now (call after a clean verify)."""
    rounds = ledger.round_count()
    digest = ledger.round_hash(rounds) if rounds else None
    if digest is None:
        return
    sums = expected_meters(ledger, usable_checkpoint(ledger))
    ledger.save_checkpoint(rounds, digest, ledger.last_event_id(),
                           {pid: [[seat, name, value] for (seat, name), value in sorted(c.items())]
                            for pid, c in sorted(sums.items())})


def check_meters(ledger: Ledger, checkpoint: dict[str, Any] | None = None) -> list[Problem]:
    expected = expected_meters(ledger, checkpoint)
    actual = ledger.meters()
    problems: list[Problem] = []
    for paytable_id in sorted(set(expected) | set(actual)):
        want, have = expected.get(paytable_id, Counter()), actual.get(paytable_id, Counter())
        for seat, name in sorted(set(want) | set(have)):
            if want[(seat, name)] != have[(seat, name)]:
                problems.append(Problem("meters", f"{paytable_id} seat {seat} {name} is "
                                                  f"{have[(seat, name)]}, the ledger sums to "
                                                  f"{want[(seat, name)]}"))
    if len(problems) > MAX_METER_PROBLEMS:
        more = len(problems) - MAX_METER_PROBLEMS
        problems = problems[:MAX_METER_PROBLEMS]
        problems.append(Problem("meters", f"and {more} more meters differ"))
    return problems


def expected_meters(ledger: Ledger, checkpoint: dict[str, Any] | None = None
                    ) -> dict[str, Counter[tuple[int, str]]]:
    """What the meters must hold: the ledger's sums since the last RAM clear, per paytable.

    From a ``checkpoint``: its verified sums plus what the ledger added after it.
    """
    entries = ledger.event_log()
    after_round, after_entry = 0, 0
    for entry in entries:
        if entry["kind"] == "ram_clear":
            after_round, after_entry = entry["details"]["after_round"], entry["id"]
    base: dict[str, Counter[tuple[int, str]]] = {}
    if checkpoint is not None:
        after_round, after_entry = checkpoint["round"], checkpoint["event_id"]
        base = {pid: Counter({(seat, name): value for seat, name, value in rows})
                for pid, rows in checkpoint["meters"].items()}
    records = ledger.rounds_after(after_round)
    kept = [e for e in entries if e["id"] > after_entry]
    out: dict[str, Counter[tuple[int, str]]] = {}
    owners = {r["paytable"]["id"] for r in records} | {meter_owner(e) for e in kept} | set(base)
    for paytable_id in owners:
        mine = [r for r in records if r["paytable"]["id"] == paytable_id]
        logged = [e for e in kept if meter_owner(e) == paytable_id]
        sums = +(base.get(paytable_id, Counter()) + sum_meters(mine, logged))
        if sums:
            out[paytable_id] = sums
    return out


def meter_owner(entry: dict[str, Any]) -> str:
    """The paytable whose meters an event-log entry counts in ("cabinet" for the machine's)."""
    return str(entry["details"].get("paytable_id", "cabinet"))


def check_paytable(ledger: Ledger, paytable: LoadedPaytable | None) -> list[Problem]:
    problems: list[Problem] = []
    for sha256, paytable_id, source in ledger.db.execute(
            "SELECT sha256, id, source FROM paytables").fetchall():
        if hashlib.sha256(source.encode("utf-8")).hexdigest() != sha256:
            problems.append(Problem("paytable", f"the recorded copy of {paytable_id} does not "
                                                f"match its hash"))
    recorded = ledger.setting("paytable_sha256")
    if paytable is not None and recorded is not None and recorded != paytable.sha256:
        problems.append(Problem("paytable", f"the active paytable file {paytable.path} changed: "
                                            f"it hashes to {paytable.sha256[:12]}…, the ledger "
                                            f"recorded {recorded[:12]}…"))
    return problems


def check_journal(ledger: Ledger) -> list[Problem]:
    snapshot = ledger.last_snapshot()
    if snapshot is None:
        return []
    seq, state = snapshot
    for row in ledger.journal_after(seq):
        try:
            state, _ = apply(state, load_command(row["command"]))
        except Exception as error:  # any failure here is a finding, not a crash
            return [Problem("journal", f"journal entry {row['seq']} does not replay: {error}")]
    return []
