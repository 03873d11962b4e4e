"""python -m engine.solver: stats, solve and hint from the command line."""

import subprocess
import sys

import pytest

from engine.solver.__main__ import main


def test_stats_prints_counts_times_and_a_markdown_table(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["stats", "trefoil", "--deals", "1-3", "--budget", "0.5", "--markdown"]) == 0
    out = capsys.readouterr().out
    assert "trefoil: 3 deals (1-3), budget 0.5 s per deal" in out
    assert "won 3 (100.0%)  lost 0 (0.0%)  unknown 0 (0.0%)" in out
    assert "time per deal: median" in out
    assert "decided within 0.5 s: 3 (100.0%)" in out
    assert "| Game | Deals | Won | Lost | Undecided | Decided within budget | Median time" in out
    assert "| Trefoil | 1-3 | 3 (100.0%) | 0 (0.0%) | 0 (0.0%) | 100.0% within 0.5 s |" in out


def test_stats_solves_the_undecided_again_with_the_retry_budget(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Clover Leaf 74 needs thousands of positions: undecided in 1 ms, won with seconds."""
    assert main(["stats", "clover-leaf", "--deals", "73-74", "--budget", "0.001",
                 "--retry", "20", "--markdown"]) == 0
    out = capsys.readouterr().out
    assert "decided within 0.001 s: 1 (50.0%)" in out
    assert "the 1 undecided then solved again with 20 s each" in out
    assert "| Clover Leaf | 73-74 | 1 (50.0%) | 1 (50.0%) | 0 (0.0%) | 50.0% within 0.001 s |" in out


def test_solve_prints_a_line_that_replays(capsys: pytest.CaptureFixture[str]) -> None:
    from engine import new_game

    assert main(["solve", "clover-leaf", "--deal", "4", "--budget", "1"]) == 0
    status, line = capsys.readouterr().out.splitlines()
    assert status.startswith("won after")
    game = new_game("clover-leaf", 4)
    for text in line.split(", "):
        game.play(text)
    assert game.is_won


def test_hint_after_some_moves(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["hint", "trefoil", "--deal", "3", "--moves", "6 13, 6 11", "--budget", "0.5"]) == 0
    out = capsys.readouterr().out
    move, note = out.split(": ", 1)
    assert move and note.strip()


def test_a_bad_deal_range_is_refused_plainly() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "engine.solver", "stats", "trefoil", "--deals", "9-2"],
        capture_output=True, text=True,
    )
    assert result.returncode != 0
    assert "is not a deal range like 1-1000" in result.stderr
