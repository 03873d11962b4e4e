"""When the solver runs for players: hints, the "no win is possible" check after each
board, and the pool of proven-winnable deals.

The search itself runs in the worker process (``solver_worker.py``); this module decides
what to ask it and what the answer means for a player. It holds the player's lock never:
the game flow calls ``hint`` under it, and the adapters run ``verdict`` after a board is
shown and edit the message themselves once it answers.
"""

from __future__ import annotations

import asyncio
import logging
import random
import time
from collections.abc import Callable, Iterable

from engine import GAMES

from .boards import with_no_win
from .lru import LRU
from .replies import Board, BoardRef, Reply, refusal
from .solver_worker import SolverWorker
from .store import SavedGame, Store
from .wording import code

log = logging.getLogger(__name__)

RANDOM_DEAL_MAX = 999_999  # random deals stay short enough to share; any deal up to MAX_DEAL plays
WINNABLE_POOL = 10  # proven-winnable deals kept ready per game for `/new winnable`
WINNABLE_TRIES_NOW = 6  # deals tried on the spot when the pool is empty
REMEMBERED = 10_000  # players (latest board) and games (proven lost) remembered in memory


class SolverService:
    def __init__(
        self,
        store: Store,
        worker: SolverWorker | None = None,
        *,
        clock: Callable[[], float] = time.time,
        deals: random.Random | None = None,
    ) -> None:
        self.store = store
        self.worker = worker or SolverWorker()
        self._clock = clock
        self._deals = deals or random.Random()
        self._proven_lost: LRU[int, int] = LRU(REMEMBERED)  # game row -> revision
        self._latest: LRU[int, BoardRef] = LRU(REMEMBERED)  # player -> last board made
        self._checked: LRU[int, BoardRef] = LRU(REMEMBERED)  # player -> last board checked
        self.closed = False

    def close(self) -> None:
        self.closed = True
        self.worker.close()

    def random_deal(self) -> int:
        return self._deals.randint(1, RANDOM_DEAL_MAX)

    # -- what the boards know ---------------------------------------------------------

    def board_made(self, board: Board) -> None:
        """Remember the newest board of each player: checks of older ones are dropped."""
        self._latest[board.owner_id] = board.ref

    def proven_lost(self, saved: SavedGame) -> bool:
        """Whether the solver has proven this very position (revision) unwinnable."""
        return self._proven_lost.get(saved.id) == saved.revision

    # -- hints ------------------------------------------------------------------------

    async def hint(self, saved: SavedGame) -> Reply:
        """The solver's next move, privately; counted, so a win after it is assisted."""
        game = saved.game
        if game.is_stuck:
            return refusal("No move is left to hint at: undo, or `/new` to deal again.")
        answer = await self.worker.hint(game)
        await self.store.add_hint(saved.id)
        if answer.lost:
            self._proven_lost[saved.id] = saved.revision
        if answer.move is None:
            return Reply(note=answer.note)
        move = game.resolve(answer.move)
        return Reply(note=f"Hint: {code(str(move))} — {game.describe(move)}.\n{answer.note}")

    # -- "no win is possible" ---------------------------------------------------------

    async def verdict(self, board: Board) -> str | None:
        """After ``board`` is shown: its text with "no win is possible" if the solver soon
        proves its position unwinnable and the board is still the player's current one;
        None otherwise. The caller edits the message. Never raises.

        Checks take turns in the solver (players' moves come first); one whose board is no
        longer the player's latest is dropped before it starts.
        """
        if board.finished or self._checked.get(board.owner_id) == board.ref:
            return None  # over, or this very position was looked at already
        try:
            async with self.worker.check_turn():
                if self._latest.get(board.owner_id) != board.ref:
                    return None  # the player has moved on while this waited its turn
                saved = await self.store.load(board.owner_id)
                if saved is None or BoardRef(saved.id, saved.revision) != board.ref:
                    return None
                self._checked[board.owner_id] = board.ref
                if saved.game.is_stuck or await self.worker.verdict(saved.game) != "lost":
                    return None
            self._proven_lost[board.ref.game_row] = board.ref.revision
            if self._latest.get(board.owner_id) != board.ref:
                return None  # a newer board was made while the solver searched
            return with_no_win(board)
        except Exception:
            if not self.closed:  # a search cut short by shutting down is no failure
                log.exception("looking for a win after a board of user %s failed", board.owner_id)
            return None

    # -- winnable deals ---------------------------------------------------------------

    async def winnable_deal(self, game_id: str) -> int | None:
        """A deal from the pool, or one proven on the spot; None if none is found in time."""
        deal = await self.store.take_winnable(game_id)
        if deal is not None:
            return deal
        for _ in range(WINNABLE_TRIES_NOW):
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
            while await self.store.winnable_count(game_id) < target and tries < 4 * target:
                tries += 1
                deal = self.random_deal()
                if await self.worker.is_winnable(game_id, deal):
                    await self.store.add_winnable(game_id, deal, self._clock())
                    added += 1
        return added

    async def keep_winnable_pool(self, *, first_s: float = 30.0, pause_s: float = 60.0) -> None:
        """Refill the pools for as long as the bot runs (a background task); it starts after
        ``first_s`` so that a restart serves players before it searches."""
        await asyncio.sleep(first_s)
        while True:
            try:
                await self.fill_winnable_pool()
            except Exception:
                log.exception("filling the pool of winnable deals failed")
            await asyncio.sleep(pause_s)
