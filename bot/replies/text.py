"""Text as structure: what the core says, with each part saying what it is.

The core chooses the words (from the catalogs, in the player's language); each adapter
decides how they look in its medium. A reply's text is a ``Text``: plain words, and parts
for what a medium shows its own way:

* ``Strong``: words to stand out (Discord: bold; the page: ``<strong>``); ``Em``: a word
  stressed (Discord: italics);
* ``Command``: an action to suggest, by its English command name and arguments (Discord:
  `` `/new trefoil` `` in the reader's language; the console: what its prompt takes; the
  page: the button that does it);
* ``Typed``: what a player types, such as a move or their own text echoed back;
* ``Person``: a member, by id (Discord: a mention that pings nobody);
* ``Moment``: a moment in time, which each reader sees in their own time zone;
* ``Small``: a line of small print;
* ``Share``: a line for the player to copy and share as it is;
* ``OrMenu``: the clause that points at the other way to pick a move, which only a place
  with such a menu words.

A catalog's sentence marks emphasis as ``<b>…</b>`` (stress: ``<i>…</i>``) and leaves
its facts as ``{name}``; ``fill`` turns it into parts after translation, so a translation
can move both. Text
never turns into a string by itself (``format`` refuses): an adapter renders it.
"""

from __future__ import annotations

import re
import string
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Any

__all__ = [
    "Command",
    "Em",
    "Moment",
    "OrMenu",
    "Part",
    "Person",
    "Share",
    "Small",
    "Strong",
    "Text",
    "Typed",
    "fill",
]


@dataclass(frozen=True)
class Strong:
    text: Text


@dataclass(frozen=True)
class Em:
    text: Text


@dataclass(frozen=True)
class Command:
    """An action to suggest: ``name`` is the command's English name (``new``), ``args``
    what follows it, as typed (``trefoil``, ``7 3``); ``language``: that of the sentence
    it is in (a place that names it names it in that language). ``shared``: it is for
    others to type (a deal to share), so a place gives it to copy rather than to press."""

    name: str
    args: tuple[str, ...] = ()
    language: str = "en-US"
    shared: bool = False


@dataclass(frozen=True)
class Typed:
    """Text a player types or typed: a move (``7 f2``), a button's label, an echo."""

    text: str


@dataclass(frozen=True)
class Person:
    user_id: int


@dataclass(frozen=True)
class Moment:
    """Unix seconds."""

    when: int


@dataclass(frozen=True)
class Small:
    """Small print: a line of its own, below the rest."""

    text: Text


@dataclass(frozen=True)
class Share:
    """A line to copy as it is (a daily's result for a channel)."""

    line: str


@dataclass(frozen=True)
class OrMenu:
    """The end of a sentence that lists some legal moves: where the player can pick the
    others (Discord: its menu under the board; a place without one says nothing), in the
    sentence's ``language``."""

    language: str = "en-US"


Part = str | Strong | Em | Command | Typed | Person | Moment | Small | Share | OrMenu


class Text:
    """Words in parts; adding and joining keep the parts. Compared by its parts."""

    __slots__ = ("parts",)
    parts: tuple[Part, ...]

    def __init__(self, *parts: Part | Text) -> None:
        flat: list[Part] = []
        for part in parts:
            for piece in part.parts if isinstance(part, Text) else (part,):
                if isinstance(piece, str):
                    if not piece:
                        continue
                    if flat and isinstance(flat[-1], str):
                        flat[-1] += piece
                        continue
                flat.append(piece)
        self.parts = tuple(flat)

    def __add__(self, other: Text | str) -> Text:
        return Text(self, other)

    def __radd__(self, other: str) -> Text:
        return Text(other, self)

    def __bool__(self) -> bool:
        return bool(self.parts)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Text) and other.parts == self.parts

    def __hash__(self) -> int:
        return hash(self.parts)

    def __repr__(self) -> str:
        return f"Text{self.parts!r}"

    def __format__(self, spec: str) -> str:
        raise TypeError("a Text is rendered by an adapter, never formatted into a string")

    def __str__(self) -> str:  # what Discord's library would send as a message's content
        raise TypeError("a Text is rendered by an adapter, never made a string by itself")

    def __iter__(self) -> Iterator[Part]:
        return iter(self.parts)

    def join(self, items: Iterable[Text | str]) -> Text:
        """``items`` with this text between each two."""
        joined: list[Text | str] = []
        for item in items:
            if joined:
                joined.append(self)
            joined.append(item)
        return Text(*joined)

    def lines(self) -> list[Text]:
        """The text cut at each line break of its words (a part stays whole)."""
        lines: list[list[Part]] = [[]]
        for part in self.parts:
            if isinstance(part, str):
                first, *rest = part.split("\n")
                lines[-1].append(first)
                lines.extend([piece] for piece in rest)
            else:
                lines[-1].append(part)
        return [Text(*line) for line in lines]


_TAG = re.compile(r"(</?[bi]>)")
_FORMATTER = string.Formatter()


def fill(template: str, facts: dict[str, Any] | None = None) -> Text:
    """A translated sentence as parts: ``<b>…</b>`` becomes ``Strong``, ``<i>…</i>``
    ``Em``; each ``{name}``
    the fact of that name (a ``Text``'s parts; anything else formatted as ``str.format``
    would, ``{count:,}`` included). Without facts, braces are the sentence's own (as in
    gettext, they are doubled only where there are facts)."""
    stack: list[list[Part | Text]] = [[]]
    opened: list[str] = []  # the tags open, innermost last

    def literal(text: str) -> None:
        for piece in _TAG.split(text):
            if piece in ("<b>", "<i>"):
                stack.append([])
                opened.append(piece[1])
            elif piece in ("</b>", "</i>") and opened and opened[-1] == piece[2]:
                inner = Text(*stack.pop())
                stack[-1].append(Strong(inner) if opened.pop() == "b" else Em(inner))
            elif piece:
                stack[-1].append(piece)

    if not facts:
        literal(template)
    else:
        for text, name, spec, conversion in _FORMATTER.parse(template):
            literal(text)
            if name is None:
                continue
            value = _FORMATTER.get_field(name, (), facts)[0]
            if isinstance(value, Text):
                stack[-1].append(value)
            else:
                value = _FORMATTER.convert_field(value, conversion)
                stack[-1].append(format(value, spec or ""))
    while len(stack) > 1:  # an unclosed <b>: its words, without emphasis
        words = stack.pop()
        stack[-1].extend(words)
    return Text(*stack[0])
