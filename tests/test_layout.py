"""The shape of the code: every module imports on its own, imports point one way
(bot -> render -> engine), the core of bot/ knows no Discord, and no two modules import
each other."""

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


def imports_of(module: str) -> set[str]:
    """The project modules ``module`` imports (absolute names)."""
    path = ROOT.joinpath(*module.split("."))
    path = path / "__init__.py" if path.is_dir() else path.with_suffix(".py")
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parent = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*parent, base] if base else parent)
            names.add(base)
            names.update(f"{base}.{alias.name}" for alias in node.names)
    known = set(modules())
    return {n for n in names if n in known and n != module}


@pytest.mark.parametrize("module", modules())
def test_every_module_imports_on_its_own(module: str) -> None:
    done = subprocess.run(
        [sys.executable, "-c", f"import {module}"], cwd=ROOT, capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr[-2000:]


def test_imports_point_one_way() -> None:
    order = {"engine": 0, "render": 1, "bot": 2}
    for module in modules():
        for target in imports_of(module):
            assert order[target.split(".")[0]] <= order[module.split(".")[0]], (module, target)


def test_the_core_of_bot_knows_no_discord() -> None:
    for module in modules():
        if module.startswith("bot") and not module.startswith("bot.discord"):
            source = ROOT.joinpath(*module.split(".")).with_suffix(".py")
            if not source.exists():
                source = ROOT.joinpath(*module.split("."), "__init__.py")
            tree = ast.parse(source.read_text(encoding="utf-8"))
            for node in ast.walk(tree):
                if isinstance(node, ast.Import):
                    assert all(a.name.split(".")[0] != "discord" for a in node.names), module
                elif isinstance(node, ast.ImportFrom) and node.level == 0:
                    assert (node.module or "").split(".")[0] != "discord", module


def test_no_two_modules_import_each_other() -> None:
    graph = {m: imports_of(m) for m in modules()}
    for module, targets in graph.items():
        for target in targets:
            if target.startswith(module + "."):  # a package importing its own submodule
                continue
            assert module not in graph.get(target, set()) or module.startswith(target + "."), (
                module, target
            )


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
