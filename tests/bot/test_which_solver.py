"""The bot says at start, once, which solver it runs, and warns where it runs the slow one
(plain Python, or compiled modules older than their source)."""

from __future__ import annotations

import logging
import os
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

import bot.workers.solver
from bot.core import Core
from bot.workers.solver import REINSTALL, SolverWorker, older_than_source


def solver_lines(caplog: pytest.LogCaptureFixture) -> list[tuple[int, str]]:
    return [(r.levelno, r.getMessage()) for r in caplog.records
            if r.name == "bot.workers.solver"]


async def test_opening_the_core_says_once_which_solver_it_runs(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO)
    core = await Core.open(tmp_path / "s.db", solver=SolverWorker(ThreadPoolExecutor(1)))
    await core.close()
    [(_level, line)] = solver_lines(caplog)
    assert "the solver runs" in line or "older than their source" in line


async def test_the_plain_python_solver_is_a_warning_that_says_how_to_compile_it(
    caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(bot.workers.solver, "compiled", lambda: False)
    worker = SolverWorker(ThreadPoolExecutor(1))
    build = await worker.say_which()
    assert not build.compiled
    [(level, line)] = solver_lines(caplog)
    assert level == logging.WARNING
    assert "plain Python, several times slower" in line and REINSTALL in line


def test_a_compiled_module_older_than_its_source_is_told(tmp_path: Path) -> None:
    solver = tmp_path / "engine" / "solver"
    solver.mkdir(parents=True)
    for name in ("search.py", "prune.py", "search.cpython-311-x86_64-linux-gnu.so",
                 "prune.cpython-311-x86_64-linux-gnu.so",
                 "compiled__mypyc.cpython-311-x86_64-linux-gnu.so", "hints.py"):
        (solver / name).write_text("")
        os.utime(solver / name, (1_000, 1_000))
    assert older_than_source(tmp_path / "engine") == ()
    os.utime(solver / "search.py", (2_000, 2_000))  # edited (or pulled) after compiling
    os.utime(solver / "hints.py", (3_000, 3_000))  # never compiled: plain Python anyway
    assert older_than_source(tmp_path / "engine") == (str(solver / "search.py"),)
