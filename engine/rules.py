"""The five games as data: one small description each over one mechanism (game.py).

Each game is described here once: its mechanics as fields, and its rules in words for
players (``summary`` for ``/rules``, ``note`` for the board, ``decisions`` where the
source left something open), in English, marked (``N_``) for the bot to translate.
``docs/RULES.md`` is generated from this file (``python -m engine rules``) and a test
keeps the two the same; a rule change starts here.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum
from typing import Any, SupportsIndex

from .cards import ACE, CARDS, CLUBS, DIAMONDS, HEARTS, KING, SPADES, SUIT_SYMBOLS, Card, card
from .words import N_, Phrase, Rank


class Arrangement(Enum):
    """How a game's table is laid out, which sets the reading order its piles are numbered
    in (``engine.PLACES`` gives each pile and foundation its place)."""

    COLUMNS = "columns"  # two rows of columns under the foundations
    ROWS = "rows"  # Corner Stones: the corner stones in the outer columns; between them the
    #                foundations in a row, the side stacks under them


@dataclass(frozen=True)
class FoundationSpec:
    """One foundation: its base card, direction and size."""

    suit: int | None  # None: any suit (Four Leaf Clovers)
    base_rank: int  # ACE or KING: the only rank an empty foundation takes
    step: int  # +1 builds up, -1 builds down
    size: int  # cards it holds when complete
    wrap: bool = False  # K -> A continues (Four Leaf Clovers)
    prefilled: bool = False  # the base card starts on it

    @property
    def label(self) -> str:
        """Suit, base and direction, for pictures and messages: ``♣ A↑``."""
        return str(self.phrase)

    @property
    def phrase(self) -> Phrase:
        """The label as a phrase, for an interface to word: ``any A↑`` has a word in it,
        and the base rank is a letter each language writes its own way."""
        base = Rank(self.base_rank)
        if self.suit is None:
            if self.step > 0:
                return Phrase("any {rank}↑", rank=base)
            return Phrase("any {rank}↓", rank=base)
        suit = SUIT_SYMBOLS[self.suit]
        if self.step > 0:
            return Phrase("{suit} {rank}↑", suit=suit, rank=base)
        return Phrase("{suit} {rank}↓", suit=suit, rank=base)

    def base_cards(self) -> tuple[Card, ...]:
        suits = range(4) if self.suit is None else (self.suit,)
        return tuple(card(self.base_rank, s) for s in suits)

    def next_cards(self, pile: list[Card]) -> tuple[Card, ...]:
        """The cards this foundation takes now (none when complete)."""
        if not pile:
            return self.base_cards()
        if len(pile) >= self.size:
            return ()
        rank = pile[-1].rank + self.step
        if self.wrap:
            rank = (rank - 1) % 13 + 1
        elif not ACE <= rank <= KING:
            return ()
        suits = range(4) if self.suit is None else (self.suit,)
        return tuple(card(rank, s) for s in suits)


@dataclass(frozen=True)
class Rules:
    """How one game plays. Piles and foundations are 0-based here, 1-based for players."""

    id: str
    name: str
    decks: int
    deal_sizes: tuple[int, ...]  # cards dealt to each tableau pile, in pile order
    foundations: tuple[FoundationSpec, ...]
    same_suit: bool  # tableau building must follow suit
    steps: tuple[int, ...]  # allowed (card rank - rank of the card it goes on)
    wrap: bool  # A and K are adjacent on the tableau
    build_text: Phrase  # the tableau rule in a player's words, for refusals
    redeals: int = 0
    redeal_pile_size: int = 3
    refillable: frozenset[int] = frozenset()  # piles an emptied one may be refilled (any card)
    feeds: tuple[frozenset[int], ...] | None = None  # per pile: foundations it may feed
    pile_names: tuple[str, ...] | None = None  # names besides numbers (Corner Stones' C1, S1)
    has_draw_option: bool = False  # Trefoil's "and a Draw" house rule exists
    # What a player calls a tableau pile here ("stack"): the bot picks its sentences by it
    # (whole sentences are translated, so the word itself is not marked for the catalog).
    pile_word: str = "pile"
    layout: Arrangement = Arrangement.COLUMNS
    # The rules in words, in English and marked for the bot's catalog (N_): the bot
    # translates them where it shows them; docs/RULES.md is English.
    intro: str = ""  # the equipment in a few words, after the name
    summary: tuple[str, ...] = ()  # the rules in short, one point each (plain text)
    note: str = ""  # the rules in a line or two, with the first board of a game
    decisions: tuple[str, ...] = ()  # what this project decided where the source is open:
    # docs/RULES.md only, so not in the catalog
    card_count: int = field(init=False)
    tops_for: tuple[tuple[Card, ...], ...] = field(init=False, repr=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "card_count", 52 * self.decks)
        object.__setattr__(self, "tops_for", tuple(self._tops_for(c) for c in CARDS))

    def _tops_for(self, moving: Card) -> tuple[Card, ...]:
        """Every top card that ``moving`` may be placed on."""
        return tuple(top for top in CARDS if self.builds_on(moving, top))

    def builds_on(self, moving: Card, top: Card) -> bool:
        if self.same_suit and moving.suit != top.suit:
            return False
        diff = moving.rank - top.rank
        if self.wrap:  # ranks go round: K is one below A
            return any((diff - step) % 13 == 0 for step in self.steps)
        return diff in self.steps

    def pile_name(self, pile: int) -> str:
        """What a player types for a 0-based pile, with its layout name if it has one:
        ``7``; Corner Stones' ``3 (S1)``."""
        return f"{pile + 1} ({self.pile_names[pile]})" if self.pile_names else str(pile + 1)

    def __reduce_ex__(self, protocol: SupportsIndex) -> str | tuple[Any, ...]:
        """One of the five games' rules is pickled as its id, to be looked up again on the
        other side: a game sent to a worker process would otherwise carry 3.5 KB of rules,
        most of its pickling time. Rules made anywhere else are pickled whole."""
        if RULES.get(self.id) is self:
            return (rules_of, (self.id,))
        return super().__reduce_ex__(protocol)

    def may_feed(self, pile: int, foundation: int) -> bool:
        return self.feeds is None or foundation in self.feeds[pile]

    @property
    def tableau_size(self) -> int:
        return len(self.deal_sizes)

    def prefilled_cards(self) -> list[Card]:
        return [spec.base_cards()[0] for spec in self.foundations if spec.prefilled]


def _suited(suit: int, base: int, *, prefilled: bool) -> FoundationSpec:
    return FoundationSpec(suit, base, 1 if base == ACE else -1, 13, prefilled=prefilled)


def _corner_stones_feeds() -> tuple[frozenset[int], ...]:
    every = frozenset(range(8))
    corners = (0, 1, 10, 11)
    # Piles 3-10 (0-based 2-9) are the side stacks S1-S8, two per row; row r feeds f(2r+1), f(2r+2).
    return tuple(
        every if pile in corners else frozenset({2 * ((pile - 2) // 2), 2 * ((pile - 2) // 2) + 1})
        for pile in range(12)
    )


CLOVER_LEAF = Rules(
    id="clover-leaf",
    name="Clover Leaf",
    decks=1,
    deal_sizes=(3,) * 16,
    foundations=(
        _suited(DIAMONDS, ACE, prefilled=True),
        _suited(HEARTS, ACE, prefilled=True),
        _suited(CLUBS, KING, prefilled=True),
        _suited(SPADES, KING, prefilled=True),
    ),
    same_suit=True,
    steps=(1, -1),
    wrap=False,
    build_text=Phrase(
        "in Clover Leaf a card goes on a card of its own suit one rank higher or lower "
        "(A and K are not adjacent)"
    ),
    intro=N_("one deck, every card face up"),
    summary=(
        N_(
            "The foundations start filled: f1 A♦ and f2 A♥ build up by suit to K; f3 K♣ and f4 K♠ "
            "build down by suit to A."
        ),
        N_("The other 48 cards lie in 16 piles of 3. Only a pile's top card moves, one at a time."),
        N_(
            "On the piles a card goes on a card of its own suit one rank higher or lower "
            "(A and K are not neighbours). An emptied pile stays empty."
        ),
        N_("No stock and no redeals. You win when all 52 cards are on the foundations."),
    ),
    note=N_(
        "Only the last card of a pile moves. It goes on a card of its own suit one rank "
        "higher or lower (A and K don't touch), or up to its foundation: f1, f2 build up from A, "
        "f3, f4 down from K. An emptied pile stays empty."
    ),
    decisions=(
        "The four base cards start on the foundations, since 16 piles of 3 hold the other 48: "
        "there is no stock.",
    ),
)

FOUR_LEAF_CLOVERS = Rules(
    id="four-leaf-clovers",
    name="Four Leaf Clovers",
    decks=1,
    deal_sizes=(4,) * 13,
    foundations=(FoundationSpec(None, ACE, 1, 52, wrap=True),),
    same_suit=False,
    steps=(1, -1),
    wrap=True,
    build_text=Phrase(
        "in Four Leaf Clovers a card goes on any card one rank higher or lower "
        "(A and K are adjacent)"
    ),
    intro=N_("one deck in 13 piles of 4, every card face up"),
    summary=(
        N_(
            "One foundation, f1: it starts with any Ace and builds up regardless of suit, K going "
            "round to A, until it holds all 52 cards (four rounds)."
        ),
        N_(
            "On the piles a card goes on any card one rank higher or lower, any suit; A and K are "
            "neighbours. An emptied pile stays empty."
        ),
        N_("No stock and no redeals."),
    ),
    note=N_(
        "Only the last card of a pile moves. It goes on any card one rank higher or lower, "
        "whatever the suit; K and A touch. f1 starts with any A and builds up whatever the suit, "
        "K then A again, until it holds all 52 cards. An emptied pile stays empty."
    ),
)

SUPER_FLOWER_GARDEN = Rules(
    id="super-flower-garden",
    name="Super Flower Garden",
    decks=1,
    deal_sizes=(3,) * 17 + (1,),
    foundations=tuple(_suited(s, ACE, prefilled=False) for s in range(4)),
    same_suit=False,
    steps=(-1,),
    wrap=False,
    build_text=Phrase("in Super Flower Garden a card goes on any card exactly one rank higher"),
    redeals=2,
    intro=N_("one deck in 17 piles of 3 and one of 1, every card face up"),
    summary=(
        N_("Four empty foundations, f1 ♣, f2 ♦, f3 ♥, f4 ♠, each built up by suit from A to K."),
        N_(
            "On the piles a card goes on any card exactly one rank higher, any suit. An emptied "
            "pile stays empty."
        ),
        N_(
            "Two redeals, whenever you like: every pile card is gathered, shuffled and dealt again "
            "in threes; a remainder of 1 or 2 makes one last pile. Timing them is the skill."
        ),
    ),
    note=N_(
        "Only the last card of a pile moves. It goes on any card exactly one rank higher, "
        "whatever the suit, or up to its foundation (by suit, A to K). An emptied pile stays "
        "empty. Redeal gathers every pile and deals them again in threes."
    ),
    decisions=(
        "A redeal deals the gathered cards in threes with any remainder as one last pile (the "
        "source also says 17 of 3 and one of 1, which fewer than 52 cards cannot make).",
        "Cards are gathered pile 1 first, each bottom to top, then shuffled by the deal's own "
        "fixed shuffle for that redeal.",
    ),
)

TREFOIL = Rules(
    id="trefoil",
    name="Trefoil",
    decks=1,
    deal_sizes=(3,) * 16,
    foundations=tuple(_suited(s, ACE, prefilled=True) for s in range(4)),
    same_suit=True,
    steps=(-1,),
    wrap=False,
    build_text=Phrase("in Trefoil a card goes on the next higher card of its own suit"),
    redeals=2,
    has_draw_option=True,
    intro=N_("one deck, every card face up"),
    summary=(
        N_(
            "The four Aces start on the foundations (f1 ♣, f2 ♦, f3 ♥, f4 ♠), each built up by "
            "suit to K."
        ),
        N_(
            "The other 48 cards lie in 16 piles of 3. On the piles a card goes on the next higher "
            "card of its own suit (9♣ on 10♣). An emptied pile stays empty."
        ),
        N_(
            "Two redeals, whenever you like: every pile card is gathered, shuffled and dealt again "
            "in threes."
        ),
        N_(
            "House rule \"and a Draw\" (off unless chosen): after the last redeal you may once "
            "bring one buried card to the top of its own pile."
        ),
    ),
    note=N_(
        "Only the last card of a pile moves. It goes on the next higher card of its own "
        "suit, or up to its foundation (by suit, A to K). An emptied pile stays empty. "
        "Redeal gathers every pile and deals them again in threes."
    ),
    decisions=(
        "Redeals are dealt as in Super Flower Garden: threes, any remainder as one last pile.",
    ),
)

CORNER_STONES = Rules(
    id="corner-stones",
    name="Corner Stones",
    decks=2,
    deal_sizes=(8,) * 12,
    foundations=tuple(
        _suited(s, base, prefilled=True) for s in range(4) for base in (ACE, KING)
    ),
    same_suit=False,
    steps=(1, -1),
    wrap=True,
    build_text=Phrase(
        "in Corner Stones a card goes on any card one rank higher or lower "
        "(A and K are adjacent)"
    ),
    refillable=frozenset({0, 1, 10, 11}),
    feeds=_corner_stones_feeds(),
    pile_names=("C1", "C2", "S1", "S2", "S3", "S4", "S5", "S6", "S7", "S8", "C3", "C4"),
    pile_word="stack",
    layout=Arrangement.ROWS,
    intro=N_("two decks (104 cards), every card face up"),
    summary=(
        N_(
            "Eight foundations in a row, a pair for each suit: f1, f3, f5, f7 start with an "
            "Ace and build up by suit; f2, f4, f6, f8 start with a King and build down by suit."
        ),
        N_(
            "Twelve stacks of 8: the corner stones C1, C2, C3, C4 (stacks 1, 2, 11, 12) in the "
            "outer columns, and the side stacks S1-S8 (stacks 3-10), one under each foundation."
        ),
        N_(
            "A side stack feeds only the pair of foundations it lies under (S1 and S2 feed f1 "
            "and f2, and so on); a corner stone feeds any foundation."
        ),
        N_(
            "Between stacks a card goes on any card one rank higher or lower, any suit; A and K "
            "are neighbours. An emptied side stack stays empty; an emptied corner stone takes the "
            "top card of any stack."
        ),
        N_("No stock and no redeals."),
    ),
    note=N_(
        "Only a stack's top card (the last of its fan) moves: onto any card one rank higher "
        "or lower, whatever the suit; K and A touch. A side stack (S1-S8) feeds only the pair "
        "of foundations it lies under; a corner stone (C1-C4) feeds any, and an empty one "
        "takes any card. Type a stack by its number or its name: C1 S5."
    ),
    decisions=(
        "Two decks: four rising and four falling suit sequences need 8 x 13 = 104 cards.",
        "Both side stacks of a suit's pair feed that pair of foundations (the source's rows: "
        "each row holds a suit's two foundations between its two side stacks).",
        "Moving the only card of a corner stone to an empty corner stone is no move: every "
        "corner stone plays the same part, so it would change nothing.",
    ),
)

RULES: dict[str, Rules] = {
    r.id: r for r in (CLOVER_LEAF, FOUR_LEAF_CLOVERS, SUPER_FLOWER_GARDEN, TREFOIL, CORNER_STONES)
}
GAMES: dict[str, str] = {r.id: r.name for r in RULES.values()}


def rules_of(game_id: str) -> Rules:
    """The rules of one of the five games, by id."""
    return RULES[game_id]
