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
from enum import StrEnum
from typing import Any

from .words import Phrase, Typed

__all__ = ["BadSetup", "IllegalMove", "Reason", "RuleError", "Typed"]


class Reason(StrEnum):
    """Why a move or a deal is refused: each refusal says one (``RuleError.reason``), which
    an interface may act on (Trefoil's draw rule chosen when dealing) and a test may name."""

    REFUSED = "refused"  # no reason more particular
    # The game flow's own (bot/flows/actions.py): of the buttons, and of a scored game's undo
    DOES_NOT_FINISH = "does-not-finish"
    NOTHING_GOES_UP = "nothing-goes-up"
    REDEAL_SEEN = "redeal-seen"
    # The engine's
    BAD_CARD = "bad-card"
    BAD_DEAL = "bad-deal"
    CHANGES_NOTHING = "changes-nothing"
    DOES_NOT_BUILD = "does-not-build"
    DOES_NOT_FEED = "does-not-feed"
    DRAW_NOT_IN_PILE = "draw-not-in-pile"
    DRAW_OFF = "draw-off"
    DRAW_ON_TOP = "draw-on-top"
    DRAW_SYNTAX = "draw-syntax"
    DRAW_TOO_EARLY = "draw-too-early"
    DRAW_USED = "draw-used"
    EMPTY = "empty"
    EMPTY_PILE = "empty-pile"
    FITS_NO_FOUNDATION = "fits-no-foundation"
    FOUNDATION_REFUSES = "foundation-refuses"
    FROM_FOUNDATION = "from-foundation"
    GAME_WON = "game-won"
    NEVER_REFILLED = "never-refilled"
    NOTHING_TO_REDO = "nothing-to-redo"
    NOTHING_TO_UNDO = "nothing-to-undo"
    NOT_A_NUMBER = "not-a-number"
    NOT_UNDERSTOOD = "not-understood"
    NO_DRAW_RULE = "no-draw-rule"
    NO_MOVE = "no-move"
    NO_REDEALS = "no-redeals"
    NO_SUCH_FOUNDATION = "no-such-foundation"
    NO_SUCH_PILE = "no-such-pile"
    REDEALS_USED = "redeals-used"
    SAME_PILE = "same-pile"
    SEVERAL_FOUNDATIONS = "several-foundations"
    SEVERAL_PLACES = "several-places"
    TOO_LONG = "too-long"
    UNKNOWN_GAME = "unknown-game"


class RuleError(ValueError):
    """A refusal: ``template`` with ``facts`` filled in, and the ``reason`` it is refused."""

    def __init__(self, template: str, reason: Reason = Reason.REFUSED, **facts: Any) -> None:
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

