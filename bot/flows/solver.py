"""When the solver runs for players: hints, the "no win is possible" check after each
board, and the pool of proven-winnable deals.

The search itself runs in the worker process (``workers/solver.py``); this module decides
what to ask it, in what order, and what the answer means for a player. It never holds a
player's lock: the game flow calls ``hint`` under it, and the adapters hand each board
they show to ``request_verdict`` with a way to amend the message, called outside any lock.

Fair use, with memory that does not grow with the number of players:

* Verdict checks wait in one queue, at most one per player (a newer board replaces the
  older check) and ``VERDICT_QUEUE`` in all (the oldest dropped first). They run one at a
  time and rest three times as long as the last one ran, so that they take at most a
  quarter of a core (``VERDICT_SHARE``) and moves and hints keep the rest; while
  ``LONG_QUEUE`` or more wait, each is only a quick look in the solver's process (the
  positions lost in a few moves), never a search in a forked copy. A check that waited
  past what Discord lets us edit is dropped.
* Hints and winnable deals have per-player cooldowns, across processes (``cooldowns.py``).
* The winnable pool is refilled as soon as a deal is taken from it, not when a player
  finds it empty.
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import logging
import math
import random
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass

from engine import GAMES, Game, new_game
from engine.lru import LRU
from engine.solver import Verdict

from ..replies import Board, BoardRef, Refused, Reply
from ..store import SavedGame
from ..store.database import NotLeading, StoreUnavailable
from ..store.games import GameStore
from ..store.pool import PoolStore
from ..words.hints import hint_words
from ..words.language import _, current, speaking
from ..workers.solver import QUICK_S, VERDICT_BUDGET_S, SolverWorker
from .actions import undo_reach
from .cooldowns import EVERY_S, Cooldown, Cooldowns

log = logging.getLogger(__name__)

RANDOM_DEAL_MAX = 999_999  # random deals stay short enough to share; any deal up to MAX_DEAL plays
WINNABLE_POOL = 10  # proven-winnable deals kept ready per game for `/new winnable`
WINNABLE_TRIES_NOW = 6  # deals tried on the spot when the pool is empty
REMEMBERED = 500  # players whose latest board is remembered (the active ones)
DEALS_KEPT = 2_000  # deals whose verdict is remembered (a few dozen bytes each)
# Verdict checks waiting at most (one per player). Each holds its interaction (to amend the
# message), a few KB; the solver gets through about one a second when busy, so a longer
# queue would only hold checks that are minutes old by their turn.
VERDICT_QUEUE = 200
VERDICT_SHARE = 0.25  # of a core, at most, for the checks: they rest (1 / share - 1) x their time
LONG_QUEUE = 10  # checks waiting from which each is a quick look only (no forked search)



@dataclass(frozen=True)
class Pace:
    """How the verdict checks keep time: ``monotonic`` times a check, ``rest`` waits
    between checks (three times as long as the last one ran); ``background``: they run in a
    task of their own as boards are asked about (False: only when ``run_waiting_checks``
    is called, as a test does to step through them)."""

    monotonic: Callable[[], float] = time.monotonic
    rest: Callable[[float], Awaitable[None]] = asyncio.sleep
    background: bool = True

# Told that a board shown is proven lost: its game, saved still at the board's revision.
Deliver = Callable[[SavedGame], Awaitable[None]]


@dataclass(frozen=True)
class _Made:
    """A player's newest board, and its game if the solver may look at it (in play, its
    deal not known to be lost): a check reads it here rather than loading the game again.
    ``known_lost``: the board says so already (proven, or stuck): only whether its deal is
    lost is left to find."""

    ref: BoardRef
    game: Game | None
    known_lost: bool = False


@dataclass(frozen=True)
class _Check:
    """A board waiting for its verdict: only what the check needs (the amendment is worded
    in ``language``, the board's)."""

    owner_id: int
    ref: BoardRef
    until: float  # the clock's time after which the amendment could no longer be shown
    deliver: Deliver
    language: str


class SolverService:
    def __init__(
        self,
        games: GameStore,
        pool: PoolStore,
        cooldowns: Cooldowns,
        worker: SolverWorker | None = None,
        *,
        clock: Callable[[], float] = time.time,
        deals: random.Random | None = None,
        pace: Pace | None = None,
    ) -> None:
        self.games = games
        self.pace = pace or Pace()
        self.pool = pool
        self.worker = worker or SolverWorker()
        self._clock = clock
        self._deals = deals or random.Random()
        self._pending: OrderedDict[int, _Check] = OrderedDict()  # player -> check, oldest first
        self._wake = asyncio.Event()
        self._checker: asyncio.Task[None] | None = None
        self._rest_until = 0.0  # checks rest three times as long as the last one ran
        self.cooldowns = cooldowns
        self._pool_wanted = asyncio.Event()
        self._latest: LRU[int, _Made] = LRU(REMEMBERED)  # player -> last board made
        self._checked: LRU[int, BoardRef] = LRU(REMEMBERED)  # player -> last board checked
        # (game, deal, draw rule) -> whether the deal is proven lost, once decided.
        self._deals_lost: LRU[tuple[str, int, bool], bool] = LRU(DEALS_KEPT)
        self.closed = False

    def close(self) -> None:
        self.closed = True
        if self._checker is not None:
            self._checker.cancel()
        self._pending.clear()
        self.worker.close()

    def random_deal(self) -> int:
        return self._deals.randint(1, RANDOM_DEAL_MAX)

    # -- what the boards know ---------------------------------------------------------

    def board_made(self, board: Board, game: Game) -> None:
        """Remember the newest board of each player, with its game: checks of older ones
        are dropped."""
        looked_at = None if board.finished or board.lost_as_dealt else game.copy()
        self._latest[board.owner_id] = _Made(board.ref, looked_at,
                                             board.proven_lost or game.is_stuck)

    # -- hints ------------------------------------------------------------------------

    async def hint(self, saved: SavedGame) -> Reply:
        """The solver's next step, privately, as an expert would put it: a press of
        Auto-finish or To foundations when that is the step, else a move, with the moves
        its winning line has left; before a redeal, how often its plan wins over the
        shuffles no one can know yet; on a lost game, that no win is possible and how far
        to undo. Counted, so a win after it is assisted."""
        game = saved.game
        wait = await self.cooldowns.wait(saved.user_id, Cooldown.HINT)
        if wait:
            raise Refused(_("One hint every {every} s: ask again in {wait} s.",
                            every=round(EVERY_S[Cooldown.HINT]), wait=wait))
        found = await self.worker.hint(game)
        await self.games.count_hint(saved.id)
        deal_lost = saved.lost_as_dealt
        if found.lost:
            deal_lost = deal_lost or await self._deal_lost(game)
            await self.games.mark_proven_lost(saved.id, saved.revision, deal_too=deal_lost)
        return Reply(note=hint_words(game, found, lost_as_dealt=deal_lost,
                                     undo_reach=undo_reach(saved)))

    # -- "no win is possible" ---------------------------------------------------------

    def request_verdict(self, board: Board, deliver: Deliver, *,
                        within: float | None = None) -> None:
        """Look at ``board`` when the solver has time; if its position is proven lost while
        it is still the player's latest, ``deliver`` gets its saved game (speaking the
        language spoken now, the board's). ``within``: the seconds from now in which the
        amendment can still be shown, as the presenter says (None: any time); a check
        whose turn comes later is dropped unlooked at."""
        if (board.finished or board.lost_as_dealt or self.closed
                or self._checked.get(board.owner_id) == board.ref):
            return
        self._pending.pop(board.owner_id, None)  # a newer board replaces an older check
        until = math.inf if within is None else self._clock() + within
        self._pending[board.owner_id] = _Check(board.owner_id, board.ref, until,
                                               deliver, current().code)
        while len(self._pending) > VERDICT_QUEUE:
            self._pending.popitem(last=False)
        self._wake.set()
        if self._checker is None and self.pace.background:
            # In a context of its own: it serves every later request, so it inherits none
            # of this one's (each check carries what it works with: its board, language
            # and delivery).
            self._checker = asyncio.get_running_loop().create_task(
                self._run_checks(), context=contextvars.Context())

    @property
    def pending_verdicts(self) -> int:
        return len(self._pending)

    async def _run_checks(self) -> None:
        """The one loop that works through the queue of verdict checks."""
        while not self.closed:
            await self._wake.wait()
            self._wake.clear()
            await self.run_waiting_checks()

    async def run_waiting_checks(self) -> None:
        """Work through the checks waiting now, one at a time, resting between them."""
        while self._pending and not self.closed:
            rest = self._rest_until - self.pace.monotonic()
            if rest > 0:
                await self.pace.rest(rest)
            if not self._pending:
                return
            quick = len(self._pending) >= LONG_QUEUE
            _, check = self._pending.popitem(last=False)
            if self._clock() > check.until:
                continue  # too late to amend the message it was for
            with speaking(check.language):
                lost = await self._verdict(check.owner_id, check.ref, quick=quick)
                if lost is None:
                    continue
                try:
                    await check.deliver(lost)
                except Exception:
                    log.exception("amending the board of user %s failed", check.owner_id)

    async def verdict(self, board: Board) -> SavedGame | None:
        """The game of ``board`` if the solver proves its position lost now and it is still
        the player's current board (saved at that revision); None otherwise. Never
        raises."""
        if (board.finished or board.lost_as_dealt
                or self._checked.get(board.owner_id) == board.ref):
            return None  # over, its deal known lost, or this very position looked at already
        return await self._verdict(board.owner_id, board.ref)

    async def _verdict(
        self, owner_id: int, ref: BoardRef, *, quick: bool = False
    ) -> SavedGame | None:
        made = self._latest.get(owner_id)
        if made is None or made.ref != ref:
            return None  # the player has moved on while this waited its turn
        started = self.pace.monotonic()
        try:
            self._checked[owner_id] = ref
            budget_s = QUICK_S if quick else VERDICT_BUDGET_S
            game = made.game
            if game is None or (not made.known_lost
                                and await self.worker.verdict(game, budget_s) != Verdict.LOST):
                return None
            # Lost from here; from the deal too? Then no undo can help, and the board
            # must not speak of one.
            deal_lost = await self._deal_lost(game, budget_s)
            if made.known_lost and not deal_lost:
                return None  # it says so already, and an undo may still help
            # Stored only if the game is still at that revision (another process may
            # have moved it meanwhile): then the board shown is the position proven lost.
            if not await self.games.mark_proven_lost(ref.game_row, ref.revision,
                                                     deal_too=deal_lost):
                return None  # the game moved on while the solver searched
            if self._latest.get(owner_id) is not made:
                return None  # a newer board was made while the solver searched
            saved = await self.games.load(owner_id)  # to draw it again
            if saved is None or BoardRef(saved.id, saved.revision) != ref:
                return None
            return saved
        except StoreUnavailable:
            return None  # the outage is in the log already
        except Exception:
            if not self.closed:  # a search cut short by shutting down is no failure
                log.exception("looking for a win after a board of user %s failed", owner_id)
            return None
        finally:
            ended = self.pace.monotonic()
            self._rest_until = ended + (ended - started) * (1 / VERDICT_SHARE - 1)

    async def _deal_lost(self, game: Game, budget_s: float = VERDICT_BUDGET_S) -> bool:
        """Whether ``game``'s deal itself is proven lost, its position being lost: at once
        while no move of the player's own is there to undo, else by the solver (a fact of
        the deal, the same for every player, kept once decided)."""
        if game.lost_as_dealt():
            return True
        deal = (game.game_id, game.deal_number, game.draw_rule)
        known = self._deals_lost.get(deal)
        if known is None:
            status = await self.worker.verdict(new_game(*deal[:2], draw=deal[2]), budget_s)
            if status == Verdict.UNKNOWN:
                return False
            known = self._deals_lost[deal] = status == Verdict.LOST
        return known

    # -- winnable deals ---------------------------------------------------------------

    def forget(self, user_id: int | None) -> None:
        """Drop what is kept of a player (None: of everyone): their latest board, its game,
        and any check of it still waiting."""
        if user_id is None:
            for kept in (self._latest, self._checked):
                kept.clear()
            self._pending.clear()
            return
        self._latest.pop(user_id)
        self._checked.pop(user_id)
        self._pending.pop(user_id, None)

    def pool_wanted(self) -> None:
        """A deal was taken from the pool, maybe by another process: top it up now."""
        self._pool_wanted.set()

    async def winnable_deal(self, game_id: str) -> int | None:
        """A deal from the pool, or one proven on the spot; None if none is found in time."""
        deal = await self.pool.take(game_id)
        self._pool_wanted.set()  # top the pool up now, ahead of the next player
        if deal is not None:
            return deal
        return await self.proven_now(game_id)

    async def proven_now(self, game_id: str) -> int | None:
        """A deal proven winnable on the spot, for when the pool is empty; None if none of
        a few tried is proven in time."""
        for _try in range(WINNABLE_TRIES_NOW):
            candidate = self.random_deal()
            if await self.worker.is_winnable(game_id, candidate, budget_s=1.0):
                return candidate
        return None

    async def fill_winnable_pool(
        self, *, target: int = WINNABLE_POOL, games: Iterable[str] = GAMES
    ) -> int:
        """Top up each game's pool of proven-winnable deals to ``target``; deals added."""
        added = 0
        for game_id in games:
            tries = 0
            while await self.pool.count(game_id) < target and tries < 4 * target:
                tries += 1
                deal = self.random_deal()
                if await self.worker.is_winnable(game_id, deal) and await self.pool.add(
                    game_id, deal, self._clock(), target=target
                ):
                    added += 1
        return added

    async def keep_winnable_pool(self, *, first_s: float = 30.0, pause_s: float = 60.0) -> None:
        """Refill the pools for as long as the bot runs (a background task); it starts after
        ``first_s`` so that a restart serves players before it searches."""
        await asyncio.sleep(first_s)
        while True:
            self._pool_wanted.clear()
            try:
                await self.fill_winnable_pool()
            except NotLeading:
                return  # the lease is lost; the leadership stops this task anyway
            except StoreUnavailable:
                pass  # the outage is in the log already; try again after the pause
            except Exception:
                log.exception("filling the pool of winnable deals failed")
            # Again after a pause, or at once when a deal is taken from the pool.
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._pool_wanted.wait(), pause_s)
