"""The page as shipped: its script is exactly the build of its committed source from the
committed lock, every asset comes from the page's own server, and the whole page is small
enough to load at once on a phone."""

from __future__ import annotations

import gzip
import re
from pathlib import Path

from bot.web.server import STATIC

from .conftest import run_npm

MOST_BYTES = 150 * 1024  # the page, compressed: HTML, stylesheet and script (the SDK in it)


def test_the_committed_script_is_the_build_of_the_committed_source(page_copy: Path) -> None:
    run_npm(page_copy, "run", "build")
    built = page_copy.parent / "static" / "app.js"
    assert built.read_bytes() == (STATIC / "app.js").read_bytes(), (
        "bot/web/static/app.js is not the build of bot/web/page: cd bot/web/page && npm ci "
        "&& npm run build")


def test_every_asset_comes_from_the_pages_own_origin() -> None:
    html = (STATIC / "index.html").read_text(encoding="utf-8")
    addresses = re.findall(r'(?:src|href)="([^"]+)"', html)
    assert addresses and all(not re.match(r"\w+:|//", a) for a in addresses), addresses
    script = (STATIC / "app.js").read_text(encoding="utf-8")
    assert not re.search(r"""import\s*\(?\s*["']https?:""", script)


def test_the_page_is_at_most_150_kb_compressed() -> None:
    size = sum(len(gzip.compress((STATIC / name).read_bytes(), 9))
               for name in ("index.html", "app.css", "app.js"))
    assert size <= MOST_BYTES, size
