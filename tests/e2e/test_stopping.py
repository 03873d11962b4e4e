"""Stopping cleanly under load: SIGTERM (``docker stop``), SIGINT (Ctrl-C) and SIGHUP (the
terminal closed) each stop a process that players are moving in, a shard's (moves by slash
command) or the page's (moves over HTTP, each page's socket open), on each backend: it
exits 0, and every move it acknowledged is in the database (at most the one on its way
when the signal came is there without its answer having arrived); what it had begun is
answered, and what comes while it closes is refused, saying so, with nothing done. Its
``/metrics``, scraped all the while, counts every move it has answered."""

from __future__ import annotations

import asyncio
import contextlib
import signal
import time
from dataclasses import dataclass
from pathlib import Path

import aiohttp
import pytest

from bot.store import Stores
from bot.web.live import GOING_AWAY

from .fake_discord import FakeDiscord, Reply
from .play import Mirror, move_options
from .test_operator_port import Samples, bot_process, scrape
from .test_web_process import free_port, page_process, signed_in, start_serving

PLAYERS = ("alice", "bob", "carol", "dana")


def revision_of(reply: Reply) -> int | None:
    """The revision a board shows, from its buttons (``sol:undo:<who>:<row>:<revision>``)."""
    for custom_id in reply.custom_ids:
        if custom_id.startswith("sol:undo:"):
            return int(custom_id.rsplit(":", 1)[1])
    return None


async def keep_moving(fake: FakeDiscord, name: str, stopping: asyncio.Event,
                      acknowledged: dict[str, int]) -> None:
    """A move and its undo by slash command, again and again, until the bot stops
    answering; the revision of the last board acknowledged."""
    mirror = Mirror("trefoil", 5)
    move = mirror.first_move()
    turn = 0
    while True:
        sent = (fake.start_command(name, "move", move_options(move)) if turn % 2 == 0
                else fake.start_command(name, "undo"))
        try:
            await fake.send_interaction(sent)
            reply = await sent.reply(timeout=5)
        except Exception:
            if stopping.is_set():
                return  # the bot is gone: this one went unanswered
            raise
        revision = revision_of(reply)
        if revision is None and stopping.is_set():  # came as it closed: refused untouched
            assert reply.ephemeral and "restarting, so nothing was done" in reply.text, (
                reply.text)
            return
        assert revision is not None, reply.text
        acknowledged[name] = revision
        turn += 1


async def keep_moving_on_page(http: aiohttp.ClientSession, api: str, session: str,
                              stopping: asyncio.Event, acknowledged: dict[str, int],
                              name: str) -> None:
    """A page's player: its socket open, a deal, then a move and its undo over HTTP, again
    and again, until the process stops answering; the revision of the last board
    acknowledged."""
    signed = {"Authorization": f"Bearer {session}"}
    async with http.post(api + "new", headers=signed, json={"game": "trefoil", "deal": 5}) as r:
        assert r.status == 200, await r.text()
        board = (await r.json())["board"]
    move, ref = board["moves"][0], board["ref"]
    socket = await http.ws_connect(api + "live")
    await socket.send_json({"session": session, "page": f"page-{name}-0123", "have": ref,
                            "lost": False, "fourColour": False})
    listening = asyncio.create_task(listen(socket))  # as a browser reads it, all along
    turn = 0
    try:
        while True:
            body = ({"action": "move", "move": move, "seen": ref} if turn % 2 == 0
                    else {"action": "undo", "seen": ref})
            try:
                async with http.post(api + "act", headers=signed, json=body) as r:
                    answered = await r.json() if r.status == 200 else None
            except aiohttp.ClientError:
                if stopping.is_set():
                    break  # the process is gone: this one went unanswered
                raise
            if stopping.is_set() and (answered is None or answered["refused"]):
                break  # refused as it closed, nothing done
            assert answered is not None and not answered["refused"], answered
            ref = answered["board"]["ref"]
            acknowledged[name] = ref[1]
            turn += 1
        async with asyncio.timeout(5):
            closed = await listening
        assert closed == GOING_AWAY, f"the socket closed with {closed}, not 'going away'"
    finally:
        listening.cancel()
        await socket.close()


async def listen(socket: aiohttp.ClientWebSocketResponse) -> int | None:
    """Every message pushed, until the socket closes; the code it closed with."""
    while (await socket.receive()).type is aiohttp.WSMsgType.TEXT:
        pass
    return socket.close_code


@dataclass
class Stopped:
    """How a process stopped under load, and what the database held after it."""

    seconds: float  # from the signal to the exit
    code: int
    log: str
    acknowledged: dict[str, int]  # each player's last revision answered
    saved: dict[str, int | None]  # each player's revision in the database


async def stop_under_load(sig: signal.Signals, workdir: Path, moves: int,
                          database: Path | str | None = None, *,
                          page: bool = False) -> Stopped:
    """A shard process (``page``: the page's process), ``PLAYERS`` moving and undoing in it
    as fast as it answers, and ``sig`` sent once each has ``moves`` revisions
    acknowledged. ``database``: a PostgreSQL URL, or a SQLite file (None: one in
    ``workdir``)."""
    database = workdir / "solitaire.db" if database is None else database
    fake = await FakeDiscord().start()
    stopping = asyncio.Event()
    acknowledged: dict[str, int] = {}
    http = aiohttp.ClientSession()
    ops_port = free_port()
    try:
        if page:
            port = free_port()
            process = page_process(fake, database, workdir, port)
            process.extra_env["METRICS_PORT"] = str(ops_port)
            await start_serving(process, port)
            api = f"http://127.0.0.1:{port}/api/"
            sessions = [await signed_in(http, fake, fake.users[name], api) for name in PLAYERS]
            players = [asyncio.create_task(keep_moving_on_page(
                http, api, session, stopping, acknowledged, name))
                for name, session in zip(PLAYERS, sessions, strict=True)]
        else:
            process = bot_process(fake, database, workdir, ops_port)
            await process.start()
            for name in PLAYERS:
                await fake.command(name, "new", {"game": "trefoil", "deal": 5})
            players = [asyncio.create_task(keep_moving(fake, name, stopping, acknowledged))
                       for name in PLAYERS]
        while len(acknowledged) < len(PLAYERS) or min(acknowledged.values()) < moves:
            await asyncio.sleep(0.05)
            for player in players:
                if player.done():
                    player.result()  # a player that failed says how
            # Scraped meanwhile, its metrics count at least every move already answered.
            answered = sum(acknowledged.values())
            assert moves_counted(await scrape(ops_port), "page" if page else "discord") >= answered
        stopping.set()
        began = time.perf_counter()
        code = await process.stop(sig=sig, timeout=60)
        seconds = time.perf_counter() - began
        await asyncio.gather(*players)
    finally:
        with contextlib.suppress(Exception):
            await process.stop()
        await http.close()
        await fake.close()
    stores = await Stores.open(database)
    try:
        saved: dict[str, int | None] = {}
        for name in PLAYERS:
            game = await stores.games.load(fake.users[name].id)
            saved[name] = None if game is None else game.revision
    finally:
        await stores.close()
    return Stopped(seconds, code, process.log(), acknowledged, saved)


def moves_counted(samples: Samples, source: str) -> float:
    """The moves and undos played that a scrape counts, from ``source``."""
    return sum(value for labels, value in samples["solitaire_answers_total"]
               if labels["source"] == source and labels["kind"] in ("move", "undo")
               and labels["outcome"] == "played")


# Each signal on SQLite, and SIGTERM, the one orchestrators send, on PostgreSQL too.
CASES = [pytest.param(sig, backend, id=f"{sig.name}-{backend}")
         for sig, backend in ((signal.SIGTERM, "sqlite"), (signal.SIGINT, "sqlite"),
                              (signal.SIGHUP, "sqlite"), (signal.SIGTERM, "postgresql"))]


def database_on(backend: str, request: pytest.FixtureRequest, tmp_path: Path) -> Path | str:
    if backend == "sqlite":
        return tmp_path / "solitaire.db"
    return str(request.getfixturevalue("pg_url"))


@pytest.mark.problems_expected  # the moves sent after it stopped go unanswered
@pytest.mark.parametrize("page", [False, True], ids=["shard", "page"])
@pytest.mark.parametrize(("sig", "backend"), CASES)
async def test_a_signal_under_load_stops_a_process_cleanly_and_loses_no_move(
    sig: signal.Signals, backend: str, page: bool, request: pytest.FixtureRequest,
    tmp_path: Path
) -> None:
    database = database_on(backend, request, tmp_path)
    stopped = await stop_under_load(sig, tmp_path, 5, database, page=page)
    assert stopped.code == 0, f"{sig.name} stops the process cleanly:\n{stopped.log}"
    assert "Traceback" not in stopped.log and " ERROR " not in stopped.log, stopped.log
    for name in PLAYERS:
        answered = stopped.acknowledged[name]
        assert stopped.saved[name] in (answered, answered + 1), (name, stopped.saved, answered)
