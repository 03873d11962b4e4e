"""Races at an Activity's table with their racers on two page processes (``python -m bot
--web``, as a large bot's operator serves the page) and the bot beside them, on one
PostgreSQL database: Alice starts it on one process, Bob joins it on the other while it
counts down, and Carol, at the table too, stays out. Both racers are dealt one deal at
one moment, each on their own socket; each sees the other's progress through the
database's notices; Bob resigns (with ``/resign``), Alice wins on her page; the result is posted once in the channel the
Activity was opened in, and ``/stats`` counts the race for each."""

from __future__ import annotations

import asyncio
import re
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import aiohttp
import pytest

from bot.store import Stores
from bot.store.database import Notice
from bot.store.seats import table_key
from engine.solver import solve
from tests.web.conftest import chromium

from .fake_discord import FakeDiscord
from .harness import BotProcess
from .test_web_process import free_port, page_process, signed_in, start_serving


@pytest.fixture
def database(pg_url: str) -> str:
    return pg_url


@pytest.fixture
async def browser() -> AsyncIterator[Any]:
    async with chromium() as launched:
        yield launched


class Page:
    """One player's page: its API on its process, its session, and its socket."""

    def __init__(self, http: aiohttp.ClientSession, api: str, session: str) -> None:
        self.http, self.api, self.session = http, api, session
        self.ws: aiohttp.ClientWebSocketResponse | None = None
        self.table: dict[str, Any] = {}
        self.board: dict[str, Any] | None = None

    async def call(self, path: str, body: dict[str, Any] | None = None) -> Any:
        """As the page asks (waiting out a 429, as a player's quick hand would be told)."""
        while True:
            async with self.http.request(
                    "POST" if body is not None else "GET", self.api + path, json=body,
                    headers={"Authorization": f"Bearer {self.session}"}) as r:
                if r.status == 429:
                    await asyncio.sleep(float(r.headers.get("Retry-After", "1")))
                    continue
                assert r.status == 200, (path, r.status, await r.text())
                return await r.json()

    async def sit(self, instance: str) -> None:
        self.ws = await self.http.ws_connect(self.api + "live")
        await self.ws.send_json({"session": self.session, "page": f"page-{id(self)}",
                                 "have": None, "instance": instance})

    async def until(self, check: Any, timeout: float = 15.0) -> None:
        """Until what the socket pushed meets ``check(page)``."""
        assert self.ws is not None
        async with asyncio.timeout(timeout):
            while not check(self):
                pushed = await self.ws.receive_json()
                if "table" in pushed:
                    self.table = pushed["table"]
                if "board" in pushed:
                    self.board = pushed["board"]


def race_of(page: Page) -> dict[str, Any]:
    race: dict[str, Any] | None = page.table.get("race")
    return race or {}


async def test_racers_on_two_page_processes_race_one_deal_to_one_posted_result(
    fake: FakeDiscord, bot: Any, database: str, tmp_path: Path,
) -> None:
    alice, bob, carol = fake.users["alice"], fake.users["bob"], fake.users["carol"]
    instance = fake.launch("i-1122334455-gc-race", alice, bob, carol)
    ports = [free_port(), free_port()]
    processes = [page_process(fake, database, tmp_path / name, port)
                 for name, port in zip(("one", "two"), ports, strict=True)]
    for process, port in zip(processes, ports, strict=True):
        process.workdir.mkdir(exist_ok=True)
        await start_serving(process, port)
    stores = await Stores.open(database)
    try:
        async with aiohttp.ClientSession() as http:
            apis = [f"http://127.0.0.1:{port}/api/" for port in ports]
            a = Page(http, apis[0], await signed_in(http, fake, alice, apis[0]))
            b = Page(http, apis[1], await signed_in(http, fake, bob, apis[1]))
            c = Page(http, apis[1], await signed_in(http, fake, carol, apis[1]))
            for page in (a, b, c):
                await page.sit(instance)
            for page in (a, b, c):
                await page.until(lambda p: len(p.table.get("players", [])) == 3)
            started = await a.call("race", {"instance": instance, "game": "trefoil"})
            assert "You started a Trefoil race" in str(started["note"]), started
            await b.until(lambda p: race_of(p).get("status") == "counting")
            joined = await b.call("race/join", {"instance": instance,
                                                "race": race_of(b)["id"]})
            assert "You are in the race" in str(joined["note"]), joined
            await a.until(lambda p: len(race_of(p).get("racers", [])) == 2)
            # The countdown's end, brought forward: the race's time comes, as the clock's would.
            async with stores.db.transaction() as conn:
                await conn.execute("UPDATE races SET starts_at = starts_at - 60")
                await conn.notify(Notice.TABLE, table_key(instance))
            for page in (a, b):
                await page.until(lambda p: p.board is not None and p.board["game"] == "trefoil"
                                 and race_of(p).get("status") == "running")
            assert a.board is not None and b.board is not None
            assert a.board["piles"] == b.board["piles"], "one deal for both"
            games = [await stores.games.load(u.id) for u in (alice, bob)]
            assert [(g.game.game_id, g.game.deal_number) for g in games if g] == [
                ("trefoil", race_of(a)["deal"])] * 2
            await c.until(lambda p: race_of(p).get("status") == "running")
            assert c.board is None, "Carol stays out: nothing dealt to her"
            # Bob resigns, with the slash command in the bot's process.
            await fake.press(bob, await fake.command(bob, "resign"), label="Resign")
            await a.until(lambda p: any(r["outcome"] == "resigned" for r in race_of(p)["racers"]))
            # Alice wins, move by move on her page.
            saved = await stores.games.load(alice.id)
            assert saved is not None and saved.race_id is not None
            ref = a.board["ref"]
            for move in solve(saved.game, positions=300_000).moves:
                reply = await a.call("act", {"action": "move", "move": move, "seen": ref})
                assert not reply["refused"], reply
                ref = reply["board"]["ref"]
            for page in (a, b, c):
                await page.until(lambda p: race_of(p).get("status") == "over")
                assert race_of(page)["winner"] == str(alice.id)
                assert [r["outcome"] for r in race_of(page)["racers"]] == ["won", "resigned"]
            for _ in range(100):
                posted = [m for m in fake.channel_messages() if "race** over" in m.content]
                if posted:
                    break
                await asyncio.sleep(0.1)
            await asyncio.sleep(1.0)  # (a second post would have come by now)
            [result] = [m for m in fake.channel_messages() if "race** over" in m.content]
            assert result.content.startswith("🏁 **Trefoil race** over: 2 racers, deal ")
            assert f"1. <@{alice.id}>: won in " in result.content
            assert f"2. <@{bob.id}>: resigned" in result.content
            assert f"🏆 <@{alice.id}> wins the race!" in result.content
            for player, line in ((alice, "🏁 Races: 1 run, 1 won"),
                                 (bob, "🏁 Races: 1 run, 0 won")):
                stats = (await fake.command(player, "stats")).message
                assert stats is not None and line in stats.content, stats
            for page in (a, b, c):
                assert page.ws is not None
                await page.ws.close()
    finally:
        await stores.close()
        for process in processes:
            assert await process.stop(timeout=5) == 0, process.log()


def dev_page_process(fake: FakeDiscord, database: str, workdir: Path, port: int) -> BotProcess:
    """``python -m bot --web --dev`` on the shared database (not started): the page as a
    developer serves it, where ``?dev_user=&instance=`` sits a tab at a table."""
    workdir.mkdir(exist_ok=True)
    return BotProcess(fake, workdir / "unused.db", workdir, args=["--web", "--dev"], name="web",
                      env={"WEB_HOST": "127.0.0.1", "WEB_PORT": str(port),
                           "DATABASE_URL": database})


async def row_of(page: Any, pattern: str, within_s: float = 15.0) -> str:
    """Until the race's row on ``page`` matches ``pattern``; the row."""
    row = ""
    for _ in range(int(within_s / 0.05)):
        row = re.sub(r"\s+", " ", await page.locator("#race").inner_text()).strip()
        if re.search(pattern, row):
            return row
        await page.wait_for_timeout(50)
    raise AssertionError(f"{pattern!r} not in the race's row: {row!r}")


async def play_to_a_win(http: aiohttp.ClientSession, api: str, session: str,
                        stores: Stores, user_id: int) -> None:
    """The player's game won, move by move on their page's process, as the page asks."""
    page = Page(http, api, session)
    saved = await stores.games.load(user_id)
    assert saved is not None
    ref = [saved.id, saved.revision]
    for move in solve(saved.game, positions=300_000).moves:
        reply = await page.call("act", {"action": "move", "move": move, "seen": ref})
        assert not reply["refused"], reply
        ref = reply["board"]["ref"]


async def test_three_tabs_on_two_page_processes_race_watch_and_see_who_won(
    fake: FakeDiscord, database: str, tmp_path: Path, browser: Any,
) -> None:
    """Player 2's tab is served by one page process, Players 3's and 4's by another, on one
    PostgreSQL: 2 starts a race, 3 joins it, 4 watches 2's table from the other process;
    both racers win, and every tab shows that 2, first to finish in as many moves, won."""
    ports = [free_port(), free_port()]
    processes = [dev_page_process(fake, database, tmp_path / name, port)
                 for name, port in zip(("one", "two"), ports, strict=True)]
    for process, port in zip(processes, ports, strict=True):
        await start_serving(process, port)
    stores = await Stores.open(database)
    try:
        urls = [f"http://127.0.0.1:{port}/" for port in ports]

        async def tab(user: int, url: str) -> Any:
            page = await (await browser.new_context(
                viewport={"width": 1024, "height": 640})).new_page()
            await page.goto(f"{url}?dev_user={user}&locale=en-US&instance=duel")
            await page.get_by_role("list", name="Players").wait_for(timeout=15_000)
            return page

        two, three, four = await tab(2, urls[0]), await tab(3, urls[1]), await tab(4, urls[1])
        await two.get_by_role("list", name="Players").get_by_role("listitem").nth(2).wait_for()
        await two.select_option("#game", "trefoil")
        await two.get_by_role("button", name="Race", exact=True).click()
        await three.get_by_role("button", name="Join race").click(timeout=15_000)
        await row_of(two, r"Player 2 · playing Player 3 · playing$")
        async with stores.db.transaction() as conn:  # the countdown's end, brought forward
            await conn.execute("UPDATE races SET starts_at = starts_at - 60")
            await conn.notify(Notice.TABLE, table_key("duel"))
        for page in (two, three):
            await page.locator("#headline").get_by_text("Trefoil").wait_for(timeout=15_000)
        await row_of(four, r"^Trefoil race · \d+:\d\d left")
        await four.get_by_role("button", name=re.compile("^Player 2 ·")).click()
        await four.locator("#table.watching").wait_for()
        async with aiohttp.ClientSession() as http:
            sessions = []
            for user, url in ((2, urls[0]), (3, urls[1])):
                async with http.post(url + "api/dev/signin", json={"user": str(user)}) as r:
                    sessions.append((await r.json())["session"])
            await play_to_a_win(http, urls[0] + "api/", sessions[0], stores, 2)
            await row_of(four, r"Player 2 · won, \d+ moves, \d+:\d\d Player 3 · \d+/52$")
            await play_to_a_win(http, urls[1] + "api/", sessions[1], stores, 3)
        for page in (two, three, four):
            row = await row_of(page, r"^Trefoil race over · Player 2 wins the race!")
            assert re.search(r"Player 2 · won, (\d+) moves, \d+:\d\d "
                             r"Player 3 · won, \1 moves, \d+:\d\d$", row), row
        await four.locator("#table.watching .card").first.wait_for()
    finally:
        await stores.close()
        for process in processes:
            assert await process.stop(timeout=5) == 0, process.log()
