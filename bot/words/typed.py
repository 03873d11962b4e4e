"""What a player types, in their language: the words of a move (``redeal``, ``draw``) and
of the move menu (``pick``), and the rank letter of a card code, as the language's cards
print it (a German queen is a ``D``: ``ziehen DH`` is ``draw QH``).

The engine reads English (``Game.play("redeal")``); a player may type either their own
words or the English ones, and is shown their own. ``as_english`` turns what a player typed
into the engine's text; ``as_typed`` turns the engine's text into the player's words.
"""

from __future__ import annotations

from engine.cards import RANK_NAMES

from .language import current, pN_

# TRANSLATORS: a word a player types to play a move or to open a pile's moves in the menu:
# one word, lower case, no space, unlike any of the others (the English one works too).
WORDS = {
    "redeal": pN_("typed word", "redeal"),
    "draw": pN_("typed word", "draw"),
    "pick": pN_("typed word", "pick"),
}


def _word(english: str) -> str:
    return current().word("typed word", WORDS[english]).lower()


def as_english(text: str) -> str:
    """A move (or a menu value) typed in the player's words, as the engine reads it: their
    ``redeal``, ``draw`` and ``pick``, and a drawn card's rank as their cards print it."""
    words = text.split()
    if not words:
        return text
    first = words[0].lower()
    for word in WORDS:
        if first in (word, _word(word)):
            words[0] = word
            break
    if words[0] == "draw" and len(words) == 2:
        words[1] = _english_code(words[1])
    return " ".join(words)


def as_typed(text: str) -> str:
    """The engine's move or menu value (``redeal``, ``draw QH``, ``pick 7``) in the player's
    words (``mischen``, ``ziehen DH``, ``wählen 7`` in German)."""
    words = text.split()
    if words and words[0] in WORDS:
        words[0] = _word(words[0])
        if text.startswith("draw ") and len(words) == 2:
            words[1] = _spoken_code(words[1])
    return " ".join(words)


def _english_code(code: str) -> str:
    """``DH`` typed by a player whose queens print ``D``: ``QH``. A code already English
    is left as it is."""
    rank, suit = code[:-1].upper(), code[-1:].upper()
    if rank in RANK_NAMES:
        return code
    letters = [current().rank(n).upper() for n in range(1, 14)]
    return RANK_NAMES[letters.index(rank)] + suit if rank in letters else code


def _spoken_code(code: str) -> str:
    rank, suit = code[:-1].upper(), code[-1:].upper()
    if rank not in RANK_NAMES:
        return code
    return current().rank(RANK_NAMES.index(rank) + 1) + suit
