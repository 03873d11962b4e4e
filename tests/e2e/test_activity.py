"""The Activity's page and the slash commands play one game: the page's server runs over
the bot's own core (as the small bot runs both in one process), a move made on the page
shows in /show through Discord, and a move made by slash command reaches the page."""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any

import aiohttp

from bot.config import Config
from bot.web.running import start_web

from .fake_discord import FakeDiscord


async def test_a_move_on_the_page_shows_in_slash_show_and_back(
    fake: FakeDiscord, bot: Any, tmp_path: Path
) -> None:
    alice = fake.users["alice"]
    await fake.command(alice, "new", {"game": "trefoil", "deal": 2})
    config = dataclasses.replace(Config(), web_port=0, client_id=str(fake.application_id),
                                 client_secret=fake.client_secret)
    page = await start_web(bot.core, config, api=fake.api_base)
    url = f"http://127.0.0.1:{page.port}/api/"
    try:
        async with aiohttp.ClientSession() as http:
            async def call(path: str, body: Any = None, session: str = "") -> Any:
                headers = {"Authorization": f"Bearer {session}"}
                async with http.request("POST" if body else "GET", url + path, json=body,
                                        headers=headers) as response:
                    assert response.status == 200, await response.text()
                    return await response.json()

            signed = await call("signin", {"code": fake.authorize(alice)})
            session = signed["session"]
            board = (await call("board", session=session))["board"]
            assert board["game"] == "trefoil" and board["ref"][1] == 0  # the game /new dealt
            move = board["moves"][0]
            played = await call("act", {"action": "move", "move": move, "seen": board["ref"]},
                                session)
            assert not played["refused"]

            shown = await fake.command(alice, "show")
            assert "1 move" in shown.text  # the page's move, through Discord

            have = ".".join(map(str, played["board"]["ref"]))
            assert await call(f"board?have={have}", session=session) == {"same": True}
            typed = played["board"]["moves"][0]
            src, dst = typed.split()
            await fake.command(alice, "move", {"from": src, "to": dst})
            followed = await call(f"board?have={have}", session=session)
            assert followed["board"]["ref"][1] == played["board"]["ref"][1] + 1
            assert followed["board"]["text"].count("2 moves") == 1  # the slash command's move
    finally:
        await page.close()
