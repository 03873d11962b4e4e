"""``python -m render`` and ``python -m benchmarks.render_speed``."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from PIL import Image

from benchmarks.render_speed import measure
from engine import new_game
from render import PictureOptions, layout, render_png
from render.__main__ import main
from render.layout import WIDEST


def test_command_draws_a_deal_after_its_moves(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "board.png"
    assert main(["trefoil", "--deal", "42", "--moves", "5 f3, 3 10", "-o", str(out)]) == 0
    image = Image.open(io.BytesIO(out.read_bytes()))
    assert image.width == layout("trefoil").width
    assert "Trefoil deal 42, 2 moves" in capsys.readouterr().out


def test_command_draws_the_bots_default_deck_unless_told(tmp_path: Path) -> None:
    """Four colours, as the bot deals by default; red and black on request."""
    four, two = tmp_path / "four.png", tmp_path / "two.png"
    assert main(["clover-leaf", "--deal", "7", "-o", str(four)]) == 0
    assert main(["clover-leaf", "--deal", "7", "--no-four-colour", "-o", str(two)]) == 0
    game = new_game("clover-leaf", 7)
    assert four.read_bytes() == render_png(game, options=PictureOptions(four_colour=True))
    assert two.read_bytes() == render_png(game, options=PictureOptions(four_colour=False))
    assert four.read_bytes() != two.read_bytes()


def test_command_draws_the_no_win_banner_and_prints_the_alt_text(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    plain, warned = tmp_path / "plain.png", tmp_path / "warned.png"
    assert main(["clover-leaf", "--deal", "3", "-o", str(plain)]) == 0
    assert main(["clover-leaf", "--deal", "3", "--no-win", "--alt", "-o", str(warned)]) == 0
    assert plain.read_bytes() != warned.read_bytes()
    out = capsys.readouterr().out
    assert "Clover Leaf, deal 3, 0 moves. No win is possible from this deal. Foundations: " in out


def test_command_draws_a_resigned_board(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "board.png"
    assert main(["trefoil", "--deal", "42", "--moves", "5 f3", "--resigned", "--alt",
                 "-o", str(out)]) == 0
    assert "Trefoil, deal 42, 1 move, 2 redeals left. Resigned." in capsys.readouterr().out


def test_command_names_the_move_it_refuses(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "board.png"
    assert main(["trefoil", "--deal", "42", "--moves", "5 f3,1 2", "-o", str(out)]) == 2
    assert "move 2 ('1 2')" in capsys.readouterr().err
    assert not out.exists()


def test_bench_measures_every_figure_it_prints() -> None:
    figures = measure("corner-stones", count=3, seed=1, level=3)
    assert set(figures) == {"median", "p95", "compose", "cpu", "kb", "kb_max", "height",
                            "height_max", "width", "width_max"}
    assert 0 < figures["compose"] <= figures["median"] <= figures["p95"]
    assert 0 < figures["kb"] <= figures["kb_max"]
    assert 0 < figures["width"] <= figures["width_max"] <= WIDEST
    assert 0 < figures["height"] <= figures["height_max"] <= figures["width_max"] * 16 / 9
