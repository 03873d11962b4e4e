"""The statistics slash commands and their two confirmation buttons: each turns its options
into one call of ``StatsFlow`` and shows the ``Answer``.

/stats [user] [game] [scope], /leaderboard [game] [period], /daily game,
/daily-board game [day], /forget-me, /reset-server-stats.

Answers name players as ``<@id>`` mentions and are sent with no mention allowed, so a
leaderboard never pings anyone. The confirmation buttons are ``DynamicItem``s
(``sol:ask:<forget|reset>:<yes|no>:<owner id>``), so they still work after a restart, and
only their owner may press them. Resetting a server needs Manage Server: the command is
hidden from others by default, and the permission is checked again on the command and on
the button, since a server can change who sees a command.
"""

from __future__ import annotations

import io
import logging
import re
from collections.abc import Awaitable
from typing import Any, Protocol

import discord
from discord import app_commands
from discord.ext import commands

from engine import GAMES

from .controls import player_of
from .respond import answer_command, apologise, in_time
from .standings import PERIODS
from .stats_flow import (
    EVERYWHERE,
    FORGET,
    RESET,
    SERVER,
    Answer,
    Person,
    Question,
    StatsFlow,
)

log = logging.getLogger(__name__)

NO_PINGS = discord.AllowedMentions.none()
GAME_CHOICES = [app_commands.Choice(name=name, value=game_id) for game_id, name in GAMES.items()]
SCOPE_CHOICES = [
    app_commands.Choice(name="this server", value=SERVER),
    app_commands.Choice(name="all servers (shown to you alone)", value=EVERYWHERE),
]
PERIOD_CHOICES = [
    app_commands.Choice(name={"week": "last 7 days", "month": "last 30 days"}.get(p, "all time"),
                        value=p)
    for p in PERIODS
]


class HasStats(Protocol):
    stats: StatsFlow


def stats_of(interaction: discord.Interaction[Any]) -> StatsFlow:
    client: HasStats = interaction.client  # SolitaireBot
    return client.stats


def can_manage_server(interaction: discord.Interaction[Any]) -> bool:
    """Manage Server, as Discord resolved the member's permissions for this interaction."""
    return interaction.guild_id is not None and interaction.permissions.manage_guild


async def answer(
    interaction: discord.Interaction[Any], work: Awaitable[Answer], *, private: bool = False
) -> None:
    """Send an Answer as the reply to a command. ``private``: the answer is expected to be
    for the player alone, so a deferral ("thinking…") is private too."""
    try:
        reply, deferred = await in_time(interaction, work, ephemeral=private)
        extra: dict[str, Any] = {}
        if reply.question is not None:
            extra["view"] = question_view(reply.question)
        files = [discord.File(io.BytesIO(reply.png), reply.filename)] if reply.png else []
        if not deferred:
            await interaction.response.send_message(
                reply.text, files=files, ephemeral=reply.private, allowed_mentions=NO_PINGS,
                **extra,
            )
        elif reply.private == private:
            await interaction.edit_original_response(
                content=reply.text, attachments=files, allowed_mentions=NO_PINGS, **extra
            )
        else:  # "thinking…" was shown to the wrong audience: replace it
            await interaction.delete_original_response()
            await interaction.followup.send(
                reply.text, files=files, ephemeral=reply.private, allowed_mentions=NO_PINGS,
                **extra,
            )
    except Exception:
        await apologise(interaction)


class StatsCommands(commands.Cog, name="Statistics"):
    def __init__(self, stats: StatsFlow) -> None:
        self.stats_flow = stats

    @app_commands.command(name="stats", description="A player's record: wins, streaks, bests")
    @app_commands.describe(
        user="Whose record (yours if left out)",
        game="One game only (all games if left out)",
        scope="This server (default), or all servers — your own record, shown to you alone",
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
        subject = Person(who.id, who.display_name, bot=who.bot)
        work = self.stats_flow.stats(player_of(interaction), subject, game, scope)
        await answer(interaction, work, private=scope == EVERYWHERE)

    @app_commands.command(
        name="leaderboard", description="This server's best players, ranked fairly"
    )
    @app_commands.describe(
        game="One game only (all games if left out)",
        period="Which games count (all time if left out)",
    )
    @app_commands.choices(game=GAME_CHOICES, period=PERIOD_CHOICES)
    async def leaderboard(
        self, interaction: discord.Interaction[Any], game: str | None = None, period: str = "all"
    ) -> None:
        await answer(interaction, self.stats_flow.leaderboard(player_of(interaction), game, period))

    @app_commands.command(
        name="daily", description="Today's deal, the same for everyone; your first try is scored"
    )
    @app_commands.describe(game="The game whose daily deal to play")
    @app_commands.choices(game=GAME_CHOICES)
    async def daily(self, interaction: discord.Interaction[Any], game: str) -> None:
        await answer_command(interaction, self.stats_flow.daily(player_of(interaction), game))

    @app_commands.command(
        name="daily-board", description="Who won a day's daily deal here, in the fewest moves"
    )
    @app_commands.describe(
        game="The game whose daily deal",
        day="A UTC day as year-month-day, like 2026-11-22, or yesterday (today if left out)",
    )
    @app_commands.choices(game=GAME_CHOICES)
    async def daily_board(
        self, interaction: discord.Interaction[Any], game: str, day: str | None = None
    ) -> None:
        await answer(interaction, self.stats_flow.daily_board(player_of(interaction), game, day))

    @app_commands.command(
        name="forget-me", description="Delete your game and every result of yours, everywhere"
    )
    async def forget_me(self, interaction: discord.Interaction[Any]) -> None:
        await answer(interaction, _ready(self.stats_flow.forget_question(player_of(interaction))),
                     private=True)

    @app_commands.command(
        name="reset-server-stats",
        description="Delete this server's statistics and boards (Manage Server only)",
    )
    @app_commands.default_permissions(manage_guild=True)
    @app_commands.guild_only()
    async def reset_server_stats(self, interaction: discord.Interaction[Any]) -> None:
        player, allowed = player_of(interaction), can_manage_server(interaction)
        work = self.stats_flow.reset_question(player, allowed)
        await answer(interaction, work, private=True)


async def _ready(reply: Answer) -> Answer:
    return reply


class QuestionButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=(
    rf"sol:ask:(?P<kind>{FORGET}|{RESET}):(?P<answer>yes|no):(?P<owner>\d+)"
)):
    """Yes or no to a question of ``StatsFlow`` (forget me, reset the server)."""

    def __init__(self, kind: str, yes: bool, owner_id: int, label: str = "") -> None:
        super().__init__(
            discord.ui.Button(
                label=label or ("Yes" if yes else "No"),
                style=discord.ButtonStyle.danger if yes else discord.ButtonStyle.secondary,
                custom_id=f"sol:ask:{kind}:{'yes' if yes else 'no'}:{owner_id}",
            ),
            row=0,
        )
        self.kind = kind
        self.yes = yes
        self.owner_id = owner_id

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Item[Any],
        match: re.Match[str],
        /,
    ) -> QuestionButton:
        return cls(match["kind"], match["answer"] == "yes", int(match["owner"]))

    async def interaction_check(self, interaction: discord.Interaction[Any], /) -> bool:
        if interaction.user.id == self.owner_id:
            return True
        try:
            await interaction.response.send_message(
                f"That question was for <@{self.owner_id}>, not for you.",
                ephemeral=True,
                allowed_mentions=NO_PINGS,
            )
        except discord.HTTPException:
            log.exception("could not refuse a stranger's press (user %s)", interaction.user.id)
        return False

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        stats = stats_of(interaction)
        player = player_of(interaction)
        if not self.yes:
            work = _ready(Answer(text="Nothing was deleted.", private=True))
        elif self.kind == FORGET:
            work = stats.forget(player)
        else:
            work = stats.reset(player, can_manage_server(interaction))
        try:
            reply, deferred = await in_time(interaction, work)
            if deferred:
                await interaction.edit_original_response(
                    content=reply.text, view=None, allowed_mentions=NO_PINGS
                )
            else:
                await interaction.response.edit_message(
                    content=reply.text, view=None, allowed_mentions=NO_PINGS
                )
        except Exception:
            await apologise(interaction)


STATS_ITEMS = (QuestionButton,)


def question_view(question: Question) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(QuestionButton(question.kind, True, question.owner_id, question.yes))
    view.add_item(QuestionButton(question.kind, False, question.owner_id, question.no))
    return view
