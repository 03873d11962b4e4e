"""Refusals that carry their facts, so each interface words them its own way.

A refusal is a sentence template plus the facts it is about: which rule (``reason``),
which pile, which card, which moves would do. ``str(err)`` is plain English for any
terminal; ``err.worded(code, translate=..., card=...)`` (the hooks of ``Phrase.worded``,
words.py) lets an interface choose the words: its language's template, its cards, and
what a player types set apart (Discord puts it in backticks).

>>> err = IllegalMove("{card} can't go on pile {pile}.", "does-not-build", card=Card(0), pile="3")
>>> str(err)
"A♣ can't go on pile 3."

Every template is one literal string, the first argument of its call, so that Babel finds
it for the bot's catalog. The extraction keywords (each takes its first argument) are::

    IllegalMove  BadSetup  RuleError  Phrase  joined  N_

(``pybabel extract -k IllegalMove -k BadSetup -k RuleError -k Phrase -k joined -k N_``).
A template's facts never hold English words: a phrase inside a phrase is a ``Phrase``,
words linking a list come from ``joined``, and tests/engine/test_words.py checks all this.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .words import Phrase, Typed

__all__ = ["BadSetup", "IllegalMove", "RuleError", "Typed"]


class RuleError(ValueError):
    """A refusal: ``template`` with ``facts`` filled in, and the ``reason`` it is refused."""

    def __init__(self, template: str, reason: str = "refused", **facts: Any) -> None:
        self.template = template
        self.reason = reason
        self.facts = facts
        super().__init__(self.worded())

    @property
    def phrase(self) -> Phrase:
        """The refusal as a phrase, for an interface to word in its language."""
        return Phrase(self.template, **self.facts)

    def worded(self, code: Callable[[str], str] = str, **hooks: Any) -> str:
        """The sentence; typed text among the facts through ``code``, and the other hooks
        of ``Phrase.worded`` (``translate``, ``card``, ``rank``, ``figure``)."""
        return self.phrase.worded(code, **hooks)


class IllegalMove(RuleError):
    """A move that is malformed or against the rules; the game is left unchanged."""


class BadSetup(RuleError):
    """A game that cannot be dealt: an unknown game, a deal number out of range, a house
    rule the game does not have."""

