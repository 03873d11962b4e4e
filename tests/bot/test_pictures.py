"""The pictures speak the language spoken when they are asked for: their words, alt texts and
card faces, in threads and in worker processes (bot/workers/pictures.py)."""

from __future__ import annotations

import io
from collections.abc import Iterator

import pytest
from babel import Locale
from PIL import Image

from bot.replies import Drawing
from bot.words import language
from bot.words.language import ENGLISH, Words, speaking
from bot.workers.pictures import Pictures
from engine import new_game
from render import PictureOptions, alt_text, render_png
from render.stats_card import StatsRow
from tests.marked_language import Wrapping

CODE = "x-brackets"
GERMAN = {"J": "B", "Q": "D", "K": "K"}
# Every sentence in brackets, every word in angles, ranks as German cards print them.
BRACKETS = Wrapping(("[", "]"), ("<", ">"), ranks=GERMAN)


@pytest.fixture
def brackets(monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    monkeypatch.setitem(language._installed, CODE,
                        Words(CODE, BRACKETS, Locale.parse("en_US")))
    language.words_for.cache_clear()
    yield CODE
    monkeypatch.undo()
    language.words_for.cache_clear()


async def test_a_board_is_drawn_and_described_in_the_language_spoken(brackets: str) -> None:
    game = new_game("trefoil", 42)
    game.play(game.legal_moves()[0])
    pictures = Pictures()
    try:
        worded = await pictures.board(Drawing(game, PictureOptions(no_win=True), brackets))
        english = await pictures.board(Drawing(game, PictureOptions(no_win=True), ENGLISH))
    finally:
        pictures.close()
    assert english.alt_text == alt_text(game, options=PictureOptions(no_win=True))
    assert english.png == render_png(game, last_move=game.last_move, options=PictureOptions(no_win=True))
    assert worded.alt_text.startswith("Trefoil, [deal 42], [1 move], [2 redeals left]. "
                                      "[No win is possible from here.] [Foundations: f1: "
                                      "[[<ace> of <clubs>], up, 1 of 13]")
    assert worded.png != english.png


async def test_the_stats_card_and_the_replay_are_in_the_language_spoken(brackets: str) -> None:
    game = new_game("trefoil", 42)
    for _ in range(3):
        game.play(game.legal_moves()[0])
    rows = [StatsRow("Trefoil", 4, 2, "", 1)]
    pictures = Pictures()
    try:
        with speaking(brackets):
            card = await pictures.stats("t", "s", rows)
            replay = await pictures.replay(game)
        english = await pictures.stats("t", "s", rows)
        english_replay = await pictures.replay(game)
    finally:
        pictures.close()
    assert card.alt_text == "t. s. Trefoil: [2 of 4 won (50%), 1 more won with hints]."
    assert english.alt_text == "t. s. Trefoil: 2 of 4 won (50%), 1 more won with hints."
    assert card.png != english.png
    assert replay != english_replay


async def test_a_worker_process_draws_in_the_language_asked_for() -> None:
    """The language travels to the process as its code; the words are that process's own."""
    game = new_game("clover-leaf", 3)
    pictures = Pictures(processes=1)
    try:
        drawn = await pictures.board(Drawing(game, PictureOptions(four_colour=True), ENGLISH))
        card = await pictures.stats("t", "s", [StatsRow("Trefoil", 4, 2)])
    finally:
        pictures.close()
    assert drawn.png == render_png(game, options=PictureOptions(four_colour=True))
    assert drawn.alt_text == alt_text(game)
    assert Image.open(io.BytesIO(card.png)).width > 0
    assert card.alt_text == "t. s. Trefoil: 2 of 4 won (50%)."
