"""What the store's tests need beyond the store's own methods: raw SQL on its database."""

from __future__ import annotations

from typing import Any

from bot.store import Stores


async def run_sql(store: Stores, sql: str, *args: Any) -> int:
    """Run one statement (``$1`` placeholders) in a transaction of the store's database,
    as another program would; rows changed."""
    async with store.db.transaction() as conn:
        return await conn.execute(sql, *args)


async def fetch_sql(store: Stores, sql: str, *args: Any) -> list[Any]:
    """The rows of one query (``$1`` placeholders) on the store's database."""
    async with store.db.reading() as conn:
        return list(await conn.fetch(sql, *args))


async def without_daily_secret(store: Stores) -> None:
    """The database's daily secret made empty, so each day's deal is the engine's with no
    secret (``winnable_daily_deal(game, day)``): the days whose winning lines the tests
    know (daily_lines.py). Done before any process asks for a day's deal."""
    await run_sql(store, "UPDATE meta SET value = '' WHERE key = 'daily_secret'")
