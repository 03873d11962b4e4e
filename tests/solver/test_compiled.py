"""The compiled solver (mypyc, see setup.py) and the plain-Python one give the same answers.

Not a speed test: the figures are ``python -m benchmarks.solver_speed``'s."""

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import engine.solver
from engine import new_game
from engine.solver import compiled, solve

from .pure_solver import answer

SOLVER = Path(engine.solver.__file__).parent
ENGINE = SOLVER.parent
PURE = Path(__file__).with_name("pure_solver.py")

# A few deals of each game, decided in about a second either way: Clover Leaf 74 is won
# and 136 lost after thousands of positions (dead checks and all), Four Leaf Clovers 1
# after restarts, Super Flower Garden through redeals. The last few are cut short by their
# budgets of positions (undecided), in the middle of the smaller searches' turns, of a
# restart and of the redeals: both must stop on the same position.
DEALS = [
    ("clover-leaf", 1, 1_000_000), ("clover-leaf", 74, 1_000_000),
    ("clover-leaf", 136, 1_000_000),
    ("four-leaf-clovers", 1, 1_000_000), ("four-leaf-clovers", 2, 1_000_000),
    ("super-flower-garden", 1, 1_000_000), ("super-flower-garden", 15, 1_000_000),
    ("trefoil", 1, 1_000_000), ("trefoil", 3, 1_000_000),
    ("corner-stones", 1, 1_000_000), ("corner-stones", 2, 1_000_000),
    ("clover-leaf", 162, 5_000), ("four-leaf-clovers", 1, 1_000),
    ("super-flower-garden", 15, 500), ("corner-stones", 2, 700),
]


def test_compiled_modules_are_not_older_than_their_source() -> None:
    """An edit to a compiled module's .py does nothing until it is compiled again. The
    code of all of them is in one shared library (the per-module files only load it)."""
    library = list(SOLVER.glob("compiled__mypyc*.so"))
    for extension in ENGINE.rglob("*.so"):
        if extension in library:
            continue
        source = extension.parent / (extension.name.split(".")[0] + ".py")
        assert source.exists(), f"{extension} is left from a module that is gone: delete it"
        built = max(p.stat().st_mtime for p in [extension, *library])
        assert source.stat().st_mtime <= built, (
            f"{source.name} changed after it was compiled: run `.venv/bin/pip install -q --no-deps --no-build-isolation -e .` again "
            "(or delete its .so files to run the plain-Python solver)"
        )


def test_the_compiled_core_is_built_where_it_can_be() -> None:
    if os.environ.get("SOLITAIRE_PURE_PYTHON") or not shutil.which("cc"):
        pytest.skip("built without the compiled core (SOLITAIRE_PURE_PYTHON or no compiler)")
    assert compiled(), "a C compiler is here, so the install should have built it"


def test_compiled_and_pure_python_give_the_same_answers() -> None:
    if not compiled():
        pytest.skip("the compiled core is not built here: nothing to compare")
    run = subprocess.run(
        [sys.executable, str(PURE), *(f"{g}:{d}:{p}" for g, d, p in DEALS)],
        capture_output=True, text=True, timeout=300, check=True,
    )
    pure = [json.loads(line) for line in run.stdout.splitlines()]
    here = []
    for game_id, deal, positions in DEALS:
        solution = solve(new_game(game_id, deal), positions=positions)
        here.append(answer(game_id, deal, solution))
    assert pure == here
    statuses = [status for _, _, status, *_ in here]
    assert set(statuses) == {"won", "lost", "unknown"}
    assert max(positions for _, _, _, positions, *_ in here) > 5000
    cut = [(p, budget) for (_, _, _, p, *_), (_, _, budget) in zip(here, DEALS, strict=True)
           if budget < 1_000_000]
    assert all(status == "unknown" for status in statuses[-len(cut):])
    assert all(p == budget for p, budget in cut)  # every position of the budget searched
