"""Picture words come from render/words.py, and the boards have room for words about 40%
longer than the English ones (what a translation may need)."""

from __future__ import annotations

import ast
import re
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from PIL import ImageChops

from engine import GAMES, MAX_DEAL, Game, new_game
from render import render_image, words
from render.board import (
    CHIP_ROOM,
    TITLE_SIZE,
    _progress,
    banner_choice,
    banner_texts,
    board_layout,
    progress_size,
    title_lines,
)
from render.glyphs import text_width

from . import positions

RENDER = Path(__file__).resolve().parents[2] / "render"


def stretched(text: str) -> str:
    """Every word of two letters or more made about 40% longer ("moves" -> "movesmo")."""
    return re.sub(r"[A-Za-z]{2,}", lambda m: m[0] + m[0][: (len(m[0]) * 2 + 4) // 5], text)


def _stretch(value: Any) -> Any:
    if isinstance(value, str):
        return stretched(value)
    if isinstance(value, tuple):
        return tuple(_stretch(v) for v in value)
    if isinstance(value, dict):
        return {k: _stretch(v) for k, v in value.items()}
    if callable(value):
        def longer(*args: Any, _f: Callable[..., Any] = value, **kwargs: Any) -> Any:
            return _stretch(_f(*args, **kwargs))
        return longer
    return value


@pytest.fixture
def long_words(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    for name, value in vars(words).items():
        if name.isupper() or (callable(value) and not name.startswith("_")
                              and getattr(value, "__module__", "") == words.__name__):
            monkeypatch.setattr(words, name, _stretch(value))
    yield


def _boards(game_id: str) -> Iterator[tuple[Game, dict[str, Any]]]:
    """The longest title a game can have (largest deal, draw rule, a last move), and each
    banner."""
    game = new_game(game_id, MAX_DEAL, draw=game_id == "trefoil")
    move = game.play(game.legal_moves()[0])
    for flags in ({}, {"no_win": True}, {"resigned": True}):
        yield game, {"last_move": move, **flags}
    yield positions.stuck(game_id), {}
    yield positions.won(game_id), {}
    yield positions.won(game_id), {"assisted": True}


def _flags_banner(game: Game, flags: dict[str, Any]) -> bool:
    return bool(game.is_won or game.is_stuck or flags.get("no_win") or flags.get("resigned"))


@pytest.mark.parametrize("game_id", GAMES)
def test_words_40_percent_longer_fit_their_boxes(game_id: str, long_words: None) -> None:
    """The title's lines, the banner's and the foundations' progress each fit their box at
    a readable size (12 px at least, most 16 or more)."""
    for game, flags in _boards(game_id):
        lay, _ = board_layout(game, banner=_flags_banner(game, flags))
        box = lay.title
        lines, line_h = title_lines(game, flags.get("last_move"), box)
        assert len(lines) * line_h <= box.h - (TITLE_SIZE + 8), (game_id, lines)
        for n, (text, size) in enumerate(lines):
            room = box.w - (CHIP_ROOM if "last_move" in flags and n == len(lines) - 1 else 0)
            assert size >= 12 and text_width(text, size) + 4 <= room, (game_id, text)
        texts = banner_texts(game, **{k: v for k, v in flags.items() if k != "last_move"})
        if texts is not None:
            for line in banner_choice(lay.banner, texts[0]):
                assert text_width(line, 16, bold=True) + 4 <= lay.banner.w - 12, line
        for fslot, spec, pile in zip(lay.foundations, game.rules.foundations,
                                     game.foundations, strict=True):
            text = _progress(spec, pile)
            size = progress_size(text, fslot.info)
            assert size >= 12 and text_width(text, size) <= fslot.info.w, text


@pytest.mark.parametrize("game_id", GAMES)
def test_words_40_percent_longer_draw_nothing_outside_their_boxes(
    game_id: str, long_words: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A board with the long words and the same board with every word left out differ only
    inside the title, the banner and the foundations' progress lines."""
    boards = list(_boards(game_id))
    long = [render_image(game, **flags).convert("RGB") for game, flags in boards]
    for name, value in vars(words).items():
        if name.isupper() or (callable(value) and not name.startswith("_")):
            monkeypatch.setattr(words, name, _blank(value))
    for (game, flags), image in zip(boards, long, strict=True):
        blank = render_image(game, **flags).convert("RGB")
        lay, _ = board_layout(game, banner=_flags_banner(game, flags))
        diff = ImageChops.difference(image, blank).convert("L")
        for box in [lay.title, lay.banner] + [f.info for f in lay.foundations]:
            diff.paste(0, (box.x, box.y, box.right, box.bottom + 2))  # (2: a descender)
        assert diff.getbbox() is None, (game_id, flags, diff.getbbox())


def _blank(value: Any) -> Any:
    if isinstance(value, str):
        return ""
    if isinstance(value, tuple):
        return tuple(_blank(v) for v in value)
    if isinstance(value, dict):
        return {k: _blank(v) for k, v in value.items()}
    if callable(value):
        def blank(*args: Any, _f: Callable[..., Any] = value, **kwargs: Any) -> Any:
            return _blank(_f(*args, **kwargs))
        return blank
    return value


# Strings in render/ that are not words a player reads: image modes and formats, text anchors, the
# last move's badge states, the engine's ids and words it looks up.
NOT_WORDS = {"RGB", "GIF", "ls", "source", "target", "pile", "rows", "columns", "fonts",
             "DejaVuSansCondensed-Latin.ttf"}


def test_words_drawn_in_pictures_are_written_in_render_words_only() -> None:
    """Outside words.py, a string of render/ with a word in it is an error message (in a
    raise), a name in ``__all__``, a docstring, or one of NOT_WORDS: never drawn text."""
    for path in sorted(RENDER.glob("*.py")):
        if path.name in ("words.py", "png.py", "__main__.py", "bench.py"):  # (no picture's
            continue  # words: a file format, and the two commands' own output)
        tree = ast.parse(path.read_text(encoding="utf-8"))
        skip: set[int] = set()
        for node in ast.walk(tree):
            if isinstance(node, (ast.Module, ast.FunctionDef, ast.ClassDef)) and node.body and \
                    isinstance(node.body[0], ast.Expr):
                skip.add(id(node.body[0].value))  # a docstring
            if isinstance(node, ast.Raise) or (isinstance(node, ast.Assign) and any(
                    isinstance(t, ast.Name) and t.id == "__all__" for t in node.targets)):
                skip.update(id(n) for n in ast.walk(node))
        for node in ast.walk(tree):
            if (isinstance(node, ast.Constant) and isinstance(node.value, str)
                    and id(node) not in skip and node.value not in NOT_WORDS):
                assert not re.search(r"[A-Za-z]{2,}", node.value), (path.name, node.value)
