"""Showing a reply, and what follows from it: the one path every call of the core takes
after its flow has answered (``Core`` hands each call's work here).

The flow's reply is guarded (``outcomes.guarded``: a failure is answered with the truth
about it), its board drawn where the presenter shows pictures, and shown; then the player's
boards in channels are shown anew, the solver looks at the new board (and an amendment
follows if no win is possible), a challenge's message is kept, messages elsewhere are
brought up to date and the earlier board in the channel is collapsed. Whether a board is
drawn is the presenter's to say (``Presenter.shows_pictures``), passed on as an argument
to whatever draws it, the solver's later amendment included.
"""

from __future__ import annotations

import contextlib
import dataclasses
import inspect
import logging
import time
from collections.abc import Awaitable

from ..ops.metrics import APOLOGISED, REFUSED, answered
from ..presenter import Posted, Presenter
from ..replies import Board, Player, Refused, Reply
from ..store import SavedGame
from ..store.boards import BoardStore
from ..store.database import StoreUnavailable
from ..words.language import speaking
from ..words.phrases import restarting
from .challenges import Challenges
from .game import GameFlow
from .outcomes import Answering, guarded, shown_after_saving
from .settings import PlayerSettings
from .verdicts import Verdicts

log = logging.getLogger(__name__)


class Showing:
    """Shows each reply through its presenter, and what follows from it."""

    def __init__(self, game: GameFlow, settings: PlayerSettings, verdicts: Verdicts,
                 challenges: Challenges, boards: BoardStore) -> None:
        self.game, self.settings, self.verdicts = game, settings, verdicts
        self.challenges, self.boards = challenges, boards
        self.answering = Answering()  # the replies being shown: closing lets them finish

    async def present(
        self, player: Player, presenter: Presenter, context: str, call: Awaitable[Reply], *,
        may_change_game: bool = True,
    ) -> None:
        """Do ``call`` and show its reply through ``presenter``, then what follows: the player's
        boards in channels shown anew, the solver's look at a new board, a challenge's
        message kept, messages brought up to date, the earlier board collapsed. In the
        player's language; a failure is answered with the truth about it (``guarded``).
        ``may_change_game``: False for a look at the game, which changes nothing."""
        with speaking(player.language), self.answering.showing():
            began = time.perf_counter()
            if self.answering.closing:  # the bot is stopping: nothing is begun now
                if inspect.iscoroutine(call):
                    call.close()
                reply, outcome = Refused(restarting()).reply, REFUSED
            else:
                drawn = self._drawn(call, presenter, may_change_game=may_change_game)
                reply, outcome = await guarded(player, context, drawn)
            # The command's or action's name, which each context starts with: a few known
            # values, never a player's words.
            kind = context.split(" ", 1)[0]
            try:
                posted = await presenter.show(reply)
            except BaseException:
                answered(presenter.source, kind, APOLOGISED, time.perf_counter() - began)
                raise
            answered(presenter.source, kind, outcome, time.perf_counter() - began)
            board = reply.board
            refresh = (board is not None and presenter.refreshes_boards and may_change_game
                       and not reply.refused and not board.private)
            if board is not None and refresh:
                await self._refresh_boards(board, presenter)
            if board is not None:
                await self._look_for_a_win(board, presenter, refresh=refresh)
            challenge = reply.message.challenge if reply.message is not None else None
            if challenge is not None and posted is not None:
                with contextlib.suppress(StoreUnavailable):  # its message then stays as posted
                    await self.challenges.posted(challenge.challenge_id, posted.channel_id,
                                                 posted.message_id)
            for update in reply.updates:
                await presenter.update(update)
            if board is not None and not board.private and posted is not None:
                await self._collapse_earlier(board, posted, presenter)

    async def _drawn(self, call: Awaitable[Reply], presenter: Presenter, *,
                     may_change_game: bool) -> Reply:
        """The reply of ``call``, its board's picture drawn if ``presenter`` shows pictures; a
        refusal it raises, its board drawn too (one may show the board as it is), raised
        on. A drawing that fails after a change was saved says so
        (``shown_after_saving``)."""
        try:
            reply = await call
        except Refused as refused:
            board = refused.reply.board
            if board is not None and presenter.shows_pictures:
                refused.reply = dataclasses.replace(refused.reply,
                                                    board=await self.game.draw(board))
            raise
        if reply.board is None or not presenter.shows_pictures:
            return reply
        if not may_change_game:
            return dataclasses.replace(reply, board=await self.game.draw(reply.board))
        async with shown_after_saving():
            return dataclasses.replace(reply, board=await self.game.draw(reply.board))

    async def _look_for_a_win(self, board: Board, presenter: Presenter, *, refresh: bool) -> None:
        """The solver looks at a board just shown; if it proves that no win is possible
        while the board is still the player's latest, the board is amended to say so
        (never under a player's lock), and so are its copies in channels (``refresh``)."""

        async def amend(saved: SavedGame) -> None:
            amended = await self.game.amended(board, saved, drawn=presenter.shows_pictures)
            await presenter.amend(amended)
            if refresh:
                lost = board.lost(amended)
                if not amended.png:  # drawn for the channels only
                    lost = dataclasses.replace(lost, drawing=await self.game.drawing(saved))
                await self._refresh_boards(lost, presenter)

        if presenter.awaits_verdict:
            lost = await self.verdicts.verdict(board)
            if lost is not None:
                await amend(lost)
        else:
            self.verdicts.request_verdict(board, amend, within=presenter.amends_within)

    async def _refresh_boards(self, board: Board, presenter: Presenter) -> None:
        """The player's live board in each channel, shown as ``board`` (drawn now if it
        was not: the presenter shows no picture). Not if the player's boards are private
        now, as the database says: another process may have made them so since ``board``
        was composed, unheard on SQLite."""
        try:
            if (await self.settings.as_stored(board.owner_id)).private_boards:
                return
            live = await self.boards.of_player(board.owner_id)
            if live:
                board = await self.game.draw(board)  # if it was not: drawn once, here
        except StoreUnavailable:
            return  # they stay as they were: the next move tries again
        except Exception:  # the reply has been shown: only the channels' copies are missed
            log.exception("could not draw the board of user %s for its channels",
                          board.owner_id)
            return
        for channel_id, message_id in live.items():
            await presenter.refresh(channel_id, message_id, board)

    async def _collapse_earlier(self, board: Board, posted: Posted, presenter: Presenter) -> None:
        """One live board per player and channel: the one ``posted`` replaces is collapsed."""
        try:
            previous = await self.boards.swap(board.owner_id, posted.channel_id,
                                                     posted.message_id)
        except StoreUnavailable:
            return  # the earlier board stays whole: no harm
        if previous is not None:
            await presenter.collapse(posted.channel_id, previous)
