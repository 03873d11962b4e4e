"""SQLite's lone statements run on the event loop: no trip through aiosqlite's thread, no
waiting for another process's lock there (the thread waits instead), and the WAL
checkpointed in the thread every CHECKPOINT_EVERY writes."""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import aiosqlite
import pytest

from bot.store import Stores
from engine import new_game


@pytest.fixture
async def store(db_path: Path) -> AsyncIterator[Stores]:
    opened = await Stores.open(db_path)
    await opened.games.start(1, 10, new_game("trefoil", 9), 1.0)
    yield opened
    await opened.close()


class Trips:
    """Every statement that goes through aiosqlite's thread, as its SQL."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.sql: list[str] = []
        real = aiosqlite.Connection.execute_fetchall

        async def recorded(conn: aiosqlite.Connection, sql: str, *args: Any) -> Any:
            self.sql.append(sql)
            return await real(conn, sql, *args)

        monkeypatch.setattr(aiosqlite.Connection, "execute_fetchall", recorded)


async def play_one(store: Stores) -> None:
    saved = await store.games.load(1)
    assert saved is not None
    saved.game.play(saved.game.legal_moves()[0])
    await store.games.save(saved)


async def test_a_moves_save_makes_no_trip_to_the_thread(
    store: Stores, monkeypatch: pytest.MonkeyPatch
) -> None:
    trips = Trips(monkeypatch)
    await play_one(store)
    assert trips.sql == []
    saved = await store.games.load(1)
    assert saved is not None and saved.revision == 1 and saved.game.moves_made == 1


async def test_a_save_meeting_another_process_waits_in_the_thread_not_on_the_loop(
    store: Stores, db_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    trips = Trips(monkeypatch)
    other = sqlite3.connect(db_path, isolation_level=None)
    other.execute("BEGIN IMMEDIATE")  # another process writing
    save = asyncio.create_task(play_one(store))
    ticks = 0
    for _ in range(10):  # the loop runs on while the save waits
        await asyncio.sleep(0.02)
        ticks += 1
    assert ticks == 10 and not save.done()
    assert [sql.split()[0] for sql in trips.sql] == ["UPDATE"], "the thread waits for it"
    other.execute("ROLLBACK")
    other.close()
    await asyncio.wait_for(save, 5)
    saved = await store.games.load(1)
    assert saved is not None and saved.revision == 1


async def test_the_wal_is_checkpointed_in_the_thread_every_so_many_writes(
    store: Stores, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("bot.store.sqlite.CHECKPOINT_EVERY", 5)
    trips = Trips(monkeypatch)

    async def checkpoints_after(writes: int) -> int:
        for _ in range(writes):
            await play_one(store)
        for _ in range(50):  # a checkpoint runs in the background
            await asyncio.sleep(0.01)
        return trips.sql.count("PRAGMA wal_checkpoint(PASSIVE)")

    assert await checkpoints_after(4) == 0
    assert await checkpoints_after(1) == 1
    assert await checkpoints_after(4) == 1
    assert await checkpoints_after(1) == 2
    assert set(trips.sql) == {"PRAGMA wal_checkpoint(PASSIVE)"}, "the moves stay on the loop"


async def test_a_checkpoint_waits_for_a_transaction_under_way_rather_than_fail_in_it(
    store: Stores, caplog: pytest.LogCaptureFixture
) -> None:
    """The writer's connection holds the transactions too: a checkpoint sent while one is
    open fails ("database table is locked"), so it waits for the transaction to end."""
    db: Any = store.db
    async with db.transaction() as conn:
        await conn.execute("UPDATE games SET updated_at = updated_at + 1 WHERE user_id = 1")
        checkpoint = asyncio.create_task(db._checkpointed())
        await asyncio.sleep(0.05)
        assert not checkpoint.done(), "it waits for the transaction"
    await checkpoint
    assert [r for r in caplog.records if "checkpoint" in r.getMessage()] == []


async def test_a_reopen_due_while_a_checkpoint_waits_for_the_lock_does_not_hang(
    store: Stores, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A write failed on the file (a reopen is due) with a checkpoint queued behind the
    lock: the next transaction reopens the writer and the checkpoint runs after it, on the
    new connection, rather than each waiting for the other."""
    monkeypatch.setattr("bot.store.sqlite.REOPEN_S", 0.0)
    db: Any = store.db
    db._reopen_at = 0.0  # as a failed write leaves it
    async with asyncio.timeout(10):
        # Queued, not yet waiting: the transaction takes the lock first (a write on the
        # loop queues a checkpoint so, and may be the one that failed).
        checkpoint = db._checkpoint = asyncio.create_task(db._checkpointed())
        async with db.transaction() as conn:
            await conn.execute("UPDATE games SET updated_at = updated_at + 1 WHERE user_id = 1")
        await checkpoint
        await play_one(store)
