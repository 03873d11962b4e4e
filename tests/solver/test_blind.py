"""Odds for a player who never undoes a redeal: a stated policy, played blind."""

import pytest

from engine import new_game
from engine.solver import solve
from tools.solver.__main__ import main
from tools.solver.blind_odds import play_blind, wilson_interval


def test_the_wilson_interval_of_half_of_a_hundred() -> None:
    low, high = wilson_interval(50, 100)
    assert low == pytest.approx(0.4038, abs=1e-4) and high == pytest.approx(0.5962, abs=1e-4)


def test_the_interval_holds_the_share_and_narrows_with_more_games() -> None:
    few, many = wilson_interval(21, 100), wilson_interval(210, 1000)
    assert few[0] < 0.21 < few[1] and many[0] < 0.21 < many[1]
    assert many[1] - many[0] < few[1] - few[0]
    assert wilson_interval(0, 10)[0] == 0.0 and wilson_interval(10, 10)[1] == 1.0


def test_a_blind_player_loses_trefoil_deals_that_perfect_play_wins() -> None:
    # Trefoil deals 1-6 are all won with perfect play (every shuffle known). Playing
    # blind, deals 2 and 6 win; the others end with cards left (measured; the searches
    # of these deals all finish, so the policy was followed exactly).
    for deal in range(1, 7):
        result = play_blind("trefoil", deal, positions=20_000)
        assert solve(new_game("trefoil", deal), positions=20_000).status == "won"
        assert result.exact, deal
        assert result.won == (deal in (2, 6)), deal
        assert (result.cards_up == 52) == result.won


def test_blind_command_prints_the_share_and_its_interval(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["blind", "trefoil", "--games", "3", "--positions", "2000"]) == 0
    out = capsys.readouterr().out
    assert "trefoil, a player who never undoes a redeal: won" in out
    assert "95% interval" in out


def test_hinted_command_follows_the_hints_and_prints_the_share(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["hinted", "trefoil", "--games", "2", "--positions", "2000", "-v"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("deal 1: ") and out[1].startswith("deal 2: ")
    won = sum(line.startswith("deal ") and ": won, 52 up" in line for line in out)
    assert out[2].startswith(f"trefoil, a player who follows every hint: won {won} of 2 ")
    assert "Games cut short after 2,000 moves: 0." in out[2]
