"""The attract mode: what the cabinet shows while nobody plays (SPEC §6).

A casino floor's idle screen has one job, to bring players to the table: the
game's name in lights, cards turning over, the progressive jackpots growing
live, what the game pays and the table limits. Every word and amount is read
from the active paytable and the table's meters, like the help pages (the pay
lines come from :func:`etg.ui.help.words.highlights`), so the attract mode can never
advertise a pay the table does not make.

Every frame is a pure function of ``now`` (and of the meters): the same time
draws the same picture, whatever frames came before. The backdrop, the titles
and the card sprites are rendered once per paytable; a frame blits them, turns
at most a few small cards and renders the meters' amounts. Any touch or key
dismisses the scene.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import TYPE_CHECKING

import pygame

from etg.core.money import format_cents
from etg.core.paytable import Paytable
from etg.core.wheel import WheelStops
from etg.ui import theme
from etg.ui.attract_art import RIBBON_Y, WHEEL_RADIUS, Art, draw_bulbs, make_art, mix
from etg.ui.canvas import LOGICAL_W
from etg.ui.input import Phase
from etg.ui.scene import Close, Input, KeyPress, Scene, Touched
from etg.ui.wheel import WheelView
from etg.ui.widgets import Button, draw_panel, draw_text

if TYPE_CHECKING:
    from etg.ui.scene import Context

HIGHLIGHT_S = 3.6  # each pay line stays this long, the last ROLL_S of it rolling away
ROLL_S = 0.5
FAN_CYCLE_S = 9.0  # the card fan turns face up and back down once in this time
FLIP_S = 0.45
WHEEL_CYCLE_S = 14.0  # the wheel spins to a new (display-only) stop this often
FAN_STEP_DEG = 12.0
FAN_RADIUS = 480


class AttractScene(Scene):
    """The idle screen; the first touch or key returns to the table."""

    opaque = True
    name = "attract"

    def __init__(self, ctx: Context) -> None:
        super().__init__(ctx)
        self._paytable: Paytable | None = None
        self._art: Art | None = None
        self._wheel: WheelView | None = None
        self._wheel_cycle: int | None = None

    # --- input ---------------------------------------------------------------------------

    def buttons(self, now: float) -> Sequence[Button]:
        return ()

    def handle(self, event: Input) -> bool:
        if isinstance(event, KeyPress) or (isinstance(event, Touched)
                                           and event.touch.phase is Phase.DOWN):
            self.ctx.go(Close(self))
        return True

    # --- drawing -------------------------------------------------------------------------

    def draw(self, surface: pygame.Surface, now: float) -> None:
        art = self._art_for(self.ctx.table.state.paytable)
        surface.blit(art.backdrop, (0, 0))
        draw_bulbs(surface, now)
        self._draw_titles(surface, art, now)
        wheel = self._wheel_at(now)
        if wheel is not None:
            wheel.draw(surface, art.wheel_centre, now)
        self._draw_fan(surface, art, now)
        self._draw_meters(surface, art, now)
        self._draw_highlight(surface, art, now)
        draw_text(surface, art.limits, 32, theme.CREAM, (LOGICAL_W // 2, 948), shadow=True)
        pulse = 0.5 + 0.5 * math.sin(now * 2 * math.pi / 1.6)
        touch = art.touch
        touch.set_alpha(round(110 + 145 * pulse))
        surface.blit(touch, touch.get_rect(center=(LOGICAL_W // 2, 1020)))

    def _art_for(self, paytable: Paytable) -> Art:
        if self._art is None or paytable is not self._paytable:
            self._paytable = paytable
            self._art = make_art(paytable)
            self._wheel = (WheelView(paytable.bonus_spin, paytable.seats, WHEEL_RADIUS)
                           if paytable.bonus_spin is not None else None)
            self._wheel_cycle = None
        return self._art

    def _wheel_at(self, now: float) -> WheelView | None:
        """The wheel turning to a new stop each cycle, set up from the cycle number alone.

        The stops are display-only (nothing is paid in attract mode), stepped through the
        rings so every segment has its turn; each cycle starts at rest on the last one's
        stops, so the picture depends on ``now`` only, never on which frames were drawn.
        """
        wheel = self._wheel
        paytable = self._paytable
        if wheel is None or paytable is None or paytable.bonus_spin is None:
            return None
        cycle = math.floor(now / WHEEL_CYCLE_S)
        if cycle != self._wheel_cycle:
            bonus = paytable.bonus_spin
            wheel.rest_on(_show_stops(cycle - 1, len(bonus.community_ring), paytable.seats,
                                      len(bonus.hot_spot_ring)))
            wheel.spin_to(_show_stops(cycle, len(bonus.community_ring), paytable.seats,
                                      len(bonus.hot_spot_ring)), cycle * WHEEL_CYCLE_S + 1.0)
            self._wheel_cycle = cycle
        return wheel

    def _draw_titles(self, surface: pygame.Surface, art: Art, now: float) -> None:
        rect = art.title.get_rect(center=(LOGICAL_W // 2, 132))
        surface.blit(art.title_shadow, rect.move(5, 7))
        surface.blit(art.title, rect)
        # A glint sweeps across the gold letters every few seconds.
        sweep = (now % 4.0) / 2.4
        if sweep <= 1.0:
            x = round(-200 + sweep * (rect.width + 400))
            for offset, band in zip((-60, -24, 0), art.shine, strict=True):
                area = pygame.Rect(x + offset, 0, 36, rect.height)
                surface.blit(band, (rect.x + area.x, rect.y), area)
        if art.subtitle is not None:
            glow = 0.5 + 0.5 * math.sin(now * 2 * math.pi / 2.2)
            sub_rect = art.subtitle.get_rect(center=(LOGICAL_W // 2, 258))
            art.subtitle_glow.set_alpha(round(60 + 160 * glow))
            surface.blit(art.subtitle_glow, art.subtitle_glow.get_rect(center=sub_rect.center))
            surface.blit(art.subtitle, sub_rect)

    def _draw_fan(self, surface: pygame.Surface, art: Art, now: float) -> None:
        cx, cy = art.fan_centre
        bob = 8 * math.sin(now * 2 * math.pi / 5.0)
        t = now % FAN_CYCLE_S
        count = len(art.cards)
        for i, card in enumerate(art.cards):
            angle = (count // 2 - i) * FAN_STEP_DEG
            up = _face_up_share(t, i)
            sprite = art.turned(i, card, angle, up)
            radians = math.radians(angle)
            # Cards fan about a pivot below the hand, like a hand of cards held up.
            px = cx - math.sin(radians) * FAN_RADIUS
            py = cy + FAN_RADIUS - math.cos(radians) * FAN_RADIUS + bob
            surface.blit(art.shadow(angle), art.shadow(angle).get_rect(
                center=(round(px) + 8, round(py) + 12)))
            surface.blit(sprite, sprite.get_rect(center=(round(px), round(py))))

    def _draw_meters(self, surface: pygame.Surface, art: Art, now: float) -> None:
        """The jackpot meters, live; a table without any shows its headline pays instead."""
        state = self.ctx.table.state
        for panel, rect in zip(art.panels, art.panel_rects, strict=True):
            if panel.level is not None:
                meter = state.meter(panel.level)
                value = format_cents(meter.cents) if meter is not None else "—"
            else:
                value = panel.value
            glow = 0.5 + 0.5 * math.sin(now * 2 * math.pi / 1.8 + rect.y / 90)
            edge = mix(theme.GOLD_DARK, theme.WIN, glow)
            draw_panel(surface, rect, (4, 6, 12), edge, radius=18, width=4)
            pygame.draw.rect(surface, theme.GOLD_DARK, rect.inflate(-14, -14), width=1,
                             border_radius=12)
            big = rect.height >= 150
            draw_text(surface, panel.label, 34 if big else 26, theme.GOLD,
                      (rect.centerx, rect.y + (34 if big else 26)), max_width=rect.width - 40)
            draw_text(surface, value, 84 if big else 56, theme.WIN,
                      (rect.centerx, rect.bottom - (62 if big else 40)), shadow=True,
                      max_width=rect.width - 40)

    def _draw_highlight(self, surface: pygame.Surface, art: Art, now: float) -> None:
        """The pay lines on the ribbon, rolling up one after another like a flip board."""
        lines = art.highlights
        if not lines:
            return
        step = math.floor(now / HIGHLIGHT_S)
        into = now - step * HIGHLIGHT_S
        roll = max(0.0, (into - (HIGHLIGHT_S - ROLL_S)) / ROLL_S)
        roll = roll * roll * (3 - 2 * roll)  # ease in and out
        band = pygame.Rect(100, RIBBON_Y - 40, LOGICAL_W - 200, 80)
        clip = surface.get_clip()
        surface.set_clip(band.clip(clip))
        try:
            current = lines[step % len(lines)]
            offset = round(band.height * roll)
            surface.blit(current, current.get_rect(center=(LOGICAL_W // 2, RIBBON_Y - offset)))
            if roll > 0:
                following = lines[(step + 1) % len(lines)]
                surface.blit(following, following.get_rect(
                    center=(LOGICAL_W // 2, RIBBON_Y - offset + band.height)))
        finally:
            surface.set_clip(clip)


def _face_up_share(t: float, index: int) -> float:
    """How far card ``index`` has turned face up at ``t`` seconds into the fan's cycle."""
    up_at = 0.8 + 0.35 * index
    down_at = FAN_CYCLE_S - 2.2 + 0.2 * index
    if t < up_at:
        return 0.0
    if t < up_at + FLIP_S:
        return (t - up_at) / FLIP_S
    if t < down_at:
        return 1.0
    if t < down_at + FLIP_S:
        return 1.0 - (t - down_at) / FLIP_S
    return 0.0


def _show_stops(cycle: int, community: int, seats: int, hot_spot: int) -> WheelStops:
    """A display-only stop for attract cycle ``cycle``, walking round every segment."""
    return WheelStops(cycle * 3 % community, 1 + cycle % seats, cycle * 5 % hot_spot)
