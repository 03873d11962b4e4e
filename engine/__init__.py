"""The five solitaire games: pure rules, no I/O.

>>> game = new_game("trefoil", 42)
>>> game.play("7 3")  # doctest: +SKIP
"""

from .cards import CARDS, Card, parse_card
from .game import MAX_DEAL, Game, new_game
from .moves import DRAW, FOUNDATION, PILE, REDEAL, IllegalMove, Move
from .rules import GAMES, RULES, FoundationSpec, Rules

__all__ = [
    "CARDS",
    "DRAW",
    "FOUNDATION",
    "GAMES",
    "MAX_DEAL",
    "PILE",
    "REDEAL",
    "RULES",
    "Card",
    "FoundationSpec",
    "Game",
    "IllegalMove",
    "Move",
    "Rules",
    "new_game",
    "parse_card",
]
