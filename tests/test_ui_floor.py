"""The floor's procedures on the kiosk, through the real App: validating a jackpot with a
floorperson's PIN (MD Ch. 9 J(4)(c)), a dealer's sign-in (Ch. 8 E(4)), the TIP buttons
(Ch. 2 D) and the operator menu's JACKPOTS and DEALERS pages."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from etg.config.cabinet_edit import set_cabinet_value
from etg.config.loader import load_cabinet
from etg.core.commands import (
    BetKind,
    CashIn,
    CloseBets,
    Command,
    Deal,
    Decide,
    OpenBets,
    PlaceWager,
    Settle,
    Shuffle,
    ShuffleReason,
    SignInDealer,
    WarDeal,
)
from etg.core.jackpot import JackpotRules
from etg.core.paytable import Decision
from etg.core.state import Phase
from etg.table.pin import PinRole, hash_pin, verify_pin
from etg.ui.app import App
from etg.ui.dealer_console import DealerScreen
from etg.ui.numberpad import NumberPad
from etg.ui.operator.menu import OperatorMenu
from etg.ui.pinpad import PinPad
from etg.ui.scene import OpenOperatorMenu
from etg.ui.widgets import Button
from tests.kiosk_support import (
    config_copy,
    dealer,
    make_app,
    not_blank,
    run_for,
    tap,
    type_keys,
)
from tests.tables import rigged_draw

OPERATOR, SUPERVISOR, FLOORPERSON, DEALER = "9753", "8642", "1357", "2468"
SUITED_FOUR = ["7D", "9H", "2C", "2C", "2C", "2C", "9H", "3S", "3S", "3S", "9H", "9H"]


def _app(tmp_path: Path, paytable: str = "maryland-community-5.yaml") -> App:
    config = config_copy(tmp_path, paytable)
    cabinet = config / "cabinet.yaml"
    for key, pin in (("operator_pin_hash", OPERATOR), ("supervisor_pin_hash", SUPERVISOR),
                     ("floorperson_pin_hash", FLOORPERSON), ("dealers.D0417", DEALER)):
        set_cabinet_value(cabinet, key, hash_pin(pin))
    app = make_app(tmp_path, paytable, config=config)
    app.table.apply_jackpot_rules(JackpotRules())
    return app


def _send(app: App, commands: list[tuple[Command, str]]) -> None:
    for command, actor in commands:
        assert app.send(command, actor) is None, command


def _lock(app: App) -> None:
    """Seat 1 makes a Suited Four-of-a-Kind with the Progressive Payout Wager; seat 2 is owed
    the Envy Bonus."""
    p = app.table.state.paytable
    _send(app, [(Shuffle(rigged_draw(p, SUITED_FOUR), ShuffleReason.NEW_SHOE), "dealer"),
                (CashIn(1, 100_000), "attendant"), (CashIn(2, 100_000), "attendant"),
                (OpenBets(), "dealer"), (PlaceWager(1, 1, BetKind.INITIAL, 500), "player"),
                (PlaceWager(1, 1, BetKind.PROGRESSIVE_PAYOUT, 500), "player"),
                (PlaceWager(2, 3, BetKind.INITIAL, 500), "player"),
                (PlaceWager(2, 3, BetKind.PROGRESSIVE_PAYOUT, 500), "player"),
                (CloseBets(), "dealer"), (Deal(), "dealer"), (Settle(), "dealer"),
                (Decide(1, 1, Decision.WAR), "player"), (WarDeal(), "dealer"),
                (Settle(), "dealer")])
    assert app.table.state.phase is Phase.JACKPOT
    run_for(app, 8)  # the cards and the payments are shown; the lock stays


def _console_button(app: App, tag: str) -> Button:
    """The dealer console's button ``tag`` as the dealer's screen shows it now."""
    app.table.deliver(wait=True)
    return next(b for b in DealerScreen(app).buttons(app.now) if b.tag == tag)


def _log(app: App, kind: str) -> list[dict[str, Any]]:
    return app.table.ledger.event_log(kind)


def test_the_console_validates_a_jackpot_with_the_pin_of_a_floorperson(tmp_path: Path) -> None:
    app = _app(tmp_path)
    _lock(app)
    floor = _console_button(app, "dealer:floor")
    assert (floor.label, floor.hot) == ("VALIDATE", True)
    app.draw()
    assert not_blank(app.canvas)
    dealer(app, "floor")
    pad = app.top
    assert isinstance(pad, PinPad) and pad.role is PinRole.FLOORPERSON
    type_keys(app, OPERATOR + "\n")  # the attendant who pays never validates
    assert app.table.state.phase is Phase.JACKPOT and app.top is pad
    type_keys(app, FLOORPERSON + "\n")
    assert app.table.state.phase is Phase.COMPLETE
    [validated] = _log(app, "jackpot_validated")
    # the PIN pad's check goes with the command: the ID and the role its PIN holds
    assert (validated["actor"], validated["details"]["validator"],
            validated["details"]["role"]) == ("floorperson", "floorperson", "floorperson")
    assert [e["details"]["amount"] for e in _log(app, "hand_pay")] == [500_000, 1_000_050,
                                                                       500_000]
    assert _console_button(app, "dealer:floor").label == "SIGN IN"


def test_a_supervisor_is_above_a_floorperson(tmp_path: Path) -> None:
    app = _app(tmp_path)
    _lock(app)
    dealer(app, "floor")
    type_keys(app, SUPERVISOR + "\n")
    [validated] = _log(app, "jackpot_validated")
    assert (validated["details"]["validator"], validated["details"]["role"]) == ("supervisor",
                                                                                 "supervisor")
    ok = _log(app, "pin_ok")[-1]
    assert (ok["actor"], ok["details"]) == ("supervisor", {"role": "floorperson",
                                                           "who": "supervisor"})


def test_a_dealer_signs_in_with_badge_and_pin_between_rounds(tmp_path: Path) -> None:
    app = _app(tmp_path)
    app.table.shuffle(ShuffleReason.NEW_SHOE)
    dealer(app, "floor")
    assert isinstance(app.top, NumberPad)
    type_keys(app, "99\n")  # nobody's badge here
    assert isinstance(app.top, NumberPad)
    assert app.top.message == "No dealer D99 on this table: see the operator menu's DEALERS page"
    type_keys(app, "0417\n")
    assert isinstance(app.top, PinPad) and app.top.role is PinRole.DEALER
    type_keys(app, DEALER + "\n")
    assert app.table.state.dealer == "D0417" and app.table.state.dealer_burn_due
    assert [(e["actor"], e["details"]["dealer"]) for e in _log(app, "dealer_sign_in")] == [
        ("dealer D0417", "D0417")]
    assert _log(app, "pin_ok")[-1]["actor"] == "dealer D0417"

    app.send(OpenBets(), "dealer")
    dealer(app, "floor")
    type_keys(app, "0417\n")  # the engine's reason, before any PIN is asked for
    assert isinstance(app.top, NumberPad)
    assert app.top.message == "dealers change only between rounds (the table is betting)"


@pytest.mark.parametrize("paytable", ["maryland-community-5.yaml", "maryland-community-7.yaml"])
def test_tip_buttons_take_exactly_their_amount_to_the_dealer(tmp_path: Path,
                                                             paytable: str) -> None:
    app = _app(tmp_path, paytable)
    app.table.shuffle(ShuffleReason.NEW_SHOE)
    _send(app, [(CashIn(2, 10_000), "attendant")])
    assert not [b for b in app.top.buttons(app.now) if ":tip:" in b.tag]  # no dealer: no TIP
    _send(app, [(SignInDealer("D0417"), "dealer D0417")])
    tips = [b for b in app.top.buttons(app.now) if b.tag.startswith("seat:2:tip:")]
    # beside CASH OUT, as many of the cabinet's amounts as fit a finger wide, smallest first
    labels = [b.label for b in tips]
    assert labels and labels == ["TIP $1", "TIP $5", "TIP $25"][:len(labels)]
    assert all(b.rect[2] >= 48 and b.rect[3] >= 48 for b in tips)
    tap(app, "seat:2:tip:100")
    assert app.table.state.credits[1] == 9_900
    assert [e["details"] for e in _log(app, "tip")] == [
        {"seat": 2, "dealer": "D0417", "amount": 100,
         "paytable_id": app.table.state.paytable.id}]


def _menu(app: App) -> OperatorMenu:
    app.go(OpenOperatorMenu())
    type_keys(app, OPERATOR + "\n")
    assert isinstance(app.top, OperatorMenu)
    return app.top


def test_the_jackpots_page_validates_and_lists_the_hand_pays(tmp_path: Path) -> None:
    app = _app(tmp_path)
    _lock(app)
    menu = _menu(app)
    tap(app, "tab:jackpots")
    texts = [c.text for c in menu.view.cells]
    assert "PROGRESSIVE METER" in texts and "$10,000.50" in texts
    tap(app, "jackpot:validate")
    type_keys(app, FLOORPERSON + "\n")
    assert app.top is menu and app.table.state.phase is Phase.COMPLETE
    texts = [c.text for c in menu.view.cells]
    assert "NO JACKPOT WAITS" in texts
    assert texts.count("floorperson") == 3  # three hand pays, each with who validated it
    app.draw()
    assert not_blank(app.canvas)


def test_the_dealers_page_adds_changes_and_removes_a_dealers_pin(tmp_path: Path) -> None:
    app = _app(tmp_path)
    menu = _menu(app)
    tap(app, "tab:dealers")
    tap(app, "dealer:add")
    type_keys(app, "77\n")
    type_keys(app, "5555\n")
    type_keys(app, "5556\n")  # the repeat differs: nothing is stored
    assert "D77" not in load_cabinet(app.cabinet_file).dealers
    tap(app, "dealer:add")
    type_keys(app, "77\n5555\n5555\n")
    assert app.top is menu
    assert verify_pin("5555", load_cabinet(app.cabinet_file).dealers["D77"])
    assert _log(app, "pin_change")[-1]["details"]["role"] == "dealer D77"
    assert [c.text for c in menu.view.cells].count("D77") == 1
    tap(app, "dealer:remove:D77")
    tap(app, "confirm:yes")
    assert load_cabinet(app.cabinet_file).dealers["D77"] is None  # the ID stays on record
    assert [e["details"]["action"] for e in _log(app, "operator_menu")][-3:] == [
        "dealer_pin", "dealer_pin", "dealer_removed"]
    assert not [b for b in menu.buttons(app.now) if b.tag == "dealer:remove:D77"]
