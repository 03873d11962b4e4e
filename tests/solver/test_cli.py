"""python -m tools.solver: stats, solve and hint from the command line."""

import subprocess
import sys
from pathlib import Path

import pytest

from tools.solver.__main__ import main

ROOT = Path(__file__).resolve().parents[2]  # tools/ is run from a checkout


def test_stats_prints_counts_times_and_a_markdown_table(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["stats", "trefoil", "--deals", "1-3", "--positions", "20000", "--markdown"]) == 0
    out = capsys.readouterr().out
    assert "trefoil: 3 deals (1-3), budget 20,000 positions per deal" in out
    assert "won 3 (100.0%)  lost 0 (0.0%)  unknown 0 (0.0%)" in out
    assert "time per deal: median" in out
    assert "decided within 20,000 positions: 3 (100.0%)" in out
    assert "| Game | Deals | Won | Lost | Undecided | Decided within budget | Median time" in out
    assert "| Trefoil | 1-3 | 3 (100.0%) | 0 (0.0%) | 0 (0.0%) | 100.0% within 20,000 positions |" in out


def test_stats_in_seconds_says_so(capsys: pytest.CaptureFixture[str]) -> None:
    # Seconds on purpose: only the wording of the budget is asserted, never a verdict.
    assert main(["stats", "trefoil", "--deals", "1", "--budget", "0.5", "--retry", "1"]) == 0
    out = capsys.readouterr().out
    assert "trefoil: 1 deals (1-1), budget 0.5 s per deal" in out
    assert "decided within 0.5 s: " in out
    assert "undecided then solved again with 1 s each" in out


def test_stats_solves_the_undecided_again_with_the_retry_budget(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Clover Leaf 73 is lost before the first position; 74 needs thousands of positions
    (measured: 16,773), so it is undecided within 1,000 and won with 100,000."""
    assert main(["stats", "clover-leaf", "--deals", "73-74", "--positions", "1000",
                 "--retry-positions", "100000", "--markdown"]) == 0
    out = capsys.readouterr().out
    assert "decided within 1,000 positions: 1 (50.0%)" in out
    assert "the 1 undecided then solved again with 100,000 positions each" in out
    assert "| Clover Leaf | 73-74 | 1 (50.0%) | 1 (50.0%) | 0 (0.0%) | 50.0% within 1,000 positions |" in out


def test_solve_prints_a_line_that_replays(capsys: pytest.CaptureFixture[str]) -> None:
    from engine import new_game

    assert main(["solve", "clover-leaf", "--deal", "4", "--positions", "20000"]) == 0
    status, line = capsys.readouterr().out.splitlines()
    assert status.startswith("won after")
    game = new_game("clover-leaf", 4)
    for text in line.split(", "):
        game.play(text)
    assert game.is_won


def test_hint_after_some_moves(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["hint", "four-leaf-clovers", "--deal", "6", "--moves", "2 3",
                 "--positions", "20000"]) == 0
    advice, facts = capsys.readouterr().out.splitlines()
    move, note = advice.split(": ", 1)
    assert move and note.strip()
    assert facts.endswith("moves left: 69")


def test_hint_before_a_redeal_says_how_many_sampled_shuffles_win(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["hint", "trefoil", "--deal", "3", "--moves", "6 13, 6 11", "--positions", "20000"]) == 0
    advice, facts = capsys.readouterr().out.splitlines()
    won, _, shuffles = facts.removeprefix("shuffles won: ").partition(" of ")
    assert f"which wins in {won} of {shuffles} sampled shuffles." in advice
    assert 0 <= int(won) <= int(shuffles) == 128


def test_hint_on_a_lost_game_says_how_far_to_undo(capsys: pytest.CaptureFixture[str]) -> None:
    moves = "5 f3,11 f2,6 16,2 6,2 f3,1 9,12 1,12 f1,8 f1,13 f1,2 f1,4 12,13 14,4 f1"
    assert main(["hint", "clover-leaf", "--deal", "4", "--moves", moves, "--positions", "20000"]) == 0
    advice, facts = capsys.readouterr().out.splitlines()
    assert "No win is possible from here (undo 2 moves to reach a position that can be won)" in advice
    assert facts == "undo to win: 2"


def test_hintlines_compares_the_searched_lines_with_the_hinted_ones(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["hintlines", "four-leaf-clovers", "--count", "2", "--positions", "20000",
                 "--markdown", "-v"]) == 0
    out = capsys.readouterr().out
    assert "deal 1: 152 moves before, " in out  # the line that wandered
    assert "four-leaf-clovers: 2 deals won within 20,000 positions (from deals 1-3)" in out
    assert "before: 248 moves (median 124 a deal, most 152), one hint a move" in out
    assert "| Four Leaf Clovers | 2 | 248 (124, 152) | " in out
    assert "hints did not win" not in out


def test_a_bad_deal_range_is_refused_plainly() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "tools.solver", "stats", "trefoil", "--deals", "9-2"],
        cwd=ROOT, capture_output=True, text=True,
    )
    assert result.returncode != 0
    assert "is not a deal range like 1-1000" in result.stderr
