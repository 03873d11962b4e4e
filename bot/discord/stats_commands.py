"""The statistics slash commands: each turns its options into one call of the core.

/stats [user] [game] [scope], /leaderboard [game] [period], /daily game,
/daily-board game [day], /forget-me, /reset-server-stats.

Answers name players as ``<@id>`` mentions; the bot allows no mentions, so a leaderboard
never pings anyone. Resetting a server needs Manage Server: the command is hidden from
others by default, and the permission is checked again on the command and on the button
(``Core.answer_question``), since a server can change who sees a command.
"""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands
from discord.app_commands import locale_str
from discord.ext import commands

from ..core import Core
from ..flows.stats import EVERYWHERE, PERIODS, SERVER
from ..replies import Member
from ..words.phrases import DAY_TYPED_LIMIT
from .context import can_manage_server, player_of
from .game_commands import GAME_CHOICES
from .send import replying
from .translator import named

SCOPE_CHOICES = [
    app_commands.Choice(name=named("choice", "this server"), value=SERVER),
    app_commands.Choice(name=named("choice", "all servers (shown to you alone)"),
                        value=EVERYWHERE),
]
_PERIOD_NAMES = {
    "week": named("choice", "last 7 days"),
    "month": named("choice", "last 30 days"),
    "all": named("choice", "all time"),
}
PERIOD_CHOICES = [app_commands.Choice(name=_PERIOD_NAMES[p], value=p) for p in PERIODS]


class StatsCommands(commands.Cog, name="Statistics"):
    def __init__(self, core: Core) -> None:
        self.core = core

    @app_commands.command(
        name=named("command", "stats"),
        description=locale_str("A player's record: wins, streaks, bests"),
    )
    @app_commands.rename(
        user=named("option", "user"), game=named("option", "game"),
        scope=named("option", "scope"),
    )
    @app_commands.describe(
        user=locale_str("Whose record (yours if left out)"),
        game=locale_str("One game only (all games if left out)"),
        scope=locale_str(
            "This server (default) or all servers (then shown to you alone)"
        ),
    )
    @app_commands.choices(game=GAME_CHOICES, scope=SCOPE_CHOICES)
    async def stats(
        self,
        interaction: discord.Interaction[Any],
        user: discord.User | None = None,
        game: str | None = None,
        scope: str = SERVER,
    ) -> None:
        who = user or interaction.user
        # A user Discord did not resolve arrives as a bare id: name it by its id.
        name = getattr(who, "display_name", None) or f"user {who.id}"
        subject = Member(who.id, name, bot=bool(getattr(who, "bot", False)))
        async with replying(interaction, private=scope == EVERYWHERE) as presenter:
            await self.core.stats(player_of(interaction), subject, game, scope, presenter=presenter)

    @app_commands.command(
        name=named("command", "leaderboard"),
        description=locale_str("This server's best players, ranked fairly"),
    )
    @app_commands.rename(game=named("option", "game"), period=named("option", "period"))
    @app_commands.describe(
        game=locale_str("One game only (all games if left out)"),
        period=locale_str("Which games count (all time if left out)"),
    )
    @app_commands.choices(game=GAME_CHOICES, period=PERIOD_CHOICES)
    async def leaderboard(
        self, interaction: discord.Interaction[Any], game: str | None = None, period: str = "all"
    ) -> None:
        async with replying(interaction) as presenter:
            await self.core.leaderboard(player_of(interaction), game, period, presenter=presenter)

    @app_commands.command(
        name=named("command", "daily"),
        description=locale_str("Today's deal, the same for everyone; your first try is scored"),
    )
    @app_commands.rename(game=named("option", "game"))
    @app_commands.describe(game=locale_str("The game whose daily deal to play"))
    @app_commands.choices(game=GAME_CHOICES)
    async def daily(self, interaction: discord.Interaction[Any], game: str) -> None:
        async with replying(interaction) as presenter:
            await self.core.daily(player_of(interaction), game, presenter=presenter)

    @app_commands.command(
        name=named("command", "daily-board"),
        description=locale_str("Who won a day's daily deal here, in the fewest moves"),
    )
    @app_commands.rename(game=named("option", "game"), day=named("option", "day"))
    @app_commands.describe(
        game=locale_str("The game whose daily deal"),
        day=locale_str(
            "A UTC day like 2026-11-22, or yesterday (default: today)"
        ),
    )
    @app_commands.choices(game=GAME_CHOICES)
    async def daily_board(
        self, interaction: discord.Interaction[Any], game: str,
        day: app_commands.Range[str, 1, DAY_TYPED_LIMIT] | None = None,  # 2026-11-22, hier
    ) -> None:
        async with replying(interaction) as presenter:
            await self.core.daily_board(player_of(interaction), game, day, presenter=presenter)

    @app_commands.command(
        name=named("command", "forget-me"),
        description=locale_str("Delete your game and every result of yours, everywhere"),
    )
    async def forget_me(self, interaction: discord.Interaction[Any]) -> None:
        async with replying(interaction, private=True) as presenter:
            await self.core.forget_question(player_of(interaction), presenter=presenter)

    @app_commands.command(
        name=named("command", "reset-server-stats"),
        description=locale_str("Delete this server's statistics and boards (Manage Server only)"),
    )
    @app_commands.default_permissions(manage_guild=True)
    @app_commands.guild_only()  # dm_permission false, beside contexts [0]: both agree
    @app_commands.allowed_contexts(guilds=True, dms=False, private_channels=False)
    async def reset_server_stats(self, interaction: discord.Interaction[Any]) -> None:
        player, allowed = player_of(interaction), can_manage_server(interaction)
        async with replying(interaction, private=True) as presenter:
            await self.core.reset_question(player, allowed, presenter=presenter)
