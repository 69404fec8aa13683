"""Cut a tall screenshot of a par sheet into A4-shaped PNG pages (1240 × 1754 pixels).

Usage: python docs/parsheet/split_pages.py TALL.png OUT_PREFIX
Writes OUT_PREFIX-01.png, OUT_PREFIX-02.png, ... and drops the blank rows
below the page's end. pygame (a dependency of etg) reads and writes the PNGs.
"""

from __future__ import annotations

import os
import sys

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

import pygame

PAGE = (1240, 1754)  # A4 at 150 dpi


def last_ink_row(image: pygame.Surface) -> int:
    """The lowest row with a pixel that is not white (0 if the image is blank)."""
    width, height = image.get_size()
    for y in range(height - 1, -1, -1):
        for x in range(0, width, 4):
            r, g, b, *_ = image.get_at((x, y))
            if r < 250 or g < 250 or b < 250:
                return y
    return 0


def split(tall: str, prefix: str) -> list[str]:
    """Write the pages of ``tall``; returns their paths."""
    image = pygame.image.load(tall)
    end = last_ink_row(image) + 40
    paths = []
    top = 0
    while top < end:
        page = pygame.Surface(PAGE)
        page.fill((255, 255, 255))
        rows = min(PAGE[1], image.get_height() - top)
        page.blit(image, (0, 0), pygame.Rect(0, top, PAGE[0], rows))
        path = f"{prefix}-{len(paths) + 1:02d}.png"
        pygame.image.save(page, path)
        paths.append(path)
        top += PAGE[1]
    return paths


if __name__ == "__main__":
    for written in split(sys.argv[1], sys.argv[2]):
        print(written)
