"""The table's colours: felt, rails, gold trim, and casino chip colours by denomination."""

from __future__ import annotations

RGB = tuple[int, int, int]

PLAYER_TEXT = 20
"""The smallest text a player reads, in logical pixels (SPEC §6; issue 12, item 5)."""

FELT: RGB = (10, 92, 58)
FELT_DARK: RGB = (6, 60, 38)
FELT_LIGHT: RGB = (22, 120, 78)
RAIL: RGB = (48, 26, 14)
RAIL_LIGHT: RGB = (92, 54, 28)
GOLD: RGB = (226, 186, 82)
GOLD_DARK: RGB = (150, 112, 36)
CREAM: RGB = (248, 240, 220)
WHITE: RGB = (255, 255, 255)
BLACK: RGB = (0, 0, 0)
INK: RGB = (18, 18, 24)
RED: RGB = (200, 30, 40)
CARD_RED: RGB = (196, 20, 36)
CARD_BLACK: RGB = (20, 20, 28)
PANEL: RGB = (14, 28, 44)
PANEL_LIGHT: RGB = (30, 52, 78)
PANEL_EDGE: RGB = (86, 120, 160)
BUTTON: RGB = (34, 66, 104)
BUTTON_HOT: RGB = (212, 160, 40)  # the dealer's next action, a selected chip
BUTTON_OFF: RGB = (52, 58, 66)
TEXT_DIM: RGB = (150, 164, 180)
WIN: RGB = (255, 214, 64)
LOSE: RGB = (170, 60, 60)
PUSH: RGB = (160, 190, 220)
WAR: RGB = (230, 70, 40)
SURRENDER: RGB = (70, 110, 180)
DEMO: RGB = (230, 60, 140)
BONUS: RGB = (120, 30, 90)  # the Bonus Spin wager's buttons
TILT: RGB = (230, 40, 40)

# Seat colours: each seat's chips and markers on the community spots.
SEAT_COLOURS: tuple[RGB, ...] = (
    (231, 76, 60), (52, 152, 219), (46, 204, 113), (241, 196, 15), (155, 89, 182),
    (230, 126, 34), (26, 188, 156), (236, 112, 160), (189, 195, 199),
)

# Casino chip colours by denomination in cents (the common US convention).
CHIP_COLOURS: dict[int, RGB] = {
    100: (240, 240, 236),  # $1 white
    200: (236, 204, 60),  # $2 yellow
    500: (200, 30, 40),  # $5 red
    1000: (30, 90, 200),  # $10 blue
    2500: (20, 140, 60),  # $25 green
    10000: (24, 24, 28),  # $100 black
    50000: (120, 50, 160),  # $500 purple
    100000: (240, 180, 40),  # $1,000 orange-yellow
    500000: (150, 90, 50),  # $5,000 brown
}
CHIP_DENOMINATIONS: tuple[int, ...] = tuple(sorted(CHIP_COLOURS))


def seat_colour(seat: int) -> RGB:
    return SEAT_COLOURS[(seat - 1) % len(SEAT_COLOURS)]


def chip_colour(cents: int) -> RGB:
    """The colour of a chip of ``cents``: the largest standard denomination not above it."""
    colour = CHIP_COLOURS[CHIP_DENOMINATIONS[0]]
    for denomination in CHIP_DENOMINATIONS:
        if denomination <= cents:
            colour = CHIP_COLOURS[denomination]
    return colour


def shade(colour: RGB, factor: float) -> RGB:
    """``colour`` darkened (factor below 1) or lifted toward white (factor above 1)."""
    if factor <= 1:
        red, green, blue = (round(channel * factor) for channel in colour)
    else:
        red, green, blue = (round(c + (255 - c) * min(factor - 1, 1.0)) for c in colour)
    return red, green, blue
