"""The alt text: the board in plain words, within Discord's 1,024 characters."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import GAMES, MAX_DEAL, Game, new_game, parse_card
from render import alt_text
from render.alt_text import LIMIT, card_words

from . import positions


def assert_describes(game: Game, text: str) -> None:
    """Names the game, deal and moves, and every pile's and foundation's top card."""
    assert len(text) <= LIMIT
    assert text.startswith(f"{game.name}, deal {game.deal}")
    assert f"{game.moves_made} move" in text
    for spec_index, pile in enumerate(game.foundations, 1):
        top = card_words(pile[-1]) if pile else "empty"
        assert f"f{spec_index}: {top}" in text
    for i, pile in enumerate(game.tableau):
        top = card_words(pile[-1]) if pile else "empty"
        assert f"{game.pile_name(i)}: {top}" in text
    for markdown in ("*", "_", "`", "#", "[", "|"):
        assert markdown not in text


@settings(max_examples=60, deadline=None)
@given(
    game_id=st.sampled_from(sorted(GAMES)),
    deal=st.integers(1, MAX_DEAL),
    seed=st.integers(0, 2**32),
    moves=st.integers(0, 400),
    no_win=st.booleans(),
)
def test_alt_text_fits_and_names_every_top_card_in_random_play(
    game_id: str, deal: int, seed: int, moves: int, no_win: bool
) -> None:
    game = new_game(game_id, deal, draw=game_id == "trefoil")
    rng = random.Random(seed)
    for _ in range(moves):
        choices = game.legal_moves()
        if not choices:
            break
        game.play(rng.choice(choices))
        assert_describes(game, alt_text(game, no_win=no_win))


def test_longest_corner_stones_description_fits() -> None:
    """Every pile topped by the longest card name with a two-digit count, every foundation
    nearly full, the longest deal number and status: still within Discord's limit."""
    game = new_game("corner-stones", MAX_DEAL)
    while game.moves_made < 12 and game.legal_moves():
        game.play(game.legal_moves()[0])
    queen = parse_card("QD")
    game.tableau = [[queen] * 12 for _ in game.tableau]
    game.foundations = [[queen] * 12 for _ in game.foundations]
    text = alt_text(game, no_win=True)
    assert_describes(game, text)
    assert len(text) < 950, len(text)


@pytest.mark.parametrize("game_id", GAMES)
def test_alt_text_says_how_the_game_ended(game_id: str) -> None:
    assert "Won, every card is home" in alt_text(positions.won(game_id))
    assert "Won with hints" in alt_text(positions.won(game_id), assisted=True)
    assert "Stuck, no move left" in alt_text(positions.stuck(game_id))
    playing = positions.mid_game(game_id)
    assert "No win is possible from here" in alt_text(playing, no_win=True)
    assert "No win" not in alt_text(playing) and "Won" not in alt_text(playing)
    assert "Resigned" in alt_text(playing, resigned=True)
    assert "Resigned" in alt_text(positions.stuck(game_id), resigned=True, no_win=True)
    assert "Stuck" not in alt_text(positions.stuck(game_id), resigned=True)
    assert "Resigned" not in alt_text(playing)


def test_alt_text_is_plain_sentences() -> None:
    text = alt_text(new_game("corner-stones", 9))
    assert text.startswith("Corner Stones, deal 9, 0 moves. Foundations: f1: ace of clubs, up, "
                           "1 of 13; f2: king of clubs, down, 1 of 13;")
    assert "1 (C1): " in text and "12 (C4): " in text and text.endswith(".")
    four = alt_text(new_game("four-leaf-clovers", 9))
    assert "f1: empty, any suit up from ace" in four
