"""Moves and their text: exactly what a player types after ``/move``."""

from __future__ import annotations

import re
from enum import IntEnum
from typing import NamedTuple

from .cards import CARDS, parse_card
from .errors import IllegalMove, Reason
from .words import Phrase, Typed


class MoveKind(IntEnum):
    """What a move does. An int, as the solver's moves are tuples of ints (``RawMove``)."""

    PILE = 0  # the top card of a pile onto another pile
    FOUNDATION = 1  # the top card of a pile onto a foundation
    REDEAL = 2  # gather the piles and deal them again
    DRAW = 3  # Trefoil's house rule: a buried card brought to the top of its pile


# The kinds by their names alone, as the code says them.
PILE, FOUNDATION, REDEAL, DRAW = MoveKind
_KINDS = tuple(MoveKind)  # by number: quicker than MoveKind(number)

# A move as the solver keeps it, and a game travels to other processes: (kind, src, dst),
# plain ints, a draw's card in place of dst (a draw has no dst).
RawMove = tuple[int, int, int]


class Move(NamedTuple):
    """One move: ``src``, the pile (0-based) a PILE or FOUNDATION move takes its card from;
    ``dst``, the pile or foundation (0-based) it puts it on; ``card``, the card (an int of
    ``engine.cards``) a DRAW brings up. A field the kind has no use for is -1."""

    kind: MoveKind
    src: int = -1
    dst: int = -1
    card: int = -1

    def __str__(self) -> str:
        if self.kind == PILE:
            return f"{self.src + 1} {self.dst + 1}"
        if self.kind == FOUNDATION:
            return f"{self.src + 1} f{self.dst + 1}"
        if self.kind == REDEAL:
            return "redeal"
        return f"draw {CARDS[self.card]}"

    @property
    def raw(self) -> RawMove:
        """The move as the solver keeps it (``RawMove``)."""
        return (int(self.kind), self.src, self.card if self.kind == DRAW else self.dst)

    @classmethod
    def from_raw(cls, raw: RawMove) -> Move:
        kind, src, dst = raw
        if kind == DRAW:
            return cls(DRAW, card=dst)
        return cls(_KINDS[kind], src, dst)


REDEAL_MOVE = Move(REDEAL)

# How to type a move, told after the refusals of text that is no move at all.
HOW_TO_MOVE = Phrase(
    "A move looks like {ex_pile} (pile 7 onto pile 3), {ex_foundation} or {ex_any} (to a "
    "foundation), {ex_only} (its only legal move) or {ex_redeal}.",
    ex_pile=Typed("7 3"), ex_foundation=Typed("7 f2"), ex_any=Typed("7 f"),
    ex_only=Typed("7"), ex_redeal=Typed("redeal"),
)

# The same, where a tableau pile is a stack and has a name too (Corner Stones).
HOW_TO_MOVE_STACKS = Phrase(
    "A move looks like {ex_pile} or {ex_named} (stack 7 onto stack 3), {ex_foundation} or "
    "{ex_any} (to a foundation), {ex_only} (its only legal move).",
    ex_pile=Typed("7 3"), ex_named=Typed("C1 S5"), ex_foundation=Typed("7 f2"),
    ex_any=Typed("7 f"), ex_only=Typed("7"),
)

MAX_TEXT = 40  # longer text is no move, and is not echoed back
_SEPARATORS = re.compile(r"\s*(?:->|→|,|\bto\b|\bon\b|\bonto\b)\s*|\s+")


def tokens(text: str) -> list[str]:
    """Split a move's text; tolerant of case, commas, arrows and 'to'."""
    return [t for t in _SEPARATORS.split(text.strip().lower()) if t]


class ParsedMove(NamedTuple):
    """Move text before the position is known: ``dst`` may be a bare ``f`` or missing."""

    kind: MoveKind
    src: int = -1
    dst: int | None = None  # 0-based pile, 0-based foundation, or None (f: any foundation)
    card: int = -1  # a DRAW's card


def parse(
    text: str, *, names: tuple[str, ...] | None = None, stacks: bool = False
) -> ParsedMove:
    """Syntax only; raises IllegalMove on text that is not a move at all. ``names``: the
    tableau's names besides its numbers (Corner Stones' C1 ... C4, S1 ... S8: what its
    picture and rules show), any case; ``stacks``: refusals say "stack" for a pile."""
    how = HOW_TO_MOVE_STACKS if stacks else HOW_TO_MOVE
    if len(text) > MAX_TEXT:
        raise IllegalMove("That is far too long for a move. {how}", Reason.TOO_LONG, how=how)
    words = tokens(text)
    if not words:
        raise IllegalMove("That move is empty. {how}", Reason.EMPTY, how=how)
    if words == ["redeal"]:
        return ParsedMove(REDEAL)
    if words[0] == "draw":
        if len(words) != 2:
            raise IllegalMove("A draw names one card: {example}.", Reason.DRAW_SYNTAX,
                              example=Typed("draw QH"))
        try:
            return ParsedMove(DRAW, card=int(parse_card(words[1])))
        except ValueError:
            raise IllegalMove(
                "{word} is not a card code (like {examples}).", Reason.BAD_CARD,
                word=Typed(words[1]), examples=(Typed("AS"), Typed("10H"), Typed("KD")),
            ) from None
    if len(words) > 2:
        raise IllegalMove(
            "I don't understand {typed}. {how}", Reason.NOT_UNDERSTOOD,
            typed=Typed(text.strip()), how=how,
        )
    if names:
        number = {name.lower(): str(i + 1) for i, name in enumerate(names)}
        words = [number.get(word, word) for word in words]
    src_word = words[0]
    if src_word.startswith("f") and stacks:
        raise IllegalMove("Cards never leave a foundation: a move starts from a stack.",
                          Reason.FROM_FOUNDATION)
    if src_word.startswith("f"):
        raise IllegalMove(
            "Cards never leave a foundation: a move starts from a pile number.",
            Reason.FROM_FOUNDATION,
        )
    src = _number(src_word, text, stacks=stacks)
    if len(words) == 1:
        return ParsedMove(PILE, src)
    dst_word = words[1]
    if dst_word == "f":
        return ParsedMove(FOUNDATION, src, None)
    if dst_word.startswith("f"):
        return ParsedMove(FOUNDATION, src,
                          _number(dst_word[1:], text, foundation=True, stacks=stacks))
    return ParsedMove(PILE, src, _number(dst_word, text, stacks=stacks))


def _number(word: str, text: str, *, foundation: bool = False, stacks: bool = False) -> int:
    # isascii: str.isdigit also takes "²" and "⑦", which int() refuses. A number too large
    # for any pile is the game's to refuse ("There is no pile 99"), like any other.
    if not (word.isascii() and word.isdigit()):
        facts = {"word": Typed(word), "typed": Typed(text.strip()),
                 "how": HOW_TO_MOVE_STACKS if stacks else HOW_TO_MOVE}
        if foundation:
            raise IllegalMove(
                "{word} in {typed} is not a foundation like {example}. {how}", Reason.NOT_A_NUMBER,
                example=Typed("f2"), **facts,
            )
        if stacks:
            raise IllegalMove(
                "{word} in {typed} is not a stack: a number or a name like {example}. {how}",
                Reason.NOT_A_NUMBER, example=Typed("C1"), **facts,
            )
        raise IllegalMove("{word} in {typed} is not a pile number. {how}", Reason.NOT_A_NUMBER,
                          **facts)
    return int(word) - 1
