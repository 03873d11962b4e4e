"""A hint in a player's words, from the facts the solver found: the step (a press of
Auto-finish or To foundations, or one move, said plainly), how many moves its winning line
has left, or that no win is possible and how far to undo; while a redeal is to come, how
often its plan wins over the shuffles a player cannot know."""

from __future__ import annotations

from typing import Protocol

from engine import CARDS, DRAW, FOUNDATION, REDEAL, Game, Move, Rules
from engine.solver import AUTO_FINISH, TO_FOUNDATIONS

from ..replies import BUTTON_LABELS, Action
from ..replies.text import Text
from .language import _, current, label, n_
from .phrases import code, command, for_piles
from .typed import as_typed


class HintFacts(Protocol):
    """What a hint found (the solver worker's ``HintAnswer``): the facts to word."""

    @property
    def move(self) -> str | None: ...
    @property
    def winning(self) -> bool: ...
    @property
    def lost(self) -> bool: ...
    @property
    def action(self) -> str | None: ...
    @property
    def moves_left(self) -> int | None: ...
    @property
    def undo_to_win(self) -> int | None: ...
    @property
    def cards_up(self) -> int: ...
    @property
    def shuffles(self) -> int | None: ...
    @property
    def shuffles_won(self) -> int | None: ...


def hint_words(game: Game, found: HintFacts, *, lost_as_dealt: bool = False,
               undo_reach: int | None = None) -> Text:
    """``found`` in the player's words. ``lost_as_dealt``: the deal itself is proven lost,
    so no undo can help and none is spoken of. ``undo_reach``: how many moves undo can take
    back (a scored game's undo stops at its last redeal); None: every one."""
    if found.winning and found.action == AUTO_FINISH:
        return _("Hint: press <b>{button}</b>: every card left goes straight to the "
                 "foundations, and the game is won.",
                 button=label(BUTTON_LABELS[Action.AUTO_FINISH]))
    if found.winning and found.action == TO_FOUNDATIONS:
        going = len(game.copy().play_to_foundations())
        press = n_("Hint: press <b>{button}</b>: {count} card goes up, and the winning line "
                   "goes on from there.",
                   "Hint: press <b>{button}</b>: {count} cards go up, and the winning line "
                   "goes on from there.", going,
                   button=label(BUTTON_LABELS[Action.TO_FOUNDATIONS]))
        return Text(" ").join(s for s in (press, _left(found.moves_left)) if s)
    if found.winning and found.move is not None:
        step = _step(game, game.resolve(found.move))
        winning = (_("It is on a winning line.") if found.moves_left is None
                   else n_("It is on a winning line: {count} move left.",
                           "It is on a winning line: {count} moves left.", found.moves_left))
        return Text(" ").join((step, winning))
    up = {"up": found.cards_up, "total": game.rules.card_count}
    if found.shuffles is not None and found.move is not None:
        return _before_a_redeal(game, game.resolve(found.move), found, up)
    if found.lost:
        verdict = [_("<b>No win is possible from here.</b>")]
        if game.lost_as_dealt(lost_as_dealt):
            verdict = [_("<b>No win is possible from this deal</b> — {new} deals another.",
                         new=command("new"))]
        elif found.undo_to_win is not None and (undo_reach is None
                                                or found.undo_to_win <= undo_reach):
            verdict.append(n_("Undo {count} move to reach a position that can still be won.",
                              "Undo {count} moves to reach a position that can still be won.",
                              found.undo_to_win))
        elif undo_reach is not None and (found.undo_to_win is not None or not undo_reach):
            verdict.append(_("In a scored game undo stops at the last redeal, and no position "
                             "it can reach from here is known to be winnable."))
        elif game.moves_made and not game.is_stuck:
            verdict.append(_("Undo a few moves and try another way, or {new} for another deal.",
                             new=command("new")))
        lines = [Text(" ").join(verdict)]
        if found.move is not None:
            move = game.resolve(found.move)
            lines.append(_("Meanwhile {move} — {explained} — puts the most cards up ({up} of "
                           "{total}).", move=code(as_typed(str(move))),
                           explained=explain(game, move), **up))
        return Text("\n").join(lines)
    if found.move is None:
        return _("No move to hint at: the game is over.")
    step = _step(game, game.resolve(found.move))
    return Text(" ").join((step, _("No winning line was found in the time I had; this one "
                                   "puts the most cards up ({up} of {total}).", **up)))


def _before_a_redeal(game: Game, move: Move, found: HintFacts, up: dict[str, int]) -> Text:
    """The step of a plan over sampled shuffles (no win in this deal), and how often the
    plan wins: the next shuffle is unknown to the player, and so to the hint."""
    if move.kind == REDEAL:
        plan = _("This deal can't be won without a redeal, and no one can know its shuffle.")
    else:
        plan = _("This deal can't be won without a redeal, and no one can know its shuffle: "
                 "play on to {up} of {total} cards up, then redeal.", **up)
    shuffles, won = found.shuffles or 0, found.shuffles_won or 0
    if won == 0:
        odds = _("That wins in none of the {count} shuffles tried.", count=shuffles)
    elif won == shuffles:
        odds = _("That wins in all {count} shuffles tried.", count=shuffles)
    else:
        # Rounded to 5%: a figure from a few dozen samples says no more.
        percent = min(95, max(5, 5 * round(20 * won / shuffles)))
        odds = _("That wins in about {percent}% of shuffles.", percent=percent)
    return Text(" ").join((_step(game, move), plan, odds))


def _step(game: Game, move: Move) -> Text:
    # Translators: {explained} is a move said plainly, such as "2♥ up to its foundation f3".
    return _("Hint: {move} — {explained}.", move=code(as_typed(str(move))),
             explained=explain(game, move))


def explain(game: Game, move: Move) -> Text:
    """A legal move said plainly, before it is played: ``2♥ up to its foundation f3``,
    ``9♣ onto 10♣ in pile 3``. A clause, said inside a hint's sentence."""
    rules = game.rules
    if move.kind == REDEAL:
        left = game.redeals_left
        return _for_piles(
            rules,
            n_("gather the piles and deal them again ({count} left)",
               "gather the piles and deal them again ({count} left)", left),
            n_("gather the stacks and deal them again ({count} left)",
               "gather the stacks and deal them again ({count} left)", left),
        )
    words = current()
    if move.kind == DRAW:
        drawn = {"card": words.card(CARDS[move.card])}
        return _for_piles(rules, _("the draw: bring {card} to the top of its pile", **drawn),
                          _("the draw: bring {card} to the top of its stack", **drawn))
    card = words.card(game.tableau[move.src][-1])
    if move.kind == FOUNDATION:
        return _("{card} up to its foundation {foundation}", card=card,
                 foundation=f"f{move.dst + 1}")
    target = game.tableau[move.dst]
    facts = {"card": card, "name": game.pile_name(move.dst)}
    if target:
        top = words.card(target[-1])
        return _for_piles(rules, _("{card} onto {top} in pile {name}", top=top, **facts),
                          _("{card} onto {top} in stack {name}", top=top, **facts))
    return _for_piles(rules, _("{card} to the empty pile {name}", **facts),
                      _("{card} to the empty stack {name}", **facts))


def _for_piles(rules: Rules, pile: Text, stack: Text) -> Text:
    """``for_piles`` for sentences: the one worded with the game's own word for a pile."""
    return stack if for_piles(rules, "pile", "stack") == "stack" else pile


def _left(moves: int | None) -> Text:
    if moves is None:
        return Text()
    return n_("{count} move left.", "{count} moves left.", moves)
