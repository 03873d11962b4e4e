"""The page's race requests (``POST /api/race``, ``/api/race/join``): bad input is a 400 that
says why and starts nothing; inside Discord only a player Discord lists at the instance
starts or joins one (a 403 that says why), and the race is run where Discord says the
Activity was opened (its channel and server, from the activity-instances answer), so its
result is posted there, once, by the page's server."""

from __future__ import annotations

import asyncio
from dataclasses import replace
from typing import Any

import discord
import pytest

from bot.discord.edits import ChannelEdits
from bot.discord.rest import ActivityInstances
from bot.discord.tidy import Tidy
from bot.flows import races
from tests.e2e.fake_discord import FakeDiscord

from .conftest import Web

ALICE, BOB = 2, 3


@pytest.mark.parametrize(("path", "body", "why"), [
    ("api/race", {"game": "trefoil"}, "instance must be the Activity's instance id"),
    ("api/race", {"instance": "../x", "game": "trefoil"}, "instance must be"),
    ("api/race", {"instance": "den"}, "game"),
    ("api/race", {"instance": "den", "game": "chess"}, "game"),
    ("api/race/join", {"instance": "den"}, "race must be the race's id"),
    ("api/race/join", {"instance": "den", "race": 12}, "race must be the race's id"),
    ("api/race/join", {"instance": "den", "race": "-1"}, "race must be the race's id"),
])
async def test_bad_race_requests_are_refused_saying_why_and_start_nothing(
    web: Web, path: str, body: dict[str, Any], why: str,
) -> None:
    session = await web.dev_session(ALICE)
    said = await web.call(path, body, session=session, status=400)
    assert why in said["error"], said
    assert await web.core.races.at("den") is None


async def test_a_race_that_is_not_at_the_table_is_not_joined(web: Web) -> None:
    session = await web.dev_session(ALICE)
    said = await web.call("api/race/join", {"instance": "den", "race": "999"},
                          session=session)
    assert said["refused"] and "That race is not at this table." in str(said["note"]), said


async def test_inside_discord_a_race_is_run_where_the_activity_was_opened(
    serve: Any, web_config: Any, fake: FakeDiscord, monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(races, "COUNTDOWN_S", 0.0)
    client = discord.Client(intents=discord.Intents.none())
    with fake.patch_discord():
        await client.login(fake.token)
        tidy = Tidy(client)
        try:
            await run_in_discord(serve, web_config, fake, client, tidy)
        finally:
            await tidy.close()
            await client.close()


class Posting(ChannelEdits):
    """The page's server's Discord side for its channels: only its posts matter here."""

    async def refresh(self, channel_id: int, message_id: int, board: Any) -> None:
        raise AssertionError("no board is refreshed here")


async def run_in_discord(serve: Any, web_config: Any, fake: FakeDiscord,
                         client: discord.Client, tidy: Tidy) -> None:
    config = replace(web_config, client_id=str(fake.application_id),
                     client_secret=fake.client_secret)
    web = await serve(dev=False, config=config, api=fake.api_base,
                      instances=ActivityInstances(client), channels=Posting(tidy))
    alice, bob = fake.users["alice"], fake.users["bob"]
    instance = fake.launch("i-9081726354-gc-race", alice)
    sessions = {}
    for user in (alice, bob):
        async with web.http.post(web.url + "api/signin",
                                 json={"code": fake.authorize(user)}) as r:
            assert r.status == 200, await r.text()
            sessions[user.name] = (await r.json())["session"]
    refused = await web.call("api/race", {"instance": instance, "game": "trefoil"},
                             session=sessions["bob"], status=403)
    assert refused == {"error": "Discord does not list you at this Activity's table."}
    assert await web.core.races.at(instance) is None
    forged = await web.call("api/race", {"instance": "i-0000000000-gc-x", "game": "trefoil"},
                            session=sessions["alice"], status=403)
    assert "Discord does not list you" in forged["error"]
    stores = web.core.stores
    assert await stores.meta.try_lead(lambda: None)
    await stores.pool.add("trefoil", 27, 1.0, target=20)
    started = await web.call("api/race", {"instance": instance, "game": "trefoil"},
                             session=sessions["alice"])
    assert "You started a Trefoil race" in str(started["note"]), started
    race = await web.core.races.at(instance)
    assert race is not None
    assert (race.channel_id, race.guild_id) == (fake.guild.channels[0].id, fake.guild.id)
    assert race.racers[0].name == "Alice"  # her Discord name, as signing in gave it
    refused = await web.call("api/race/join", {"instance": instance, "race": str(race.id)},
                             session=sessions["bob"], status=403)
    assert "Discord does not list you" in refused["error"]
    race = await web.core.races.advance(race)  # (its countdown: none here)
    saved = await stores.games.load(alice.id)
    assert saved is not None and saved.race_id == race.id
    async with stores.db.transaction() as conn:  # she resigns: the race is over
        await conn.execute("UPDATE racers SET outcome = 'resigned'")
    race = await web.core.races.advance(race)
    await web.core.races.advance(race)
    posted = [m for m in fake.channel_messages(fake.guild.channels[0])
              if "race** over" in m.content]
    assert len(posted) == 1, posted
    assert posted[0].content.startswith("🏁 **Trefoil race** over: 1 racer, deal 27")


async def test_the_operators_gauges_count_sockets_seats_and_races_under_way(web: Web) -> None:
    """``solitaire_page_sockets``, ``solitaire_table_seats`` and
    ``solitaire_races_under_way``, as /metrics reads them: a socket alone, two at a table,
    and the race they start there."""
    from prometheus_client import REGISTRY

    from .test_live import connect
    from .test_tables import table_of

    def gauge(name: str) -> float:
        return REGISTRY.get_sample_value(name) or 0.0

    alone = await connect(web, await web.dev_session(4), None, page="alone")
    sessions = [await web.dev_session(user) for user in (ALICE, BOB)]
    a = await connect(web, sessions[0], None, page="page-a", instance="den")
    b = await connect(web, sessions[1], None, page="page-b", instance="den")
    while len(await table_of(a)) < 2:
        pass
    assert (gauge("solitaire_page_sockets"), gauge("solitaire_table_seats"),
            gauge("solitaire_races_under_way")) == (3, 2, 0)
    stores = web.core.stores
    assert await stores.meta.try_lead(lambda: None)
    await stores.pool.add("trefoil", 27, 1.0, target=20)
    await web.call("api/race", {"instance": "den", "game": "trefoil"}, session=sessions[0])
    for _ in range(100):
        if gauge("solitaire_races_under_way") == 1:
            break
        await asyncio.sleep(0.02)
    assert gauge("solitaire_races_under_way") == 1
    for socket in (alone, a, b):
        await socket.ws.close()
    for _ in range(100):
        if gauge("solitaire_page_sockets") == gauge("solitaire_table_seats") == 0:
            break
        await asyncio.sleep(0.02)
    assert (gauge("solitaire_page_sockets"), gauge("solitaire_table_seats")) == (0, 0)
