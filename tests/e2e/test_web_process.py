"""The Activity's page served the way a large bot's operator serves it: ``python -m bot --web``
(no ``--dev``) as a process of its own, beside the bot, on the same database, with the bot's
token and the application's OAuth2 id and secret in its environment.

The process is ``python -m tests.e2e.launch_bot --web``: the bot's own entry point with
Discord (discord.py's REST and gateway, and the page's OAuth2 sign-in) pointed at the fake.
A player deals with ``/new`` in a channel, signs in on the page over HTTP, moves there, and
the move shows on the board in the channel and in ``/show``; SIGTERM ends the process, 0.
"""

from __future__ import annotations

import asyncio
import json
import os
import signal
import socket
import sys
import time
from pathlib import Path
from typing import Any

import aiohttp
import pytest

from bot.core import Core

from .fake_discord import FakeDiscord
from .harness import REPO, BotProcess
from .play import move_options
from .test_activity import shows


@pytest.fixture
def database(any_database: Path | str) -> Path | str:
    """On each backend: the page's process and the bot's share only the database."""
    return any_database


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def page_process(fake: FakeDiscord, database: Path | str, workdir: Path, port: int) -> BotProcess:
    """``python -m tests.e2e.launch_bot --web`` with an operator's settings (not started)."""
    url = {"DATABASE_URL": database} if isinstance(database, str) else {}
    return BotProcess(
        fake, workdir / "unused.db" if isinstance(database, str) else database, workdir,
        args=["--web"], name="web",
        env={"DISCORD_CLIENT_ID": str(fake.application_id),
             "DISCORD_CLIENT_SECRET": fake.client_secret,
             "WEB_HOST": "127.0.0.1", "WEB_PORT": str(port), **url},
    )


async def signed_in(http: aiohttp.ClientSession, fake: FakeDiscord, user: Any,
                    api: str) -> str:
    """``user``'s session on the page at ``api``, signed in as inside Discord, in the
    fake's server."""
    async with http.post(api + "signin", json={"code": fake.authorize(user),
                                              "guild": str(fake.guild.id)}) as r:
        assert r.status == 200, await r.text()
        return str((await r.json())["session"])


async def start_serving(page: BotProcess, port: int, *, timeout: float = 10.0) -> None:
    """Start the page's process and wait until its port answers (it never connects to
    the gateway, so ``BotProcess.start`` does not fit)."""
    with page.log_path.open("ab") as log:
        page.proc = await asyncio.create_subprocess_exec(
            sys.executable, "-m", page.module, *page.args, cwd=page.workdir,
            env=page.environment(), stdout=log, stderr=asyncio.subprocess.STDOUT)
    deadline = time.monotonic() + timeout
    async with aiohttp.ClientSession() as http:
        while True:
            if page.proc.returncode is not None:
                raise AssertionError(f"the page's process exited with {page.proc.returncode} "
                                     f"before serving:\n{page.log()}")
            try:
                async with http.get(f"http://127.0.0.1:{port}/api/board") as response:
                    if response.status == 401:  # served, and no one signed in
                        return
            except aiohttp.ClientError:
                pass
            if time.monotonic() > deadline:
                await page.stop(timeout=5)
                raise AssertionError(f"the page's port did not answer in {timeout} s:\n"
                                     f"{page.log()}")
            await asyncio.sleep(0.05)


async def test_the_page_as_a_process_of_its_own_plays_on_the_board_in_the_channel(
    fake: FakeDiscord, bot: Any, database: Path | str, tmp_path: Path
) -> None:
    alice = fake.users["alice"]
    dealt = await fake.command(alice, "new", {"game": "trefoil", "deal": 2})
    message = fake.message(dealt.message_id)
    core = await Core.open(database, render_processes=0)
    try:  # the bot writes its live boards a second after each swap: the page reads them
        for _ in range(100):
            if await core.stores.boards.of_player(alice.id):
                break
            await asyncio.sleep(0.05)
    finally:
        await core.close()

    port = free_port()
    page = page_process(fake, database, tmp_path, port)
    identified = fake.identifies
    await start_serving(page, port)
    try:
        api = f"http://127.0.0.1:{port}/api/"
        async with aiohttp.ClientSession() as http:
            session = await signed_in(http, fake, alice, api)
            signed = {"Authorization": f"Bearer {session}"}
            async with http.get(api + "board", headers=signed) as r:
                assert r.status == 200, await r.text()
                board = (await r.json())["board"]
            assert board["game"] == "trefoil" and board["ref"][1] == 0, board  # /new's game
            async with http.post(api + "act", headers=signed, json={
                    "action": "move", "move": board["moves"][0], "seen": board["ref"]}) as r:
                assert r.status == 200, await r.text()
                played = await r.json()
            assert not played["refused"], played
        assert await shows(message, "1 move"), f"{message.content}\n{page.log()}"
        shown = await fake.command(alice, "show")
        assert "1 move" in shown.text, shown.text
    finally:
        code_at_exit = await page.stop(timeout=5)
    assert code_at_exit == 0, page.log()
    assert fake.identifies == identified, "the page's process opens no gateway: REST alone"
    log = page.log()
    assert "the page is served at" in log and " ERROR " not in log, log


async def test_a_page_move_never_shows_a_board_made_private_in_the_bots_process(
    fake: FakeDiscord, bot: Any, database: Path | str, tmp_path: Path
) -> None:
    """The page's process keeps the player's settings from their first move; the second
    comes after ``/settings private_boards:True`` in the bot's, of which no notice of
    SQLite's reaches it: the channel's board stays as it was, until the boards are public
    again."""
    alice = fake.users["alice"]
    dealt = await fake.command(alice, "new", {"game": "trefoil", "deal": 2})
    message = fake.message(dealt.message_id)
    core = await Core.open(database, render_processes=0)
    try:
        for _ in range(100):
            if await core.stores.boards.of_player(alice.id):
                break
            await asyncio.sleep(0.05)
    finally:
        await core.close()
    port = free_port()
    page = page_process(fake, database, tmp_path, port)
    await start_serving(page, port)
    try:
        api = f"http://127.0.0.1:{port}/api/"
        async with aiohttp.ClientSession() as http:
            signed = {"Authorization": f"Bearer {await signed_in(http, fake, alice, api)}"}

            async def move() -> None:
                async with http.get(api + "board", headers=signed) as r:
                    board = (await r.json())["board"]
                async with http.post(api + "act", headers=signed, json={
                        "action": "move", "move": board["moves"][0], "seen": board["ref"]}) as r:
                    assert r.status == 200 and not (await r.json())["refused"], await r.text()

            await move()
            assert await shows(message, "1 move"), f"{message.content}\n{page.log()}"
            await fake.command(alice, "settings", {"private_boards": True})
            await move()
            assert not await shows(message, "2 moves", within_s=2.0), "a private board shown"
            await fake.command(alice, "settings", {"private_boards": False})
            await move()
            assert await shows(message, "3 moves"), f"{message.content}\n{page.log()}"
        assert not any("2 moves" in state.content for state in message.history)
    finally:
        assert await page.stop(timeout=5) == 0, page.log()


async def test_a_slash_command_move_in_the_bots_process_is_pushed_to_the_pages_socket(
    fake: FakeDiscord, bot: Any, database: Path | str, tmp_path: Path
) -> None:
    """The page's socket in its own process is told of a ``/move`` in the bot's: through
    PostgreSQL's notices, or on SQLite (whose notices stay in one process) by the page's
    process looking at the followed game each second. Nothing is asked for it."""
    alice = fake.users["alice"]
    await fake.command(alice, "new", {"game": "trefoil", "deal": 2})
    port = free_port()
    page = page_process(fake, database, tmp_path, port)
    await start_serving(page, port)
    try:
        api = f"http://127.0.0.1:{port}/api/"
        async with aiohttp.ClientSession() as http:
            session = await signed_in(http, fake, alice, api)
            async with http.get(api + "board",
                                headers={"Authorization": f"Bearer {session}"}) as r:
                board = (await r.json())["board"]
            async with http.ws_connect(api + "live") as ws:
                await ws.send_json({"session": session, "page": "page-of-alice",
                                    "have": board["ref"], "lost": board["lost"],
                                    "fourColour": board["fourColour"]})
                await fake.command(alice, "move", move_options(board["moves"][0]))
                pushed = await ws.receive_json(timeout=5)
                assert pushed["board"]["ref"] == [board["ref"][0], 1], pushed
                assert " · 1 move · " in json.dumps(pushed["board"]["text"], ensure_ascii=False), pushed
                await fake.command(alice, "undo")
                pushed = await ws.receive_json(timeout=5)
                assert pushed["board"]["ref"] == [board["ref"][0], 2], pushed
    finally:
        assert await page.stop(timeout=5) == 0, page.log()


async def test_two_page_processes_seat_one_activitys_players_at_one_table(
    fake: FakeDiscord, bot: Any, database: Path | str, tmp_path: Path
) -> None:
    """Alice's page is served by one page process and Bob's by another, on one database: both
    sit at the instance Discord lists them at, each sees the other, a move in one process
    shows in the other's table, and a page closed leaves it; a player Discord does not list
    there is refused by either."""
    alice, bob, carol = fake.users["alice"], fake.users["bob"], fake.users["carol"]
    instance = fake.launch("i-2468013579-gc-table", alice, bob)
    ports = [free_port(), free_port()]
    pages = [page_process(fake, database, tmp_path / name, port)
             for name, port in zip(("one", "two"), ports, strict=True)]
    for page, port in zip(pages, ports, strict=True):
        (page.workdir).mkdir(exist_ok=True)
        await start_serving(page, port)
    try:
        async with aiohttp.ClientSession() as http:
            async def signed(user: Any, port: int) -> tuple[str, str]:
                api = f"http://127.0.0.1:{port}/api/"
                return api, await signed_in(http, fake, user, api)

            async def table(ws: aiohttp.ClientWebSocketResponse,
                            wanted: list[tuple[str, int]]) -> None:
                """Until the table pushed reads ``wanted``: each player's name and moves."""
                seen: list[tuple[str, int]] = []
                while seen != wanted:
                    pushed = await ws.receive_json(timeout=5)
                    if "table" in pushed:
                        seen = [(p["name"], p["moves"]) for p in pushed["table"]["players"]]

            (api_a, alices), (api_b, bobs) = await signed(alice, ports[0]), await signed(bob, ports[1])
            async with http.post(api_a + "new", json={"game": "trefoil", "deal": 3},
                                 headers={"Authorization": f"Bearer {alices}"}) as r:
                board = (await r.json())["board"]
            a = await http.ws_connect(api_a + "live")
            await a.send_json({"session": alices, "page": "alice-page", "have": board["ref"],
                               "lost": board["lost"], "fourColour": board["fourColour"],
                               "instance": instance})
            await table(a, [("Alice", 0)])
            b = await http.ws_connect(api_b + "live")
            await b.send_json({"session": bobs, "page": "bob-page", "have": None,
                               "instance": instance})
            await table(b, [("Alice", 0), ("Bob", 0)])
            await table(a, [("Alice", 0), ("Bob", 0)])  # Bob sat down in the other process
            async with http.post(api_a + "act", headers={"Authorization": f"Bearer {alices}"},
                                 json={"action": "move", "move": board["moves"][0],
                                       "seen": board["ref"]}) as r:
                assert r.status == 200 and not (await r.json())["refused"]
            await table(b, [("Alice", 1), ("Bob", 0)])  # her move, in the other process
            await b.close()
            await table(a, [("Alice", 1)])
            api_c, carols = await signed(carol, ports[1])
            c = await http.ws_connect(api_c + "live")
            await c.send_json({"session": carols, "page": "carol-page", "have": None,
                               "instance": instance})
            closing = await c.receive(timeout=5)
            assert closing.type is aiohttp.WSMsgType.CLOSE and closing.data == 4403, closing
            await a.close()
    finally:
        for page in pages:
            assert await page.stop(timeout=5) == 0, page.log()


async def test_the_page_refuses_to_start_without_the_applications_id_and_secret(
    tmp_path: Path,
) -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DISCORD_", "WEB_"))}
    env.update(DISCORD_TOKEN="a-token", DATABASE_PATH=str(tmp_path / "solitaire.db"),
               PYTHONPATH=os.pathsep.join([str(REPO), env.get("PYTHONPATH", "")]))
    for missing in ("DISCORD_CLIENT_ID", "DISCORD_CLIENT_SECRET"):
        settings = {"DISCORD_CLIENT_ID": "123456789012345678", "DISCORD_CLIENT_SECRET": "a-client-secret"}
        del settings[missing]
        proc = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "bot", "--web", cwd=tmp_path, env={**env, **settings},
            stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.STDOUT)
        try:
            out, _ = await asyncio.wait_for(proc.communicate(), 20)
        except TimeoutError:
            proc.send_signal(signal.SIGKILL)
            await proc.wait()
            raise
        said = out.decode(errors="replace")
        assert proc.returncode == 2, said
        assert "The page needs DISCORD_CLIENT_ID and DISCORD_CLIENT_SECRET" in said, said
        assert not (tmp_path / "solitaire.db").exists(), "refused before opening anything"
