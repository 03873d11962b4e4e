"""How the core's replies reach Discord: ``replying(interaction)`` gives the ``Presenter``
of one interaction, and every command and press makes its one call of the core inside it.

A command posts a board or message as a new message; a press (button, menu) edits the
pressed message in place — unless the reply is for the player alone and the pressed
message is public (a board posted before its player made boards private): then the public
message says only that the board went private, and the board comes to the player alone.
Notes go to the player alone (ephemeral). The core usually answers in milliseconds and the
interaction is answered in one call; if it has not answered after ``DEFER_AFTER_S`` the
interaction is deferred first, so Discord's 3-second deadline never shows the player "This
interaction failed". Anything that goes wrong while answering is logged and the player
told privately. Whatever this module says itself, it says in the language of whoever made
the interaction.

Messages other than the interaction's own (an earlier board collapsed, a challenge's
message updated) are edited through ``Tidy``, within Discord's rate limits.
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import logging
from collections.abc import AsyncIterator
from typing import Any

import discord

from ..presenter import Posted
from ..replies import Board, LostBoard, Reply
from ..replies.text import Text
from ..words.language import N_, _
from ..words.phrases import sorry
from .context import serves_activity, speaking_to, tidy_of
from .edits import ChannelEdits
from .limits import ALT_TEXT_LIMIT, cut
from .markdown import fit
from .tidy import TOKEN_LIFETIME_S, TOKEN_MARGIN_S
from .views import board_view, challenge_view, question_view

log = logging.getLogger(__name__)

DEFER_AFTER_S = 1.5
AMEND_WITHIN_S = TOKEN_LIFETIME_S - TOKEN_MARGIN_S  # an amendment edits through the token
COLLAPSED = N_("🂠 An earlier board — the newest one is below.")
GONE_PRIVATE = N_("🂠 A board its player now keeps private.")
_THINKING, _NOTE = "thinking", "note"  # what an interaction's first response was


@contextlib.asynccontextmanager
async def replying(
    interaction: discord.Interaction[Any], *, private: bool = False
) -> AsyncIterator[InteractionReplies]:
    """The presenter that answers ``interaction``, for the one call of the core made inside
    this block. ``private``: the answer is expected to be for the player alone, so a
    deferral ("thinking…") is private too. A failure is logged and the player told."""
    replies = InteractionReplies(interaction, private=private)
    with speaking_to(interaction):
        try:
            yield replies
        except Exception:
            await replies.settle(quietly=True)
            await apologise(interaction)
        finally:
            replies.stop_waiting()


class InteractionReplies(ChannelEdits):
    """The ``Presenter`` of one interaction."""

    source = "discord"
    awaits_verdict = False  # the solver's verdict comes when it comes: ``amend``
    refreshes_boards = False  # the board shown is the live one in its channel
    shows_pictures = True
    amends_within: float | None = AMEND_WITHIN_S  # the interaction's token, with room to spare

    def __init__(self, interaction: discord.Interaction[Any], *, private: bool) -> None:
        super().__init__(tidy_of(interaction))
        self.interaction = interaction
        self.private = private
        self._press = interaction.type is discord.InteractionType.component
        self._first: str | None = None  # the response given so far: none, thinking or a note
        self._board_at: int | None = None  # the followup the board went to (None: original)
        self._deferral: asyncio.Task[None] | None = None
        loop = asyncio.get_running_loop()
        self._timer = loop.call_later(DEFER_AFTER_S, self._defer_now)

    # -- the reply ---------------------------------------------------------------------

    async def show(self, reply: Reply) -> Posted | None:
        await self.settle()
        posted, original, note = await self._show(reply)
        if reply.board is not None:
            self._board_at = None if original else posted
        if note is not None:
            await tell_privately(self.interaction, note)
        if reply.board is not None and not reply.board.private:
            if posted is not None:
                self.tidy.posted(posted, self.interaction, original=original)
            elif self._press and self.interaction.message is not None:  # updated in place
                self.tidy.posted(self.interaction.message.id, self.interaction, original=True)
        channel_id = self.interaction.channel_id
        return None if posted is None or channel_id is None else Posted(channel_id, posted)

    async def _show(self, reply: Reply) -> tuple[int | None, bool, Text | None]:
        """The reply shown: the new message's id (None: none was posted), whether it is the
        interaction's original response, and the note still to tell."""
        if reply.board is None and reply.message is None:
            if reply.note is not None and not self._press:  # the note is the answer
                await self._answer_command(fit(reply.note), [], {}, alone=True)
                return None, True, None
            if self._first is not None and not self._press:
                await self.interaction.delete_original_response()  # no "thinking…" stays
            return None, True, reply.note
        content, files, view, alone = _parts(reply, serves_activity(self.interaction))
        shown: dict[str, Any] = {"allowed_mentions": _mentions(reply)}
        if view is not None or self._press:
            shown["view"] = view  # a press's None: the pressed message's controls go
        if not self._press:
            posted, original = await self._answer_command(content, files, shown, alone=alone)
            return posted, original, reply.note
        if reply.posts:  # a new message; the pressed one stays
            if self._first is None:
                callback = await self.interaction.response.send_message(
                    content, files=files, ephemeral=alone, **shown)
                return callback.message_id, True, reply.note
            message = await self.interaction.followup.send(
                content, files=files, ephemeral=alone, wait=True, **shown)
            return message.id, False, reply.note
        if alone and not _is_private(self.interaction.message):
            # Never show a private reply in the public message pressed: that message says
            # the board went private, and the reply goes to the player alone.
            await self._edit_pressed(content=fit(_(GONE_PRIVATE)), attachments=[], view=None)
            message = await self.interaction.followup.send(
                content, files=files, ephemeral=True, wait=True, **shown)
            return message.id, False, reply.note
        await self._edit_pressed(content=content, attachments=files, **shown)
        return None, True, reply.note

    async def _answer_command(
        self, content: str, files: list[discord.File], shown: dict[str, Any], *, alone: bool
    ) -> tuple[int, bool]:
        """A command's answer, as its original response while that suits: the new message's
        id, and whether it is the original response."""
        response = self.interaction.response
        if self._first is None:
            callback = await response.send_message(content, files=files, ephemeral=alone,
                                                   **shown)
            assert callback.message_id is not None
            return callback.message_id, True
        seen_alone = self._first == _NOTE or self.private
        if seen_alone == alone:  # "thinking…" or the note to wait becomes the answer
            edited = await self.interaction.edit_original_response(
                content=content, attachments=files, **shown)
            return edited.id, True
        # The first response was shown to the wrong audience: replace it.
        await self.interaction.delete_original_response()
        message = await self.interaction.followup.send(
            content, files=files, ephemeral=alone, wait=True, **shown)
        return message.id, False

    async def _edit_pressed(self, **changes: Any) -> None:
        if self._first is None:
            await self.interaction.response.edit_message(**changes)
        else:
            await self.interaction.edit_original_response(**changes)

    # -- after the reply ----------------------------------------------------------------

    async def wait(self, text: Text) -> None:
        """Tell the player at once, privately, that their answer waits its turn (a replay
        behind others): as the interaction's response, which the answer then follows;
        after a deferral, as a private follow-up."""
        try:
            if self.interaction.response.is_done():
                await self.interaction.followup.send(fit(text), ephemeral=True)
                return
            self._first = _NOTE  # before the call: a late deferral must not follow
            await self.interaction.response.send_message(fit(text), ephemeral=True)
        except discord.HTTPException:  # the answer still comes; only the note is lost
            if self._first == _NOTE:
                self._first = None
            log.warning("could not tell user %s to wait", self.interaction.user.id,
                        exc_info=True)

    async def amend(self, amended: LostBoard) -> None:
        changes: dict[str, Any] = {
            "content": fit(amended.text),
            "attachments": [_picture(amended.png, amended.filename, amended.alt_text)],
        }
        if self._board_at is None:
            await self.interaction.edit_original_response(**changes)
        else:
            await self.interaction.followup.edit_message(self._board_at, **changes)

    async def collapse(self, channel_id: int, message_id: int) -> None:
        """In the background (``Tidy``): through the interaction that posted the earlier
        board while its token lives, else through the channel's route, paced, where the
        bot may edit the channel's messages."""
        self.tidy.collapse(channel_id, message_id, fit(_(COLLAPSED)),
                           channel_route=_bot_is_in(self.interaction))

    async def refresh(self, channel_id: int, message_id: int, board: Board) -> None:
        """Never asked (``refreshes_boards``)."""

    # -- deferring ----------------------------------------------------------------------

    def _defer_now(self) -> None:
        self._deferral = asyncio.get_running_loop().create_task(self._defer())

    async def _defer(self) -> None:
        if self._first is not None or self.interaction.response.is_done():
            return  # answered already, by the note that says to wait
        if self._press:
            await self.interaction.response.defer()  # "deferred update": the message stays
        else:
            await self.interaction.response.defer(thinking=True, ephemeral=self.private)
        self._first = _THINKING

    async def settle(self, *, quietly: bool = False) -> None:
        """No deferral starts from now on, and one under way has ended: what was said to
        Discord is settled before anything more is said (``quietly``: whatever its end)."""
        self._timer.cancel()
        if self._deferral is not None:
            if quietly:
                with contextlib.suppress(Exception):
                    await self._deferral
            else:
                await self._deferral

    def stop_waiting(self) -> None:
        self._timer.cancel()


def _picture(png: bytes, filename: str, alt_text: str) -> discord.File:
    """An attachment with its description, which screen readers read (Discord takes
    1,024 characters: ``render.alt_text`` words a board's within it; anything longer is
    cut here)."""
    return discord.File(io.BytesIO(png), filename=filename,
                        description=cut(alt_text, ALT_TEXT_LIMIT) or None)


def _parts(
    reply: Reply, play_by_hand: bool
) -> tuple[str, list[discord.File], discord.ui.View | None, bool]:
    """Content, files, view and whether it is for the player alone; ``play_by_hand``: a
    board carries the button that opens the Activity."""
    if reply.board is not None:
        board = reply.board
        files = [_picture(board.png, board.filename, board.alt_text)]
        return (fit(board.text), files, board_view(board, play_by_hand=play_by_hand),
                board.private)
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


async def tell_privately(interaction: discord.Interaction[Any], text: Text | str) -> None:
    """Send ``text`` to the player alone: as the answer, or after it if one was given."""
    if interaction.response.is_done():
        await interaction.followup.send(fit(text), ephemeral=True)
    else:
        await interaction.response.send_message(fit(text), ephemeral=True)
