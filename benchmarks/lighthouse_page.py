"""The Activity's page scored by Lighthouse (Google's audit, the npm package in the page's
lock), mobile and desktop, in each game: performance, accessibility, best practices, SEO.

    cd bot/web/page && npm ci && cd -           # once: Lighthouse is a devDependency
    python -m benchmarks.lighthouse_page        # every game, mobile and desktop
    python -m benchmarks.lighthouse_page --games corner-stones --runs 3

The page's server runs as its own process, as ``python -m bot --web --dev`` starts it (a
new SQLite file), each game is dealt to a dev player of its own, and Lighthouse opens the
page as that player in Debian's Chromium (headless), with its mobile preset (a mid-range
phone on a slow 4G network, the CPU slowed four times) and its desktop one. It prints each
run's four scores (0-100) and, per form factor, the lowest of each over the games and runs.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import shutil
from pathlib import Path

import aiohttp

from engine import GAMES

from .dev_page import dev_page

PAGE = Path(__file__).resolve().parents[1] / "bot" / "web" / "page"
CHROMIUM = "/usr/bin/chromium"
CATEGORIES = ("performance", "accessibility", "best-practices", "seo")


async def dealt(http: aiohttp.ClientSession, url: str, user: int, game: str) -> None:
    async with http.post(url + "api/dev/signin", json={"user": str(user)}) as signed:
        session = (await signed.json())["session"]
    async with http.post(url + "api/new", json={"game": game, "deal": 1},
                         headers={"Authorization": f"Bearer {session}"}) as response:
        response.raise_for_status()


async def lighthouse(url: str, desktop: bool, out: Path) -> dict[str, int]:
    tool = PAGE / "node_modules" / ".bin" / "lighthouse"
    if not tool.exists():
        raise SystemExit("Lighthouse is not installed: cd bot/web/page && npm ci")
    args = [str(tool), url, "--quiet", "--output=json", f"--output-path={out}",
            f"--only-categories={','.join(CATEGORIES)}",
            "--chrome-flags=--headless=new --no-sandbox"]
    if desktop:
        args.append("--preset=desktop")
    done = await asyncio.create_subprocess_exec(*args, env={**os.environ, "CHROME_PATH": CHROMIUM})
    if await done.wait() != 0:
        raise RuntimeError(f"lighthouse failed on {url}")
    report = json.loads(out.read_text(encoding="utf-8"))
    return {c: round(report["categories"][c]["score"] * 100) for c in CATEGORIES}


async def run(games: list[str], runs: int) -> None:
    if shutil.which(CHROMIUM) is None:
        raise SystemExit(f"needs {CHROMIUM} (apt-get install chromium)")
    lowest: dict[str, dict[str, int]] = {"mobile": {}, "desktop": {}}
    async with dev_page() as (url, folder, _), aiohttp.ClientSession() as http:
        for number, game in enumerate(games, 1):
            user = 10**17 + number
            await dealt(http, url, user, game)
            for form in ("mobile", "desktop"):
                for _ in range(runs):
                    scores = await lighthouse(f"{url}?dev_user={user}", form == "desktop",
                                              folder / "report.json")
                    print(f"{game:20} {form:8} " + "  ".join(
                        f"{c} {s}" for c, s in scores.items()), flush=True)
                    for c, s in scores.items():
                        lowest[form][c] = min(lowest[form].get(c, 100), s)
    for form, scores in lowest.items():
        print(f"lowest, {form}: " + ", ".join(f"{c} {s}" for c, s in scores.items()))


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.lighthouse_page")
    parser.add_argument("--games", nargs="*", default=list(GAMES), choices=list(GAMES))
    parser.add_argument("--runs", type=int, default=1)
    args = parser.parse_args(argv)
    asyncio.run(run(args.games, args.runs))


if __name__ == "__main__":
    main()
