"""Record rounds played by the engine, so a rewritten engine can be held to them bit for bit.

Run from the repository root::

    .venv/bin/python tests/data/replay/make_fixture.py

It writes ``rounds-<name>.json`` beside this file. Each file is one table from
``new_table(paytable)`` (no credits, no shoe) and every command sent to it:

- ``paytable_file``, ``paytable_sha256``, ``paytable_source``: the shipped paytable as it
  was when recorded (its text: a later edit of the shipped file does not change the replay)
  (``config/paytables/``) and the SHA-256 of its bytes;
- ``seed``: the :class:`~etg.core.rng.SeededSource` seed the shuffles and wheel
  stops were drawn from (the draws themselves are in the ``Shuffle`` and
  ``Spin`` commands, so a replay does not need it);
- ``initial_state_sha256``: :func:`digest` of ``new_table(paytable)`` (``dump_state`` with
  the paytable named by its id);
- ``steps``: per command, ``command`` (``dump_command``) and either ``events``
  (``dump_event`` each) and ``state_sha256`` (:func:`digest` of the state after
  it), or ``refused`` (the :class:`~etg.core.refusal.Reason`'s
  value) and ``message`` for a command the engine refused.

The tables:

- ``md7``: ``maryland-community-7.yaml``, the busiest shipped paytable: nine
  seats (:func:`etg.table.bots.busiest_bots`: every seat on the Initial, Tie,
  Progressive Payout and Bonus Spin wagers; odd seats go to War with the
  War-deal Tie Wager, even seats surrender), a seed with a reshuffle at the cut
  card and a triggered Bonus Spin; then a scripted round of CLEAR, REPEAT,
  DOUBLE, refusals and a void, a cash out, and a rigged shoe with a Suited
  Four-of-a-Kind on a War (meter award, Envy Bonuses) and a Jackpot on the wheel.
- ``sd``, ``pa2011``: ``south-dakota.yaml`` (dealer-matched War) and
  ``pennsylvania-2011.yaml`` (Initial Wager forfeited on War): five seats of
  bots and two idle ones, so spots without a player get no card; seats 4 and 5
  leave their decisions to the clock's default. ``sd`` then cashes everyone out
  and switches to the Maryland paytable with a $10 payout limit per hand that
  includes the meters, and plays a few rounds under it.

The files are the record of the engine as it was when they were written:
re-run this script only to record a deliberate change of the rules, never to
make a failing replay pass.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[3]
sys.path.insert(0, str(ROOT))

from etg.config.loader import load_paytable  # noqa: E402
from etg.core.cards import CARDS_PER_DECK, Card  # noqa: E402
from etg.core.commands import (  # noqa: E402
    BetKind,
    CashIn,
    CashOut,
    ClearWagers,
    CloseBets,
    Command,
    Deal,
    Decide,
    DoubleWagers,
    NextRound,
    OpenBets,
    PlaceBonusSpin,
    PlaceWager,
    RepeatWagers,
    Settle,
    Shuffle,
    ShuffleReason,
    Spin,
    SwitchPaytable,
    Void,
    WarDeal,
)
from etg.core.engine import apply, new_table  # noqa: E402
from etg.core.events import Event  # noqa: E402
from etg.core.paytable import Decision, Paytable  # noqa: E402
from etg.core.refusal import Refused  # noqa: E402
from etg.core.rng import SeededSource  # noqa: E402
from etg.core.shoe import ShoeDraw  # noqa: E402
from etg.core.state import Phase, TableState  # noqa: E402
from etg.core.wheel import WheelStops  # noqa: E402
from etg.ledger.codec import dump_command, dump_event, dump_state  # noqa: E402
from etg.table.bots import Bot, RoundDriver, busiest_bots  # noqa: E402

HERE = Path(__file__).resolve().parent
PAYTABLES = ROOT / "config" / "paytables"


def digest(state: TableState) -> str:
    """SHA-256 of the state as the ledger writes it, the paytable by its id.

    The paytable is the replay's input, not its result: naming it by id keeps the
    recorded digests valid when the paytable model gains a field with a default.
    """
    data = json.loads(dump_state(state))
    data["paytable"] = data["paytable"]["id"]
    return hashlib.sha256(json.dumps(data, sort_keys=True, separators=(",", ":"))
                          .encode()).hexdigest()


class Recorder:
    """An ``apply`` that records each command with its events and the state after it."""

    def __init__(self, state: TableState) -> None:
        self.state = state
        self.steps: list[dict[str, Any]] = []

    def apply(self, state: TableState, command: Command) -> tuple[TableState, list[Event]]:
        step: dict[str, Any] = {"command": dump_command(command)}
        self.steps.append(step)
        try:
            state, events = apply(state, command)
        except Refused as refusal:
            step["refused"] = refusal.reason.value
            step["message"] = refusal.message
            raise
        step["events"] = [dump_event(e) for e in events]
        step["state_sha256"] = digest(state)
        self.state = state
        return state, events

    def send(self, *commands: Command) -> None:
        for command in commands:
            self.apply(self.state, command)

    def refused(self, command: Command) -> None:
        try:
            self.apply(self.state, command)
        except Refused:
            return
        raise AssertionError(f"expected a refusal: {command}")


class _Driver(RoundDriver):
    """Bots bet and decide as usual, except that ``idle_seats`` wait for the clock's default."""

    def __init__(self, bots: tuple[Bot, ...], seed: int, apply: Callable[..., Any],
                 clock_decides: frozenset[int] = frozenset()) -> None:
        super().__init__(bots, SeededSource(seed), apply)
        self.clock_decides = clock_decides

    def decisions(self, state: TableState) -> list[Command]:
        return [c for c in super().decisions(state)
                if not isinstance(c, Decide) or c.seat not in self.clock_decides]


def play(recorder: Recorder, driver: RoundDriver, rounds: int) -> None:
    for _ in range(rounds):
        recorder.state, _events = driver.play_round(recorder.state)


def rigged(paytable: Paytable, codes: list[str]) -> ShoeDraw:
    """A shoe whose first cards are ``codes`` (the burn card first), the rest in slot order."""
    n = paytable.shoe.cards
    free: dict[int, list[int]] = {}
    for slot in range(n - 1, -1, -1):
        free.setdefault(slot % CARDS_PER_DECK, []).append(slot)
    front = [free[Card.parse(code).index].pop() for code in codes]
    used = set(front)
    _low, high = paytable.shoe.cut_window()
    return ShoeDraw(tuple(front + [s for s in range(n) if s not in used]), high)


def md7(seed: int) -> tuple[Recorder, Paytable]:
    paytable = load_paytable(PAYTABLES / "maryland-community-7.yaml").paytable
    recorder = Recorder(new_table(paytable))
    bots = busiest_bots(paytable)
    play(recorder, _Driver(bots, seed, recorder.apply), 24)
    # A scripted round: CLEAR, REPEAT, DOUBLE, refusals, then a void.
    if recorder.state.shuffle_due:
        recorder.send(Shuffle(ShoeDraw(tuple(range(paytable.shoe.cards)), 200),
                              ShuffleReason.CUT_CARD))
    recorder.send(OpenBets())
    recorder.refused(PlaceWager(1, 1, BetKind.INITIAL, 50_100))  # over the maximum
    recorder.send(PlaceWager(1, 1, BetKind.INITIAL, 500), PlaceWager(1, 1, BetKind.TIE, 100))
    recorder.refused(PlaceWager(1, 5, BetKind.INITIAL, 500))  # not adjacent (MD Ch. 7 E)
    recorder.send(ClearWagers(1))
    recorder.refused(ClearWagers(1))
    recorder.send(RepeatWagers(1), DoubleWagers(1), RepeatWagers(2))
    recorder.refused(RepeatWagers(2))
    recorder.send(PlaceWager(3, 2, BetKind.INITIAL, 1_000), PlaceWager(3, 3, BetKind.INITIAL, 500),
                  PlaceWager(3, 4, BetKind.INITIAL, 500))
    recorder.refused(PlaceWager(3, 5, BetKind.INITIAL, 500))  # a fourth spot (MD Ch. 7 E)
    recorder.refused(PlaceWager(4, 1, BetKind.TIE, 100))  # Tie without an Initial Wager
    recorder.send(PlaceWager(4, 1, BetKind.INITIAL, 500), PlaceBonusSpin(4, 500))
    recorder.refused(PlaceBonusSpin(4, 100))
    recorder.refused(CashOut(4))
    recorder.send(CloseBets(), Deal(), Void("dealer misdeal"), NextRound())
    recorder.send(CashOut(3))
    recorder.refused(CashOut(3))
    # A rigged shoe: a red Ace for the dealer (the Bonus Spin trigger), a suited Ace on spot 1,
    # and suited Aces again on the War deal: a Suited Four-of-a-Kind for seat 1, which goes to
    # War (seat 8, on the same spot, surrenders its Suited Tie); Envy Bonuses to the others.
    codes = ["2C", "AH", "3C", "4D", "5S", "6H", "7C", "8D", "AH", "9S", "10S", "JS", "AH", "AH"]
    recorder.send(Shuffle(rigged(paytable, codes), ShuffleReason.SUPERVISOR))
    state = recorder.state
    seats = [bot for bot in bots if state.credits[bot.seat - 1] < bot.round_cost]
    recorder.send(*(CashIn(bot.seat, bot.top_up) for bot in seats))
    recorder.send(OpenBets())
    for bot in bots:
        recorder.send(*bot.bets())
    recorder.send(CloseBets(), Deal(), Settle())
    for seat, spot in recorder.state.pending_decisions():
        bot = bots[seat - 1]
        recorder.send(Decide(seat, spot, bot.decision,
                             bot.war_tie if bot.decision is Decision.WAR else 0))
    recorder.send(WarDeal(), Settle())
    assert recorder.state.phase is Phase.BONUS_SPIN, recorder.state.phase
    recorder.send(Spin(WheelStops(0, 1, 0)), NextRound())  # the Jackpot to seat 1
    return recorder, paytable


def per_seat(name: str, seed: int, rounds: int) -> tuple[Recorder, Paytable]:
    paytable = load_paytable(PAYTABLES / name).paytable
    recorder = Recorder(new_table(paytable))
    bots = busiest_bots(paytable)[:5]
    play(recorder, _Driver(bots, seed, recorder.apply, frozenset({4, 5})), rounds)
    return recorder, paytable


def sd(seed: int) -> tuple[Recorder, Paytable]:
    recorder, paytable = per_seat("south-dakota.yaml", seed, 10)
    recorder.refused(SwitchPaytable(paytable))  # credits on the seats
    for seat, credits in enumerate(recorder.state.credits, start=1):
        if credits:
            recorder.send(CashOut(seat))
    capped = dataclasses.replace(load_paytable(PAYTABLES / "maryland-community-7.yaml").paytable,
                                 id="md-community-7-capped", payout_limit_per_hand_cents=1_000,
                                 progressive_in_payout_limit=True)
    recorder.send(SwitchPaytable(capped))
    play(recorder, _Driver(busiest_bots(capped), seed, recorder.apply), 6)
    return recorder, paytable


def write(name: str, seed: int, recorder: Recorder, paytable_file: str,
          initial: TableState) -> None:
    data = {
        "paytable_file": paytable_file,
        "paytable_sha256": hashlib.sha256((PAYTABLES / paytable_file).read_bytes()).hexdigest(),
        "paytable_source": (PAYTABLES / paytable_file).read_text(encoding="utf-8"),
        "seed": seed,
        "initial_state_sha256": digest(initial),
        "steps": recorder.steps,
    }
    path = HERE / f"rounds-{name}.json"
    path.write_text(json.dumps(data, separators=(",", ":"), ensure_ascii=False) + "\n")
    print(f"{path.relative_to(ROOT)}: {len(recorder.steps)} commands, "
          f"{path.stat().st_size:,} bytes")


def _kinds(recorder: Recorder) -> set[str]:
    return {e["type"] for step in recorder.steps for e in step.get("events", ())} | {
        f"{e['type']}:{e.get('reason', '')}" for step in recorder.steps
        for e in step.get("events", ()) if e["type"] == "ShoeShuffled"}


def main() -> None:
    # Seeds chosen so the md7 table reshuffles at the cut card and triggers the Bonus Spin
    # on its own, and the per-seat tables see Wars and Surrenders.
    md7_seed, sd_seed, pa_seed = 3, 1, 3
    recorder, paytable = md7(md7_seed)
    kinds = _kinds(recorder)
    assert {"ShoeShuffled:cut_card", "BonusSpinTriggered", "WheelStopped", "EnvyBonus",
            "ProgressiveAwarded", "RoundVoided", "DecisionMade"} <= kinds, kinds
    write("md7", md7_seed, recorder, "maryland-community-7.yaml", new_table(paytable))
    recorder, paytable = sd(sd_seed)
    write("sd", sd_seed, recorder, "south-dakota.yaml", new_table(paytable))
    recorder, paytable = per_seat("pennsylvania-2011.yaml", pa_seed, 10)
    write("pa2011", pa_seed, recorder, "pennsylvania-2011.yaml", new_table(paytable))


if __name__ == "__main__":
    main()
