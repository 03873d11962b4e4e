"""The Discord bot: a ``commands.Bot`` whose ``setup_hook`` opens the core, adds the slash
commands, registers the persistent controls and syncs commands if needed.

Command sync talks to Discord only when the command set changed: the hash of the exact
payload that would be sent is kept in the database per application and scope (global, or
the DEV_GUILD_ID server), so a restart with the same commands makes no sync call.
``--sync`` forces one.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import json
import logging
import signal
import sys
import time
from collections.abc import Awaitable, Callable
from typing import Any

import aiohttp
import discord
from discord import app_commands
from discord.ext import commands

from ..config import Settings
from ..core import Core
from ..replies import Reply, refusal
from ..wording import code
from . import send
from .components import DYNAMIC_ITEMS
from .game_commands import GameCommands
from .stats_commands import StatsCommands

log = logging.getLogger(__name__)


LEADERSHIP = "background"  # the name of the lock one process holds to run background work
LEAD_RETRY_S = 30.0


class CannotReachDiscord(RuntimeError):
    """Discord's servers could not be reached (no network, a proxy, a firewall)."""


class SolitaireBot(commands.AutoShardedBot):
    core: Core
    # Unix seconds for games, statistics and the daily deal's day; tests set their own.
    clock: Callable[[], float] = staticmethod(time.time)

    def __init__(
        self, settings: Settings, *, force_sync: bool = False, core: Core | None = None
    ) -> None:
        super().__init__(
            # None and None: as many shards as Discord recommends, all in this process.
            shard_count=settings.shard_count,
            shard_ids=list(settings.shard_ids) if settings.shard_ids is not None else None,
            command_prefix=commands.when_mentioned,  # slash commands only; no message intent
            intents=discord.Intents(guilds=True),
            max_messages=None,  # no message cache: the bot reads no messages, only interactions
            help_command=None,
            allowed_mentions=discord.AllowedMentions.none(),  # name players, never ping them
            # Installed to a server or to a player's own account; played in servers, DMs
            # with the bot and private channels alike (commands that need a server say so).
            allowed_installs=app_commands.AppInstallationType(guild=True, user=True),
            allowed_contexts=app_commands.AppCommandContext(
                guild=True, dm_channel=True, private_channel=True
            ),
        )
        self.settings = settings
        self.force_sync = force_sync
        self.synced: bool | None = None  # after setup: whether this start synced commands
        if core is not None:
            self.core = core

    async def setup_hook(self) -> None:
        if not hasattr(self, "core"):
            self.core = await Core.open(
                self.settings.database, clock=self.clock,
                render_processes=self.settings.render_processes,
            )
        await self.add_cog(GameCommands(self.core))
        await self.add_cog(StatsCommands(self.core))
        self.add_dynamic_items(*DYNAMIC_ITEMS)
        self.tree.error(self.on_app_command_error)
        # Several processes may share one database: one of them (the leader) syncs the
        # commands and keeps the winnable pool; the others only serve their shards.
        self.leader = await self.core.store.try_lead(LEADERSHIP)
        if self.leader:
            self.synced = await self.sync_commands(force=self.force_sync)
            self._lead()
        self.leadership = asyncio.get_running_loop().create_task(self._keep_watch())
        log.info(
            "ready to deal: database %s; %s", self.settings.database_name,
            "leading: syncing commands and filling the winnable pool" if self.leader
            else "another process leads (commands, winnable pool)",
        )

    def _lead(self) -> None:
        """Start what only the leader runs: filling the pool of winnable deals."""
        solver = self.core.flow.solver
        self.pool_filler = asyncio.get_running_loop().create_task(solver.keep_winnable_pool())

    async def _keep_watch(self) -> None:
        """A process that does not lead asks again now and then: if the leader has gone,
        this one takes over its background work."""
        while not self.leader:
            await asyncio.sleep(LEAD_RETRY_S)
            try:
                self.leader = await self.core.store.try_lead(LEADERSHIP)
            except Exception:
                log.exception("asking for leadership failed")
                continue
            if self.leader:
                log.info("the leading process has gone: this one fills the winnable pool now")
                self._lead()

    async def on_ready(self) -> None:
        shards = sorted(self.shards) if self.shards else [0]
        log.info("serving shards %s of %s", shards, self.shard_count or 1)

    async def answer(
        self,
        interaction: discord.Interaction[Any],
        work: Awaitable[Reply],
        *,
        private: bool = False,
    ) -> None:
        """Every command and press answers here: ``send.answer``, the one way to Discord."""
        await send.answer(interaction, work, private=private)

    async def on_interaction(self, interaction: discord.Interaction[Any]) -> None:
        """A press on a button none of ours claims (a board from an older version, say)
        would otherwise go unanswered: "This interaction failed"."""
        if interaction.type is not discord.InteractionType.component:
            return
        custom_id = str((interaction.data or {}).get("custom_id", ""))
        if any(item.__discord_ui_compiled_template__.fullmatch(custom_id)
               for item in DYNAMIC_ITEMS):
            return
        await send.answer(interaction, _unknown_control(), private=True)

    async def sync_commands(self, *, force: bool = False) -> bool:
        """Sync the slash commands if they changed since the last sync (or ``force``)."""
        guild_id = self.settings.dev_guild_id
        guild = discord.Object(id=guild_id) if guild_id else None
        if guild is not None:
            self.tree.copy_global_to(guild=guild)
        payload = [command.to_dict(self.tree) for command in self.tree.get_commands(guild=guild)]
        digest = hashlib.sha256(
            json.dumps(payload, sort_keys=True, ensure_ascii=False).encode()
        ).hexdigest()
        key = f"commands_hash:{self.application_id}:{guild_id or 'global'}"
        if not force and await self.core.store.get_meta(key) == digest:
            log.info("slash commands unchanged since the last sync; not syncing")
            return False
        synced = await self.tree.sync(guild=guild)
        await self.core.store.set_meta(key, digest)
        where = f"server {guild_id}" if guild_id else "every server (may take a while to show)"
        log.info("synced %d slash commands to %s", len(synced), where)
        return True

    async def on_app_command_error(
        self, interaction: discord.Interaction[Any], error: app_commands.AppCommandError
    ) -> None:
        """Last resort for a command that raised: log it, tell the player privately."""
        command = interaction.command.qualified_name if interaction.command else "?"
        if isinstance(error, app_commands.TransformerError):  # the player's input, no fault
            log.info("/%s: %s", command, error)
            value = code(str(error.value))
            text = f"{value} is not a valid value there; see `/help` for /{command}."
        else:
            log.error(
                "/%s failed for user %s in guild %s",
                command,
                interaction.user.id,
                interaction.guild_id,
                exc_info=error,
            )
            text = "Sorry — something went wrong on my side. `/show` shows your current board."
        try:
            await send.tell_privately(interaction, text)
        except discord.HTTPException:
            log.warning("could not tell user %s about the error", interaction.user.id)

    async def close(self) -> None:
        for task in ("pool_filler", "leadership"):
            if hasattr(self, task):
                getattr(self, task).cancel()
        if hasattr(self, "core"):  # first: searches and pictures still running end quietly
            self.core.flow.close()
        await super().close()
        if hasattr(self, "core"):
            await self.core.close()


async def run_bot(settings: Settings, *, force_sync: bool = False) -> None:
    """Log in and serve until the bot is closed (SIGTERM closes it cleanly, as `docker stop`
    sends). Tests may point ``discord.http.Route.BASE`` and
    ``discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY`` at a fake first."""
    if not settings.token:
        raise ValueError("run_bot needs settings.token")
    closing: list[asyncio.Task[None]] = []
    # The database first, so that its problems are told apart from the network's.
    core = await Core.open(
        settings.database, clock=SolitaireBot.clock, render_processes=settings.render_processes
    )
    async with SolitaireBot(settings, force_sync=force_sync, core=core) as bot:
        loop = asyncio.get_running_loop()
        with contextlib.suppress(NotImplementedError):  # no signal handlers on Windows
            loop.add_signal_handler(
                signal.SIGTERM, lambda: closing.append(loop.create_task(bot.close()))
            )
        try:
            await bot.start(settings.token)
        except (aiohttp.ClientError, OSError) as err:
            raise CannotReachDiscord(str(err) or type(err).__name__) from err
    # discord.py's own exit does not wait for the rest of our close (the database):
    for task in closing:
        await task


async def _unknown_control() -> Reply:
    return refusal(
        "That control belongs to an older version of this board, so it does nothing now. "
        "`/show` posts your current board."
    )


def serve(settings: Settings, *, force_sync: bool = False) -> int:
    """Run the bot until it is stopped; the process's exit code."""
    try:
        asyncio.run(run_bot(settings, force_sync=force_sync))
    except discord.LoginFailure:
        print(
            "Discord refused the token (DISCORD_TOKEN). Reset it on the bot's page of the "
            "developer portal and set the new one.",
            file=sys.stderr,
        )
        return 2
    except CannotReachDiscord as err:
        print(
            f"Cannot reach Discord: {err}. Check this machine's internet connection (and any "
            "proxy or firewall), then start the bot again.",
            file=sys.stderr,
        )
        return 2
    except KeyboardInterrupt:
        pass
    return 0
