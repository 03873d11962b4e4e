"""A hint in a player's words, from the facts the solver found: the step (a press of
Auto-finish or To foundations, or one move, said plainly), how many moves its winning line
has left, or that no win is possible and how far to undo."""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine import CARDS, DRAW, FOUNDATION, REDEAL, Game, Move

from .phrases import code, plural

if TYPE_CHECKING:
    from ..workers.solver import HintAnswer

AUTO_FINISH, TO_FOUNDATIONS = "auto-finish", "to-foundations"


def hint_words(game: Game, found: HintAnswer) -> str:
    if found.winning and found.action == AUTO_FINISH:
        return ("Hint: press **Auto-finish**: every card left goes straight to the "
                "foundations, and the game is won.")
    left = _left(found.moves_left)
    if found.winning and found.action == TO_FOUNDATIONS:
        going = len(game.copy().play_to_foundations())
        return (f"Hint: press **To foundations**: {plural(going, 'card')} go up, and the "
                f"winning line goes on from there. {left}")
    if found.winning and found.move is not None:
        move = game.resolve(found.move)
        return (f"Hint: {code(str(move))} — {explain(game, move)}. It is on a winning line"
                + (f": {left}" if left else "."))
    total = game.rules.card_count
    if found.lost:
        lines = ["**No win is possible from here.**"]
        if found.undo_to_win is not None:
            lines[0] += (f" Undo {plural(found.undo_to_win, 'move')} to reach a position that "
                         "can still be won.")
        elif game.moves_made and not game.is_stuck:
            lines[0] += " Undo a few moves and try another way, or `/new` for another deal."
        if found.move is not None:
            move = game.resolve(found.move)
            lines.append(f"Meanwhile {code(str(move))} — {explain(game, move)} — puts the most "
                         f"cards up ({found.cards_up} of {total}).")
        return "\n".join(lines)
    if found.move is None:
        return "No move to hint at: the game is over."
    move = game.resolve(found.move)
    return (f"Hint: {code(str(move))} — {explain(game, move)}. No winning line was found in "
            f"the time I had; this one puts the most cards up ({found.cards_up} of {total}).")


def explain(game: Game, move: Move) -> str:
    """A legal move said plainly, before it is played: ``2♥ up to its foundation f3``,
    ``9♣ onto 10♣ in pile 3``."""
    if move.kind == REDEAL:
        return (f"redeal: gather the {game.rules.pile_word}s and deal them again "
                f"({game.redeals_left} left)")
    if move.kind == DRAW:
        return f"the draw: bring {CARDS[move.dst].label} to the top of its {game.rules.pile_word}"
    card = game.tableau[move.src][-1].label
    if move.kind == FOUNDATION:
        return f"{card} up to its foundation f{move.dst + 1}"
    target = game.tableau[move.dst]
    where = f"{game.rules.pile_word} {game.pile_name(move.dst)}"
    if target:
        return f"{card} onto {target[-1].label} in {where}"
    return f"{card} to the empty {where}"


def _left(moves: int | None) -> str:
    return "" if moves is None else f"{plural(moves, 'move')} left."
