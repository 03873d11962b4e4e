"""The fastest a discord.py bot can answer here: ``python -m tests.e2e.ceiling_bot``.

A minimal bot with the solitaire bot's ``/new`` and ``/move`` (the same options) that answers
each with one fixed board-sized PNG, a board's text and its controls (six buttons, a move
menu): no game, no database, no drawing. ``bench_bot --ceiling`` runs it against the fake
Discord like the real bot, so its figures are what discord.py, the fake and the players
allow on this machine. Settings from the environment, as ``launch_bot`` reads them.

With ``CEILING_DRAWS=1`` it is the bot that only draws and sends the boards: it keeps each
player's game in memory (the engine's, no database, no solver, no collapse of earlier
boards), plays the move and draws that position's picture as the real bot does (in as many
drawing processes as the real bot's default), and sends it. ``bench_bot --compare`` holds
the real bot to this one (issue 34's goal: 0.9 of its moves a second).

With ``CEILING_COLLAPSES=1`` as well, it also collapses each player's earlier board as the
real bot does (one PATCH through the webhook of the interaction that posted it, in the
background, the answer not waiting): the least a bot that keeps its channel tidy can cost
here. ``bench_bot --compare`` runs it too, so that the collapse's own price is measured
apart from the rest of the bot.
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import os
import signal
from concurrent.futures import ProcessPoolExecutor
from multiprocessing import get_context
from typing import Any

import aiohttp
import discord
from discord import app_commands
from discord.ext import commands
from discord.http import Route

from bot.config import default_render_processes
from engine import GAMES, Game, new_game
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


DRAWS = os.environ.get("CEILING_DRAWS") == "1"
GAMES_PLAYED: dict[int, Game] = {}  # player -> their game, with CEILING_DRAWS
DRAWING = (ProcessPoolExecutor(default_render_processes(), mp_context=get_context("forkserver"))
           if DRAWS else None)


COLLAPSES = os.environ.get("CEILING_COLLAPSES") == "1"
EARLIER: dict[int, str] = {}  # player -> the token that posted their board, with COLLAPSES
COLLAPSING: set[asyncio.Task[None]] = set()
SESSION: list[aiohttp.ClientSession] = []  # made in the running loop, once


def draw(game: Game) -> bytes:
    return render_png(game, last_move=game.last_move)


async def answer(interaction: discord.Interaction[Any], game: Game | None = None) -> None:
    png = PNG
    if game is not None and DRAWING is not None:
        png = await asyncio.get_running_loop().run_in_executor(DRAWING, draw, game)
    await interaction.response.send_message(
        TEXT,
        file=discord.File(io.BytesIO(png), filename="board.png", description=TEXT[:1024]),
        view=board_view(),
    )
    if COLLAPSES:
        earlier = EARLIER.pop(interaction.user.id, None)
        EARLIER[interaction.user.id] = interaction.token
        if earlier is not None:
            task = asyncio.get_running_loop().create_task(
                collapse(interaction.application_id, earlier))
            COLLAPSING.add(task)
            task.add_done_callback(COLLAPSING.discard)


async def collapse(application_id: int, token: str) -> None:
    """The earlier board, cut to a line: its picture and controls dropped."""
    if not SESSION:
        SESSION.append(aiohttp.ClientSession())
    url = f"{Route.BASE}/webhooks/{application_id}/{token}/messages/@original"
    body = {"content": "Played 7 3.", "attachments": [], "components": []}
    async with SESSION[0].patch(url, json=body) as response:
        await response.read()


@app_commands.command(name="new", description="Deal a new game of solitaire")
@app_commands.choices(game=GAME_CHOICES)
async def new(interaction: discord.Interaction[Any], game: str, deal: int | None = None) -> None:
    played = None
    if DRAWS:
        played = GAMES_PLAYED[interaction.user.id] = new_game(game, deal or 1)
    await answer(interaction, played)


@app_commands.command(name="move", description="Move a card")
@app_commands.rename(source="from", target="to")
async def move(
    interaction: discord.Interaction[Any], source: str, target: str | None = None
) -> None:
    played = GAMES_PLAYED.get(interaction.user.id) if DRAWS else None
    if played is not None:
        with contextlib.suppress(ValueError):  # an illegal move: the same board again
            played.play(f"{source} {target}" if target else source)
    await answer(interaction, played)


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

    async def close(self) -> None:
        for session in SESSION:
            await session.close()
        if DRAWING is not None:
            DRAWING.shutdown(cancel_futures=True)
        await super().close()


async def main() -> None:
    point_discord_at_fake()
    async with CeilingBot() as bot:
        # SIGTERM (the harness's stop) closes the bot, and so the drawing processes: killed
        # outright, the pool's forkserver and worker lived on.
        asyncio.get_running_loop().add_signal_handler(
            signal.SIGTERM, lambda: asyncio.ensure_future(bot.close()))
        await bot.start(os.environ["DISCORD_TOKEN"])


if __name__ == "__main__":
    asyncio.run(main())
