"""Refusals that carry their facts, so each interface words them its own way.

A refusal is a sentence template plus the facts it is about: which rule (``reason``),
which pile, which card, which moves would do. ``str(err)`` is plain English for any
terminal; ``err.worded(code)`` lets an interface set apart what a player types (Discord
puts it in backticks) without the engine knowing any markup.

>>> err = IllegalMove("{card} can't go on pile {pile}.", "does-not-build", card=Card(0), pile="3")
>>> str(err)
"A♣ can't go on pile 3."
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .cards import Card

__all__ = ["BadSetup", "IllegalMove", "RuleError", "Typed"]


class Typed(str):
    """Text a player types (a move such as ``7 f2``, a command word): an interface may set
    it apart, as Discord's backticks do."""

    __slots__ = ()


class RuleError(ValueError):
    """A refusal: ``template`` with ``facts`` filled in, and the ``reason`` it is refused."""

    def __init__(self, template: str, reason: str = "refused", **facts: Any) -> None:
        self.template = template
        self.reason = reason
        self.facts = facts
        super().__init__(self.worded())

    def worded(self, code: Callable[[str], str] = str) -> str:
        """The sentence; each typed text among the facts is passed through ``code``."""

        def show(value: Any) -> str:
            if isinstance(value, tuple | list):
                return ", ".join(show(v) for v in value)
            if isinstance(value, Typed):
                return code(str(value))
            if isinstance(value, Card):
                return value.label
            return str(value)

        return self.template.format(**{key: show(value) for key, value in self.facts.items()})


class IllegalMove(RuleError):
    """A move that is malformed or against the rules; the game is left unchanged."""


class BadSetup(RuleError):
    """A game that cannot be dealt: an unknown game, a deal number out of range, a house
    rule the game does not have."""
