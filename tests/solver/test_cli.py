"""python -m engine.solver: stats, solve and hint from the command line."""

import subprocess
import sys

import pytest

from engine.solver.__main__ import main


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
    assert main(["hint", "trefoil", "--deal", "3", "--moves", "6 13, 6 11", "--positions", "20000"]) == 0
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
