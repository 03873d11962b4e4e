"""Console mode, driven by lines of input: the same flow and store as on Discord."""

from __future__ import annotations

import io
import os
import subprocess
import sys
from pathlib import Path

import pytest

from bot.__main__ import main
from bot.console import CONSOLE_PLAYER, run_console
from bot.store import Stores
from tests.bot.reference import all_results
from tests.marked_language import installed, marked, unmarked

PNG = b"\x89PNG\r\n\x1a\n"


async def play(db: Path, boards: Path, *lines: str, locale: str | None = None) -> str:
    out = io.StringIO()
    code = await run_console(db, boards, stdin=io.StringIO("\n".join(lines) + "\n"), stdout=out,
                             locale=locale)
    assert code == 0
    return out.getvalue()


async def test_a_new_player_deals_moves_and_gets_a_picture_when_asked(tmp_path: Path) -> None:
    db, boards = tmp_path / "s.db", tmp_path / "boards"
    text = await play(db, boards, "/new trefoil 27", "/move 7 f1", "To foundations", "Undo",
                      "/picture")
    assert "Trefoil · deal 27 · 0 moves" in text
    assert "Played 7 f1 (2♣)." in text
    assert "10 cards to the foundations" in text
    assert "Took back 8 f2." in text
    pictures = sorted(boards.iterdir())
    assert [p.name for p in pictures] == ["001-trefoil-27-10.png"]  # the last board's alone
    assert pictures[0].read_bytes().startswith(PNG)
    assert text.count("Picture: ") == 1 and f"Picture: {pictures[-1]}" in text
    assert "**" not in text and "`" not in text  # Discord Markdown is stripped
    store = await Stores.open(db)
    try:
        saved = await store.games.load(CONSOLE_PLAYER.user_id)
        assert saved is not None and saved.game.moves_made == 10 and saved.undos == 1
    finally:
        await store.close()


async def test_the_console_is_one_player_with_no_cooldowns(tmp_path: Path) -> None:
    """A hint every 5 s and /replay every 20 s were meant for a busy server, not for one
    player at a terminal."""
    db, boards = tmp_path / "s.db", tmp_path / "boards"
    text = await play(db, boards, "/new trefoil 27", "/hint", "/hint", "/show", "/show",
                      "/replay", "/replay", "/stats", "/stats")
    assert "ask again in" not in text and "stay quick" not in text, text
    assert text.count("Hint:") == 2
    store = await Stores.open(db)
    try:
        assert await store.cooldowns.take(CONSOLE_PLAYER.user_id, "hint", 5.0, 0.0) <= 0
    finally:
        await store.close()


async def test_the_game_is_still_there_in_the_next_session(tmp_path: Path) -> None:
    db, boards = tmp_path / "s.db", tmp_path / "boards"
    await play(db, boards, "/new game:clover-leaf deal:5", "8 f3", "/picture")
    text = await play(db, boards, "/show", "/undo", "/picture")
    assert "Clover Leaf · deal 5 · 1 move" in text and "Took back 8 f3" in text
    numbers = sorted(int(p.name[:3]) for p in boards.glob("*.png"))
    assert numbers == list(range(1, len(numbers) + 1))  # numbering goes on, nothing overwritten
    assert sorted(boards.glob("*.png"))[-1].name.endswith("-clover-leaf-5-0.png")


async def test_buttons_and_the_menu_are_pressed_by_label_and_move(tmp_path: Path) -> None:
    text = await play(tmp_path / "s.db", tmp_path / "b", "/new clover-leaf 5", "Redeal", "redo", "5 7")
    assert "Redeal is greyed out on this board." in text
    assert "Buttons: (Undo: greyed out)  (Redo: greyed out)  [To foundations]" in text
    assert "Redo is greyed out" in text
    assert "Played 5 7" in text


async def test_new_over_an_unfinished_game_asks_with_buttons(tmp_path: Path) -> None:
    db = tmp_path / "s.db"
    text = await play(
        db, tmp_path / "b", "/new trefoil 27", "7 f1", "/new Four Leaf Clovers 3",
        "Keep playing", "/new four-leaf-clovers 3", "Start new game",
    )
    assert "You have an unfinished Trefoil game (deal 27, 1 move)" in text
    assert "[Start new game]  [Keep playing]" in text
    assert "Four Leaf Clovers · deal 3 · 0 moves" in text
    assert "Your Trefoil game was recorded as abandoned." in text
    store = await Stores.open(db)
    try:
        assert [r.outcome for r in await all_results(store)] == ["abandoned"]
    finally:
        await store.close()


async def test_bad_input_is_explained(tmp_path: Path) -> None:
    text = await play(
        tmp_path / "s.db", tmp_path / "b", "/undo", "/new", "/new chess", "/new trefoil -4",
        "/new trefoil 27", "/move 7 3", "/move 99 1", "hello", "/dance", "/rules", "/rules trefoil",
    )
    assert "You have no game yet" in text
    assert "Which game? /new trefoil 42" in text
    assert "There is no game called chess" in text
    assert "A deal number is a whole number from 1" in text
    assert "2♣ can't go on 5♠" in text and "Legal now: 7 f1" in text
    assert "There is no pile 99: Trefoil has piles 1 to 16." in text
    assert "I don't understand hello" in text
    assert "There is no command /dance" in text
    assert "Which game? /rules trefoil" in text
    assert "The four Aces start on the foundations" in text


@pytest.mark.parametrize("typed", ["/quit", "/exit", "quit", "Exit"])
async def test_quit_stops_reading(tmp_path: Path, typed: str) -> None:
    text = await play(tmp_path / "s.db", tmp_path / "b", typed, "/new trefoil 1")
    assert "New game" not in text and "I don't understand" not in text


def test_python_m_bot_console_runs_as_a_program(tmp_path: Path) -> None:
    env = {**os.environ, "DATABASE_PATH": str(tmp_path / "db" / "s.db")}
    env.pop("DISCORD_TOKEN", None)
    done = subprocess.run(
        [sys.executable, "-m", "bot", "--console", "--env-file", str(tmp_path / "none.env")],
        input="/new super-flower-garden 8\nRedeal\n/picture\n/quit\n",
        capture_output=True, text=True, env=env, timeout=60, cwd=Path(__file__).parents[2],
    )
    assert done.returncode == 0, done.stderr
    assert "Super Flower Garden · deal 8 · 1 move · 1 redeal left" in done.stdout
    assert (tmp_path / "db" / "boards" / "001-super-flower-garden-8-1.png").exists()


def test_without_a_token_the_bot_says_how_to_get_one(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if k != "DISCORD_TOKEN"}
    done = subprocess.run(
        [sys.executable, "-m", "bot", "--env-file", str(tmp_path / "none.env")],
        capture_output=True, text=True, env=env, timeout=60, cwd=Path(__file__).parents[2],
    )
    assert done.returncode == 2
    assert "No Discord token" in done.stderr
    assert "discord.com/developers/applications" in done.stderr
    assert "python -m bot --console" in done.stderr
    # The printed command works as printed: its interpreter is the one that ran the bot.
    printed = done.stderr.split("play in this terminal:")[1].split()[0]
    repo = Path(__file__).parents[2]
    assert (repo / printed).resolve() == Path(sys.executable).resolve()


def test_an_unusable_database_path_is_reported_not_a_traceback(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    env = {**os.environ, "DATABASE_PATH": str(blocker / "s.db")}
    done = subprocess.run(
        [sys.executable, "-m", "bot", "--console", "--env-file", str(tmp_path / "none.env")],
        input="", capture_output=True, text=True, env=env, timeout=60,
        cwd=Path(__file__).parents[2],
    )
    assert done.returncode == 2
    assert f"Cannot use the database {blocker / 's.db'}" in done.stderr
    assert "Traceback" not in done.stderr


async def test_the_console_speaks_the_language_it_is_given(tmp_path: Path) -> None:
    """`--locale de`: the same game, every word in German (the tests' marked German), the
    commands and options typed as a German Discord names them or in English."""
    lines = ["/new trefoil 27 draw:True", "/move 7 f1", "/undo", "/settings four_colour:True",
             "/settings colours:True", "/rules trefoil", "/help", "/nothing", "8 f9", "/picture"]
    english = await play(tmp_path / "en.db", tmp_path / "en", *lines)
    with installed(marked("de")):
        german = await play(
            tmp_path / "de.db", tmp_path / "de", "/newß trefoil 27 drawß:True", "/move 7 f1",
            "/undoß", "/settingsß four_colourß:True", "/settings colours:True", "/rulesß trefoil",
            "/helpß", "/nothing", "8 f9", "/pictureß", locale="de",
        )
    assert "like /settings four_colour:True auto_moves:False." in english
    assert german.startswith("«Solitaire in the console. Start with /newß trefoil")
    assert "«There is no command /nothing. /helpß lists them.»" in german
    same = unmarked(german).replace(str(tmp_path / "de"), str(tmp_path / "en"))
    assert same == english, "the same game, in other words"
    assert len(list((tmp_path / "de").iterdir())) == 1, "the picture asked for"


def test_python_m_bot_console_takes_a_locale(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    given: list[str | None] = []

    async def console(database: Path | str, boards: Path, *, locale: str | None = None) -> int:
        given.append(locale)
        return 0

    monkeypatch.setattr("bot.console.run_console", console)
    monkeypatch.setattr("bot.__main__.setup_logging", lambda config: None)  # the tests' own
    monkeypatch.setenv("DATABASE_PATH", str(tmp_path / "s.db"))
    assert main(["--console", "--locale", "pt-BR", "--env-file", str(tmp_path / "none")]) == 0
    assert main(["--console", "--env-file", str(tmp_path / "none")]) == 0
    assert given == ["pt-BR", None]


async def test_words_after_a_command_that_takes_none_are_refused(tmp_path: Path) -> None:
    """/undo 5 took back one move and said nothing of the 5."""
    db, boards = tmp_path / "s.db", tmp_path / "boards"
    text = await play(db, boards, "/new trefoil 27", "/move 7 f1", "/move 8 f2", "/undo 5",
                      "/hint please", "/show")
    assert "/undo takes nothing after it (5): nothing was done. Type it alone." in text
    assert "/hint takes nothing after it (please)" in text
    assert "Took back" not in text and "Hint:" not in text
    assert text.rstrip().splitlines()[-1] != "" and "· 2 moves ·" in text.split("> /show")[1]


async def test_a_language_the_console_does_not_speak_is_said(tmp_path: Path) -> None:
    text = await play(tmp_path / "s.db", tmp_path / "b", "/help", locale="xx")
    assert text.startswith("There is no xx here: playing in English. The languages are en-US, "
                           "de, fr, es-ES, pt-BR.")
    german = await play(tmp_path / "s.db", tmp_path / "b", "/help", locale="de-AT")
    assert "There is no" not in german and "Solitaire in der Konsole" in german


async def test_a_board_proven_lost_is_one_picture(tmp_path: Path) -> None:
    """The board, then its amendment with the banner: once written twice, two files for
    one position; now the one asked for."""
    db, boards = tmp_path / "s.db", tmp_path / "boards"
    text = await play(db, boards, "/new clover-leaf 7", "9 2", "/picture")
    assert "No win is possible from this deal" in text
    assert [p.name for p in sorted(boards.iterdir())] == ["001-clover-leaf-7-1.png"]


async def test_a_command_is_typed_with_its_accents_or_without(tmp_path: Path) -> None:
    text = await play(tmp_path / "s.db", tmp_path / "b", "/règles trefoil", "/regles trefoil",
                      locale="fr")
    assert text.count("Trefoil") >= 2 and "n'existe pas" not in text


async def test_a_corner_stones_move_is_typed_by_its_stacks_names(tmp_path: Path) -> None:
    text = await play(tmp_path / "s.db", tmp_path / "b", "/new corner-stones 1", "C1 S2",
                      "/move c2 s1")
    assert "I don't understand" not in text
    assert "Played 1 4" in text and "Played 2 3" in text


async def test_a_label_shown_in_the_players_language_is_typed_in_it_or_in_english(
    tmp_path: Path,
) -> None:
    """`--locale de` shows "Rückgängig" and "Neues Spiel"; "Undo" and "Start new game",
    the words the README and every English board show, answer the same."""
    db, boards = tmp_path / "s.db", tmp_path / "b"
    text = await play(db, boards, "/new trefoil 27", "7 f1", "8 f2", "Undo", "Rückgängig",
                      "Redo", "/new trefoil 28", "Start new game", "/resign", "Keep playing",
                      "/resign", "aufgeben", locale="de")
    assert "verstehe ich nicht" not in text, text
    assert text.count("zurückgenommen.") == 2 and text.count("wiederholt.") == 1, text
    store = await Stores.open(db)
    try:
        assert [(r.deal, r.outcome) for r in await all_results(store)] == [
            (27, "abandoned"), (28, "resigned")]
    finally:
        await store.close()
