"""Statistics computed by the database equal those ``records`` and ``daily`` compute from every row,
on both backends, for random histories; and reading them never waits for a write."""

from __future__ import annotations

import asyncio
import contextlib
import sqlite3
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.store import OUTCOMES, Scope, Standing, Stores
from bot.store import postgres as postgres_backend
from bot.store import sqlite as sqlite_backend
from tests.bot.reference import Result, all_results, daily_board, leaderboard, record, won_days

GAME_IDS = ("trefoil", "clover-leaf")
DAYS = ("2026-11-20", "2026-11-21", "2026-11-23")
PLACES: tuple[dict[str, Any], ...] = (
    {}, {"guild_id": 10}, {"guild_id": 20}, {"outside_servers": True}
)

rows = st.lists(
    st.tuples(
        st.integers(1, 3),  # user
        st.sampled_from([None, 10, 20]),  # server
        st.sampled_from(GAME_IDS),
        st.sampled_from(OUTCOMES),
        st.sampled_from([0, 0, 1]),  # hints
        st.integers(1, 4),  # moves
        st.sampled_from([10.0, 12.5, 30.0]),  # seconds
        st.integers(0, 6).map(lambda t: 1000.0 + t),  # finished at: ties happen
        st.sampled_from([None, *DAYS]),  # daily day
    ),
    max_size=30,
)


async def insert_results(store: Stores, history: list[tuple[Any, ...]]) -> None:
    """The rows as the results table would hold them, oldest insert first."""
    async with store.db.transaction() as conn:
        await conn.execute("DELETE FROM results")
        for n, (user, guild, game, outcome, hints, moves, seconds, at, day) in enumerate(
            history
        ):
            await conn.execute(
                "INSERT INTO results (game_row, user_id, guild_id, game, deal, outcome, moves, "
                "undos, hints, redeals_used, seconds_played, finished_at, daily) "
                "VALUES ($1, $2, $3, $4, 1, $5, $6, 0, $7, 0, $8, $9, $10)",
                n + 1, user, guild, game, outcome, moves, hints, seconds, at, day,
            )


def standings(results: list[Result], top: int, viewer: int | None) -> list[Standing]:
    """What the store's leaderboard returns: the first ``top`` places and the viewer's."""
    return [s for s in leaderboard(results) if s.rank <= top or s.user_id == viewer]


async def check_everything(store: Stores) -> None:
    for place in PLACES:
        for game, since in ((None, None), ("trefoil", 1003.0)):
            every = await all_results(store, game=game, since=since, **place)
            for top, viewer in ((10, None), (1, 3), (2, 1), (0, 2)):
                got = await store.results.leaderboard(
                    Scope(game=game, since=since, **place), top=top, viewer=viewer
                )
                assert got == standings(every, top, viewer), "same places, same scores"
            for user in (1, 2, 3):
                mine = [r for r in every if r.user_id == user]
                got = await store.results.records(
                    Scope(user_id=user, game=game, since=since, **place)
                )
                assert got.total == record(mine)
                assert got.per_game == {
                    g: record(r for r in mine if r.game_id == g)
                    for g in sorted({r.game_id for r in mine})
                }
        for user in (1, 2, 3):
            mine = await all_results(store, user_id=user, **place)
            assert await store.results.won_daily_days(Scope(user_id=user, **place)) == (
                won_days(mine)
            )
        for day in DAYS:
            for game in GAME_IDS:
                scored = await all_results(store, daily=day, game=game, **place)
                expected = daily_board(scored)
                scope = Scope(game=game, daily=day, **place)
                board = await store.results.daily_ranking(scope)
                assert board.entries == expected
                assert (board.finished, board.won, board.won_unaided) == (
                    len(scored), sum(r.won for r in scored), len(expected)
                )
                assert (await store.results.daily_ranking(scope, limit=2)).entries == (
                    expected[:2]
                )


def test_statistics_from_sql_equal_those_from_every_row(store_target: Path | str) -> None:
    # One loop and one store for every example: each example replaces the results.
    loop = asyncio.new_event_loop()
    store = loop.run_until_complete(Stores.open(store_target))

    @settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
    @given(history=rows)
    def check(history: list[tuple[Any, ...]]) -> None:
        loop.run_until_complete(insert_results(store, history))
        loop.run_until_complete(check_everything(store))

    try:
        check()
    finally:
        loop.run_until_complete(store.close())
        loop.close()


@pytest.fixture
def store(any_store: Stores) -> Stores:
    return any_store


async def test_streaks_follow_finish_order_and_an_assisted_win_breaks_one(
    store: Stores,
) -> None:
    # user 1 in server 10, in finish order (inserted out of order):
    #   won, won, won with a hint, won, lost, won
    history = [
        (1, 10, "trefoil", "won", 0, 40, 90.0, 1001.0, None),
        (1, 10, "trefoil", "lost", 0, 12, 50.0, 1005.0, None),
        (1, 10, "trefoil", "won", 0, 35, 80.0, 1002.0, None),
        (1, 10, "trefoil", "won", 1, 20, 30.0, 1003.0, None),
        (1, 10, "trefoil", "won", 0, 38, 70.0, 1004.0, None),
        (1, 10, "trefoil", "won", 0, 44, 99.0, 1006.0, None),
    ]
    await insert_results(store, history)
    rec = (await store.results.records(Scope(user_id=1, guild_id=10))).total
    assert (rec.played, rec.won, rec.assisted) == (6, 5 - 1, 1)
    assert (rec.current_streak, rec.best_streak) == (1, 2)
    assert (rec.fewest_moves, rec.fastest_seconds) == (35, 70.0), "the assisted win's 20 moves don't count"
    assert await store.results.records(Scope(user_id=2)) == await store.results.records(Scope(user_id=1, guild_id=20))


async def test_a_statistics_read_proceeds_while_a_write_transaction_is_open(
    store: Stores,
) -> None:
    await insert_results(store, [(1, 10, "trefoil", "won", 0, 40, 90.0, 1001.0, "2026-11-20")])
    async with store.db.transaction() as conn:
        await conn.execute(
            "INSERT INTO results (game_row, user_id, guild_id, game, deal, outcome, moves, "
            "undos, hints, redeals_used, seconds_played, finished_at) "
            "VALUES (99, 2, 10, 'trefoil', 1, 'won', 5, 0, 0, 0, 1.0, 1002.0)"
        )
        # The writer is busy (and on SQLite holds the store's write lock) until this block
        # ends: a read that waited for it would never finish, so the guard fails the test.
        reads = asyncio.gather(
            store.results.leaderboard(Scope(guild_id=10), top=10),
            store.results.records(Scope(user_id=1)),
            store.results.daily_ranking(Scope(game="trefoil", daily="2026-11-20", guild_id=10)),
            store.results.won_daily_days(Scope(user_id=1)),
            all_results(store, guild_id=10),
        )
        board, records, daily, days, results = await asyncio.wait_for(reads, timeout=60)
    assert [(s.user_id, s.played, s.won) for s in board] == [(1, 1, 1)], (
        "the uncommitted row is not seen"
    )
    assert records.total.won == 1 and len(daily.entries) == 1 and len(days) == 1
    assert len(results) == 1
    assert len(await store.results.leaderboard(Scope(guild_id=10), top=10)) == 2


async def test_a_sqlite_read_proceeds_while_another_process_is_writing(db_path: Path) -> None:
    store = await Stores.open(db_path)
    try:
        await insert_results(store, [(1, 10, "trefoil", "won", 0, 40, 90.0, 1001.0, None)])
        other = sqlite3.connect(db_path, isolation_level=None)  # another bot process
        other.execute("BEGIN IMMEDIATE")  # holds the file's write lock until it ends
        other.execute(
            "INSERT INTO results (game_row, user_id, guild_id, game, deal, outcome, moves, "
            "undos, hints, redeals_used, seconds_played, finished_at) "
            "VALUES (99, 2, 10, 'trefoil', 1, 'won', 5, 0, 0, 0, 1.0, 1002.0)"
        )
        try:
            assert [s.user_id for s in await store.results.leaderboard(Scope(guild_id=10), top=10)] == [1]
            assert (await store.results.records(Scope(user_id=1))).total.won == 1
        finally:
            other.execute("COMMIT")
            other.close()
        assert len(await store.results.leaderboard(Scope(guild_id=10), top=10)) == 2
    finally:
        await store.close()


async def test_a_sqlite_without_math_functions_ranks_with_pythons_square_root(
    db_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The probe fails as it would where SQLite was built without its math functions.
    monkeypatch.setattr(sqlite_backend, "MATH_PROBE", "SELECT no_such_function(4.0)")
    store = await Stores.open(db_path)
    try:
        await insert_results(store, [
            (user, 10, "trefoil", outcome, 0, 40, 90.0, 1000.0 + n, None)
            for n, (user, outcome) in enumerate(
                [(1, "won"), (1, "lost"), (2, "won"), (2, "won"), (3, "lost"), (3, "won")]
            )
        ])
        every = await all_results(store, guild_id=10)
        assert await store.results.leaderboard(Scope(guild_id=10), top=2, viewer=3) == standings(every, 2, 3)
    finally:
        await store.close()


async def test_a_postgresql_read_proceeds_while_every_writers_connection_is_taken(
    pg_url: str,
) -> None:
    store = await Stores.open(pg_url)
    try:
        await insert_results(store, [(1, 10, "trefoil", "won", 0, 40, 90.0, 1001.0, None)])
        async with contextlib.AsyncExitStack() as held:
            for _ in range(postgres_backend.WRITERS):  # moves, or a flood of them
                await held.enter_async_context(store.db.writer())
            reads = asyncio.gather(store.results.leaderboard(Scope(guild_id=10), top=10), store.results.records(Scope(user_id=1)))
            board, records = await asyncio.wait_for(reads, timeout=10)
        assert [s.user_id for s in board] == [1] and records.total.won == 1
    finally:
        await store.close()
