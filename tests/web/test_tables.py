"""An Activity's table on the page's socket, without a browser: everyone whose page names
the same instance sees everyone there, with their progress, kept up to date as they move,
join and leave; a player's own other tab is one player; another table is another; and,
inside Discord, only those Discord lists at that instance sit at it."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

import discord

from bot.discord.rest import ActivityInstances
from bot.web import live
from tests.e2e.fake_discord import FakeDiscord

from .conftest import Web
from .test_live import ALICE, BOB, Socket, connect, console, deal

CAROL = 141_421_356_237_309_504


async def signed_in(web: Web, user: int) -> str:
    return await web.dev_session(user)


async def table_of(socket: Socket, within_s: float = 5.0) -> list[dict[str, Any]]:
    """The next table pushed to ``socket`` (boards pushed meanwhile are passed over)."""
    while True:
        pushed = await socket.pushed(within_s)
        if "table" in pushed:
            players: list[dict[str, Any]] = pushed["table"]["players"]
            return players


async def table_until(socket: Socket, names: list[str]) -> list[dict[str, Any]]:
    """The first table pushed to ``socket`` with these players (earlier ones passed over)."""
    while True:
        players = await table_of(socket)
        if [p["name"] for p in players] == names:
            return players


def seen(players: list[dict[str, Any]]) -> list[tuple[str, int, int]]:
    return [(p["name"], p["home"], p["moves"]) for p in players]


async def test_pages_at_one_table_see_everyone_there_with_their_progress_live(
    web: Web, tmp_path: Path,
) -> None:
    alice, bob = await signed_in(web, ALICE), await signed_in(web, BOB)
    board = await deal(web, alice)
    a = await connect(web, alice, board, instance="den")
    assert seen(await table_of(a)) == [(f"Player {ALICE}", board_home(board), 0)]
    b = await connect(web, bob, None, page="bob", instance="den")
    everyone = await table_of(b)
    assert [p["name"] for p in everyone] == [f"Player {ALICE}", f"Player {BOB}"]
    assert everyone[1]["game"] is None and everyone[0]["game"] == "trefoil"
    assert [p["name"] for p in await table_of(a)] == [f"Player {ALICE}", f"Player {BOB}"]
    await console(web, tmp_path, ALICE).handle(board["moves"][0])  # Alice moves, anywhere
    assert seen(await table_of(b))[0][2] == 1
    assert seen(await table_of(a))[0][2] == 1  # (her own page shows her progress too)
    await b.ws.close()  # Bob leaves
    assert [p["name"] for p in await table_of(a)] == [f"Player {ALICE}"]


async def test_a_players_second_tab_is_still_one_player_and_another_table_is_apart(
    web: Web,
) -> None:
    alice, carol = await signed_in(web, ALICE), await signed_in(web, CAROL)
    first = await connect(web, alice, None, page="first", instance="den")
    await table_of(first)
    second = await connect(web, alice, None, page="second", instance="den")
    assert [p["id"] for p in await table_of(second)] == [str(ALICE)]
    elsewhere = await connect(web, carol, None, page="carol", instance="attic")
    assert [p["id"] for p in await table_of(elsewhere)] == [str(CAROL)]
    await first.nothing()  # Carol sat at another table: nothing changed at this one
    await second.ws.close()
    await first.nothing()  # her other tab is still there: still one Alice


async def test_a_table_names_who_the_page_is_and_nothing_of_anyones_cards(web: Web) -> None:
    alice, bob = await signed_in(web, ALICE), await signed_in(web, BOB)
    await deal(web, bob)
    b = await connect(web, bob, None, page="bob", instance="den")
    await table_of(b)
    a = await connect(web, alice, None, instance="den")
    while True:
        pushed = await a.pushed()
        if "table" in pushed:
            break
    assert pushed["table"]["you"] == str(ALICE)
    bobs = pushed["table"]["players"][0]
    assert set(bobs) == {"id", "name", "avatar", "game", "home", "cards", "moves", "finished",
                         "won", "private"}, "progress only: never a card of anyone's"


async def watching(web: Web, session: str, watched: int, instance: str = "den",
                   page: str = "watching") -> Socket:
    socket = await connect(web, session, None, page=page, instance=instance,
                           watch=str(watched))
    return socket


async def next_board(socket: Socket) -> dict[str, Any]:
    pushed = await socket.pushed()
    assert set(pushed) == {"board"}, pushed
    board: dict[str, Any] = pushed["board"]
    return board


async def test_a_player_at_the_table_watches_anothers_table_move_live_until_it_goes_private(
    web: Web, tmp_path: Path,
) -> None:
    alice, bob = await signed_in(web, ALICE), await signed_in(web, BOB)
    board = await deal(web, alice)
    a = await connect(web, alice, board, instance="den")
    b = await connect(web, bob, None, page="bob", instance="den")
    await table_of(a)
    await table_of(b)
    watch = await watching(web, bob, ALICE)
    assert (await next_board(watch))["ref"] == board["ref"]  # Alice's board, as it is
    await console(web, tmp_path, ALICE).handle(board["moves"][0])
    moved = await next_board(watch)
    assert moved["ref"] == [board["ref"][0], 1]
    assert await web.core.stores.games.mark_proven_lost(moved["ref"][0], moved["ref"][1])
    verdict = await next_board(watch)  # the solver's verdict on it, found later: said too
    assert verdict["ref"] == moved["ref"] and verdict["lost"] and not moved["lost"]
    await web.call("api/settings", {"private_boards": True}, session=alice)
    code, why = await watch.closed()
    assert code == live.WATCH_ENDED and "private" in why
    while not any(p["private"] for p in await table_of(b)):  # the list says so, soon after
        pass  # (a list sent for her move may come first)
    again = await watching(web, bob, ALICE, page="again")
    code, why = await again.closed()
    assert code == live.WATCH_ENDED and "private" in why


async def test_a_table_is_watched_only_at_the_table_and_only_while_its_player_is_there(
    web: Web,
) -> None:
    alice, bob, carol = (await signed_in(web, ALICE), await signed_in(web, BOB),
                         await signed_in(web, CAROL))
    await deal(web, alice)
    a = await connect(web, alice, None, instance="den")
    await table_of(a)
    code, why = await (await watching(web, carol, ALICE)).closed()  # Carol is not at the table
    assert code == live.WATCH_ENDED and "only a player at the table" in why
    code, why = await (await watching(web, bob, CAROL, page="b2")).closed()
    assert code == live.WATCH_ENDED  # (Bob is not there either)
    b = await connect(web, bob, None, page="bob", instance="den")
    await table_of(b)
    code, why = await (await watching(web, bob, CAROL, page="b3")).closed()
    assert code == live.WATCH_ENDED and "not at this table" in why
    watch = await watching(web, bob, ALICE, page="b4")
    await next_board(watch)
    await a.ws.close()  # Alice leaves the table
    code, why = await watch.closed()
    assert code == live.WATCH_ENDED and "not at this table" in why
    mine = await connect(web, bob, None, page="b5", watch=str(ALICE))
    code, why = await mine.closed()
    assert code == live.BAD_MESSAGE and "instance" in why
    own = await watching(web, bob, BOB, page="b6")
    code, why = await own.closed()
    assert code == live.BAD_MESSAGE


async def test_an_instance_not_as_discord_names_one_is_refused(web: Web) -> None:
    alice = await signed_in(web, ALICE)
    socket = await connect(web, alice, None, instance="../../etc")
    code, why = await socket.closed()
    assert code == live.BAD_MESSAGE and "instance" in why


def board_home(board: dict[str, Any]) -> int:
    return sum(f["count"] for f in board["foundations"])


async def test_inside_discord_only_those_discord_lists_at_the_instance_sit_at_it(
    serve: Any, web_config: Any, fake: Any,
) -> None:
    """The server asks Discord (the fake, with the bot's token) who is at the instance: a
    forged instance and a player it does not list are refused, with the reason."""
    assert isinstance(fake, FakeDiscord)
    client = discord.Client(intents=discord.Intents.none())
    with fake.patch_discord():
        await client.login(fake.token)
        try:
            await seated_as_discord_says(serve, web_config, fake, client)
        finally:
            await client.close()


async def seated_as_discord_says(serve: Any, web_config: Any, fake: FakeDiscord,
                                 client: discord.Client) -> None:
    config = replace(web_config, client_id=str(fake.application_id),
                     client_secret=fake.client_secret)
    web = await serve(dev=False, config=config, api=fake.api_base,
                      instances=ActivityInstances(client))
    alice, bob = fake.users["alice"], fake.users["bob"]
    instance = fake.launch("i-1357924680-gc-1-2", alice)
    sessions = {}
    for user in (alice, bob):
        async with web.http.post(web.url + "api/signin",
                                 json={"code": fake.authorize(user)}) as r:
            assert r.status == 200, await r.text()
            sessions[user.name] = (await r.json())["session"]
    a = await connect(web, sessions["alice"], None, instance=instance)
    assert [p["name"] for p in await table_of(a)] == ["Alice"]  # her Discord name
    forged = await connect(web, sessions["alice"], None, page="forged",
                           instance="i-0000000000-gc-1-2")
    code, why = await forged.closed()
    assert code == live.NOT_SEATED and "Discord does not list you" in why
    b = await connect(web, sessions["bob"], None, page="bob", instance=instance)
    code, why = await b.closed()
    assert code == live.NOT_SEATED and "Discord does not list you" in why
    fake.launch(instance, bob)  # Bob joins the Activity: now he sits at it
    b = await connect(web, sessions["bob"], None, page="bob2", instance=instance)
    assert [p["name"] for p in await table_of(b)] == ["Alice", "Bob"]
