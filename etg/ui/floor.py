"""The floor's procedures on the kiosk: jackpot validation, dealer sign-in, dealers' PINs, tips.

Each action ends in a command sent through the Context (the engine decides) or in
``cabinet.yaml`` (a dealer's PIN, like every PIN: a salted hash). PINs are
asked for with the PIN pad (:mod:`etg.ui.pinpad`):

- **Validate** (MD Ch. 9 J(4)(c)): the PIN of a floorperson or above; the
  validation is sent in the name and role of whose PIN it was.
- **Sign in** (MD Ch. 8 E(4)): the dealer's badge number, then the dealer's
  own PIN; the engine refuses a change of dealer during a round.
- **Dealers' PINs**: added, changed and removed on the operator menu's
  DEALERS page, behind the operator's PIN; each change is recorded as a PIN
  change in the operator's name (a fingerprint of the hash, never the PIN).

The jackpot panel keeps the progressive light lit and the awards held on the
table screen until the validation; the operator pages read their rows here.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

import pygame

from etg.config.cabinet_edit import CabinetKeyError, set_cabinet_value
from etg.config.loader import load_cabinet
from etg.config.problems import ConfigError
from etg.core.commands import SignInDealer
from etg.core.floor import dealer_id_problem
from etg.core.money import format_cents
from etg.core.state import TableState
from etg.table.books import DEALER_ROUNDS, DEALER_TIPS, Entry, dealer_meter
from etg.table.pin import (
    JACKPOT_VALIDATORS,
    Credential,
    dealer_key,
    hash_pin,
    jackpot_validation,
    pin_fingerprint,
    pin_problem,
)
from etg.table.records import OPERATOR, PinChanged
from etg.ui import theme
from etg.ui.assets import Style
from etg.ui.scene import AskNumber, AskPin
from etg.ui.widgets import draw_panel, draw_text

if TYPE_CHECKING:
    from etg.ui.scene import Context

AWARD_WORDS: dict[str, str] = {
    "initial": "INITIAL WAGER", "tie": "TIE WAGER", "war": "WAR WAGER",
    "war_tie": "WAR TIE WAGER", "progressive_payout": "PROGRESSIVE PAYOUT",
    "bonus_spin": "BONUS SPIN", "progressive": "PROGRESSIVE METER", "envy_bonus": "ENVY BONUS",
}
"""A held award, by its wager kind's value, as the jackpot panel and the JACKPOTS page
name it."""

JACKPOT_PANEL = (706.0, 72.0, 634.0, 220.0)
"""Where the jackpot panel lies on the table screen: over the shoe and the history, so the
hand, the meters and the wheel stay in sight (MD Ch. 9 J(4)(a)-(b)), and ending above the
odds printed over the spots (issue 24: it covered them)."""

_ROW_1, _ROW_STEP = 74.0, 30.0  # the awards' rows, from the panel's top
_AWARDS_SHOWN = 3


# --- jackpot validation (MD Ch. 9 J(4)(c)) ---------------------------------------------------

def validate_jackpot(ctx: Context) -> None:
    """Ask for the PIN of a floorperson or above, then validate the jackpot in their name."""
    if ctx.table.state.jackpot is None:
        ctx.notify("There is no jackpot to validate")
        return
    ctx.go(AskPin(Credential.of(*JACKPOT_VALIDATORS), "FLOORPERSON PIN  ·  VALIDATE",
                  lambda who: _validated(ctx, who)))


def _validated(ctx: Context, who: str) -> None:
    lock = ctx.table.state.jackpot
    if ctx.send(jackpot_validation(who), who) is None and lock is not None:
        hand = lock.hand_pay_amount
        words = f"  ·  ATTENDANT PAYS {format_cents(hand)}" if hand else ""
        ctx.notify(f"JACKPOT VALIDATED BY {who.upper()}{words}", error=False)


def draw_jackpot_lock(surface: pygame.Surface, state: TableState,
                      now: float) -> list[pygame.Rect]:
    """The progressive light and the awards held, while a jackpot waits for its validation;
    returns the boxes of the panel and of each thing drawn in it (none without a lock)."""
    lock = state.jackpot
    if lock is None:
        return []
    x, y, w, h = JACKPOT_PANEL
    lit = math.sin(now * 2 * math.pi * 1.5) > -0.3  # the light blinks, mostly on
    edge = theme.GOLD if lit else theme.GOLD_DARK
    draw_panel(surface, (x, y, w, h), (30, 8, 12), edge, radius=16, width=4)
    lamp = (round(x + 34), round(y + 32))
    pygame.draw.circle(surface, theme.WIN if lit else theme.GOLD_DARK, lamp, 16)
    pygame.draw.circle(surface, theme.WHITE, lamp, 16, width=2)
    boxes = [pygame.Rect(x, y, w, h), pygame.Rect(lamp[0] - 16, lamp[1] - 16, 33, 33)]
    boxes.append(draw_text(surface, "JACKPOT", 34, theme.GOLD, (x + 62, y + 32), "midleft",
                           shadow=True))
    boxes.append(draw_text(surface, f"ROUND {lock.round_number}", theme.PLAYER_TEXT,
                           theme.CREAM, (x + w - 16, y + 32), "midright"))
    row = y + _ROW_1
    for award in lock.awards[:_AWARDS_SHOWN]:
        # right to left, each part ending short of the one after it, so a long name or a
        # large amount is fitted rather than drawn over its neighbour
        pay = "HAND PAY" if award.hand_pay else "TO CREDITS"
        pay_box = draw_text(surface, pay, theme.PLAYER_TEXT,
                            theme.WAR if award.hand_pay else theme.CREAM, (x + w - 16, row),
                            "midright", Style.CONDENSED)
        amount = draw_text(surface, format_cents(award.win), 24, theme.WIN,
                           (pay_box.left - 14, row), "midright")
        name = draw_text(surface, f"SEAT {award.seat}  {AWARD_WORDS[award.payment.kind.value]}",
                         theme.PLAYER_TEXT, theme.WHITE, (x + 16, row), "midleft",
                         Style.CONDENSED, max_width=round(amount.left - 14 - (x + 16)))
        boxes += [name, amount, pay_box]
        row += _ROW_STEP
    if len(lock.awards) > _AWARDS_SHOWN:
        boxes.append(draw_text(surface, f"and {len(lock.awards) - _AWARDS_SHOWN} more",
                               theme.PLAYER_TEXT, theme.CREAM, (x + 16, row), "midleft"))
    boxes.append(draw_text(surface, "AWAITING FLOORPERSON VALIDATION", theme.PLAYER_TEXT,
                           theme.WAR, (x + w / 2, y + h - 20), max_width=round(w) - 24))
    return boxes


# --- the dealer (MD Ch. 8 E(4)) --------------------------------------------------------------

def sign_in_dealer(ctx: Context) -> None:
    """The dealer's badge number, then the dealer's PIN, then the sign-in."""
    ctx.go(AskNumber("DEALER SIGN IN  ·  BADGE NUMBER", lambda dealer_id: _dealer_pin(
        ctx, dealer_id), prefix="D", problem=lambda dealer_id: _sign_in_problem(ctx, dealer_id),
        hint="Type your badge number, then ENTER"))


def _sign_in_problem(ctx: Context, dealer_id: str) -> str | None:
    refusal = ctx.table.refusal(SignInDealer(dealer_id))
    if refusal is not None:
        return refusal
    try:
        dealers = load_cabinet(ctx.cabinet_file).dealers
    except ConfigError as error:
        return f"cabinet.yaml cannot be read: {error.problems[0].message}"
    if dealers.get(dealer_id) is None:
        return f"No dealer {dealer_id} on this table: see the operator menu's DEALERS page"
    return None


def _dealer_pin(ctx: Context, dealer_id: str) -> None:
    ctx.go(AskPin(Credential.dealer(dealer_id), f"DEALER {dealer_id}  ·  PIN",
                  lambda who: _signed_in(ctx, dealer_id, who)))


def _signed_in(ctx: Context, dealer_id: str, who: str) -> None:
    if ctx.send(SignInDealer(dealer_id), who) is None:
        ctx.notify(f"DEALER {dealer_id} AT THE TABLE  ·  THE FIRST CARD IS BURNED", error=False)


def add_dealer(ctx: Context, done: Callable[[str, str | None], None]) -> None:
    """Badge number, a new PIN twice, then the hash in ``cabinet.yaml``; ``done(id, refusal)``.

    An existing dealer's PIN is replaced the same way.
    """
    ctx.go(AskNumber("DEALER  ·  BADGE NUMBER", lambda dealer_id: _new_pin(
        ctx, dealer_id, done), prefix="D", problem=dealer_id_problem,
        hint="A new dealer, or a dealer whose PIN changes"))


def _new_pin(ctx: Context, dealer_id: str, done: Callable[[str, str | None], None]) -> None:
    def repeat(first: str) -> None:
        ctx.go(AskNumber(f"DEALER {dealer_id}  ·  REPEAT THE PIN",
                         lambda second: _store_pin(ctx, dealer_id, first, second, done),
                         masked=True))

    ctx.go(AskNumber(f"DEALER {dealer_id}  ·  NEW PIN", repeat, masked=True,
                     problem=pin_problem, hint="4 to 8 digits"))


def _store_pin(ctx: Context, dealer_id: str, first: str, second: str,
               done: Callable[[str, str | None], None]) -> None:
    if first != second:
        done(dealer_id, "the two entries differ; nothing was changed")
        return
    done(dealer_id, _set_dealer(ctx, dealer_id, hash_pin(first)))


def remove_dealer(ctx: Context, dealer_id: str) -> str | None:
    """Take the dealer's PIN away (the ID stays, null); None if done, else why not."""
    return _set_dealer(ctx, dealer_id, None)


def _set_dealer(ctx: Context, dealer_id: str, stored: str | None) -> str | None:
    """The dealer's new hash (None: taken away) in ``cabinet.yaml``, then on record.

    No dealer's PIN is asked for: the operator menu opened with the operator's
    PIN, a role above the dealer's (:data:`etg.table.pin.CHANGED_BY`), and the
    change is recorded in the operator's name as ``etg pin set`` records its own.
    """
    try:
        set_cabinet_value(ctx.cabinet_file, dealer_key(dealer_id), stored)
        ctx.cabinet = load_cabinet(ctx.cabinet_file)
    except (ConfigError, CabinetKeyError, ValueError, OSError) as error:
        return str(error)
    ctx.table.record(PinChanged(f"dealer {dealer_id}", OPERATOR, "operator menu",
                                pin_fingerprint(stored)))
    return None


# --- what the operator pages show ------------------------------------------------------------

@dataclass(frozen=True)
class DealerRow:
    """One dealer of ``cabinet.yaml`` with the dealer's meters (every paytable)."""

    dealer_id: str
    has_pin: bool
    at_table: bool
    rounds: int
    tips: int


def dealer_rows(ctx: Context) -> list[DealerRow]:
    """Every dealer the cabinet knows, and any who dealt here since, by ID."""
    totals: Counter[tuple[str, str]] = Counter()
    for counter in ctx.table.books.meters().values():
        for (_seat, name), value in counter.items():
            dealer = dealer_meter(name)
            if dealer is not None:
                totals[dealer] += value
    dealers = dict(ctx.cabinet.dealers)
    for dealer_id, _ in totals:
        dealers.setdefault(dealer_id, None)
    at_table = ctx.table.state.dealer
    return [DealerRow(d, dealers[d] is not None, d == at_table, totals[d, DEALER_ROUNDS],
                      totals[d, DEALER_TIPS]) for d in sorted(dealers)]


def recent(ctx: Context, kind: str, limit: int) -> list[Entry]:
    """The newest ``limit`` event-log entries of ``kind``, newest first."""
    return ctx.table.books.last_events((kind,), limit)[::-1]
