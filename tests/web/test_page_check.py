"""The page's TypeScript is checked like the bot's Python: ``npm run check`` (``tsc``, strict,
and typescript-eslint's strict type-checked rules) passes on the committed source from the
committed lock, and the types of the server's JSON (``src/page.gen.ts``) are exactly what
``npm run types`` makes of the schema (``schema/page.schema.json``)."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from bot.web.server import STATIC

PAGE = STATIC.parent / "page"
GENERATED = Path("src") / "page.gen.ts"


def npm() -> str:
    found = shutil.which("npm")
    if found is None:
        pytest.skip("needs npm to check the page (apt-get install npm; .ci/run does it)")
    return found


def run(copy: Path, *args: str) -> None:
    done = subprocess.run([npm(), *args], cwd=copy, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, f"npm {' '.join(args)}:\n{done.stdout[-6000:]}\n{done.stderr[-3000:]}"


@pytest.fixture(scope="module")
def page(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The page's committed source, installed from its lock in a copy of its own."""
    copy = tmp_path_factory.mktemp("checked") / "page"
    npm()
    shutil.copytree(PAGE, copy, ignore=shutil.ignore_patterns("node_modules"))
    run(copy, "ci", "--no-audit", "--no-fund")
    return copy


def test_the_pages_typescript_passes_tsc_strict_and_its_linter(page: Path) -> None:
    run(page, "run", "check")


def test_the_types_of_the_servers_json_are_generated_from_its_schema(page: Path) -> None:
    committed = (PAGE / GENERATED).read_text(encoding="utf-8")
    (page / GENERATED).unlink()
    try:
        run(page, "run", "types")
        made = (page / GENERATED).read_text(encoding="utf-8")
    finally:
        (page / GENERATED).write_text(committed, encoding="utf-8")
    assert made == committed, (
        "bot/web/page/src/page.gen.ts is not what its schema makes: cd bot/web/page && "
        "npm ci && npm run types")
