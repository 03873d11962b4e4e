"""The five solitaire games: pure rules, no I/O.

>>> game = new_game("trefoil", 42)
>>> game.play("7 3")  # doctest: +SKIP
"""

from .cards import CARDS, Card, parse_card
from .errors import BadSetup, IllegalMove, Reason, RuleError, Typed
from .game import MAX_DEAL, Game, check_setup, new_game
from .moves import DRAW, FOUNDATION, PILE, REDEAL, Move, MoveKind
from .places import PLACES, Place, Places
from .rules import GAMES, RULES, Arrangement, FoundationSpec, Rules
from .words import Phrase

__all__ = [
    "CARDS",
    "DRAW",
    "FOUNDATION",
    "GAMES",
    "MAX_DEAL",
    "PILE",
    "PLACES",
    "REDEAL",
    "RULES",
    "Arrangement",
    "BadSetup",
    "Card",
    "FoundationSpec",
    "Game",
    "IllegalMove",
    "Move",
    "MoveKind",
    "Phrase",
    "Place",
    "Places",
    "Reason",
    "RuleError",
    "Rules",
    "Typed",
    "check_setup",
    "new_game",
    "parse_card",
]
