"""Discord's REST alone, for the Activity's page served as a process of its own
(``python -m bot --web``): no gateway, only the bot's token, so that a move made on the page
shows on the player's boards in channels (``send.BoardEdits``). Its edits are paced by a
``Tidy`` of its own, one more process's share of the budget all the bot's processes share."""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator

import aiohttp
import discord

from ..config import Config
from .send import BoardEdits
from .tidy import QuietRetries, Tidy


@contextlib.asynccontextmanager
async def board_edits(config: Config) -> AsyncIterator[BoardEdits]:
    """Logged in with ``config.token`` while the block runs; what waits is left at its end."""
    if not config.token:
        raise ValueError("board_edits needs config.token")
    trace = aiohttp.TraceConfig()
    # No gateway, so intents ask for nothing; guilds only keeps discord.py from warning.
    client = discord.Client(intents=discord.Intents(guilds=True), http_trace=trace)
    share = 1 / ((config.shard_count or 1) + 1)  # beside the shard processes' shares
    tidy = Tidy(client, share)
    tidy.listen(trace)
    QuietRetries.install()
    await client.login(config.token)
    tidy.start()
    try:
        yield BoardEdits(tidy)
    finally:
        await tidy.close()
        await client.close()
