"""Cards, ranks, suits and colours.

Rank order: MD Ch. 6 A (ace high ... 2 low); suits have no rank (MD Ch. 6 B,
58 Pa. Code § 651a.6, S.D. Admin. R. 20:18:16:15.17(1)).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum, IntEnum


class Colour(Enum):
    RED = "red"
    BLACK = "black"


class Suit(Enum):
    __hash__ = object.__hash__  # members are singletons: hash by identity, in C

    CLUBS = "C"
    DIAMONDS = "D"
    HEARTS = "H"
    SPADES = "S"

    @property
    def colour(self) -> Colour:
        return _SUIT_COLOURS[self]

    @property
    def symbol(self) -> str:
        return _SUIT_SYMBOLS[self]


_SUIT_SYMBOLS = {Suit.CLUBS: "♣", Suit.DIAMONDS: "♦", Suit.HEARTS: "♥", Suit.SPADES: "♠"}
_SUIT_COLOURS = {Suit.CLUBS: Colour.BLACK, Suit.DIAMONDS: Colour.RED, Suit.HEARTS: Colour.RED,
                 Suit.SPADES: Colour.BLACK}


class Rank(IntEnum):
    """Ranks valued so that a higher value is a higher rank (MD Ch. 6 A)."""

    TWO = 2
    THREE = 3
    FOUR = 4
    FIVE = 5
    SIX = 6
    SEVEN = 7
    EIGHT = 8
    NINE = 9
    TEN = 10
    JACK = 11
    QUEEN = 12
    KING = 13
    ACE = 14

    @property
    def label(self) -> str:
        return _RANK_LABELS[self]

    @classmethod
    def parse(cls, text: str) -> Rank:
        """Rank from its label ("A", "K", "10", "T", "2"); raises ValueError."""
        key = text.strip().upper()
        key = "10" if key == "T" else key
        for rank, label in _RANK_LABELS.items():
            if label == key:
                return rank
        labels = ", ".join(_RANK_LABELS.values())
        raise ValueError(f"not a rank: {text!r} (expected one of {labels})")


_RANK_LABELS = {
    Rank.TWO: "2", Rank.THREE: "3", Rank.FOUR: "4", Rank.FIVE: "5", Rank.SIX: "6",
    Rank.SEVEN: "7", Rank.EIGHT: "8", Rank.NINE: "9", Rank.TEN: "10", Rank.JACK: "J",
    Rank.QUEEN: "Q", Rank.KING: "K", Rank.ACE: "A",
}

SUITS: tuple[Suit, ...] = (Suit.CLUBS, Suit.DIAMONDS, Suit.HEARTS, Suit.SPADES)
RANKS: tuple[Rank, ...] = tuple(Rank)
CARDS_PER_DECK = 52


@dataclass(frozen=True, slots=True)
class Card:
    rank: Rank
    suit: Suit

    @property
    def colour(self) -> Colour:
        return self.suit.colour

    @property
    def code(self) -> str:
        """Ledger code: rank label then suit letter, e.g. ``"10H"``, ``"AS"``."""
        return f"{self.rank.label}{self.suit.value}"

    @property
    def index(self) -> int:
        """Position 0..51 of this card in a deck (rank-major)."""
        return (self.rank - 2) * 4 + SUITS.index(self.suit)

    @classmethod
    def from_index(cls, index: int) -> Card:
        return _DECK[index % CARDS_PER_DECK]

    @classmethod
    def parse(cls, code: str) -> Card:
        """Card from a ledger code such as ``"AS"`` or ``"10h"``; raises ValueError."""
        text = code.strip()
        if len(text) < 2:
            raise ValueError(f"not a card: {code!r}")
        try:
            suit = Suit(text[-1].upper())
        except ValueError:
            raise ValueError(f"not a card: {code!r} (suit must be one of C, D, H, S)") from None
        return cls(Rank.parse(text[:-1]), suit)

    def __str__(self) -> str:
        return f"{self.rank.label}{self.suit.symbol}"


_DECK: tuple[Card, ...] = tuple(Card(rank, suit) for rank in RANKS for suit in SUITS)


def deck() -> tuple[Card, ...]:
    """One 52-card deck in index order."""
    return _DECK
