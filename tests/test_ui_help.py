"""Help pages and attract mode (SPEC §6): written from the active paytable, drawn headless.

"Help / paytable screens generated from the active YAML, so what an operator
edits is what players read": the page text is checked against the paytable's
own values (and against an edited copy of a shipped file), apart from the
drawing; the scenes are then driven through the real App with taps and keys.
"""

from __future__ import annotations

import dataclasses
import importlib.util
from collections.abc import Callable
from fractions import Fraction
from pathlib import Path

import pygame
import pytest

from etg.config.loader import load_paytable
from etg.config.places import shipped_config_dir
from etg.core.money import format_cents
from etg.core.paytable import Decision, PayoutHand, Paytable, ProgressiveLevel
from etg.core.progressive import MeterState
from etg.ui.app import App
from etg.ui.attract import AttractScene
from etg.ui.help.model import Chart, HelpPage, LiveMeter
from etg.ui.help.pages import help_pages
from etg.ui.help.scene import BUTTON_H, HelpScene
from etg.ui.help.words import highlights
from etg.ui.scene import Scene
from tests.kiosk_support import (
    config_copy,
    make_app,
    not_blank,
    tap,
    tap_at,
    type_keys,
)

PAYTABLES = shipped_config_dir() / "paytables"
SHIPPED = sorted(p.name for p in PAYTABLES.glob("*.yaml"))
HAS_TABLE_SCENE = importlib.util.find_spec("etg.ui.table_scene") is not None


def paytable(name: str) -> Paytable:
    return load_paytable(PAYTABLES / name).paytable


def page(pages: list[HelpPage], tab: str) -> HelpPage:
    return next(p for p in pages if p.tab == tab)


def charts(p: HelpPage) -> list[Chart]:
    return [b for b in p.blocks if isinstance(b, Chart)]


def money(cents: int) -> str:
    return format_cents(cents, whole_dollars=True)


def app_for(tmp_path: Path, name: str = "maryland-community-5.yaml",
            config: Path | None = None) -> App:
    """The kiosk on the real table scene when it exists, else on a bare base scene."""
    base: Callable[[App], Scene] | None = None if HAS_TABLE_SCENE else Scene
    return make_app(tmp_path, paytable=name, base=base, config=config)


def open_help(app: App) -> HelpScene:
    scene = HelpScene(app)
    app.push(scene)
    return scene


def pixels(surface: pygame.Surface) -> bytes:
    return pygame.image.tobytes(surface, "RGB")


# --- the words: help_pages is pure data -------------------------------------------------------


def test_maryland_pages_carry_exactly_the_paytables_numbers() -> None:
    p = paytable("maryland-community-5.yaml")
    pages = help_pages(p)
    assert [x.tab for x in pages] == ["HOW TO PLAY", "PAYS", "BONUS SPIN", "PROGRESSIVE",
                                      "LIMITS"]
    pays = page(pages, "PAYS")
    main = charts(pays)[0]
    assert ("Tie Wager", "ties the dealer's card", "10 to 1") in main.rows
    assert ("Initial Wager", "beats the dealer's card", "1 to 1") in main.rows
    assert ("War Wager", "War card beats the dealer's", "1 to 1") in main.rows
    assert ("Tie War", "War card ties the dealer's", "2 to 1") in main.rows
    assert ("Tie Wager on the War", "War card ties the dealer's", "10 to 1") in main.rows
    assert "$100,000" in pays.text  # payout limit per hand (MD Ch. 2 B(5)(b))

    bonus = page(pages, "BONUS SPIN")
    assert "a red Ace: 1 in 26" in bonus.text  # 2 red Aces of 52 faces, whatever the decks
    community, hot = charts(bonus)
    assert community.headers == ("SYMBOL", "WEIGHT", "CHANCE", "%", "$1 WAGER", "$5 WAGER")
    assert community.rows[0] == ("$150", "1", "1/91", "1.1%", "$30", "$150")  # weight 1 of 91
    assert ("$100", "2", "2/91", "2.2%", "$25", "$125") in community.rows  # Paytable A
    assert hot.rows[0] == ("JACKPOT", "1", "1/120", "0.83%", "20% of meter", "100% of meter")
    assert hot.rows[1] == ("MINI JACKPOT", "2", "1/60", "1.7%", "20% of meter",
                           "100% of meter")  # weight 2 of 120, in lowest terms
    assert "6 equal segments, one per seat (1 in 6 each)" in bonus.text
    assert {b.level for b in bonus.blocks if isinstance(b, LiveMeter)} == {
        ProgressiveLevel.PRIMARY, ProgressiveLevel.SECONDARY}

    payout = page(pages, "PROGRESSIVE")
    (hands,) = charts(payout)
    assert hands.rows[0] == ("SUITED FOUR-OF-A-KIND", "1000 to 1 + 100% of meter",
                             "$5,000 + meter", "$5,000")
    assert [row[1] for row in hands.rows] == ["1000 to 1 + 100% of meter", "200 to 1",
                                              "150 to 1", "30 to 1", "15 to 1", "5 to 1"]
    assert "Bet $5 on a spot with an Initial Wager" in payout.text
    assert payout.meters == (ProgressiveLevel.PROGRESSIVE_PAYOUT,)

    how = page(pages, "HOW TO PLAY")
    assert "up to 3 adjacent spots of the 5 numbered spots" in how.text  # MD Ch. 7 E
    assert "You have 20 seconds" in how.text and "within 10 seconds" in how.text
    assert "If you do not choose in time, you Surrender" in how.text
    assert "6 decks of 52 cards (312 cards)" in how.text


@pytest.mark.parametrize("name", [n for n in SHIPPED if n.startswith("maryland")])
def test_every_ring_segment_is_printed_with_its_exact_odds(name: str) -> None:
    """The wheel draws every segment the same width (SPEC §6), so the help page carries
    the odds: each segment's weight, its chance as weight over the ring's total in lowest
    terms, and that chance as a percent."""
    p = paytable(name)
    assert p.bonus_spin is not None
    bonus = page(help_pages(p), "BONUS SPIN")
    community, hot = charts(bonus)
    for chart, ring in ((community, p.bonus_spin.community_ring),
                        (hot, p.bonus_spin.hot_spot_ring)):
        assert chart.headers[1:4] == ("WEIGHT", "CHANCE", "%")
        total = sum(s.weight for s in ring)
        chances = []
        for row, segment in zip(chart.rows, ring, strict=True):
            exact = Fraction(segment.weight, total)
            assert row[1] == str(segment.weight)
            assert Fraction(row[2]) == exact and row[2] == f"{exact.numerator}/{exact.denominator}"
            digits = 2 if exact < Fraction(1, 100) else 1
            assert row[3] == f"{float(exact) * 100:.{digits}f}%"
            chances.append(Fraction(row[2]))
        assert sum(chances) == 1
    assert "all segments of a ring are the same size; their chances are in the tables" in bonus.text


@pytest.mark.parametrize("name", [n for n in SHIPPED if n.startswith("maryland")])
def test_every_ring_segment_and_hand_is_printed_from_the_paytable(name: str) -> None:
    p = paytable(name)
    assert p.bonus_spin is not None and p.progressive_payout is not None
    pages = help_pages(p)
    community, hot = charts(page(pages, "BONUS SPIN"))
    for chart, ring in ((community, p.bonus_spin.community_ring),
                        (hot, p.bonus_spin.hot_spot_ring)):
        assert len(chart.rows) == len(ring)
        for row, segment in zip(chart.rows, ring, strict=True):
            assert row[0] == segment.symbol
            if segment.meter_percent is not None:
                assert row[4:] == tuple(f"{pct}% of meter" for pct in segment.meter_percent)
            else:
                assert segment.pays_cents is not None
                assert row[4:] == tuple(money(c) for c in segment.pays_cents)
    (hands,) = charts(page(pages, "PROGRESSIVE"))
    w = p.progressive_payout
    for row, hand in zip(hands.rows, PayoutHand, strict=True):
        pay = w.pays.of(hand)
        assert row[0] == hand.label.upper()
        assert row[1].startswith(f"{pay.pays} to {pay.to}")
        assert row[2].startswith(money(w.wager_cents * pay.pays // pay.to))
    limits = page(pages, "LIMITS")
    assert f"Community spots | {p.spots}" in limits.text
    assert f"Seats | {p.seats}" in limits.text


@pytest.mark.parametrize("name", ["pennsylvania.yaml", "pennsylvania-2011.yaml",
                                  "south-dakota.yaml"])
def test_per_seat_games_have_no_side_wager_pages(name: str) -> None:
    pages = help_pages(paytable(name))
    assert [p.tab for p in pages] == ["HOW TO PLAY", "PAYS", "LIMITS"]
    words = "\n".join(p.text for p in pages)
    assert "Bonus Spin" not in words and "BONUS SPIN" not in words
    assert "Progressive" not in words and "PROGRESSIVE" not in words
    assert not any(p.meters for p in pages)
    assert "numbered spots" not in words  # per seat: your own card
    assert "Each player with an Initial Wager receives one card face up" in words


def test_war_text_follows_each_war_form() -> None:
    md, pa, sd = (help_pages(paytable(n)) for n in ("maryland-community-5.yaml",
                                                     "pennsylvania-2011.yaml",
                                                     "south-dakota.yaml"))
    md_how, pa_how, sd_how = (page(x, "HOW TO PLAY").text for x in (md, pa, sd))
    # initial_pushed (MD Ch. 9 I(2)-(3)): the Initial Wager comes back, War 1 to 1 / 2 to 1.
    assert ("If your War card is higher, the Initial Wager is returned and the War Wager "
            "wins 1 to 1.") in md_how
    assert "the War Wager wins 2 to 1" in md_how
    assert "collected" not in md_how and "matches" not in md_how
    # initial_forfeited (PA 2011 § 651a.9(e), (g)): taken on going to War, War 2 to 1 / 3 to 1.
    assert "the Initial Wager is collected as you go to War" in pa_how
    assert "If your War card is higher, the War Wager wins 2 to 1." in pa_how
    assert "If the War cards tie, the War Wager wins 3 to 1." in pa_how
    assert "the Initial Wager is returned" not in pa_how
    # dealer_matched (S.D. 20:18:16:15.17(4)(d)): odds on Initial + War Wager together.
    assert "the dealer matches it" in sd_how
    assert "you win 1 to 2 on your Initial and War Wagers together" in sd_how
    assert "you win 1 to 1 on both together" in sd_how
    # S.D. offers the tie wager with the initial bet only.
    assert "new Tie Wager" in md_how and "new Tie Wager" in pa_how
    assert "new Tie Wager" not in sd_how
    assert "Tie Wager on the War" not in page(sd, "PAYS").text

    # Three forms, one economy (SPEC §2): the money results, settled by the engine, agree.
    examples = [charts(page(x, "PAYS"))[1].rows for x in (md, pa, sd)]
    assert examples[0] == examples[1] == examples[2] == (
        ("Your card is higher", "+$5"), ("Your card is lower", "−$5"),
        ("A tie: you Surrender", "−$2.50"), ("A tie: War, your card higher", "+$5"),
        ("A tie: War, the cards tie", "+$10"), ("A tie: War, your card lower", "−$10"))


def test_default_decision_war_is_explained_with_its_credit_rule() -> None:
    p = dataclasses.replace(paytable("pennsylvania.yaml"), default_decision=Decision.WAR)
    how = page(help_pages(p), "HOW TO PLAY").text
    assert "you go to War if your credits cover the War Wager, otherwise you Surrender" in how


def test_editing_the_yaml_changes_what_players_read(tmp_path: Path) -> None:
    source = (PAYTABLES / "maryland-community-5.yaml").read_text(encoding="utf-8")
    edited = (source.replace("tie: {pays: 10, to: 1}", "tie: {pays: 12, to: 1}")
              .replace("betting_s: 20", "betting_s: 25")
              .replace('{symbol: "$150", weight: 1, pays_cents: [3000, 15000]}',
                       '{symbol: "$150", weight: 1, pays_cents: [3500, 17500]}'))
    assert edited.count("12, to: 1") == 1 and "17500" in edited
    copy = tmp_path / "edited.yaml"
    copy.write_text(edited, encoding="utf-8")
    pages = help_pages(load_paytable(copy).paytable)
    words = "\n".join(p.text for p in pages)
    assert "Tie Wager | ties the dealer's card | 12 to 1" in words
    assert "10 to 1" not in words
    assert "You have 25 seconds" in words
    assert "$150 | 1 | 1/91 | 1.1% | $35 | $175" in words
    assert "TIE WAGER PAYS 12 TO 1" in highlights(load_paytable(copy).paytable)


def test_an_operators_edit_reaches_the_help_screen(tmp_path: Path) -> None:
    config = config_copy(tmp_path)
    file = config / "paytables" / "maryland-community-5.yaml"
    file.write_text(file.read_text(encoding="utf-8").replace("tie: {pays: 10, to: 1}",
                                                             "tie: {pays: 12, to: 1}"),
                    encoding="utf-8")
    app = app_for(tmp_path, config=config)
    scene = open_help(app)
    scene.show(1)
    assert scene.current.tab == "PAYS"
    assert "12 to 1" in scene.current.text and "10 to 1" not in scene.current.text


def test_attract_highlights_come_from_the_paytable() -> None:
    lines = highlights(paytable("maryland-community-5.yaml"))
    assert "TIE WAGER PAYS 10 TO 1" in lines
    assert "SUITED FOUR-OF-A-KIND PAYS 1000 TO 1 + THE PROGRESSIVE" in lines
    assert "HOT SPOT WINS JACKPOT, MINI JACKPOT OR UP TO $1,000" in lines
    assert "COMMUNITY PAY UP TO $150 FOR EVERY PLAYER" in lines
    assert "A RED ACE SPINS THE BONUS SPIN XTREME WHEEL" in lines
    assert "ENVY BONUS $5,000 WHEN ANOTHER PLAYER HITS A SUITED FOUR-OF-A-KIND" in lines
    sd = highlights(paytable("south-dakota.yaml"))
    assert "TIE THE WAR · WAR WAGER PAYS 1 TO 1 ON BOTH WAGERS" in sd
    assert not any("JACKPOT" in line or "BONUS" in line for line in sd)


# --- the help scene ---------------------------------------------------------------------------


def test_help_opens_turns_pages_and_closes(tmp_path: Path) -> None:
    app = app_for(tmp_path)
    if HAS_TABLE_SCENE:
        tap(app, "help")
        assert isinstance(app.top, HelpScene)
        scene = app.top
    else:
        scene = open_help(app)
    assert scene.page == 0
    assert BUTTON_H >= 64
    assert all(b.rect[3] >= 64 for b in scene.buttons(app.now))  # players' touch targets
    assert {b.tag for b in scene.buttons(app.now)} >= {"prev", "next", "close", "tab:0"}
    tap(app, "next")
    assert scene.page == 1
    tap(app, "next")
    assert scene.page == 2
    tap(app, "prev")
    assert scene.page == 1
    tap(app, "tab:4")
    assert scene.page == 4 and scene.current.tab == "LIMITS"
    assert not next(b for b in scene.buttons(app.now) if b.tag == "next").enabled
    tap(app, "tab:0")
    assert scene.page == 0
    assert not next(b for b in scene.buttons(app.now) if b.tag == "prev").enabled
    tap(app, "close")
    assert scene not in app.stack


def test_help_keys(tmp_path: Path) -> None:
    app = app_for(tmp_path)
    scene = open_help(app)
    right = pygame.event.Event(pygame.KEYDOWN, key=pygame.K_RIGHT, unicode="", mod=0)
    left = pygame.event.Event(pygame.KEYDOWN, key=pygame.K_LEFT, unicode="", mod=0)
    escape = pygame.event.Event(pygame.KEYDOWN, key=pygame.K_ESCAPE, unicode="\x1b", mod=0)
    app.handle(right)
    app.handle(right)
    assert scene.page == 2
    app.handle(left)
    assert scene.page == 1
    for _ in range(10):
        app.handle(right)
    assert scene.page == len(scene.pages) - 1  # stops at the last page
    app.handle(escape)
    assert scene not in app.stack
    scene = open_help(app)
    type_keys(app, "h")  # the key that opens help closes it, and opens no second one
    assert not any(isinstance(s, HelpScene) for s in app.stack)


@pytest.mark.parametrize("name", ["maryland-community-5.yaml", "maryland-community-7.yaml",
                                  "pennsylvania.yaml", "south-dakota.yaml"])
def test_every_help_page_draws(tmp_path: Path, name: str) -> None:
    app = app_for(tmp_path, name)
    scene = open_help(app)
    seen = set()
    for index in range(len(scene.pages)):
        scene.show(index)
        app.draw()
        assert not_blank(app.canvas), scene.current.title
        seen.add(pixels(app.canvas))
    assert len(seen) == len(scene.pages)  # every page is a different picture


def test_help_meters_are_live(tmp_path: Path) -> None:
    app = app_for(tmp_path)
    scene = open_help(app)
    scene.show(2)  # BONUS SPIN: the primary and secondary meters
    app.draw()
    before = pixels(app.canvas)
    app.draw()
    assert pixels(app.canvas) == before  # the cached page and the same meters: the same picture
    state = app.table.state
    grown = tuple(None if m is None else MeterState(m.cents + 123_456) for m in state.meters)
    app.table.state = dataclasses.replace(state, meters=grown)
    app.draw()
    assert pixels(app.canvas) != before


# --- attract mode -----------------------------------------------------------------------------


def attract(tmp_path: Path, name: str = "maryland-community-5.yaml") -> tuple[App,
                                                                              AttractScene]:
    app = app_for(tmp_path, name)
    scene = AttractScene(app)
    app.push(scene)
    return app, scene


def draw_at(app: App, now: float) -> bytes:
    app.now = now
    app.draw()
    return pixels(app.canvas)


@pytest.mark.parametrize("name", ["maryland-community-5.yaml", "pennsylvania.yaml"])
def test_attract_is_animated_and_a_pure_function_of_time(tmp_path: Path, name: str) -> None:
    app, scene = attract(tmp_path, name)
    assert scene.buttons(0.0) == ()
    first = draw_at(app, 5.0)
    assert not_blank(app.canvas)
    later = draw_at(app, 21.3)  # another wheel cycle, another pay line, cards turned
    assert later != first
    assert draw_at(app, 5.25) != first  # motion within a second
    assert draw_at(app, 5.0) == first  # the same time, whatever came before: the same frame


def test_attract_shows_the_live_meters(tmp_path: Path) -> None:
    app, _ = attract(tmp_path)
    before = draw_at(app, 3.0)
    state = app.table.state
    grown = tuple(None if m is None else MeterState(m.cents + 98_765) for m in state.meters)
    app.table.state = dataclasses.replace(state, meters=grown)
    assert draw_at(app, 3.0) != before


def test_a_touch_dismisses_attract(tmp_path: Path) -> None:
    app, scene = attract(tmp_path)
    tap_at(app, 960, 540)
    assert scene not in app.stack
    assert app.top is app.base


def test_a_key_dismisses_attract(tmp_path: Path) -> None:
    app, scene = attract(tmp_path)
    type_keys(app, "x")
    assert scene not in app.stack
