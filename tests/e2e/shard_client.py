"""A tiny sharded discord.py bot that tells which shards and process answered: proves the fake.

``python -m tests.e2e.shard_client`` runs it against the fake named by ``FAKE_DISCORD_API`` and
``FAKE_DISCORD_GATEWAY``, with ``DISCORD_TOKEN``, ``SHARD_COUNT``, ``SHARD_IDS`` (``0,2``) and
``SYNC_COMMANDS`` (``1`` in one process only) from the environment. Tests also start it in
their own process. It knows nothing of the solitaire bot.
"""

from __future__ import annotations

import asyncio
import os
from typing import Any

import discord
import yarl
from discord import app_commands
from discord.ext import commands


class ShardBot(commands.AutoShardedBot):
    """Answers ``/where`` with its name, process id, shards and the guilds it was given."""

    def __init__(
        self,
        name: str,
        *,
        shard_count: int | None = None,
        shard_ids: list[int] | None = None,
        sync: bool = True,
    ) -> None:
        manual: dict[str, Any] = {} if shard_ids is None else {"shard_ids": shard_ids}
        super().__init__(
            command_prefix="!",
            intents=discord.Intents.default(),
            shard_count=shard_count,
            **manual,
        )
        self.name = name
        self.sync = sync
        self.tree.add_command(where)

    async def before_identify_hook(self, shard_id: int | None, *, initial: bool = False) -> None:
        """No five-second pause between shards: the fake has no identify rate limit."""

    async def setup_hook(self) -> None:
        if self.sync:
            await self.tree.sync()

    def describe(self, interaction: discord.Interaction) -> str:
        shard = interaction.guild.shard_id if interaction.guild is not None else 0
        guilds = ",".join(sorted(g.name for g in self.guilds))
        return f"{self.name} pid={os.getpid()} shard={shard} guilds={guilds}"


@app_commands.command(description="Which shard and process answer here?")
async def where(interaction: discord.Interaction) -> None:
    client = interaction.client
    assert isinstance(client, ShardBot)
    await interaction.response.send_message(client.describe(interaction))


async def main() -> None:
    discord.http.Route.BASE = os.environ["FAKE_DISCORD_API"]
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(os.environ["FAKE_DISCORD_GATEWAY"])
    ids = os.environ.get("SHARD_IDS")
    count = os.environ.get("SHARD_COUNT")
    bot = ShardBot(
        os.environ.get("CLIENT_NAME", "client"),
        shard_count=int(count) if count else None,
        shard_ids=[int(n) for n in ids.split(",")] if ids else None,
        sync=os.environ.get("SYNC_COMMANDS") == "1",
    )
    async with bot:
        await bot.start(os.environ["DISCORD_TOKEN"])


if __name__ == "__main__":
    asyncio.run(main())
