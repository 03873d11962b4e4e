"""The rough edges a new player hit in the console and at start-up, each fixed once."""

from __future__ import annotations

import io
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from bot.console import KEEP_PICTURES, run_console

REPO = Path(__file__).resolve().parents[2]


async def play(db: Path, boards: Path, *lines: str) -> str:
    out = io.StringIO()
    code = await run_console(db, boards, stdin=io.StringIO("\n".join(lines) + "\n"), stdout=out)
    assert code == 0
    return out.getvalue()


async def test_button_words_work_in_a_new_session_before_show(tmp_path: Path) -> None:
    db, boards = tmp_path / "s.db", tmp_path / "boards"
    await play(db, boards, "/new trefoil 27", "7 f1")
    text = await play(db, boards, "Undo")
    assert "Took back 7 f1" in text and "I don't understand" not in text


async def test_reset_server_stats_answers_in_the_console(tmp_path: Path) -> None:
    text = await play(tmp_path / "s.db", tmp_path / "b", "/reset-server-stats")
    assert "works in a server" in text and "There is no command" not in text


async def test_every_deal_number_out_of_range_is_refused_alike(tmp_path: Path) -> None:
    text = await play(tmp_path / "s.db", tmp_path / "b", "/new trefoil 0", "/new trefoil -5")
    refusal = "A deal number is a whole number from 1 to 2147483647"
    assert text.count(refusal) == 2, text


async def test_rules_of_a_game_that_does_not_exist_say_so(tmp_path: Path) -> None:
    text = await play(tmp_path / "s.db", tmp_path / "b", "/rules foo", "/rules four-leaf-clovers")
    assert "There is no game called foo" in text
    clovers = text.split("Four Leaf Clovers —")[1]
    assert "f2" not in clovers and "f1" in clovers  # it has one foundation


async def test_the_no_win_line_follows_boards_only(tmp_path: Path) -> None:
    # Trefoil 2 redealt twice is proven lost; /forget-me's question is no board.
    text = await play(
        tmp_path / "s.db", tmp_path / "b", "/new trefoil 2", "redeal", "redeal", "/help",
        "/forget-me",
    )
    assert text.count("No win is possible from here") == 1, text


async def test_pictures_are_kept_to_the_newest_and_forget_me_deletes_them(
    tmp_path: Path,
) -> None:
    db, boards = tmp_path / "s.db", tmp_path / "boards"
    # A picture each: a redeal, taken back, again and again (/show has a cooldown).
    await play(db, boards, "/new trefoil 27", "/picture",
               *["redeal", "/picture", "/undo", "/picture"] * ((KEEP_PICTURES + 5) // 2),
               "redeal", "/picture")
    kept = sorted(boards.glob("*.png"))
    assert len(kept) == KEEP_PICTURES and kept[-1].name.startswith(f"{KEEP_PICTURES + 6:03}-")
    text = await play(db, boards, "/forget-me", "Delete everything")
    assert f"Deleted {KEEP_PICTURES} board pictures" in text
    assert list(boards.glob("*.png")) == []
    # What it deleted, and what it keeps to the day's end, said once and alike: it said
    # "deleted your daily attempts", then that they "are forgotten when the day ends".
    assert "your settings and your daily attempts of past days, in every server" in text
    assert "Today's daily attempt, if you made one, is kept until the day ends (UTC)" in text


def test_ctrl_c_leaves_the_console_at_once_without_a_traceback(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if k != "DISCORD_TOKEN"}
    env["DATABASE_PATH"] = str(tmp_path / "s.db")
    proc = subprocess.Popen(
        [sys.executable, "-m", "bot", "--console", "--env-file", str(tmp_path / "none")],
        cwd=REPO, env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
        stderr=subprocess.PIPE, text=True,
    )
    assert proc.stdin is not None and proc.stdout is not None
    proc.stdin.write("/new trefoil 3\n")
    proc.stdin.flush()
    deadline = time.monotonic() + 30
    while "Buttons:" not in proc.stdout.readline() and time.monotonic() < deadline:
        pass
    proc.send_signal(signal.SIGINT)  # no Enter follows
    _, err = proc.communicate(timeout=15)
    assert proc.returncode == 0, err
    assert "Traceback" not in err and "game is saved" in err


def test_no_network_is_not_called_a_database_problem(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith("DISCORD")}
    env.update(
        DISCORD_TOKEN="abc", DATABASE_PATH=str(tmp_path / "s.db"),
        FAKE_DISCORD_API="http://127.0.0.1:9/api/v10", FAKE_DISCORD_GATEWAY="ws://127.0.0.1:9/",
    )
    done = subprocess.run(
        [sys.executable, "-m", "tests.e2e.launch_bot", "--env-file", str(tmp_path / "none")],
        cwd=REPO, env=env, capture_output=True, text=True, timeout=60,
    )
    assert done.returncode == 2
    assert "Cannot reach Discord" in done.stderr and "database" not in done.stderr.lower()


def test_docker_builds_from_the_project_alone() -> None:
    ignored = (REPO / ".dockerignore").read_text().split()
    for path in (".venv", "data", ".env", ".git"):
        assert path in ignored


async def test_words_after_a_game_are_not_glued_to_its_name(tmp_path: Path) -> None:
    text = await play(tmp_path / "s.db", tmp_path / "b", "/new trefoil 42 extra",
                      "/stats @bob", "/new clover leaf 7")
    assert "I don't understand extra after the game's name" in text
    assert "no game called" not in text and "trefoil-42-extra" not in text
    assert "The console has one player, you" in text
    assert "New game: Clover Leaf, deal 7" in text


async def test_full_width_digits_read_alike_in_deals_and_moves(tmp_path: Path) -> None:
    text = await play(tmp_path / "s.db", tmp_path / "b", "/new trefoil ２７", "７ f１")
    assert "New game: Trefoil, deal 27" in text and "Played 7 f1" in text


async def test_a_setting_named_as_people_say_it_is_understood(tmp_path: Path) -> None:
    text = await play(tmp_path / "s.db", tmp_path / "b", "/settings color:True",
                      "/settings sparkles:True")
    assert "Four-colour deck (♣ green, ♦ blue, ♥ red, ♠ black): on" in text
    assert "There is no setting sparkles: the settings are private_boards" in text


async def test_help_has_no_markdown_left_and_a_long_line_is_not_echoed_whole(
    tmp_path: Path,
) -> None:
    text = await play(tmp_path / "s.db", tmp_path / "b", "/help", "x" * 5000)
    assert "*assisted*" not in text and "assisted: played, not won" in text
    [answer] = [line for line in text.splitlines() if line.startswith("I don't understand")]
    assert len(answer) < 200, "what was typed is echoed cut short"


async def test_the_menu_shows_what_each_move_does(tmp_path: Path) -> None:
    text = await play(tmp_path / "s.db", tmp_path / "b", "/new trefoil 42")
    assert "  5 f3     2♥ to ♥ A↑" in text


async def test_the_same_picture_is_not_written_twice(tmp_path: Path) -> None:
    boards = tmp_path / "b"
    # Corner Stones deal 1 has 34 moves, more than a menu holds: the menu lists piles.
    text = await play(tmp_path / "s.db", boards, "/new corner-stones 1", "/picture", "pick 1",
                      "/picture", "pick 1", "pick", "/picture")
    assert "Moves from stack 1" in text
    assert len(list(boards.glob("*.png"))) == 1, "picking a pile draws the same board"
