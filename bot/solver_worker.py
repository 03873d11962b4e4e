"""The solver's worker process: ``engine.solver`` run beside the bot.

A search is CPU-bound Python, so it runs in a separate process (one: the machine has two
cores and the other serves players); games travel as their ``to_dict()`` form. Nothing
here decides a rule (``engine.solver`` does) or when to search (``solver_service.py``).
"""

from __future__ import annotations

import asyncio
import logging
from concurrent.futures import Executor
from dataclasses import dataclass
from typing import Any

from engine import Game, new_game
from engine.solver import hint, solve

from .workers import Workers

log = logging.getLogger(__name__)

HINT_BUDGET_S = 2.0  # a hint answers within about this: as long as proving a pool deal takes
VERDICT_BUDGET_S = 0.4  # "no win is possible" is looked for this long after each move
WINNABLE_BUDGET_S = 2.0  # per candidate deal, when filling the pool


@dataclass(frozen=True)
class HintAnswer:
    move: str | None
    winning: bool
    lost: bool
    note: str


def _hint_work(state: dict[str, Any], budget_s: float) -> HintAnswer:
    found = hint(Game.from_dict(state), budget_s=budget_s)
    return HintAnswer(found.move, found.winning, found.lost, found.note)


def _verdict_work(state: dict[str, Any], budget_s: float) -> str:
    return solve(Game.from_dict(state), budget_s=budget_s).status


def _winnable_work(game_id: str, deal: int, budget_s: float) -> bool:
    return solve(new_game(game_id, deal), budget_s=budget_s).status == "won"


class SolverWorker:
    """Runs solver calls off the event loop: in ``executor`` (tests), or by default in one
    worker process that is started again if it dies (a search out of memory, say)."""

    def __init__(self, executor: Executor | None = None) -> None:
        self._executor = executor
        self._workers = Workers("solver", 1) if executor is None else None

    def close(self) -> None:
        if self._workers:
            self._workers.shutdown()

    async def _run(self, work: Any, *args: Any) -> Any:
        if self._workers:
            return await self._workers.run(work, *args)
        return await asyncio.get_running_loop().run_in_executor(self._executor, work, *args)

    async def hint(self, game: Game, budget_s: float = HINT_BUDGET_S) -> HintAnswer:
        answer: HintAnswer = await self._run(_hint_work, game.to_dict(), budget_s)
        return answer

    async def verdict(self, game: Game, budget_s: float = VERDICT_BUDGET_S) -> str:
        """"won", "lost" (proven: no win from here) or "unknown"."""
        status: str = await self._run(_verdict_work, game.to_dict(), budget_s)
        return status

    async def is_winnable(
        self, game_id: str, deal: int, budget_s: float = WINNABLE_BUDGET_S
    ) -> bool:
        """Whether the solver proves ``deal`` winnable within the budget."""
        won: bool = await self._run(_winnable_work, game_id, deal, budget_s)
        return won
