"""What the bot keeps in memory per player stays within its bounds, however many players
come: least-recently-used memories of a set size (their sizes are in the modules that
keep them; how the memory grows is measured by ``tests.e2e.bench_memory``, not here)."""

from __future__ import annotations

import random
from concurrent.futures import ThreadPoolExecutor

import pytest

import bot.flows.settings
import bot.flows.verdicts
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
    monkeypatch.setattr(bot.flows.verdicts, "REMEMBERED", 4)
    solver = SolverWorker(ThreadPoolExecutor(max_workers=1))
    flow = Core(store, renderer=picture, clock=clock, deals=random.Random(1), solver=solver)
    try:
        for n in range(12):
            player = Player(user_id=5_000 + n, guild_id=900)
            reply = await flow.game.new_game(player, "trefoil", n + 1)
            assert reply.board is not None
            await flow.game.act(player, Action.HINT)
            assert await flow.verdicts.verdict(reply.board) is None  # a verdict is remembered
        service = flow.verdicts
        kept = {
            "settings": len(flow.settings._kept),
            "latest boards": len(service._latest),
            "checked boards": len(service._checked),
        }
        expected = dict.fromkeys(kept, 4)
        if not store.settings.changes_told:  # SQLite: a change may go untold, none is kept
            expected["settings"] = 0
        assert kept == expected, kept
    finally:
        await flow.close()


