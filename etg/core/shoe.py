"""The shoe: shuffled order, cut card, burns, and dealing.

- The shuffle is a recorded draw (:class:`ShoeDraw`): a Fisher–Yates
  permutation from the RNG source and a cut card position. Replaying the draw
  reproduces the shoe exactly, which is how a restart resumes the same shoe.
- The cut card stands at least ``penetration_min`` of the shoe from the bottom
  (MD Ch. 5 F(2)); when it comes out the round is completed and the shoe is
  reshuffled after it (MD Ch. 8 G, Ch. 5 H; 58 Pa. Code § 651a.8(d)).
- The first card after a shuffle is burned face down (MD Ch. 8 E(1);
  58 Pa. Code § 651a.8(b)).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from etg.core.cards import CARDS_PER_DECK, Card
from etg.core.evolve import evolve
from etg.core.paytable import Shoe as ShoeRules
from etg.core.rng import RandomSource, fisher_yates


@dataclass(frozen=True, slots=True)
class ShoeDraw:
    """A shuffle as drawn: ``order`` of card slots and the cut card's index.

    Slot ``s`` holds ``Card.from_index(s % 52)``; the cut card stands before
    ``order[cut_index]``.
    """

    order: tuple[int, ...]
    cut_index: int


def draw_shoe(rules: ShoeRules, source: RandomSource) -> ShoeDraw:
    """Shuffle ``rules.decks`` decks and place the cut card within the paytable's window."""
    order = fisher_yates(rules.cards, source)
    low, high = rules.cut_window()
    return ShoeDraw(order, low + source.randbelow(high - low + 1))


def stacked_draw(rules: ShoeRules, codes: Sequence[str],
                 cut_index: int | None = None) -> ShoeDraw:
    """A shoe whose first cards are ``codes`` (the burn card first), the rest in slot order,
    the cut card as late as the rules allow unless ``cut_index`` says otherwise.

    For tests, the screenshots and the benchmarks, where a round must deal what it is
    meant to show; a cabinet's shoe is only ever :func:`draw_shoe`'s. A code asked for
    more often than the shoe holds that card is skipped.
    """
    n = rules.cards
    free: dict[int, list[int]] = {}
    for slot in range(n - 1, -1, -1):
        free.setdefault(slot % CARDS_PER_DECK, []).append(slot)
    front = [free[i].pop() for i in (Card.parse(code).index for code in codes) if free[i]]
    used = set(front)
    order = tuple(front + [slot for slot in range(n) if slot not in used])
    return ShoeDraw(order, rules.cut_window()[1] if cut_index is None else cut_index)


def draw_problem(rules: ShoeRules, draw: ShoeDraw) -> str | None:
    """Why ``draw`` cannot be this paytable's shoe, or None if it can."""
    if len(draw.order) != rules.cards or sorted(draw.order) != list(range(rules.cards)):
        return f"the shuffled order is not a permutation of {rules.decks} decks"
    low, high = rules.cut_window()
    if not low <= draw.cut_index <= high:
        return f"the cut card at {draw.cut_index} is outside {low}..{high}"
    return None


@dataclass(frozen=True)  # no slots: see etg.core.evolve
class ShoeState:
    """The shoe in play: its draw, the next card's position, and what has happened."""

    draw: ShoeDraw
    position: int = 0
    burned: bool = False  # the first card after the shuffle has been burned
    shuffle_number: int = 0  # how many shuffles this table has had

    @property
    def cut_card_out(self) -> bool:
        """The cut card has appeared: finish the round, then reshuffle."""
        return self.position > self.draw.cut_index

    @property
    def remaining(self) -> int:
        return len(self.draw.order) - self.position

    def card_at(self, position: int) -> Card:
        """The card at ``position`` in the shuffled order; raises ShoeExhaustedError past it."""
        if position >= len(self.draw.order):
            raise ShoeExhaustedError("the shoe is empty")
        return Card.from_index(self.draw.order[position] % CARDS_PER_DECK)

    def deal(self) -> tuple[Card, ShoeState]:
        """The next card and the shoe after it; raises ShoeExhaustedError on an empty shoe."""
        return self.card_at(self.position), evolve(self, position=self.position + 1)

    def burn(self, count: int = 1) -> tuple[tuple[Card, ...], ShoeState]:
        """Remove ``count`` cards face down into the discard rack."""
        shoe = self
        burned: list[Card] = []
        for _ in range(count):
            card, shoe = shoe.deal()
            burned.append(card)
        return tuple(burned), shoe


class ShoeExhaustedError(RuntimeError):
    """More cards were needed than the shoe holds (prevented by paytable validation)."""
