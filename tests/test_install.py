"""The install: the README's two commands, CI and the Dockerfile all install from the lock,
and the lock agrees with the ranges in pyproject.toml (a range changed without refreshing the
lock, or a lock edited by hand, fails here); run from the checkout as printed, both play
with the compiled solver."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import sysconfig
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


def project_install(command: str) -> str:
    """The step of a README command that installs the project itself (after the lock's)."""
    [step] = [part for part in command.split(" && ") if " install " in part and " -r " not in part]
    return step


def checkout_files() -> list[str]:
    """The checkout's files, as git lists them; outside git (a copy, as ``.ci/ranges``
    makes), every file but what building and testing leave behind."""
    listed = subprocess.run(["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
                            cwd=ROOT, capture_output=True)
    if listed.returncode == 0:
        names = listed.stdout.decode().split("\0")
        return [name for name in names if name and (ROOT / name).is_file()]
    left = {".git", ".venv", "venv", "build", "dist", "out", "boards", "data", ".env",
            "node_modules", "__pycache__", ".mypy_cache", ".ruff_cache", ".pytest_cache",
            ".hypothesis"}  # .gitignore's, and npm's
    return [str(path.relative_to(ROOT)) for path in ROOT.rglob("*")
            if path.is_file() and not left & set(path.relative_to(ROOT).parts)
            and path.suffix not in {".so", ".pyc"} and ".egg-info" not in str(path)]


def test_the_readmes_commands_run_the_compiled_solver_from_the_checkout(tmp_path: Path) -> None:
    """As a user runs them: a copy of the checkout, a new environment, the project installed
    there by the README's own step, and then the bot started from the checkout's folder, as
    both commands start it (``python -m bot``, ``python -m pytest``: the folder they run in
    comes first on the path, so its ``engine/`` is the one imported, not a copy installed
    elsewhere). It says at start which solver it runs: the compiled one."""
    if os.environ.get("SOLITAIRE_PURE_PYTHON") or not shutil.which("cc"):
        pytest.skip("no compiled solver is built here (SOLITAIRE_PURE_PYTHON or no compiler)")
    start, test = readme_commands()
    install = project_install(start)
    assert install == project_install(test), "both commands install the project alike"
    checkout = tmp_path / "checkout"
    for name in checkout_files():
        (checkout / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(ROOT / name, checkout / name)
    # The new environment has the lock's releases (this one's, pip among them) in place of
    # the README's first two steps, which download them.
    venv = checkout / ".venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True,
                   capture_output=True, timeout=120)
    [site] = (venv / "lib").glob("python3*/site-packages")
    (site / "locked.pth").write_text(sysconfig.get_paths()["purelib"] + "\n", encoding="utf-8")
    (venv / "bin" / "pip").write_text(
        f"#!{venv / 'bin' / 'python'}\nimport sys\nfrom pip._internal.cli.main import main\n"
        "sys.exit(main())\n", encoding="utf-8")
    (venv / "bin" / "pip").chmod(0o755)
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DISCORD_", "DATABASE_"))}
    built = subprocess.run(install, shell=True, cwd=checkout, env=env, capture_output=True,
                           text=True, timeout=280)
    assert built.returncode == 0, built.stderr
    python = str(venv / "bin" / "python")
    asked = subprocess.run([python, "-c", "import engine.solver as s; print(s.compiled())"],
                           cwd=checkout, env=env, capture_output=True, text=True, timeout=60)
    assert asked.stdout.strip() == "True", asked.stderr
    played = subprocess.run([python, "-m", "bot", "--console", "--env-file", "none"],
                            cwd=checkout, env=env, input="/quit\n", capture_output=True,
                            text=True, timeout=120)
    assert played.returncode == 0, played.stderr
    assert played.stderr.count("the solver runs compiled (mypyc)") == 1, played.stderr
    assert "WARNING" not in played.stderr, played.stderr
