"""The yes/no questions of the game flow, in words: a new game over an unfinished one,
and resigning. Their arguments travel in the buttons (``replies.Question.args``); the
answer comes back through ``Core.answer_question``."""

from __future__ import annotations

from engine import GAMES

from ..replies import Ask, DealRequest, Message, Player, Question
from ..replies.text import Text
from ..store import SavedGame
from .language import N_, _, label, n_

# Translators: the two buttons of a question; the console answers by typing one, so the
# two of each question must differ.
START_LABEL, KEEP_LABEL = N_("Start new game"), N_("Keep playing")
RESIGN_LABEL = N_("Resign")


def new_game_question(
    player: Player, saved: SavedGame, request: DealRequest, *, private: bool
) -> Message:
    """Start the requested game (a proven-winnable deal is taken only if the answer is yes)
    over the player's unfinished game? The question says what leaving it means: nothing
    for a game never moved in, an abandoned game otherwise, and for a scored daily attempt
    or a challenge's game, what becomes of it. ``private``: the player's boards are
    private, and so is what is asked about them."""
    game_id, deal = request.game_id, request.deal
    old = saved.game
    untouched = saved.untouched
    facts = {"game": old.name, "deal": old.deal_number}
    if untouched:
        lines = [_("You have a <b>{game}</b> game you have not moved in yet (deal {deal}).",
                   **facts)]
    elif not old.own_moves:  # back at the deal: "0 moves", and yet moved in
        lines = [_("You have a <b>{game}</b> game (deal {deal}) whose moves you have all taken "
                   "back: it was moved in.", **facts)]
    else:
        lines = [n_("You have an unfinished <b>{game}</b> game (deal {deal}, {count} "
                    "move).",
                    "You have an unfinished <b>{game}</b> game (deal {deal}, {count} "
                    "moves).",
                    old.moves_made, **facts)]
    wanted_facts = {"game": GAMES[game_id], "deal": deal}
    lines.append(
        _("Start a proven-winnable <b>{game}</b> deal instead?", **wanted_facts) if deal is None
        else _("Start <b>{game}</b> deal {deal} instead?", **wanted_facts)
    )
    if untouched and saved.daily is not None:  # no game played, and yet the day's try spent
        lines.append(_("Leaving it records no result, but it is your scored attempt at the "
                       "daily deal of {day}, so that attempt stays used up.", day=saved.daily))
    elif untouched and saved.challenge_id is not None:  # no game played; the deal seen
        lines.append(_("Leaving it records no result, but it is your game of a challenge, "
                       "so your go at it is used up, as having left the game."))
    elif untouched:
        lines.append(_("Leaving it counts for nothing."))
    else:
        lines.append(_("Leaving it counts as abandoned: played, not won."))
        if saved.daily is not None:
            lines.append(_("It is your scored attempt at the daily deal of {day}: it goes on "
                           "that day's board as not won.", day=saved.daily))
    if saved.challenge_id is not None and not untouched:
        lines.append(_("It is your game of a challenge: you leave it, as having left the game."))
    if request.challenge is not None:
        lines.append(_("The new one is your game of the challenge."))
    args = (str(saved.id), *request.tokens())
    question = Question(Ask.NEW_GAME, player.user_id, label(START_LABEL), label(KEEP_LABEL), args)
    return Message(Text(" ").join(lines), question=question, private=private)


def resign_question(player: Player, saved: SavedGame, *, private: bool) -> Message:
    game = saved.game
    text = n_("Resign this <b>{game}</b> game (deal {deal}, {count} move)? It counts as a "
              "loss.",
              "Resign this <b>{game}</b> game (deal {deal}, {count} moves)? It counts as a "
              "loss.",
              game.moves_made, game=game.name, deal=game.deal_number)
    args = (str(saved.id), str(saved.revision))
    question = Question(Ask.RESIGN, player.user_id, label(RESIGN_LABEL), label(KEEP_LABEL), args)
    return Message(text, question=question, private=private)
