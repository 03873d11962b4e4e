"""The store's side of statistics: daily attempts, filtered results, forgetting a player and
resetting a server — each against a real SQLite file and a real PostgreSQL database."""

from __future__ import annotations

import sqlite3
from datetime import UTC, date, datetime
from pathlib import Path

import pytest

from bot.core import Core
from bot.store import WON, SavedGame, Stores
from bot.store.sqlite import MIGRATIONS, SCHEMA_VERSION
from engine import new_game
from tests.bot.reference import all_results

from .conftest import Clock


@pytest.fixture
def store(any_store: Stores) -> Stores:
    return any_store

DAY = "2026-11-22"


async def finish(store: Stores, saved: SavedGame, outcome: str = WON, at: float = 2000.0) -> None:
    saved.status, saved.finished_at = outcome, at
    await store.games.save(saved)


async def played(
    store: Stores, user: int, guild: int | None, game: str = "trefoil", deal: int = 1,
    at: float = 2000.0, daily: str | None = None,
) -> SavedGame:
    """A game started (over the player's current one) and won at ``at``."""
    saved = await store.games.start(
        user, guild, new_game(game, deal), at - 50, replacing=await store.games.load(user), daily=daily
    )
    await finish(store, saved, at=at)
    return saved


async def test_the_first_start_of_a_daily_deal_is_scored_and_later_ones_are_replays(
    store: Stores,
) -> None:
    first = await store.games.start(1, 10, new_game("trefoil", 5), 1000.0, daily=DAY)
    assert first.daily == DAY
    await finish(store, first, at=1050.0)
    again = await store.games.start(1, 10, new_game("trefoil", 5), 1100.0, replacing=first, daily=DAY)
    assert again.daily is None, "a second start that day is a replay"
    await finish(store, again, at=1200.0)
    other_game = await store.games.start(1, 10, new_game("clover-leaf", 6), 1300.0, replacing=again,
                                   daily=DAY)
    assert other_game.daily == DAY, "each game has its own daily deal"
    await finish(store, other_game, at=1400.0)
    tomorrow = await store.games.start(1, 10, new_game("trefoil", 7), 1500.0, replacing=other_game,
                                 daily="2026-11-23")
    assert tomorrow.daily == "2026-11-23"
    somebody_else = await store.games.start(2, 10, new_game("trefoil", 5), 1000.0, daily=DAY)
    assert somebody_else.daily == DAY
    scored = await all_results(store, user_id=1, daily=DAY)
    assert [(r.game_id, r.daily) for r in scored] == [
        ("trefoil", date(2026, 11, 22)), ("clover-leaf", date(2026, 11, 22))
    ]


async def test_an_abandoned_scored_attempt_still_uses_the_day_up(store: Stores) -> None:
    first = await store.games.start(1, 10, new_game("trefoil", 5), 1000.0, daily=DAY)
    again = await store.games.start(1, 10, new_game("trefoil", 5), 1100.0, replacing=first, daily=DAY)
    assert again.daily is None
    [r] = await all_results(store, user_id=1)
    assert (r.outcome, r.daily) == ("abandoned", date(2026, 11, 22))


async def test_results_filter_by_game_time_day_and_place(store: Stores) -> None:
    rows = [  # user, guild, game, finished at, daily day
        (1, 10, "trefoil", 100.0, DAY),
        (2, 10, "clover-leaf", 200.0, None),
        (3, 20, "trefoil", 300.0, None),
        (4, None, "trefoil", 400.0, None),
    ]
    for user, guild, game, at, day in rows:
        saved = await store.games.start(user, guild, new_game(game, 1), at - 50, daily=day)
        await finish(store, saved, at=at)

    async def users(**filters: object) -> list[int]:
        return [r.user_id for r in await all_results(store, **filters)]  # type: ignore[arg-type]

    assert await users() == [1, 2, 3, 4]
    assert await users(guild_id=10) == [1, 2]
    assert await users(game="trefoil") == [1, 3, 4]
    assert await users(since=200.0) == [2, 3, 4]
    assert await users(daily=DAY) == [1]
    assert await users(outside_servers=True) == [4]
    assert await users(guild_id=10, game="trefoil", since=50.0) == [1]


async def test_forgetting_a_player_deletes_their_game_results_and_attempts_only(
    store: Stores,
) -> None:
    for user in (1, 2):
        await played(store, user, 10, "trefoil", daily=DAY)
        await played(store, user, 20, "clover-leaf", daily=DAY)
    await store.games.start(1, 10, new_game("trefoil", 3), 5000.0, replacing=await store.games.load(1))
    assert (await store.forget_player(1, today=DAY))[:2] == (1, 2)
    assert await store.games.load(1) is None
    assert {r.user_id for r in await all_results(store)} == {2}
    assert len(await all_results(store, user_id=2)) == 2
    assert await store.games.load(2) is not None
    again = await store.games.start(1, 10, new_game("trefoil", 1), 9.0, daily=DAY)
    assert again.daily is None, "the day's attempt stays to its end: no second scored try"
    assert (await store.forget_player(1, today="2099-01-01"))[:2] == (1, 0)
    fresh = await store.games.start(1, 10, new_game("trefoil", 1), 9.0, daily=DAY)
    assert fresh.daily == DAY, "once that day is over, the attempt is forgotten too"
    assert (await store.forget_player(99, today=DAY))[:2] == (0, 0)


async def test_resetting_a_server_deletes_its_results_only(store: Stores) -> None:
    for user, guild in ((1, 10), (2, 10), (1, 20), (3, None)):
        await played(store, user, guild)
    playing = await store.games.start(4, 10, new_game("trefoil", 2), 3.0)
    assert await store.results.count(10) == 2
    assert await store.results.reset_guild(10) == 2
    assert await store.results.count(10) == 0
    assert {(r.user_id, r.guild_id) for r in await all_results(store)} == {(1, 20), (3, None)}
    assert await store.games.load(4) is not None, "a game being played there is kept"
    await finish(store, playing, at=4000.0)
    assert [r.user_id for r in await all_results(store, guild_id=10)] == [4]


async def test_a_reset_hands_out_no_second_daily_attempt(store: Stores) -> None:
    saved = await store.games.start(1, 10, new_game("trefoil", 5), 1.0, daily=DAY)
    await finish(store, saved)
    await store.results.reset_guild(10)
    again = await store.games.start(1, 10, new_game("trefoil", 5), 9.0, replacing=saved, daily=DAY)
    assert again.daily is None


async def test_a_version_2_file_learns_its_daily_attempts(tmp_path: Path) -> None:
    path = tmp_path / "v2.db"
    con = sqlite3.connect(path)
    con.executescript(MIGRATIONS[0] + MIGRATIONS[1] + "PRAGMA user_version = 2;")
    con.execute(
        "INSERT INTO results (game_row, user_id, guild_id, game, deal, outcome, moves, undos, "
        "hints, redeals_used, seconds_played, finished_at, daily) "
        "VALUES (1, 7, 10, 'trefoil', 5, 'lost', 3, 0, 0, 0, 30.0, 100.0, ?)",
        (DAY,),
    )
    con.commit()
    con.close()
    store = await Stores.open(path)
    try:
        assert await store.meta.schema_version() == SCHEMA_VERSION >= 3
        again = await store.games.start(7, 10, new_game("trefoil", 5), 200.0, daily=DAY)
        assert again.daily is None, "the attempt made before the upgrade counts"
    finally:
        await store.close()


async def test_daily_attempts_are_forgotten_once_their_day_has_ended(any_store: Stores) -> None:
    """What /forget-me promises: today's attempt stays to the day's end, then goes (the
    leader's prune, on both backends); an attempt only counts on its own day."""
    for user in (1, 2):
        await any_store.games.start(user, 10, new_game("trefoil", 1), 9.0, daily=DAY)
    await any_store.forget_player(1, today=DAY)
    assert await any_store.results.has_daily_attempt(1, "trefoil", DAY), "kept to its end"
    assert await any_store.forget_past_daily_attempts(DAY) == 0, "the day is not over"
    assert await any_store.forget_past_daily_attempts("2026-11-23") == 2
    for user in (1, 2):
        assert not await any_store.results.has_daily_attempt(user, "trefoil", DAY)


async def test_the_leader_forgets_past_attempts_just_after_midnight(
    core: Core, clock: Clock
) -> None:
    from bot.lead.duties import PRUNE_EVERY_S, prune_wait

    clock.now = datetime(2026, 11, 22, 23, 59, 30, tzinfo=UTC).timestamp()
    assert prune_wait(clock.now) == 31.0, "the first prune of a day comes just after midnight"
    assert prune_wait(clock.now - 3600) == PRUNE_EVERY_S
    await core.stores.games.start(1, 10, new_game("trefoil", 1), clock.now, daily=DAY)
    assert await core.data_rights.forget_past_days() == 0, "the day is not over"
    clock.advance(prune_wait(clock.now))
    assert await core.data_rights.forget_past_days() == 1
    assert not await core.stores.results.has_daily_attempt(1, "trefoil", DAY)
