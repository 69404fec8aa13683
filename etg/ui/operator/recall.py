"""GAME RECALL: the last rounds, one at a time, as they were played (SPEC §5: "the last 10
rounds at least").

Everything on the page is read from the round's hand-ledger record: the cards
of the original deal and the War deal, the wagers as locked, and every
decision, result, award, void and tip from the round's events as the engine
emitted them. Nothing is settled again from the rules.
"""

from __future__ import annotations

from dataclasses import dataclass

from etg.core.cards import Card
from etg.core.events import (
    BonusSpinTriggered,
    DecisionMade,
    EnvyBonus,
    Event,
    HandPaid,
    PayoutHandMade,
    ProgressiveAwarded,
    ProgressiveContributed,
    RoundComplete,
    RoundVoided,
    SeatAbandoned,
    TipGiven,
    WagerSettled,
    WagerVoided,
    WheelStopped,
)
from etg.core.jackpot import validator_words
from etg.core.money import format_cents, format_gain
from etg.table.books import LEVEL_LABELS, RoundRecord, round_events
from etg.ui import theme
from etg.ui.assets import Style
from etg.ui.cards import card_size
from etg.ui.operator.meters import KIND_WORDS
from etg.ui.operator.page import Desk, OperatorPage
from etg.ui.operator.sheet import (
    BODY_W,
    BODY_X,
    BODY_Y,
    CONTENT,
    CardSlot,
    PageView,
    Sheet,
    Text,
    dollars,
    pager,
    rows_fit,
    when,
)
from etg.ui.theme import shade
from etg.ui.widgets import Button

RECALL_ROUNDS = 10
"""Rounds the recall page goes back (SPEC §5: "the last 10 rounds at least")."""


class RecallPage(OperatorPage):
    """One round of the last :data:`RECALL_ROUNDS`: its cards, its Bonus Spin, seat by seat."""

    def __init__(self) -> None:
        self.index = -1  # which of the rounds read: -1 the newest, -2 the one before...
        self.round: int | None = None  # the round shown

    def opened(self) -> None:
        self.index = -1

    def act(self, desk: Desk, tag: str) -> None:
        if tag in ("recall:prev", "recall:next"):
            self.index += -1 if tag == "recall:prev" else 1
            desk.offset = 0
            desk.reload()
            desk.log("recall", round=self.round)

    def read(self, desk: Desk) -> PageView:
        records = desk.ctx.table.books.rounds(last=RECALL_ROUNDS)
        sheet = Sheet()
        if not records:
            self.round = None
            sheet.text("No round has been played on this ledger yet.", BODY_X, BODY_Y + 20, 24,
                       theme.TEXT_DIM)
            return sheet.view("GAME RECALL", "The last 10 rounds, as they were played.")
        self.index = max(-len(records), min(-1, self.index))
        position = len(records) + self.index  # 0 = oldest shown
        record = records[position]
        self.round = record["round"]
        sheet.buttons += [
            Button((BODY_X + BODY_W - 470, CONTENT[1] + 20, 220, 64), "◀ OLDER", "recall:prev",
                   enabled=position > 0, size=22),
            Button((BODY_X + BODY_W - 230, CONTENT[1] + 20, 220, 64), "NEWER ▶", "recall:next",
                   enabled=position < len(records) - 1, size=22),
        ]
        events = round_events(record)
        _recall_header(sheet, record)
        cards_bottom = _recall_cards(sheet, record, events)
        lines = recall_lines(record, events)
        columns = [("SEAT", 70, "l"), ("SPOT", 70, "l"), ("WAGERS", 370, "l"),
                   ("DECISIONS AND RESULTS", BODY_W - 910, "l"), ("NET", 130, "r"),
                   ("CREDITS BEFORE → AFTER", 270, "r")]
        size = rows_fit(cards_bottom + 8, 32)
        shown = lines[desk.offset:desk.offset + size]
        end = sheet.table(columns, [line.cells for line in shown], BODY_X, cards_bottom + 8,
                          row_h=32, size=19)
        if not lines:
            sheet.text("No seat had a wager in this round.", BODY_X + 14, end + 8, 21,
                       theme.TEXT_DIM)
        pager(sheet, desk.offset, size, len(lines), end)
        return sheet.view(f"GAME RECALL  ·  ROUND {record['round']}",
                          f"Record {position + 1} of the last {len(records)}; "
                          f"everything below is read from the hand ledger.",
                          rows=len(lines), page_size=size)


@dataclass(frozen=True)
class RecallLine:
    """One line of the recall table: a seat's spot, its Bonus Spin, or its totals."""

    cells: tuple[Text, ...]


def recall_lines(record: RoundRecord, events: list[Event]) -> list[RecallLine]:
    """Per seat: one line per spot wagered on, one for the seat's own wagers and awards."""
    out: list[RecallLine] = []
    net = next((e.net for e in events if isinstance(e, RoundComplete)), None)
    refunds = next((e.refunds for e in events if isinstance(e, RoundVoided)), None)
    for seat in range(1, int(record["seats"]) + 1):
        before = record["credits_before"][seat - 1]
        after = record["credits_after"][seat - 1]
        rows: list[tuple[str, str, str]] = []
        for spot, wagers in enumerate(record["wagers"][seat - 1], start=1):
            placed = _placed(wagers)
            results = _results(events, seat, spot)
            if placed or results:
                rows.append((str(spot), placed, results))
        bonus = record["bonus_spin"][seat - 1]
        own = _results(events, seat, 0)
        if bonus or own:
            rows.append(("—", f"Bonus Spin {dollars(bonus)}" if bonus else "", own))
        if not rows and before == after:
            continue
        if net is not None:
            gain = net[seat - 1]
        elif refunds is not None:
            gain = 0
            rows.append(("—", "", f"Void: {format_cents(refunds[seat - 1])} returned"))
        else:
            gain = after - before
        colour = theme.WIN if gain > 0 else theme.LOSE if gain < 0 else theme.PUSH
        for index, (spot_text, placed, results) in enumerate(rows or [("—", "", "")]):
            first = index == 0
            out.append(RecallLine((
                (f"{seat}", theme.seat_colour(seat)) if first else "", spot_text, placed,
                results, (format_gain(gain), colour) if first else "",
                f"{format_cents(before)} → {format_cents(after)}" if first else "",
            )))
    return out


def _placed(wagers: dict[str, int]) -> str:
    parts = [f"{words} {dollars(wagers[name])}" for name, words in
             (("initial", "Initial"), ("tie", "Tie"), ("progressive_payout", "Prog. Payout"))
             if wagers.get(name)]
    return " · ".join(parts)


def _results(events: list[Event], seat: int, spot: int) -> str:
    parts: list[str] = []
    for event in events:
        match event:
            case DecisionMade(seat=s, spot=p, decision=decision, by_default=by_default,
                              war_tie=war_tie) if s == seat and p == spot:
                tie = f" + Tie {dollars(war_tie)}" if war_tie else ""
                how = " (time up)" if by_default else ""
                parts.append(f"{decision.value.capitalize()}{tie}{how}")
            case WagerSettled(seat=s, spot=p, payment=payment, paid=paid, capped=capped) \
                    if s == seat and p == spot and payment.kind.value != "progressive":
                # the award itself is told by its ProgressiveAwarded, with its meter
                parts.append(_settled(payment.kind.value, payment.result.value, paid, capped))
            case PayoutHandMade(seat=s, spot=p, hand=hand) if s == seat and p == spot:
                parts.append(hand.label)
            case EnvyBonus(seat=s, holder_seat=holder, hand=hand) if s == seat and spot == 0:
                parts.append(f"Envy: seat {holder} {hand.label}")
            case ProgressiveAwarded(seat=s, spot=p, level=level, amount=amount) \
                    if s == seat and p == spot:
                parts.append(f"{LEVEL_LABELS[level]} {format_cents(amount)}")
            case WagerVoided(seat=s, spot=p, amount=amount, reason=reason) \
                    if s == seat and p == spot:
                parts.append(f"Voided, {dollars(amount)} returned ({reason})")
            case SeatAbandoned(seat=s, spots=spots, rule=rule) if s == seat and spot in spots:
                parts.append(f"Abandoned ({rule.value.replace('_', ' ')})")
            case HandPaid(seat=s, spot=p, amount=amount) if s == seat and p == spot:
                parts.append(f"Hand pay {format_cents(amount)}")
            case TipGiven(seat=s, dealer_id=dealer, amount=amount) if s == seat and spot == 0:
                parts.append(f"Tip {dollars(amount)} to {dealer}")
            case _:
                pass
    return " · ".join(parts)


def _settled(kind: str, result: str, paid: int, capped: int) -> str:
    """One wager's result as the engine recorded it, e.g. "Initial won, paid $10"."""
    words = KIND_WORDS.get(kind, kind)
    paid_text = f", paid {dollars(paid)}" if paid else ""
    cap = f" (capped {dollars(capped)})" if capped else ""
    return f"{words} {result}{paid_text}{cap}"


def _recall_header(sheet: Sheet, record: RoundRecord) -> None:
    x, y = BODY_X, BODY_Y - 4
    voided = record["outcome"] == "voided"
    badge = "VOIDED" if voided else "COMPLETE"
    colour = theme.TILT if voided else (40, 130, 80)
    sheet.box((x, y, 170, 40), colour, shade(colour, 1.4), 10, 2)
    sheet.text(badge, x + 85, y + 20, 20, theme.WHITE, "center", Style.BOLD)
    paytable = record["paytable"]
    shoe = record["shoe"]
    reason = f"  ·  reason: {record.get('void_reason')}" if voided else ""
    dealer = f"  ·  dealer {record['dealer']}" if record.get("dealer") else ""
    sheet.text(f"Paytable {paytable['id']}  ·  sha256 {str(paytable['sha256'])[:16]}…"
               f"  ·  shoe {shoe['shuffle_number']}, cut card at {shoe['cut_index']}{dealer}"
               f"{reason}",
               x + 190, y + 2, 20, theme.CREAM, max_width=BODY_W - 200)
    sheet.text(f"Started {when(record['started_at'])}   ·   ended {when(record['ended_at'])}",
               x + 190, y + 26, 18, theme.TEXT_DIM)


def _recall_cards(sheet: Sheet, record: RoundRecord, events: list[Event]) -> int:
    """Dealer and spot cards, original deal above the War deal; returns the bottom edge."""
    width = 80
    _, height = card_size(width)
    spots = len(record["spot_cards"])
    column = 122
    x0 = BODY_X + 150
    top = BODY_Y + 62
    rows = (("ORIGINAL", record["dealer_card"], record["spot_cards"]),
            ("WAR DEAL", record["dealer_war_card"], record["war_cards"]))
    panel_w = 150 + column * (spots + 1) + 10
    sheet.box((BODY_X, top - 8, panel_w, 2 * height + 74), theme.FELT_DARK,
              theme.FELT_LIGHT, 16, 2)
    for index, title in enumerate(["DEALER"] + [f"SPOT {n}" for n in range(1, spots + 1)]):
        sheet.text(title, x0 + index * column + width / 2, top, 17,
                   theme.GOLD if index == 0 else theme.CREAM, "midtop", Style.BOLD)
    for row, (label, dealer, spot_cards) in enumerate(rows):
        y = top + 28 + row * (height + 12)
        sheet.text(label, BODY_X + 18, y + height / 2, 17, theme.TEXT_DIM, "midleft",
                   Style.BOLD)
        for index, code in enumerate([dealer, *spot_cards]):
            card = Card.parse(code) if code else None
            sheet.cards.append(CardSlot(card, (x0 + index * column, y), width))
    _recall_wheel(sheet, events, BODY_X + panel_w + 20, top - 8,
                  BODY_W - panel_w - 20, 2 * height + 74)
    return top - 8 + 2 * height + 74 + 14


def _recall_wheel(sheet: Sheet, events: list[Event], x: float, y: float, width: float,
                  height: float) -> None:
    """The round's totals and its Bonus Spin, beside the cards."""
    sheet.box((x, y, width, height), theme.PANEL_LIGHT, theme.PANEL_EDGE, 16, 1)
    settled = [e for e in events if isinstance(e, WagerSettled)]
    staked = sum(e.payment.stake for e in settled)
    paid = sum(e.paid for e in settled)
    contributed = sum(e.to_meter + e.to_reserve for e in events
                      if isinstance(e, ProgressiveContributed))
    hand_paid = [e for e in events if isinstance(e, HandPaid)]
    sections: list[tuple[str, list[tuple[str, str]]]] = [
        ("ROUND", [("Wagered / paid", f"{format_cents(staked)} / {format_cents(paid)}"),
                   ("To the meters", format_cents(contributed)),
                   *([("Hand paid", f"{format_cents(sum(e.amount for e in hand_paid))}  ·  "
                                    f"validated by {_validator(hand_paid[0])}")]
                     if hand_paid else [])]),
    ]
    trigger = next((e for e in events if isinstance(e, BonusSpinTriggered)), None)
    stopped = next((e for e in events if isinstance(e, WheelStopped)), None)
    bonus: list[tuple[str, str]] = []
    if trigger is None:
        bonus.append(("Trigger", "not triggered"))
    else:
        seats = ", ".join(str(s) for s in sorted(trigger.seats)) or "none"
        bonus.append(("Trigger", f"{trigger.card}  ·  seats {seats}"))
    if stopped is not None:
        bonus += [("Community", f"stop {stopped.stops.community}  ·  {stopped.community_symbol}"),
                  ("Hot Spot", f"seat {stopped.stops.seat}  ·  stop {stopped.stops.hot_spot}"
                               f"  ·  {stopped.hot_spot_symbol}")]
    sections.append(("BONUS SPIN", bonus))
    row_y = y + 14
    for title, rows in sections:
        sheet.text(title, x + 20, row_y, 18, theme.GOLD, style=Style.BOLD)
        row_y += 32
        for label, value in rows:
            sheet.label_value(label, value, x + 20, row_y, width - 40, size=18)
            row_y += 29
        row_y += 12


def _validator(pay: HandPaid) -> str:
    return validator_words(pay.validator, pay.role)
