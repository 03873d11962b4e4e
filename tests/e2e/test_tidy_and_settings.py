"""A tidy channel (one live board per player and channel) and each player's settings."""

from __future__ import annotations

import asyncio
from typing import Any

from bot.discord.send import COLLAPSED

from .conftest import SkippingClock
from .fake_discord import FakeDiscord, MessageState
from .play import Mirror, board_of


async def settled(fake: FakeDiscord, message_id: int, content: str) -> MessageState:
    """The message once its content is ``content`` (collapsing runs beside the reply)."""
    for _ in range(100):
        state = fake.message(message_id).state()
        if state.content == content:
            return state
        await asyncio.sleep(0.05)
    return fake.message(message_id).state()


async def test_a_new_board_collapses_the_players_previous_one_in_that_channel(
    fake: FakeDiscord, bot: Any, clock: SkippingClock
) -> None:
    first = await fake.command("alice", "new", {"game": "trefoil", "deal": 4})
    bobs = await fake.command("bob", "new", {"game": "trefoil", "deal": 4})
    second = await fake.command("alice", "show")
    old = await settled(fake, first.message_id, COLLAPSED)
    assert old.content == COLLAPSED and not old.attachments and not old.components
    live = fake.message(second.message_id).state()
    assert live.attachments and live.components, "the newest board is whole"
    assert fake.message(bobs.message_id).state().attachments, "another player's board stays"
    clock.skip(4)  # past /show's cooldown, here and below
    elsewhere = await fake.command("alice", "show", guild=fake.other_guild)
    assert fake.message(second.message_id).state().attachments, "one board per channel"
    clock.skip(4)
    third = await fake.command("alice", "show")
    await settled(fake, second.message_id, COLLAPSED)
    assert fake.message(third.message_id).state().attachments
    assert fake.message(elsewhere.message_id).state().attachments


async def test_a_user_install_leaves_earlier_boards_where_the_bot_is_not(
    fake: FakeDiscord, bot: Any
) -> None:
    first = await fake.command(
        "alice", "new", {"game": "trefoil", "deal": 4}, context="user_install_guild"
    )
    await fake.command("alice", "show", context="user_install_guild")
    await asyncio.sleep(0.3)
    assert fake.message(first.message_id).state().attachments  # and no refused edit


async def test_settings_are_shown_changed_and_kept(fake: FakeDiscord, bot: Any) -> None:
    shown = await fake.command("carol", "settings")
    assert shown.ephemeral and "Private boards" in shown.text and "**off**" in shown.text
    assert "no card left" in shown.text, "it says what safe means"
    changed = await fake.command("carol", "settings", {"private_boards": True})
    assert changed.ephemeral and "saved" in changed.text
    board = await fake.command("carol", "new", {"game": "clover-leaf", "deal": 9})
    assert board.ephemeral and board_of(board).pngs, "only Carol sees her board"
    move = Mirror("clover-leaf", 9).first_move()
    played = await fake.select("carol", board, values=[move])
    assert played.ephemeral and board_of(played).pngs and "1 move" in played.text
    assert played.message_id == board.message_id, "the private board is edited in place"
    again = await fake.command("carol", "settings")
    assert "Private boards (only you see your board): **on**" in again.text


async def test_the_four_colour_deck_changes_the_picture(
    fake: FakeDiscord, bot: Any, clock: SkippingClock
) -> None:
    coloured = await fake.command("dana", "new", {"game": "trefoil", "deal": 11})  # the default
    await fake.command("dana", "settings", {"four_colour": False})
    plain = await fake.command("dana", "show")
    assert board_of(coloured).pngs[0] != board_of(plain).pngs[0]
    await fake.command("dana", "settings", {"four_colour": True})
    clock.skip(4)  # past /show's cooldown
    back = await fake.command("dana", "show")
    assert board_of(back).pngs[0] == board_of(coloured).pngs[0]


async def test_boards_sent_leave_no_view_behind_in_the_bot(fake: FakeDiscord, bot: Any) -> None:
    """discord.py keeps a sent view unless all its items are dynamic, as ours are: a plain
    button added to a board would grow the bot's memory with every board posted."""
    for deal in range(1, 6):
        reply = await fake.command("erin", "new", {"game": "trefoil", "deal": deal}, guild=None)
        if not reply.pngs:  # the question over an unfinished game
            reply = await fake.press("erin", reply, label="Start new game")
        await fake.press("erin", reply, label="Hint")
    store = bot._connection._view_store
    assert store._synced_message_views == {} and not store._views, "memory per board posted"
