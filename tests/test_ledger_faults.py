"""Fault injection: ``etg autoplay`` killed with SIGKILL mid-play, restarted each time.

After 50 kills, ``etg ledger verify --full`` is clean, the round count is
exact, no round is missing, duplicated or half-written, credits plus house
equal what came in (less what went out, by cash out, hand pay or tip), and
every interrupted round resumed with the same cards and wagers.

The kills are deterministic in what they prove: each one waits until the
ledger's anchor (rewritten after every commit) shows that the run has
committed a seeded-random number of new entries, then kills at once, so a
kill never lands before the first commit (there is always a checkpoint to
restart from) and never after the run has finished.
"""

from __future__ import annotations

import json
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from etg.core.state import Phase, TableState
from etg.ledger.chain import anchor_path
from etg.ledger.store import Ledger
from tests.ledger_support import MD5, rebuilt_state

KILLS = 50
ROUNDS = 600
STEP = (3, 60)  # entries committed between a start and its kill


def autoplay(db: Path) -> subprocess.Popen[bytes]:
    return subprocess.Popen([sys.executable, "-m", "etg", "autoplay", "--db", str(db), "--rounds",
                             str(ROUNDS), "--seed", "11", "--paytable", str(MD5)],
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)


def committed(db: Path) -> int:
    """The last entry the anchor records (0 before the first commit)."""
    try:
        return int(json.loads(anchor_path(db).read_text())["seq"])
    except FileNotFoundError:
        return 0


def wait_for(db: Path, process: subprocess.Popen[bytes], target: int) -> bool:
    """True once the anchor reaches ``target``; False if the run ended first."""
    deadline = time.monotonic() + 120
    while committed(db) < target:
        if process.poll() is not None:
            return False
        assert time.monotonic() < deadline, "autoplay made no progress"
        time.sleep(0.002)
    return True


def seen(state: TableState) -> dict[str, object]:
    """What an interrupted round had on the table: it must come back the same."""
    r = state.round
    betting = state.phase is Phase.BETTING
    return {"round": r.number, "phase": state.phase,
            "spot_cards": [c.code if c else None for c in r.spot_cards],
            "dealer_card": r.dealer_card.code if r.dealer_card else None,
            "wagers": [[(w.initial, w.tie, w.progressive_payout) for w in row]
                       for row in (r.wagers if betting else r.placed)],
            "bonus_spin": list(r.bonus_spin if betting else r.bonus_placed)}


@pytest.mark.slow
def test_killed_at_random_instants_it_resumes_and_completes_exactly(tmp_path: Path) -> None:
    db = tmp_path / "ledger.db"
    rng = random.Random(20261122)
    interrupted: list[dict[str, object]] = []
    kills = 0
    while kills < KILLS:
        process = autoplay(db)
        if not wait_for(db, process, committed(db) + rng.randint(*STEP)):
            break  # finished before the kill: the assertion below says why
        process.send_signal(signal.SIGKILL)
        process.wait()
        kills += 1
        if db.exists():
            state = rebuilt_state(db)
            if state.phase not in (Phase.IDLE, Phase.COMPLETE, Phase.VOIDED):
                interrupted.append(seen(state))
    assert kills == KILLS, f"autoplay finished after {kills} kills: raise ROUNDS"
    done = autoplay(db)
    _, err = done.communicate(timeout=600)
    assert done.returncode == 0, err.decode()

    verify = subprocess.run([sys.executable, "-m", "etg", "ledger", "verify", "--full",
                             "--db", str(db)], capture_output=True, text=True)
    assert verify.returncode == 0, verify.stdout + verify.stderr
    assert verify.stdout.strip().endswith(f"{ROUNDS} rounds, clean")

    ledger = Ledger.open(db)
    try:
        records = ledger.rounds()
        assert [r["round"] for r in records] == list(range(1, ROUNDS + 1))  # none missing, none twice
        assert all(r["outcome"] == "complete" and r["ended_at"] for r in records)
        final = rebuilt_state(db)
        came_in = sum(e["details"]["amount"] for e in ledger.event_log("cash_in"))
        went_out = sum(e["details"]["amount"] for e in ledger.event_log("cash_out"))
        # A jackpot over the hand-pay threshold leaves the house by the attendant's hand, a tip
        # the seat's credits for the dealer's box: which does, depends on where the kills land.
        by_hand = sum(e["details"]["amount"] for e in ledger.event_log("hand_pay"))
        tipped = sum(e["details"]["amount"] for e in ledger.event_log("tip"))
        assert sum(final.credits) + final.on_table + final.house + by_hand + tipped == \
            came_in - went_out
        by_round = {r["round"]: r for r in records}
        assert len(interrupted) >= 10, "too few kills landed mid-round to mean anything"
        for before in interrupted:
            record = by_round[before["round"]]
            if before["dealer_card"] is not None:  # dealt before the kill: the same cards after
                assert record["dealer_card"] == before["dealer_card"]
                assert record["spot_cards"] == before["spot_cards"]
            locked = [[(w["initial"], w["tie"], w["progressive_payout"]) for w in row]
                      for row in record["wagers"]]
            placed_any = any(any(w) for row in before["wagers"] for w in row)  # type: ignore[attr-defined]
            if placed_any:  # the wagers on the table at the kill are the round's wagers
                assert locked == before["wagers"]
                assert record["bonus_spin"] == before["bonus_spin"]
        assert 1 <= len(ledger.event_log("power_up")) <= KILLS + 1
    finally:
        ledger.close()
