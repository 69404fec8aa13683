"""Bets on the felt (issue 12, item 2): every layout's touch targets, and taps that place
exactly the wager touched, on the real App, headless.

The layouts are the shipped Maryland paytables (3, 5 and 7 spots) with their
``seats`` set to 6 and to 9 in a copy of the YAML, as an operator would.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Iterator
from pathlib import Path

import pygame
import pytest

from etg.core.commands import (
    BetKind,
    CashIn,
    CloseBets,
    Deal,
    NextRound,
    OpenBets,
    PlaceWager,
    Shuffle,
    ShuffleReason,
    SignInDealer,
    WarDeal,
)
from etg.core.paytable import Decision, Limit, Limits
from etg.core.state import SpotWagers, TableState
from etg.ui.canvas import LOGICAL_H, LOGICAL_W
from etg.ui.felt import Target, table_targets
from etg.ui.input import MIN_TARGET, Touch
from etg.ui.input import Phase as TouchPhase
from etg.ui.layout import CHIP_RAIL_MOST, TableLayout, chip_values
from etg.ui.seat_layout import thin
from etg.ui.table_scene import TableScene
from etg.ui.widgets import button_at
from tests import kiosk_support as k
from tests.tables import maryland, rigged_draw

START = 100_000
LAYOUTS = [(spots, seats) for spots in (3, 5, 7) for seats in (6, 9)]


def layout_app(tmp_path: Path, spots: int, seats: int, most: int | None = None) -> k.App:
    """The kiosk on a shipped Maryland paytable with ``spots`` spots and ``seats`` seats
    (and ``most`` spots a seat may play, if given)."""
    name = f"maryland-community-{spots}.yaml"
    config = k.config_copy(tmp_path, name)
    paytable = config / "paytables" / name
    yaml = re.sub(r"^seats: \d+", f"seats: {seats}", paytable.read_text(encoding="utf-8"),
                  flags=re.M)
    if most is not None:
        yaml = re.sub(r"^max_spots_per_seat: \d+", f"max_spots_per_seat: {most}", yaml,
                      flags=re.M)
    paytable.write_text(yaml, encoding="utf-8")
    app = k.make_app(tmp_path, config=config)
    assert (app.table.state.paytable.spot_count, app.table.state.paytable.seats) == (spots, seats)
    return app


@pytest.fixture
def app(tmp_path: Path) -> Iterator[k.App]:
    app = k.make_app(tmp_path)  # the shipped 5-spot, 6-seat Maryland table
    for seat in range(1, 7):
        app.send(CashIn(seat, START), "attendant")
    yield app
    app.table.ledger.close()


def scene(app: k.App) -> TableScene:
    """The table scene as the next frame shows it: the commits so far delivered."""
    assert isinstance(app.base, TableScene)
    app.table.deliver(wait=True)
    return app.base


def walk(app: k.App) -> list[Target]:
    """Every interactive element of the table scene, checked as a finger meets it."""
    targets = scene(app).hit_targets(app.now)
    assert [t.button for t in targets] == list(scene(app).buttons(app.now))  # what the App uses
    names = [t.name for t in targets]
    assert len(set(names)) == len(names)
    for target in targets:
        x, y, w, h = target.rect
        assert w >= MIN_TARGET and h >= MIN_TARGET, (target.name, target.rect)
        assert 0 <= x <= x + w <= LOGICAL_W and 0 <= y <= y + h <= LOGICAL_H, target.name
    for i, a in enumerate(targets):
        for b in targets[i + 1:]:
            assert not _overlap(a.rect, b.rect), (a.name, a.rect, b.name, b.rect)
    for target in targets:  # nothing lies over any target: its centre answers to it
        x, y, w, h = target.rect
        touch = Touch("mouse", TouchPhase.DOWN, x + w / 2, y + h / 2)
        assert button_at(scene(app).buttons(app.now), touch) == target.button
    return targets


def _overlap(a: tuple[float, ...], b: tuple[float, ...]) -> bool:
    ax, ay, aw, ah = a
    bx, by, bw, bh = b
    return ax < bx + bw and bx < ax + aw and ay < by + bh and by < ay + ah


def seat_names(targets: list[Target], seat: int) -> set[str]:
    return {t.name.split(":", 2)[2] for t in targets if t.name.startswith(f"seat:{seat}:")}


def tied_shoe(app: k.App) -> None:
    """A shoe whose original deal ties every spot (the dealer's 9 against nine 9s)."""
    p = app.table.state.paytable
    nines = ["9S", "9C", "9D"] * 3  # enough for nine spots
    codes = ["2C", *nines[:p.spot_count], "9H"]
    assert app.send(Shuffle(rigged_draw(p, codes), ShuffleReason.NEW_SHOE), "dealer") is None


def seat_spots(playable: tuple[int, ...], most: int, seat: int) -> tuple[int, ...]:
    """``most`` adjacent spots of ``playable`` for ``seat``, shifted so the seats cover them."""
    first = (seat - 1) % (len(playable) - most + 1)
    return playable[first:first + most]


# --------------------------------------------------------------------------- the walk


@pytest.mark.parametrize(("spots", "seats"), LAYOUTS)
def test_every_touch_target_of_every_layout_is_a_finger_wide_and_alone(
        tmp_path: Path, spots: int, seats: int) -> None:
    app = layout_app(tmp_path, spots, seats)
    try:
        walk_betting_and_decisions(app)
        cash_out = k.button(app, f"seat:{seats}:cashout")  # a real button at 9 × 7 too
        assert cash_out.rect[2] >= 2 * MIN_TARGET
    finally:
        app.table.ledger.close()


@pytest.mark.parametrize(("spots", "seats"), [(7, 9), (5, 6)])
def test_a_seat_that_may_play_every_spot_decides_each_tie_on_its_own_spot(
        tmp_path: Path, spots: int, seats: int) -> None:
    app = layout_app(tmp_path, spots, seats, most=spots)  # MD Ch. 7 E: the operator's number
    try:
        walk_betting_and_decisions(app)
    finally:
        app.table.ledger.close()


@pytest.mark.parametrize("paytable", ["pennsylvania.yaml", "pennsylvania-2011.yaml",
                                      "south-dakota.yaml"])
def test_every_touch_target_of_the_per_seat_layouts_too(tmp_path: Path, paytable: str) -> None:
    app = k.make_app(tmp_path, paytable=paytable)
    try:
        walk_betting_and_decisions(app)
    finally:
        app.table.ledger.close()


def walk_betting_and_decisions(app: k.App) -> None:
    """Walk the targets while betting, and again with every seat's most spots tied."""
    p = app.table.state.paytable
    seats = p.seats
    layout = scene(app).layout
    for seat in range(1, seats + 1):
        app.send(CashIn(seat, START), "attendant")
    tied_shoe(app)
    k.dealer(app, "open")
    betting = walk(app)
    kinds = ("initial", "tie", "payout") if p.progressive_payout is not None else (
        "initial", "tie")
    bonus = p.bonus_spin.denominations_cents if p.bonus_spin is not None else ()
    for seat in range(1, seats + 1):  # the whole felt, the rail and the buttons, per seat
        assert seat_names(betting, seat) == (
            {f"{kind}:{spot}" for spot in layout.seat_spots(seat) for kind in kinds}
            | {f"chip:{v}" for v in (500, 2500, 10000, 50000)}
            | {f"bonus:{v}" for v in bonus} | {"clear", "repeat", "double", "cashout"}), seat

    for seat in range(1, seats + 1):  # every seat on its most spots, all of them tied
        for spot in seat_spots(layout.seat_spots(seat), p.max_spots_per_seat, seat):
            assert app.send(PlaceWager(seat, spot, BetKind.INITIAL, 500), "player") is None
    app.send(CloseBets(), "dealer")
    app.send(Deal(), "dealer")
    k.run_until(app, lambda: app.table.state.pending_decisions() != ())
    deciding = walk(app)
    choices = ("war", "surrender", "wartie") if p.war_tie_wager else ("war", "surrender")
    for seat in range(1, seats + 1):
        tied = seat_spots(layout.seat_spots(seat), p.max_spots_per_seat, seat)
        assert seat_names(deciding, seat) == (
            {f"{what}:{spot}" for spot in tied for what in choices} | {"cashout"})
    app.draw()
    assert k.not_blank(app.canvas)


@pytest.mark.parametrize(("spots", "seats"), LAYOUTS)
def test_the_chip_rail_runs_from_the_table_minimum_to_the_maximum(
        tmp_path: Path, spots: int, seats: int) -> None:
    app = layout_app(tmp_path, spots, seats)
    try:
        p = app.table.state.paytable
        layout = TableLayout.for_paytable(p)
        assert layout.chip_values == (500, 2500, 10000, 50000)  # $5 ... $500 (MD limits)
        assert layout.chip_values[0] == p.limits.initial.min_cents
        assert layout.chip_values[-1] == p.limits.initial.max_cents
        assert scene(app).in_hand == dict.fromkeys(range(1, seats + 1), 500)
    finally:
        app.table.ledger.close()


@pytest.mark.parametrize(("initial", "unit", "chips"), [
    ((500, 50_000), 100, (500, 2500, 10000, 50000)),  # Maryland: $5 ... $500
    ((1500, 50_000), 100, (1500, 2500, 10000, 50000)),  # an odd minimum is the first chip
    ((1000, 30_000), 100, (1000, 2500, 10000)),  # up to $300: $100 chips stack to it
    ((100, 500_000), 100, (100, 500, 2500, 50000, 100000, 500000)),  # six at most, ends kept
    ((500, 50_000), 500, (500, 2500, 10000, 50000)),  # every chip a multiple of the unit
])
def test_chip_denominations_come_from_the_limits(initial: tuple[int, int], unit: int,
                                                 chips: tuple[int, ...]) -> None:
    p = maryland(limits=Limits(Limit(*initial), Limit(100, 10_000)), unit_cents=unit)
    assert chip_values(p, CHIP_RAIL_MOST) == chips


def test_thinning_keeps_the_ends_and_spreads_the_rest() -> None:
    assert thin((1, 2, 3, 4, 5, 6, 7), 4) == (1, 3, 5, 7)
    assert thin((1, 2, 3), 5) == (1, 2, 3)
    assert thin((1, 2, 3), 2) == (1, 3)


def test_the_three_spot_table_uses_its_room_for_bigger_circles(tmp_path: Path) -> None:
    sizes = {}
    for spots in (3, 5, 7):
        app = layout_app(tmp_path / str(spots), spots, 6)
        area = scene(app).layout.seat(1).spots[0]
        sizes[spots] = (area.initial[2], area.tie[2])
        app.table.ledger.close()
    assert sizes[3][0] > 1.5 * MIN_TARGET and sizes[3][0] > sizes[5][0] >= sizes[7][0]
    assert sizes[3][1] > sizes[5][1] >= sizes[7][1] >= MIN_TARGET


# --------------------------------------------------------------------------- taps


def changed_cells(before: TableState, after: TableState) -> dict[tuple[int, int], SpotWagers]:
    return {(seat, spot): w
            for seat, (old_row, new_row) in enumerate(zip(before.round.wagers,
                                                          after.round.wagers, strict=True), 1)
            for spot, (old, w) in enumerate(zip(old_row, new_row, strict=True), 1) if old != w}


def test_a_tap_on_a_circle_places_exactly_that_wager(app: k.App) -> None:
    k.dealer(app, "shuffle")
    k.dealer(app, "open")
    table = app.table
    steps = [  # tag tapped, (seat, spot) changed, its wagers after, seat's credits after
        ("seat:3:initial:2", (3, 2), SpotWagers(initial=500), START - 500),
        ("seat:3:tie:2", (3, 2), SpotWagers(initial=500, tie=500), START - 1000),
        ("seat:3:payout:2", (3, 2), SpotWagers(initial=500, tie=500, progressive_payout=500),
         START - 1500),
        ("seat:5:initial:4", (5, 4), SpotWagers(initial=500), START - 500),
    ]
    for tag, cell, wagers, credits in steps:
        before = table.state
        k.tap(app, tag)
        assert changed_cells(before, table.state) == {cell: wagers}, tag
        assert table.state.credits[cell[0] - 1] == credits, tag
    before = table.state
    k.tap(app, "seat:5:bonus:100")  # the Bonus Spin spot takes exactly $1 (MD Ch. 7 F(4))
    assert changed_cells(before, table.state) == {}
    assert table.state.round.bonus_spin == (0, 0, 0, 0, 100, 0)
    assert table.state.credits == (START, START, START - 1500, START, START - 600, START)


def test_a_chip_then_a_circle_places_that_chip_and_two_taps_stack(app: k.App) -> None:
    k.dealer(app, "shuffle")
    k.dealer(app, "open")
    table = app.table
    k.tap(app, "seat:2:chip:2500")
    k.tap(app, "seat:2:initial:3")
    assert table.state.round.wagers[1][2] == SpotWagers(initial=2500)
    k.tap(app, "seat:2:initial:3")
    assert table.state.round.wagers[1][2] == SpotWagers(initial=5000)
    k.tap(app, "seat:2:chip:10000")
    k.tap(app, "seat:2:initial:3")
    assert table.state.round.wagers[1][2] == SpotWagers(initial=15000)
    k.tap(app, "seat:2:chip:2500")
    k.tap(app, "seat:2:tie:3")
    assert table.state.round.wagers[1][2] == SpotWagers(initial=15000, tie=2500)
    assert table.state.credits[1] == START - 17500
    # another seat's chip in hand is its own: seat 4 still holds the table minimum
    k.tap(app, "seat:4:initial:3")
    assert table.state.round.wagers[3][2] == SpotWagers(initial=500)


def test_chips_land_and_stack_visibly_on_the_circle_and_clear_leaves_the_felt_bare(
        app: k.App) -> None:
    k.dealer(app, "shuffle")
    k.dealer(app, "open")
    rect = pygame.Rect(*map(round, k.button(app, "seat:1:initial:2").rect))

    def circle() -> bytes:
        k.run_until(app, lambda: app.settled)
        app.draw()
        return pygame.image.tobytes(app.canvas.subsurface(rect), "RGB")

    empty = circle()
    k.tap(app, "seat:1:initial:2")
    app.frame(1 / 60, draw=True)  # the chip has just left the rail: the stack waits for it
    assert pygame.image.tobytes(app.canvas.subsurface(rect), "RGB") == empty
    one = circle()
    k.tap(app, "seat:1:initial:2")
    two = circle()
    assert len({empty, one, two}) == 3  # a chip, then a taller stack with a new sum
    k.tap(app, "seat:1:clear")
    assert app.table.state.credits[0] == START
    assert circle() == empty


def test_clear_repeat_and_double_do_what_the_engine_says(app: k.App) -> None:
    table = app.table
    k.dealer(app, "shuffle")
    k.dealer(app, "open")
    for tag in ("seat:1:initial:1", "seat:1:tie:1", "seat:1:payout:1", "seat:1:initial:2",
                "seat:1:bonus:500"):
        k.tap(app, tag)
    assert table.state.credits[0] == START - 2500
    k.tap(app, "seat:1:double")  # Initial and Tie doubled; the fixed side wagers stay
    assert table.state.round.wagers[0][:2] == (
        SpotWagers(initial=1000, tie=1000, progressive_payout=500), SpotWagers(initial=1000))
    assert table.state.round.bonus_spin[0] == 500
    assert table.state.credits[0] == START - 4000
    k.tap(app, "seat:1:clear")
    assert table.state.round.wagers[0] == (SpotWagers(),) * 5
    assert table.state.round.bonus_spin[0] == 0
    assert table.state.credits[0] == START
    k.tap(app, "seat:1:double")  # nothing to double: refused, said on the seat
    assert scene(app).seat_messages[1][0] == "seat 1 has no wagers to double"
    k.tap(app, "seat:1:initial:3")
    play_out(app)
    after_round = table.state.credits[0]

    k.dealer(app, "open")
    k.tap(app, "seat:1:repeat")  # last round's wagers, exactly
    assert table.state.round.wagers[0] == (SpotWagers(), SpotWagers(), SpotWagers(initial=500),
                                           SpotWagers(), SpotWagers())
    assert table.state.credits[0] == after_round - 500


def play_out(app: k.App) -> None:
    """Close, deal and finish the round as the dealer would; then the next round is due."""
    table = app.table
    app.send(CloseBets(), "dealer")
    app.send(Deal(), "dealer")
    k.run_until(app, lambda: table.state.phase.value not in ("dealt",))
    if table.state.pending_decisions():
        from etg.core.commands import CloseDecisions

        app.send(CloseDecisions(), "dealer")
    if table.state.phase.value == "war_pending":
        app.send(WarDeal(), "dealer")
        k.run_until(app, lambda: table.state.phase.value not in ("war_dealt",))
    if table.state.phase.value == "bonus_spin":
        app.send(table.spin_command(), "dealer")
    assert table.state.phase.value == "complete"
    app.send(NextRound(), "dealer")


# --------------------------------------------------------------------------- one round only


# Round 1: burn; spot 1 ties the dealer's 7, spots 2-5 do not; the War burns three, spot 1's
# War card wins. Round 2: the same again (no burn: the shoe is not fresh).
ROUND = ["7S", "2C", "3C", "4C", "5C", "7H", "2D", "3D", "4D", "KS", "2H"]
TWO_ROUNDS = ["2S", *ROUND, *ROUND]


def test_nothing_chosen_in_a_round_survives_into_the_next(app: k.App) -> None:
    table = app.table
    p = table.state.paytable
    assert app.send(Shuffle(rigged_draw(p, TWO_ROUNDS), ShuffleReason.NEW_SHOE), "dealer") is None
    k.dealer(app, "open")
    k.tap(app, "seat:1:chip:2500")
    k.tap(app, "seat:1:initial:1")
    k.tap(app, "seat:2:chip:10000")
    k.tap(app, "seat:2:initial:5")
    assert scene(app).in_hand == {1: 2500, 2: 10000, 3: 500, 4: 500, 5: 500, 6: 500}
    app.send(CloseBets(), "dealer")
    app.send(Deal(), "dealer")
    k.run_until(app, lambda: table.state.pending_decisions() == ((1, 1),))
    k.tap(app, "seat:1:wartie:1")  # War, with a Tie Wager on the War deal
    w = table.state.round.wagers[0][0]
    assert (w.decision, w.war, w.war_tie) == (Decision.WAR, 2500, p.limits.tie.min_cents)
    app.send(WarDeal(), "dealer")
    k.run_until(app, lambda: table.state.phase.value == "complete")
    app.send(NextRound(), "dealer")

    assert app.send(OpenBets(), "dealer") is None
    assert scene(app).in_hand == dict.fromkeys(range(1, 7), 500)  # the table minimum again
    bets = {t.name: t.command for t in scene(app).hit_targets(app.now)}
    assert bets["seat:1:initial:1"] == PlaceWager(1, 1, BetKind.INITIAL, 500)
    assert bets["seat:1:tie:1"] == PlaceWager(1, 1, BetKind.TIE, 500)
    assert not [name for name in bets if "kind" in name or name.endswith(":wartie")]
    k.tap(app, "seat:1:initial:1")
    assert table.state.round.wagers[0][0] == SpotWagers(initial=500)
    app.send(CloseBets(), "dealer")
    app.send(Deal(), "dealer")
    k.run_until(app, lambda: table.state.pending_decisions() == ((1, 1),))
    k.tap(app, "seat:1:war:1")  # a plain War this time: no Tie Wager carried over
    w = table.state.round.wagers[0][0]
    assert (w.decision, w.war, w.war_tie) == (Decision.WAR, 500, 0)


def test_a_tap_on_a_circle_while_betting_is_closed_places_nothing(app: k.App) -> None:
    k.dealer(app, "shuffle")
    k.dealer(app, "open")
    rect = k.button(app, "seat:1:initial:1").rect
    k.tap(app, "seat:1:initial:1")
    app.send(CloseBets(), "dealer")
    names = {t.name for t in scene(app).hit_targets(app.now)}
    assert "seat:1:initial:1" not in names and "seat:1:chip:500" not in names
    assert "seat:1:cashout" in names
    before = app.table.state
    k.tap_at(app, rect[0] + rect[2] / 2, rect[1] + rect[3] / 2)
    assert app.table.state is before


def test_a_committed_wager_keeps_the_touch_targets_and_what_they_are_made_of_renews_them(
        app: k.App) -> None:
    """Nine seats' targets take milliseconds to make, so a bet does not remake them; but
    whatever they show or send (the chip in hand, the phase, the cabinet's tip amounts)
    does, and the kept ones are exactly those made afresh."""
    assert app.send(SignInDealer("D1"), "dealer") is None  # TIP buttons need a dealer
    k.dealer(app, "shuffle")
    k.dealer(app, "open")
    betting = scene(app).hit_targets(app.now)
    assert "chip:500" in seat_names(betting, 2)
    k.tap(app, "seat:2:initial:3")
    assert app.table.state.round.wagers[1][2] == SpotWagers(initial=500)
    kept = scene(app).hit_targets(app.now)
    assert kept is betting
    assert kept == table_targets(scene(app).layout, app.table.committed, scene(app).in_hand,
                                 app.cabinet.tip_amounts_cents)

    k.tap(app, "seat:2:chip:2500")  # a new chip in hand: the seat's circles send it now
    renewed = scene(app).hit_targets(app.now)
    assert renewed is not betting
    circle = next(t for t in renewed if t.name == "seat:2:initial:3")
    assert circle.command == PlaceWager(2, 3, BetKind.INITIAL, 2500)
    assert [t.name for t in renewed if t.button.hot and t.name.startswith("seat:2:")] == [
        "seat:2:chip:2500"]

    assert {name for name in seat_names(renewed, 2) if "tip" in name} == {"tip:100"}
    cabinet = app.cabinet
    app.cabinet = dataclasses.replace(cabinet, tip_amounts_cents=(500,))
    tips = {name for name in seat_names(scene(app).hit_targets(app.now), 2) if "tip" in name}
    assert tips == {"tip:500"}
    app.cabinet = cabinet

    k.dealer(app, "close")  # No More Bets: the circles, chips and seat buttons are gone
    closed = scene(app).hit_targets(app.now)
    assert seat_names(closed, 2) == {"cashout"} | {
        name for name in seat_names(betting, 2) if name.startswith("tip:")}
