"""The console draws every board in characters, as the picture lays it out, and writes a
board's picture only when asked (``bot/console/board_text.py``)."""

from __future__ import annotations

import dataclasses
import io
import os
import pty
import re
import select
import subprocess
import sys
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

import pytest

from bot.console import CONSOLE_PLAYER, Console
from bot.console.board_text import WIDTH, wants_colour
from bot.core import Core
from engine import PILE, Game, new_game

REPO = Path(__file__).resolve().parents[2]
PNG = b"\x89PNG\r\n\x1a\n"
ANSI = re.compile(r"\x1b\[[0-9;]*m")
PILE_LINE = re.compile(r"^ +(\d+(?: [A-Z]\d+)?) │ (.*)$")  # "  7 │ 9♣ 8♦", "  3 S1 │ 4♣"
MORE_LINE = re.compile(r"^ +│ (.*)$")  # a long pile's cards, gone on under its first line
FOUNDATIONS = re.compile(r"^ +f1[↑↓] ")
GERMAN = dataclasses.replace(CONSOLE_PLAYER, language="de")
# A deal of each game with a move between piles at the start.
DEALS = {"clover-leaf": 5, "four-leaf-clovers": 3, "super-flower-garden": 8, "trefoil": 2,
         "corner-stones": 2}


@asynccontextmanager
async def console_at(tmp_path: Path, *, colour: bool | None = None) -> AsyncIterator[Console]:
    core = await Core.open(tmp_path / "s.db", cooldowns=False)
    try:
        yield Console(core, tmp_path / "boards", io.StringIO(), colour=colour)
    finally:
        await core.close()


async def typed(console: Console, *lines: str) -> str:
    """What the console printed for ``lines``."""
    out = console.out
    assert isinstance(out, io.StringIO)
    start = len(out.getvalue())
    for line in lines:
        assert await console.handle(line)
    return out.getvalue()[start:]


def drawn(text: str) -> list[tuple[str, list[str]]]:
    """The board drawn in ``text``, line by line: ``("f", [tab and top, ...])`` for the
    foundations, ``(label, [card, ...])`` for each pile (its lines gone on joined)."""
    board: list[tuple[str, list[str]]] = []
    for line in ANSI.sub("", text).splitlines():
        if FOUNDATIONS.match(line):
            board.append(("f", line.strip().split("  ")))
        elif pile := PILE_LINE.match(line):
            board.append((pile[1], pile[2].split(" ")))
        elif (more := MORE_LINE.match(line)) and board:
            board[-1][1].extend(more[1].split(" "))
    return board


def as_drawn(game: Game) -> list[tuple[str, list[str]]]:
    """What the board of ``game`` must show, in the picture's order: the foundations
    first, or in Corner Stones after C1 and C2 (and before S1), every pile's label as the
    console takes it and every card from the bottom up."""
    rules = game.rules
    tops = []
    for f, (spec, pile) in enumerate(zip(rules.foundations, game.foundations, strict=True)):
        base = spec.base_cards()[0]
        top = pile[-1].label if pile else f"({base.label if spec.suit is not None else 'A'})"
        tops.append(f"f{f + 1}{'↑' if spec.step > 0 else '↓'} {top}")
    piles = [(f"{p + 1} {rules.pile_names[p]}" if rules.pile_names else str(p + 1),
              [card.label for card in pile] or ["·"]) for p, pile in enumerate(game.tableau)]
    at = 2 if rules.pile_names else 0
    return [*piles[:at], ("f", tops), *piles[at:]]


@pytest.mark.parametrize("game_id", list(DEALS))
async def test_every_board_is_drawn_as_its_position_and_played_by_the_labels_it_shows(
    tmp_path: Path, game_id: str
) -> None:
    deal = DEALS[game_id]
    game = new_game(game_id, deal)
    async with console_at(tmp_path) as console:
        text = await typed(console, f"/new {game_id} {deal}")
        board = drawn(text)
        assert board == as_drawn(game)
        # A move typed with the labels read off the board (Corner Stones' names: C1 S2).
        move = next(m for m in game.legal_moves() if m.kind == PILE)
        names = {label.split()[0]: label.split()[-1] for label, _cards in board if label != "f"}
        text = await typed(console, f"{names[str(move.src + 1)]} {names[str(move.dst + 1)]}")
        assert f"Played {move}" in text and "I don't understand" not in text
        game.play(str(move))
        assert drawn(text) == as_drawn(game)
        for again in ("Undo", "/show"):  # a board taken back, a board shown again
            assert drawn(await typed(console, again)) == as_drawn(new_game(game_id, deal))
    if game_id == "corner-stones":
        assert [label for label, _cards in board][:4] == ["1 C1", "2 C2", "f", "3 S1"]


async def test_cards_are_drawn_in_the_players_language(tmp_path: Path) -> None:
    """A German deck's Queen is a Dame: Trefoil 2's pile 5 is Q♥ 3♦ Q♦."""
    core = await Core.open(tmp_path / "s.db", cooldowns=False)
    try:
        console = Console(core, tmp_path / "b", io.StringIO(), GERMAN)
        text = await typed(console, "/neu trefoil 2")
    finally:
        await core.close()
    assert ("5", ["D♥", "3♦", "D♦"]) in drawn(text)


async def test_a_long_stack_goes_on_under_itself_within_80_columns(tmp_path: Path) -> None:
    """Corner Stones built up to a stack of 32 cards: no line of its board is wider than a
    terminal, in colour or not, and every card still shows, in order."""
    game = new_game("corner-stones", 2)
    moves = []
    while longer := [m for m in game.legal_moves() if m.kind == PILE
                     and len(game.tableau[m.dst]) >= len(game.tableau[m.src])]:
        move = max(longer, key=lambda m: len(game.tableau[m.dst]))
        game.play(str(move))
        moves.append(str(move))
    assert max(map(len, game.tableau)) >= 30
    for colour in (False, True):
        async with console_at(tmp_path / str(colour), colour=colour) as console:
            await typed(console, "/new corner-stones 2", *moves[:-1])
            text = await typed(console, moves[-1])
        board = [ANSI.sub("", line) for line in text.splitlines()
                 if PILE_LINE.match(ANSI.sub("", line)) or MORE_LINE.match(ANSI.sub("", line))
                 or FOUNDATIONS.match(ANSI.sub("", line))]
        assert len(board) > 13, "the longest stack takes more than one line"
        assert max(len(line) for line in board) <= WIDTH
        assert drawn(text) == as_drawn(game)


async def test_colour_is_the_pictures_where_forced_and_none_elsewhere(tmp_path: Path) -> None:
    async with console_at(tmp_path / "plain") as console:  # not a terminal
        assert "\x1b" not in await typed(console, "/new trefoil 2", "12 8", "Undo")
    async with console_at(tmp_path / "forced", colour=True) as console:
        text = await typed(console, "/new trefoil 2")
        # The four-colour deck: ♣ green, ♦ blue, ♥ red, ♠ the terminal's own ink.
        assert "f1↑ \x1b[32mA♣\x1b[0m  f2↑ \x1b[34mA♦\x1b[0m  f3↑ \x1b[31mA♥\x1b[0m  f4↑ A♠" in text
        await typed(console, "/settings four_colour:False")
        text = await typed(console, "/show")
        assert "f1↑ A♣  f2↑ \x1b[31mA♦\x1b[0m  f3↑ \x1b[31mA♥\x1b[0m  f4↑ A♠" in text


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_colour_only_on_a_terminal_and_never_with_no_color() -> None:
    assert wants_colour(Terminal(), {}) and not wants_colour(io.StringIO(), {})
    assert not wants_colour(Terminal(), {"NO_COLOR": "1"})
    assert not wants_colour(Terminal(), {"TERM": "dumb"})
    assert wants_colour(io.StringIO(), {"FORCE_COLOR": "1"})
    assert not wants_colour(io.StringIO(), {"FORCE_COLOR": "0"})
    assert not wants_colour(Terminal(), {"NO_COLOR": "1", "FORCE_COLOR": "1"})
    assert wants_colour(Terminal(), {"NO_COLOR": ""}), "NO_COLOR set to nothing is not set"


def _console_in_a_terminal(tmp_path: Path, **env: str) -> str:
    """``python -m bot --console`` printing to a pseudo-terminal: what it printed."""
    environ = {k: v for k, v in os.environ.items()
               if k not in ("DISCORD_TOKEN", "NO_COLOR", "FORCE_COLOR")}
    environ.update(DATABASE_PATH=str(tmp_path / "s.db"), TERM="xterm", **env)
    leader, follower = pty.openpty()
    proc = subprocess.Popen(
        [sys.executable, "-m", "bot", "--console", "--env-file", str(tmp_path / "none")],
        cwd=REPO, env=environ, stdin=subprocess.PIPE, stdout=follower,
        stderr=subprocess.DEVNULL,
    )
    os.close(follower)
    assert proc.stdin is not None
    proc.stdin.write(b"/new trefoil 2\n/quit\n")
    proc.stdin.close()
    printed = b""
    while select.select([leader], [], [], 60)[0]:
        try:
            chunk = os.read(leader, 65536)
        except OSError:  # the terminal's other end is closed: the console has ended
            break
        if not chunk:
            break
        printed += chunk
    os.close(leader)
    assert proc.wait(timeout=30) == 0
    return printed.decode()


def test_a_terminal_gets_colour_unless_no_color_is_set(tmp_path: Path) -> None:
    coloured = _console_in_a_terminal(tmp_path / "tty")
    assert "\x1b[31mA♥\x1b[0m" in coloured and "1 │" in coloured
    plain = _console_in_a_terminal(tmp_path / "no", NO_COLOR="1")
    assert "\x1b[" not in plain and "f3↑ A♥" in plain


async def test_a_boards_picture_is_written_only_when_asked(tmp_path: Path) -> None:
    boards = tmp_path / "boards"
    async with console_at(tmp_path) as console:
        text = await typed(console, "/picture")
        assert "There is no board to draw yet: /show shows your game's" in text
        text = await typed(console, "/new trefoil 2", "12 8", "Undo", "/show")
        assert "Picture:" not in text and not boards.exists()
        text = await typed(console, "/picture", "/picture")
        [picture] = boards.iterdir()
        assert picture.name == "001-trefoil-2-0.png" and picture.read_bytes().startswith(PNG)
        assert text.count(f"Picture: {picture}") == 2, "asked twice, written once"
        text = await typed(console, "/help")
        assert "In the console, /picture writes the last board's picture to a file" in text


async def test_a_german_console_takes_its_own_word_for_picture(tmp_path: Path) -> None:
    core = await Core.open(tmp_path / "s.db", cooldowns=False)
    try:
        console = Console(core, tmp_path / "b", io.StringIO(), GERMAN)
        text = await typed(console, "/neu trefoil 2", "/bild", "/hilfe")
    finally:
        await core.close()
    assert f"Bild: {tmp_path / 'b' / '001-trefoil-2-0.png'}" in text
    assert "In der Konsole schreibt /bild das Bild" in text


async def test_a_board_proven_lost_is_written_as_amended(tmp_path: Path) -> None:
    """Clover Leaf 7 is lost from its deal: the solver says so after the board, and the
    picture asked for then is the one with the banner, never one without."""
    boards = tmp_path / "boards"
    async with console_at(tmp_path) as console:
        text = await typed(console, "/new clover-leaf 7", "9 2")
        assert "No win is possible from this deal" in text and not boards.exists()
        assert console.board is not None and console.board.proven_lost
        await typed(console, "/picture")
    [picture] = boards.iterdir()
    assert picture.read_bytes() == console.board.png
