"""The solver's worker process: ``engine.solver`` run beside the bot.

A search is CPU-bound Python, so it runs in a separate process (one: the machine has two
cores and the other serves players); games travel as their ``to_dict()`` form. Nothing
here decides a rule (``engine.solver`` does) or when to search (``flows/verdicts.py``,
``flows/hints.py``, ``flows/deals.py``).
"""

from __future__ import annotations

import asyncio
import logging
from concurrent.futures import Executor
from dataclasses import dataclass
from datetime import date
from pathlib import Path
from typing import Any

import engine
from engine import Game, new_game
from engine.solver import Hint, Verdict, compiled, followed, hint, remember, solve
from engine.solver.daily import winnable_daily_deal

from .child import forked
from .processes import Workers

log = logging.getLogger(__name__)

HINT_BUDGET_S = 2.0  # a hint answers within about this: as long as proving a pool deal takes
VERDICT_BUDGET_S = 0.4  # "no win is possible" is looked for this long after each move
WINNABLE_BUDGET_S = 2.0  # per candidate deal, when filling the pool
QUICK_S = 0.01  # a search runs this long in the solver's process, longer in a copy
REINSTALL = ".venv/bin/pip install -q --no-deps --no-build-isolation -e ."  # the README's


@dataclass(frozen=True)
class HintAnswer:
    """What a hint found, as facts for the bot to word (``engine.solver.Hint``'s)."""

    move: str | None
    winning: bool
    lost: bool
    action: str | None = None  # "auto-finish", "to-foundations": the step as one press
    moves_left: int | None = None  # on a winning line, this move included
    undo_to_win: int | None = None  # on a lost game: the undos to a winnable position
    cards_up: int = 0  # the most cards on the foundations along the line it found
    # While a redeal is to come: the shuffles sampled, and how many the hinted plan wins.
    shuffles: int | None = None
    shuffles_won: int | None = None


def _hint_work(state: dict[str, Any], budget_s: float, fork: bool = False) -> HintAnswer:
    """A hint. ``fork`` (in the solver's own process): one not found within ``QUICK_S``
    (nor followed from a remembered line) is searched again in a forked copy, whose memory
    goes with it; the winning line it planned comes back and is remembered here. So is
    one on a lost game that has moves to undo, for how far to undo to a winnable one."""
    game = Game.from_dict(state)
    found = hint(game, budget_s=min(QUICK_S, budget_s) if fork else budget_s)
    # A hint over sampled shuffles counts positions, not time: it is what it is.
    decided = found.winning or found.shuffles is not None or (
        found.lost and (found.undo_to_win is not None or not game.moves_made))
    if fork and not decided and budget_s > QUICK_S:
        found = forked(_hinted, game, budget_s)
        if found.line:
            remember(game, found.line)
    return _answer(found)


def _followed_work(state: dict[str, Any]) -> HintAnswer | None:
    """The hint on a remembered winning line, with no search; None if there is none."""
    found = followed(Game.from_dict(state))
    return None if found is None else _answer(found)


def _answer(found: Hint) -> HintAnswer:
    return HintAnswer(found.move, found.winning, found.lost, found.action, found.moves_left,
                      found.undo_to_win, found.cards_up, found.shuffles, found.shuffles_won)


def _hinted(game: Game, budget_s: float) -> Hint:
    return hint(game, budget_s=budget_s)


def _verdict_work(state: dict[str, Any], budget_s: float, fork: bool = False) -> Verdict:
    return _status(Game.from_dict(state), budget_s, fork)


def _winnable_work(game_id: str, deal: int, budget_s: float, fork: bool = False) -> bool:
    return _status(new_game(game_id, deal), budget_s, fork) == Verdict.WON


def _status(game: Game, budget_s: float, fork: bool) -> Verdict:
    """The solver's verdict on ``game``. ``fork`` (in the solver's own process): a search
    not over within ``QUICK_S`` starts again in a forked copy of the process, so that the
    memory of the long searches, most of it, goes back to the system when they end."""
    if not fork:
        return solve(game, budget_s=budget_s).status
    status = solve(game, budget_s=min(QUICK_S, budget_s)).status
    if status != Verdict.UNKNOWN or budget_s <= QUICK_S:
        return status
    return forked(_solved, game, budget_s)


def _solved(game: Game, budget_s: float) -> Verdict:
    return solve(game, budget_s=budget_s).status


@dataclass(frozen=True)
class Build:
    """The solver a process runs: its search compiled by mypyc (see setup.py) or plain
    Python, and the compiled modules whose source changed after they were compiled (each
    runs its old code)."""

    compiled: bool
    older_than_source: tuple[str, ...] = ()


def _build() -> Build:
    """The solver this process imported."""
    if not compiled():
        return Build(False)
    return Build(True, older_than_source(Path(engine.__file__).parent))


def older_than_source(package: Path) -> tuple[str, ...]:
    """The compiled modules under ``package`` whose ``.py`` changed after they were compiled
    (their code is in one shared library, which every one of them loads)."""
    extensions = list(package.rglob("*.so"))
    built = max((path.stat().st_mtime for path in extensions), default=0.0)
    return tuple(sorted(
        str(source) for path in extensions
        if (source := path.with_name(path.name.split(".")[0] + ".py")).exists()
        and source.stat().st_mtime > built))


class SolverWorker:
    """Runs solver calls off the event loop: in ``executor`` (tests), or by default in one
    worker process that is started again if it dies (a search out of memory, say).

    In its own process, hints, verdicts and the winnable pool's searches that take longer
    than a moment run in a forked copy of it (``_hint_work``, ``_status``): the process
    stays the size of its caches instead of growing to its biggest search so far. A hint's
    winning line comes back from the copy and is remembered here, so the next hints follow
    it."""

    def __init__(self, executor: Executor | None = None) -> None:
        self._executor = executor
        self._workers = Workers("solver", 1) if executor is None else None
        # Searches fork only in the solver's own process, never in the bot's (threads).
        self._fork = self._workers is not None

    def close(self) -> None:
        if self._workers:
            self._workers.shutdown()

    async def _run(self, work: Any, *args: Any) -> Any:
        if self._workers:
            return await self._workers.run(work, *args)
        return await asyncio.get_running_loop().run_in_executor(self._executor, work, *args)

    async def say_which(self) -> Build:
        """Say in the log which solver the searches run, asking the process that runs them
        (started now): compiled, or, with a warning, the plain-Python one (a first hint
        takes about five times as long: ``python -m benchmarks.first_hints``) or compiled
        modules older than their source. Once, at start."""
        build: Build = await self._run(_build)
        if not build.compiled:
            log.warning("the solver runs as plain Python, several times slower than "
                        "compiled: hints take longer than the README says. Where a C "
                        "compiler is, install again to compile it: %s", REINSTALL)
        elif build.older_than_source:
            log.warning("the solver's compiled modules are older than their source (%s): "
                        "they run the code they were compiled from. Compile them again: %s",
                        ", ".join(build.older_than_source), REINSTALL)
        else:
            log.info("the solver runs compiled (mypyc)")
        return build

    async def hint(self, game: Game, budget_s: float = HINT_BUDGET_S) -> HintAnswer:
        answer: HintAnswer = await self._run(_hint_work, game.to_dict(), budget_s, self._fork)
        return answer

    async def followed_hint(self, game: Game) -> HintAnswer | None:
        """The next step of a winning line a hint here proved, with no search (a few ms);
        None if ``game``'s position is on no line remembered here."""
        answer: HintAnswer | None = await self._run(_followed_work, game.to_dict())
        return answer

    async def verdict(self, game: Game, budget_s: float = VERDICT_BUDGET_S) -> Verdict:
        """WON, LOST (proven: no win from here) or UNKNOWN."""
        status: Verdict = await self._run(_verdict_work, game.to_dict(), budget_s, self._fork)
        return status

    async def daily_deal(self, game_id: str, day: date, secret: str) -> int:
        """The day's daily deal of the game under the database's ``secret``, proven
        winnable, the same on every machine (decided by positions searched): a few ms,
        rarely a few hundred."""
        deal: int = await self._run(winnable_daily_deal, game_id, day, secret)
        return deal

    async def is_winnable(
        self, game_id: str, deal: int, budget_s: float = WINNABLE_BUDGET_S
    ) -> bool:
        """Whether the solver proves ``deal`` winnable within the budget."""
        won: bool = await self._run(_winnable_work, game_id, deal, budget_s, self._fork)
        return won
