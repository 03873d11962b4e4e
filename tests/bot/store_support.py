"""What the store's tests need beyond the store's own methods: raw SQL on its database."""

from __future__ import annotations

from typing import Any

from bot.store import Stores


async def run_sql(store: Stores, sql: str, *args: Any) -> int:
    """Run one statement (``$1`` placeholders) in a transaction of the store's database,
    as another program would; rows changed."""
    async with store.db.transaction() as conn:
        return await conn.execute(sql, *args)
