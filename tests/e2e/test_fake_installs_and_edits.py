"""The fake Discord's side of issue 13, proven with a tiny discord.py bot defined here.

User-installed commands in DMs, group DMs and servers without the bot; alt text on pictures;
the bot editing and deleting its earlier messages, through the channel and through the
interaction's webhook while its token lives (15 minutes on the fake's clock); silent and
ephemeral messages; and the malformed input a test can send on purpose.
"""

from __future__ import annotations

import asyncio
import io
from collections.abc import AsyncIterator
from typing import Any

import discord
import pytest
from discord import app_commands
from discord.ext import commands
from PIL import Image

from .fake_discord import (
    ATTACHMENT_DESCRIPTION_LIMIT,
    EPHEMERAL,
    SUPPRESS_NOTIFICATIONS,
    USER_INSTALL_PERMISSIONS,
    FakeDiscord,
)


def _png(alt: str | None) -> discord.File:
    buf = io.BytesIO()
    Image.new("RGB", (16, 8), "green").save(buf, "PNG")
    buf.seek(0)
    return discord.File(buf, filename="board.png", description=alt)


def _where(interaction: discord.Interaction) -> str:
    ctx = interaction.context
    kind = "guild" if ctx.guild else "bot_dm" if ctx.dm_channel else "private"
    return (
        f"{kind} guild={interaction.guild_id} "
        f"guild_install={interaction.is_guild_integration()} "
        f"user_install={interaction.is_user_integration()} "
        f"app_permissions={interaction.app_permissions.value}"
    )


class Board(discord.ui.View):
    def __init__(self) -> None:
        super().__init__(timeout=None)

    @discord.ui.button(label="Again", custom_id="board:again")
    async def again(
        self, interaction: discord.Interaction, button: discord.ui.Button[Board]
    ) -> None:
        await interaction.response.send_message(_where(interaction), ephemeral=True)


class InstallBot(commands.Bot):
    def __init__(self) -> None:
        super().__init__(command_prefix="!", intents=discord.Intents.default())
        self.boards: dict[int, discord.Interaction] = {}  # each user's latest /board
        self.notes: dict[int, discord.WebhookMessage] = {}  # each user's latest follow-up
        self.unknown_ids: list[str] = []
        commands_here: list[app_commands.Command[Any, Any, None]] = [
            board,
            note,
            redo,
            tidy,
            deal,
            who,
            server_only,
        ]
        for command in commands_here:
            self.tree.add_command(command)
        self.tree.on_error = self.answer_error  # type: ignore[method-assign]

    async def setup_hook(self) -> None:
        self.add_view(Board())
        await self.tree.sync()

    async def answer_error(
        self, interaction: discord.Interaction, error: app_commands.AppCommandError
    ) -> None:
        await interaction.response.send_message(f"error {type(error).__name__}", ephemeral=True)

    async def on_interaction(self, interaction: discord.Interaction) -> None:
        data: dict[str, Any] = dict(interaction.data or {})
        custom_id = data.get("custom_id")
        if custom_id is not None and not str(custom_id).startswith("board:"):
            self.unknown_ids.append(str(custom_id))
            values = data.get("values")
            await interaction.response.send_message(f"unknown {custom_id} {values}", ephemeral=True)


def _bot(interaction: discord.Interaction) -> InstallBot:
    assert isinstance(interaction.client, InstallBot)
    return interaction.client


@app_commands.command(description="A picture with alt text, anywhere the app is installed")
@app_commands.allowed_installs(guilds=True, users=True)
@app_commands.allowed_contexts(guilds=True, dms=True, private_channels=True)
@app_commands.describe(alt="alt text", silent="without a notification")
async def board(
    interaction: discord.Interaction, alt: str = "A board", silent: bool = False
) -> None:
    _bot(interaction).boards[interaction.user.id] = interaction
    await interaction.response.send_message(
        _where(interaction), file=_png(alt), view=Board(), silent=silent
    )


@app_commands.command(description="A reply, then a follow-up kept for later")
@app_commands.allowed_installs(guilds=True, users=True)
@app_commands.allowed_contexts(guilds=True, dms=True, private_channels=True)
async def note(interaction: discord.Interaction) -> None:
    await interaction.response.send_message("noted", ephemeral=True)
    sent = await interaction.followup.send("a follow-up", wait=True, ephemeral=True)
    _bot(interaction).notes[interaction.user.id] = sent


@app_commands.command(description="Edit the previous board and follow-up through their webhook")
@app_commands.allowed_installs(guilds=True, users=True)
@app_commands.allowed_contexts(guilds=True, dms=True, private_channels=True)
async def redo(interaction: discord.Interaction) -> None:
    client = _bot(interaction)
    earlier, follow = client.boards[interaction.user.id], client.notes.get(interaction.user.id)
    try:
        await earlier.edit_original_response(content="collapsed", attachments=[], view=None)
        if follow is not None:
            await follow.edit(content="follow-up edited")
            await follow.delete()
    except discord.HTTPException as exc:
        await interaction.response.send_message(f"refused {exc.status} {exc.code}")
        return
    await interaction.response.send_message("redone", ephemeral=True)


@app_commands.command(description="Edit, then delete, the previous board through the channel")
@app_commands.allowed_installs(guilds=True, users=True)
@app_commands.allowed_contexts(guilds=True, dms=True, private_channels=True)
async def tidy(interaction: discord.Interaction) -> None:
    earlier = _bot(interaction).boards[interaction.user.id]
    original = await earlier.original_response()
    channel = interaction.client.get_partial_messageable(original.channel.id)
    message = channel.get_partial_message(original.id)
    try:
        await message.edit(content="collapsed through the channel", attachments=[], view=None)
        await message.delete()
    except discord.HTTPException as exc:
        await interaction.response.send_message(f"refused {exc.status} {exc.code}")
        return
    await interaction.response.send_message("tidied", ephemeral=True)


@app_commands.command(description="Echo a deal number and its Python type")
@app_commands.describe(deal="a deal number")
async def deal(interaction: discord.Interaction, deal: int) -> None:
    await interaction.response.send_message(f"deal {deal!r} {type(deal).__name__}")


@app_commands.command(description="Echo a user and what discord.py made of it")
@app_commands.describe(user="a user")
async def who(interaction: discord.Interaction, user: discord.User) -> None:
    await interaction.response.send_message(f"{type(user).__name__} {user.id}")


@app_commands.command(description="Only in servers that installed the bot")
@app_commands.guild_only()
async def server_only(interaction: discord.Interaction) -> None:
    await interaction.response.send_message("here")


@pytest.fixture
async def world() -> AsyncIterator[tuple[FakeDiscord, InstallBot]]:
    fake = await FakeDiscord(callback_deadline=1.0).start()
    bot = InstallBot()
    with fake.patch_discord():
        task = asyncio.create_task(bot.start(fake.token))
        try:
            await fake.wait_connected()
            await fake.wait_commands("board", "deal", "who")
            yield fake, bot
        finally:
            await bot.close()
            await asyncio.wait_for(task, 5)
            await fake.close()


async def test_user_installable_commands_are_stored_as_synced(
    world: tuple[FakeDiscord, InstallBot],
) -> None:
    fake, _ = world
    spec = fake.commands[None]["board"]
    assert spec["integration_types"] == [0, 1] and spec["contexts"] == [0, 1, 2]
    assert fake.commands[None]["server_only"]["contexts"] == [0]
    assert fake.problems == []


async def test_unknown_install_types_and_contexts_are_refused_in_sync(
    world: tuple[FakeDiscord, InstallBot],
) -> None:
    fake, bot = world
    for key, value in (("integration_types", [0, 2]), ("contexts", [3])):
        command: Any = {"name": "odd", "description": "Odd", key: value}
        with pytest.raises(discord.HTTPException) as refused:
            await bot.http.upsert_global_command(fake.application_id, command)
        assert refused.value.status == 400
    assert len(fake.problems) == 2 and "integration_types [0, 2]" in fake.problems[0]
    assert "odd" not in fake.commands[None]


async def test_a_command_from_each_install_context(world: tuple[FakeDiscord, InstallBot]) -> None:
    fake, _ = world
    alice = fake.users["alice"]
    in_server = await fake.command("alice", "board")
    assert in_server.text.startswith(f"guild guild={fake.guild.id} guild_install=True ")
    bot_dm = await fake.command("alice", "board", guild=None)
    assert bot_dm.text.startswith("bot_dm guild=None guild_install=False user_install=False")
    stranger = await fake.command("alice", "board", context="user_install_guild")
    assert stranger.text == (
        f"guild guild={fake.stranger_guild.id} guild_install=False user_install=True "
        f"app_permissions={USER_INSTALL_PERMISSIONS}"
    )
    payload = stranger.interaction.payload()
    assert payload["context"] == 0 and payload["authorizing_integration_owners"] == {
        "1": str(alice.id)
    }
    assert payload["guild"] == {
        "id": str(fake.stranger_guild.id),
        "locale": "en-US",
        "features": [],
    }
    assert "member" in payload and "user" not in payload
    group = await fake.command("alice", "board", context="group_dm")
    assert group.text.startswith("private guild=None guild_install=False user_install=True")
    group_payload = group.interaction.payload()
    assert group_payload["context"] == 2 and group_payload["channel"]["type"] == 3
    assert "guild" not in group_payload and "guild_id" not in group_payload
    dm = await fake.command("alice", "board", context="dm")
    assert dm.interaction.payload()["channel"]["type"] == 1 and dm.interaction.context_value == 2
    both = await fake.command(
        "alice", "board", owners={"0": str(fake.guild.id), "1": str(alice.id)}
    )
    assert "guild_install=True user_install=True" in both.text
    pressed = await fake.press("alice", stranger, label="Again")
    assert pressed.ephemeral and pressed.text.startswith(
        f"guild guild={fake.stranger_guild.id} guild_install=False user_install=True"
    )
    assert fake.problems == []


async def test_discord_offers_a_command_only_where_its_contexts_allow(
    world: tuple[FakeDiscord, InstallBot],
) -> None:
    fake, _ = world
    assert (await fake.command("alice", "server_only")).text == "here"
    with pytest.raises(ValueError, match="does not offer /server_only"):
        await fake.command("alice", "server_only", guild=None)
    with pytest.raises(ValueError, match="not user-installable"):
        await fake.command("alice", "deal", {"deal": 3}, context="group_dm")
    with pytest.raises(ValueError, match="not user-installable"):
        await fake.command("alice", "deal", {"deal": 3}, context="user_install_guild")
    assert fake.problems == []


async def test_alt_text_is_recorded_and_capped(world: tuple[FakeDiscord, InstallBot]) -> None:
    fake, _ = world
    reply = await fake.command("bob", "board", {"alt": "Trefoil, move 3: 7 of hearts on top"})
    assert reply.alt_texts == ["Trefoil, move 3: 7 of hearts on top"]
    assert reply.attachments[0].payload()["description"] == reply.alt_texts[0]
    longest = "x" * ATTACHMENT_DESCRIPTION_LIMIT
    assert (await fake.command("bob", "board", {"alt": longest})).alt_texts == [longest]
    assert fake.problems == []


@pytest.mark.parametrize("extra", [1, 500])
async def test_alt_text_over_1024_characters_is_refused(
    world: tuple[FakeDiscord, InstallBot], extra: int
) -> None:
    fake, _ = world
    alt = "y" * (ATTACHMENT_DESCRIPTION_LIMIT + extra)
    reply = await fake.command("bob", "board", {"alt": alt})
    assert reply.text == "error CommandInvokeError" and reply.attachments == ()
    assert len(fake.problems) == 1 and "attachment description of" in fake.problems[0]
    assert not any(m.attachments for m in fake.messages.values()), "no picture was posted"


async def test_silent_and_ephemeral_flags_are_recorded(
    world: tuple[FakeDiscord, InstallBot],
) -> None:
    fake, _ = world
    silent = await fake.command("carol", "board", {"silent": True})
    assert silent.silent and silent.flags == SUPPRESS_NOTIFICATIONS and not silent.ephemeral
    loud = await fake.command("carol", "board")
    assert not loud.silent
    private = await fake.press("dana", loud, label="Again")
    assert private.ephemeral and private.flags == EPHEMERAL
    channel = fake.guild.channel
    seen_by_dana = [m.id for m in fake.channel_messages(channel, seen_by="dana")]
    seen_by_carol = [m.id for m in fake.channel_messages(channel, seen_by="carol")]
    assert private.message_id in seen_by_dana and private.message_id not in seen_by_carol
    assert loud.message_id in seen_by_carol
    assert fake.problems == []


async def test_pressing_someone_elses_ephemeral_message_is_impossible_when_strict(
    world: tuple[FakeDiscord, InstallBot],
) -> None:
    fake, _ = world
    loud = await fake.command("carol", "board")
    private = await fake.press("dana", loud, label="Again")
    fake.strict_ephemeral = True
    with pytest.raises(LookupError, match="cannot see dana's ephemeral message"):
        await fake.press("carol", private.message_id, label="Again")
    assert fake.problems == []


async def test_the_bot_edits_its_earlier_messages_through_the_webhook(
    world: tuple[FakeDiscord, InstallBot],
) -> None:
    fake, _ = world
    first = await fake.command("erin", "board", guild=fake.other_guild)
    noted = await fake.command("erin", "note", guild=fake.other_guild)
    [follow_up] = await noted.interaction.wait_followups()
    fake.advance_clock(14 * 60)
    redone = await fake.command("erin", "redo", guild=fake.other_guild)
    assert redone.text == "redone"
    board = fake.message(first).state()
    assert board.content == "collapsed" and board.attachments == () and board.buttons == []
    assert fake.messages[follow_up.id].history[-2].content == "follow-up edited"
    assert fake.messages[follow_up.id].deleted
    assert fake.problems == []


@pytest.mark.parametrize("context", ["guild", "group_dm"])
async def test_an_edit_after_fifteen_minutes_is_refused(
    world: tuple[FakeDiscord, InstallBot], context: str
) -> None:
    fake, _ = world
    first = await fake.command("alice", "board", context=context)
    fake.advance_clock(15 * 60 + 1)
    late = await fake.command("alice", "redo", context=context)
    assert late.text == "refused 401 50027"
    assert len(fake.problems) == 1 and "interaction tokens last 900 s" in fake.problems[0]
    assert fake.message(first).state().content == first.content, "unchanged"


async def test_the_bot_edits_and_deletes_its_message_through_the_channel(
    world: tuple[FakeDiscord, InstallBot],
) -> None:
    fake, _ = world
    first = await fake.command("alice", "board")
    assert (await fake.command("alice", "tidy")).text == "tidied"
    message = fake.message(first)
    assert message.deleted and message.history[-2].content == "collapsed through the channel"
    assert first.message_id not in [m.id for m in fake.channel_messages()]
    assert fake.problems == []


async def test_the_channel_of_a_user_install_is_out_of_the_bots_reach(
    world: tuple[FakeDiscord, InstallBot],
) -> None:
    fake, bot = world
    first = await fake.command("alice", "board", context="user_install_guild")
    refused = await fake.command("alice", "tidy", context="user_install_guild")
    assert refused.text == "refused 403 50001"
    assert len(fake.problems) == 1 and "not in that channel" in fake.problems[0]
    assert not fake.message(first).deleted
    with pytest.raises(discord.Forbidden):
        await bot.fetch_guild(fake.stranger_guild.id)
    assert len(fake.problems) == 2 and "not in that guild" in fake.problems[1]


async def test_option_values_of_the_wrong_type_go_out_as_given(
    world: tuple[FakeDiscord, InstallBot],
) -> None:
    fake, _ = world
    assert (await fake.command("alice", "deal", {"deal": 12})).text == "deal 12 int"
    as_text = await fake.command_unchecked("alice", "deal", {"deal": "12"})
    assert as_text.interaction.data["options"] == [{"name": "deal", "type": 4, "value": "12"}]
    bob = fake.users["bob"]
    resolved = await fake.command("alice", "who", {"user": "bob"})
    assert resolved.text == f"Member {bob.id}"
    unresolved = await fake.command_unchecked("alice", "who", {"user": str(bob.id)})
    assert "resolved" not in unresolved.interaction.data
    assert unresolved.interaction.data["options"][0]["value"] == str(bob.id)
    assert unresolved.text != resolved.text
    with pytest.raises(LookupError):
        await fake.command_unchecked("alice", "no-such-command", {})
    assert fake.problems == []


async def test_old_custom_ids_and_values_not_offered_reach_the_bot(
    world: tuple[FakeDiscord, InstallBot],
) -> None:
    fake, bot = world
    old = fake.post_earlier_message(content="an old board", buttons={"v1:undo:42": "Undo"})
    assert old.custom_ids == ["v1:undo:42"] and not old.ephemeral
    pressed = await fake.press("alice", old, label="Undo")
    assert pressed.text == "unknown v1:undo:42 None"
    board_reply = await fake.command("alice", "board")
    made_up = await fake.press_unchecked("alice", board_reply, "move:9:f9")
    assert made_up.text == "unknown move:9:f9 None"
    chosen = await fake.select_unchecked("alice", board_reply, ["13 f4"], custom_id="menu:old")
    assert chosen.text == "unknown menu:old ['13 f4']"
    assert chosen.interaction.data == {
        "custom_id": "menu:old",
        "component_type": 3,
        "values": ["13 f4"],
    }
    assert bot.unknown_ids == ["v1:undo:42", "move:9:f9", "menu:old"]
    assert fake.problems == []
