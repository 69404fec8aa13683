"""One ring of the Bonus Spin wheel as pictures: still on a stop, or turned for a spin.

A ring's wedges are painted once, supersampled, with six smooth copies turned 15°
apart (:data:`COPIES`); labels are set on them afresh for each spin, each already
turned the way it will read where the ring lands (:meth:`RingArt.turned_art`), so a
moving frame is one ``pygame.transform.rotate`` of the copy nearest its angle
(:meth:`RingArt.rotation`). A still ring shows a picture made smoothly for its stop,
its labels set level where they rest and, once landed, a frame round the landed
segment (:meth:`RingArt.rest_picture`). These are caches of pictures, not state:
:mod:`etg.ui.wheel` says which to show when.
"""

from __future__ import annotations

from collections import OrderedDict

import pygame

from etg.ui.wheel_art import (
    display_ready,
    paint_highlight,
    paint_ring,
    turned,
)
from etg.ui.wheel_labels import label_sprite, place_label, reads_reversed, rest_rotation
from etg.ui.wheel_rings import Ring

# A turning ring is drawn from one of COPIES copies of its artwork turned COPY_STEP apart:
# ``rotate``'s work grows with the bounding box of the turn, 1.64 times the square on average
# over all angles but 1.13 times within ±7.5°, which pays for the deeper inner rings.
COPIES = 6
COPY_STEP = 90.0 / COPIES
PICTURES = 3  # still pictures kept per ring (0.4 to 0.8 MB each at the table's radius)


class RingArt:
    """The pictures of one ring at one radius: its artwork, turned copies and still pictures."""

    def __init__(self, ring: Ring, radius: int) -> None:
        self.ring = ring
        self.radius = radius
        painted = paint_ring(ring.segments, ring.radii, radius)
        self.base = display_ready(painted)
        self._base_turns = tuple(display_ready(turned(painted, step * COPY_STEP))
                                 for step in range(COPIES))
        # Each label read with its top (or end) toward the rim, and turned half a turn.
        self._sprites = tuple(
            None if fit is None else (label_sprite(fit, segment.ink),
                                      label_sprite(fit, segment.ink, reversed_=True))
            for segment, fit in zip(ring.segments, ring.fits, strict=True))
        self._turned: dict[tuple[int, int], pygame.Surface] = {}  # by (stop, copy)
        self._pictures: OrderedDict[tuple[int, bool], pygame.Surface] = OrderedDict()

    def turned_art(self, stop: int, step: int, keep: tuple[int, ...] = ()) -> pygame.Surface:
        """The artwork for a spin onto `stop`, turned `step` × :data:`COPY_STEP` degrees:
        each label already turned the way it will read when the ring rests there.

        The wedges come from a smooth turned copy made at construction and the labels are
        set on it afresh, so a copy is as sharp as the unturned artwork. Copies are kept
        for `stop` and the stops in `keep` only (the next spin's, made ahead).
        """
        made = self._turned.get((stop, step))
        if made is not None:
            return made
        ring = self.ring
        art = self._base_turns[step].copy()
        middle = (art.get_width() / 2.0, art.get_height() / 2.0)
        landing = ring.centre(stop)
        offset = step * COPY_STEP
        for j, (fit, sprites) in enumerate(zip(ring.fits, self._sprites, strict=True)):
            if fit is None or sprites is None:
                continue
            at = ring.centre(j)
            turn = rest_rotation(ring.orientation, at - landing) - landing
            sprite = sprites[reads_reversed(ring.orientation, at - landing)]
            # Turned counter-clockwise by `offset`, the artwork's point at `at` lies at
            # `at - offset` clockwise of 12 o'clock, and every label turns with it.
            place_label(art, middle, sprite, fit, at - offset, turn + offset)
        self._turned = {key: s for key, s in self._turned.items() if key[0] in (stop, *keep)}
        self._turned[(stop, step)] = made = display_ready(art)
        return made

    @property
    def turned_copies(self) -> dict[tuple[int, int], pygame.Surface]:
        """The turned artworks kept, by (stop, copy): a copy of the dictionary."""
        return dict(self._turned)

    def drop_turned(self, keep: tuple[int, ...] = ()) -> None:
        """Let the turned copies go (up to a megabyte each) but for the stops in `keep`."""
        self._turned = {key: s for key, s in self._turned.items() if key[0] in keep}

    def rotation(self, stop: int, angle: float, keep: tuple[int, ...] = ()) -> pygame.Surface:
        """The ring turned `angle` degrees on a spin onto `stop`: the copy of the artwork
        already turned nearest the angle (mod 90°, which ``rotate`` does exactly) turned
        the rest of the way, so the turn left is small and so is its bounding box.
        ``rotate`` samples the nearest pixel, which nobody sees on a turning ring; the
        copies for the stops in `keep` stay."""
        step = round(angle % 90.0 / COPY_STEP) % COPIES
        return pygame.transform.rotate(self.turned_art(stop, step, keep),
                                       angle - step * COPY_STEP)

    def rest_picture(self, stop: int, framed: bool) -> pygame.Surface:
        """The ring still on `stop`, turned smoothly, its labels set upright where they rest
        (level ones not resampled), and, when `framed`, a frame round the landed segment."""
        key = (stop, framed)
        picture = self._pictures.get(key)
        if picture is not None:
            self._pictures.move_to_end(key)
            return picture
        ring = self.ring
        side = self.base.get_width()
        landing = ring.centre(stop)
        picture = turned(self.base, landing % 360.0).copy()  # labels on a copy: turned() keeps it
        middle = (side / 2.0, side / 2.0)
        for j, (fit, sprites) in enumerate(zip(ring.fits, self._sprites, strict=True)):
            if fit is None or sprites is None:
                continue
            at = ring.centre(j) - landing
            sprite = sprites[reads_reversed(ring.orientation, at)]
            place_label(picture, middle, sprite, fit, at, rest_rotation(ring.orientation, at))
        if framed:
            inner, outer = ring.radii
            paint_highlight(picture, middle, inner * self.radius, outer * self.radius,
                            ring.span, self.radius)
        self._pictures[key] = picture = display_ready(picture)
        while len(self._pictures) > PICTURES:
            self._pictures.popitem(last=False)
        return picture
