"""Hints that cannot see the next shuffle: while a redeal is to come, a hint knows what
the player sees and no more, and says how often its plan wins over the shuffles."""

import subprocess
import sys
from pathlib import Path

import pytest

from engine import Game, new_game
from engine.solver import hint, sampled
from engine.solver.lines import PLANS
from engine.solver.model import model_for
from engine.solver.search import Search

POSITIONS = 20_000


def game_at(game_id: str, deal: int, moves: str = "") -> Game:
    game = new_game(game_id, deal)
    for text in filter(None, moves.split(",")):
        game.play(text)
    return game


def forget() -> None:
    """As a process that never hinted: nothing remembered."""
    PLANS.clear()
    sampled.SAMPLES.clear()
    sampled.UNDER_WAY.clear()


def another_deal(game: Game, deal: int) -> Game:
    """The same position and history, under another deal number: its redeals would
    shuffle differently."""
    other = game.copy()
    other.deal_number = deal
    return other


@pytest.mark.parametrize(
    ("game_id", "deal", "moves"),
    [("trefoil", 42, "5 f3"), ("super-flower-garden", 11, "")],
)
def test_two_games_that_show_the_same_position_get_the_same_hint(
    game_id: str, deal: int, moves: str
) -> None:
    shown = game_at(game_id, deal, moves)
    twin = another_deal(shown, deal + 1)
    assert shown.tableau == twin.tableau and shown.foundations == twin.foundations
    redealt, twin_redealt = shown.copy(), twin.copy()
    redealt.play("redeal")
    twin_redealt.play("redeal")
    assert redealt.tableau != twin_redealt.tableau, "their next shuffles differ"
    forget()
    first = hint(shown, positions=POSITIONS)
    forget()
    second = hint(twin, positions=POSITIONS)
    assert (first.move, first.note, first.shuffles_won) == (
        second.move, second.note, second.shuffles_won)
    assert first.shuffles is not None and not first.winning and not first.lost


def test_trefoil_42_no_longer_redeals_with_five_cards_up() -> None:
    """The solver once knew the shuffle: "redeal" with 5 of 52 cards home."""
    forget()
    game = game_at("trefoil", 42, "5 f3")
    advice = hint(game, positions=POSITIONS)
    assert advice.move != "redeal"
    assert advice.shuffles == sampled.sampling_for("trefoil").shuffles
    assert advice.shuffles_won is not None and 0 < advice.shuffles_won < advice.shuffles
    assert advice.cards_up > game.cards_on_foundations
    assert f"wins in {advice.shuffles_won} of {advice.shuffles} sampled shuffles" in advice.note


def test_super_flower_garden_11_plays_on_before_it_redeals() -> None:
    forget()
    game = new_game("super-flower-garden", 11)
    advice = hint(game, positions=POSITIONS)
    assert advice.move != "redeal" and advice.cards_up > game.cards_on_foundations


def test_a_hint_is_the_same_in_a_process_that_never_hinted() -> None:
    forget()
    here = hint(game_at("trefoil", 42, "5 f3"), positions=POSITIONS)
    there = subprocess.run(
        [sys.executable, "-m", "tools.solver", "hint", "trefoil", "--deal", "42",
         "--moves", "5 f3", "--positions", str(POSITIONS)],
        cwd=Path(__file__).resolve().parents[2], capture_output=True, text=True, check=True,
    ).stdout
    assert there.splitlines()[0] == f"{here.move}: {here.note}"


def test_following_the_plan_walks_to_its_redeal_and_keeps_its_figure() -> None:
    forget()
    game = game_at("trefoil", 42, "5 f3")
    first = hint(game, positions=POSITIONS)
    seen = {game.key()}
    while game.redeals_left == 2:
        advice = hint(game, positions=POSITIONS)
        assert advice.shuffles_won == first.shuffles_won and advice.cards_up == first.cards_up
        game.play(advice.move or "")
        assert game.key() not in seen
        seen.add(game.key())
    assert game.last_move is not None and str(game.last_move) == "redeal"
    assert game.history[-2] != game.history[-1]
    assert game.moves_made - 1 < 60, "a plan walks to its redeal, it does not wander"


def test_once_no_redeal_is_left_the_hint_is_certain_again() -> None:
    forget()
    game = game_at("trefoil", 6)
    while game.redeals_left:
        advice = hint(game, positions=POSITIONS)
        assert advice.shuffles is not None or advice.winning
        game.play(advice.move or "")
    advice = hint(game, positions=POSITIONS)
    assert advice.shuffles is None and (advice.winning or advice.lost)
    assert "shuffle" not in advice.note


def test_a_win_in_this_deal_is_certain_and_needs_no_shuffle() -> None:
    """Super Flower Garden 4 can be won without redealing: the hint's line is that win."""
    forget()
    game = new_game("super-flower-garden", 4)
    advice = hint(game, positions=POSITIONS)
    assert advice.winning and advice.shuffles is None and advice.moves_left is not None
    while not game.is_won:
        advice = hint(game, positions=POSITIONS)
        assert advice.winning
        if advice.action is not None:
            game.play_to_foundations()
        else:
            game.play(advice.move or "")
    assert "redeal" not in [str(m) for m in game.history]


def test_a_choice_with_more_cards_up_can_lose_more_often() -> None:
    """Super Flower Garden 6 can put 39 cards up in its first deal, leaving one suit
    whose cards build only on each other: far fewer shuffles win from there than from
    fewer cards up that leave more suits, and the plan says so."""
    model = model_for("super-flower-garden")
    pos = model.position(new_game("super-flower-garden", 6))
    most = Search(model, pos.copy(), deal=0, positions=POSITIONS, within_deal=True)
    most.run()
    assert most.best_count == 39
    end = pos.copy()
    for move in most.best_line:
        model.apply(end, move, 0)
    forget()
    outcomes, _ = sampled.sampled_outcomes(model, end, 32, draw_rule=False)
    plan = sampled.plan_deal(model, pos, draw_rule=False)
    assert not plan.won_here and plan.cards_up < 39 and plan.shuffles == 32
    assert sampled.clearly_better(plan.shuffles_won, sum(outcomes), 32)


def test_a_plan_leaves_the_most_cards_up_only_for_a_clear_gain() -> None:
    assert sampled.clearly_better(13, 2, 32)
    assert not sampled.clearly_better(9, 6, 32), "three samples in 32 are chance"
    assert not sampled.clearly_better(6, 9, 32)


def test_plans_compare_choices_by_samples_that_never_use_the_deal() -> None:
    model = model_for("trefoil")
    game = game_at("trefoil", 42, "5 f3")
    pos = model.position(game)
    forget()
    outcomes, searched = sampled.sampled_outcomes(model, pos, 8, draw_rule=False)
    assert len(outcomes) == 8 and searched > 0
    again, cost = sampled.sampled_outcomes(model, pos, 8, draw_rule=False)
    assert (again, cost) == (outcomes, 0), "remembered"
    # Only the cards left count, not how they lie.
    moved = pos.copy()
    moved.piles = list(reversed(moved.piles))
    forget()
    assert sampled.sampled_outcomes(model, moved, 8, draw_rule=False)[0] == outcomes
    with pytest.raises(ValueError, match="no redeal left"):
        done = pos.copy()
        done.redeals_left = 0
        sampled.plan_deal(model, done, draw_rule=False)
