"""The pictures' words come from ``PictureWords``: the language a picture is asked in words
it (and prints its cards' ranks), every word reaches the catalog, and the pictures have room
for words about 40% longer than the English ones (what a translation may need)."""

from __future__ import annotations

import ast
import io
import re
from collections.abc import Iterator
from functools import _lru_cache_wrapper
from pathlib import Path
from typing import Any

import pytest
from babel.messages.extract import extract_from_file
from PIL import Image, ImageChops, ImageDraw

from engine import GAMES, MAX_DEAL, Game, new_game, parse_card
from render import (
    PictureOptions,
    PictureWords,
    alt_text,
    board,
    cards,
    glyphs,
    render_image,
    sprites,
)
from render.board import (
    BANNER_SIZE,
    CHIP_ROOM,
    TITLE_SIZE,
    _progress,
    banner_choice,
    banner_texts,
    board_layout,
    progress_lines,
    title_lines,
)
from render.glyphs import cap_height, text_width
from render.replay import replay_gif
from render.sprites import least_size
from render.stats_card import (
    MARGIN,
    WIDTH,
    StatsRow,
    name_and_count,
    render_stats_png,
    stats_alt_text,
)
from render.words import ENGLISH

from . import positions
from .long_words import GERMAN_RANKS, LONG

WORDS = Path(__file__).resolve().parents[2] / "render" / "words.py"
KEYWORDS = {"_": None, "n_": (1, 2), "p_": ((1, "c"), 2)}  # as the catalog is extracted


def _boards(game_id: str) -> Iterator[tuple[Game, dict[str, Any]]]:
    """The longest title a game can have (largest deal, draw rule, a last move), and each
    banner."""
    game = new_game(game_id, MAX_DEAL, draw=game_id == "trefoil")
    move = game.play(game.legal_moves()[0])
    for options in (PictureOptions(), PictureOptions(no_win=True), PictureOptions(resigned=True)):
        yield game, {"last_move": move, "options": options}
    yield positions.stuck(game_id), {}
    yield positions.won(game_id), {}
    yield positions.won(game_id), {"options": PictureOptions(assisted=True)}


def _flags_banner(game: Game, flags: dict[str, Any]) -> bool:
    options = flags.get("options", PictureOptions())
    return bool(game.is_won or game.is_stuck or options.no_win or options.resigned)


def _outcome(flags: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in flags.items() if k != "last_move"}


# -- room for longer words ------------------------------------------------------------------


@pytest.mark.parametrize("game_id", GAMES)
def test_words_40_percent_longer_fit_their_boxes(game_id: str) -> None:
    """The title's lines, the banner's and the foundations' progress each fit their box,
    none smaller than the picture's least size (capitals 9 px on a phone)."""
    for game, flags in _boards(game_id):
        lay, _ = board_layout(game, banner=_flags_banner(game, flags))
        least = least_size(lay.width)
        box = lay.title
        lines, line_h = title_lines(game, flags.get("last_move"), box, LONG, least=least)
        assert len(lines) * line_h <= box.h - (TITLE_SIZE + 8), (game_id, lines)
        for n, (text, size) in enumerate(lines):
            room = box.w - (CHIP_ROOM if "last_move" in flags and n == len(lines) - 1 else 0)
            assert size >= least and text_width(text, size) + 4 <= room, (game_id, text)
        texts = banner_texts(game, **_outcome(flags), words=LONG)
        if texts is not None:
            size = max(BANNER_SIZE, least)
            for line in banner_choice(lay.banner, texts[0], size):
                assert text_width(line, size, bold=True) + 4 <= lay.banner.w - 12, line
        for fslot, spec, pile in zip(lay.foundations, game.rules.foundations,
                                     game.foundations, strict=True):
            text = _progress(spec, pile, LONG)
            shown, size = progress_lines(text, fslot.info, least)
            assert size >= least and len(shown) * cap_height(size) * 3 // 2 <= fslot.info.h
            for line in shown:
                assert text_width(line, size) <= fslot.info.w, text


def _blank(*args: Any, **facts: Any) -> str:
    return ""


# No word at all, the same card faces as LONG: what LONG's words add to a picture.
BLANK = PictureWords(text=_blank, plural=_blank, word=_blank,
                     rank=lambda rank: GERMAN_RANKS[rank - 1], percent=_blank)


@pytest.mark.parametrize("game_id", GAMES)
def test_words_40_percent_longer_draw_nothing_outside_their_boxes(game_id: str) -> None:
    """A board in the long words and the same board without a word differ only inside the
    title, the banner and the foundations' progress lines."""
    for game, flags in _boards(game_id):
        long = render_image(game, **flags, words=LONG).convert("RGB")
        blank = render_image(game, **flags, words=BLANK).convert("RGB")
        lay, _ = board_layout(game, banner=_flags_banner(game, flags))
        diff = ImageChops.difference(long, blank).convert("L")
        assert diff.getbbox() is not None, "the words are drawn"
        for box in [lay.title, lay.banner] + [f.info for f in lay.foundations]:
            diff.paste(0, (box.x, box.y, box.right, box.bottom + 2))  # (2: a descender)
        assert diff.getbbox() is None, (game_id, flags, diff.getbbox())


def test_a_replay_in_long_words_shows_the_boards_drawn_in_them() -> None:
    game = positions.mid_game("trefoil", moves=3)
    gif = Image.open(io.BytesIO(replay_gif(game, options=PictureOptions(resigned=True), words=LONG)))
    gif.seek(gif.n_frames - 1)
    last = render_image(game, last_move=game.last_move, options=PictureOptions(resigned=True), words=LONG)
    shown = gif.convert("RGB").crop((0, 0, *last.size))
    assert ImageChops.difference(last.convert("RGB"), shown).getbbox() is None
    english = render_image(game, last_move=game.last_move, options=PictureOptions(resigned=True)).convert("RGB")
    assert ImageChops.difference(english, shown).getbbox() is not None


def test_the_stats_card_in_long_words_keeps_its_counts_on_their_line() -> None:
    rows = [StatsRow(name, 5678, 1234, "", assisted) for name in GAMES.values()
            for assisted in (0, 1234)] + [StatsRow("Trefoil", 0, 0)]
    for row in rows:
        (name, name_size), (count, count_size) = name_and_count(row, LONG)
        assert count == LONG.stats_count(row.won, row.played, row.assisted)
        width = text_width(name, name_size, bold=True) + text_width(count, count_size)
        assert width + 12 <= WIDTH - 2 * MARGIN and min(name_size, count_size) >= 14
    for shown in (rows, []):
        image = Image.open(io.BytesIO(render_stats_png("t", "s", shown, LONG))).convert("RGB")
        felt = image.getpixel((0, 0))
        for box in ((0, 0, MARGIN - 4, image.height),
                    (WIDTH - MARGIN + 4, 0, WIDTH, image.height)):
            assert [c for _, c in image.crop(box).getcolors(1 << 16) or []] == [felt], box
    said = stats_alt_text("t", "s", rows, LONG)
    assert LONG.stats_count_words(1234, 5678, 1234) in said
    assert stats_alt_text("t", "s", [], LONG) == f"t. s. {LONG.no_games().rstrip('.')}."


def test_long_words_are_accented_and_about_40_percent_longer() -> None:
    """The pseudo-language the pictures are tested in is as long as it claims, and draws
    accented capitals (above a capital's height) and French numbers."""
    english, long = ENGLISH.won(1234)[0], LONG.won(1234)[0]
    assert len(long) >= 1.35 * len(english) and "É" in long
    assert "1\u202f234" in long and LONG.percent(0.5) == "50\u202f%"
    assert LONG.card(parse_card("QH")) == "D♥"


# -- the words come from PictureWords, and reach the catalog ----------------------------------

ALIEN = str.maketrans({c: chr(0xFF21 + ord(c) - ord("A")) if c.isupper()
                       else chr(0xFF41 + ord(c) - ord("a"))
                       for c in "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"})


def _alien(message: str, /, **facts: Any) -> str:
    """Every letter of a message written in full-width letters: a word left in English
    anywhere in a picture shows as plain letters."""
    return re.sub(r"(\{[^}]*\})|([^{]+)", lambda m: m[1] or m[2].translate(ALIEN),
                  message).format(**facts)


ALIEN_WORDS = PictureWords(
    text=_alien, plural=lambda one, many, count, **facts: _alien(
        one if count == 1 else many, count=count, **facts),
    word=lambda context, message: _alien(message), rank=lambda rank: GERMAN_RANKS[rank - 1])


@pytest.fixture
def drawn(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[str]]:
    """Every text drawn (each word, as ``paint_text`` draws them one by one), from empty
    caches so that nothing drawn before is pasted instead."""
    for module in (board, cards, glyphs, sprites):
        for value in vars(module).values():
            if isinstance(value, _lru_cache_wrapper):
                value.cache_clear()
    texts: list[str] = []
    original = ImageDraw.ImageDraw.text

    def text(self: ImageDraw.ImageDraw, xy: Any, what: str, *args: Any, **kwargs: Any) -> None:
        texts.append(what)
        original(self, xy, what, *args, **kwargs)

    monkeypatch.setattr(ImageDraw.ImageDraw, "text", text)
    yield texts
    for module in (board, cards, glyphs, sprites):
        for value in vars(module).values():
            if isinstance(value, _lru_cache_wrapper):
                value.cache_clear()


def _english_words(text: str, allowed: str) -> list[str]:
    """Runs of two plain letters or more in ``text``, but for those of ``allowed``."""
    return [w for w in re.findall(r"[A-Za-z]{2,}", text) if w not in allowed.split()]


@pytest.mark.parametrize("game_id", GAMES)
def test_every_word_drawn_and_said_comes_from_picture_words(
    game_id: str, drawn: list[str]
) -> None:
    """Drawn and described in a language whose letters are all full-width, a board shows and
    says no plain word but the game's name (a proper name) and, in the alt text, the card
    codes a player types (``QH``)."""
    for game, flags in _boards(game_id):
        render_image(game, **flags, words=ALIEN_WORDS)
        said = alt_text(game, **_outcome(flags), words=ALIEN_WORDS)
        codes = re.sub(r"\b(10|[2-9AJQK])[CDHS]\b", "", said)
        assert not _english_words(codes, game.name), said
    assert drawn, "the words are drawn"
    assert any(GERMAN_RANKS[11] == text for text in drawn), "a card face's rank"
    for text in drawn:
        assert not _english_words(text, game.name), text


def test_every_word_on_the_stats_card_comes_from_picture_words(drawn: list[str]) -> None:
    rows = [StatsRow("Trefoil", 4, 2, "", 1), StatsRow("Trefoil", 4, 2), StatsRow("Trefoil", 0, 0),
            StatsRow("Trefoil", 4, 0, "", 1), StatsRow("Trefoil", 4, 0)]
    for shown in (rows, []):
        render_stats_png("1", "2", shown, ALIEN_WORDS)
        assert not _english_words(stats_alt_text("1", "2", shown, ALIEN_WORDS), "Trefoil")
    assert drawn and all(not _english_words(text, "Trefoil") for text in drawn), drawn


def test_every_word_in_words_py_is_a_message_babel_extracts() -> None:
    """A string of ``PictureWords`` with a word in it is a docstring or the message (or
    context) of a ``self._``, ``self.n_`` or ``self.p_`` call, which the catalog's
    extraction finds: none is left out of the translation."""
    extracted: set[str] = set()
    for _, message, _, context in extract_from_file("python", str(WORDS), keywords=KEYWORDS):
        extracted.update([message] if isinstance(message, str) else message)
        extracted.add(context or "")
    assert len(extracted) > 60
    [words] = [node for node in ast.walk(ast.parse(WORDS.read_text(encoding="utf-8")))
               if isinstance(node, ast.ClassDef) and node.name == "PictureWords"]
    docstrings = {id(node.body[0].value) for node in ast.walk(words)
                  if isinstance(node, (ast.ClassDef, ast.FunctionDef))
                  and isinstance(node.body[0], ast.Expr)}
    wordy = {node.value for node in ast.walk(words) if isinstance(node, ast.Constant)
             and isinstance(node.value, str) and id(node) not in docstrings
             and re.search(r"[A-Za-z]{2,}", node.value)}
    assert {"Deal {number}", "{count} moves", "queen"} <= wordy
    assert wordy <= extracted, wordy - extracted


# -- another language, other words ---------------------------------------------------------


def _brackets(message: str, /, **facts: Any) -> str:
    return "[" + message.format(**facts) + "]"


BRACKETS = PictureWords(
    text=_brackets, plural=lambda one, many, count, **facts: _brackets(
        one if count == 1 else many, count=count, **facts),
    word=lambda context, message: f"<{message}>")


def test_a_language_words_the_alt_text() -> None:
    game = new_game("trefoil", 42)
    game.play(game.legal_moves()[0])
    said = alt_text(game, options=PictureOptions(no_win=True), words=BRACKETS)
    assert said.startswith("Trefoil, [deal 42], [1 move], [2 redeals left]. "
                           "[No win is possible from here.] [Foundations: f1: [[<ace> of <clubs>], up, 1 of 13]")
    assert "[Cards by rank and suit letter (C clubs, D diamonds, H hearts, S spades), each " \
           "pile from bottom to top.] [Piles: 1: " in said
    assert alt_text(game, options=PictureOptions(no_win=True)) == said.replace("[", "").replace("]", "").replace(
        "<", "").replace(">", "")


def test_a_language_words_the_picture_and_its_rank_letters_print_on_the_cards() -> None:
    game = positions.mid_game("trefoil")
    english = render_image(game).convert("RGB")
    worded = render_image(game, words=BRACKETS).convert("RGB")
    lay, _ = board_layout(game, banner=False)
    changed = ImageChops.difference(english, worded).getbbox()
    assert changed is not None and changed[3] <= lay.title.bottom, "the title's words only"
    german = PictureWords(rank=lambda rank: GERMAN_RANKS[rank - 1])
    cards_changed = ImageChops.difference(english, render_image(game, words=german).convert("RGB"))
    assert cards_changed.getbbox() is not None
    queen, seven = parse_card("QH"), parse_card("7H")
    assert cards.card_rgb(queen, False, GERMAN_RANKS).tobytes() != \
        cards.card_rgb(queen, False).tobytes()
    assert cards.card_rgb(seven, False, GERMAN_RANKS).tobytes() == \
        cards.card_rgb(seven, False).tobytes()
    assert german.card(queen) == "D♥" and ENGLISH.card(queen) == "Q♥"
