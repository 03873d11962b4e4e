"""Solve deals with the solver's plain-Python modules, even where compiled ones are built.

    python tests/solver/pure_solver.py GAME:DEAL:POSITIONS ...

Solves each deal within that many positions and prints one JSON line per deal
(``answer``: what test_compiled.py compares). A finder placed
first on ``sys.meta_path`` loads every ``engine.solver`` module and ``engine.lru`` from
their ``.py`` files, so the compiled extensions beside them (see setup.py) are never
imported. Used by test_compiled.py to check that both give the same answers.
"""

from __future__ import annotations

import importlib.abc
import importlib.machinery
import importlib.util
import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from engine.solver import Solution

ROOT = Path(__file__).resolve().parents[2]


class PurePython(importlib.abc.MetaPathFinder):
    def find_spec(
        self, name: str, path: Sequence[str] | None, target: object = None
    ) -> importlib.machinery.ModuleSpec | None:
        if not name.startswith("engine.solver.") and name != "engine.lru":
            return None
        source = ROOT.joinpath(*name.split(".")).with_suffix(".py")
        return importlib.util.spec_from_file_location(name, source) if source.exists() else None


def answer(game_id: str, deal: int, solution: Solution) -> list[object]:
    """Everything a search's course decides: a difference of one position shows."""
    return [game_id, deal, solution.status, solution.positions, solution.moves,
            solution.cards_up, solution.best_moves]


def main(args: list[str]) -> None:
    sys.path.insert(0, str(ROOT))
    sys.meta_path.insert(0, PurePython())
    from engine import new_game
    from engine.solver import compiled, solve

    assert not compiled(), "the finder did not keep the compiled modules out"
    for arg in args:
        game_id, deal, positions = arg.split(":")
        solution = solve(new_game(game_id, int(deal)), positions=int(positions))
        print(json.dumps(answer(game_id, int(deal), solution)), flush=True)
    built = [name for name, module in sys.modules.items()
             if name.startswith("engine") and not str(module.__file__).endswith(".py")]
    assert not built, f"compiled modules were imported all the same: {built}"


if __name__ == "__main__":
    main(sys.argv[1:])
