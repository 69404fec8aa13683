"""The confetti of a progressive hit or a big win (etg.ui.wheel_celebration): every flake
worked out at once gives the very pixels of the closed form worked out flake by flake."""

from __future__ import annotations

import math
from collections.abc import Iterator

import pygame
import pytest

from etg.ui import wheel_celebration as wc


@pytest.fixture(autouse=True)
def display() -> Iterator[None]:
    pygame.display.init()
    pygame.display.set_mode((8, 8))
    yield
    pygame.display.quit()


def flake_by_flake(surface: pygame.Surface, rect: pygame.Rect, t: float) -> None:
    """The closed form, one flake at a time: a burst from above the centre, slowed by air
    drag (1.6/s) and falling at 0.22 of the larger side a second, each flake a rectangle
    turning in its plane and flipping about its long axis, lit by how face-on it is."""
    scale = max(rect.width, rect.height)
    cx, cy = rect.centerx, rect.centery - rect.height * 0.08
    for flake in wc._flakes():
        tau = t - flake.delay
        if tau <= 0.0:
            continue
        spread = (1.0 - math.exp(-1.6 * tau)) / 1.6
        speed = flake.speed * scale
        x = (cx + math.cos(flake.heading) * speed * spread
             + math.sin(flake.phase + 3.0 * tau) * flake.sway * scale)
        y = (cy + (math.sin(flake.heading) * speed - 0.25 * scale) * spread
             + 0.22 * scale * (tau - spread))
        s = flake.size * scale
        flip = math.cos(flake.phase + math.tau * flake.spin * tau)
        a = flake.phase + tau * flake.spin * 2.0
        ux, uy = math.cos(a) * s, math.sin(a) * s
        wx, wy = -math.sin(a) * s * 0.6 * flip, math.cos(a) * s * 0.6 * flip
        pygame.draw.polygon(surface, flake.shades[round(abs(flip) * (wc.SHADES - 1))],
                            ((x - ux - wx, y - uy - wy), (x + ux - wx, y + uy - wy),
                             (x + ux + wx, y + uy + wy), (x - ux + wx, y - uy + wy)))


@pytest.mark.parametrize("size", [(1920, 1080), (1280, 720)])
def test_the_confetti_worked_out_at_once_is_the_closed_form_flake_by_flake(
        size: tuple[int, int]) -> None:
    together, alone, felt = pygame.Surface(size), pygame.Surface(size), pygame.Surface(size)
    felt.fill((20, 90, 40))
    rect = together.get_rect()
    plain = pygame.image.tobytes(felt, "RGB")
    with_flakes = 0
    for frame in range(0, 360, 11):  # six seconds, from before the late flakes set off
        t = frame / 60
        for surface in (together, alone):
            surface.blit(felt, (0, 0))
        wc._draw_confetti(together, rect, t)
        flake_by_flake(alone, rect, t)
        shown = pygame.image.tobytes(together, "RGB")
        assert shown == pygame.image.tobytes(alone, "RGB"), t
        with_flakes += shown != plain
    assert with_flakes == len(range(11, 360, 11))  # every frame but the first, at t = 0
