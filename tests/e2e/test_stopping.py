"""Stopping cleanly under load: SIGTERM (``docker stop``), SIGINT (Ctrl-C) and SIGHUP (the
terminal closed) each stop a bot process that players are moving in: it exits 0, and
every move it acknowledged is in the database (at most the one on its way when the
signal came is there without its answer having arrived); what it had begun is answered,
and what comes while it closes is refused, saying so, with nothing done."""

from __future__ import annotations

import asyncio
import contextlib
import signal
import time
from dataclasses import dataclass
from pathlib import Path

import pytest

from bot.store import Stores

from .fake_discord import FakeDiscord, Reply
from .harness import BotProcess
from .play import Mirror, move_options

PLAYERS = ("alice", "bob", "carol", "dana")


def revision_of(reply: Reply) -> int | None:
    """The revision a board shows, from its buttons (``sol:undo:<who>:<row>:<revision>``)."""
    for custom_id in reply.custom_ids:
        if custom_id.startswith("sol:undo:"):
            return int(custom_id.rsplit(":", 1)[1])
    return None


async def keep_moving(fake: FakeDiscord, name: str, stopping: asyncio.Event,
                      acknowledged: dict[str, int]) -> None:
    """A move and its undo, again and again, until the bot stops answering; the revision of
    the last board acknowledged."""
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


@dataclass
class Stopped:
    """How a bot process stopped under load, and what the database held after it."""

    seconds: float  # from the signal to the exit
    code: int
    log: str
    acknowledged: dict[str, int]  # each player's last revision answered
    saved: dict[str, int | None]  # each player's revision in the database


async def stop_under_load(sig: signal.Signals, workdir: Path, moves: int) -> Stopped:
    """A bot process, ``PLAYERS`` moving and undoing in it as fast as it answers, and
    ``sig`` sent once each has ``moves`` revisions acknowledged."""
    fake = await FakeDiscord().start()
    database = workdir / "solitaire.db"
    bot = BotProcess(fake, database, workdir)
    stopping = asyncio.Event()
    acknowledged: dict[str, int] = {}
    try:
        await bot.start()
        for name in PLAYERS:
            await fake.command(name, "new", {"game": "trefoil", "deal": 5})
        players = [asyncio.create_task(keep_moving(fake, name, stopping, acknowledged))
                   for name in PLAYERS]
        while len(acknowledged) < len(PLAYERS) or min(acknowledged.values()) < moves:
            await asyncio.sleep(0.05)
            assert not any(p.done() and p.exception() for p in players)
        stopping.set()
        began = time.perf_counter()
        code = await bot.stop(sig=sig, timeout=60)
        seconds = time.perf_counter() - began
        await asyncio.gather(*players)
    finally:
        with contextlib.suppress(Exception):
            await bot.stop()
        await fake.close()
    stores = await Stores.open(database)
    try:
        saved: dict[str, int | None] = {}
        for name in PLAYERS:
            game = await stores.games.load(fake.users[name].id)
            saved[name] = None if game is None else game.revision
    finally:
        await stores.close()
    return Stopped(seconds, code, bot.log(), acknowledged, saved)


@pytest.mark.problems_expected  # the moves sent after it stopped go unanswered
@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT, signal.SIGHUP],
                         ids=["SIGTERM", "SIGINT", "SIGHUP"])
async def test_a_signal_under_load_stops_the_bot_cleanly_and_loses_no_move(
    sig: signal.Signals, tmp_path: Path
) -> None:
    stopped = await stop_under_load(sig, tmp_path, moves=5)
    assert stopped.code == 0, f"{sig.name} stops the bot cleanly:\n{stopped.log}"
    assert "Traceback" not in stopped.log
    for name in PLAYERS:
        answered = stopped.acknowledged[name]
        assert stopped.saved[name] in (answered, answered + 1), (name, stopped.saved, answered)

