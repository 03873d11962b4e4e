"""Foundations that play apart (engine/solver/apart.py): a loss on fewer cards is a loss.

Checked against a brute-force search that uses nothing but the engine, on small Clover
Leaf endgames, and against an independent exhaustive search on whole deals."""

import random
import sys

import pytest

from engine import GAMES, RULES, Game, new_game
from engine.solver import solve
from engine.solver.apart import apart_classes, reduced, reductions
from engine.solver.model import model_for
from engine.solver.search import Search, Verdict

from .test_exhaustive import endgame, engine_can_win


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_only_clover_leaf_plays_apart(game_id: str) -> None:
    """Building follows suit and each suit has its foundation in Clover Leaf only."""
    assert apart_classes(model_for(game_id)) == (game_id == "clover-leaf")


def keeping(game: Game, keep: frozenset[int]) -> Game:
    """``game`` with every card of the other foundations lifted onto them, made with the
    engine's own objects (not apart.reduced, which is what is under test)."""
    model = model_for(game.game_id)
    smaller = game.copy()
    smaller.tableau = [
        [c for c in pile if model.goes_up[int(c)][0][0] in keep] for pile in game.tableau
    ]
    for f, spec in enumerate(RULES[game.game_id].foundations):
        if f not in keep:
            pile = smaller.foundations[f]
            while len(pile) < spec.size:
                pile.append(spec.next_cards(pile)[0])
    return smaller


def test_a_loss_on_fewer_foundations_is_a_loss_of_the_whole() -> None:
    sys.setrecursionlimit(10_000)
    rng = random.Random(11)
    model = model_for("clover-leaf")
    smaller_lost = 0
    for _ in range(150):
        game = endgame("clover-leaf", rng, rng.randrange(6, 13))
        whole_won = engine_can_win(game.copy(), set())
        for keep in reductions(model, model.position(game)):
            smaller_won = engine_can_win(keeping(game, keep), set())
            if not smaller_won:
                smaller_lost += 1
                assert not whole_won, (keep, game.tableau, game.foundations)
            # and the solver's own smaller position is that one
            search = Search(model, reduced(model, model.position(game), keep), deal=1)
            assert search.run() == ("won" if smaller_won else "lost")
    assert smaller_lost > 20  # the premise is met often enough to test something


def test_clover_leaf_deals_lost_on_fewer_suits_agree_with_an_independent_search() -> None:
    """An exhaustive search written apart from this project found these deals lost; the
    whole position's search alone takes seconds to minutes, a suit or two fractions (each
    of these is proven lost within 5,000 positions, measured)."""
    for deal in (163, 627, 649, 767):
        assert solve(new_game("clover-leaf", deal), positions=100_000).status == "lost", deal


@pytest.mark.parametrize(("deal", "status"), [(74, "won"), (136, "lost")])
def test_a_search_taken_in_turns_ends_as_one_run_in_one_go(deal: int, status: str) -> None:
    model = model_for("clover-leaf")
    game = new_game("clover-leaf", deal)
    straight = Search(model, model.position(game), deal=deal, positions=1_000_000)
    assert straight.run() == status
    turns = Search(model, model.position(game), deal=deal, positions=1_000_000)
    paused = 0
    while (verdict := turns.run(until=turns.positions + 300)) == Verdict.PAUSED:
        paused += 1
    assert paused > 10
    assert (verdict, turns.positions, turns.line) == (status, straight.positions, straight.line)
    assert turns.pos == model.position(game)  # handed back as it came
