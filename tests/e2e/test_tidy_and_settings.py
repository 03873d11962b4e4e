"""A tidy channel (one live board per player and channel) and each player's settings."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path
from typing import Any

from bot.discord.send import COLLAPSED

from .conftest import SkippingClock
from .fake_discord import FakeDiscord, FakeUser, MessageState
from .harness import bot_in_process
from .play import Mirror, board_of, move_options


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


async def test_earlier_boards_are_collapsed_through_their_interaction(
    fake: FakeDiscord, bot: Any, clock: SkippingClock
) -> None:
    """Through the interaction endpoints, which Discord's global limit does not bind, never
    through the channel's route while the interaction that posted the board lives."""
    first = await fake.command("alice", "new", {"game": "trefoil", "deal": 4})
    second = await fake.command("alice", "show")
    await settled(fake, first.message_id, COLLAPSED)
    pressed = await fake.press("alice", second, label="Hint")  # the board updated in place
    clock.skip(6)
    await fake.command("alice", "show")
    await settled(fake, pressed.message_id, COLLAPSED)
    edits = [(method, path) for method, path, _status in fake.requests if method == "PATCH"]
    assert edits and all("/webhooks/" in path for _method, path in edits), edits


async def test_a_user_install_collapses_boards_through_the_interaction_alone(
    fake: FakeDiscord, bot: Any, clock: SkippingClock
) -> None:
    """Where the bot is not in the server it cannot edit the channel's messages: earlier
    boards are collapsed through their interactions, and left whole once those expire."""
    first = await fake.command(
        "alice", "new", {"game": "trefoil", "deal": 4}, context="user_install_guild"
    )
    second = await fake.command("alice", "show", context="user_install_guild")
    assert (await settled(fake, first.message_id, COLLAPSED)).content == COLLAPSED
    fake.advance_clock(15 * 60)  # the interaction that posted the second board has expired
    bot.tidy.clock = lambda: time.monotonic() + 15 * 60
    clock.skip(15 * 60)
    await fake.command("alice", "show", context="user_install_guild")
    await asyncio.sleep(0.3)
    assert fake.message(second.message_id).state().attachments  # and no refused edit


async def test_an_old_board_is_collapsed_through_the_channel_within_the_limits(
    fake: FakeDiscord, bot: Any, clock: SkippingClock
) -> None:
    first = await fake.command("alice", "new", {"game": "trefoil", "deal": 4})
    fake.advance_clock(15 * 60)
    bot.tidy.clock = lambda: time.monotonic() + 15 * 60
    clock.skip(15 * 60)
    await fake.command("alice", "show")
    assert (await settled(fake, first.message_id, COLLAPSED)).content == COLLAPSED
    assert ("PATCH", f"/api/v10/channels/{first.message.channel_id}/messages/"
            f"{first.message_id}", 200) in fake.requests


async def test_a_busy_channel_stays_tidy_within_discords_limits(
    fake: FakeDiscord, database: Path, clock: SkippingClock
) -> None:
    """Twelve players in one channel, each posting boards as fast as the answers come: no
    429 (the fake keeps Discord's limits), and each earlier board collapsed within 5 s of
    the board after it, where one channel's route takes 5 edits in 5 s."""
    players = fake.add_members(12)
    async with bot_in_process(fake, database, clock=clock):
        await fake.wait_connected()

        async def play(user: FakeUser, deal: int) -> list[tuple[int, float]]:
            mirror = Mirror("trefoil", deal)
            posted = [(await fake.command(user.name, "new",
                                          {"game": "trefoil", "deal": deal})).message_id]
            times = []
            for _ in range(4):
                move = mirror.first_move()
                reply = await fake.command(user.name, "move", move_options(move))
                mirror.play(move)
                times.append(time.monotonic())
                posted.append(reply.message_id)
            return [(message, at) for message, at in zip(posted, times, strict=False)]

        earlier = [board for boards in await asyncio.gather(
            *(play(user, deal) for deal, user in enumerate(players, 1))) for board in boards]
        assert len(earlier) == 48
        for message_id, replaced_at in earlier:
            state = await settled(fake, message_id, COLLAPSED)
            assert state.content == COLLAPSED, "every earlier board is collapsed"
            collapsed_at = fake.message(message_id).changed_at(COLLAPSED)
            assert collapsed_at is not None and collapsed_at - replaced_at < 5.0
    assert not any(path.startswith("/api/v10/channels/") and method == "PATCH"
                   for method, path, _status in fake.requests), "none through the channel"


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
