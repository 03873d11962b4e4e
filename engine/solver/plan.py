"""Which searches to run, in what order, within a budget (budget.py: seconds or positions).

A single depth-first search can sink its whole budget into one hopeless subtree. So
the budget is spent in passes: searches that may give up (they cap a subtree or their
size: they can find a win, and prove a loss only if they ran dry under their caps) and
complete searches, which can also prove a loss. Every pass is exact about what it
reports.
"""

from __future__ import annotations

import gc
import random
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass

from ..game import Game
from .apart import apart_classes, live_foundations, reduced, reductions
from .budget import Budget
from .lines import shorten
from .model import Model, RawMove
from .search import Search
from .verdict import Verdict

# Redeal games: most later deals are lost or won within a few hundred positions, and one
# odd deal can hold the search for seconds. A first pass caps each subtree after a
# redeal (by redeals then left) and so tries many shuffles.
REDEAL_CAPS = {0: 100, 1: 1000}

# Games whose wins hide behind early choices and whose losses are out of reach of a
# complete search (Four Leaf Clovers, Corner Stones): restart with a growing size cap
# (first cap, growth) and random tie breaks. A pass that runs dry under its cap was
# complete, so a small lost position is still proven lost. This is tuning, keyed by
# game: it decides how soon a verdict comes, never which (any game may restart).
RESTARTS: dict[str, tuple[int, float]] = {
    "four-leaf-clovers": (500, 1.2),
    "corner-stones": (1000, 1.5),
}


# Games whose foundations play apart (apart.py, Clover Leaf): the search of the whole
# position and those of each smaller one (only their losses count) take turns of this
# many positions, so a loss on a few suits is found before the whole position's search
# has spent the budget, and a win or loss of the whole costs at most a few times more.
APART_TURN = 2048


def apart_turn(live: int, kept: int) -> int:
    """The turn of a search that keeps ``kept`` of the ``live`` foundations (the whole
    keeps all): twice as long for each foundation left out beyond the first. A smaller
    position is far smaller to exhaust, so its loss comes sooner: on the Clover Leaf
    deals undecided at 2 s, a pair of suits that is lost took 34-188k positions to
    prove it while the whole and the triples each took more, and equal turns made
    every one of them wait as long as the others (tuning: it decides how soon a
    verdict comes, never which)."""
    return APART_TURN << max(0, live - kept - 1)


@dataclass(frozen=True)
class Pass:
    caps: dict[int, int] | None = None
    node_cap: int | None = None
    seed: int | None = None


def passes(game: Game) -> Iterator[Pass]:
    """The passes for ``game``'s position; the caller stops when one decides or the
    budget is spent."""
    if game.redeals_left:
        yield Pass(caps=REDEAL_CAPS)
        yield Pass()
    elif game.game_id in RESTARTS:
        first, growth = RESTARTS[game.game_id]
        cap = float(first)
        seed = 0
        while True:
            yield Pass(node_cap=int(cap), seed=seed or None)
            cap *= growth
            seed += 1
    else:
        yield Pass()


@dataclass
class Outcome:
    """The verdict of the passes, and the best line any of them saw."""

    status: Verdict
    line: list[RawMove]
    positions: int
    best_count: int
    best_line: list[RawMove]
    first_moves: list[RawMove]


@contextmanager
def _no_cycle_collection() -> Iterator[None]:
    """The search makes no reference cycles, but its many small lists wake Python's
    cycle collector thousands of times a second (7% of Clover Leaf's time): pause it."""
    was_on = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_on:
            gc.enable()


def search(
    model: Model,
    game: Game,
    budget: Budget,
    *,
    within_deal: bool = False,
    avoid: frozenset[bytes] = frozenset(),
) -> Outcome:
    """Run the passes for ``game`` (never changed) until one decides or ``budget`` is
    spent; every position searched is charged to it.

    ``avoid``: position keys no line may pass (see ``Search``); with them, "lost" means
    only that no win avoids them."""
    with _no_cycle_collection():
        return _search(model, game, budget, within_deal, avoid)


def _search(
    model: Model, game: Game, budget: Budget, within_deal: bool, avoid: frozenset[bytes]
) -> Outcome:
    outcome = Outcome(Verdict.UNKNOWN, [], 0, game.cards_on_foundations, [], [])
    apart = not within_deal and apart_classes(model)
    plan = iter([Pass()]) if within_deal or apart else passes(game)
    for step in plan:
        if budget.spent:
            break
        run = Search(
            model,
            model.position(game),
            deal=game.deal_number,
            draw_rule=game.draw_rule,
            deadline=budget.deadline,
            positions=budget.left(),
            within_deal=within_deal,
            caps=step.caps,
            node_cap=step.node_cap,
            shuffle=random.Random(step.seed) if step.seed else None,
            avoid=avoid,
        )
        status = run.run(until=APART_TURN) if apart else run.run()
        budget.charge(run.positions)
        if status == Verdict.PAUSED:  # not decided in one turn: smaller positions join in
            status, searched = _take_turns(model, game, run, budget)
            outcome.positions += searched
        outcome.positions += run.positions
        if not outcome.first_moves:
            outcome.first_moves = run.first_moves
        if run.best_count > outcome.best_count or not outcome.best_line:
            outcome.best_count, outcome.best_line = run.best_count, run.best_line
        if status != Verdict.UNKNOWN:
            outcome.status = status
            outcome.line = run.line
            if status == Verdict.WON and len(run.line) > model.card_count:
                outcome.line = shorten(
                    model,
                    model.position(game),
                    run.line,
                    game.deal_number,
                    draw_rule=game.draw_rule,
                    budget=budget,
                )
            break
    return outcome


def _take_turns(
    model: Model, game: Game, whole: Search, budget: Budget
) -> tuple[Verdict, int]:
    """The paused search of the whole position and searches of smaller ones (apart.py)
    take turns until one decides or the budget is spent (each turn cut to what is left
    of it). Returns the verdict on the whole, and the positions the smaller ones
    searched."""
    root = model.position(game)
    live = len(live_foundations(model, root))
    parts = [
        (
            Search(
                model,
                reduced(model, root, keep),
                deal=game.deal_number,
                deadline=budget.deadline,
                positions=budget.left(),
            ),
            apart_turn(live, len(keep)),
        )
        for keep in reductions(model, root)
    ]
    status = Verdict.PAUSED
    searched = 0  # by the smaller searches
    while status == Verdict.PAUSED and not budget.spent:
        before = whole.positions
        status = whole.run(until=before + min(APART_TURN, budget.left()))
        budget.charge(whole.positions - before)
        for part, turn in list(parts):
            left = budget.left()
            if status != Verdict.PAUSED or left == 0:
                break
            before = part.positions
            verdict = part.run(until=before + min(turn, left))
            budget.charge(part.positions - before)
            searched += part.positions - before
            if verdict == Verdict.LOST:  # lost on fewer cards: lost
                status = Verdict.LOST
            elif verdict != Verdict.PAUSED:  # won or out of time: it proves nothing
                parts.remove((part, turn))
    for part, _ in parts:
        part.stop()
    if status == Verdict.PAUSED:
        whole.stop()
        status = Verdict.UNKNOWN
    return status, searched
