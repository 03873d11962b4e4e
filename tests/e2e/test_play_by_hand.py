"""Launching the Activity from Discord: "Play by hand" under every board where the bot serves
the Activity, answered with LAUNCH_ACTIVITY for whoever presses it; a press Discord refuses
answered privately; and a command sync that keeps the app's Entry Point command."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from .conftest import SkippingClock
from .fake_discord import FakeDiscord
from .harness import bot_in_process

PLAY_BY_HAND = "Play by hand"


@pytest.fixture
async def activity_bot(
    fake: FakeDiscord, database: Path, clock: SkippingClock
) -> AsyncIterator[Any]:
    """The bot where the Activity is set up, for an app whose Activities are enabled."""
    fake.enable_activities()
    async with bot_in_process(fake, database, clock=clock, activity=True) as running:
        yield running


def rows_of(fake: FakeDiscord, reply: Any) -> list[list[dict[str, Any]]]:
    return [row["components"] for row in fake.message(reply).state().components]


async def test_a_board_ends_its_buttons_with_play_by_hand_and_keeps_the_menu_last(
    fake: FakeDiscord, activity_bot: Any
) -> None:
    board = await fake.command("alice", "new", {"game": "trefoil", "deal": 2})
    rows = rows_of(fake, board)
    assert all(1 <= len(row) <= 5 for row in rows) and len(rows) <= 5
    assert [c["type"] for c in rows[-1]] == [3]  # the move menu, alone, last
    buttons = [c for row in rows[:-1] for c in row]
    assert buttons[-1]["label"] == PLAY_BY_HAND and buttons[-1]["custom_id"] == "sol:hand"
    assert [b["label"] for b in buttons[:-1]] == [
        "Undo", "Redo", "To foundations", "Redeal", "Hint", "Auto-finish"]


async def test_the_owner_pressing_it_launches_the_activity(
    fake: FakeDiscord, activity_bot: Any
) -> None:
    board = await fake.command("alice", "new", {"game": "trefoil", "deal": 2})
    launched = await fake.press("alice", board, label=PLAY_BY_HAND)
    assert launched.kind == "activity"
    assert [i.user.name for i in fake.launches] == ["alice"]
    assert fake.message(board).state().text == board.text  # the board stays as it was


async def test_a_stranger_pressing_it_opens_the_activity_on_their_own_game(
    fake: FakeDiscord, activity_bot: Any
) -> None:
    board = await fake.command("alice", "new", {"game": "trefoil", "deal": 2})
    launched = await fake.press("bob", board, label=PLAY_BY_HAND)
    assert launched.kind == "activity" and launched.interaction.user.name == "bob"
    moved = await fake.press("bob", board, label="Hint")  # the board's own buttons stay hers
    assert moved.ephemeral and fake.users["alice"].mention in moved.text


async def test_a_private_board_carries_it_too(fake: FakeDiscord, activity_bot: Any) -> None:
    await fake.command("alice", "settings", {"private_boards": True})
    board = await fake.command("alice", "new", {"game": "clover-leaf", "deal": 4})
    assert board.ephemeral
    assert (await fake.press("alice", board, label=PLAY_BY_HAND)).kind == "activity"


async def test_without_the_activity_no_board_has_the_button(fake: FakeDiscord, bot: Any) -> None:
    board = await fake.command("alice", "new", {"game": "trefoil", "deal": 2})
    assert PLAY_BY_HAND not in [b.label for b in board.buttons]
    assert len(board.buttons) == 6


async def test_an_old_board_pressed_once_the_activity_is_off_says_so_privately(
    fake: FakeDiscord, bot: Any
) -> None:
    old = fake.post_earlier_message(content="an old board", buttons={"sol:hand": PLAY_BY_HAND})
    answer = await fake.press("alice", old, label=PLAY_BY_HAND)
    assert answer.kind == "message" and answer.ephemeral
    assert "switched off" in answer.text
    assert fake.launches == []


@pytest.mark.problems_expected
async def test_a_launch_discord_refuses_is_answered_privately(
    fake: FakeDiscord, database: Path, clock: SkippingClock
) -> None:
    """The bot is set up for the Activity, but the app has none (Activities not enabled in
    the portal): Discord refuses LAUNCH_ACTIVITY, and the player is told, privately."""
    async with bot_in_process(fake, database, clock=clock, activity=True):
        board = await fake.command("alice", "new", {"game": "trefoil", "deal": 2})
        answer = await fake.press("alice", board, label=PLAY_BY_HAND)
    assert answer.kind == "message" and answer.ephemeral
    assert "could not open the page to play by hand" in answer.text
    assert fake.launches == []
    assert len(fake.problems) == 1 and "no Activity" in fake.problems[0]


async def test_the_button_speaks_the_players_language(
    fake: FakeDiscord, activity_bot: Any
) -> None:
    fake.set_locale("alice", "de")
    board = await fake.command("alice", "new", {"game": "trefoil", "deal": 2})
    assert "Von Hand spielen" in [b.label for b in board.buttons]


async def test_a_sync_keeps_the_entry_point_command_as_the_portal_made_it(
    fake: FakeDiscord, database: Path, clock: SkippingClock
) -> None:
    made = fake.enable_activities()
    made["name_localizations"] = {"de": "starten"}  # translated in the portal
    async with bot_in_process(fake, database, clock=clock, activity=True) as running:
        await fake.wait_commands("new", "move")
        kept = fake.entry_point()
        assert fake.command_writes == [("PUT", None)]
        assert await running.sync_commands() is False  # unchanged: Discord is not called
        assert await running.sync_commands(force=True) is True  # --sync keeps it too
        assert fake.entry_point() == {**kept, "version": fake.entry_point()["version"]}
    assert fake.command_writes == [("PUT", None), ("PUT", None)]
    assert kept is not None
    assert kept["id"] == made["id"] and kept["name"] == "launch"
    assert kept["handler"] == 2 and kept["name_localizations"] == {"de": "starten"}
    assert fake.find_command("new") is not None


async def test_a_sync_without_the_activity_deletes_it_as_discord_does(
    fake: FakeDiscord, bot: Any
) -> None:
    """The fake as Discord: a bulk overwrite without the Entry Point command deletes it.
    (A bot not set up for the Activity syncs as discord.py does.)"""
    fake.enable_activities()
    assert fake.entry_point() is not None
    await bot.sync_commands(force=True)
    assert fake.entry_point() is None
