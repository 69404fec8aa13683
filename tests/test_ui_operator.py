"""The PIN pad and the operator menu, headless through the real App (SPEC §5, §6)."""

from __future__ import annotations

import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pygame
import pytest

from etg.config.cabinet_edit import set_cabinet_value
from etg.config.loader import load_cabinet, load_paytable
from etg.config.places import shipped_config_dir
from etg.core.commands import CashIn, OpenBets, ShuffleReason
from etg.core.rng import SeededSource
from etg.core.state import Phase
from etg.ledger.store import Ledger
from etg.ledger.verify import verify
from etg.table.bots import RoundDriver, standard_bots
from etg.table.pin import hash_pin
from etg.table.selftest import CHI_SQUARE_CRITICAL, chi_square_p_value, rng_test, shoe_test
from etg.ui.app import App
from etg.ui.operator.menu import OperatorMenu
from etg.ui.operator.page import Page
from etg.ui.operator.self_test import SelfTestPage
from etg.ui.pinpad import LOCK_S, MAX_FAILURES, PinPad
from etg.ui.scene import OpenOperatorMenu, Scene
from tests.kiosk_support import ROOT, button, config_copy, make_app, not_blank, tap, type_keys

PIN = "2468"


def _base() -> Callable[[App], Scene] | None:
    """The real table scene when it can be imported, else a bare scene under the menu."""
    try:
        import etg.ui.table_scene  # noqa: F401
    except ImportError:
        return lambda app: Scene(app)
    return None


def _app(tmp_path: Path, pin: str | None = PIN, **kwargs: Any) -> App:
    config = kwargs.pop("config", None) or config_copy(tmp_path)
    if pin is not None:
        set_cabinet_value(config / "cabinet.yaml", "operator_pin_hash", hash_pin(pin))
    return make_app(tmp_path, base=_base(), config=config, **kwargs)


def _log(app: App, kind: str | None = None) -> list[dict[str, Any]]:
    return app.table.ledger.event_log(kind)


def _menu_actions(app: App) -> list[dict[str, Any]]:
    return [e["details"] for e in _log(app, "operator_menu")]


def _play(app: App, rounds: int) -> None:
    driver = RoundDriver(standard_bots(app.table.state.paytable), SeededSource(1),
                         app.table.apply)
    for _ in range(rounds):
        driver.play_round(app.table.state)


def _enter_menu(app: App) -> OperatorMenu:
    app.go(OpenOperatorMenu())
    type_keys(app, PIN + "\n")
    assert isinstance(app.top, OperatorMenu)
    return app.top


def _escape(app: App) -> None:
    app.handle(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_ESCAPE, unicode="\x1b", mod=0))


def _texts(app: App) -> list[str]:
    menu = app.top
    assert isinstance(menu, OperatorMenu)
    return [cell.text for cell in menu.view.cells]


# --- the PIN pad --------------------------------------------------------------------------------

def test_a_wrong_pin_is_refused_and_logged_without_its_digits(tmp_path: Path) -> None:
    app = _app(tmp_path)
    app.go(OpenOperatorMenu())
    pad = app.top
    assert isinstance(pad, PinPad)
    assert not pad.opaque  # the table stays visible under it
    type_keys(app, "1357\n")
    assert app.top is pad
    assert pad.message == "Wrong PIN — 4 tries left"
    failed = _log(app, "pin_failed")
    assert [(e["actor"], e["details"]) for e in failed] == [
        ("operator", {"role": "operator", "reason": "wrong_pin", "failures": 1})]
    assert _log(app, "operator_login") == []
    assert all("1357" not in str(e["details"]) for e in _log(app))


def test_five_wrong_pins_lock_the_pad_for_sixty_seconds(tmp_path: Path) -> None:
    app = _app(tmp_path)
    app.go(OpenOperatorMenu())
    for _ in range(3):
        type_keys(app, "1111\n")
    _escape(app)  # cancel: the count stays with the App, not the pad
    assert not isinstance(app.top, PinPad)
    app.go(OpenOperatorMenu())
    pad = app.top
    assert isinstance(pad, PinPad)
    for _ in range(MAX_FAILURES - 3):
        type_keys(app, "1111\n")
    locked = _log(app, "pin_locked")
    assert [(e["actor"], e["details"]) for e in locked] == [
        ("operator", {"role": "operator", "failures": 5, "seconds": 60})]
    assert len(_log(app, "pin_failed")) == MAX_FAILURES
    assert pad.locked(app.now)
    type_keys(app, PIN + "\n")  # even the right PIN does nothing while locked
    assert app.top is pad
    assert _log(app, "pin_ok") == []
    assert not button(app, "pin:2").enabled and not button(app, "pin:enter").enabled
    app.now += LOCK_S - 1
    assert pad.locked(app.now)
    app.now += 1.01
    pad.update(app.now)
    assert not pad.locked(app.now)
    type_keys(app, PIN + "\n")
    assert isinstance(app.top, OperatorMenu)


def test_a_sixth_wrong_pin_after_a_lock_counts_from_one_again(tmp_path: Path) -> None:
    app = _app(tmp_path)
    app.go(OpenOperatorMenu())
    for _ in range(MAX_FAILURES):
        type_keys(app, "1111\n")
    app.now += LOCK_S + 0.5
    type_keys(app, "1111\n")
    assert _log(app, "pin_failed")[-1]["details"]["failures"] == 1
    assert len(_log(app, "pin_locked")) == 1


def test_the_right_pin_on_the_keypad_opens_the_menu_and_logs_the_login(tmp_path: Path) -> None:
    app = _app(tmp_path)
    app.go(OpenOperatorMenu())
    for digit in PIN:
        tap(app, f"pin:{digit}")
    tap(app, "pin:enter")
    assert isinstance(app.top, OperatorMenu)
    assert app.top.name == "operator"
    assert not any(isinstance(s, PinPad) for s in app.stack)
    tail = [(e["kind"], e["actor"], e["details"]) for e in _log(app)[-3:]]
    assert tail == [("pin_ok", "operator", {"role": "operator"}),
                    ("operator_login", "operator", {"role": "operator"}),
                    ("operator_menu", "operator", {"action": "enter"})]
    meters = app.table.ledger.meters()["cabinet"]
    assert meters[0, "operator_menu_entries"] == 1


def test_without_a_pin_the_pad_says_how_to_set_one_and_cannot_open(tmp_path: Path) -> None:
    app = _app(tmp_path, pin=None)
    app.go(OpenOperatorMenu())
    pad = app.top
    assert isinstance(pad, PinPad)
    assert pad.message == "No operator PIN is set — run: etg pin set --role operator"
    type_keys(app, "0000\n")
    assert app.top is pad
    assert pad.entry == ""
    assert _log(app, "pin_ok") == []


def test_a_pin_set_while_the_kiosk_runs_works_at_once(tmp_path: Path) -> None:
    app = _app(tmp_path, pin=None)
    assert app.cabinet.operator_pin_hash is None
    set_cabinet_value(app.cabinet_file, "operator_pin_hash", hash_pin("97531"))
    app.go(OpenOperatorMenu())
    type_keys(app, "97531\n")
    assert isinstance(app.top, OperatorMenu)


def test_backspace_clear_and_the_eight_digit_limit(tmp_path: Path) -> None:
    app = _app(tmp_path)
    app.go(OpenOperatorMenu())
    pad = app.top
    assert isinstance(pad, PinPad)
    type_keys(app, "123456789")
    assert pad.entry == "12345678"
    app.handle(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_BACKSPACE, unicode="\b", mod=0))
    assert pad.entry == "1234567"
    tap(app, "pin:clear")
    assert pad.entry == ""
    keypad = [b for b in pad.buttons(app.now) if b.tag != "pin:cancel"]
    assert len(keypad) == 12
    assert all(b.rect[2] >= 96 and b.rect[3] >= 96 for b in keypad)


# --- the menu -----------------------------------------------------------------------------------

def test_every_page_opens_logs_and_draws(tmp_path: Path) -> None:
    app = _app(tmp_path)
    _play(app, 2)
    menu = _enter_menu(app)
    for page in Page:
        tap(app, f"tab:{page.value}")
        assert menu.page is page
        assert _menu_actions(app)[-1] == {"action": "page", "page": page.value}
        logged = len(_log(app))
        app.draw()
        app.draw()
        assert not_blank(app.canvas), page
        assert len(_log(app)) == logged  # drawing reads and writes nothing
        for b in menu.buttons(app.now):
            assert b.rect[2] >= 48 and b.rect[3] >= 48, (page, b.tag, b.rect)
        tabs = [b for b in menu.buttons(app.now) if b.tag.startswith("tab:")]
        # the tabs share their column: each a touch target, all clear of EXIT below them
        exit_top = next(b.rect[1] for b in menu.buttons(app.now) if b.tag == "exit")
        assert len(tabs) == len(Page) and all(b.rect[3] >= 48 for b in tabs)
        assert tabs[-1].rect[1] + tabs[-1].rect[3] < exit_top


def test_cash_in_100_on_seat_3_adds_exactly_10000_cents(tmp_path: Path) -> None:
    app = _app(tmp_path)
    _enter_menu(app)
    tap(app, "tab:credits")
    before = app.table.state.credits
    tap(app, "cash:in:3:10000")
    after = app.table.state.credits
    assert after[2] - before[2] == 10_000
    assert after[:2] == before[:2] and after[3:] == before[3:]
    entry = _log(app, "cash_in")[-1]
    assert (entry["actor"], entry["details"]) == (
        "attendant", {"seat": 3, "amount": 10_000, "paytable_id": "md-community-5"})
    assert _menu_actions(app)[-1] == {"action": "cash_in", "seat": 3, "amount": 10_000,
                                      "refused": None}
    assert "$100.00" in _texts(app)  # the seat's credits and its cash-in total


def test_cash_out_pays_the_seat_s_exact_credits(tmp_path: Path) -> None:
    app = _app(tmp_path)
    _enter_menu(app)
    tap(app, "tab:credits")
    assert not button(app, "cash:out:3").enabled  # nothing to pay
    tap(app, "cash:in:3:50000")
    tap(app, "cash:in:3:2000")
    assert app.table.state.credits[2] == 52_000
    tap(app, "cash:out:3")
    assert app.table.state.credits[2] == 0
    entry = _log(app, "cash_out")[-1]
    assert (entry["actor"], entry["details"]) == (
        "attendant", {"seat": 3, "amount": 52_000, "paytable_id": "md-community-5"})
    assert _menu_actions(app)[-1] == {"action": "cash_out", "seat": 3, "amount": 52_000,
                                      "refused": None}
    assert app.table.ledger.meters()["md-community-5"][3, "cash_out"] == 52_000


def test_a_cash_out_request_shows_as_pending_until_paid(tmp_path: Path) -> None:
    app = _app(tmp_path)
    _enter_menu(app)
    tap(app, "tab:credits")
    tap(app, "cash:in:2:10000")
    with app.table.ledger.atomic():
        app.table.ledger.log("cash_out_request", "player", {"seat": 2, "credits": 10_000})
    tap(app, "tab:credits")
    assert "PENDING  $100.00" in _texts(app)
    assert button(app, "cash:out:2").hot
    tap(app, "cash:out:2")
    assert "PENDING  $100.00" not in _texts(app)


def test_ram_clear_needs_the_second_confirmation(tmp_path: Path) -> None:
    app = _app(tmp_path)
    _play(app, 3)
    menu = _enter_menu(app)
    tap(app, "tab:ram_clear")
    meters = app.table.ledger.meters()
    assert meters["md-community-5"][0, "games.played"] == 3
    tap(app, "ram:clear")
    assert menu.confirm is not None
    assert menu.confirm.message == ("This zeroes every meter. The hand ledger and event log "
                                    "are kept.")
    assert app.table.ledger.meters() == meters  # the first press changed nothing
    assert [b.tag for b in menu.buttons(app.now)] == ["confirm:yes", "confirm:no"]
    tap(app, "confirm:no")
    assert app.table.ledger.meters() == meters
    assert _log(app, "ram_clear") == []
    tap(app, "ram:clear")
    tap(app, "confirm:yes")
    assert app.table.ledger.meters() == {}
    assert [(e["actor"], e["details"]) for e in _log(app, "ram_clear")] == [
        ("operator", {"after_round": 3})]
    assert _menu_actions(app)[-1] == {"action": "ram_clear"}
    assert app.table.ledger.round_count() == 3  # the hand ledger is kept
    assert verify(app.table.ledger) == []  # and the zeroed meters still add up


def test_tilt_acknowledge_clears_a_real_tilt(tmp_path: Path) -> None:
    config = config_copy(tmp_path)
    db = tmp_path / "table.db"
    first = _app(tmp_path, config=config, db=db)
    _play(first, 2)
    first.table.close()
    ledger = Ledger.open(db)
    with ledger.atomic():  # someone edits a meter behind the program's back
        ledger.db.execute("UPDATE meters SET value = value + 100 WHERE seat = 1 "
                          "AND name = 'coin_in.initial'")
    ledger.close()
    app = make_app(tmp_path, base=_base(), config=config, db=db)
    assert app.table.tilted
    _enter_menu(app)
    tap(app, "tab:tilt")
    assert any(text.startswith("meters: meters row (md-community-5, seat 1, coin_in.initial)")
               for text in _texts(app))
    set_cabinet_value(app.cabinet_file, "supervisor_pin_hash", hash_pin("8642"))
    tap(app, "tilt:ack")
    assert app.table.tilted  # the operator's own PIN is not enough: a supervisor clears a tilt
    type_keys(app, "1111\n")
    assert app.table.tilted
    type_keys(app, "8642\n")
    assert not app.table.tilted
    cleared = _log(app, "tilt_cleared")[-1]
    assert cleared["actor"] == "supervisor"
    assert _menu_actions(app)[-1]["action"] == "acknowledge_tilt"
    assert not button(app, "tilt:ack").enabled
    assert "NO TILT" in _texts(app)


class _Counting:
    """Stands in for SystemSource: counts how many are made, draws reproducibly."""

    made = 0

    def __init__(self) -> None:
        type(self).made += 1
        self._inner = SeededSource(100 + type(self).made)

    def randbelow(self, n: int) -> int:
        return self._inner.randbelow(n)


def test_self_test_runs_on_fresh_production_sources_passes_and_is_logged(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("etg.table.selftest.SystemSource", _Counting)
    _Counting.made = 0
    app = _app(tmp_path)
    menu = _enter_menu(app)
    tap(app, "tab:self_test")
    tap(app, "selftest:run")
    assert _Counting.made == 2  # one fresh source for the RNG test, one for the shoes
    page = menu.pages[Page.SELF_TEST]
    assert isinstance(page, SelfTestPage)
    assert page.result is not None and page.result.passed
    entry = _log(app, "self_test")[-1]
    figures = entry["details"]
    assert entry["actor"] == "operator"
    assert figures["passed"] is True
    assert figures["rng"]["draws"] == 52_000
    assert figures["rng"]["degrees_of_freedom"] == 51
    assert figures["rng"]["critical"] == CHI_SQUARE_CRITICAL == 87.968
    assert figures["rng"]["chi_square"] <= 87.968
    assert figures["shoe"]["shoes"] == 20 and figures["shoe"]["decks"] == 6
    assert figures["shoe"]["problems"] == []
    assert len(figures["shoe"]["cuts"]) == 20
    assert all(188 <= cut <= 234 for cut in figures["shoe"]["cuts"])
    assert _menu_actions(app)[-1] == {"action": "self_test", "passed": True}
    assert _texts(app).count("PASS") >= 3  # both panels and the history row
    app.draw()
    assert not_blank(app.canvas)


class _Stuck:
    def randbelow(self, n: int) -> int:
        return 0


def test_a_broken_rng_fails_the_self_test(tmp_path: Path,
                                          monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("etg.table.selftest.SystemSource", _Stuck)
    app = _app(tmp_path)
    _enter_menu(app)
    tap(app, "tab:self_test")
    tap(app, "selftest:run")
    figures = _log(app, "self_test")[-1]["details"]
    assert figures["passed"] is False
    assert figures["rng"]["chi_square"] == 51 * 52_000
    assert "FAIL" in _texts(app)


def test_chi_square_critical_value_and_the_runs_test() -> None:
    assert chi_square_p_value(87.968, 51) == pytest.approx(0.001, abs=2e-6)
    assert chi_square_p_value(86.661, 50) == pytest.approx(0.001, abs=2e-6)

    class Cycle:  # perfectly uniform counts, but each draw follows from the last
        i = 0

        def randbelow(self, n: int) -> int:
            self.i += 1
            return (self.i * 27) % n

    result = rng_test(Cycle())
    assert result.chi_square == 0 and result.uniform
    assert not result.independent and not result.passed
    assert rng_test(SeededSource(3)).passed


def test_the_shoe_test_checks_every_card_and_the_cut_window(
        monkeypatch: pytest.MonkeyPatch) -> None:
    from etg.core.shoe import ShoeDraw

    rules = load_paytable(shipped_config_dir() / "paytables/maryland-community-5.yaml").paytable.shoe
    assert shoe_test(rules, SeededSource(4)).passed
    low, high = rules.cut_window()
    bad = ShoeDraw(tuple([0] * 2 + list(range(2, rules.cards))), high + 1)
    monkeypatch.setattr("etg.table.selftest.draw_shoe", lambda rules, source: bad)
    result = shoe_test(rules, SeededSource(4), shoes=1)
    assert not result.passed
    assert result.problems == (
        "shoe 1: the order is not a permutation of 312 cards",
        "shoe 1: 2 cards not held exactly 6 times",
        f"shoe 1: cut card at {high + 1}, outside {low}..{high}",
    )


def test_recall_shows_the_rounds_played_before(tmp_path: Path) -> None:
    app = _app(tmp_path)
    _play(app, 2)
    records = app.table.ledger.rounds()
    menu = _enter_menu(app)
    tap(app, "tab:recall")
    assert menu.view.title == "GAME RECALL  ·  ROUND 2"
    second = records[1]
    shown = [slot.card.code if slot.card else None for slot in menu.view.cards]
    spots = len(second["spot_cards"])
    assert shown[:spots + 1] == [second["dealer_card"], *second["spot_cards"]]
    assert shown[spots + 1:] == [second["dealer_war_card"], *second["war_cards"]]
    texts = _texts(app)
    before, after = second["credits_before"][0], second["credits_after"][0]
    assert f"${before // 100:,}.{before % 100:02d} → ${after // 100:,}.{after % 100:02d}" in texts
    assert "Paytable md-community-5" in " ".join(texts)
    app.draw()
    assert not_blank(app.canvas)
    assert not button(app, "recall:next").enabled
    tap(app, "recall:prev")
    assert menu.view.title == "GAME RECALL  ·  ROUND 1"
    assert _menu_actions(app)[-1] == {"action": "recall", "round": 1}
    assert not button(app, "recall:prev").enabled


def test_event_log_is_newest_first_and_pages(tmp_path: Path) -> None:
    app = _app(tmp_path)
    menu = _enter_menu(app)
    for seat in range(1, 7):
        for _ in range(4):
            app.send(CashIn(seat, 100), "attendant")
    tap(app, "tab:event_log")
    total = len(_log(app))
    size = menu.view.page_size
    assert total > size + 1
    assert menu.view.rows == size + 1  # a page and one row more are read, never the whole log
    texts = _texts(app)
    assert texts.index("operator_menu") < texts.index("cash_in")
    assert '{"action":"page","page":"event_log"}' in texts
    assert button(app, "page:down").enabled and not button(app, "page:up").enabled
    tap(app, "page:down")
    assert menu.offset == menu.view.page_size
    assert _menu_actions(app)[-1] == {"action": "page_turn", "page": "event_log",
                                      "offset": menu.view.page_size}
    while button(app, "page:down").enabled:  # to the oldest entry, one page at a time
        tap(app, "page:down")
    assert menu.view.rows == len(_log(app))  # on the last page, what was read is all there is
    assert "power_up" in _texts(app)  # the first entry of every ledger is on the last page


def test_paytable_switch_is_refused_with_credits_and_done_without(tmp_path: Path) -> None:
    config = config_copy(tmp_path)
    shutil.copy(ROOT / "tests/data/paytables/bad/float-money.yaml",
                config / "paytables" / "zz-broken.yaml")
    app = _app(tmp_path, config=config)
    menu = _enter_menu(app)
    tap(app, "tab:credits")
    tap(app, "cash:in:1:2000")
    tap(app, "tab:paytables")
    files = [entry.file for entry in menu.view.paytables]
    broken = files.index("zz-broken.yaml")
    assert menu.view.paytables[broken].error
    assert f"pt:switch:{broken}" not in {b.tag for b in menu.buttons(app.now)}
    three = files.index("maryland-community-3.yaml")
    reason = ("the paytable is switched only with no credits on the seats (seat 1 has "
              "$20.00)")
    assert menu.view.subtitle.endswith(f"SWITCH is off: {reason}.")
    assert not button(app, f"pt:switch:{three}").enabled  # off, with the engine's reason shown
    tap(app, f"pt:view:{three}")
    assert menu.view.title == "PAYTABLE  ·  md-community-3"
    assert menu.view.subtitle == f"SWITCH is off: {reason}"
    assert not button(app, f"pt:switch:{three}").enabled
    tap(app, f"pt:switch:{three}")  # a tap on it does nothing
    assert app.table.paytable.paytable.id == "md-community-5" and menu.confirm is None
    tap(app, "tab:credits")
    tap(app, "cash:out:1")
    tap(app, "tab:paytables")
    tap(app, f"pt:switch:{three}")
    tap(app, "confirm:yes")
    assert app.table.paytable.paytable.id == "md-community-3"
    assert load_cabinet(app.cabinet_file).active_paytable == "paytables/maryland-community-3.yaml"
    done = _menu_actions(app)[-1]
    assert (done["action"], done["paytable_id"], done["refused"]) == (
        "switch_paytable", "md-community-3", None)
    assert _log(app, "paytable_change")[-1]["details"]["new_id"] == "md-community-3"
    assert isinstance(app.top, OperatorMenu)
    assert menu.view.paytables[three].active


def test_exit_and_shut_down(tmp_path: Path) -> None:
    app = _app(tmp_path)
    menu = _enter_menu(app)
    type_keys(app, "1")  # the menu keeps keys from the dealer console under it
    _escape(app)
    assert menu not in app.stack
    assert _menu_actions(app)[-1] == {"action": "exit"}
    _enter_menu(app)
    tap(app, "shutdown")
    assert not app.quit_requested  # asks first
    tap(app, "confirm:yes")
    assert app.quit_requested
    assert _menu_actions(app)[-1] == {"action": "shutdown"}


# --- the SOUND page -----------------------------------------------------------------------------

def _channel_volumes() -> set[float]:
    from etg.ui.audio import CHANNELS

    return {pygame.mixer.Channel(i).get_volume() for i in range(CHANNELS)}


def test_the_sound_page_saves_volume_and_mute_and_applies_them_at_once(tmp_path: Path) -> None:
    from etg.config.cabinet import Sound
    from etg.ui.audio import Cue, samples

    app = _app(tmp_path)
    menu = _enter_menu(app)
    tap(app, "tab:sound")
    assert menu.page is Page.SOUND
    assert "70" in _texts(app)
    tap(app, "sound:up")
    assert load_cabinet(app.cabinet_file).sound == Sound(80, False, 20)
    assert (app.audio.volume, app.audio.muted) == (80, False)
    assert _channel_volumes() == {int(0.8 ** 2 * 128) / 128}  # what SDL keeps of 0.64
    assert _menu_actions(app)[-1] == {"action": "sound", "volume": 80, "mute": False,
                                      "refused": None}
    assert "80" in _texts(app)

    tap(app, "sound:mute")
    assert load_cabinet(app.cabinet_file).sound == Sound(80, True, 20)
    assert app.audio.muted and _channel_volumes() == {0.0}
    assert _menu_actions(app)[-1] == {"action": "sound", "volume": 80, "mute": True,
                                      "refused": None}
    assert not button(app, "sound:test:jackpot").enabled  # nothing to hear while muted
    assert button(app, "sound:mute").label == "UNMUTE"

    tap(app, "sound:mute")
    for _ in range(9):
        tap(app, "sound:down")
    assert load_cabinet(app.cabinet_file).sound == Sound(0, False, 20)
    assert not button(app, "sound:down").enabled and button(app, "sound:up").enabled
    for _ in range(10):
        tap(app, "sound:up")
    assert load_cabinet(app.cabinet_file).sound.volume == 100
    assert not button(app, "sound:up").enabled
    assert _channel_volumes() == {1.0}

    pygame.mixer.stop()
    tap(app, "sound:test:jackpot")
    jackpot = pygame.mixer.Channel(0).get_sound()
    assert jackpot is not None and jackpot.get_raw() == samples(Cue.JACKPOT).tobytes()
    assert _menu_actions(app)[-1] == {"action": "sound_test", "cue": "jackpot"}
    app.draw()
    assert not_blank(app.canvas)


def test_the_sound_page_adds_the_section_to_an_old_cabinet_file(tmp_path: Path) -> None:
    config = config_copy(tmp_path)
    cabinet = config / "cabinet.yaml"
    text = cabinet.read_text(encoding="utf-8")
    cabinet.write_text(text[:text.index("sound:")], encoding="utf-8")
    app = _app(tmp_path, config=config)
    _enter_menu(app)
    tap(app, "tab:sound")
    old = cabinet.read_text(encoding="utf-8")  # with the PIN hash
    tap(app, "sound:down")
    assert cabinet.read_text(encoding="utf-8") == old + "sound:\n  volume: 60\n"
    assert app.audio.volume == 60


def test_a_sound_change_that_cannot_be_saved_is_not_applied(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import etg.ui.operator.sound

    def disk_full(*args: object) -> None:
        raise OSError(28, "No space left on device")

    app = _app(tmp_path)
    _enter_menu(app)
    tap(app, "tab:sound")
    before = app.cabinet_file.read_bytes()
    monkeypatch.setattr(etg.ui.operator.sound, "set_cabinet_value", disk_full)
    tap(app, "sound:mute")
    assert app.cabinet_file.read_bytes() == before
    assert not app.audio.muted and app.audio.volume == 70
    assert _menu_actions(app)[-1] == {"action": "sound", "volume": 70, "mute": False,
                                      "refused": "[Errno 28] No space left on device"}
    assert app.toasts[-1].message == "[Errno 28] No space left on device"


def test_no_page_reads_the_whole_history(tmp_path: Path) -> None:
    # Issue 11: counts and totals come from the meters or bounded reads, never from a scan of
    # every entry, on any page, each time it is opened or the table changes under it.
    app = _app(tmp_path)
    menu = _enter_menu(app)
    for seat in range(1, 4):
        app.send(CashIn(seat, 1_000), "attendant")
    statements: list[str] = []
    app.table.ledger.conn.set_trace_callback(statements.append)
    try:
        for page in Page:
            tap(app, f"tab:{page.value}")
            assert menu.page is page
    finally:
        app.table.ledger.conn.set_trace_callback(None)
    reads = [s for s in statements if "FROM entries" in s]
    assert reads, "the pages read the ledger"
    unbounded = [s for s in reads if "LIMIT" not in s and "round = " not in s]
    assert unbounded == []


def test_the_countdowns_stand_still_while_the_operator_menu_is_open(tmp_path: Path) -> None:
    app = _app(tmp_path)
    app.send(CashIn(1, 10_000), "attendant")
    if app.table.state.shoe is None:
        app.table.shuffle(ShuffleReason.NEW_SHOE, "dealer")
    assert app.send(OpenBets(), "dealer") is None
    for _ in range(5 * 60):  # five seconds of betting (the clock's, not the drawing's)
        app.frame(1 / 60, draw=False)
    before = app.timekeeper.remaining(app.now)
    betting = app.table.state.paytable.timers.betting_s
    assert before is not None and betting - 5.1 < before < betting - 4.9
    _enter_menu(app)
    for _ in range(int(betting + 10) * 60):  # longer than the whole countdown
        app.frame(1 / 60, draw=False)
    assert app.table.state.phase is Phase.BETTING  # No More Bets was not sent meanwhile
    assert app.timekeeper.remaining(app.now) == pytest.approx(before, abs=0.05)
    while isinstance(app.top, OperatorMenu):
        _escape(app)
    app.frame(1 / 60)
    assert app.timekeeper.remaining(app.now) == pytest.approx(before - 1 / 60, abs=0.05)
