"""The engine replays recorded rounds bit for bit: the same events and the same states.

``tests/data/replay/rounds-*.json`` were recorded by the engine before its
rewrite for speed (see ``tests/data/replay/make_fixture.py``): every command,
the events it produced (or its refusal) and the SHA-256 of the state after it.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

import pytest

from etg.config.validation import validate
from etg.config.yaml_source import read_yaml
from etg.core.engine import TableState, apply, new_table
from etg.core.paytable import Paytable
from etg.core.refusal import Refused
from etg.ledger.codec import dump_event, dump_state, load_command, load_state

REPLAY = Path(__file__).parent / "data" / "replay"
FIXTURES = sorted(REPLAY.glob("rounds-*.json"))


# Fields the state has gained since the fixtures were recorded, with the value a table that
# never used them holds: a state at these values is the state that was recorded.
ADDED_SINCE: dict[str, Any] = {"dealer": None, "dealer_burn_due": False, "jackpot_rules": None,
                               "jackpot": None, "linked": [], "link_down": False}


def _digest(state: TableState) -> str:
    """As the fixture's ``digest``: the state as the ledger writes it, the paytable by its id."""
    data = json.loads(dump_state(state))
    data["paytable"] = data["paytable"]["id"]
    for name, unused in ADDED_SINCE.items():
        if name in data and data[name] == unused:
            del data[name]
    return hashlib.sha256(json.dumps(data, sort_keys=True, separators=(",", ":"))
                          .encode()).hexdigest()


def _recorded_paytable(recorded: dict[str, Any], folder: Path) -> Paytable:
    """The paytable the rounds were recorded under: its text, kept in the fixture."""
    path = folder / recorded["paytable_file"]
    path.write_text(recorded["paytable_source"], encoding="utf-8")
    document = read_yaml(path)
    assert document.sha256 == recorded["paytable_sha256"]
    # Read as it was then: a rule added since (the S.D. War-deal burns, say) judges new
    # paytables, not the rounds already played under this one.
    paytable: Paytable = validate(document, Paytable, lambda _: [])
    return paytable


def _recorded(path: Path) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(path.read_text())
    return data


def test_the_fixtures_are_there() -> None:
    assert [p.name for p in FIXTURES] == ["rounds-md7.json", "rounds-pa2011.json",
                                          "rounds-sd.json"]


@pytest.mark.parametrize("path", FIXTURES, ids=lambda p: p.stem)
def test_replay_reproduces_every_event_and_state(path: Path, tmp_path: Path) -> None:
    recorded = _recorded(path)
    state = new_table(_recorded_paytable(recorded, tmp_path))
    assert _digest(state) == recorded["initial_state_sha256"]
    for number, step in enumerate(recorded["steps"]):
        command = load_command(step["command"])
        where = f"{path.name} step {number}: {step['command']['type']}"
        if "refused" in step:
            with pytest.raises(Refused) as refusal:
                apply(state, command)
            assert (refusal.value.reason.value, refusal.value.message) == (
                step["refused"], step["message"]), where
            continue
        state, events = apply(state, command)
        assert [dump_event(e) for e in events] == step["events"], where
        assert _digest(state) == step["state_sha256"], where


def test_a_replayed_state_survives_the_codec(tmp_path: Path) -> None:
    """The last state of the busiest table reloads to the same text (ledger checkpoints)."""
    recorded = _recorded(REPLAY / "rounds-md7.json")
    state = new_table(_recorded_paytable(recorded, tmp_path))
    for step in recorded["steps"]:
        if "refused" not in step:
            state, _ = apply(state, load_command(step["command"]))
    text = dump_state(state)
    assert _digest(state) == recorded["steps"][-1]["state_sha256"]
    assert dump_state(load_state(text)) == text
