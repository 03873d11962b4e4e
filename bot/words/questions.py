"""The yes/no questions of the game flow, in words: a new game over an unfinished one,
and resigning. Their arguments travel in the buttons (``replies.Question.args``); the
answer comes back through ``Core.answer_question``."""

from __future__ import annotations

from engine import GAMES

from ..flows.wanted import Wanted
from ..replies import Ask, Message, Player, Question
from ..store import SavedGame
from .phrases import plural

START_LABEL, KEEP_LABEL = "Start new game", "Keep playing"
RESIGN_LABEL = "Resign"


def new_game_question(
    player: Player, saved: SavedGame, wanted: Wanted, *, private: bool
) -> Message:
    """Start the ``wanted`` game (a proven-winnable deal is taken only if the answer is yes)
    over the player's unfinished game? The question says what leaving it means: nothing
    for a game never moved in, an abandoned game otherwise, and for a scored daily attempt
    or a challenge's game, what becomes of it. ``private``: the player's boards are
    private, and so is what is asked about them."""
    game_id, deal = wanted.game_id, wanted.deal
    old = saved.game
    untouched = not old.moves_made and not saved.undos
    if untouched:
        lead = f"You have a **{old.name}** game you have not moved in yet (deal {old.deal})."
        fate = "Leaving it counts for nothing."
    else:
        lead = (f"You have an unfinished **{old.name}** game (deal {old.deal}, "
                f"{plural(old.moves_made, 'move')}).")
        fate = "Leaving it counts as abandoned: played, not won."
    if saved.daily is not None:
        fate += (
            f" It is your scored attempt at the daily deal of {saved.daily}: "
            + ("that attempt stays used up." if untouched
               else "it goes on that day's board as not won.")
        )
    if saved.challenge_id is not None and not untouched:
        fate += " It is your game of a challenge: you leave it, as having left the game."
    if wanted.challenge is not None:
        fate += " The new one is your game of the challenge."
    what = (f"a proven-winnable **{GAMES[game_id]}** deal" if deal is None
            else f"**{GAMES[game_id]}** deal {deal}")
    text = f"{lead} Start {what} instead? {fate}"
    args = (str(saved.id), *wanted.tokens())
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
