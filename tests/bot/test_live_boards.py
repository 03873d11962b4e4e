"""Live boards in memory, written behind: the database is read once per player and channel,
written in batches (what was pushed out of memory before its write included); forgetting
a player is final. (That the boards reach the next start: test_store_facts.py.)"""

from __future__ import annotations

import asyncio
from collections.abc import Mapping
from pathlib import Path

import pytest

from bot.store import Stores
from bot.store.boards import Key, LiveBoards
from engine import new_game


class FakeTable:
    """The database side of LiveBoards: counts reads and writes; can be made to fail."""

    def __init__(self, rows: dict[Key, int] | None = None) -> None:
        self.rows = dict(rows or {})
        self.reads = 0
        self.writes: list[dict[Key, int]] = []
        self.failing = False
        self.slow = asyncio.Event()  # cleared: reads wait
        self.slow.set()
        self.held = asyncio.Event()  # cleared: writes wait
        self.held.set()

    async def read(self, user_id: int, channel_id: int) -> int | None:
        self.reads += 1
        await self.slow.wait()
        return self.rows.get((user_id, channel_id))

    async def write(self, changes: Mapping[Key, int]) -> None:
        await self.held.wait()
        if self.failing:
            raise OSError("disk full")
        self.writes.append(dict(changes))
        self.rows.update(changes)


async def test_the_database_is_read_once_and_written_in_one_batch() -> None:
    table = FakeTable({(1, 500): 6999})
    boards = LiveBoards(table.read, table.write, write_after_s=0.05)
    assert await boards.swap(1, 500, 7001) == 6999, "the board from before the start"
    assert await boards.swap(1, 500, 7002) == 7001
    assert await boards.swap(1, 500, 7002) is None, "the same board again"
    assert await boards.swap(2, 500, 9001) is None
    assert table.reads == 2, "one read per player and channel, none after"
    assert table.writes == [] and boards.unwritten == 2
    await asyncio.sleep(0.2)
    assert table.writes == [{(1, 500): 7002, (2, 500): 9001}]
    assert boards.unwritten == 0
    await boards.close()


async def test_two_first_boards_at_once_each_get_a_different_previous_one() -> None:
    table = FakeTable({(1, 500): 6999})
    table.slow.clear()  # both swaps wait for the database's answer
    boards = LiveBoards(table.read, table.write, write_after_s=60)
    first = asyncio.ensure_future(boards.swap(1, 500, 7001))
    second = asyncio.ensure_future(boards.swap(1, 500, 7002))
    await asyncio.sleep(0)
    table.slow.set()
    assert sorted([await first, await second], key=str) == [6999, 7001]
    await boards.close()
    assert table.rows[(1, 500)] == 7002


async def test_a_failed_write_is_tried_again_with_what_came_since() -> None:
    table = FakeTable()
    table.failing = True
    boards = LiveBoards(table.read, table.write, write_after_s=0.05)
    await boards.swap(1, 500, 7001)
    await asyncio.sleep(0.12)
    assert table.writes == [] and boards.unwritten == 1, "kept after the failure"
    table.failing = False
    await boards.swap(1, 500, 7002)
    await boards.swap(2, 500, 9001)
    await asyncio.sleep(0.15)
    assert table.rows == {(1, 500): 7002, (2, 500): 9001}
    await boards.close()


async def test_memory_is_bounded_and_a_forgotten_pair_is_read_again() -> None:
    table = FakeTable()
    boards = LiveBoards(table.read, table.write, write_after_s=0.01, remembered=2)
    await boards.swap(1, 500, 7001)
    await boards.swap(2, 500, 8001)
    await boards.swap(3, 500, 9001)  # pushes player 1 out of memory
    await asyncio.sleep(0.05)
    assert await boards.swap(1, 500, 7002) == 7001, "read back from the database"
    assert table.reads == 4
    await boards.close()


async def test_a_pair_pushed_out_before_its_write_keeps_its_newest_board() -> None:
    table = FakeTable({(1, 500): 7000})
    boards = LiveBoards(table.read, table.write, write_after_s=60, remembered=1)
    assert await boards.swap(1, 500, 7001) == 7000
    await boards.swap(2, 500, 8001)  # pushes player 1 out of memory, nothing written yet
    assert await boards.swap(1, 500, 7002) == 7001, "not the database's older board"
    await boards.swap(2, 500, 8002)
    table.held.clear()
    writing = asyncio.ensure_future(boards.write_now())
    await asyncio.sleep(0)  # the write under way holds both players' boards
    assert await boards.swap(1, 500, 7003) == 7002, "the board of the write under way"
    table.held.set()
    await writing
    await boards.close()
    assert table.rows == {(1, 500): 7003, (2, 500): 8002}


async def test_a_forgotten_player_stays_forgotten_with_a_write_under_way(db_path: Path) -> None:
    store = await Stores.open(db_path)
    boards = store.boards.live
    written = boards._write
    release = asyncio.Event()

    async def held_write(changes: Mapping[Key, int]) -> None:
        await release.wait()
        await written(changes)

    boards._write = held_write
    try:
        for user in (1, 2):  # only a player with a game has a board written
            await store.games.start(user, None, new_game("trefoil", 1), 1.0)
        await store.boards.swap(1, 500, 7001)
        await store.boards.swap(2, 500, 8001)
        writing = asyncio.ensure_future(boards.write_now())
        await asyncio.sleep(0.01)  # the write holds both players' boards now
        forgetting = asyncio.ensure_future(store.forget_player(1, today="2026-11-01"))
        await asyncio.sleep(0.05)
        assert not forgetting.done(), "forgetting waits for the write under way"
        release.set()
        await writing
        await forgetting
    finally:
        await store.close()
    again = await Stores.open(db_path)
    try:
        assert await again.boards.swap(1, 500, 7002) is None, "nothing of player 1"
        assert await again.boards.swap(2, 500, 8002) == 8001
    finally:
        await again.close()


async def test_swaps_waiting_through_an_outage_are_bounded_and_the_drop_is_told(
    caplog: pytest.LogCaptureFixture,
) -> None:
    table = FakeTable()
    table.failing = True  # the database cannot be written
    boards = LiveBoards(table.read, table.write, write_after_s=60, unwritten=3)
    for user in range(1, 6):
        await boards.swap(user, 500, 7000 + user)
    assert boards.unwritten == 3, "the two oldest swaps were dropped"
    assert "the oldest are dropped" in caplog.text
    table.failing = False
    await boards.write_now()
    assert table.writes == [{(3, 500): 7003, (4, 500): 7004, (5, 500): 7005}]
    assert "2 were dropped meanwhile" in caplog.text
    await boards.close()
