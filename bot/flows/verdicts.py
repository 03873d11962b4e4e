"""The solver's verdicts on the boards players are shown: "no win is possible", said of a
board once the solver proves its position lost (and whether the deal itself is lost).

The search runs in the solver's process (``workers/solver.py``); this module decides which
boards to ask it about, in what order, and what its answer means for a player. It never
holds a player's lock: the adapters hand each board they show to ``request_verdict`` with a
way to amend the message, called outside any lock.

Fair use, with memory that does not grow with the number of players: the checks wait in
one queue, at most one per player (a newer board replaces the older check) and
``VERDICT_QUEUE`` in all (the oldest dropped first). They run one at a time and rest three
times as long as the last one ran, so that they take at most a quarter of a core
(``VERDICT_SHARE``) and moves and hints keep the rest; while ``LONG_QUEUE`` or more wait,
each is only a quick look in the solver's process (the positions lost in a few moves),
never a search in a forked copy. A check that waited past what Discord lets us edit is
dropped.
"""

from __future__ import annotations

import asyncio
import contextvars
import logging
import math
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from engine import Game, new_game
from engine.lru import LRU
from engine.solver import Verdict

from ..replies import Board, BoardRef
from ..store import SavedGame
from ..store.database import StoreUnavailable
from ..store.games import GameStore
from ..words.language import current, speaking
from ..workers.solver import QUICK_S, VERDICT_BUDGET_S, SolverWorker

log = logging.getLogger(__name__)

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


class Verdicts:
    """The verdict checks of one process, and what they remember: each player's newest
    board, the boards looked at, the deals found lost."""

    def __init__(
        self,
        games: GameStore,
        worker: SolverWorker,
        *,
        clock: Callable[[], float] = time.time,
        pace: Pace | None = None,
    ) -> None:
        self.games = games
        self.pace = pace or Pace()
        self.worker = worker
        self._clock = clock
        self._pending: OrderedDict[int, _Check] = OrderedDict()  # player -> check, oldest first
        self._wake = asyncio.Event()
        self._checker: asyncio.Task[None] | None = None
        self._rest_until = 0.0  # checks rest three times as long as the last one ran
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

    # -- what the boards know ---------------------------------------------------------

    def board_made(self, board: Board, game: Game) -> None:
        """Remember the newest board of each player, with its game: checks of older ones
        are dropped."""
        looked_at = None if board.finished or board.lost_as_dealt else game.copy()
        self._latest[board.owner_id] = _Made(board.ref, looked_at,
                                             board.proven_lost or game.is_stuck)

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
    def waiting(self) -> int:
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
            deal_lost = await self.deal_lost(game, budget_s)
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

    async def deal_lost(self, game: Game, budget_s: float = VERDICT_BUDGET_S) -> bool:
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
