"""Installed to a player's own account: the play commands work in DMs, group DMs and any
server; server statistics work wherever a server id comes with the interaction; a command
that needs a server is offered only there."""

from __future__ import annotations

from typing import Any

from .conftest import SkippingClock
from .fake_discord import FakeDiscord
from .play import Mirror, board_of


def test_every_command_may_be_installed_to_a_user_and_used_anywhere(
    fake: FakeDiscord, bot: Any
) -> None:
    synced = fake.commands[None]
    assert synced, "the bot synced its commands globally"
    for name, command in synced.items():
        if name == "challenge":  # its message is edited for a day: the bot must be there
            assert command["integration_types"] == [0] and command["contexts"] == [0]
            continue
        assert sorted(command["integration_types"]) == [0, 1], name
        if name == "reset-server-stats":
            assert command["contexts"] == [0], "a server's statistics: servers only"
        else:
            assert sorted(command["contexts"]) == [0, 1, 2], name


async def test_a_user_install_plays_in_a_server_without_the_bot(
    fake: FakeDiscord, bot: Any, clock: SkippingClock
) -> None:
    mirror = Mirror("trefoil", 3)
    reply = await fake.command(
        "alice", "new", {"game": "trefoil", "deal": 3}, context="user_install_guild"
    )
    mirror.check_board(reply, fake.users["alice"].id)
    move = mirror.first_move()
    played = await fake.select("alice", reply, values=[move])
    mirror.play(move)
    mirror.check_board(played, fake.users["alice"].id)
    asked = await fake.command("alice", "resign", context="user_install_guild")
    await fake.press("alice", asked, label="Resign")
    stats = await fake.command("alice", "stats", context="user_install_guild")
    assert "on this server: 1 played · 0 won" in stats.text, stats.text
    clock.skip(6)  # past /stats' cooldown
    elsewhere = await fake.command("alice", "stats")  # the bot's own server: nothing there
    assert "no finished games on this server" in elsewhere.text, elsewhere.text


async def test_group_dms_and_dms_play_too(fake: FakeDiscord, bot: Any) -> None:
    reply = await fake.command("bob", "new", {"game": "clover-leaf", "deal": 4}, context="group_dm")
    Mirror("clover-leaf", 4).check_board(reply, fake.users["bob"].id)
    shown = await fake.command("bob", "show", context="dm")
    assert board_of(shown).pngs and "Clover Leaf" in shown.text
    leaderboard = await fake.command("bob", "leaderboard", context="dm")
    assert "outside a server the board has only you" in leaderboard.text
