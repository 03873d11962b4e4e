"""The store against real databases: SQLite files (fresh, migrated from version 1) and
PostgreSQL, and its transactions. Tests taking ``store`` run once on each backend."""

from __future__ import annotations

import asyncio
import contextlib
import json
import sqlite3
from datetime import date
from pathlib import Path

import asyncpg
import pytest

from bot.store import (
    ABANDONED,
    PLAYING,
    RESIGNED,
    WON,
    ConcurrentChange,
    GameStatus,
    StoreError,
    Stores,
)
from bot.store.sqlite import MIGRATIONS, SCHEMA_VERSION, WRITER_CACHE_KB
from engine import new_game
from tests.bot.reference import all_results
from tests.bot.store_support import run_sql


@pytest.fixture
def store(any_store: Stores) -> Stores:
    return any_store


# The schema as version 1 of the bot wrote it, kept verbatim: a file of that age must open.
SCHEMA_V1 = """
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE games (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    user_id INTEGER NOT NULL UNIQUE,
    guild_id INTEGER,
    game TEXT NOT NULL,
    deal INTEGER NOT NULL,
    state TEXT NOT NULL,
    status TEXT NOT NULL DEFAULT 'playing',
    revision INTEGER NOT NULL DEFAULT 0,
    started_at REAL NOT NULL,
    updated_at REAL NOT NULL
);
PRAGMA user_version = 1;
"""


def write_version_1_file(path: Path) -> dict[str, object]:
    game = new_game("trefoil", 42)
    for move in ("7 f1", "8 f2"):
        try:
            game.play(move)
        except ValueError:
            game.play(game.legal_moves()[0])
    state = game.to_dict()
    con = sqlite3.connect(path)
    con.executescript(SCHEMA_V1)
    con.execute(
        "INSERT INTO games (user_id, guild_id, game, deal, state, status, revision, "
        "started_at, updated_at) VALUES (7, 900, 'trefoil', 42, ?, 'playing', 2, 100.0, 160.0)",
        (json.dumps(state),),
    )
    con.execute("INSERT INTO meta VALUES ('commands_hash:global', 'abc')")
    con.commit()
    con.close()
    return state


async def test_a_fresh_file_gets_the_latest_schema_in_wal_mode(db_path: Path) -> None:
    store = await Stores.open(db_path)
    try:
        assert await store.meta.schema_version() == SCHEMA_VERSION
        assert await store.games.load(1) is None
    finally:
        await store.close()
    con = sqlite3.connect(db_path)
    assert con.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    tables = {r[0] for r in con.execute("SELECT name FROM sqlite_master WHERE type='table'")}
    assert {"meta", "games", "results"} <= tables


async def test_the_sqlite_writer_keeps_a_small_page_cache(db_path: Path) -> None:
    store = await Stores.open(db_path)
    try:
        async with store.db.writer() as conn:
            row = await conn.fetchrow("PRAGMA cache_size")
    finally:
        await store.close()
    assert row is not None and row[0] == -WRITER_CACHE_KB  # negative: in KB, not pages


async def test_a_version_1_file_migrates_forward_keeping_the_game(tmp_path: Path) -> None:
    path = tmp_path / "old.db"
    state = write_version_1_file(path)
    store = await Stores.open(path)
    try:
        assert await store.meta.schema_version() == SCHEMA_VERSION
        saved = await store.games.load(7)
        assert saved is not None
        assert saved.game.to_dict() == state
        assert (saved.guild_id, saved.revision, saved.status) == (900, 2, PLAYING)
        assert (saved.undos, saved.hints, saved.seconds_played, saved.daily) == (0, 0, 0.0, None)
        assert await store.meta.get("commands_hash:global") == "abc"
        # The migrated game plays on and finishes into the new results table.
        saved.game.play(saved.game.legal_moves()[0])
        saved.status, saved.finished_at = WON, 200.0
        await store.games.save(saved)
        [result] = await all_results(store, user_id=7)
        assert (result.game_id, result.deal, result.outcome, result.guild_id) == (
            "trefoil", 42, WON, 900
        )
    finally:
        await store.close()


async def test_reopening_a_migrated_file_changes_nothing(tmp_path: Path) -> None:
    path = tmp_path / "old.db"
    write_version_1_file(path)
    for _ in range(2):
        store = await Stores.open(path)
        assert await store.meta.schema_version() == SCHEMA_VERSION
        assert (await store.games.load(7)) is not None
        await store.close()


async def test_a_file_from_a_newer_bot_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "new.db"
    con = sqlite3.connect(path)
    con.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    con.close()
    with pytest.raises(StoreError, match="newer"):
        await Stores.open(path)


async def test_start_over_a_playing_game_records_it_abandoned(store: Stores) -> None:
    first = await store.games.start(1, 900, new_game("clover-leaf", 3), 10.0)
    first.game.play(first.game.legal_moves()[0])
    await store.games.save(first)
    loaded = await store.games.load(1)
    assert loaded is not None
    second = await store.games.start(1, 901, new_game("trefoil", 4), 20.0, replacing=loaded)
    assert second.id != first.id
    [result] = await all_results(store, user_id=1)
    assert (result.outcome, result.game_id, result.moves, result.guild_id) == (
        ABANDONED, "clover-leaf", 1, 900
    )
    current = await store.games.load(1)
    assert current is not None and current.id == second.id and current.guild_id == 901


async def test_start_refuses_when_the_game_to_replace_is_not_the_stored_one(store: Stores) -> None:
    await store.games.start(1, None, new_game("trefoil", 1), 1.0)
    with pytest.raises(ConcurrentChange):
        await store.games.start(1, None, new_game("trefoil", 2), 2.0)  # replacing=None, but one exists
    saved = await store.games.load(1)
    assert saved is not None and saved.game.deal_number == 1
    assert await all_results(store) == []


async def test_save_from_an_old_revision_writes_nothing(store: Stores) -> None:
    saved = await store.games.start(1, None, new_game("trefoil", 9), 1.0)
    twin = await store.games.load(1)
    assert twin is not None
    saved.game.play(saved.game.legal_moves()[0])
    await store.games.save(saved)
    twin.game.play(twin.game.legal_moves()[-1])
    with pytest.raises(ConcurrentChange):
        await store.games.save(twin)
    stored = await store.games.load(1)
    assert stored is not None
    assert stored.game.to_dict() == saved.game.to_dict() and stored.revision == 1


async def test_a_final_move_and_its_result_commit_together_or_not_at_all(
    store: Stores,
) -> None:
    saved = await store.games.start(1, None, new_game("trefoil", 9), 1.0)
    # Make the result insert fail: a row for this game is already there.
    await run_sql(
        store,
        "INSERT INTO results (game_row, user_id, game, deal, outcome, moves, undos, hints, "
        "redeals_used, seconds_played, finished_at) VALUES ($1, 1, 'trefoil', 9, 'lost', "
        "0, 0, 0, 0, 0, 0)",
        saved.id,
    )
    saved.game.play(saved.game.legal_moves()[0])
    saved.status, saved.finished_at = WON, 5.0
    with pytest.raises((sqlite3.IntegrityError, asyncpg.UniqueViolationError)):
        await store.games.save(saved)
    stored = await store.games.load(1)
    assert stored is not None
    assert (stored.status, stored.revision, stored.game.moves_made) == (PLAYING, 0, 0)


async def test_result_rows_carry_every_counter(store: Stores) -> None:
    saved = await store.games.start(5, 77, new_game("trefoil", 27), 1000.0, daily="2026-11-01")
    saved.game.play("redeal")
    await store.games.count_hint(saved.id)
    saved.undos, saved.seconds_played = 3, 95.5
    saved.status, saved.finished_at = "resigned", 1200.0
    await store.games.save(saved)
    assert saved.hints == 1, "read back with the save"
    [r] = await all_results(store, guild_id=77)
    assert (r.user_id, r.outcome, r.moves, r.undos, r.hints, r.redeals_used) == (
        5, "resigned", 1, 3, 1, 1
    )
    assert r.seconds == 95.5 and r.daily == date(2026, 11, 1)
    assert r.finished_at.timestamp() == 1200.0
    assert await all_results(store, guild_id=78) == []


async def test_statuses_are_kept_as_the_text_they_always_were(store: Stores) -> None:
    """Rows written before statuses were named read back, and rows written now read the
    same to an older release: the columns hold the same words."""
    saved = await store.games.start(5, 77, new_game("trefoil", 27), 1000.0)
    async with store.db.reading() as conn:
        row = await conn.fetchrow("SELECT status FROM games WHERE id = $1", saved.id)
    assert row is not None and type(row["status"]) is str and row["status"] == "playing"
    saved.status, saved.finished_at = RESIGNED, 1200.0
    await store.games.save(saved)
    async with store.db.reading() as conn:
        game = await conn.fetchrow("SELECT status FROM games WHERE id = $1", saved.id)
        result = await conn.fetchrow("SELECT outcome FROM results WHERE game_row = $1", saved.id)
        replay = await conn.fetchrow("SELECT outcome FROM replays WHERE user_id = 5")
    assert game is not None and result is not None and replay is not None
    assert [game["status"], result["outcome"], replay["outcome"]] == ["resigned"] * 3
    await run_sql(store, "UPDATE games SET status = 'won' WHERE id = $1", saved.id)
    loaded = await store.games.load(5)
    assert loaded is not None and loaded.status is GameStatus.WON
    finished = await store.replays.last(5, 77)
    assert finished is not None and finished.outcome is GameStatus.RESIGNED


async def test_a_finished_game_is_not_saved_again(store: Stores) -> None:
    saved = await store.games.start(1, None, new_game("trefoil", 9), 1.0)
    saved.status, saved.finished_at = "resigned", 2.0
    await store.games.save(saved)
    with pytest.raises(ConcurrentChange):
        await store.games.save(saved)
    assert len(await all_results(store)) == 1


async def test_a_change_never_saved_is_not_served_by_the_next_load(
    store: Stores, store_target: Path | str
) -> None:
    saved = await store.games.start(5, 1, new_game("trefoil", 42), 0.0)
    loaded = await store.games.load(5)
    assert loaded is not None and loaded.game is not saved.game  # a copy: loads never share
    loaded.game.play(loaded.game.legal_moves()[0])  # played, but the save never happens
    again = await store.games.load(5)
    assert again is not None and again.game.moves_made == 0
    again.game.play(again.game.legal_moves()[0])
    await store.games.save(again)
    reopened = await Stores.open(store_target)
    try:
        fresh = await reopened.games.load(5)
        assert fresh is not None and fresh.game.history == again.game.history
    finally:
        await reopened.close()


async def test_discord_sized_ids_round_trip(store: Stores) -> None:
    user, guild = 1_234_567_890_123_456_789, 987_654_321_098_765_432  # 64-bit snowflakes
    saved = await store.games.start(user, guild, new_game("trefoil", 2_000_000_000), 1.0)
    saved.status, saved.finished_at = "resigned", 2.0
    await store.games.save(saved)
    loaded = await store.games.load(user)
    assert loaded is not None and (loaded.user_id, loaded.guild_id) == (user, guild)
    [result] = await all_results(store, guild_id=guild)
    assert (result.user_id, result.deal) == (user, 2_000_000_000)


async def test_postgres_migrates_once_and_reopens_unchanged(pg_url: str) -> None:
    first, second = await Stores.open(pg_url), await Stores.open(pg_url)
    try:
        assert await first.meta.schema_version() == first.meta.schema_target
        assert await second.meta.schema_version() == first.meta.schema_target
        await first.meta.set("k", "v")
        assert await second.meta.get("k") == "v"
    finally:
        await first.close()
        await second.close()


async def test_a_postgres_database_from_a_newer_bot_is_refused(pg_url: str) -> None:
    store = await Stores.open(pg_url)
    await run_sql(store, "UPDATE schema_version SET version = version + 1")
    await store.close()
    with pytest.raises(StoreError, match="newer"):
        await Stores.open(pg_url)


async def test_a_wrong_postgres_address_is_a_store_error(pg_server: object) -> None:
    with pytest.raises(StoreError, match=r"Cannot connect to postgresql://127\.0\.0\.1:1/x") as err:
        await Stores.open("postgresql://someone:secret@127.0.0.1:1/x")
    assert "secret" not in str(err.value), "a password never reaches a message"
    with pytest.raises(StoreError, match="Cannot connect to postgresql://db:port/x"):
        await Stores.open("postgresql://someone:secret@db:port/x")


async def test_live_games_are_kept_least_recently_used_first_out(
    store: Stores, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(store.games._held, "maxsize", 2)
    await store.games.start(1, None, new_game("trefoil", 1), 1.0)
    two = await store.games.start(2, None, new_game("trefoil", 2), 1.0)
    assert await store.games.load(1) is not None  # player 1 is the most recent now
    await store.games.start(3, None, new_game("trefoil", 3), 1.0)
    assert list(store.games._held) == [1, 3], "player 2's game went, not player 1's"
    assert store.games.cached(2) is None
    again = await store.games.load(2)  # rebuilt from the saved state, and kept again
    assert again is not None and again.id == two.id and again.game.deal_number == 2
    assert list(store.games._held) == [3, 2]


async def test_a_transaction_cancelled_while_it_begins_leaves_none_open(any_store: Stores) -> None:
    """A task stopped (say, the leader's job at shutdown) while its BEGIN is on its way:
    the next transaction still starts, and the keep it made is not half there."""

    async def keep() -> None:
        await any_store.daily.keep("trefoil", "2026-11-22", 5)

    for pause in range(4):  # cancelled at each of its first few steps
        task = asyncio.create_task(keep())
        for _ in range(pause):
            await asyncio.sleep(0)
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task
        assert await any_store.daily.keep("clover-leaf", f"2026-11-2{pause}", 9) == 9
    assert await any_store.daily.deal("trefoil", "2026-11-22") in (None, 5)


# -- challenges ------------------------------------------------------------------------------


async def test_a_challenge_keeps_the_language_it_was_posted_in(store: Stores) -> None:
    made = (await store.challenges.create(900, 1, 2, "trefoil", 100.0, language="pt-BR",
                                          most_open=3)).challenge
    assert made is not None
    kept = await store.challenges.get(made.id)
    assert kept is not None and made.language == kept.language == "pt-BR"


async def test_challenges_from_before_languages_were_kept_are_english(tmp_path: Path) -> None:
    path = tmp_path / "v8.db"
    con = sqlite3.connect(path)
    con.executescript("".join(MIGRATIONS[:8]) + "PRAGMA user_version = 8;")
    con.execute(
        "INSERT INTO challenges (guild_id, challenger_id, challenged_id, game, status, "
        "created_at) VALUES (900, 1, 2, 'trefoil', 'open', 100.0)"
    )
    con.commit()
    con.close()
    store = await Stores.open(path)
    try:
        assert await store.meta.schema_version() == SCHEMA_VERSION > 8
        [old] = await store.challenges.due("open", 200.0)
        assert old.language == "en-US"
    finally:
        await store.close()


async def test_a_pairs_challenges_waiting_at_once_before_the_limit_leave_the_newest(
    tmp_path: Path,
) -> None:
    """Before one waiting challenge per pair was the rule, a member could send many: the
    migration that makes it the rule ends all but the newest of each pair as unanswered."""
    path = tmp_path / "v10.db"
    con = sqlite3.connect(path)
    con.executescript("".join(MIGRATIONS[:10]) + "PRAGMA user_version = 10;")
    for challenger, challenged in ((1, 2), (2, 1), (1, 2), (1, 3), (0, 2), (0, 2)):
        con.execute(
            "INSERT INTO challenges (guild_id, challenger_id, challenged_id, game, status, "
            "created_at) VALUES (900, ?, ?, 'trefoil', 'open', 100.0)", (challenger, challenged),
        )
    con.commit()
    con.close()
    store = await Stores.open(path)
    try:
        assert await store.meta.schema_version() == SCHEMA_VERSION > 10
        statuses = [(await store.challenges.get(i)) for i in range(1, 7)]
        assert [c.status for c in statuses if c is not None] == [
            "expired", "expired", "open", "open", "open", "open"
        ]
    finally:
        await store.close()


async def test_on_postgresql_too_a_pairs_waiting_challenges_leave_the_newest(
    pg_url: str,
) -> None:
    from bot.store.postgres import MIGRATIONS as PG_MIGRATIONS

    conn = await asyncpg.connect(pg_url)
    try:
        await conn.execute("CREATE TABLE schema_version (version INTEGER NOT NULL)")
        await conn.execute("INSERT INTO schema_version VALUES (6)")
        for script in PG_MIGRATIONS[:6]:
            await conn.execute(script)
        for challenger, challenged in ((1, 2), (2, 1), (1, 2), (1, 3)):
            await conn.execute(
                "INSERT INTO challenges (guild_id, challenger_id, challenged_id, game, status, "
                "created_at) VALUES (900, $1, $2, 'trefoil', 'open', 100.0)",
                challenger, challenged,
            )
    finally:
        await conn.close()
    store = await Stores.open(pg_url)
    try:
        statuses = [await store.challenges.get(i) for i in range(1, 5)]
        assert [c.status for c in statuses if c is not None] == [
            "expired", "expired", "open", "open"
        ]
    finally:
        await store.close()


async def test_a_load_reuses_the_kept_game_only_while_its_saved_state_is_the_stored_one(
    store: Stores, store_target: Path | str, monkeypatch: pytest.MonkeyPatch
) -> None:
    from engine import Game

    rebuilt: list[object] = []
    from_dict = Game.from_dict
    monkeypatch.setattr(Game, "from_dict", lambda data: rebuilt.append(data) or from_dict(data))
    await store.games.start(1, None, new_game("trefoil", 1), 1.0)
    assert await store.games.load(1) is not None and rebuilt == []  # the kept game's copy
    other = await Stores.open(store_target)  # another process moves the game on
    try:
        theirs = await other.games.load(1)
        assert theirs is not None and len(rebuilt) == 1
        theirs.game.play(theirs.game.legal_moves()[0])
        await other.games.save(theirs)
    finally:
        await other.close()
    ours = await store.games.load(1)  # a saved state this process never kept: rebuilt
    assert ours is not None and ours.game.moves_made == 1 and len(rebuilt) == 2
