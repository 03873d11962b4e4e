"""Moves and their text: exactly what a player types after ``/move``."""

from __future__ import annotations

import re
from typing import NamedTuple

from .cards import CARDS, parse_card

PILE, FOUNDATION, REDEAL, DRAW = range(4)


class IllegalMove(ValueError):
    """A move that is malformed or against the rules; the message tells the player why."""


class Move(NamedTuple):
    """One move. ``src``/``dst`` are 0-based; a DRAW names only its card, as ``dst``."""

    kind: int
    src: int = -1
    dst: int = -1

    def __str__(self) -> str:
        if self.kind == PILE:
            return f"{self.src + 1} {self.dst + 1}"
        if self.kind == FOUNDATION:
            return f"{self.src + 1} f{self.dst + 1}"
        if self.kind == REDEAL:
            return "redeal"
        return f"draw {CARDS[self.dst]}"

    @property
    def to_foundation(self) -> bool:
        return self.kind == FOUNDATION


REDEAL_MOVE = Move(REDEAL)

HELP = (
    "A move looks like `7 3` (pile 7 onto pile 3), `7 f2` or `7 f` (to a foundation), "
    "`7` (its only legal move) or `redeal`."
)

MAX_TEXT = 40  # longer text is no move, and is not echoed back
_SEPARATORS = re.compile(r"\s*(?:->|→|,|\bto\b|\bon\b|\bonto\b)\s*|\s+")


def tokens(text: str) -> list[str]:
    """Split a move's text; tolerant of case, commas, arrows and 'to'."""
    return [t for t in _SEPARATORS.split(text.strip().lower()) if t]


class ParsedMove(NamedTuple):
    """Move text before the position is known: ``dst`` may be a bare ``f`` or missing."""

    kind: int
    src: int = -1
    dst: int | None = None  # 0-based pile, 0-based foundation, or None
    any_foundation: bool = False


def parse(text: str) -> ParsedMove:
    """Syntax only; raises IllegalMove on text that is not a move at all."""
    if len(text) > MAX_TEXT:
        raise IllegalMove("That is far too long for a move. " + HELP)
    words = tokens(text)
    if not words:
        raise IllegalMove("That move is empty. " + HELP)
    if words == ["redeal"]:
        return ParsedMove(REDEAL)
    if words[0] == "draw":
        if len(words) != 2:
            raise IllegalMove("A draw names one card: `draw QH`.")
        try:
            return ParsedMove(DRAW, dst=int(parse_card(words[1])))
        except ValueError as err:
            raise IllegalMove(str(err)) from None
    if len(words) > 2:
        raise IllegalMove(f"I don't understand `{text.strip()}`. " + HELP)
    src_word = words[0]
    if src_word.startswith("f"):
        raise IllegalMove("Cards never leave a foundation: a move starts from a pile number.")
    src = _number(src_word, text)
    if len(words) == 1:
        return ParsedMove(PILE, src)
    dst_word = words[1]
    if dst_word == "f":
        return ParsedMove(FOUNDATION, src, None, any_foundation=True)
    if dst_word.startswith("f"):
        return ParsedMove(FOUNDATION, src, _number(dst_word[1:], text, foundation=True))
    return ParsedMove(PILE, src, _number(dst_word, text))


def _number(word: str, text: str, *, foundation: bool = False) -> int:
    if not word.isdigit() or len(word) > 4:
        what = "a foundation like `f2`" if foundation else "a pile number"
        raise IllegalMove(f"`{word}` in `{text.strip()}` is not {what}. " + HELP)
    return int(word) - 1
