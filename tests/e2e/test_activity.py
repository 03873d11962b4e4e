"""The Activity's page and the slash commands play one game: the page's server runs over
the bot's own core (as the small bot runs both in one process), a move made on the page
shows in /show through Discord and on the player's board in the channel, and a move made by
slash command reaches the page."""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path
from typing import Any

import aiohttp
import pytest

from bot.config import Config
from bot.core import Core
from bot.discord.edits import BoardEdits
from bot.discord.rest import GuildMembers, logged_in
from bot.web.running import start_web
from bot.web.view import ChannelBoards
from tests.said import read

from .fake_discord import FakeDiscord, FakeMessage

Call = Callable[..., Awaitable[Any]]


@pytest.fixture
def database(any_database: Path | str) -> Path | str:
    """Every test here on each backend: whether a page's move reaches a channel's board (and
    never a private one) is decided by what the database says, in every process."""
    return any_database


def page_config(fake: FakeDiscord, **settings: Any) -> Config:
    return dataclasses.replace(Config(), web_port=0, client_id=str(fake.application_id),
                               client_secret=fake.client_secret, **settings)


@contextlib.asynccontextmanager
async def page_of(fake: FakeDiscord, bot: Any, user: str, *, core: Core | None = None,
                  channels: ChannelBoards | None = None, guild: int | None = None,
                  token: bool = True) -> AsyncIterator[Call]:
    """The page's server, and ``user`` signed in on it (in the Activity opened in ``guild``):
    ``await call(path, body)`` as the page asks. By default in the bot's process, as
    ``run_bot`` starts it; else over ``core`` and ``channels``, as a process of its own
    (``token=False``: one without the bot's token, which cannot ask who is in a server)."""
    asks = GuildMembers(bot) if token else None
    page = await start_web(core or bot.core, page_config(fake), api=fake.api_base,
                           channels=channels or BoardEdits(bot.tidy), members=asks)
    url = f"http://127.0.0.1:{page.port}/api/"
    try:
        async with aiohttp.ClientSession() as http:
            session = ""

            async def call(path: str, body: Any = None) -> Any:
                headers = {"Authorization": f"Bearer {session}"}
                async with http.request("POST" if body else "GET", url + path, json=body,
                                        headers=headers) as response:
                    assert response.status == 200, await response.text()
                    return await response.json()

            code = fake.authorize(fake.users[user])
            named = {} if guild is None else {"guild": str(guild)}
            session = (await call("signin", {"code": code, **named}))["session"]
            yield call
    finally:
        await page.close()


async def move_on_the_page(call: Call) -> dict[str, Any]:
    board = (await call("board"))["board"]
    played = await call("act", {"action": "move", "move": board["moves"][0],
                                "seen": board["ref"]})
    assert not played["refused"]
    return played["board"]  # type: ignore[no-any-return]


async def shows(message: FakeMessage, text: str, within_s: float = 5.0) -> bool:
    deadline = time.monotonic() + within_s
    while text not in message.content:
        if time.monotonic() > deadline:
            return False
        await asyncio.sleep(0.05)
    return True


async def test_a_move_on_the_page_shows_in_slash_show_and_back(
    fake: FakeDiscord, bot: Any
) -> None:
    alice = fake.users["alice"]
    await fake.command(alice, "new", {"game": "trefoil", "deal": 2})
    async with page_of(fake, bot, "alice") as call:
        board = (await call("board"))["board"]
        assert board["game"] == "trefoil" and board["ref"][1] == 0  # the game /new dealt
        played = await move_on_the_page(call)

        shown = await fake.command(alice, "show")
        assert "1 move" in shown.text  # the page's move, through Discord

        have = ".".join(map(str, played["ref"]))
        assert await call(f"board?have={have}") == {"same": True}
        src, dst = played["moves"][0].split()
        await fake.command(alice, "move", {"from": src, "to": dst})
        followed = await call(f"board?have={have}")
        assert followed["board"]["ref"][1] == played["ref"][1] + 1
        assert read(followed["board"]["text"]).count("2 moves") == 1  # the slash command's move


async def test_a_move_on_the_page_shows_on_the_board_in_the_channel(
    fake: FakeDiscord, bot: Any
) -> None:
    dealt = await fake.command("alice", "new", {"game": "trefoil", "deal": 2})
    message = fake.message(dealt.message_id)
    picture = message.attachments[0].data
    async with page_of(fake, bot, "alice") as call:
        played = await move_on_the_page(call)
        assert await shows(message, "1 move"), message.content
    assert message.attachments[0].is_png and message.attachments[0].data != picture
    row, revision = played["ref"]
    ids = [c.get("custom_id", "") for r in message.components for c in r["components"]]
    assert ids and all(i.endswith(f":{row}:{revision}") for i in ids), ids  # they play on
    undone = await fake.press("alice", dealt, label="Undo")  # the board as refreshed
    assert "older version" not in undone.text and "0 moves" in undone.text, undone.text


async def test_a_board_in_a_server_without_the_bot_is_shown_anew_through_its_interaction(
    fake: FakeDiscord, bot: Any
) -> None:
    """Installed to the player alone, the bot may not edit the channel's messages: the board
    is shown anew through the interaction that posted it, and Discord is asked nothing in
    vain (each refusal counts toward a ban)."""
    dealt = await fake.command("alice", "new", {"game": "trefoil", "deal": 2},
                               context="user_install_guild")
    message = fake.message(dealt.message_id)
    async with page_of(fake, bot, "alice") as call:
        await move_on_the_page(call)
        assert await shows(message, "1 move"), message.content
        await move_on_the_page(call)
        assert await shows(message, "2 moves"), message.content
    assert fake.rate_limiter.invalid == 0
    assert not [r for r in fake.requests if r[0] == "PATCH" and "/channels/" in r[1]]


async def test_a_private_board_is_never_shown_in_the_channel(
    fake: FakeDiscord, bot: Any
) -> None:
    dealt = await fake.command("alice", "new", {"game": "trefoil", "deal": 2})
    message = fake.message(dealt.message_id)
    versions = len(message.history)
    await fake.command("alice", "settings", {"private_boards": True})
    async with page_of(fake, bot, "alice") as call:
        await move_on_the_page(call)
        assert not await shows(message, "1 move", within_s=2.0)
        assert len(message.history) == versions, "the board in the channel is untouched"
        await fake.command("alice", "settings", {"private_boards": False})
        await move_on_the_page(call)
        assert await shows(message, "2 moves"), "public again: the same wait shows it"


async def test_a_page_served_as_a_process_of_its_own_edits_the_board_over_rest(
    fake: FakeDiscord, bot: Any, database: Path | str
) -> None:
    """As ``python -m bot --web`` beside the bot: a core of its own on the same database,
    Discord reached over REST alone with the bot's token, edits paced by a Tidy of its own."""
    dealt = await fake.command("alice", "new", {"game": "trefoil", "deal": 2})
    message = fake.message(dealt.message_id)
    identified = fake.identifies
    core = await Core.open(database, render_processes=0)
    try:
        for _ in range(100):  # the bot writes its live boards a second after each swap
            if await core.stores.boards.of_player(fake.users["alice"].id):
                break
            await asyncio.sleep(0.05)
        async with logged_in(page_config(fake, token=fake.token)) as rest, \
                page_of(fake, bot, "alice", core=core, channels=rest.channels) as call:
            await move_on_the_page(call)
            assert await shows(message, "1 move"), message.content
    finally:
        await core.close()
    assert fake.identifies == identified, "no gateway: REST alone"


async def test_a_fast_player_on_the_page_stays_within_the_rate_limits(
    fake: FakeDiscord, bot: Any
) -> None:
    """Moves faster than a channel's edits may go: a newer edit of the board replaces the
    one still waiting, so the board ends at the last position and Discord answers no 429
    (the fake's limits; the fixture checks)."""
    dealt = await fake.command("alice", "new", {"game": "trefoil", "deal": 2})
    message = fake.message(dealt.message_id)
    async with page_of(fake, bot, "alice") as call:
        board = (await call("board"))["board"]
        for _ in range(30):
            moves = [m for m in board["moves"] if m != "redeal"]
            body = {"action": "move", "move": moves[0]} if moves else {"action": "undo"}
            board = (await call("act", {**body, "seen": board["ref"]}))["board"]
        headline = read(board["text"]).splitlines()[0]  # "Trefoil · deal 2 · 30 moves …"
        assert await shows(message, headline.partition(" · ")[2]), message.content
    assert len(message.history) < 30, "edits waiting were replaced by newer ones"


async def leave_a_game(call: Call) -> None:
    """A game dealt on the page, a move played, and left for a new one: a result recorded."""
    await call("new", {"game": "clover-leaf", "deal": 5})
    await move_on_the_page(call)
    asked = (await call("new", {"game": "trefoil", "deal": 2}))["message"]["question"]
    assert asked is not None, "an unfinished game: the page asks first"
    left = await call("answer", {"ask": asked["ask"], "args": asked["args"], "yes": True})
    assert left["board"]["game"] == "trefoil"


async def test_a_game_on_the_page_counts_in_the_server_discord_says_the_player_is_in(
    fake: FakeDiscord, bot: Any
) -> None:
    alice = fake.users["alice"]
    async with page_of(fake, bot, "alice", guild=fake.guild.id) as call:
        await leave_a_game(call)
    here = await fake.command(alice, "stats")
    assert "Your record on this server: 1 played" in here.text, here.text
    elsewhere = await fake.command("erin", "stats", {"user": "alice"}, guild=fake.other_guild)
    assert "played" not in elsewhere.text and "ask again" not in elsewhere.text, elsewhere.text


@pytest.mark.problems_expected  # Discord's 404 and 403: asked, and the answer is no
async def test_a_server_the_player_is_not_in_or_the_bot_is_not_counts_for_none(
    fake: FakeDiscord, bot: Any
) -> None:
    erin = fake.users["erin"]  # in the other server, not this one
    async with page_of(fake, bot, "erin", guild=fake.guild.id) as call:
        await leave_a_game(call)
    async with page_of(fake, bot, "erin", guild=fake.stranger_guild.id) as call:
        await leave_a_game(call)  # erin is in it, but the bot is not: Discord says 403
    theirs = await fake.command("alice", "stats", {"user": "erin"})
    assert "played" not in theirs.text and "ask again" not in theirs.text, theirs.text
    everywhere = await fake.command(erin, "stats", {"scope": "all"}, guild=fake.other_guild)
    assert "2 played" in everywhere.text, everywhere.text


async def test_without_the_bots_token_a_game_on_the_page_counts_in_no_server(
    fake: FakeDiscord, bot: Any
) -> None:
    alice = fake.users["alice"]
    async with page_of(fake, bot, "alice", guild=fake.guild.id, token=False) as call:
        await leave_a_game(call)
    here = await fake.command("bob", "stats", {"user": "alice"})
    assert "1 played" not in here.text and "ask again" not in here.text, here.text
    everywhere = await fake.command(alice, "stats", {"scope": "all"})
    assert "1 played" in everywhere.text, everywhere.text
