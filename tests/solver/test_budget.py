"""A budget of positions: the same answer every time, on every machine, and never a
position more than it allows (engine/solver/budget.py)."""

import dataclasses

import pytest

from engine import GAMES, new_game
from engine.solver import Solution, hint, sampled, solve
from engine.solver.budget import Budget
from engine.solver.lines import PLANS, shorten
from engine.solver.model import model_for, move_text
from engine.solver.search import Search, Verdict

# Budgets that cut searches short and budgets that let them decide (measured: Clover Leaf
# 162 takes hundreds of thousands of positions, and its searches take turns, 74 is won
# after 16,773 and 136 lost after 9,584; Super Flower Garden 15 redeals; Four Leaf
# Clovers 1 restarts; Corner Stones 1 is won after 320).
CASES = [
    ("clover-leaf", 162, 3_000), ("clover-leaf", 74, 30_000), ("clover-leaf", 136, 30_000),
    ("four-leaf-clovers", 1, 1_000), ("four-leaf-clovers", 1, 5_000),
    ("super-flower-garden", 15, 500), ("super-flower-garden", 1, 5_000),
    ("trefoil", 1, 100), ("trefoil", 3, 5_000),
    ("corner-stones", 2, 700), ("corner-stones", 1, 5_000),
]


def without_time(solution: Solution) -> Solution:
    return dataclasses.replace(solution, seconds=0.0)


@pytest.mark.parametrize(("game_id", "deal", "positions"), CASES)
def test_a_positions_budget_decides_alike_every_time(
    game_id: str, deal: int, positions: int
) -> None:
    first = solve(new_game(game_id, deal), positions=positions)
    again = solve(new_game(game_id, deal), positions=positions)
    assert without_time(first) == without_time(again)
    forget()
    advice = hint(new_game(game_id, deal), positions=positions)
    forget()
    assert hint(new_game(game_id, deal), positions=positions) == advice


def forget() -> None:
    PLANS.clear()
    sampled.SAMPLES.clear()
    sampled.UNDER_WAY.clear()


def test_the_budgets_above_both_decide_and_cut_short() -> None:
    statuses = {solve(new_game(g, d), positions=p).status for g, d, p in CASES}
    assert statuses == {"won", "lost", "unknown"}


def test_the_clock_plays_no_part_in_a_positions_budget() -> None:
    # No seconds at all would stop a clock budget before its first position.
    assert solve(new_game("clover-leaf", 74), budget_s=0.0).status == "unknown"
    hurried = solve(new_game("clover-leaf", 74), budget_s=0.0, positions=30_000)
    assert hurried.status == "won"
    assert without_time(hurried) == without_time(
        solve(new_game("clover-leaf", 74), budget_s=100.0, positions=30_000)
    )


@pytest.mark.parametrize(("game_id", "deal", "positions"), CASES)
def test_a_positions_budget_is_never_overspent(game_id: str, deal: int, positions: int) -> None:
    # Each case's own budget, and the smaller ones about a plan's turn (APART_TURN, 2,048
    # positions); larger ones belong to the cases that name them.
    budgets = [b for b in (1, 129, 2048, 2049, 4196, 7000) if b < positions] + [positions]
    sampled_positions: int | None = None
    for budget in budgets:
        solution = solve(new_game(game_id, deal), positions=budget)
        assert solution.positions <= budget
        if solution.status == "unknown":  # every pass and turn drew on it to the last
            assert solution.positions == budget
        forget()
        advice = hint(new_game(game_id, deal), positions=budget)
        if advice.shuffles is None:
            assert advice.positions <= budget
            continue
        # A redeal to come: sampled with counts of its own, whatever the budget.
        if sampled_positions is None:
            forget()
            sampled_positions = hint(new_game(game_id, deal), positions=0).positions
        assert advice.positions == sampled_positions
        forget()


def test_no_positions_decide_nothing_that_needs_a_search() -> None:
    solution = solve(new_game("trefoil", 1), positions=0)
    assert (solution.status, solution.positions, solution.moves) == ("unknown", 0, [])


def test_a_won_line_left_no_positions_to_be_shortened_still_wins() -> None:
    """Super Flower Garden 1 is won after 1,567 positions, on a line of over a thousand
    moves; shortening it tries more positions, which a budget of exactly 1,567 leaves
    none for."""
    plenty = solve(new_game("super-flower-garden", 1), positions=100_000)
    exact = solve(new_game("super-flower-garden", 1), positions=plenty.positions)
    assert exact.status == plenty.status == "won"
    assert exact.positions == plenty.positions
    assert len(exact.moves) > 5 * len(plenty.moves)  # the line as the search found it
    for solution in (plenty, exact):
        game = new_game("super-flower-garden", 1)
        for text in solution.moves:
            game.play(text)
        assert game.is_won


def test_shortening_a_line_tries_no_more_positions_than_are_left() -> None:
    model = model_for("super-flower-garden")
    start = model.position(new_game("super-flower-garden", 1))
    line = solve(new_game("super-flower-garden", 1), positions=1_567).moves
    raw = []
    game = new_game("super-flower-garden", 1)
    for text in line:
        raw.append(game.play(text).raw)
    lengths = []
    for positions in (0, 10, 1_000, 10_000, 100_000):
        budget = Budget(0.0, positions=positions)
        short = shorten(model, start, raw, 1, draw_rule=False, budget=budget)
        assert budget.searched <= positions
        lengths.append(len(short))
        replay = new_game("super-flower-garden", 1)
        for move in short:
            replay.play(move_text(move))
        assert replay.is_won
    assert lengths[0] == len(raw) and lengths[-1] < len(raw) // 5
    assert lengths == sorted(lengths, reverse=True)


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_a_search_stops_on_the_last_position_of_its_budget(game_id: str) -> None:
    model = model_for(game_id)
    game = new_game(game_id, 162)
    search = Search(model, model.position(game), deal=162, positions=300)
    status = search.run()
    assert search.positions <= 300
    assert status != Verdict.UNKNOWN or search.positions == 300
    assert search.pos == model.position(game)  # handed back as it came


def test_a_share_kept_back_is_left_for_the_last_search() -> None:
    budget = Budget(1.0, positions=1_000)
    first = budget.keeping(0.3)
    assert (first.left(), budget.left()) == (700, 1_000)
    first.charge(650)
    assert not first.spent and budget.left() == 350  # one count of positions searched
    first.charge(50)
    assert first.spent and first.left() == 0
    last = budget.rest(0.15)
    assert last.left() == 300 and not last.spent


def test_on_the_clock_a_share_kept_back_is_time() -> None:
    budget = Budget(2.0)
    first = budget.keeping(0.25)
    assert first.deadline == pytest.approx(budget.deadline - 0.5)
    assert budget.rest(0.1).seconds >= 0.2


def test_a_negative_budget_of_positions_is_refused() -> None:
    with pytest.raises(ValueError):
        Budget(1.0, positions=-1)
