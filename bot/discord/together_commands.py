"""The commands for playing together: /challenge user game (its buttons are in
``components.py``) and /replay [user]. Each turns its options into one call of the core."""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands
from discord.app_commands import locale_str
from discord.ext import commands

from ..core import Core
from ..replies import Member
from .context import player_of
from .game_commands import GAME_CHOICES
from .send import replying
from .translator import named


class TogetherCommands(commands.Cog, name="Together"):
    def __init__(self, core: Core) -> None:
        self.core = core

    @app_commands.command(
        name=named("command", "challenge"),
        description=locale_str(
            "The same winnable deal for you both: the better result wins"
        ),
    )
    @app_commands.rename(user=named("option", "user"), game=named("option", "game"))
    @app_commands.describe(user=locale_str("Whom you challenge"),
                           game=locale_str("The game to play"))
    @app_commands.choices(game=GAME_CHOICES)
    @app_commands.guild_only()
    @app_commands.allowed_contexts(guilds=True, dms=False, private_channels=False)
    # A server with the bot in it: its message is edited as the challenge goes, for a day,
    # which only the bot itself can do (an interaction's own token lasts 15 minutes).
    @app_commands.allowed_installs(guilds=True, users=False)
    async def challenge(
        self, interaction: discord.Interaction[Any], user: discord.User, game: str
    ) -> None:
        opponent = _member(user, interaction)
        async with replying(interaction) as presenter:
            await self.core.challenge(player_of(interaction), opponent, game, presenter=presenter)

    @app_commands.command(
        name=named("command", "replay"),
        description=locale_str("A game move by move, as an animation to show the channel"),
    )
    @app_commands.rename(user=named("option", "user"))
    @app_commands.describe(
        user=locale_str("Whose last finished game on this server (your own game if left out)")
    )
    async def replay(
        self, interaction: discord.Interaction[Any], user: discord.User | None = None
    ) -> None:
        subject = None if user is None else _member(user, interaction)
        async with replying(interaction) as presenter:
            await self.core.replay(player_of(interaction), subject,
                                   limit=interaction.filesize_limit, presenter=presenter)


def _member(user: discord.User | discord.Member, interaction: discord.Interaction[Any]) -> Member:
    """A member as the core knows one. A user Discord did not resolve arrives as an id
    alone, and one outside the server as a user without a member: neither is a member.
    The bot itself is a bot whatever came with its id."""
    name = getattr(user, "display_name", None) or f"user {user.id}"
    me = interaction.client.user
    bot = bool(getattr(user, "bot", False)) or (me is not None and user.id == me.id)
    member = isinstance(user, discord.Member) and interaction.guild_id is not None
    return Member(user.id, name, bot=bot, member=member)
