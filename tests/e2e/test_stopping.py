"""Stopping cleanly under load: SIGTERM (``docker stop``), SIGINT (Ctrl-C) and SIGHUP (the
terminal closed) each stop a bot process that players are moving in: it exits 0, and
every move it acknowledged is in the database (at most the one on its way when the
signal came is there without its answer having arrived); what it had begun is answered,
and what comes while it closes is refused, saying so, with nothing done."""

from __future__ import annotations

import asyncio
import contextlib
import signal
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


@pytest.mark.problems_expected  # the moves sent after it stopped go unanswered
@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT, signal.SIGHUP],
                         ids=["SIGTERM", "SIGINT", "SIGHUP"])
async def test_a_signal_under_load_stops_the_bot_cleanly_and_loses_no_move(
    sig: signal.Signals, tmp_path: Path
) -> None:
    fake = await FakeDiscord().start()
    database = tmp_path / "solitaire.db"
    bot = BotProcess(fake, database, tmp_path)
    stopping = asyncio.Event()
    acknowledged: dict[str, int] = {}
    try:
        await bot.start()
        for name in PLAYERS:
            await fake.command(name, "new", {"game": "trefoil", "deal": 5})
        players = [asyncio.create_task(keep_moving(fake, name, stopping, acknowledged))
                   for name in PLAYERS]
        while len(acknowledged) < len(PLAYERS) or min(acknowledged.values()) < 5:
            await asyncio.sleep(0.05)
            assert not any(p.done() and p.exception() for p in players)
        stopping.set()
        code = await bot.stop(sig=sig)
        await asyncio.gather(*players)
    finally:
        with contextlib.suppress(Exception):
            await bot.stop()
        await fake.close()
    assert code == 0, f"{sig.name} stops the bot cleanly:\n{bot.log()}"
    assert "Traceback" not in bot.log()
    stores = await Stores.open(database)
    try:
        for name in PLAYERS:
            saved = await stores.games.load(fake.users[name].id)
            assert saved is not None
            assert saved.revision in (acknowledged[name], acknowledged[name] + 1), (
                name, saved.revision, acknowledged[name])
    finally:
        await stores.close()
