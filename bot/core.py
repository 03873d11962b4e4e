"""The bot's Discord-free core: the one face its two adapters — the Discord client and the
console — call, a method for each thing they want done.

Behind it: the store's rooms, the flows (playing a game, statistics, the daily deal, a
player's data and settings, the solver for players), the helper processes (the solver,
the pictures) and the fleet's leadership. An adapter turns its input into one call here
and shows the ``Reply`` it gets back; it never reaches behind this face.

Each method that answers a player answers in the player's language (``Player.language``):
it runs speaking it, and so does the work it starts. A message shared in a channel (a
leaderboard) is worded in the server's by the flow that makes it.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import json
import logging
import random
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any, TypeVar

from .flows.actions import CONFIRMED
from .flows.boards import menu_choice
from .flows.challenges import Challenges
from .flows.cooldowns import Cooldowns
from .flows.daily import DailyDeals, to_next_day
from .flows.data_rights import DataRights
from .flows.game import GameFlow
from .flows.replays import Replays
from .flows.settings import PlayerSettings
from .flows.solver import Deliver, SolverService
from .flows.stats import SERVER, StatsFlow
from .leadership import Leadership
from .replies import (
    Action,
    Amendment,
    Ask,
    Board,
    BoardRef,
    Duel,
    MenuOption,
    Message,
    Person,
    Player,
    Question,
    Reply,
    Update,
    Wanted,
    is_id,
    refusal,
)
from .store import SavedGame, Stores
from .store.database import Notice, StoreUnavailable
from .words.help import help_text, records_help, rules_text
from .words.language import N_, _, speaking
from .words.phrases import command, unreachable, unreachable_in_doubt
from .workers.pictures import Picture, Pictures, Renderer
from .workers.solver import SolverWorker

log = logging.getLogger(__name__)

NOTHING_DELETED = N_("Nothing was deleted.")
PRUNE_EVERY_S = 600.0  # the leader forgets stale cooldowns this often (and after midnight)
CHALLENGES_EVERY_S = 300.0  # and closes the challenges whose day is over this often
T = TypeVar("T")


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
    ) -> None:
        self.stores = stores
        self._clock = clock
        self.pictures = Pictures(renderer, processes=render_processes)
        self.settings = PlayerSettings(stores.settings)
        self.cooldowns = Cooldowns(stores.cooldowns, clock, kept=cooldowns)
        self.solver = SolverService(
            stores.games, stores.pool, self.cooldowns, solver, clock=clock, deals=deals,
            redraw=self._redraw,
        )
        self.daily_deals = DailyDeals(stores.daily, stores.results, stores.games, self.cooldowns,
                                      self.solver.worker.daily_deal, clock)
        self.challenges = Challenges(stores.challenges, self.solver, self.cooldowns, clock)
        self.game = GameFlow(
            stores.games, settings=self.settings, pictures=self.pictures, solver=self.solver,
            daily=self.daily_deals, challenges=self.challenges, cooldowns=self.cooldowns,
            clock=clock,
        )
        self.statistics = StatsFlow(stores.results, self.challenges, self.pictures,
                                    self.cooldowns, clock)
        self.data_rights = DataRights(stores, self._drop, clock, self.challenges)
        self.replays = Replays(stores.games, stores.replays, self.settings, self.pictures,
                               self.cooldowns, self.daily_deals, self.challenges)
        self.leadership = Leadership(stores.meta)
        self._stopped = self._closed = False
        stores.listen(self._heard)

    @classmethod
    async def open(cls, database: Path | str, **options: Any) -> Core:
        """The core over ``database``: a SQLite file, or a PostgreSQL URL."""
        return cls(await Stores.open(database), **options)

    @property
    def where(self) -> str:
        """The database, for the log (never a password)."""
        return self.stores.where

    async def stop_work(self) -> None:
        """Stop leading, and end searches and pictures still running, quietly: before an
        adapter closes its connections, so that nothing finishing late tries to use them.
        Stopping again does nothing."""
        if self._stopped:
            return
        self._stopped = True
        await self.leadership.stop()
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
        winnable: bool = False, draw: bool = False,
    ) -> Reply:
        work = self.game.new_game(player, game_id, deal, winnable=winnable, draw=draw)
        return await _spoken(player.language, work)

    async def daily(self, player: Player, game_id: str) -> Reply:
        return await _spoken(player.language, _calm(self.game.daily(player, game_id)))

    async def act(
        self, player: Player, action: Action, arg: str | None = None, *,
        seen: BoardRef | None = None,
    ) -> Reply:
        return await _spoken(player.language, self.game.act(player, action, arg, seen=seen))

    async def choose(self, player: Player, value: str, *, seen: BoardRef | None = None) -> Reply:
        """A choice from a board's move menu: a move to play, or a pile whose moves to
        list (``seen``: the board it was made on)."""
        action, arg = menu_choice(value)
        return await _spoken(player.language, self.game.act(player, action, arg, seen=seen))

    async def move_choices(self, player: Player, typed: str = "") -> list[MenuOption]:
        """Legal moves matching what the player has typed (none while the database is out
        of reach: a suggestion is not worth an error)."""
        try:
            return await _spoken(player.language, self.game.move_choices(player, typed))
        except StoreUnavailable:
            return []

    async def destination_choices(
        self, player: Player, source: str, typed: str = ""
    ) -> list[MenuOption]:
        work = self.game.destination_choices(player, source, typed)
        try:
            return await _spoken(player.language, work)
        except StoreUnavailable:
            return []

    async def change_settings(self, player: Player, **changes: bool) -> Reply:
        """Change some of the player's settings (none: show them)."""
        return await _spoken(player.language, _calm(self.settings.change(player, **changes)))

    async def rules(self, player: Player, game_id: str) -> Reply:
        with speaking(player.language):
            return Reply(message=Message(rules_text(game_id), private=True))

    async def help(self, player: Player) -> Reply:
        """Two messages' worth (a translation may be 40% longer): playing, then records."""
        with speaking(player.language):
            return Reply(message=Message(help_text(), private=True), note=records_help())

    # -- after a board is shown -------------------------------------------------------

    def board_shown(self, board: Board, amend: Deliver) -> None:
        """A board was shown: the solver looks at it when it has time, and if it proves
        that no win is possible while the board is still the player's latest, ``amend``
        gets its amended text and picture (never under a player's lock), in the board's
        language."""
        with speaking(board.language):
            self.solver.request_verdict(board, amend)

    async def verdict(self, board: Board) -> Amendment | None:
        """The board amended if the solver proves now that no win is possible from it
        (for an adapter that waits for it, such as the console); None otherwise."""
        return await _spoken(board.language, self.solver.verdict(board))

    async def board_posted(self, user_id: int, channel_id: int, message_id: int) -> int | None:
        """A new board of the player's was posted in a channel: the one it replaces there
        (to collapse), if any. A player has one live board per channel."""
        try:
            return await self.stores.boards.swap(user_id, channel_id, message_id)
        except StoreUnavailable:
            return None  # the earlier board stays whole: no harm

    # -- statistics, the daily board, data rights -------------------------------------

    async def stats(
        self, viewer: Player, subject: Person, game: str | None = None, scope: str = SERVER
    ) -> Reply:
        return await _spoken(viewer.language,
                             _calm(self.statistics.stats(viewer, subject, game, scope)))

    async def leaderboard(
        self, viewer: Player, game: str | None = None, period: str = "all"
    ) -> Reply:
        return await _spoken(viewer.language,
                             _calm(self.statistics.leaderboard(viewer, game, period)))

    async def daily_board(self, viewer: Player, game: str, day: str | None = None) -> Reply:
        return await _spoken(viewer.language, _calm(self.daily_deals.board(viewer, game, day)))

    async def forget_question(self, player: Player) -> Reply:
        with speaking(player.language):
            return self.data_rights.forget_question(player)

    async def reset_question(self, player: Player, can_manage_server: bool) -> Reply:
        work = _calm(self.data_rights.reset_question(player, can_manage_server))
        return await _spoken(player.language, work)

    async def answer_question(
        self, player: Player, question: Question, yes: bool, *, can_manage_server: bool = False
    ) -> Reply:
        """The owner's answer to a yes/no question, whatever asked it."""
        work = self._answer(player, question, yes, can_manage_server=can_manage_server)
        return await _spoken(player.language, work)

    async def _answer(
        self, player: Player, question: Question, yes: bool, *, can_manage_server: bool
    ) -> Reply:
        ask, args = question.ask, question.args
        if ask is Ask.NEW_GAME:
            if not yes:
                return await self.game.show(player)
            wanted = Wanted.from_tokens(args[1:])
            if not args or not args[0].isdigit() or wanted is None:
                return refusal(_("That question is out of date; {new} starts a game.",
                                 new=command("new")))
            return await self.game.confirm_new(player, int(args[0]), wanted)
        if ask is Ask.RESIGN:
            if not yes:
                return await self.game.show(player)
            if len(args) != 2 or not all(a.isdigit() for a in args):
                return refusal(_("That question is out of date; {resign} asks again.",
                                 resign=command("resign")))
            seen = BoardRef(int(args[0]), int(args[1]))
            return await self.game.act(player, Action.RESIGN, CONFIRMED, seen=seen)
        if not yes:
            return Reply(message=Message(_(NOTHING_DELETED), private=True))
        if ask is Ask.FORGET:
            return await _calm(self.data_rights.forget(player))
        return await _calm(self.data_rights.reset(player, can_manage_server))

    async def replay(
        self, viewer: Player, subject: Person | None = None, *, limit: int | None = None,
        waiting: Callable[[str], Awaitable[None]] | None = None,
    ) -> Reply:
        """A game move by move, as an animation: the viewer's own, or (``subject``) another
        member's last finished game here; within ``limit`` bytes, the most the place it
        goes to takes (None: no limit). ``waiting`` tells the viewer at once, before the
        reply, when their replay waits behind others."""
        work = self.replays.replay(viewer, subject, limit=limit, waiting=waiting)
        return await _spoken(viewer.language, _calm(work))

    # -- challenges -------------------------------------------------------------------

    async def challenge(self, player: Player, opponent: Person, game_id: str) -> Reply:
        work = _calm(self.challenges.challenge(player, opponent, game_id))
        return await _spoken(player.language, work)

    async def challenge_posted(self, challenge_id: int, channel_id: int, message_id: int) -> None:
        """A challenge's message went out here: the one to update as the challenge goes."""
        with contextlib.suppress(StoreUnavailable):  # its message then stays as posted
            await self.challenges.posted(challenge_id, channel_id, message_id)

    async def press_challenge(self, player: Player, challenge_id: int, duel: Duel) -> Reply:
        """A press on a challenge's message: Accept or Decline (the challenged member), or
        ▶ Play (either side: their game of it)."""
        if not is_id(challenge_id):  # no challenge has such an id: none is looked up
            with speaking(player.language):
                return refusal(_("That challenge is no longer kept."))
        if duel is Duel.PLAY:
            work = self.game.play_challenge(player, challenge_id)
        else:
            work = self.challenges.answer(player, challenge_id, duel is Duel.ACCEPT)
        return await _spoken(player.language, _calm(work))

    # -- the fleet --------------------------------------------------------------------

    async def lead(
        self, on_lead: Callable[[], Awaitable[None]],
        publish: Callable[[tuple[Update, ...]], Awaitable[None]],
    ) -> bool:
        """Compete for the fleet's lead, now and for as long as the core is open. The
        leader runs ``on_lead`` when it takes the lead (the adapter syncs its commands
        there), keeps the winnable pool filled and the coming daily deals found, and
        closes the challenges whose day is over (``publish`` shows their messages as they
        end). Whether this process leads now."""

        async def close_challenges() -> None:
            while True:
                await asyncio.sleep(CHALLENGES_EVERY_S)
                try:
                    updates = await self.challenges.close_due()
                    if updates:
                        await publish(tuple(updates))
                except StoreUnavailable:
                    pass  # the outage is in the log already
                except Exception:
                    log.exception("closing the challenges whose day is over failed")

        return await self.leadership.start(
            on_lead, [self.solver.keep_winnable_pool, self.daily_deals.keep_ahead,
                      self._prune, close_challenges],
        )

    async def sync_commands(
        self, scope: str, payload: object, sync: Callable[[], Awaitable[object]], *,
        force: bool = False,
    ) -> bool:
        """Call ``sync`` if the commands' ``payload`` (plain data) changed since the last
        sync of ``scope`` (say, an application and a server), or if ``force``; whether it
        was called. The hash of what was synced is kept in the database."""
        digest = hashlib.sha256(
            json.dumps(payload, sort_keys=True, ensure_ascii=False).encode()
        ).hexdigest()
        key = f"commands_hash:{scope}"
        if not force and await self.stores.meta.get(key) == digest:
            log.info("slash commands unchanged since the last sync; not syncing")
            return False
        await sync()
        await self.stores.meta.set(key, digest)
        return True

    # -- inside -----------------------------------------------------------------------

    async def _redraw(self, saved: SavedGame) -> Picture:
        return await self.game.redraw(saved)

    def _heard(self, notice: Notice, user_id: int | None) -> None:
        """A notice of the fleet (this process's own too): drop what is no longer sure."""
        if notice is Notice.POOL:
            self.solver.pool_wanted()
        elif notice is Notice.SETTINGS:
            self.settings.forget(user_id)
        elif notice is Notice.FORGET and user_id is not None:
            self._drop(user_id)
        elif notice is Notice.MISSED:  # nothing cached is sure
            self.settings.forget(None)
            self.solver.forget(None)
            self.stores.boards.live.drop_memory()

    def _drop(self, user_id: int) -> None:
        """Drop everything this process keeps of a forgotten player."""
        self.settings.forget(user_id)
        self.solver.forget(user_id)
        self.stores.games.forget(user_id)
        self.stores.boards.live.forget(user_id)

    async def _prune(self) -> None:
        """The leader forgets, now and then and just after each UTC midnight, the cooldowns
        no limit remembers any more and the daily attempts of days that have ended."""
        while True:
            await asyncio.sleep(prune_wait(self._clock()))
            try:
                await self.cooldowns.prune()
                await self.data_rights.forget_past_days()
            except StoreUnavailable:
                pass  # the outage is in the log already
            except Exception:
                log.exception("pruning the cooldowns and past daily attempts failed")


def prune_wait(now: float) -> float:
    """How long the leader waits from ``now`` (Unix seconds) to its next prune: ten minutes,
    or to a second past the next UTC midnight if that comes sooner."""
    return min(PRUNE_EVERY_S, to_next_day(now) + 1.0)


async def _spoken(language: str, work: Awaitable[T]) -> T:
    """``work`` done speaking ``language``: every word of its answer, and of the work it
    starts, is in it."""
    with speaking(language):
        return await work


async def _calm(work: Awaitable[Reply]) -> Reply:
    """The reply of ``work``; while the database cannot be reached, the refusal that says
    so (the outage is in the log once, not a traceback per player)."""
    try:
        return await work
    except StoreUnavailable as err:
        return refusal(unreachable_in_doubt() if err.in_doubt else unreachable())
