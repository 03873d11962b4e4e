"""The fake Discord, proven with a tiny discord.py bot before the real bot is trusted to it.

If these pass, a real discord.py 2.7 client logs in, syncs commands, and receives and answers
every kind of interaction the game bot uses, exactly as it would against Discord.
"""

from __future__ import annotations

import asyncio
import io
import re
from collections.abc import AsyncIterator

import aiohttp
import discord
import pytest
from discord import app_commands
from discord.ext import commands
from PIL import Image

from .fake_discord import EPHEMERAL, FakeDiscord, InteractionFailed, InvalidBody, _form_fields


def _png(colour: str) -> discord.File:
    buf = io.BytesIO()
    Image.new("RGB", (64, 32), colour).save(buf, "PNG")
    buf.seek(0)
    return discord.File(buf, filename="tiny.png")


class CountButton(
    discord.ui.DynamicItem[discord.ui.Button], template=r"count:(?P<owner>\d+):(?P<n>\d+)"
):
    """A persistent button that survives restarts: owner and count live in the custom_id."""

    def __init__(self, owner: int, n: int) -> None:
        super().__init__(
            discord.ui.Button(
                label=f"Count {n}",
                custom_id=f"count:{owner}:{n}",
                style=discord.ButtonStyle.primary,
            )
        )
        self.owner, self.n = owner, n

    @classmethod
    async def from_custom_id(cls, interaction, item, match: re.Match[str]):  # type: ignore[override]
        return cls(int(match["owner"]), int(match["n"]))

    async def interaction_check(self, interaction: discord.Interaction) -> bool:
        if interaction.user.id != self.owner:
            await interaction.response.send_message(f"not yours, <@{self.owner}>", ephemeral=True)
            return False
        return True

    async def callback(self, interaction: discord.Interaction) -> None:
        view = discord.ui.View(timeout=None)
        view.add_item(CountButton(self.owner, self.n + 1))
        await interaction.response.edit_message(
            content=f"count {self.n + 1}", view=view, attachments=[_png("blue")]
        )


class PickView(discord.ui.View):
    """An ordinary (non-persistent) view: found again through the response's message id."""

    @discord.ui.select(
        options=[discord.SelectOption(label=f"Move {i}", value=f"m{i}") for i in range(3)]
    )
    async def pick(self, interaction: discord.Interaction, select: discord.ui.Select) -> None:
        await interaction.response.edit_message(content=f"picked {select.values[0]}")

    @discord.ui.button(label="Wave")
    async def wave(self, interaction: discord.Interaction, button: discord.ui.Button) -> None:
        await interaction.response.defer()
        await interaction.edit_original_response(content="waved")


class TinyBot(commands.Bot):
    def __init__(self) -> None:
        super().__init__(command_prefix="!", intents=discord.Intents.default())
        self.ready_seen = asyncio.Event()

    async def setup_hook(self) -> None:
        self.add_dynamic_items(CountButton)
        guild = discord.Object(id=GUILD_ID[0])
        self.tree.add_command(echo, guild=guild)
        self.tree.add_command(slow)
        self.tree.add_command(twice)
        self.tree.add_command(late)
        self.tree.add_command(pick)
        self.tree.add_command(whois)
        await self.tree.sync(guild=guild)
        await self.tree.sync()

    async def on_ready(self) -> None:
        self.ready_seen.set()


GUILD_ID = [0]


@app_commands.command(description="Echo a word with a picture and a counter")
@app_commands.describe(word="what to say", times="how many times")
async def echo(interaction: discord.Interaction, word: str, times: int = 1) -> None:
    view = discord.ui.View(timeout=None)
    view.add_item(CountButton(interaction.user.id, 0))
    await interaction.response.send_message(
        " ".join([word] * times),
        file=_png("red"),
        view=view,
        embed=discord.Embed(title="Echo").set_image(url="attachment://tiny.png"),
    )


@echo.autocomplete("word")
async def echo_words(
    interaction: discord.Interaction, current: str
) -> list[app_commands.Choice[str]]:
    words = [f"{current}{i}" for i in range(40)]
    return [app_commands.Choice(name=w, value=w) for w in words[:25]]


@app_commands.command(description="Think, then answer privately")
async def slow(interaction: discord.Interaction) -> None:
    await interaction.response.defer(ephemeral=True, thinking=True)
    await asyncio.sleep(0.05)
    await interaction.followup.send("done thinking", file=_png("green"))


@app_commands.command(description="Answer twice (a bug)")
async def twice(interaction: discord.Interaction) -> None:
    await interaction.response.send_message("one")
    try:
        await interaction.response.send_message("two")
    except discord.InteractionResponded:
        # discord.py catches this itself; go around it to reach the server as a buggy bot might
        await interaction._state.http._HTTPClient__session.post(  # type: ignore[attr-defined]
            f"{discord.http.Route.BASE}/interactions/{interaction.id}/{interaction.token}/callback",
            json={"type": 4, "data": {"content": "two"}},
        )


@app_commands.command(description="Answer too late")
async def late(interaction: discord.Interaction) -> None:
    await asyncio.sleep(0.5)
    try:
        await interaction.response.send_message("too late")
    except discord.NotFound:
        interaction.client.late_refused = True  # type: ignore[attr-defined]


@app_commands.command(description="A select menu")
@app_commands.describe(colour="a colour")
@app_commands.choices(
    colour=[
        app_commands.Choice(name="Red", value="red"),
        app_commands.Choice(name="Blue", value="blue"),
    ]
)
async def pick(interaction: discord.Interaction, colour: app_commands.Choice[str]) -> None:
    await interaction.response.send_message(f"colour {colour.value}", view=PickView())


@app_commands.command(description="Who is that, and may I manage this server?")
@app_commands.describe(who="a member")
async def whois(interaction: discord.Interaction, who: discord.Member) -> None:
    perms = interaction.permissions
    await interaction.response.send_message(
        f"{who.name} {who.id} manage={perms.manage_guild} in={interaction.guild_id}",
        ephemeral=True,
    )


@pytest.fixture
async def world() -> AsyncIterator[tuple[FakeDiscord, TinyBot]]:
    fake = await FakeDiscord(callback_deadline=0.3).start()
    GUILD_ID[0] = fake.guild.id
    bot = TinyBot()
    with fake.patch_discord():
        task = asyncio.create_task(bot.start(fake.token))
        try:
            await fake.wait_connected()
            await fake.wait_commands("echo", "slow", "pick")
            yield fake, bot
        finally:
            await bot.close()
            await asyncio.wait_for(task, 5)
            await fake.close()


async def test_client_logs_in_and_registers_commands(world: tuple[FakeDiscord, TinyBot]) -> None:
    fake, bot = world
    await asyncio.wait_for(bot.ready_seen.wait(), 5)
    assert bot.user is not None and bot.user.id == fake.bot_user.id
    assert bot.application_id == fake.application_id
    assert {g.id for g in bot.guilds} == {fake.guild.id, fake.other_guild.id}
    assert sorted(fake.commands[fake.guild.id]) == ["echo"]
    assert sorted(fake.commands[None]) == ["late", "pick", "slow", "twice", "whois"]
    echo_spec = fake.commands[fake.guild.id]["echo"]
    assert [o["name"] for o in echo_spec["options"]] == ["word", "times"]
    fetched = await bot.tree.fetch_commands(guild=discord.Object(fake.guild.id))
    assert [c.name for c in fetched] == ["echo"]
    assert fake.problems == []


async def test_slash_command_reply_with_picture_and_button(
    world: tuple[FakeDiscord, TinyBot],
) -> None:
    fake, _ = world
    reply = await fake.command("alice", "echo", {"word": "hi", "times": 2})
    assert reply.kind == "message" and reply.content == "hi hi" and not reply.ephemeral
    [png] = reply.pngs
    assert Image.open(io.BytesIO(png)).size == (64, 32)
    assert reply.embeds[0]["title"] == "Echo"
    assert reply.buttons[0].label == "Count 0"
    payload = fake.messages[reply.message_id].payload()
    assert payload["embeds"][0]["image"]["url"].startswith(fake.base_url)
    assert reply.latency_s > 0
    assert fake.problems == []


async def test_dynamic_button_edits_in_place_and_refuses_strangers(
    world: tuple[FakeDiscord, TinyBot],
) -> None:
    fake, _ = world
    reply = await fake.command("alice", "echo", {"word": "hi"})
    pressed = await fake.press("alice", reply, label="Count 0")
    assert pressed.kind == "update" and pressed.message_id == reply.message_id
    assert pressed.content == "count 1" and pressed.buttons[0].label == "Count 1"
    assert len(pressed.pngs) == 1 and pressed.attachments[0].id != reply.attachments[0].id
    refused = await fake.press("bob", reply, label="Count 1")
    assert refused.kind == "message" and refused.ephemeral
    assert f"<@{fake.users['alice'].id}>" in refused.content
    assert fake.messages[reply.message_id].content == "count 1"
    with pytest.raises(LookupError):
        await fake.press("alice", reply, label="Count 0")  # no longer on the message
    assert fake.problems == []


async def test_select_menu_and_deferred_button(world: tuple[FakeDiscord, TinyBot]) -> None:
    fake, _ = world
    reply = await fake.command("carol", "pick", {"colour": "blue"})
    assert reply.content == "colour blue"
    assert reply.select.values == ["m0", "m1", "m2"]
    chosen = await fake.select("carol", reply, values=["m2"])
    assert chosen.kind == "update" and chosen.content == "picked m2"
    waved = await fake.press("carol", reply, label="Wave")
    assert waved.kind == "update" and waved.content == "waved"
    assert waved.interaction.callback_type == 6
    with pytest.raises(ValueError):
        await fake.command("carol", "pick", {"colour": "green"})  # not a choice Discord offers
    with pytest.raises(ValueError):
        await fake.select("carol", reply, values=["m9"])
    assert fake.problems == []


async def test_deferred_ephemeral_reply_and_autocomplete(
    world: tuple[FakeDiscord, TinyBot],
) -> None:
    fake, _ = world
    reply = await fake.command("dana", "slow")
    assert reply.kind == "message" and reply.ephemeral and reply.flags == EPHEMERAL
    assert reply.content == "done thinking" and len(reply.pngs) == 1
    choices = await fake.autocomplete("dana", "echo", focused="word", value="ab")
    assert choices.kind == "autocomplete" and len(choices.choices) == 25
    assert choices.choice_values[:2] == ["ab0", "ab1"]
    assert fake.problems == []


async def test_direct_message_and_other_guild(world: tuple[FakeDiscord, TinyBot]) -> None:
    fake, _ = world
    dm = await fake.command("alice", "slow", guild=None)
    assert dm.content == "done thinking"
    other = await fake.command("erin", "pick", {"colour": "red"}, guild=fake.other_guild)
    assert other.content == "colour red"
    with pytest.raises(LookupError):  # /echo was registered for the first guild only
        await fake.command("erin", "echo", {"word": "x"}, guild=fake.other_guild)
    assert fake.problems == []


async def test_second_answer_and_late_answer_are_refused(
    world: tuple[FakeDiscord, TinyBot],
) -> None:
    fake, bot = world
    reply = await fake.command("bob", "twice")
    assert reply.content == "one"
    await fake.wait_until(lambda: fake.problems, what="the refused second answer")
    assert "second callback" in fake.problems[0]
    fake.problems.clear()
    with pytest.raises(InteractionFailed):
        await fake.command("bob", "late")
    await fake.wait_until(lambda: getattr(bot, "late_refused", False), what="the late refusal")
    assert any("not acknowledged" in p for p in fake.problems)


async def test_unknown_route_is_loud(world: tuple[FakeDiscord, TinyBot]) -> None:
    fake, bot = world
    with pytest.raises(discord.NotFound):
        await bot.http.request(discord.http.Route("GET", "/voice/regions"))
    assert fake.problems == ["unknown route GET /api/v10/voice/regions (not faked)"]


async def test_member_options_and_permissions(world: tuple[FakeDiscord, TinyBot]) -> None:
    fake, _ = world
    alice = fake.users["alice"]
    by_member = await fake.command("bob", "whois", {"who": "alice"})
    assert by_member.text == f"alice {alice.id} manage=False in={fake.guild.id}"
    by_moderator = await fake.command("dana", "whois", {"who": alice})
    assert "manage=True" in by_moderator.text
    by_owner = await fake.command("olga", "whois", {"who": "bob"})
    assert "manage=True" in by_owner.text
    elsewhere = await fake.command("erin", "whois", {"who": "alice"}, guild=fake.other_guild)
    assert f"in={fake.other_guild.id}" in elsewhere.text and "manage=True" in elsewhere.text
    assert fake.problems == []


async def test_a_dropped_gateway_is_resumed(world: tuple[FakeDiscord, TinyBot]) -> None:
    fake, _ = world
    await fake.drop_gateway()
    await fake.wait_until(lambda: fake.resumes == 1 and fake.bot_session(), what="RESUME")
    assert fake.identifies == 1, "resumed, not identified again"
    reply = await fake.command("alice", "pick", {"colour": "red"})
    assert reply.content == "colour red"
    assert fake.problems == []


class WrittenBytes(bytearray):
    """What aiohttp writes a form to, kept (its own as_bytes() is newer than its range)."""

    async def write(self, chunk: bytes) -> None:
        self += chunk


async def test_form_fields_reads_what_aiohttp_writes() -> None:
    form = aiohttp.FormData(quote_fields=False)
    form.add_field("payload_json", '{"content": "hi"}', content_type="application/json")
    png = b"\x89PNG\r\n\r\n\x00 picture bytes \r\n"  # a blank line inside a file
    form.add_field("files[0]", png, filename="board.png", content_type="image/png")
    writer = form()
    boundary = writer.boundary.encode()
    written = WrittenBytes()
    await writer.write(written)
    fields = list(_form_fields(bytes(written), boundary))
    assert fields == [
        ("payload_json", None, b'{"content": "hi"}'),
        ("files[0]", "board.png", png),
    ]
    with pytest.raises(InvalidBody):  # cut short: no closing boundary
        list(_form_fields(bytes(written)[:-8], boundary))
    with pytest.raises(InvalidBody):  # a part without its name
        list(_form_fields(b"--b\r\nContent-Type: text/plain\r\n\r\nx\r\n--b--\r\n", b"b"))
