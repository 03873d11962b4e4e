"""The fastest a discord.py bot can answer here: ``python -m tests.e2e.ceiling_bot``.

A minimal bot with the solitaire bot's ``/new`` and ``/move`` (the same options) that answers
each with one fixed board-sized PNG, a board's text and its controls (six buttons, a move
menu): no game, no database, no drawing. ``bench_bot --ceiling`` runs it against the fake
Discord like the real bot, so its figures are what discord.py, the fake and the players
allow on this machine. Settings from the environment, as ``launch_bot`` reads them.
"""

from __future__ import annotations

import asyncio
import io
import os
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from engine import GAMES, new_game
from render import render_png

from .launch_bot import point_discord_at_fake

GAME_CHOICES = [app_commands.Choice(name=name, value=game_id) for game_id, name in GAMES.items()]
TEXT = "**Trefoil** · deal 10001 · 3 moves · 2 redeals left · 4/52 cards home\nPlayed 7 3."


def board_png() -> bytes:
    """A real board's picture, drawn once: the size of what the bot sends."""
    game = new_game("trefoil", 10_001)
    game.play(game.legal_moves()[0])
    return render_png(game, last_move=game.last_move)


PNG = board_png()


def board_view() -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    for i, label in enumerate(("Undo", "Redo", "To foundations", "Redeal", "Hint", "Auto-finish")):
        view.add_item(discord.ui.Button(label=label, custom_id=f"ceiling:{i}", row=i // 5))
    menu: discord.ui.Select[Any] = discord.ui.Select(custom_id="ceiling:menu", row=2)
    for n in range(12):
        menu.add_option(label=f"{n + 1} → {n + 2}: 7♣ onto 8♣", value=f"{n + 1} {n + 2}")
    view.add_item(menu)
    return view


async def answer(interaction: discord.Interaction[Any]) -> None:
    await interaction.response.send_message(
        TEXT,
        file=discord.File(io.BytesIO(PNG), filename="board.png", description=TEXT[:1024]),
        view=board_view(),
    )


@app_commands.command(name="new", description="Deal a new game of solitaire")
@app_commands.choices(game=GAME_CHOICES)
async def new(interaction: discord.Interaction[Any], game: str, deal: int | None = None) -> None:
    await answer(interaction)


@app_commands.command(name="move", description="Move a card")
@app_commands.rename(source="from", target="to")
async def move(
    interaction: discord.Interaction[Any], source: str, target: str | None = None
) -> None:
    await answer(interaction)


class CeilingBot(commands.Bot):
    def __init__(self) -> None:
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=discord.Intents(guilds=True),
            max_messages=None,
        )
        self.tree.add_command(new)
        self.tree.add_command(move)

    async def setup_hook(self) -> None:
        await self.tree.sync()


async def main() -> None:
    point_discord_at_fake()
    async with CeilingBot() as bot:
        await bot.start(os.environ["DISCORD_TOKEN"])


if __name__ == "__main__":
    asyncio.run(main())
