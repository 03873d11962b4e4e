"""The install: the README's two commands, CI and the Dockerfile all install from the lock,
and the lock agrees with the ranges in pyproject.toml (a range changed without refreshing the
lock, or a lock edited by hand, fails here)."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import pytest
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

ROOT = Path(__file__).resolve().parents[1]
LOCK = ROOT / "requirements.lock"
DEV_LOCK = ROOT / "requirements-dev.lock"
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
# One pinned release: `name==version ; marker \` and then its hashes, a line each.
PIN = re.compile(r"^(?P<name>[A-Za-z0-9._-]+)==(?P<version>\S+)(?: ;[^\\]*)?\s*\\?$")


def pins(lock: Path) -> dict[str, tuple[str, int]]:
    """Each package the lock pins: its version and how many hashes it lists."""
    found: dict[str, tuple[str, int]] = {}
    name = ""
    for line in lock.read_text(encoding="utf-8").splitlines():
        if match := PIN.match(line):
            name = canonicalize_name(match["name"])
            assert name not in found, f"{lock.name} pins {name} twice"
            found[name] = (match["version"], 0)
        elif line.strip().startswith("--hash=sha256:") and name:
            version, hashes = found[name]
            found[name] = (version, hashes + 1)
        elif line.strip() and not line.lstrip().startswith("#"):
            pytest.fail(f"{lock.name}: a line that is neither a pin nor a hash: {line!r}")
    return found


def readme_commands() -> list[str]:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    return re.findall(r"```sh\n(.*?)\n```", text, flags=re.S)[:2]


def direct_requirements(*, dev: bool) -> list[Requirement]:
    project = PYPROJECT["project"]
    wanted = [*project["dependencies"], *PYPROJECT["build-system"]["requires"]]
    if dev:
        wanted += project["optional-dependencies"]["dev"]
    return [Requirement(text) for text in wanted]


def test_the_readmes_two_commands_install_from_the_lock() -> None:
    start, test = readme_commands()
    assert "-r requirements.lock" in start and start.endswith("-m bot")
    assert "-r requirements-dev.lock" in test and test.endswith("-m pytest")
    for command in (start, test):
        installs = [part for part in command.split(" && ") if " install " in part]
        assert installs, command
        # every release from the lock, with its hash; the project itself built with the
        # locked build tools, adding nothing
        assert "--require-hashes" in installs[0]
        assert all("--no-deps --no-build-isolation" in part for part in installs[1:])


def test_ci_runs_the_readmes_test_command_exactly() -> None:
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8").splitlines()
    assert readme_commands()[1] in ci


def test_the_image_installs_the_locked_releases() -> None:
    dockerfile = (ROOT / "Dockerfile").read_text(encoding="utf-8")
    assert "--require-hashes -r requirements.lock" in dockerfile
    assert "--no-index --find-links /wheels" in dockerfile, "nothing but the locked wheels"


@pytest.mark.parametrize("lock", [LOCK, DEV_LOCK], ids=lambda path: path.name)
def test_the_lock_pins_every_release_with_its_hash(lock: Path) -> None:
    pinned = pins(lock)
    assert pinned
    assert [name for name, (_version, hashes) in pinned.items() if hashes == 0] == []


@pytest.mark.parametrize(("lock", "dev"), [(LOCK, False), (DEV_LOCK, True)],
                         ids=["requirements.lock", "requirements-dev.lock"])
def test_the_lock_holds_each_direct_dependency_within_its_range(lock: Path, dev: bool) -> None:
    pinned = pins(lock)
    outside = []
    for requirement in direct_requirements(dev=dev):
        name = canonicalize_name(requirement.name)
        if name not in pinned:
            outside.append(f"{name}: not in {lock.name}")
        elif not requirement.specifier.contains(pinned[name][0], prereleases=True):
            outside.append(f"{name} {pinned[name][0]} is outside {requirement.specifier}")
    assert outside == [], "refresh the lock: bash .ci/lock"


def test_the_bots_lock_is_the_dev_locks_releases_without_the_dev_tools() -> None:
    bot, dev = pins(LOCK), pins(DEV_LOCK)
    assert {name: version for name, (version, _) in bot.items()} == {
        name: dev[name][0] for name in bot}
    assert not {"pytest", "pytest-asyncio", "hypothesis", "ruff", "uv"} & bot.keys()
