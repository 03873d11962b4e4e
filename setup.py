"""The solver's search, compiled with mypyc where this machine can; plain Python otherwise.

Everything else is in pyproject.toml. The modules listed here are ordinary, fully typed
Python (mypy --strict); mypyc turns them into C extensions that run the same code about
three times faster. The extensions are optional: without a C compiler, or with
SOLITAIRE_PURE_PYTHON=1 set when installing, `pip install .` still succeeds and the
solver runs the .py files. ``python -m benchmarks.solver_speed`` says which one runs,
and tests/solver/test_compiled.py checks that both give the same answers.
"""

import os

from setuptools import setup

# The solver's hot modules, and the LRU its caches are kept in (its calls then stay in C).
COMPILED = [
    "engine/lru.py",
    *(f"engine/solver/{name}.py" for name in ("keys", "model", "order", "prune", "search")),
]


def extensions() -> list:
    if os.environ.get("SOLITAIRE_PURE_PYTHON"):
        return []
    try:
        from mypyc.build import mypycify
    except ImportError:  # mypy is a build requirement; only a non-isolated build lacks it
        return []
    # One shared library, named into the solver's package (not a hashed top-level name).
    built = mypycify(COMPILED, opt_level="3", group_name="engine.solver.compiled")
    for extension in built:
        extension.optional = True  # no compiler: warn and run the pure-Python solver
    return built


setup(ext_modules=extensions())
