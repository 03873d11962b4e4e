"""The terminal view and the terminal game."""

import io
import subprocess
import sys

import pytest

from engine import GAMES, new_game
from engine.__main__ import play


def test_show_prints_every_pile_number_and_foundation() -> None:
    out = subprocess.run(
        [sys.executable, "-m", "engine", "show", "trefoil", "--deal", "42"],
        capture_output=True, text=True, check=True,
    ).stdout
    assert out.startswith("Trefoil — deal 42 — 0 moves — 2 redeals left")
    for n in range(1, 17):
        assert f"\n{n:>8}: " in out
    assert "f4 ♠ A↑ [A♠] 1/13" in out
    assert "1: 3♥ 10♦ J♦" in out  # deal 42's first pile, bottom to top


def test_show_refuses_a_bad_deal_number() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "engine", "show", "trefoil", "--deal", "0"],
        capture_output=True, text=True,
    )
    assert result.returncode != 0
    assert "deal number" in result.stderr


def run(game_id: str, lines: list[str], deal: int = 1) -> str:
    out = io.StringIO()
    assert play(new_game(game_id, deal), io.StringIO("".join(f"{x}\n" for x in lines)), out) == 0
    return out.getvalue()


def test_play_answers_every_refused_input_clearly() -> None:
    out = run("trefoil", ["bogus", "99 1", "undo", "redo", "1 1", "quit"])
    assert "bogus in bogus is not a pile number" in out
    assert "`" not in out  # plain text in a terminal: no Discord Markdown
    assert "There is no pile 99" in out
    assert "Nothing to undo" in out
    assert "Nothing to redo" in out
    assert "already on pile 1" in out


def test_play_moves_undoes_and_redoes() -> None:
    out = run("trefoil", ["4 f2", "undo", "redo", "moves", "quit"])
    assert "Played 4 f2." in out and "Undid 4 f2." in out and "Redid 4 f2." in out
    assert "Legal moves: " in out


def line_to_the_end(game_id: str) -> tuple[int, list[str], bool]:
    """A deal and a line of moves that ends it (won or stuck), never repeating a position."""
    for deal in range(1, 200):
        twin = new_game(game_id, deal)
        seen = {twin.key()}
        lines: list[str] = []
        while not (twin.is_won or twin.is_stuck):
            for move in twin.legal_moves():
                trial = twin.copy()
                trial.push(move)
                if trial.key() not in seen:
                    break
            else:
                break  # every move repeats a position: try another deal
            twin.play(move)
            seen.add(twin.key())
            lines.append(str(move))
        if twin.is_won or twin.is_stuck:
            return deal, lines, twin.is_won
    raise AssertionError("no deal ended")


@pytest.mark.parametrize("game_id", list(GAMES))
def test_every_game_plays_to_its_end_in_the_terminal(game_id: str) -> None:
    deal, lines, won = line_to_the_end(game_id)
    out = run(game_id, lines, deal=deal)
    if won:
        assert "You won" in out
    else:
        assert "No legal move is left: the game is lost" in out
