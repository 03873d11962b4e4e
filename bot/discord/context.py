"""What an interaction carries for the core: who acts and where, the bot's ``Core``, and
the one way to answer (``respond``, which the bot hands to ``send.respond``).

Commands, buttons and menus all answer through ``respond``: going through the bot keeps
the buttons (which ``send`` must build views of) from importing ``send`` back.
"""

from __future__ import annotations

from collections.abc import Awaitable, Iterator
from contextlib import contextmanager
from typing import Any, Protocol

import discord

from ..core import Core
from ..replies import Player, Reply
from ..words.language import Words, speaking
from .tidy import Tidy


class Hub(Protocol):
    core: Core
    tidy: Tidy

    async def respond(
        self, interaction: discord.Interaction[Any], work: Awaitable[Reply], *, private: bool
    ) -> None: ...


def core_of(interaction: discord.Interaction[Any]) -> Core:
    hub: Hub = interaction.client
    return hub.core


def tidy_of(where: discord.Interaction[Any] | discord.Client) -> Tidy:
    """The bot's collapses and channel edits, paced within Discord's limits."""
    hub: Hub = where.client if isinstance(where, discord.Interaction) else where  # type: ignore[assignment]
    return hub.tidy


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


async def respond(
    interaction: discord.Interaction[Any], work: Awaitable[Reply], *, private: bool = False
) -> None:
    """Answer ``interaction`` with the reply ``work`` gives (see ``send.respond``)."""
    hub: Hub = interaction.client
    await hub.respond(interaction, work, private=private)
