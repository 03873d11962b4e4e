"""What the bot keeps in memory per player stays within its bounds, however many players
come: least-recently-used memories of a set size (their sizes are in the modules that
keep them; how the memory grows is measured by ``tests.e2e.bench_memory``, not here)."""

from __future__ import annotations

import asyncio
import random
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest

import bot.flows.settings
import bot.flows.solver
from bot.core import Core
from bot.replies import Action, Player
from bot.store import Stores
from bot.workers.solver import SolverWorker
from engine.lru import LRU

from .conftest import Clock, PositionPicture


def test_an_lru_forgets_the_least_recently_used_first() -> None:
    kept: LRU[int, str] = LRU(3)
    for n in range(3):
        kept[n] = str(n)
    assert kept.get(0) == "0"  # 0 is now the most recent
    kept[3] = "3"
    assert len(kept) == 3 and 1 not in kept, "1 was the least recently used"
    assert [n in kept for n in (0, 2, 3)] == [True, True, True]
    with pytest.raises(ValueError):
        LRU(0)


async def test_what_the_flow_remembers_per_player_stays_within_its_bounds(
    store: Stores, clock: Clock, picture: PositionPicture, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(bot.flows.settings, "KEPT", 4)
    monkeypatch.setattr(bot.flows.solver, "REMEMBERED", 4)
    solver = SolverWorker(ThreadPoolExecutor(max_workers=1))
    flow = Core(store, renderer=picture, clock=clock, deals=random.Random(1), solver=solver)
    try:
        for n in range(12):
            player = Player(user_id=5_000 + n, guild_id=900)
            reply = await flow.new_game(player, "trefoil", n + 1)
            assert reply.board is not None
            await flow.act(player, Action.HINT)
            assert await flow.solver.verdict(reply.board) is None  # a verdict is remembered
        service = flow.solver
        kept = {
            "settings": len(flow.settings._kept),
            "latest boards": len(service._latest),
            "checked boards": len(service._checked),
        }
        assert kept == dict.fromkeys(kept, 4), kept
    finally:
        await flow.close()


async def test_earlier_boards_wait_to_be_collapsed_in_a_bounded_queue_per_channel(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from bot.discord import send

    edits: list[tuple[int, int]] = []  # (channel, message) collapsed, in order
    release = {7: asyncio.Event(), 8: asyncio.Event()}

    class Http:
        async def request(self, route: Any, json: dict[str, Any]) -> None:
            channel, message = route.channel_id, int(route.url.rsplit("/", 1)[1])
            assert json == {"content": send.COLLAPSED, "attachments": [], "components": []}
            await release[channel].wait()  # Discord's per-channel limit, held here
            edits.append((channel, message))

    class Client:
        http = Http()

        def is_closed(self) -> bool:
            return False

    class Core:
        async def board_posted(self, owner: int, channel: int, posted: int) -> int:
            return posted - 1  # the board this one replaces

    class Interaction:
        client = Client()

        def __init__(self, channel_id: int) -> None:
            self.channel_id = channel_id

    monkeypatch.setattr(send, "core_of", lambda interaction: Core())
    monkeypatch.setattr(send, "_bot_is_in", lambda interaction: True)
    board: Any = type("Board", (), {"owner_id": 5})()
    collapsing = asyncio.create_task(send.collapse_earlier(Interaction(7), board, 101))
    await asyncio.sleep(0)
    assert list(send._waiting) == [7]
    extra = 5
    for posted in range(102, 102 + send.TIDY_LIMIT + extra):  # each answer adds its board
        await asyncio.wait_for(send.collapse_earlier(Interaction(7), board, posted), 1)
    assert len(send._waiting[7]) == send.TIDY_LIMIT  # bounded: the oldest were left
    other = asyncio.create_task(send.collapse_earlier(Interaction(8), board, 9))
    release[8].set()
    await asyncio.wait_for(other, 1)  # a channel is not held up by another's queue
    assert edits == [(8, 8)]
    release[7].set()
    await asyncio.wait_for(collapsing, 1)
    newest = list(range(101 + extra, 101 + extra + send.TIDY_LIMIT))
    assert edits[1:] == [(7, m) for m in [100, *newest]], "in order, the oldest waiting left"
    assert send._waiting == {}


