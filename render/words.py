"""Every word the pictures show, in one place: a later issue translates them.

The modules that draw call these at drawing time (``words.deal(7)``), never copy them,
so a translation is this one module. Layouts leave room for words about 40% longer than
these English ones (a test draws every picture with each word stretched so): a line that
would not fit shrinks, or the next shorter form of a banner is drawn.
"""

from __future__ import annotations

from engine import Card
from engine.cards import RANK_NAMES


def _plural(count: int, one: str, many: str) -> str:
    return f"{count} {one if count == 1 else many}"


# -- the board's title ------------------------------------------------------------------


def deal(number: int) -> str:
    return f"Deal {number}"


def moves(count: int) -> str:
    return _plural(count, "move", "moves")


def redeals_left(count: int) -> str:
    if count == 0:
        return "no redeals left"
    return f"{_plural(count, 'redeal', 'redeals')} left"


DRAW_AVAILABLE = "draw available"  # Trefoil's draw house rule, not used yet
DRAW_USED = "draw used"
DRAW_RULE = "draw rule"  # on, and not yet available (redeals remain)


def last_move(source: str, target: str) -> str:
    """``source``, ``target``: what a player types for them (``7``, ``f2``)."""
    return f"Last move: {source} → {target}"


LAST_MOVE_REDEAL = "Last move: redeal"


def last_move_draw(card: Card) -> str:
    return f"Last move: draw {card.label}"


# -- foundations ------------------------------------------------------------------------


def next_any(rank: int) -> str:
    """Four Leaf Clovers' one foundation: the rank it takes next, of any suit."""
    return f"next: any {RANK_NAMES[rank - 1]}"


START_ANY_ACE = "any A↑"  # the same foundation while empty

# -- banners: each the longest first; the first that fits is drawn -----------------------


def won(move_count: int) -> tuple[str, ...]:
    return (f"You won in {moves(move_count)}! Every card is home.",
            f"You won in {moves(move_count)}!", "Won!")


def won_with_hints(move_count: int) -> tuple[str, ...]:
    return (f"Won with hints in {moves(move_count)}: every card is home.",
            f"Won with hints in {moves(move_count)}", "Won with hints")


def resigned(move_count: int) -> tuple[str, ...]:
    return (f"Resigned after {moves(move_count)}.", "Resigned")


STUCK = ("Stuck: no move left. Undo or start again.", "Stuck: no move left", "Stuck")
NO_WIN = ("No win is possible from here. Undo or start again.",
          "No win is possible from here", "No win possible")

# -- the stats card ---------------------------------------------------------------------

NO_GAMES = "No finished games yet."


def stats_count(won: int, played: int, assisted: int) -> str:
    """A game's wins on the card: without a hint, out of those played; then with hints."""
    if not played:
        return "not played"
    text = f"{won}/{played} won · {won / played:.0%}" if won else f"0/{played} won"
    return f"{text} · {assisted} with hints" if assisted else text


def stats_count_words(won: int, played: int, assisted: int) -> str:
    """The same, for the card's alt text."""
    if not played:
        return "not played"
    text = f"{won} of {played} won ({won / played:.0%})"
    return f"{text}, {assisted} more won with hints" if assisted else text


# -- alt texts: the pictures in words, for a screen reader (plain text, no Markdown) ------

RANK_WORDS = ("ace", "2", "3", "4", "5", "6", "7", "8", "9", "10", "jack", "queen", "king")
SUIT_WORDS = ("clubs", "diamonds", "hearts", "spades")


def card_words(card: Card) -> str:
    """``queen of hearts``: a card as a screen reader should say it."""
    return f"{RANK_WORDS[card.rank - 1]} of {SUIT_WORDS[card.suit]}"


def alt_header(name: str, deal_number: int, draw_rule: bool, move_count: int,
               redeals: int | None) -> str:
    """The game, its deal and where it stands; ``redeals``: None where there are none."""
    text = f"{name}, deal {deal_number}{', draw rule' if draw_rule else ''}, {moves(move_count)}"
    return text if redeals is None else f"{text}, {redeals_left(redeals)}"


ALT_WON = "Won, every card is home"
ALT_WON_WITH_HINTS = "Won with hints"
ALT_RESIGNED = "Resigned"
ALT_STUCK = "Stuck, no move left"
ALT_NO_WIN = "No win is possible from here"
ALT_FOUNDATIONS = "Foundations"
# The engine's word for a tableau pile ("pile", or Corner Stones' "stack"): as a heading,
# and in the sentence that says how the cards are listed.
ALT_PILES = {"pile": ("Piles", "pile"), "stack": ("Stacks", "stack")}


def alt_card_codes(pile: str) -> str:
    """How a pile's cards are listed: by the codes a player types, which fit every card of
    Corner Stones' 104 within Discord's 1,024 characters (words would not)."""
    return (f"Cards by rank and suit letter (C clubs, D diamonds, H hearts, S spades), "
            f"each {pile} from bottom to top")


ALT_EMPTY = "empty"
ALT_ALL_EMPTY = "all empty"


def alt_foundation(top: Card | None, up: bool, count: int, size: int, suit: int | None,
                   base_rank: int) -> str:
    """A foundation: its top card and how far it has got, or what it takes while empty."""
    direction = "up" if up else "down"
    if top is None:
        which = "any suit" if suit is None else SUIT_WORDS[suit]
        return f"empty, {which} {direction} from {RANK_WORDS[base_rank - 1]}"
    return f"{card_words(top)}, {direction}, {count} of {size}"
