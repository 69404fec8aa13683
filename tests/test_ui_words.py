"""Players read the rule, not its citation; the log keeps both."""

from __future__ import annotations

import pytest

from etg.ui.words import players_words


@pytest.mark.parametrize(("engine", "players"), [
    ("a seat may wager on at most 3 spots (MD Ch. 7 E)", "a seat may wager on at most 3 spots"),
    ("a Tie Wager needs an Initial Wager on the same spot (MD Ch. 7 F(2))",
     "a Tie Wager needs an Initial Wager on the same spot"),
    ("a seat's spots must be adjacent: spot 4 is too far from spot 1 "
     "(at most 3 adjacent spots, MD Ch. 7 E)",
     "a seat's spots must be adjacent: spot 4 is too far from spot 1 (at most 3 adjacent spots)"),
    ("the paytable is switched only with no credits on the seats (seat 1 has $20.00)",
     "the paytable is switched only with no credits on the seats (seat 1 has $20.00)"),
    ("the War Wager equals the Initial Wager (58 Pa. Code § 651a.9(c))",
     "the War Wager equals the Initial Wager"),
    ("no more bets", "no more bets"),
])
def test_citations_leave_the_players_words(engine: str, players: str) -> None:
    assert players_words(engine) == players


def test_a_refusal_on_the_seat_is_in_players_words_and_in_full_in_the_log(
        tmp_path, caplog) -> None:  # type: ignore[no-untyped-def]
    from etg.core.commands import BetKind, CashIn, OpenBets, PlaceWager, ShuffleReason
    from tests.kiosk_support import make_app

    app = make_app(tmp_path)
    app.send(CashIn(1, 10_000), "attendant")
    app.table.shuffle(ShuffleReason.NEW_SHOE, "dealer")
    app.send(OpenBets(), "dealer")
    app.send(PlaceWager(1, 1, BetKind.INITIAL, 500), "player 1")
    scene = app.base
    with caplog.at_level("INFO", logger="etg.kiosk"):
        scene._player(1, PlaceWager(1, 3, BetKind.INITIAL, 500))
    assert scene.seat_messages[1][0] == ("a seat's spots must be adjacent: spot 3 leaves spot 2 "
                                         "empty between them")
    assert "(MD Ch. 7 E)" in caplog.text  # the inspector's copy keeps the rule
    app.table.ledger.close()


@pytest.mark.parametrize(("name", "subtitle"), [
    ("Casino War – 5 community cards", "5 COMMUNITY CARDS"),
    ("Casino War - South Dakota", "SOUTH DAKOTA"),
    ("Casino War", "CASINO WAR"),
    ("War of the Spots", "WAR OF THE SPOTS"),
])
def test_the_header_says_casino_war_once(name: str, subtitle: str) -> None:
    from etg.ui.table_art import game_subtitle

    assert game_subtitle(name) == subtitle
