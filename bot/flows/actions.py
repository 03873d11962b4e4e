"""An action applied to a saved game: the engine does it (or refuses, saying why), and
this says what happened in a line. Pure: the game flow loads, saves and shows."""

from __future__ import annotations

from engine import IllegalMove

from ..replies import Action
from ..store import RESIGNED, SavedGame
from ..words.phrases import code, played, plural, refused

CONFIRMED = "confirmed"  # the argument of a RESIGN the player has said yes to
AUTO_AFTER = (Action.MOVE, Action.REDO, Action.REDEAL)  # never after an undo: it would replay


def apply(saved: SavedGame, action: Action, arg: str | None) -> str:
    """Apply ``action`` to the saved game; the line that says what happened.

    Raises IllegalMove, with the game unchanged, when it cannot be done.
    """
    game = saved.game
    if action is Action.MOVE:
        move = game.play(arg or "")
        return f"Played {played(game, move)}."
    if action is Action.UNDO:
        move = game.undo()
        saved.undos += 1
        return f"Took back {code(str(move))}."
    if action is Action.REDO:
        move = game.redo()
        return f"Replayed {played(game, move)}."
    if action is Action.REDEAL:
        game.play("redeal")
        return (
            "Redealt: the pile cards were shuffled and dealt again "
            f"({game.redeals_left} left)."
        )
    if action is Action.TO_FOUNDATIONS:
        moves = game.play_to_foundations()
        if not moves:
            raise IllegalMove("No card can go to a foundation now.", "nothing-goes-up")
        texts = ", ".join(code(str(m)) for m in moves)
        return f"{plural(len(moves), 'card')} to the foundations: {texts}."
    if action is Action.AUTO_FINISH:
        if not game.finishes_itself():
            raise IllegalMove(
                "Auto-finish works once every card left can go straight to the foundations.",
                "does-not-finish",
            )
        moves = game.play_to_foundations()
        return f"Auto-finished: {plural(len(moves), 'card')} to the foundations."
    if action is Action.RESIGN:
        saved.status = RESIGNED
        return ""  # the board's ending says it
    raise ValueError(f"unknown action {action!r}")


def refusal_with_choices(saved: SavedGame, action: Action, err: IllegalMove) -> str:
    """A refused action's message, with the moves that would work instead."""
    message = refused(err)
    game = saved.game
    if err.reason == "draw-off":  # it is chosen with the deal: say how
        command = code(f"/new {game.game_id} {game.deal} draw:True")
        message += f" It is chosen when a game is dealt: {command} deals this one with it."
    if action is not Action.MOVE:
        return message
    moves = saved.game.legal_moves()
    if not moves:
        return message
    shown = ", ".join(code(str(m)) for m in moves[:8])
    more = f" and {len(moves) - 8} more" if len(moves) > 8 else ""
    return f"{message}\nLegal now: {shown}{more} — or pick one from the menu under your board."
