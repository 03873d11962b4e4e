"""The core's one way out: the ``Presenter`` each adapter implements.

An adapter makes one call into the core (``Core``) and hands it a presenter. The core does
the work and then drives everything the player and the channel see through it: the reply,
a board amended once the solver proves it lost, the player's earlier board collapsed, a
challenge's message brought up to date. Nothing calls the core back after the reply.

The Discord adapter answers an interaction (``bot/discord/send.py``); the console prints
(``bot/console/terminal.py``); the page's server answers a request (``bot/web/view.py``),
and as its boards are not in a channel, the core has it bring the player's live boards in
channels up to date (``refresh``). ``Channels`` is the part that needs no request: the leader
closing the day's challenges has no one to reply to, only messages to update.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from .replies import Board, LostBoard, Reply, Update
from .replies.text import Text


@dataclass(frozen=True)
class Posted:
    """Where a reply's board or message went as a new message: to collapse it when the next
    one comes, or to keep a challenge's message up to date."""

    channel_id: int
    message_id: int


class Channels(Protocol):
    async def update(self, update: Update) -> None:
        """Show a message posted earlier as it now is (a challenge's); a message gone or out
        of reach stays as it was."""


class Presenter(Channels, Protocol):
    # Where the requests it answers come from, for the metrics: "discord", "console" or
    # "page" (``ops.metrics.SOURCES``).
    source: str
    # True: the solver's look at each new board is awaited before the core returns, so its
    # verdict shows before the next input (the console). False: the look runs in the
    # background and ``amend`` comes when it ends, if ever (Discord).
    awaits_verdict: bool
    # True: a board shown here is not in a channel (the page), so when it changed the game,
    # the player's live board in each channel is shown anew through ``refresh``. False: a
    # board shown is itself the live one (Discord), or there are no channels (the console).
    refreshes_boards: bool
    # False: a board's picture is never shown here (the page lays out the cards itself), so
    # it is drawn only for the boards in channels that ``refresh`` shows.
    shows_pictures: bool
    # The seconds after a reply in which ``amend`` can still change what it showed (None:
    # any time). Discord's interaction token lives 15 minutes; a verdict later than this
    # is not looked for.
    amends_within: float | None

    async def show(self, reply: Reply) -> Posted | None:
        """Show ``reply`` to whoever asked: where its board or message went as a new message
        in a channel, if it did."""

    async def wait(self, text: Text) -> None:
        """Tell the player at once that their reply waits its turn; the reply follows."""

    async def amend(self, amended: LostBoard) -> None:
        """Show the board of the last reply as the solver found it: no win is possible."""

    async def collapse(self, channel_id: int, message_id: int) -> None:
        """The player's earlier board in this channel, replaced by a newer one: shrink it to
        one line (the newest board is the one to play)."""

    async def refresh(self, channel_id: int, message_id: int, board: Board) -> None:
        """The player's live board in this channel, shown as ``board`` (played elsewhere:
        the page); never a private board. Asked only where ``refreshes_boards``."""
