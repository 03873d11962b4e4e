"""The Discord bot: a ``commands.Bot`` whose ``setup_hook`` opens the core, adds the slash
commands, registers the persistent controls and competes for the lead.

The leading process syncs the slash commands, through the core, which calls Discord only
when the command set changed: the hash of the exact payload that would be sent (with every
command's names and descriptions in each language, ``translator.py``) is kept in the
database per application and scope (global, or the DEV_GUILD_ID server), so a restart with
the same commands makes no sync call, and a changed translation syncs. ``--sync`` forces
one. Where the bot serves the Activity, a global sync keeps the app's Entry Point command
(``entry_points``), which discord.py does not know and a bulk overwrite would delete.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import math
import signal
import sys
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any, Protocol

import aiohttp
import discord
from discord import app_commands
from discord.ext import commands

from ..config import Config
from ..core import Core
from ..ops.metrics import WATCHED
from ..ops.serve import serve_ops
from ..replies import Refused, Reply
from ..words.language import _, p_
from ..words.phrases import code, command, sorry
from . import edits, send
from .checks import SolitaireTree
from .components import DYNAMIC_ITEMS, dispatched
from .context import speaking_to
from .game_commands import GameCommands
from .rate_limits import QuietRetries, fleet_share
from .rest import ActivityInstances, GuildMembers
from .stats_commands import StatsCommands
from .tidy import Tidy
from .together_commands import TogetherCommands
from .translator import CatalogTranslator

log = logging.getLogger(__name__)

ENTRY_POINT = 4  # PRIMARY_ENTRY_POINT: the command that opens the Activity (App Launcher)
# What Discord answers about a command beyond what defines it, not sent back: a bulk
# overwrite finds the command by its name and type.
_DISCORDS_OWN = {"id", "application_id", "guild_id", "version", "name_localized",
                 "description_localized"}


class Closing(Protocol):
    """The Activity's page served in this process, which the bot stops before its core."""

    async def close(self) -> None: ...


# Starts the page over the core, with the edits that show its moves on boards in channels
# and the bot's word on who is a member of a server (where the page's games count).
PageStarter = Callable[[Core, edits.BoardEdits, GuildMembers, ActivityInstances],
                       Awaitable[Closing]]


class CannotReachDiscord(RuntimeError):
    """Discord's servers could not be reached (no network, a proxy, a firewall)."""


class SolitaireBot(commands.AutoShardedBot):
    """The bot over an open ``core``, which it closes when it closes; and over the Activity's
    page (``page``) when this process serves it, which it stops first."""

    def __init__(self, config: Config, core: Core, *, force_sync: bool = False,
                 page: Closing | None = None) -> None:
        # The bot never joins a voice channel: no warning that voice's libraries are missing.
        discord.VoiceClient.warn_nacl = discord.VoiceClient.warn_dave = False
        shards: dict[str, Any] = {}  # none: as many shards as Discord recommends, all here
        share = 1.0  # this process's part of the budget all processes share for channel edits
        if config.shard_ids is not None:
            shards = {"shard_count": config.shard_count, "shard_ids": list(config.shard_ids)}
            share = fleet_share(len(config.shard_ids),
                                config.shard_count or len(config.shard_ids),
                                page_apart=config.activity)
        trace = aiohttp.TraceConfig()  # every answer of Discord's, for the 429s (Tidy)
        super().__init__(
            **shards,
            http_trace=trace,
            tree_cls=SolitaireTree,  # checks every command's options before it runs
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
        self.config = config
        self.core = core
        self.page = page
        # The Activity is set up (Discord's sign-in for its page): boards carry "Play by
        # hand" and a sync keeps the Entry Point command. A fleet's shard processes need
        # the settings too, though the page runs apart (--web).
        self.serves_activity = config.activity
        self.tidy = Tidy(self, share)  # earlier boards collapsed, within the rate limits
        self.tidy.listen(trace)
        WATCHED.latencies(lambda: [(shard_id, shard.latency)
                                   for shard_id, shard in self.shards.items()
                                   if not shard.is_closed() and math.isfinite(shard.latency)])
        QuietRetries.install()
        self.force_sync = force_sync
        self.synced: bool | None = None  # whether this process's last lead synced commands

    async def setup_hook(self) -> None:
        self.tidy.start()
        await self.add_cog(GameCommands(self.core))
        await self.add_cog(StatsCommands(self.core))
        await self.add_cog(TogetherCommands(self.core))
        self.add_dynamic_items(*DYNAMIC_ITEMS)
        self.tree.error(self.on_app_command_error)
        await self.tree.set_translator(CatalogTranslator())  # before any sync
        # Several processes may share one database: one of them (the leader) syncs the
        # commands and keeps the winnable pool; the others only serve their shards.
        # The challenges the leader closes are shown through the channels' routes.
        leading = await self.core.lead(self._on_lead, edits.ChannelEdits(self.tidy))
        log.info(
            "ready to deal: database %s; %s", self.core.where,
            "this process leads" if leading else "another process leads (commands, winnable pool)",
        )

    async def _on_lead(self) -> None:
        """This process has just taken the lead: sync the commands if they changed (or
        if ``--sync`` asked, the first time)."""
        self.synced = await self.sync_commands(force=self.force_sync)
        self.force_sync = False

    async def on_ready(self) -> None:
        shards = sorted(self.shards) if self.shards else [0]
        log.info("serving shards %s of %s", shards, self.shard_count or 1)

    async def on_interaction(self, interaction: discord.Interaction[Any]) -> None:
        """A press none of ours takes (a board from an older version; a press without its
        message, or of a control its message does not carry, which discord.py drops)
        would otherwise go unanswered: "This interaction failed"."""
        if interaction.type is not discord.InteractionType.component or dispatched(interaction):
            return
        async with send.replying(interaction, private=True) as presenter:
            await presenter.show(_unknown_control(interaction.message is None))

    async def sync_commands(self, *, force: bool = False) -> bool:
        """Sync the slash commands if they changed since the last sync (or ``force``)."""
        guild_id = self.config.dev_guild_id
        guild = discord.Object(id=guild_id) if guild_id else None
        if guild is not None:
            self.tree.copy_global_to(guild=guild)
        payload = await self.commands_payload(guild)

        async def sync() -> None:
            if guild is None and self.serves_activity:
                kept = await self.entry_points()
                synced: list[Any] = await self._put_global_commands(payload + kept)
                synced = [c for c in synced if c.get("type", 1) != ENTRY_POINT]
                if kept:
                    log.info("kept the Entry Point command %r", kept[0].get("name"))
            else:
                synced = await self.tree.sync(guild=guild)
            where = f"server {guild_id}" if guild_id else "every server (may take a while to show)"
            log.info("synced %d slash commands to %s", len(synced), where)

        scope = f"{self.application_id}:{guild_id or 'global'}"
        return await self.core.sync_commands(scope, payload, sync, force=force)

    async def commands_payload(self, guild: discord.abc.Snowflake | None = None) -> list[Any]:
        """The commands as ``tree.sync`` sends them: translated, once the translator is
        set (``setup_hook``)."""
        translator = self.tree.translator
        if translator is None:
            return [cmd.to_dict(self.tree) for cmd in self.tree.get_commands(guild=guild)]
        return [await cmd.get_translated_payload(self.tree, translator)
                for cmd in self.tree.get_commands(guild=guild)]

    async def entry_points(self) -> list[dict[str, Any]]:
        """The app's Entry Point command (type 4, at most one, global only), as Discord
        has it: made by the portal when Activities were enabled, maybe renamed or translated
        there since. Kept as it is, rather than defined here, so that a sync never changes
        it, and never sends one Discord would refuse (an app whose Activities are not
        enabled in the portal may not have one)."""
        assert self.application_id is not None
        route = discord.http.Route("GET", "/applications/{application_id}/commands",
                                   application_id=self.application_id)
        found: list[dict[str, Any]] = await self.http.request(
            route, params={"with_localizations": "true"})
        return [{key: value for key, value in command.items() if key not in _DISCORDS_OWN}
                for command in found if command.get("type") == ENTRY_POINT]

    async def _put_global_commands(self, payload: list[Any]) -> list[dict[str, Any]]:
        """A bulk overwrite of the global commands, as ``tree.sync`` makes it."""
        assert self.application_id is not None
        try:
            written: list[dict[str, Any]] = await self.http.bulk_upsert_global_commands(
                self.application_id, payload)  # type: ignore[assignment]  # type 4 too
            return written
        except discord.HTTPException as err:
            if err.status == 400 and err.code == 50035:
                raise app_commands.CommandSyncFailure(
                    err, self.tree.get_commands()) from None
            raise

    async def on_app_command_error(
        self, interaction: discord.Interaction[Any], error: app_commands.AppCommandError
    ) -> None:
        """Last resort for a command that raised: log it, tell the player privately."""
        name = interaction.command.qualified_name if interaction.command else "?"
        with speaking_to(interaction):
            if isinstance(error, app_commands.TransformerError):  # the player's input, no fault
                log.info("/%s: %s", name, error)
                text = _("{value} is not a valid value there; see {help} for /{command}.",
                         value=code(str(error.value)), help=command("help"),
                         command=p_("command", name))
            else:
                log.error(
                    "/%s failed for user %s in guild %s",
                    name,
                    interaction.user.id,
                    interaction.guild_id,
                    exc_info=error,
                )
                text = sorry()
        try:
            await send.tell_privately(interaction, text)
        except discord.HTTPException:
            log.warning("could not tell user %s about the error", interaction.user.id)

    async def close(self) -> None:
        if self.page is not None:  # no move comes from the page while the rest closes
            page, self.page = self.page, None
            await page.close()
        await self.core.finish_answers()  # what a player began is answered, then it stops
        # With the gateway closed no interaction comes: the refusals of those that came
        # meanwhile are sent before discord.py closes its HTTP session under them.
        for shard in self.shards.values():
            await shard.disconnect()
        await self.core.finish_answers()
        await self.core.stop_work()  # searches and pictures still running end quietly
        await self.tidy.close()
        await super().close()
        await self.core.close()


STOP_SIGNALS = (signal.SIGTERM, signal.SIGINT, signal.SIGHUP)  # each closes the bot cleanly


async def run_bot(
    config: Config, *, force_sync: bool = False, page: PageStarter | None = None
) -> None:
    """Log in and serve until the bot is closed: SIGTERM (as `docker stop` sends), SIGINT
    (Ctrl-C) and SIGHUP (the terminal closed) each close it cleanly, answering what it
    has begun. ``page`` starts the Activity's page over the bot's core, in this process (the
    caller decides whether it runs here). Tests may point ``discord.http.Route.BASE`` and
    ``discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY`` at a fake first."""
    if not config.token:
        raise ValueError("run_bot needs config.token")
    closing: list[asyncio.Task[None]] = []
    # The database first, so that its problems are told apart from the network's.
    core = await Core.open(config.database, render_processes=config.render_processes)
    # Closing, the bot stops the page first: no move comes from it once the core closes.
    async with SolitaireBot(config, core, force_sync=force_sync) as bot, _ops(config, bot):
        if page is not None:  # a move made there shows on boards through this bot's edits
            bot.page = await page(core, edits.BoardEdits(bot.tidy), GuildMembers(bot),
                                  ActivityInstances(bot))
        loop = asyncio.get_running_loop()

        def stop() -> None:  # once: a second signal while closing changes nothing
            if not closing:
                closing.append(loop.create_task(bot.close()))

        for sig in STOP_SIGNALS:
            with contextlib.suppress(NotImplementedError):  # no signal handlers on Windows
                loop.add_signal_handler(sig, stop)
        try:
            await bot.start(config.token)
        except (aiohttp.ClientError, OSError) as err:
            raise CannotReachDiscord(str(err) or type(err).__name__) from err
    # discord.py's own exit does not wait for the rest of our close (the database):
    for task in closing:
        await task


@contextlib.asynccontextmanager
async def _ops(config: Config, bot: SolitaireBot) -> AsyncIterator[None]:
    """The operator's port while the bot runs: ready once every shard is connected to the
    gateway and the database answers."""

    async def ready() -> str | None:
        # is_ready() stays true while a shard reconnects: each shard is asked too.
        if (not bot.is_ready() or bot.is_closed()
                or any(shard.is_closed() for shard in bot.shards.values())):
            return "not connected to Discord's gateway"
        if not await bot.core.store_answers():
            return "the database does not answer"
        return None

    server = await serve_ops(config.metrics_host, config.metrics_port, ready)
    try:
        yield
    finally:
        if server is not None:
            await server.close()


def _unknown_control(without_message: bool) -> Reply:
    if without_message:
        why = _("That press came without the board it was made on, so nothing was done. "
                "{show} posts your current board.", show=command("show"))
    else:
        why = _("That control belongs to an older version of this board, so it does nothing "
                "now. {show} posts your current board.", show=command("show"))
    return Refused(why).reply


def serve(config: Config, *, force_sync: bool = False, page: PageStarter | None = None) -> int:
    """Run the bot until it is stopped; the process's exit code."""
    try:
        asyncio.run(run_bot(config, force_sync=force_sync, page=page))
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
