"""The alt text: the board in plain words, within Discord's 1,024 characters."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import GAMES, MAX_DEAL, Game, new_game
from render import PictureOptions, PictureWords, alt_text
from render.alt_text import LONGEST
from render.words import ENGLISH

from . import positions
from .long_words import LONG, stretched


def assert_describes(game: Game, text: str, words: PictureWords = ENGLISH) -> None:
    """Names the game, deal and moves, every foundation's top card, and every card of
    every pile, bottom to top."""
    assert len(text) <= LONGEST
    redeals = game.redeals_left if game.rules.redeals else None
    assert text.startswith(words.alt_header(game.name, game.deal_number, game.draw_rule,
                                            game.moves_made, redeals))
    for spec_index, pile in enumerate(game.foundations, 1):
        top = words.card_words(pile[-1]) if pile else words.alt_empty()
        assert f"f{spec_index}: {top}" in text
    if any(game.tableau):
        for i, pile in enumerate(game.tableau):
            cards = " ".join(str(card) for card in pile) if pile else words.alt_empty()
            assert f"{game.pile_name(i)}: {cards};" in text or text.endswith(
                f"{game.pile_name(i)}: {cards}."), (i, cards)
    else:
        assert text.endswith(words.alt_all_empty(game.rules.pile_word == "stack"))
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
        assert_describes(game, alt_text(game, options=PictureOptions(no_win=no_win)))


def longest(game_id: str) -> Game:
    """Every card that can leave a foundation's base in the piles (what makes the list
    longest), every pile holding some, the largest deal number and the draw rule."""
    game = new_game(game_id, MAX_DEAL, draw=game_id == "trefoil")
    rng = random.Random(1)
    while game.moves_made < 12 and game.legal_moves():
        game.play(rng.choice(game.legal_moves()))
    spare = [c for pile in game.tableau for c in pile]
    for spec, foundation in zip(game.rules.foundations, game.foundations, strict=True):
        keep = 1 if spec.prefilled else 0
        spare += foundation[keep:]
        del foundation[keep:]
    spare.sort(key=lambda c: -len(str(c)))  # the tens, three characters, all in
    game.tableau = [spare[i::len(game.tableau)] for i in range(len(game.tableau))]
    assert sum(map(len, game.tableau)) == game.rules.card_count - sum(map(len, game.foundations))
    return game


@pytest.mark.parametrize("game_id", GAMES)
def test_the_longest_description_of_each_game_fits(game_id: str) -> None:
    """The longest position, with a four-digit move count and the longest status: still
    within Discord's limit, every card named, the legend of the codes whole."""
    game = longest(game_id)
    text = alt_text(game, options=PictureOptions(no_win=True))
    assert_describes(game, text)
    assert ENGLISH.alt_card_codes(game.rules.pile_word == "stack") in text
    assert len(text) + len("9999") - len(str(game.moves_made)) <= LONGEST - 40, len(text)


@pytest.mark.parametrize("game_id", GAMES)
def test_the_longest_description_fits_in_words_40_percent_longer(game_id: str) -> None:
    """Every card is still named; Corner Stones says its legend in short (its whole legend
    would not leave room for its 104 cards)."""
    game = longest(game_id)
    text = alt_text(game, options=PictureOptions(no_win=True), words=LONG)
    assert_describes(game, text, LONG)
    assert len(text) + len("9 999") - len(str(game.moves_made)) <= LONGEST, len(text)
    stacks = game.rules.pile_word == "stack"
    legend = LONG.alt_card_codes_short(stacks) if stacks else LONG.alt_card_codes(stacks)
    assert legend in text


def test_a_language_longer_still_leaves_out_the_legend_then_the_last_piles() -> None:
    game = longest("corner-stones")
    twice = PictureWords(text=lambda message, **facts: stretched(stretched(message)).format(
        **facts), plural=LONG.n_, word=LONG.p_)
    text = alt_text(game, options=PictureOptions(no_win=True), words=twice)
    assert_describes(game, text, twice)
    assert twice.alt_card_codes_short(True) not in text, "no legend"
    huge = PictureWords(text=lambda message, **facts: (
        "x" * 400 + message if message.startswith("Foundations") else message).format(**facts))
    text = alt_text(game, options=PictureOptions(no_win=True), words=huge)
    assert len(text) <= LONGEST and text.endswith("; ….")
    listed = text.split("Stacks: ")[1].removesuffix("; ….").split("; ")
    assert 0 < len(listed) < 12
    for i, said in enumerate(listed):
        assert said == f"{game.pile_name(i)}: " + " ".join(map(str, game.tableau[i])), "whole"


def test_a_20_card_corner_stones_stack_is_listed_card_by_card() -> None:
    game = positions.long_piles("corner-stones", [20, 8, 8])
    text = alt_text(game)
    listed = text.split("1 (C1): ")[1].split(";")[0].split()
    assert listed == [str(card) for card in game.tableau[0]] and len(listed) == 20


@pytest.mark.parametrize("game_id", GAMES)
def test_alt_text_says_how_the_game_ended(game_id: str) -> None:
    assert "Won, every card is home" in alt_text(positions.won(game_id))
    assert "Won with hints" in alt_text(positions.won(game_id), options=PictureOptions(assisted=True))
    assert "Stuck, no move left" in alt_text(positions.stuck(game_id))
    playing = positions.mid_game(game_id)
    assert "No win is possible from here" in alt_text(playing, options=PictureOptions(no_win=True))
    assert "No win is possible from this deal" in alt_text(playing, options=PictureOptions(lost_as_dealt=True))
    assert "No win is possible from this deal" in alt_text(new_game(game_id, 42), options=PictureOptions(no_win=True))
    assert "No win" not in alt_text(playing) and "Won" not in alt_text(playing)
    assert "Resigned" in alt_text(playing, options=PictureOptions(resigned=True))
    assert "Resigned" in alt_text(positions.stuck(game_id), options=PictureOptions(resigned=True, no_win=True))
    assert "Stuck" not in alt_text(positions.stuck(game_id), options=PictureOptions(resigned=True))
    assert "Resigned" not in alt_text(playing)


def test_alt_text_is_plain_sentences() -> None:
    text = alt_text(new_game("corner-stones", 9))
    assert text.startswith("Corner Stones, deal 9, 0 moves. Foundations: f1: ace of clubs, up, "
                           "1 of 13; f2: king of clubs, down, 1 of 13;")
    assert ("Cards by rank and suit letter (C clubs, D diamonds, H hearts, S spades), each "
            "stack from bottom to top. Stacks: 1 (C1): ") in text
    assert "12 (C4): " in text and text.endswith(".")
    four = alt_text(new_game("four-leaf-clovers", 9))
    assert "f1: empty, any suit up from ace" in four
    assert "each pile from bottom to top. Piles: 1: " in four
    assert alt_text(positions.won("trefoil")).endswith("Piles: all empty.")
