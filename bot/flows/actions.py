"""An action applied to a saved game: the engine does it (or refuses, saying why), and
this says what happened in a line. Pure: the game flow loads, saves and shows."""

from __future__ import annotations

from engine import REDEAL, IllegalMove, Reason

from ..replies import Action, BoardRef
from ..replies.player_actions import CHANGES_GAME
from ..replies.text import OrMenu, Text
from ..store import RESIGNED, SavedGame
from ..words.language import _, current, n_
from ..words.phrases import code, command, option, played, refused
from ..words.typed import as_english, as_typed

CONFIRMED = "confirmed"  # the argument of a RESIGN the player has said yes to
SHOWN = 8  # legal moves named in a refusal, at most


def plays_at_once(cached: SavedGame, action: Action, arg: str | None,
                  seen: BoardRef | None) -> bool:
    """Whether ``action`` goes straight to playing on ``cached``, the copy of the game kept
    in memory (``GameStore.cached``): it changes the game, and nothing on the copy would
    stop it first (a finished game, a board pressed that is not the copy's, a resignation
    not yet confirmed). Anything else is decided on the stored game."""
    return (action in CHANGES_GAME and not cached.is_finished
            and (seen is None or seen == BoardRef(cached.id, cached.revision))
            and (action is not Action.RESIGN or arg == CONFIRMED))


def undo_reach(saved: SavedGame) -> int | None:
    """How many moves undo can take back (None: every one). In a scored game (a daily
    attempt, a challenge's or a race's game) it stops at the last redeal: a shuffle seen
    stays seen (RULES.md), for undone and redealt it falls the same way, and a player could
    look at every shuffle before choosing a line."""
    if not saved.scored:
        return None
    history = saved.game.history
    redeals = [i for i, move in enumerate(history) if move.kind == REDEAL]
    return len(history) - redeals[-1] - 1 if redeals else None


def undo_stops(saved: SavedGame) -> bool:
    """Whether undo stops here: the last move is a redeal, in a scored game."""
    return undo_reach(saved) == 0


def apply(saved: SavedGame, action: Action, arg: str | None) -> Text:
    """Apply ``action`` to the saved game; the line that says what happened.

    Raises IllegalMove, with the game unchanged, when it cannot be done.
    """
    game = saved.game
    if action is Action.MOVE:
        move = game.play(as_english(arg or ""))
        return _("Played {move}.", move=played(game, move))
    if action is Action.UNDO:
        if undo_stops(saved):
            raise IllegalMove("In a scored game (a daily deal, a challenge, a race) undo "
                              "stops at the last redeal: its shuffle has been seen, and a "
                              "shuffle seen stays seen.", Reason.REDEAL_SEEN)
        move = game.undo()
        saved.undos += 1
        if move.kind != REDEAL:
            return _("Took back {move}.", move=code(as_typed(str(move))))
        saved.hints_to_add += 1  # elsewhere, a shuffle seen is help, as a hint is
        return _("Took back {move}. Its shuffle has been seen, so this game now counts as "
                 "assisted, as after a hint.", move=code(as_typed(str(move))))
    if action is Action.REDO:
        move = game.redo()
        return _("Replayed {move}.", move=played(game, move))
    if action is Action.REDEAL:
        game.play("redeal")
        return n_("Redealt: the pile cards were shuffled and dealt again ({count} left).",
                  "Redealt: the pile cards were shuffled and dealt again ({count} left).",
                  game.redeals_left)
    if action is Action.TO_FOUNDATIONS:
        moves = game.play_to_foundations()
        if not moves:  # the engine's kind of refusal: worded by ``refused`` like its own
            raise IllegalMove("No card can go to a foundation now.", Reason.NOTHING_GOES_UP)
        return n_("{count} card to the foundations: {moves}.",
                  "{count} cards to the foundations: {moves}.", len(moves),
                  moves=Text(", ").join(code(str(m)) for m in moves))
    if action is Action.AUTO_FINISH:
        if not game.finishes_itself():
            raise IllegalMove(
                "Auto-finish works once every card left can go straight to the foundations.",
                Reason.DOES_NOT_FINISH,
            )
        moves = game.play_to_foundations()
        return n_("Auto-finished: {count} card to the foundations.",
                  "Auto-finished: {count} cards to the foundations.", len(moves))
    if action is Action.RESIGN:
        saved.status = RESIGNED
        return Text()  # the board's ending says it
    raise ValueError(f"unknown action {action!r}")


def refusal_with_choices(saved: SavedGame, action: Action, err: IllegalMove) -> Text:
    """A refused action's message, with the moves that would work instead."""
    message = refused(err)
    game = saved.game
    if err.reason is Reason.DRAW_OFF:  # a Trefoil dealt without it: it is chosen with the deal
        with_draw = command("new", game.game_id, str(game.deal_number), option("draw", "True"))
        how = _("It is chosen when a game is dealt: {new} deals this one with it.", new=with_draw)
        message = message + " " + how
    if action is not Action.MOVE:
        return message
    moves = saved.game.legal_moves()
    if not moves:
        return message
    shown = Text(", ").join(code(str(m)) for m in moves[:SHOWN])
    or_menu = Text(OrMenu(current().code))  # where the rest can be picked, if a menu is there
    if len(moves) > SHOWN:
        legal = n_("Legal now: {moves} and {count} more{or_menu}.",
                   "Legal now: {moves} and {count} more{or_menu}.", len(moves) - SHOWN,
                   moves=shown, or_menu=or_menu)
    else:
        legal = _("Legal now: {moves}{or_menu}.", moves=shown, or_menu=or_menu)
    return message + "\n" + legal
