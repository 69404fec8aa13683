"""What the table screen is showing now, and the animations that carry it there.

The controller has already committed everything it tells the screen. The
presenter takes each committed step (the state after it and its events) in
turn and plays it out: cards fly from the shoe and turn over, chips slide to
the spots and back to the seats, the wheel spins to the stops already drawn,
a progressive hit is celebrated. The next step waits until the gating
animations of this one have finished, so a fast dealer never makes the
screen skip. Animation never decides anything: every amount shown comes from
the state or the events, and after a restart (no animations at all) the
screen shows the committed state as it is.

Each animation brings its sound (SPEC §6): a card's flight DEAL and its turn
FLIP, a chip flight CHIP (one in :data:`CHIP_SOUND_GAP_S` at most, so a burst
of chips is one rattle), a progressive's celebration JACKPOT. A step that pays
winnings adds one WIN (a step with a JACKPOT has no other win sound); the
big-win sequence at the round's end brings BIG_WIN. Each sound is played by
:meth:`Presenter.update` when the clock reaches its animation's start, never
by drawing.

What each seat is paid back (stake and winnings) is kept per spot as
:class:`Paid` and counts up on the seat from the moment its chips land
(:mod:`etg.ui.count_up`); a seat whose round wins at least ``big_win_multiple``
times its stake gets a :class:`BigWin` sequence; a progressive hit a
:class:`Celebration` whose meter amount counts up; and the end of a round is
held for :data:`RECAP_S` so its recap can be read before the next step shows.

Everything is a pure function of ``now``: the same time always gives the
same picture.
"""

from __future__ import annotations

import heapq
import math
from collections import deque
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TypeVar

from etg.core.commands import BetKind
from etg.core.events import (
    BetsClosed,
    BonusSpinTriggered,
    CardDealt,
    DecisionMade,
    EnvyBonus,
    Event,
    PayoutHandMade,
    ProgressiveAwarded,
    RoundComplete,
    RoundVoided,
    ShoeShuffled,
    Target,
    WagerPlaced,
    WagerSettled,
    WheelStopped,
)
from etg.core.paytable import Decision, ProgressiveLevel
from etg.core.state import TableState
from etg.ui.animations import (
    BIG_WIN_S,
    CARD_FLIGHT_S,
    SPIN_LEAD_S,
    Animation,
    Banner,
    BigWin,
    CardFlight,
    CardKey,
    Celebration,
    ChipFlight,
    Paid,
    WheelSpin,
)
from etg.ui.audio import Audio, Cue, CuePlayer
from etg.ui.count_up import count_seconds
from etg.ui.layout import TableLayout

DEAL_STAGGER_S = 0.2
SETTLE_STAGGER_S = 0.06
WHEEL_HOLD_S = 1.2  # the stopped wheel stays on screen before the payouts
CELEBRATION_GATE_S = 4.0
RECAP_S = 3.0  # the end of a round stays this long before the next step is shown
CHIP_SOUND_GAP_S = 0.04  # chip sounds closer together than this are one sound
BIG_WIN_MULTIPLE = 20  # the shipped cabinet.yaml's sound.big_win_multiple

LEVEL_TITLES = {ProgressiveLevel.PRIMARY: "JACKPOT!", ProgressiveLevel.SECONDARY: "MINI JACKPOT!",
                 ProgressiveLevel.PROGRESSIVE_PAYOUT: "PROGRESSIVE PAYOUT!"}


_Sounded = TypeVar("_Sounded", CardFlight, ChipFlight, Celebration, BigWin)  # with a sound


@dataclass
class Presenter:
    """The screen's view of the table: the state being shown and what is moving."""

    layout: TableLayout
    shown: TableState
    credits: tuple[int, ...] = ()
    wheel_seconds: float = 6.5  # how long the wheel takes to stop (from the wheel view)
    animations: list[Animation] = field(default_factory=list)
    audio: CuePlayer = field(default_factory=Audio.silent)
    big_win_multiple: int = BIG_WIN_MULTIPLE
    _queue: deque[tuple[TableState, Sequence[Event]]] = field(default_factory=deque)
    _gate: float = 0.0  # the current step's gating animations end then
    _pending_credits: tuple[int, ...] | None = None
    _cues: list[tuple[float, int, Cue]] = field(default_factory=list)  # a heap: (at, order, cue)
    _cued: int = 0
    _last_chip: float = -math.inf
    paid: dict[int, list[Paid]] = field(default_factory=dict)
    """The shown round's payments, seat by seat (a restart finds them landed long ago)."""
    _jackpot_seats: set[int] = field(default_factory=set)  # celebrated this round already

    def __post_init__(self) -> None:
        if not self.credits:
            self.credits = self.shown.credits
        for event in self.shown.round.results:
            self._note_paid(event, -math.inf)

    def push(self, state: TableState, events: Sequence[Event]) -> None:
        """A committed step, to be shown after the ones before it."""
        self._queue.append((state, events))

    def update(self, now: float) -> None:
        """Finish the step whose animations are over; start the next one."""
        while now >= self._gate:
            if self._pending_credits is not None:
                self.credits, self._pending_credits = self._pending_credits, None
            if not self._queue:
                break
            state, events = self._queue.popleft()
            if state.round.number != self.shown.round.number:
                self.paid = {}  # a new round: last round's payments leave the seats
                self._jackpot_seats = set()
            self.shown = state
            self._gate = self._start(state, events, now)
            self._pending_credits = state.credits
        self.animations = [a for a in self.animations if a.end > now]
        self._sound(now)

    def busy(self, now: float) -> bool:
        """Anything still to show: a queued step or a moving animation."""
        return bool(self._queue) or now < self._gate or any(a.end > now for a in self.animations)

    def hidden_cards(self, now: float) -> set[CardKey]:
        """Cards in the shown state that have not landed yet (their flight draws them)."""
        return {a.key for a in self.animations if isinstance(a, CardFlight) and a.end > now}

    def active(self, now: float) -> list[Animation]:
        """Animations on screen at ``now``, in the order they started."""
        return [a for a in self.animations if a.start <= now < a.end]

    def landing(self, now: float) -> dict[tuple[int, int, BetKind], int]:
        """Cents still flying to each (seat, spot, kind) circle: not on its stack yet."""
        flying: dict[tuple[int, int, BetKind], int] = {}
        for a in self.animations:
            if isinstance(a, ChipFlight) and a.lands_on is not None and now < a.end:
                key = (a.seat, *a.lands_on)
                flying[key] = flying.get(key, 0) + a.amount
        return flying

    def spin(self) -> WheelSpin | None:
        return next((a for a in self.animations if isinstance(a, WheelSpin)), None)

    # --- from events to animations ------------------------------------------------------------

    def _start(self, state: TableState, events: Sequence[Event], now: float) -> float:
        """Schedule the step's animations and sounds; returns when its gating ones end."""
        gate = now
        deal_at = now
        settle_at = now
        settled: list[tuple[WagerSettled, float]] = []  # each wager and when its chips fly
        jackpot = False
        for event in events:
            if isinstance(event, CardDealt):
                flight = self._add(self._card(event, deal_at))
                deal_at += DEAL_STAGGER_S
                gate = max(gate, flight.end)
                settle_at = max(settle_at, flight.end)
            elif isinstance(event, WagerPlaced):
                self._add(self._wager(event, now))
            elif isinstance(event, DecisionMade) and event.decision is Decision.WAR:
                self._add(ChipFlight(event.war_tie + state.round.wagers[
                    event.seat - 1][event.spot - 1].war, now, self._rail(event.seat),
                    self._circle(event.seat, event.spot, BetKind.INITIAL), event.seat))
            elif isinstance(event, WheelStopped):
                start = now + SPIN_LEAD_S
                spin = WheelSpin(event.stops.community, event.stops.seat, event.stops.hot_spot,
                                 start, start + self.wheel_seconds)
                self.animations.append(spin)
                settle_at = max(settle_at, spin.end + WHEEL_HOLD_S)
                gate = max(gate, settle_at)
            elif isinstance(event, ProgressiveAwarded):
                where = "BONUS SPIN" if event.spot == 0 else f"SPOT {event.spot}"
                self._add(Celebration(LEVEL_TITLES[event.level], event.amount,
                                      f"SEAT {event.seat}  ·  {where}", settle_at))
                self._jackpot_seats.add(event.seat)
                jackpot = True
                settle_at += CELEBRATION_GATE_S
                gate = max(gate, settle_at)
            elif isinstance(event, WagerSettled):
                chips = self._settled(event, settle_at)
                if chips is not None:
                    settle_at += SETTLE_STAGGER_S
                    self._add(chips)
                    settled.append((event, chips.start))
                    paid = self._note_paid(event, chips.end)
                    gate = max(gate, chips.end + (count_seconds(paid.cents) if paid else 0))
            elif isinstance(event, RoundComplete):
                gate = self._round_end(state, max(gate, settle_at), gate)
            else:
                banner = _banner(event, now)
                if banner is not None:
                    self.animations.append(banner)
                    gate = max(gate, banner.end)
        win = None if jackpot else _win_cue(settled)
        if win is not None:
            self._cue(*win)
        timed_out = _timed_out_banner(events, now)
        if timed_out is not None:
            self.animations.append(timed_out)
            gate = max(gate, timed_out.end)
        return gate

    def _note_paid(self, event: WagerSettled, lands: float) -> Paid | None:
        """Keep what ``event`` paid back to its seat, counting up from ``lands``."""
        if event.paid <= 0:
            return None
        paid = Paid(event.spot, event.payment.kind.value == "envy_bonus", event.paid, lands)
        self.paid.setdefault(event.seat, []).append(paid)
        return paid

    def _round_end(self, state: TableState, paid_by: float, gate: float) -> float:
        """The round is complete once every payment has landed: the seats whose winnings reach
        the big-win multiple of their stakes get the big-win sequence (a seat whose progressive
        hit was celebrated already has had its moment), then the recap stays :data:`RECAP_S`.
        Returns the step's new gate."""
        r = state.round
        start = max(paid_by, gate)
        big = [seat for seat in state.settlement_seats
               if seat not in self._jackpot_seats and r.staked[seat - 1]
               and r.returned[seat - 1] - r.staked[seat - 1]
               >= self.big_win_multiple * r.staked[seat - 1]]
        if big:
            self._add(BigWin(tuple(big), max(r.returned[seat - 1] for seat in big), start))
            start += BIG_WIN_S
        return start + RECAP_S

    def _add(self, animation: _Sounded) -> _Sounded:
        """Show ``animation`` and schedule its sounds; returns it."""
        self.animations.append(animation)
        if isinstance(animation, CardFlight):
            self._cue(animation.start, Cue.DEAL)
            self._cue(animation.start + CARD_FLIGHT_S, Cue.FLIP)
        elif isinstance(animation, ChipFlight):
            self._cue(animation.start, Cue.CHIP)
        elif isinstance(animation, BigWin):
            self._cue(animation.start, Cue.BIG_WIN)
        else:
            self._cue(animation.start, Cue.JACKPOT)
        return animation

    def _cue(self, at: float, cue: Cue) -> None:
        self._cued += 1
        heapq.heappush(self._cues, (at, self._cued, cue))

    def _sound(self, now: float) -> None:
        """Play the sounds whose animations have started by ``now``, in order."""
        while self._cues and self._cues[0][0] <= now:
            at, _, cue = heapq.heappop(self._cues)
            if cue is Cue.CHIP:
                if at - self._last_chip < CHIP_SOUND_GAP_S:
                    continue
                self._last_chip = at
            self.audio.play(cue)

    def _card(self, event: CardDealt, start: float) -> CardFlight:
        layout = self.layout
        if event.target is Target.DEALER:
            dest = layout.dealer_war_card if event.war else layout.dealer_card
            key: CardKey = ("dealer", 0, event.war)
        else:
            dest = (layout.spot_war_card(event.spot) if event.war
                    else layout.spot_card(event.spot))
            key = ("spot", event.spot, event.war)
        return CardFlight(key, event.card.code, start, layout.shoe_mouth, dest)

    def _wager(self, event: WagerPlaced, now: float) -> ChipFlight:
        """A placed wager's chips, from the seat's rail to the circle they now stand on."""
        return ChipFlight(event.amount, now, self._rail(event.seat),
                          self._circle(event.seat, event.spot, event.kind, event.amount),
                          event.seat, (event.spot, event.kind))

    def _settled(self, event: WagerSettled, start: float) -> ChipFlight | None:
        origin = self._wheel() if event.spot == 0 else self._spot(event.spot)
        if event.paid > 0:
            return ChipFlight(event.paid, start, origin,
                              _centre(self.layout.seat(event.seat).header), event.seat)
        if event.payment.stake > 0:
            return ChipFlight(event.payment.stake, start, origin, self.layout.dealer_tray,
                              event.seat)
        return None

    def _rail(self, seat: int) -> tuple[float, float]:
        return _centre(self.layout.seat(seat).rail)

    def _circle(self, seat: int, spot: int, kind: BetKind, amount: int = 0) -> tuple[float, float]:
        """The centre of the seat's circle for a wager of ``kind`` on ``spot``."""
        layout = self.layout.seat(seat)
        if kind is BetKind.BONUS_SPIN:
            rect = next((r for value, r in layout.bonus if value == amount), layout.bonus_area)
            return _centre(rect if rect is not None else layout.rail)
        area = layout.area(spot)
        if area is None:
            return _centre(layout.felt)
        if kind is BetKind.TIE:
            return _centre(area.tie)
        if kind is BetKind.PROGRESSIVE_PAYOUT and area.payout is not None:
            return _centre(area.payout)
        return _centre(area.initial)

    def _spot(self, spot: int) -> tuple[float, float]:
        return _centre(self.layout.spot_badge(spot))

    def _wheel(self) -> tuple[float, float]:
        x, y = self.layout.wheel_centre
        return float(x), float(y)


def _win_cue(settled: list[tuple[WagerSettled, float]]) -> tuple[float, Cue] | None:
    """A step's win sound and when it plays: WIN at the first payment of winnings (paid
    beyond the stake returned, after any cap); None if no seat won. The fanfare of a big
    win plays with its sequence at the round's end (:class:`BigWin`)."""
    starts = [at for event, at in settled if event.paid > event.payment.returned]
    return (min(starts), Cue.WIN) if starts else None


def _banner(event: Event, now: float) -> Banner | None:
    if isinstance(event, ShoeShuffled):
        return Banner(f"SHUFFLE  ·  SHOE {event.shuffle_number}", now, 1.4)
    if isinstance(event, BetsClosed):
        return Banner("NO MORE BETS", now, 1.0)
    if isinstance(event, BonusSpinTriggered):
        return Banner("BONUS SPIN!", now, 2.0)
    if isinstance(event, PayoutHandMade):
        return Banner(f"{event.hand.label.upper()}!  SEAT {event.seat}  ·  SPOT {event.spot}",
                      now, 1.6)
    if isinstance(event, EnvyBonus):
        return Banner(f"ENVY BONUS  ·  SEAT {event.seat}", now, 1.2)
    if isinstance(event, RoundVoided):
        return Banner("ROUND VOID  ·  ALL WAGERS RETURNED", now, 2.0, "void")
    return None


def _timed_out_banner(events: Sequence[Event], now: float) -> Banner | None:
    """Decisions the clock made (MD Ch. 9 E: the default decision), said out loud, never silent."""
    by_decision: dict[Decision, list[int]] = {}
    for event in events:
        if isinstance(event, DecisionMade) and event.by_default:
            seats = by_decision.setdefault(event.decision, [])
            if event.seat not in seats:
                seats.append(event.seat)
    if not by_decision:
        return None
    parts = []
    for decision, seats in by_decision.items():
        who = f"SEAT {seats[0]}" if len(seats) == 1 else "SEATS " + ", ".join(map(str, seats))
        parts.append(f"{who} {'SURRENDERED' if decision is Decision.SURRENDER else 'WENT TO WAR'}")
    return Banner(f"TIME'S UP  ·  {'  ·  '.join(parts)}", now, 2.4, "war")


def _centre(rect: tuple[float, float, float, float]) -> tuple[float, float]:
    x, y, w, h = rect
    return x + w / 2, y + h / 2
