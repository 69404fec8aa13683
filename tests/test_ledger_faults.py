"""Fault injection: ``etg autoplay`` killed with SIGKILL at random instants, restarted each time.

Issue 4: after at least 50 kills, ``etg ledger verify`` is clean, the round
count is exact, no round is missing, duplicated or half-written, credits plus
house equal what came in, and every interrupted round resumed with the same
cards and wagers.
"""

from __future__ import annotations

import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from etg.core.state import Phase, TableState
from etg.ledger.store import Ledger
from tests.ledger_support import MD5, rebuilt_state

KILLS = 50
ROUNDS = 4_000


def autoplay(db: Path) -> subprocess.Popen[bytes]:
    return subprocess.Popen([sys.executable, "-m", "etg", "autoplay", "--db", str(db), "--rounds",
                             str(ROUNDS), "--seed", "11", "--paytable", str(MD5)],
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)


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
        time.sleep(rng.uniform(0.15, 0.9))
        if process.poll() is not None:
            break  # finished before the kill: the loop below checks why
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

    verify = subprocess.run([sys.executable, "-m", "etg", "ledger", "verify", "--db", str(db)],
                            capture_output=True, text=True)
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
        assert sum(final.credits) + final.on_table + final.house == came_in - went_out
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
