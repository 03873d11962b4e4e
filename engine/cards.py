"""Cards as small ints: ``suit * 13 + rank - 1``, with the suit order of RULES.md.

A ``Card`` *is* an ``int`` (cheap to compare, hash and pack into position keys)
that prints as the card code a player types (``10H``).
"""

from __future__ import annotations

SUIT_LETTERS = "CDHS"
SUIT_SYMBOLS = "♣♦♥♠"
RANK_NAMES = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
CLUBS, DIAMONDS, HEARTS, SPADES = range(4)
ACE, KING = 1, 13


class Card(int):
    """One card; ``int(card)`` is ``suit * 13 + rank - 1``."""

    __slots__ = ()

    @property
    def rank(self) -> int:
        """1 (Ace) to 13 (King)."""
        return int(self) % 13 + 1

    @property
    def suit(self) -> int:
        """0 clubs, 1 diamonds, 2 hearts, 3 spades."""
        return int(self) // 13

    @property
    def label(self) -> str:
        """Rank and suit symbol, for messages: ``9♣``."""
        return RANK_NAMES[self.rank - 1] + SUIT_SYMBOLS[self.suit]

    def __str__(self) -> str:
        return _CODES[self]

    def __repr__(self) -> str:
        return f"Card({self})"


# What each card prints as, worked out once: cards are printed by the thousand (saves,
# alt texts, position keys of the solver's).
_CODES = tuple(RANK_NAMES[i % 13] + SUIT_LETTERS[i // 13] for i in range(52))
CARDS: tuple[Card, ...] = tuple(Card(i) for i in range(52))
_BY_CODE = {str(card): card for card in CARDS}


def card(rank: int, suit: int) -> Card:
    return CARDS[suit * 13 + rank - 1]


def parse_card(code: str) -> Card:
    """``"10h"`` or ``"10H"`` -> Card; raises ValueError for anything else."""
    text = code.strip().upper()
    if text[:1] == "T":  # a common shorthand for ten
        text = "10" + text[1:]
    try:
        return _BY_CODE[text]
    except KeyError:
        raise ValueError(f"{code!r} is not a card code (like AS, 10H, KD)") from None


def full_deck(decks: int = 1) -> list[Card]:
    """Every card, ♣ ♦ ♥ ♠ and A to K within a suit, once per deck."""
    return [c for _ in range(decks) for c in CARDS]
