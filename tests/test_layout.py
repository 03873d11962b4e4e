"""The shape of the code: every module imports on its own, imports point one way
(bot -> render -> engine), the core of bot/ knows no Discord, and no two modules import
each other (those three as import-linter's contracts, in pyproject.toml)."""

from __future__ import annotations

import ast
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("engine", "render", "bot")


def modules() -> list[str]:
    found = []
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            parts = path.relative_to(ROOT).with_suffix("").parts
            found.append(".".join(parts[:-1] if parts[-1] == "__init__" else parts))
    return found


@pytest.mark.parametrize("module", modules())
def test_every_module_imports_on_its_own(module: str) -> None:
    done = subprocess.run(
        [sys.executable, "-c", f"import {module}"], cwd=ROOT, capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr[-2000:]


def test_imports_keep_the_contracts() -> None:
    """Imports point one way (bot -> render -> engine), nothing in the core of bot/ imports
    discord or an adapter, and no module or folder imports one that imports it back: the
    contracts in pyproject.toml's [tool.importlinter], which import-linter checks along
    every chain of imports."""
    done = subprocess.run(
        [str(Path(sys.executable).with_name("lint-imports")), "--no-cache"],
        cwd=ROOT, capture_output=True, text=True,
    )
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-2000:]


ADAPTERS = ("bot.discord", "bot.console")


def test_adapters_call_the_cores_own_methods_and_reach_no_further() -> None:
    """An adapter asks the core, by name, for what it wants done: ``core.act(...)``, never
    ``core.game.solver...`` or ``core.stores...``."""
    from bot.core import Core

    face = {name for name, value in vars(Core).items()
            if not name.startswith("_") and (callable(value) or isinstance(value, property))}
    for module in modules():
        if not module.startswith(ADAPTERS):
            continue
        path = ROOT.joinpath(*module.split("."))
        source = path / "__init__.py" if path.is_dir() else path.with_suffix(".py")
        for node in ast.walk(ast.parse(source.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.Attribute):
                continue
            owner = node.value
            is_core = (
                (isinstance(owner, ast.Name) and owner.id == "core")
                or (isinstance(owner, ast.Attribute) and owner.attr == "core")
                or (isinstance(owner, ast.Call) and isinstance(owner.func, ast.Name)
                    and owner.func.id == "core_of")
            )
            if is_core:
                assert node.attr in face, f"{module}:{node.lineno} reaches core.{node.attr}"


def test_every_folder_of_bot_says_what_it_holds() -> None:
    for init in sorted((ROOT / "bot").rglob("__init__.py")):
        doc = ast.get_docstring(ast.parse(init.read_text(encoding="utf-8")))
        assert doc, f"{init.relative_to(ROOT)} opens with no line on what it holds"


def test_the_top_of_bot_keeps_at_most_five_modules() -> None:
    """The face of the core and what every part shares; the rest lives in folders."""
    top = sorted(p.name for p in (ROOT / "bot").glob("*.py")
                 if p.name not in ("__init__.py", "__main__.py"))
    assert len(top) <= 5, top


LONGEST = {"engine": 600, "render": 450, "bot": 450,  # lines: each module readable at once
           "benchmarks": 450, "tools": 450}


def test_every_module_is_small_enough_to_read_at_once() -> None:
    for package, most in LONGEST.items():
        for path in sorted((ROOT / package).rglob("*.py")):
            lines = len(path.read_text(encoding="utf-8").splitlines())
            assert lines <= most, f"{path.relative_to(ROOT)} has {lines} lines (at most {most})"


def test_a_players_install_holds_no_benchmark() -> None:
    """The wheel is the three packages; the benchmarks and the maintainers' tools stay in
    the checkout."""
    pyproject = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    assert pyproject["tool"]["setuptools"]["packages"]["find"]["include"] == [
        f"{package}*" for package in PACKAGES]
    for package in PACKAGES:
        benches = [p for p in (ROOT / package).rglob("*.py") if "bench" in p.name]
        assert not benches, f"{benches[0].relative_to(ROOT)}: benchmarks go in benchmarks/"
