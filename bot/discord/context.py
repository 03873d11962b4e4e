"""What an interaction carries for the core: who acts and where, in which language, and
the bot's ``Core`` and ``Tidy`` (a press reaches neither through a cog), and whether the bot
serves the Activity."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any, Protocol

import discord

from ..core import Core
from ..replies import Player
from ..words.language import Words, speaking
from .tidy import Tidy


class _Bot(Protocol):
    """What ``SolitaireBot`` holds for its interactions (named here, not imported: the bot
    imports everything that answers them)."""

    core: Core
    tidy: Tidy
    serves_activity: bool


def core_of(interaction: discord.Interaction[Any]) -> Core:
    bot: _Bot = interaction.client
    return bot.core


def tidy_of(interaction: discord.Interaction[Any]) -> Tidy:
    """The bot's collapses and channel edits, paced within Discord's limits."""
    bot: _Bot = interaction.client
    return bot.tidy


def serves_activity(interaction: discord.Interaction[Any]) -> bool:
    """Whether the bot serves the Activity (its page is set up): boards then carry the
    button that opens it."""
    bot: _Bot = interaction.client
    return bot.serves_activity


def player_of(interaction: discord.Interaction[Any]) -> Player:
    """Who acts, where, and in which language: the player's Discord language (what they
    alone read) and, in a server, the server's (what everyone there reads)."""
    guild_locale = interaction.guild_locale
    return Player(
        user_id=interaction.user.id,
        guild_id=interaction.guild_id,
        language=str(interaction.locale),
        server_language=None if guild_locale is None else str(guild_locale),
    )


@contextmanager
def speaking_to(interaction: discord.Interaction[Any]) -> Iterator[Words]:
    """Speak the language of whoever made ``interaction``: for the adapter's own words
    (a refusal of a stranger's press, an apology)."""
    with speaking(str(interaction.locale)) as words:
        yield words


def can_manage_server(interaction: discord.Interaction[Any]) -> bool:
    """Manage Server, as Discord resolved the member's permissions for this interaction."""
    return interaction.guild_id is not None and interaction.permissions.manage_guild
