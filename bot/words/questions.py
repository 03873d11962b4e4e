"""The yes/no questions of the game flow, in words: a new game over an unfinished one,
and resigning. Their arguments travel in the buttons (``replies.Question.args``); the
answer comes back through ``Core.answer_question``."""

from __future__ import annotations

from engine import GAMES

from ..replies import Ask, Message, Player, Question
from ..store import SavedGame
from .phrases import plural

START_LABEL, KEEP_LABEL = "Start new game", "Keep playing"
RESIGN_LABEL = "Resign"


def new_game_question(
    player: Player, saved: SavedGame, game_id: str, deal: int, draw: bool, *, private: bool
) -> Message:
    """``private``: the player's boards are private, and so is what is asked about them."""
    old = saved.game
    text = (
        f"You have an unfinished **{old.name}** game (deal {old.deal}, "
        f"{plural(old.moves_made, 'move')}). Start **{GAMES[game_id]}** deal {deal} instead? "
        "The unfinished game will count as abandoned."
    )
    args = (str(saved.id), game_id, str(deal)) + (("draw",) if draw else ())
    question = Question(Ask.NEW_GAME, player.user_id, START_LABEL, KEEP_LABEL, args)
    return Message(text, question=question, private=private)


def resign_question(player: Player, saved: SavedGame, *, private: bool) -> Message:
    game = saved.game
    text = (
        f"Resign this **{game.name}** game (deal {game.deal}, {plural(game.moves_made, 'move')})? "
        "It counts as a loss."
    )
    args = (str(saved.id), str(saved.revision))
    question = Question(Ask.RESIGN, player.user_id, RESIGN_LABEL, KEEP_LABEL, args)
    return Message(text, question=question, private=private)
