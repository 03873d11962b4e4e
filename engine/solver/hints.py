"""Hints that play like an expert: the next step of a tidy winning line, said as one
action where one action does it, and an honest answer where no win is left.

What a hint says, in the order it is decided:

- **Auto-finish** (``action="auto-finish"``): foundation moves alone win from here
  (``Game.finishes_itself``). ``move`` is the first of them.
- **To foundations** (``action="to-foundations"``): the winning line's next step is to
  send up every card that can go (``Game.play_to_foundations``), two cards or more: the
  position that leaves is on the line. ``move`` is the first of those moves.
- **A move** of the winning line. A line is tidied before it is remembered and followed
  (expert_line.py): no position twice, no card put straight back, cards up as soon as that
  costs nothing, and "To foundations" wherever the line sends up every card it can.
  ``moves_left``: the line's single moves from here to the win (each card sent up by an
  action is one), this one included.
- **No win is possible** (``lost``): proven. ``undo_to_win``: the fewest undos that reach
  a position the solver proves winnable, when it can within the budget (and that
  position's winning line is remembered, so the hints after the undos follow it).
  ``move`` leads to the most cards up found, if any more can go up, and never to a
  position the game has been in: following these hints cannot loop; once nothing more
  can go up, ``move`` is None.
- **No win found** within the budget: a move that puts the most cards up found, or
  else the search's first choice, again never back to a position of the game's history.
- **While a redeal is left** (Trefoil, Super Flower Garden), nothing above looks past it:
  its shuffle is unknown to the player, so the hint does not know it either. A win in
  this deal without redealing is a winning hint as above; otherwise the hint is the
  step that wins most often over sampled shuffles (sampled.py): ``shuffles_won`` of
  ``shuffles`` win, heading for ``cards_up`` cards up and then redealing (``move`` is
  "redeal" when that is the step). Such a hint depends on the position alone, never on
  the deal number, and searches a fixed number of positions whatever the budget given.

Searches draw on the hint's budget (seconds or positions); tidying a won line has its
own allowance of positions (expert_line.TIDY_POSITIONS), so the line a hint follows is the
same on every machine whatever the clock.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from ..game import Game
from ..lru import LRU
from . import plan, sampled
from .budget import Budget
from .expert_line import finishing_moves, tidy
from .keys import key_function
from .lines import PLANS, Step
from .model import REDEAL_RAW, Model, Position, RawMove, model_for_rules, move_text
from .verdict import Verdict

AUTO_FINISH = "auto-finish"
TO_FOUNDATIONS = "to-foundations"


@dataclass(frozen=True)
class Hint:
    """The next move to suggest, and how much to trust it (see the module's text).

    ``move`` is move text for ``Game.play`` (None when there is none to suggest).
    ``winning``: the move starts a line proven to win. ``lost``: no win is possible from
    here (proven). ``note`` says so in a player's words. ``action``: None, AUTO_FINISH or
    TO_FOUNDATIONS. ``moves_left``: single moves of the winning line from here (None
    when not winning). ``undo_to_win``: on a lost game, the fewest undos to a position
    proven winnable (None when not lost, or not found within the budget).
    ``positions``: searched within the budget (a won line's tidying is not counted).
    ``shuffles``: while a redeal is left and no win in this deal is found, the shuffles
    sampled, of which ``shuffles_won`` win following this hint's plan (None otherwise:
    the hint does not depend on a shuffle).
    """

    move: str | None
    winning: bool
    lost: bool
    note: str
    positions: int = 0
    cards_up: int = 0
    # The winning line this hint planned, when it planned one (not when it followed a
    # remembered line): for ``remember`` in another process than the one that searched.
    line: tuple[RawMove, ...] = ()
    action: str | None = None
    moves_left: int | None = None
    undo_to_win: int | None = None
    shuffles: int | None = None
    shuffles_won: int | None = None


WINNING_NOTE = "This move is part of a winning line."
# Of a hint's budget, kept for the line that puts the most cards up when no win is
# found: from the search for a win in a redeal game (the plan within the deal), and
# from the search back for a winnable position in a lost game. The same share of
# seconds or of positions, since that plan costs about what the search through the
# redeals costs per position (Super Flower Garden, measured: 260k and 230k a second).
MOST_UP_SHARE = 0.3
PATH_KEPT = 500  # positions of a game's history that a new line keeps away from
UNDOS_SEARCHED = 200  # positions of a lost game's history searched for a winnable one
# Positions proven lost (Plans.key): each about 100 bytes, so a few MB at most.
PROVEN_LOST: LRU[bytes, bool] = LRU(20_000)


def hint(game: Game, *, budget_s: float = 1.0, positions: int | None = None) -> Hint:
    """The best next step the solver can justify within ``budget_s`` seconds, or within
    ``positions`` searched when given (then whatever the time); never changes ``game``.

    A winning hint is the next step of one remembered winning line (``lines.Plans``):
    following the hints plays that line to the win. A new line is planned only when the
    player has left the remembered ones, and it never passes a position of the game's
    history if another win exists, so it never leads back.
    """
    total = game.rules.card_count
    if game.is_won:
        return Hint(None, False, False, "The game is won.", cards_up=total)
    model = model_for_rules(game.rules)
    budget = Budget(budget_s, positions)
    if game.is_stuck:
        undo, searched = _undo_to_win(model, game, budget)
        return Hint(
            None, False, True, f"No legal move is left: this game can't be won{_undo(undo)}.",
            searched, game.cards_on_foundations, undo_to_win=undo,
        )
    start = model.position(game)
    up, after = finishing_moves(model, start, game.deal_number)
    if up and not any(after.piles):
        return _auto_finish(game, up)
    step = PLANS.next_step(model, start, game.deal_number, game.draw_rule)
    if step is not None:
        return _on_line(model, game, start, step, up, after)
    path = _path_keys(model, game)
    if game.redeals_left:
        return _before_a_redeal(model, game, start, up, after, path)
    verdict, fresh = _find_win(model, game, budget, path)
    found = verdict.positions + (fresh.positions if fresh is not verdict else 0)
    if verdict.status == Verdict.WON:
        line, _ = tidy(
            model, start, verdict.line, game.deal_number, draw_rule=game.draw_rule,
            avoid=path if verdict is fresh else frozenset(),
        )
        PLANS.remember(model, start, line, game.deal_number, game.draw_rule)
        step = PLANS.next_step(model, start, game.deal_number, game.draw_rule)
        assert step is not None, "a line just remembered"
        advice = _on_line(model, game, start, step, up, after)
        return replace(advice, positions=found, line=tuple(line))
    lost = verdict.status == Verdict.LOST
    undo = None
    if lost:
        PROVEN_LOST[PLANS.key(model, start, game.deal_number, game.draw_rule)] = True
        undo, searched = _undo_to_win(model, game, budget.keeping(MOST_UP_SHARE))
        found += searched
    lead = ("No win is possible from here" if lost else "No win found within the time")
    lead += _undo(undo)
    if lost:
        advice = _most_cards_up(
            model, game, budget.rest(MOST_UP_SHARE / 2), lead, lost, found, path
        )
        return replace(advice, undo_to_win=undo)
    # The budget is spent: the search's own best, or first choice, never leading back.
    best = fresh.best_count
    if best > game.cards_on_foundations and fresh.best_line:
        move: str | None = move_text(fresh.best_line[0])
        what = f"this move leads to the most cards on the foundations found ({best} of {total})."
    else:
        tried = fresh.first_moves or [m.raw for m in game.legal_moves()]
        ahead = _fresh_moves(model, game, tried, path)
        move = move_text(ahead[0]) if ahead else None
        what = ("no line found puts more cards up; this is the solver's first choice."
                if ahead else "every move leads back to a position already played.")
    return Hint(move, False, False, f"{lead}; {what}", found, best)


def followed(game: Game) -> Hint | None:
    """The hint that costs no search: the next step of a remembered winning line from
    ``game``'s position (Auto-finish when foundation moves alone win), as ``hint`` gives
    it; None when the position is on no remembered line (``hint`` would search)."""
    if game.is_won or game.is_stuck:
        return None
    model = model_for_rules(game.rules)
    start = model.position(game)
    up, after = finishing_moves(model, start, game.deal_number)
    if up and not any(after.piles):
        return _auto_finish(game, up)
    step = PLANS.next_step(model, start, game.deal_number, game.draw_rule)
    return None if step is None else _on_line(model, game, start, step, up, after)


def remember(game: Game, line: Sequence[RawMove]) -> None:
    """Remember a winning ``line`` from ``game``'s position that a hint planned elsewhere
    (``Hint.line``, already tidy; a forked copy of this process, say), so that the hints
    asked here follow it as they follow the lines planned here."""
    model = model_for_rules(game.rules)
    PLANS.remember(model, model.position(game), list(line), game.deal_number, game.draw_rule)


def _on_line(
    model: Model, game: Game, start: Position, step: Step, up: list[RawMove], after: Position
) -> Hint:
    """The hint on a remembered winning line: "To foundations" when the line goes on from
    where sending every card up leaves the game, else the line's next move."""
    total = game.rules.card_count
    if len(up) >= 2:
        then = PLANS.next_step(model, after, game.deal_number, game.draw_rule)
        if then is not None:
            # Playing only `move` stays on a remembered line too.
            PLANS.remember(model, start, up, game.deal_number, game.draw_rule, then=then.moves_left)
            left = len(up) + then.moves_left
            return Hint(
                move_text(up[0]), True, False,
                f"To foundations: send up the {len(up)} cards that can go. {WINNING_NOTE} "
                f"{_left(left)}",
                cards_up=total, action=TO_FOUNDATIONS, moves_left=left,
            )
    left = step.moves_left
    return Hint(
        move_text(step.move), True, False, f"{WINNING_NOTE} {_left(left)}",
        cards_up=total, moves_left=left,
    )


def _auto_finish(game: Game, up: list[RawMove]) -> Hint:
    return Hint(
        move_text(up[0]), True, False,
        "Auto-finish wins from here: every card left goes to the foundations. "
        f"{WINNING_NOTE} {_left(len(up))}",
        cards_up=game.rules.card_count, action=AUTO_FINISH, moves_left=len(up),
    )


def _left(moves: int) -> str:
    return f"{moves} move{'s' if moves > 1 else ''} left."


def _undo(undo: int | None) -> str:
    """The note's words for ``undo_to_win``, to follow "can't be won"."""
    if undo is None:
        return ""
    return f" (undo {undo} move{'s' if undo > 1 else ''} to reach a position that can be won)"


def _find_win(
    model: Model, game: Game, budget: Budget, avoid: frozenset[bytes]
) -> tuple[plan.Outcome, plan.Outcome]:
    """(verdict, fresh). ``fresh`` searched for a win that keeps away from the game's
    history (``avoid``): its best line never leads back. If it found none, ``verdict``
    searched again allowing lines that go back (the player may have left the only way
    to win); otherwise it is ``fresh``."""
    fresh = plan.search(model, game, budget, avoid=avoid)
    if fresh.status == Verdict.LOST and avoid:  # lost only while keeping away from the path
        return plan.search(model, game, budget), fresh
    return fresh, fresh


def _path_keys(model: Model, game: Game) -> frozenset[bytes]:
    """Search keys of the positions the game passed before this one (the latest few)."""
    key = key_function(model, model.position(game))
    back = game.copy()
    keys = set()
    for _ in range(min(PATH_KEPT, back.moves_made)):
        back.pop()
        keys.add(key(model.position(back)))
    keys.discard(key(model.position(game)))
    return frozenset(keys)


def _fresh_moves(
    model: Model, game: Game, moves: list[RawMove], path: frozenset[bytes]
) -> list[RawMove]:
    """``moves`` that lead to no position of ``path``, the game's (recent) history."""
    pos = model.position(game)
    key = key_function(model, pos)
    out = []
    for move in moves:
        saved = model.apply(pos, move, game.deal_number)
        if key(pos) not in path:
            out.append(move)
        model.undo(pos, move, saved)
    return out


def _undo_to_win(model: Model, game: Game, budget: Budget) -> tuple[int | None, int]:
    """The fewest undos from ``game`` (proven lost) to a position proven winnable, and the
    positions searched; (None, ...) if the budget runs out first or none is within
    UNDOS_SEARCHED and after the last redeal. The winning line found is tidied and
    remembered."""
    back = game.copy()
    searched = 0
    for undos in range(1, min(UNDOS_SEARCHED, game.moves_made) + 1):
        back.pop()
        if back.redeals_left:
            # Before the last redeal, a win would hang on a shuffle the player cannot know.
            return None, searched
        pos = model.position(back)
        if PLANS.next_step(model, pos, game.deal_number, game.draw_rule) is not None:
            return undos, searched
        key = PLANS.key(model, pos, game.deal_number, game.draw_rule)
        if key in PROVEN_LOST:
            continue
        if budget.spent:
            return None, searched
        outcome = plan.search(model, back, budget)
        searched += outcome.positions
        if outcome.status == Verdict.WON:
            line, _ = tidy(model, pos, outcome.line, game.deal_number, draw_rule=game.draw_rule)
            PLANS.remember(model, pos, line, game.deal_number, game.draw_rule)
            return undos, searched
        if outcome.status != Verdict.LOST:
            return None, searched
        PROVEN_LOST[key] = True
    return None, searched


def _most_cards_up(
    model: Model, game: Game, budget: Budget, lead: str, lost: bool, found: int,
    path: frozenset[bytes],
) -> Hint:
    """No win (no redeal left): put the most cards up; never back to a position of
    ``path``, the game's history, so following these hints cannot loop."""
    total = game.rules.card_count
    outcome = plan.search(model, game, budget, within_deal=True, avoid=path)
    found += outcome.positions
    up = outcome.best_count
    exhausted = outcome.status == Verdict.EXHAUSTED
    if up > game.cards_on_foundations and outcome.best_line:
        where = "" if exhausted else " within the time"
        return Hint(
            move_text(outcome.best_line[0]), False, lost,
            f"{lead}; this move starts the line that puts the most cards on the "
            f"foundations{where} ({up} of {total}).",
            found, up,
        )
    what = "no move" if exhausted else "no line found"
    return Hint(
        None, False, lost, f"{lead}; {what} puts more cards on the foundations.", found, up
    )


def _before_a_redeal(
    model: Model, game: Game, start: Position, up: list[RawMove], after: Position,
    path: frozenset[bytes],
) -> Hint:
    """A redeal is left: a win in this deal (certain), or the step that wins most often
    over the shuffles a player cannot know (sampled.py). The deal number plays no part."""
    known = sampled.under_way(model, start, draw_rule=game.draw_rule)
    if known is not None:
        return _sampled(game, *known, positions=0)
    deal_plan = sampled.plan_deal(model, start, draw_rule=game.draw_rule, avoid=path)
    if deal_plan.won_here:
        line, _ = tidy(model, start, deal_plan.line, sampled.UNSEEN, draw_rule=game.draw_rule,
                       avoid=path, within_deal=True)
        PLANS.remember(model, start, line, game.deal_number, game.draw_rule)
        step = PLANS.next_step(model, start, game.deal_number, game.draw_rule)
        assert step is not None, "a line just remembered"
        advice = _on_line(model, game, start, step, up, after)
        return replace(advice, positions=deal_plan.positions, line=tuple(line))
    sampled.remember(model, start, deal_plan, draw_rule=game.draw_rule)
    first = deal_plan.line[0] if deal_plan.line else REDEAL_RAW
    return _sampled(game, first, deal_plan.cards_up, deal_plan.shuffles_won,
                    deal_plan.shuffles, positions=deal_plan.positions)


def _sampled(
    game: Game, move: RawMove, cards_up: int, won: int, shuffles: int, *, positions: int
) -> Hint:
    """The hint of a plan over sampled shuffles: ``move``, heading for ``cards_up`` cards
    up before a redeal, which wins in ``won`` of ``shuffles`` samples."""
    total = game.rules.card_count
    odds = f"wins in {won} of {shuffles} sampled shuffles"
    if move != REDEAL_RAW:
        note = (f"No win in this deal without a redeal, and its shuffle can't be known: this "
                f"move heads for {cards_up} of {total} cards up, then a redeal, which {odds}.")
    else:
        note = f"No win in this deal: redealing now {odds}."
    return Hint(move_text(move), False, False, note, positions, cards_up,
                shuffles=shuffles, shuffles_won=won)
