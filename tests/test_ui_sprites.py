"""Card and chip sprites: sizes, colours, pip layouts, the flip, chip stacks and the caches."""

from __future__ import annotations

import math
import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

from collections.abc import Callable, Iterator

import pygame
import pytest

from etg.core.cards import Card, Rank, Suit
from etg.ui import theme
from etg.ui.cards import (
    CARD_ASPECT,
    card_back,
    card_face,
    card_shadow,
    card_size,
    flip_frame,
)
from etg.ui.chips import (
    breakdown,
    chip,
    chip_side,
    chip_step,
    denomination_label,
    draw_stack,
)

RGB = tuple[int, int, int]


@pytest.fixture(scope="module", autouse=True)
def pygame_up() -> Iterator[None]:
    pygame.init()
    yield  # no pygame.quit(): other test modules in this process keep using pygame


# --------------------------------------------------------------------------- helpers


def pixels(surface: pygame.Surface, area: pygame.Rect | None = None) -> Iterator[pygame.Color]:
    area = area or surface.get_rect()
    for y in range(area.top, area.bottom):
        for x in range(area.left, area.right):
            yield surface.get_at((x, y))


def is_red(colour: pygame.Color) -> bool:
    return colour.a > 200 and colour.r > 150 and colour.g < 90 and colour.b < 100


def is_dark(colour: pygame.Color) -> bool:
    return colour.a > 200 and max(colour.r, colour.g, colour.b) < 70


def is_gold(colour: pygame.Color) -> bool:
    return colour.a > 200 and colour.r > 130 and colour.g > 90 and colour.b < 90 and colour.r > colour.b + 80


def near(colour: pygame.Color, expected: RGB, tolerance: int = 14) -> bool:
    return all(abs(a - b) <= tolerance for a, b in zip(colour[:3], expected, strict=True))


def fraction(surface: pygame.Surface, test: Callable[[pygame.Color], bool],
             area: pygame.Rect | None = None) -> float:
    """The share of the pixels in ``area`` (default: all) that pass ``test``."""
    found = [test(colour) for colour in pixels(surface, area)]
    return sum(found) / len(found)


def pip_count(face: pygame.Surface, ink: RGB) -> int:
    """Solid blobs of the suit colour between the corner indices."""
    width, height = face.get_size()
    centre = pygame.Rect(round(0.19 * width), round(0.07 * height),
                         round(0.62 * width), round(0.86 * height))
    mask = pygame.mask.from_threshold(face.subsurface(centre), (*ink, 255), (60, 60, 60, 255))
    blobs = [blob.count() for blob in mask.connected_components()]
    # A pip is one big blob; a spade's or club's stem can split off as a speck.
    return sum(1 for size in blobs if size >= max(blobs) // 4) if blobs else 0


def corner(face: pygame.Surface, bottom_right: bool = False) -> pygame.Rect:
    width, height = face.get_size()
    area = pygame.Rect(0, 0, round(0.19 * width), round(0.22 * height))
    if bottom_right:
        area.bottomright = (width, height)
    return area


def surface_bytes(surface: pygame.Surface) -> bytes:
    return pygame.image.tobytes(surface, "RGBA")


# --------------------------------------------------------------------------- card faces


@pytest.mark.parametrize("width", [40, 60, 72, 120, 220])
def test_face_is_card_sized_transparent_outside_its_rounded_corners(width: int) -> None:
    face = card_face(Card.parse("KH"), width)
    assert face.get_size() == card_size(width) == (width, round(width * CARD_ASPECT))
    assert face.get_flags() & pygame.SRCALPHA
    assert face.get_at((0, 0)).a == 0  # rounded corner
    assert face.get_at((width - 1, face.get_height() - 1)).a == 0
    assert face.get_at((width // 2, 1)).a == 255  # edge, not corner


def test_paper_is_ivory_with_a_grey_border() -> None:
    face = card_face(Card.parse("2C"), 120)
    assert near(face.get_at((60, 84)), (253, 251, 245), 6)  # blank middle of a two
    border = face.get_at((60, 0))
    assert border.a > 200 and 120 < border.r < 200 and abs(border.r - border.b) < 20


@pytest.mark.parametrize("width", [40, 120, 220])
@pytest.mark.parametrize("code", ["AH", "7H", "10D", "QD"])
def test_red_suits_have_red_indices_in_both_corners(code: str, width: int) -> None:
    face = card_face(Card.parse(code), width)
    assert fraction(face, is_red, corner(face)) > 0.05
    assert not any(is_dark(c) for c in pixels(face, corner(face)))
    if width >= 72:
        assert fraction(face, is_red, corner(face, bottom_right=True)) > 0.05


@pytest.mark.parametrize("width", [40, 120, 220])
@pytest.mark.parametrize("code", ["AS", "7S", "10C", "QC"])
def test_black_suits_have_no_red_in_their_indices(code: str, width: int) -> None:
    face = card_face(Card.parse(code), width)
    assert not any(is_red(c) for c in pixels(face, corner(face)))
    assert fraction(face, is_dark, corner(face)) > 0.05
    if width >= 72:
        assert fraction(face, is_dark, corner(face, bottom_right=True)) > 0.05


def test_bottom_right_index_is_the_top_left_one_turned_round() -> None:
    face = card_face(Card.parse("10S"), 200)
    top_left = face.subsurface(corner(face))
    turned = pygame.transform.flip(face.subsurface(corner(face, bottom_right=True)), True, True)
    ink_top = pygame.mask.from_threshold(top_left, (*theme.CARD_BLACK, 255), (70, 70, 70, 255))
    ink_turned = pygame.mask.from_threshold(turned, (*theme.CARD_BLACK, 255), (70, 70, 70, 255))
    assert ink_top.count() > 100
    assert ink_top.overlap_area(ink_turned, (0, 0)) > 0.8 * ink_top.count()


@pytest.mark.parametrize("width", [80, 120, 220])
@pytest.mark.parametrize("suit", [Suit.HEARTS, Suit.SPADES, Suit.DIAMONDS, Suit.CLUBS])
@pytest.mark.parametrize("rank", [r for r in Rank if r <= Rank.TEN] + [Rank.ACE])
def test_number_cards_show_one_pip_per_point_and_an_ace_one(rank: Rank, suit: Suit,
                                                            width: int) -> None:
    ink = theme.CARD_RED if suit in (Suit.HEARTS, Suit.DIAMONDS) else theme.CARD_BLACK
    expected = 1 if rank is Rank.ACE else int(rank)
    assert pip_count(card_face(Card(rank, suit), width), ink) == expected


def test_lower_pips_are_printed_upside_down() -> None:
    face = card_face(Card.parse("2H"), 200)
    width, height = face.get_size()
    top = pygame.Rect(round(0.3 * width), round(0.1 * height), round(0.4 * width), round(0.2 * height))
    bottom = top.copy()
    bottom.bottom = height - top.top
    upper = heart_mask(face.subsurface(top))
    lower = heart_mask(face.subsurface(bottom))
    assert upper.count() > 200
    turned_back = heart_mask(pygame.transform.flip(face.subsurface(bottom), True, True))
    assert upper.overlap_area(turned_back, (0, 0)) > 0.8 * upper.count()
    # A heart's ink lies mostly in its wide top: above the middle upright, below it turned.
    assert upper.centroid()[1] < upper.get_bounding_rects()[0].centery
    assert lower.centroid()[1] > lower.get_bounding_rects()[0].centery


def heart_mask(area: pygame.Surface) -> pygame.mask.Mask:
    return pygame.mask.from_threshold(area, (*theme.CARD_RED, 255), (60, 60, 60, 255))


@pytest.mark.parametrize("code", ["JS", "QH", "KC", "KD"])
def test_court_cards_have_a_gold_framed_panel(code: str) -> None:
    face = card_face(Card.parse(code), 160)
    width, height = face.get_size()
    middle = pygame.Rect(round(0.2 * width), round(0.05 * height), round(0.6 * width), round(0.9 * height))
    assert fraction(face, is_gold, middle) > 0.02
    ink = is_red if code[-1] in "HD" else is_dark
    assert fraction(face, ink, middle) > 0.05  # the big rank letters and pips


@pytest.mark.parametrize("code", ["7H", "10S", "AD"])
def test_number_cards_have_no_gold(code: str) -> None:
    face = card_face(Card.parse(code), 160)
    assert fraction(face, is_gold) < 0.001


def test_court_letters_differ_between_jack_queen_and_king() -> None:
    faces = {code: surface_bytes(card_face(Card.parse(code), 120)) for code in ("JH", "QH", "KH")}
    assert len(set(faces.values())) == 3


def test_small_card_simplifies_to_index_and_one_big_pip() -> None:
    face = card_face(Card.parse("9H"), 48)
    assert pip_count(face, theme.CARD_RED) == 1


# --------------------------------------------------------------------------- back, flip, shadow


def is_field_red(colour: pygame.Color) -> bool:
    return colour.a > 200 and colour.r > 100 and colour.g < 70 and colour.b < 80


def test_back_is_a_red_lattice_with_a_gold_border_and_emblem() -> None:
    back = card_back(120)
    width, height = back.get_size()
    assert (width, height) == card_size(120)
    assert back.get_at((0, 0)).a == 0
    assert near(back.get_at((width // 2, 2)), (253, 251, 245), 12)  # white margin
    field = pygame.Rect(round(0.15 * width), round(0.15 * height), round(0.2 * width), round(0.2 * height))
    assert fraction(back, is_field_red, field) > 0.5
    assert len({tuple(c) for c in pixels(back, field)}) > 5  # a pattern, not a flat fill
    assert fraction(back, is_gold) > 0.03  # border and emblem
    emblem = pygame.Rect(0, 0, round(0.3 * width), round(0.12 * width))
    emblem.center = (width // 2, height // 2)
    assert fraction(back, is_gold, emblem) > 0.1  # the gold "ETG"


def test_back_differs_from_every_face() -> None:
    back = surface_bytes(card_back(100))
    assert all(surface_bytes(card_face(card, 100)) != back for card in
               (Card.parse("AS"), Card.parse("KH"), Card.parse("7D")))


def test_flip_frame_narrows_to_the_edge_and_widens_again() -> None:
    card = Card.parse("7H")
    width, height = card_size(120)
    widths = {p: flip_frame(card, 120, p).get_width() for p in (0.0, 0.2, 0.4, 0.5, 0.6, 0.8, 1.0)}
    assert widths[0.0] == widths[1.0] == width
    assert widths[0.5] <= 2
    assert widths[0.0] > widths[0.2] > widths[0.4] > widths[0.5]
    assert widths[0.5] < widths[0.6] < widths[0.8] < widths[1.0]
    assert all(flip_frame(card, 120, p).get_height() == height for p in widths)


def test_flip_frame_shows_the_back_first_and_the_face_after_halfway() -> None:
    card = Card.parse("2C")
    early, late = flip_frame(card, 120, 0.2), flip_frame(card, 120, 0.8)
    assert fraction(early, is_field_red) > 0.4
    assert fraction(late, is_field_red) == 0
    assert fraction(late, lambda c: near(c, (253, 251, 245), 10)) > 0.6


def test_flip_frame_clamps_progress() -> None:
    card = Card.parse("QS")
    assert flip_frame(card, 90, -3.0) is card_back(90)
    assert flip_frame(card, 90, 7.0) is card_face(card, 90)


def test_shadow_is_soft_translucent_and_dark() -> None:
    shadow = card_shadow(120)
    width, height = shadow.get_size()
    assert (width, height) == card_size(120)
    centre = shadow.get_at((width // 2, height // 2))
    assert 60 < centre.a < 255 and max(centre.r, centre.g, centre.b) < 30
    alphas = [shadow.get_at((x, height // 2)).a for x in range(width // 2)]
    assert alphas[0] < alphas[-1] and len(set(alphas)) > 3  # fades out towards the edge


def test_card_sprites_are_cached() -> None:
    card = Card.parse("JD")
    assert card_face(card, 110) is card_face(Card.parse("JD"), 110)
    assert card_back(110) is card_back(110)
    assert card_shadow(110) is card_shadow(110)
    assert card_face(card, 110) is not card_face(card, 111)


def test_too_small_a_card_is_refused() -> None:
    with pytest.raises(ValueError):
        card_face(Card.parse("AS"), 4)


# --------------------------------------------------------------------------- chips


@pytest.mark.parametrize("cents", list(theme.CHIP_DENOMINATIONS))
@pytest.mark.parametrize("diameter", [32, 64, 120])
def test_chip_is_a_disc_in_its_denomination_colour(cents: int, diameter: int) -> None:
    face = chip(cents, diameter)
    assert face.get_size() == (diameter, diameter)
    assert face.get_flags() & pygame.SRCALPHA
    assert face.get_at((0, 0)).a == 0 and face.get_at((diameter - 1, diameter - 1)).a == 0
    radius = diameter / 2
    for dx, dy in ((0, -0.47), (0, 0.47), (-0.47, 0), (0.47, 0)):  # between label and ring
        spot = face.get_at((round(radius + dx * radius), round(radius + dy * radius)))
        assert spot.a == 255
        assert near(spot, theme.chip_colour(cents), 16), (spot, theme.chip_colour(cents))


def test_chip_has_contrasting_edge_spots_and_a_darker_rim() -> None:
    for cents in (500, 100, 10000):
        face = chip(cents, 96)
        colour = theme.chip_colour(cents)
        ring = [face.get_at((round(48 + 40 * cos), round(48 + 40 * sin)))
                for cos, sin in _circle(72)]
        contrasting = [c for c in ring if sum(abs(a - b) for a, b in zip(c[:3], colour, strict=True)) > 150]
        assert 0.25 < len(contrasting) / len(ring) < 0.65, cents  # spots, not a solid ring
        rim = face.get_at((48, 1))
        assert rim.a > 200 and sum(rim[:3]) < sum(colour)


def _circle(steps: int) -> list[tuple[float, float]]:
    return [(math.cos(2 * math.pi * i / steps), math.sin(2 * math.pi * i / steps)) for i in range(steps)]


def test_chip_labels_are_white_on_dark_chips_and_dark_on_light_ones() -> None:
    centre = pygame.Rect(40, 40, 40, 40)
    dark, light = chip(10000, 120), chip(100, 120)
    assert fraction(dark, lambda c: min(c.r, c.g, c.b) > 220, centre) > 0.05
    assert fraction(light, is_dark, centre) > 0.05
    assert surface_bytes(chip(100, 60)) != surface_bytes(chip(10000, 60))


@pytest.mark.parametrize(("cents", "label"), [
    (100, "1"), (500, "5"), (2500, "25"), (10000, "100"), (50000, "500"), (100000, "1K"),
    (500000, "5K"), (45, "45¢"), (250, "2.50"),
])
def test_denomination_labels(cents: int, label: str) -> None:
    assert denomination_label(cents) == label


def test_chip_side_is_a_striped_slab_in_the_chip_colour() -> None:
    side = chip_side(2500, 70)
    width, height = side.get_size()
    assert width == 70 and 0.15 * 70 < height < 0.5 * 70
    # Curved like the underside of an ellipse: clear above the middle and below the ends.
    assert side.get_at((width // 2, 0)).a == 0
    assert side.get_at((0, height - 1)).a == 0 and side.get_at((width - 1, height - 1)).a == 0
    assert side.get_at((width // 2, height - 2)).a == 255
    row = [side.get_at((x, height - chip_step(70) // 2 - 1)) for x in range(10, 60)]
    greens = [c for c in row if c.g > c.r + 40 and c.g > c.b + 30]
    whites = [c for c in row if min(c.r, c.g, c.b) > 150]
    assert greens and whites  # chip colour with edge-spot stripes


def test_chip_sprites_are_cached() -> None:
    assert chip(2500, 64) is chip(2500, 64)
    assert chip_side(2500, 64) is chip_side(2500, 64)
    assert chip(2500, 64) is not chip(500, 64)


# --------------------------------------------------------------------------- breakdown


@pytest.mark.parametrize(("amount", "chips"), [
    (0, []),
    (100, [100]),
    (3700, [2500, 1000, 200]),
    (12345, [10000, 1000, 1000, 200, 100, 45]),
    (45, [45]),
    (612500, [500000, 100000, 10000, 2500]),
])
def test_breakdown_is_greedy_and_exact(amount: int, chips: list[int]) -> None:
    assert breakdown(amount) == chips
    assert sum(chips) == amount


def test_breakdown_with_other_denominations() -> None:
    assert breakdown(3700, (100, 500, 1000, 2500)) == [2500, 1000, 100, 100]
    assert breakdown(730, (500, 100)) == [500, 100, 100, 30]


@pytest.mark.parametrize("amount", range(0, 1_000_000, 9973))
def test_breakdown_always_sums_exactly_largest_first(amount: int) -> None:
    chips = breakdown(amount)
    assert sum(chips) == amount
    assert chips == sorted(chips, reverse=True)
    assert all(c in theme.CHIP_DENOMINATIONS for c in chips[:-1])


def test_breakdown_refuses_negative_amounts() -> None:
    with pytest.raises(ValueError):
        breakdown(-100)


# --------------------------------------------------------------------------- stacks


def felt(size: tuple[int, int] = (300, 400)) -> pygame.Surface:
    surface = pygame.Surface(size)
    surface.fill(theme.FELT)
    return surface


def stack_height(amount: int, max_chips: int = 10) -> int:
    return draw_stack(felt(), amount, (150, 380), 60, max_chips).height


def test_stack_grows_with_the_number_of_chips() -> None:
    one, three, six = stack_height(100), stack_height(3700), stack_height(12345)
    assert 0 < one < three < six
    step = chip_step(60)
    assert three - one == 2 * step and six - three == 3 * step


def test_stack_stops_at_max_chips() -> None:
    assert len(breakdown(499900)) == 16
    assert stack_height(499900) == stack_height(499900, max_chips=10) < stack_height(499900, 16)
    assert stack_height(499900, max_chips=1) == stack_height(100)


def test_stack_draws_only_inside_the_rect_it_returns() -> None:
    surface = felt()
    rect = draw_stack(surface, 12345, (150, 380), 60)
    # The chips span 120..180 above y = 380; the soft shadow peeks out a few px beyond.
    assert rect.left <= 120 and 180 <= rect.right <= 190 and 380 <= rect.bottom <= 390
    assert surface_bytes(surface) != surface_bytes(felt())
    surface.fill(theme.FELT, rect)
    assert surface_bytes(surface) == surface_bytes(felt())


def test_stack_top_shows_the_smallest_chip_face() -> None:
    surface = felt()
    rect = draw_stack(surface, 10500, (150, 380), 80)  # $100 black below, $5 red on top
    top = surface.get_at((150 + 20, rect.top + 20))  # the face ellipse is 80 × 40
    assert near(top, theme.chip_colour(500), 20)
    edge = pygame.Rect(130, 374, 40, 3)
    assert fraction(surface, is_dark, edge) > 0.3  # the black chip's edge at the bottom
    assert fraction(surface, is_red, edge) == 0


def test_empty_stack_draws_nothing() -> None:
    surface = felt()
    rect = draw_stack(surface, 0, (120, 300), 60)
    assert rect.size == (0, 0) and rect.topleft == (120, 300)
    assert surface_bytes(surface) == surface_bytes(felt())
