"""What the engine hands over to be worded: templates with facts, never a finished sentence
in one language.

The engine knows no language. A refusal, a foundation's name, the measured odds are each a
``Phrase``: an English template and the facts it is about. ``str()`` fills it in as plain
English; ``worded()`` takes hooks with which an interface chooses the words: ``translate``
each template (nested ones too) through its catalog, write cards, ranks and figures as its
language does, and set apart what a player types (``code``). The templates are the keys of
the bot's catalog, extracted by the keywords listed in errors.py.

Text that is data rather than a phrase (a game's rules in rules.py) is marked with ``N_``
for the catalog and translated where it is shown.

>>> where = joined("{head} and {tail}", ["f1", "f2"])
>>> str(Phrase("{card} fits {where}.", card=Card(0), where=where))
'A♣ fits f1 and f2.'
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from .cards import RANK_NAMES, Card

__all__ = ["N_", "Figure", "Phrase", "Rank", "Typed", "joined"]


def N_(message: str) -> str:
    """Marks ``message`` for the bot's catalog; it is translated where it is shown."""
    return message


class Typed(str):
    """Text a player types (a move such as ``7 f2``, a command word): never translated, and
    an interface may set it apart, as Discord's backticks do."""

    __slots__ = ()


class Rank(int):
    """A card's rank alone (1 Ace to 13 King), as in ``any {rank}``: each language writes
    it as its cards print it."""

    __slots__ = ()

    def __str__(self) -> str:
        return _rank_name(self)


@dataclass(frozen=True)
class Figure:
    """A measured number: ``value`` with ``places`` decimals, or with ``percent`` a share of
    1 shown as a percentage (0.209 -> ``20.9%``). Each language writes its own digits."""

    value: float
    places: int = 0
    percent: bool = False

    def __str__(self) -> str:
        if self.percent:
            return f"{100 * self.value:.{self.places}f}%"
        return f"{self.value:,.{self.places}f}"


def _as_is(template: str) -> str:
    return template


def _label(card: Card) -> str:
    return card.label


def _rank_name(rank: int) -> str:
    return RANK_NAMES[rank - 1]


class Phrase:
    """A template (``"{card} can't go on {top}: {rule}."``) and its facts, which may be
    phrases themselves. A list of facts is joined with commas; ``joined`` links phrases
    with words."""

    __slots__ = ("facts", "template")

    def __init__(self, template: str, /, **facts: Any) -> None:
        self.template = template
        self.facts = facts

    def worded(
        self,
        code: Callable[[str], str] = str,
        *,
        translate: Callable[[str], str] = _as_is,
        card: Callable[[Card], str] = _label,
        rank: Callable[[int], str] = _rank_name,
        figure: Callable[[Figure], str] = str,
    ) -> str:
        """The phrase filled in: each template through ``translate`` before its facts go in
        (a translation may reorder them), typed text through ``code``, cards, ranks and
        figures through their hooks."""

        def fill(phrase: Phrase) -> str:
            text = translate(phrase.template)
            if not phrase.facts:  # as gettext messages: braces are doubled only with facts
                return text
            return text.format(**{key: show(value) for key, value in phrase.facts.items()})

        def show(value: Any) -> str:
            if isinstance(value, Phrase):
                return fill(value)
            if isinstance(value, tuple | list):
                return ", ".join(show(v) for v in value)
            if isinstance(value, Typed):
                return code(str(value))
            if isinstance(value, Card):
                return card(value)
            if isinstance(value, Rank):
                return rank(int(value))
            if isinstance(value, Figure):
                return figure(value)
            return str(value)

        return fill(self)

    def __str__(self) -> str:
        return self.worded()

    def __repr__(self) -> str:
        facts = "".join(f", {key}={value!r}" for key, value in self.facts.items())
        return f"Phrase({self.template!r}{facts})"

    def __eq__(self, other: object) -> bool:
        return (isinstance(other, Phrase) and self.template == other.template
                and self.facts == other.facts)

    def __hash__(self) -> int:
        return hash(self.template)


def joined(link: str, items: Sequence[Any]) -> Any:
    """``items`` (one or more) as one fact, each two neighbours linked by the template
    ``link`` (``"{head}; {tail}"``, ``"{head} and {tail}"``), which a translator words."""
    *rest, fact = items
    for item in reversed(rest):
        fact = Phrase(link, head=item, tail=fact)
    return fact
