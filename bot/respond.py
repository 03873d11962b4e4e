"""Show a flow ``Reply`` as the answer to a Discord interaction.

A command posts its board as a new message; a press edits the pressed message in place.
Notes go to the player alone (ephemeral). The flow usually answers in milliseconds, and the
interaction is answered in one call; if it has not answered after ``DEFER_AFTER_S`` the
interaction is deferred first, so Discord's 3-second deadline never shows the player
"This interaction failed". Anything that goes wrong while answering is logged and, if the
interaction is still unanswered, answered with an apology.
"""

from __future__ import annotations

import asyncio
import io
import logging
from collections.abc import Awaitable
from typing import Any, TypeVar

import discord

from . import controls
from .flow import Board, Reply

log = logging.getLogger(__name__)

DEFER_AFTER_S = 1.5
SEND_APOLOGY = (
    "Sorry — something went wrong while answering. `/show` posts your current board."
)
T = TypeVar("T")
_background: set[asyncio.Task[None]] = set()  # verdict checks in flight (kept referenced)


def _file(board: Board) -> discord.File:
    return discord.File(io.BytesIO(board.png), filename=board.filename)


async def in_time(
    interaction: discord.Interaction[Any], work: Awaitable[T], *, ephemeral: bool = False
) -> tuple[T, bool]:
    """The reply, and whether the interaction had to be deferred while waiting for it.

    A command's deferral shows "thinking…" publicly, or to the player alone if
    ``ephemeral`` (when the answer is known to be private)."""
    task = asyncio.ensure_future(work)
    done, _ = await asyncio.wait({task}, timeout=DEFER_AFTER_S)
    if done:
        return task.result(), False
    if interaction.type is discord.InteractionType.component:
        await interaction.response.defer()  # "deferred update": the pressed message stays
    else:
        await interaction.response.defer(thinking=True, ephemeral=ephemeral)
    return await task, True


async def answer_command(interaction: discord.Interaction[Any], work: Awaitable[Reply]) -> None:
    """A slash command: a board is a new public message, a note is ephemeral."""
    try:
        reply, deferred = await in_time(interaction, work)
        if deferred:
            await _finish_deferred_command(interaction, reply)
            return
        send = interaction.response.send_message
        if reply.board is not None:
            board = reply.board
            await send(board.text, file=_file(board), view=controls.board_view(board))
            look_for_a_win(interaction, board)
        elif reply.offer is not None:
            await send(reply.offer.text, view=controls.offer_view(reply.offer))
        if reply.note is not None:
            await tell_privately(interaction, reply.note)
    except Exception:
        await apologise(interaction)


async def _finish_deferred_command(interaction: discord.Interaction[Any], reply: Reply) -> None:
    if reply.board is not None:
        board = reply.board
        await interaction.edit_original_response(
            content=board.text, attachments=[_file(board)], view=controls.board_view(board)
        )
        look_for_a_win(interaction, board)
    elif reply.offer is not None:
        offer = reply.offer
        await interaction.edit_original_response(
            content=offer.text, view=controls.offer_view(offer)
        )
    else:  # only a note: it must not stay public, so drop the "thinking" message
        await interaction.delete_original_response()
    if reply.note is not None:
        await interaction.followup.send(reply.note, ephemeral=True)


async def answer_press(interaction: discord.Interaction[Any], work: Awaitable[Reply]) -> None:
    """A button or menu press: a board replaces the pressed message, a note is ephemeral."""
    try:
        reply, deferred = await in_time(interaction, work)
        content: str | None = None
        view: discord.ui.View | None = None
        attachments: list[discord.File] = []
        if reply.board is not None:
            content, view = reply.board.text, controls.board_view(reply.board)
            attachments = [_file(reply.board)]
        elif reply.offer is not None:
            content, view = reply.offer.text, controls.offer_view(reply.offer)
        if view is not None:
            if deferred:
                await interaction.edit_original_response(
                    content=content, attachments=attachments, view=view
                )
            else:
                await interaction.response.edit_message(
                    content=content, attachments=attachments, view=view
                )
        if reply.board is not None:
            look_for_a_win(interaction, reply.board)
        if reply.note is not None:
            await tell_privately(interaction, reply.note)
    except Exception:
        await apologise(interaction)


def look_for_a_win(interaction: discord.Interaction[Any], board: Board) -> None:
    """In the background, let the solver look at the board just shown; if it proves that no
    win is possible, the flow has the message's text amended (never delaying the reply)."""

    async def amend(text: str) -> None:
        await interaction.edit_original_response(content=text)

    verdict = controls.flow_of(interaction).verdict(board, amend)
    task = asyncio.get_running_loop().create_task(verdict)
    _background.add(task)
    task.add_done_callback(_background.discard)


async def apologise(interaction: discord.Interaction[Any]) -> None:
    """Log the failure of answering ``interaction`` and tell the player privately."""
    data: dict[str, Any] = dict(interaction.data or {})
    log.exception(
        "answering interaction %s (%s %r) of user %s in guild %s failed",
        interaction.id,
        interaction.type.name,
        data.get("name") or data.get("custom_id"),
        interaction.user.id,
        interaction.guild_id,
    )
    try:
        await tell_privately(interaction, SEND_APOLOGY)
    except discord.HTTPException:
        log.warning("could not send the apology for interaction %s", interaction.id)


async def tell_privately(interaction: discord.Interaction[Any], text: str) -> None:
    """Send ``text`` to the player alone: as the answer, or after it if one was given."""
    if interaction.response.is_done():
        await interaction.followup.send(text, ephemeral=True)
    else:
        await interaction.response.send_message(text, ephemeral=True)
