"""The one way a reply reaches Discord: ``respond(interaction, work)``.

A command posts a board or message as a new message; a press (button, menu) edits the
pressed message in place — unless the reply is for the player alone and the pressed
message is public (a board posted before its player made boards private): then the public
message says only that the board went private, and the board comes to the player alone.
Notes go to the player alone (ephemeral). The core usually
answers in milliseconds and the interaction is answered in one call; if it has not
answered after ``DEFER_AFTER_S`` the interaction is deferred first, so Discord's
3-second deadline never shows the player "This interaction failed". Anything that goes
wrong while answering is logged and the player told privately. Whatever this module says
itself, it says in the language of whoever made the interaction.

After a board is shown, the solver looks at it in the background; if it proves that no
win is possible, the message's text is amended here — outside any player's lock.
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import logging
from collections.abc import Awaitable
from typing import Any, TypeVar

import discord

from render.alt_text import LIMIT

from ..replies import Amendment, Board, Reply, Update
from ..words.language import N_, _
from ..words.phrases import sorry
from .components import board_view, challenge_view, question_view
from .context import core_of, speaking_to, tidy_of

log = logging.getLogger(__name__)

DEFER_AFTER_S = 1.5
CONTENT_LIMIT = 2000  # Discord's most characters in a message
COLLAPSED = N_("🂠 An earlier board — the newest one is below.")
GONE_PRIVATE = N_("🂠 A board its player now keeps private.")
WAITED = "solitaire:waited"  # in an interaction's extras: its response said to wait
T = TypeVar("T")


async def in_time(
    interaction: discord.Interaction[Any], work: Awaitable[T], *, private: bool = False
) -> tuple[T, bool]:
    """The reply, and whether the interaction had to be deferred while waiting for it.

    A command's deferral shows "thinking…" publicly, or to the player alone if ``private``
    (when the answer is known to be private). The work runs here, in the interaction's
    own task; only a deferral, when it is late, is a task of its own."""
    loop = asyncio.get_running_loop()
    deferral: list[asyncio.Task[None]] = []
    timer = loop.call_later(
        DEFER_AFTER_S, lambda: deferral.append(loop.create_task(_defer(interaction, private)))
    )
    try:
        result = await work
    except BaseException:
        timer.cancel()
        if deferral:  # what was said to Discord is settled before the failure is told
            with contextlib.suppress(Exception):
                await deferral[0]
        raise
    timer.cancel()
    if not deferral:
        return result, False
    await deferral[0]
    return result, True


async def _defer(interaction: discord.Interaction[Any], private: bool) -> None:
    if interaction.extras.get(WAITED):  # answered already, by the note that says to wait
        return
    if interaction.type is discord.InteractionType.component:
        await interaction.response.defer()  # "deferred update": the pressed message stays
    else:
        await interaction.response.defer(thinking=True, ephemeral=private)


async def tell_waiting(interaction: discord.Interaction[Any], text: str) -> None:
    """Tell the player at once, privately, that their answer waits its turn (a replay behind
    others): as the interaction's response, which the answer then follows (``_respond``);
    after a deferral, as a private follow-up."""
    try:
        if interaction.response.is_done():
            await interaction.followup.send(fit(text), ephemeral=True)
            return
        interaction.extras[WAITED] = True  # before the call: a late deferral must not follow
        await interaction.response.send_message(fit(text), ephemeral=True)
    except discord.HTTPException:  # the answer still comes; only the note to wait is lost
        interaction.extras.pop(WAITED, None)
        log.warning("could not tell user %s to wait", interaction.user.id, exc_info=True)


def _picture(png: bytes, filename: str, alt_text: str) -> discord.File:
    """An attachment with its description, which screen readers read (Discord takes
    ``LIMIT``, 1,024 characters: ``render.alt_text`` words the pictures' within it)."""
    return discord.File(io.BytesIO(png), filename=filename,
                        description=alt_text[:LIMIT] or None)


def fit(text: str) -> str:
    """Text within Discord's limit for a message. The core keeps within it (echoed input is
    cut short where it is worded); this is the last guard, and says so in the log."""
    if len(text) <= CONTENT_LIMIT:
        return text
    log.warning("a reply of %d characters was cut to Discord's %d", len(text), CONTENT_LIMIT)
    return text[: CONTENT_LIMIT - 1] + "…"


def _parts(reply: Reply) -> tuple[str, list[discord.File], discord.ui.View | None, bool]:
    """Content, files, view and whether it is for the player alone."""
    if reply.board is not None:
        board = reply.board
        files = [_picture(board.png, board.filename, board.alt_text)]
        return fit(board.text), files, board_view(board), board.private
    message = reply.message
    assert message is not None
    files = ([] if message.image is None
             else [_picture(message.image, message.filename, message.alt_text)])
    view: discord.ui.View | None = None
    if message.question is not None:
        view = question_view(message.question)
    elif message.challenge is not None:
        view = challenge_view(message.challenge)
    return fit(message.text), files, view, message.private


def _mentions(reply: Reply) -> discord.AllowedMentions:
    """Whom the message may notify: the member a challenge calls on, else nobody."""
    ping = reply.message.ping if reply.message is not None else None
    if ping is None:
        return discord.AllowedMentions.none()
    return discord.AllowedMentions(users=[discord.Object(ping)], everyone=False, roles=False)


async def respond(
    interaction: discord.Interaction[Any], work: Awaitable[Reply], *, private: bool = False
) -> None:
    """Show the reply to ``interaction``: a command's as new messages, a press's by editing
    the pressed message (or as a new message, for a reply that ``posts``). ``private``: the
    answer is expected to be for the player alone, so a deferral ("thinking…") is private
    too. Then the messages the reply ``updates``, wherever they are. All in the language
    of whoever made the interaction, and so is the background work it starts (tidying,
    the solver's look at the board)."""
    with speaking_to(interaction):
        await _respond(interaction, work, private=private)


async def _respond(
    interaction: discord.Interaction[Any], work: Awaitable[Reply], *, private: bool
) -> None:
    try:
        reply, deferred = await in_time(interaction, work, private=private)
        press = interaction.type is discord.InteractionType.component
        note = reply.note
        posted: int | None = None  # a new message's id
        original = True  # whether it is the interaction's original response (else a followup)
        board_at: int | None = None  # the followup a board went to (None: the original)
        if reply.board is not None or reply.message is not None:
            content, files, view, alone = _parts(reply)
            shown: dict[str, Any] = {} if view is None and not press else {"view": view}
            shown["allowed_mentions"] = _mentions(reply)
            if press and reply.posts:  # a new message; the pressed one stays
                if deferred:
                    board_at = posted = (await interaction.followup.send(
                        content, files=files, ephemeral=alone, wait=True, **shown
                    )).id
                    original = False
                else:
                    posted = (await interaction.response.send_message(
                        content, files=files, ephemeral=alone, **shown
                    )).message_id
            elif press and alone and not _is_private(interaction.message):
                # Never show a private reply in the public message pressed: that message
                # says the board went private, and the reply goes to the player alone.
                if deferred:
                    await interaction.edit_original_response(
                        content=_(GONE_PRIVATE), attachments=[], view=None
                    )
                else:
                    await interaction.response.edit_message(
                        content=_(GONE_PRIVATE), attachments=[], view=None
                    )
                board_at = (await interaction.followup.send(
                    content, files=files, ephemeral=True, wait=True, **shown
                )).id
            elif press and deferred:
                await interaction.edit_original_response(
                    content=content, attachments=files, **shown
                )
            elif press:
                await interaction.response.edit_message(
                    content=content, attachments=files, **shown
                )
            elif interaction.extras.get(WAITED):  # the response is the note to wait
                if alone:
                    posted = (await interaction.edit_original_response(
                        content=content, attachments=files, **shown
                    )).id
                else:  # for the channel: a message of its own, the private note gone
                    posted = (await interaction.followup.send(
                        content, files=files, ephemeral=False, wait=True, **shown
                    )).id
                    original = False
                    await interaction.delete_original_response()
            elif not deferred:
                callback = await interaction.response.send_message(
                    content, files=files, ephemeral=alone, **shown
                )
                posted = callback.message_id
            elif alone == private:
                posted = (await interaction.edit_original_response(
                    content=content, attachments=files, **shown
                )).id
            else:  # "thinking…" was shown to the wrong audience: replace it
                await interaction.delete_original_response()
                posted = (await interaction.followup.send(
                    content, files=files, ephemeral=alone, wait=True, **shown
                )).id
                original = False
        elif interaction.extras.get(WAITED) and not press:
            if note is not None:  # the note to wait becomes the answer
                await interaction.edit_original_response(content=fit(note))
                note = None
        elif deferred and not press:
            if private and note is not None:  # the private "thinking…" becomes the note
                await interaction.edit_original_response(content=fit(note))
                note = None
            else:  # a note must not stay public: drop the public "thinking…"
                await interaction.delete_original_response()
        if reply.board is not None:
            look_for_a_win(interaction, reply.board, board_at)
        if note is not None:
            await tell_privately(interaction, note)
        challenge = reply.message.challenge if reply.message is not None else None
        if challenge is not None and posted is not None and interaction.channel_id:
            await core_of(interaction).challenge_posted(
                challenge.challenge_id, interaction.channel_id, posted
            )
        if reply.updates:
            await apply_updates(interaction.client, reply.updates)
        if reply.board is not None and not reply.board.private:
            if posted is not None:
                tidy_of(interaction).posted(posted, interaction, original=original)
                await collapse_earlier(interaction, reply.board, posted)
            elif press and interaction.message is not None:  # the board, updated in place
                tidy_of(interaction).posted(interaction.message.id, interaction, original=True)
    except Exception:
        await apologise(interaction)


async def apply_updates(client: discord.Client, updates: tuple[Update, ...]) -> None:
    """Bring messages posted earlier up to date (a challenge's): one plain PATCH each,
    through the channel's route, within the fleet's budget for such edits (``Tidy``). A
    message gone or out of reach (the bot cannot see that channel) is left as it is."""
    for update in updates:
        view = challenge_view(update.controls) if update.controls is not None else None
        body = {"content": fit(update.text),
                "components": view.to_components() if view is not None else [],
                "allowed_mentions": {"parse": []}}
        await tidy_of(client).edit_now(update.channel_id, update.message_id, body)


async def collapse_earlier(interaction: discord.Interaction[Any], board: Board,
                          posted: int) -> None:
    """One live board per player and channel: the board ``posted`` replaces is collapsed
    to one line, its picture and buttons dropped, in the background (``Tidy``: through the
    interaction that posted it while its token lives, else through the channel's route,
    paced, where the bot may edit the channel's messages)."""
    channel_id = interaction.channel_id
    if channel_id is None:
        return
    try:
        previous = await core_of(interaction).board_posted(board.owner_id, channel_id, posted)
    except Exception:
        if not interaction.client.is_closed():  # shutting down: boards stay as they are
            log.warning("could not look up the earlier board in channel %s", channel_id,
                        exc_info=True)
        return
    if previous is not None:
        tidy_of(interaction).collapse(channel_id, previous, _(COLLAPSED),
                                      channel_route=_bot_is_in(interaction))


def _is_private(message: discord.Message | None) -> bool:
    """Whether a pressed message is seen by its player alone (a press without a message,
    which Discord never sends, counts as public: nothing private is shown there)."""
    return message is not None and message.flags.ephemeral


def _bot_is_in(interaction: discord.Interaction[Any]) -> bool:
    """Whether the bot itself may edit its messages here: a server it is installed in, or
    its own DMs with the player."""
    if interaction.guild_id is not None:
        return interaction.is_guild_integration()
    return bool(interaction.context.dm_channel)


def look_for_a_win(
    interaction: discord.Interaction[Any], board: Board, followup: int | None = None
) -> None:
    """Queue the board just shown for the solver; if it proves that no win is possible,
    the message's text is amended (never delaying the reply, never under a lock): the
    interaction's own message, or the ``followup`` the board went to."""

    async def amend(amended: Amendment) -> None:
        changes: dict[str, Any] = {
            "content": fit(amended.text),
            "attachments": [_picture(amended.png, amended.filename, amended.alt_text)],
        }
        if followup is None:
            await interaction.edit_original_response(**changes)
        else:
            await interaction.followup.edit_message(followup, **changes)

    core_of(interaction).board_shown(board, amend)


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
        await tell_privately(interaction, sorry())
    except discord.HTTPException:
        log.warning("could not send the apology for interaction %s", interaction.id)


async def tell_privately(interaction: discord.Interaction[Any], text: str) -> None:
    """Send ``text`` to the player alone: as the answer, or after it if one was given."""
    if interaction.response.is_done():
        await interaction.followup.send(fit(text), ephemeral=True)
    else:
        await interaction.response.send_message(fit(text), ephemeral=True)
