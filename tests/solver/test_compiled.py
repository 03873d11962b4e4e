"""The compiled solver (mypyc, see setup.py) and the plain-Python one give the same answers.

Not a speed test: the figures are ``python -m engine.solver.bench_speed``'s."""

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

SOLVER = Path(engine.solver.__file__).parent
ENGINE = SOLVER.parent
PURE = Path(__file__).with_name("pure_solver.py")

# A few deals of each game, decided in about a second either way: Clover Leaf 74 is won
# and 136 lost after thousands of positions (dead checks and all), Four Leaf Clovers 1
# after restarts, Super Flower Garden through redeals.
DEALS = [
    ("clover-leaf", 1), ("clover-leaf", 74), ("clover-leaf", 136),
    ("four-leaf-clovers", 1), ("four-leaf-clovers", 2),
    ("super-flower-garden", 1), ("super-flower-garden", 15),
    ("trefoil", 1), ("trefoil", 3),
    ("corner-stones", 1), ("corner-stones", 2),
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
            f"{source.name} changed after it was compiled: run `pip install -e .` again "
            "(or delete its .so files to run the plain-Python solver)"
        )


def test_the_compiled_core_is_built_where_it_can_be() -> None:
    if os.environ.get("SOLITAIRE_PURE_PYTHON") or not shutil.which("cc"):
        pytest.skip("built without the compiled core (SOLITAIRE_PURE_PYTHON or no compiler)")
    assert compiled(), "a C compiler is here, so `pip install -e .` should have built it"


def test_compiled_and_pure_python_give_the_same_answers() -> None:
    if not compiled():
        pytest.skip("the compiled core is not built here: nothing to compare")
    run = subprocess.run(
        [sys.executable, str(PURE), *(f"{g}:{d}" for g, d in DEALS)],
        capture_output=True, text=True, timeout=300, check=True,
    )
    pure = [json.loads(line) for line in run.stdout.splitlines()]
    here = []
    for game_id, deal in DEALS:
        solution = solve(new_game(game_id, deal), budget_s=60)
        here.append([game_id, deal, solution.status, solution.positions, solution.moves])
    assert pure == here
    assert {status for _, _, status, _, _ in here} == {"won", "lost"}
    assert max(positions for _, _, _, positions, _ in here) > 5000
