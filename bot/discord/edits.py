"""Messages posted earlier, shown as they now are, with no interaction to answer: a
challenge's message the leader brings up to date (``ChannelEdits``, which posts a race's
result too), and a player's live
boards in channels after a move on the Activity's page (``BoardEdits``, what the page's
server is handed as its ``ChannelBoards``, in the bot's process or the page's own)."""

from __future__ import annotations

from ..replies import Board, Update
from ..replies.text import Text
from .limits import ALT_TEXT_LIMIT, cut
from .markdown import fit
from .tidy import Tidy, Upload
from .views import board_view, challenge_view


class ChannelEdits:
    """Messages posted earlier, shown as they now are: one plain PATCH each, through the
    channel's route, within the budget all processes share for such edits (``Tidy``). The leader's
    presenter for the challenges it closes, and the part of every interaction's."""

    def __init__(self, tidy: Tidy) -> None:
        self.tidy = tidy

    async def update(self, update: Update) -> None:
        view = challenge_view(update.controls) if update.controls is not None else None
        body = {"content": fit(update.text),
                "components": view.to_components() if view is not None else [],
                "allowed_mentions": {"parse": []}}
        await self.tidy.edit_now(update.channel_id, update.message_id, body)

    async def post(self, channel_id: int, text: Text) -> None:
        """A new message in a channel: a race's result, where its Activity was opened."""
        await self.tidy.post_now(channel_id, {"content": fit(text),
                                              "allowed_mentions": {"parse": []}})


class BoardEdits(ChannelEdits):
    """The player's live boards in channels, shown anew after a move made on the Activity's
    page (its server's ``ChannelBoards``): each one edit, through the interaction that posted
    it while its token lives (where this process posted it), else through the channel's
    route, paced within the shared budget; a newer edit of a board replaces one still
    waiting. The picture, text and controls are those a board posted here has."""

    async def refresh(self, channel_id: int, message_id: int, board: Board) -> None:
        body = {"content": fit(board.text), "components": board_view(board).to_components(),
                "attachments": [{"id": 0, "filename": board.filename,
                                 "description": cut(board.alt_text, ALT_TEXT_LIMIT) or None}],
                "allowed_mentions": {"parse": []}}
        self.tidy.refresh(channel_id, message_id, body, Upload(board.filename, board.png))
