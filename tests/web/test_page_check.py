"""The page's TypeScript is checked like the bot's Python: ``npm run check`` (``tsc``, strict,
and typescript-eslint's strict type-checked rules) passes on the committed source from the
committed lock, and the types of the server's JSON (``src/page.gen.ts``) are exactly what
``npm run types`` makes of the schema (``schema/page.schema.json``)."""

from __future__ import annotations

from pathlib import Path

from .conftest import PAGE
from .conftest import run_npm as run

GENERATED = Path("src") / "page.gen.ts"


def test_the_pages_typescript_passes_tsc_strict_and_its_linter(page_copy: Path) -> None:
    run(page_copy, "run", "check")


def test_the_types_of_the_servers_json_are_generated_from_its_schema(page_copy: Path) -> None:
    page = page_copy
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
