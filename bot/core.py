"""The bot's Discord-free core: the one face its adapters — the Discord client, the console
and the Activity's page — call, a method for each thing they want done.

Behind it: the stores, the flows (playing a game, statistics, the daily deal, a
player's data and settings, the solver for players), the helper processes (the solver,
the pictures) and the leadership. An adapter turns its input into one call here,
handing over its ``Presenter``: the core shows the reply through it, and everything that
follows from the reply (a board amended, an earlier one collapsed, the player's boards in
channels refreshed after a move on the page, a challenge's message updated). Nothing calls
the core back after the reply, and no adapter reaches behind this face.

Each method that answers a player answers in the player's language (``Player.language``):
it runs speaking it, and so does the work it starts. A message shared in a channel (a
leaderboard) is worded in the server's by the flow that makes it. Whatever fails is
answered with the truth about it (``flows.outcomes.guarded``), in one place: the path every
reply takes to its presenter, ``flows.showing``.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
import time
from collections.abc import Awaitable, Callable
from contextlib import AbstractContextManager
from pathlib import Path
from typing import Any

from .flows.actions import CONFIRMED
from .flows.boards import menu_choice
from .flows.challenges import Challenges
from .flows.changes import Changes, Follower
from .flows.choices import Choices
from .flows.cooldowns import Cooldowns
from .flows.daily import DailyDeals
from .flows.data_rights import DataRights
from .flows.deals import Deals
from .flows.game import GameFlow
from .flows.hints import Hints
from .flows.races import Races, Where
from .flows.replays import Replays
from .flows.settings import PlayerSettings
from .flows.showing import Showing
from .flows.stats import SERVER, StatsFlow
from .flows.tables import Tables
from .flows.verdicts import Pace, Verdicts
from .lead.duties import Leading
from .ops.metrics import WATCHED
from .presenter import Channels, Presenter
from .replies import (
    Action,
    Ask,
    BoardRef,
    ChallengeAction,
    DealRequest,
    Member,
    MenuOption,
    Message,
    Player,
    Question,
    Refused,
    Reply,
    is_digits,
    is_id,
)
from .replies.text import Text
from .store import Stores
from .store.database import Notice, StoreUnavailable
from .words.help import help_text, records_help, rules_text
from .words.language import N_, _, speaking
from .words.phrases import command
from .workers.pictures import Pictures, Renderer
from .workers.solver import SolverWorker

log = logging.getLogger(__name__)

STORE_CHECK_S = 2.0  # a readiness check waits this long for the database's answer
ANSWERS_FINISH_S = 10.0  # closing, how long replies being shown may take to finish

NOTHING_DELETED = N_("Nothing was deleted.")


class Core:
    """Open one with ``await Core.open(database)``; close it with ``await core.close()``.

    ``clock`` gives Unix seconds for games, statistics and the daily deal's day; pictures
    are drawn in ``render_processes`` worker processes (0: threads of this process).
    ``cooldowns=False``: no per-player limits (the console: one player at a terminal).
    Tests may pass a ``renderer``, a ``solver`` worker and the random ``deals``.
    """

    def __init__(
        self,
        stores: Stores,
        *,
        clock: Callable[[], float] = time.time,
        render_processes: int = 0,
        renderer: Renderer | None = None,
        solver: SolverWorker | None = None,
        deals: random.Random | None = None,
        cooldowns: bool = True,
        pace: Pace | None = None,
    ) -> None:
        self.stores = stores
        self._clock = clock
        self.pictures = Pictures(renderer, processes=render_processes)
        self.settings = PlayerSettings(stores.settings)
        self.cooldowns = Cooldowns(stores.cooldowns, clock, kept=cooldowns)
        self.solver = solver or SolverWorker()  # the solver's process: every search
        self.verdicts = Verdicts(stores.games, self.solver, clock=clock, pace=pace)
        self.hints = Hints(stores.games, self.solver, self.cooldowns, self.verdicts)
        self.deals = Deals(stores.pool, self.solver, clock=clock, deals=deals)
        self.daily_deals = DailyDeals(stores.daily, stores.results, stores.games, self.cooldowns,
                                      self.solver.daily_deal, clock)
        self.challenges = Challenges(stores.challenges, self.deals, self.cooldowns, clock)
        self.game = GameFlow(
            stores.games, settings=self.settings, pictures=self.pictures, deals=self.deals,
            hints=self.hints, verdicts=self.verdicts, daily=self.daily_deals,
            challenges=self.challenges, cooldowns=self.cooldowns, clock=clock,
        )
        self.races = Races(stores.races, self.deals, self.game, self.cooldowns, clock)
        self.choices = Choices(stores.games)
        self.statistics = StatsFlow(stores.results, self.challenges, self.races, self.pictures,
                                    self.cooldowns, clock)
        self.data_rights = DataRights(stores, self._drop, clock, self.challenges)
        self.replays = Replays(stores.games, stores.replays, self.settings, self.pictures,
                               self.cooldowns, self.daily_deals, self.challenges)
        self.leading = Leading(stores.meta, deals=self.deals, daily_deals=self.daily_deals,
                               challenges=self.challenges, races=self.races,
                               cooldowns=self.cooldowns, data_rights=self.data_rights,
                               clock=clock)
        self._stopped = self._closed = False
        self.showing = Showing(self.game, self.settings, self.verdicts, self.challenges,
                               stores.boards)
        self._present = self.showing.present  # every call's reply is shown through it
        self.changes = Changes(stores.games, everywhere=stores.db.notices_everywhere)
        self.tables = Tables(stores.seats, stores.games, self.settings, self.changes,
                             self.races, clock)
        for name, waiting in (("verdicts", lambda: self.verdicts.waiting),
                              ("pictures", lambda: self.pictures.drawing),
                              ("replays", lambda: self.replays.waiting)):
            WATCHED.queue(name, waiting)
        stores.listen(self._heard)

    @classmethod
    async def open(cls, database: Path | str, **options: Any) -> Core:
        """The core over ``database`` (SQLite file or PostgreSQL URL); the log names its solver."""
        core = cls(await Stores.open(database), **options)
        await core.solver.say_which()
        return core

    async def store_answers(self, within_s: float = STORE_CHECK_S) -> bool:
        """Whether the database answers a query now, within ``within_s`` (readiness)."""
        try:
            async with asyncio.timeout(within_s), self.stores.db.reading() as conn:
                await conn.fetch("SELECT 1")
        except Exception:  # unreachable, too slow, or closed: not ready, whatever the cause
            return False
        return True

    @property
    def where(self) -> str:  # the database, for the log (never a password)
        return self.stores.where

    async def finish_answers(self, within_s: float = ANSWERS_FINISH_S) -> None:
        """Let the replies being shown now finish (``within_s`` at most): before an adapter
        closes its connections."""
        await self.showing.answering.finish(within_s)

    async def stop_work(self) -> None:
        """Stop leading, and end searches and pictures still running, quietly: before an
        adapter closes its connections, so that nothing finishing late tries to use them.
        Stopping again does nothing."""
        if self._stopped:
            return
        self._stopped = True
        self.changes.close()
        self.tables.close()
        await self.leading.stop()
        self.verdicts.close()
        self.solver.close()
        self.pictures.close()

    async def close(self) -> None:
        """Stop the work (if not yet), then write what is pending and close the database.
        Closing again does nothing."""
        await self.stop_work()
        if not self._closed:
            self._closed = True
            await self.stores.close()

    # -- playing ----------------------------------------------------------------------

    async def new_game(
        self, player: Player, game_id: str, deal: int | None = None, *,
        winnable: bool = False, draw: bool = False, presenter: Presenter,
    ) -> None:
        context = f"new {game_id} {deal or ''}".strip()
        call = self.game.new_game(player, game_id, deal, winnable=winnable, draw=draw)
        await self._present(player, presenter, context, call)

    async def daily(self, player: Player, game_id: str, *, presenter: Presenter) -> None:
        await self._present(player, presenter, f"daily {game_id}", self.game.daily(player, game_id))

    async def act(
        self, player: Player, action: Action, arg: str | None = None, *,
        seen: BoardRef | None = None, presenter: Presenter,
    ) -> None:
        """Do ``action`` (``arg``: the move text for MOVE) on the player's current game;
        ``seen``: the board a button was pressed on (None: a typed command)."""
        context = f"{action.value} {arg or ''}".strip()
        call = self.game.act(player, action, arg, seen=seen)
        await self._present(player, presenter, context, call)

    async def board(
        self, player: Player, seen: BoardRef | None = None, *, seen_lost: bool = False,
        presenter: Presenter,
    ) -> None:
        """The player's board, no cooldown (a page following the game), or an empty reply
        while ``seen`` is still it, and ``seen_lost`` whether it says no win is possible."""
        call = self.game.show(player, seen, seen_lost=seen_lost)
        await self._present(player, presenter, "board", call, may_change_game=False)

    async def shows(self, user_id: int) -> tuple[BoardRef, bool, bool] | None:
        """What the player's board would show now, without making it (a page following the
        game asks, to make it only when it differs): its ref, whether no win is possible,
        and whether in four colours. None: no game."""
        mark = (await self.stores.games.marks([user_id])).get(user_id)
        return None if mark is None else (BoardRef(mark.row, mark.revision), mark.proven_lost,
                                          (await self.settings.of(user_id)).four_colour)

    def follow(self, user_id: int) -> AbstractContextManager[Follower]:
        """Follow the player's game while the ``with`` lasts: the follower is woken whenever
        it changes, in any process (a page showing it then asks ``board``)."""
        return self.changes.follow(user_id)

    async def choose(
        self, player: Player, value: str, *, seen: BoardRef | None = None, presenter: Presenter
    ) -> None:
        """A choice from a board's move menu: a move to play, or a pile whose moves to
        list (``seen``: the board it was made on)."""
        action, arg = menu_choice(value)
        await self.act(player, action, arg, seen=seen, presenter=presenter)

    async def move_choices(self, player: Player, typed: str = "") -> list[MenuOption]:
        """Legal moves matching what the player has typed (none while the database is out
        of reach: a suggestion is not worth an error)."""
        with speaking(player.language), contextlib.suppress(StoreUnavailable):
            return await self.choices.moves(player, typed)
        return []

    async def destination_choices(
        self, player: Player, source: str, typed: str = ""
    ) -> list[MenuOption]:
        with speaking(player.language), contextlib.suppress(StoreUnavailable):
            return await self.choices.destinations(player, source, typed)
        return []

    async def change_settings(
        self, player: Player, *, presenter: Presenter, **changes: bool
    ) -> None:
        """Change some of the player's settings (none: show them)."""
        await self._present(player, presenter, "settings", self.settings.change(player, **changes))

    async def rules(self, player: Player, game_id: str, *, presenter: Presenter) -> None:
        call = _worded(lambda: _private(rules_text(game_id)))
        await self._present(player, presenter, "rules", call)

    async def help(self, player: Player, *, presenter: Presenter) -> None:
        """Two messages' worth (a translation may be 40% longer): playing, then records."""
        call = _worded(lambda: _private(help_text(), records_help()))
        await self._present(player, presenter, "help", call)

    # -- statistics, the daily board, data rights -------------------------------------

    async def stats(
        self, viewer: Player, subject: Member, game: str | None = None, scope: str = SERVER, *,
        presenter: Presenter,
    ) -> None:
        call = self.statistics.stats(viewer, subject, game, scope)
        await self._present(viewer, presenter, f"stats {game or ''}".strip(), call)

    async def leaderboard(
        self, viewer: Player, game: str | None = None, period: str = "all", *, presenter: Presenter
    ) -> None:
        call = self.statistics.leaderboard(viewer, game, period)
        await self._present(viewer, presenter, f"leaderboard {game or ''} {period}", call)

    async def daily_board(
        self, viewer: Player, game: str, day: str | None = None, *, presenter: Presenter
    ) -> None:
        call = self.daily_deals.board(viewer, game, day)
        await self._present(viewer, presenter, f"daily-board {game}", call)

    async def forget_question(self, player: Player, *, presenter: Presenter) -> None:
        await self._present(player, presenter, "forget-me",
                            _worded(lambda: self.data_rights.forget_question(player)))

    async def reset_question(
        self, player: Player, can_manage_server: bool, *, presenter: Presenter
    ) -> None:
        call = self.data_rights.reset_question(player, can_manage_server)
        await self._present(player, presenter, "reset-server-stats", call)

    async def answer_question(
        self, player: Player, question: Question, yes: bool, *,
        can_manage_server: bool = False, presenter: Presenter,
    ) -> None:
        """The owner's answer to a yes/no question, whatever asked it."""
        call = self._answer(player, question, yes, can_manage_server=can_manage_server)
        context = f"answer {'yes' if yes else 'no'} to {question.ask.value}"
        await self._present(player, presenter, context, call)

    async def _answer(
        self, player: Player, question: Question, yes: bool, *, can_manage_server: bool
    ) -> Reply:
        ask, args = question.ask, question.args
        if ask is Ask.NEW_GAME:
            if not yes:
                return await self.game.show(player)
            request = DealRequest.from_tokens(args[1:])
            if not args or not is_digits(args[0]) or request is None:
                raise Refused(_("That question is out of date; {new} starts a game.",
                                new=command("new")))
            return await self.game.confirm_new(player, int(args[0]), request)
        if ask is Ask.RESIGN:
            if not yes:
                return await self.game.show(player)
            if len(args) != 2 or not all(is_digits(a) for a in args):
                raise Refused(_("That question is out of date; {resign} asks again.",
                                resign=command("resign")))
            seen = BoardRef(int(args[0]), int(args[1]))
            return await self.game.act(player, Action.RESIGN, CONFIRMED, seen=seen)
        if not yes:
            return Reply(message=Message(_(NOTHING_DELETED), private=True))
        if ask is Ask.FORGET:
            return await self.data_rights.forget(player)
        return await self.data_rights.reset(player, can_manage_server)

    async def replay(
        self, viewer: Player, subject: Member | None = None, *, limit: int | None = None,
        presenter: Presenter,
    ) -> None:
        """A game move by move, as an animation: the viewer's own, or (``subject``) another
        member's last finished game here; within ``limit`` bytes, the most the place it
        goes to takes (None: no limit). The viewer is told at once, before the reply, when
        their replay waits behind others."""
        call = self.replays.replay(viewer, subject, limit=limit, waiting=presenter.wait)
        await self._present(viewer, presenter, "replay", call)

    # -- challenges -------------------------------------------------------------------

    async def challenge(
        self, player: Player, opponent: Member, game_id: str, *, presenter: Presenter
    ) -> None:
        call = self.challenges.challenge(player, opponent, game_id)
        await self._present(player, presenter, f"challenge {game_id}", call)

    async def press_challenge(
        self, player: Player, challenge_id: int, action: ChallengeAction, *, presenter: Presenter
    ) -> None:
        """A press on a challenge's message: Accept or Decline (the challenged member), or
        ▶ Play (either side: their game of it)."""
        call: Awaitable[Reply]
        if not is_id(challenge_id):  # no challenge has such an id: none is looked up
            call = _no_challenge()
        elif action is ChallengeAction.PLAY:
            call = self.game.play_challenge(player, challenge_id)
        else:
            call = self.challenges.answer(player, challenge_id, action is ChallengeAction.ACCEPT)
        await self._present(player, presenter, f"challenge {challenge_id}: {action.value}", call)

    # -- races at an Activity's table ---------------------------------------------------

    async def start_race(self, player: Player, name: str, where: Where, game_id: str, *,
                         presenter: Presenter) -> None:
        """``player`` (``name`` at the table) starts a race of ``game_id`` there."""
        call = self.races.start(player, name, where, game_id)
        await self._present(player, presenter, f"race {game_id}", call)

    async def join_race(self, player: Player, name: str, instance: str, race_id: int, *,
                        presenter: Presenter) -> None:
        """``player`` joins the race at the table, while it counts down."""
        call = self.races.join(player, name, instance, race_id)
        await self._present(player, presenter, f"join race {race_id}", call)

    # -- leading ----------------------------------------------------------------------

    async def lead(self, on_lead: Callable[[], Awaitable[None]], channels: Channels) -> bool:
        """Compete for the lead while the core is open. The leader runs ``on_lead`` when it
        takes the lead (the adapter syncs its commands there), keeps the pool and the coming
        dailies filled, and closes the challenges whose day is over (``channels`` shows
        their messages as they end). Whether this process leads now."""
        return await self.leading.lead(on_lead, channels)

    async def sync_commands(
        self, scope: str, payload: object, sync: Callable[[], Awaitable[object]], *,
        force: bool = False,
    ) -> bool:
        """Call ``sync`` if the commands' ``payload`` (plain data) changed since the last
        sync of ``scope`` (an application and a server), or if ``force``; whether it was
        called (the hash of what was synced is kept in the database)."""
        return await self.leading.sync_commands(scope, payload, sync, force=force)

    # -- inside -----------------------------------------------------------------------

    def _heard(self, notice: Notice, user_id: int | None) -> None:
        """A notice from the bot's processes (this one's too): drop what is no longer sure."""
        if notice is Notice.POOL:
            self.deals.pool_wanted()
        elif notice is Notice.GAME:
            self.changes.tell(user_id)
        elif notice is Notice.TABLE and user_id is not None:  # (a table's key)
            self.changes.tell_table(user_id)
        elif notice is Notice.SETTINGS:
            self.settings.forget(user_id)
            self.changes.tell(user_id)  # (private boards, four colours: the board looks anew)
        elif notice is Notice.FORGET and user_id is not None:
            self._drop(user_id)
            self.changes.tell(user_id)
        elif notice is Notice.MISSED:  # nothing cached is sure
            self.changes.tell(None)
            self.settings.forget(None)
            self.verdicts.forget(None)
            self.hints.forget(None)
            self.stores.boards.live.drop_memory()

    def _drop(self, user_id: int) -> None:
        """Drop everything this process keeps of a forgotten player."""
        self.settings.forget(user_id)
        self.verdicts.forget(user_id)
        self.hints.forget(user_id)
        self.stores.games.forget(user_id)
        self.stores.boards.live.forget(user_id)


async def _worded(make: Callable[[], Reply]) -> Reply:
    """A reply that needs no work, worded when awaited: in the player's language then."""
    return make()


async def _no_challenge() -> Reply:
    raise Refused(_("That challenge is no longer kept."))


def _private(text: Text, note: Text | None = None) -> Reply:
    return Reply(message=Message(text, private=True), note=note)
