"""The page follows the game live, in a real browser (Chromium, driven by Playwright): a move
made at the console (or by a slash command: the same core) shows on the open page with no
reload and nothing asked again, the page's socket connects again by itself once the server
is back after a restart and shows what changed meanwhile, a "no win is possible" found later
is said, and a game forgotten elsewhere leaves the table empty."""

from __future__ import annotations

import io
from dataclasses import replace
from pathlib import Path
from typing import Any

from bot.console.terminal import Console
from bot.replies import Player
from bot.web.running import start_web

from .conftest import Web, with_port
from .test_page import deal, open_page, saved

ALICE = 161_803_398_874_989_484


def console(web: Web, tmp_path: Path) -> Console:
    return Console(web.core, tmp_path, io.StringIO(), Player(ALICE, None, "en"), colour=False)


async def watch_requests(page: Any) -> list[str]:
    """Every request the page makes from now on, by its path."""
    made: list[str] = []
    page.on("request", lambda request: made.append(request.url.split("/", 3)[-1]))
    return made


async def test_a_console_move_shows_on_the_page_with_no_reload_and_nothing_asked(
    web: Web, browser: Any, tmp_path: Path
) -> None:
    session = await deal(web, ALICE)
    page = await open_page(browser, web, ALICE)
    errors: list[str] = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    board = await saved(web, session)
    ref = ".".join(map(str, board["ref"]))
    await page.locator(f"#table[data-ref='{ref}']").wait_for()
    made = await watch_requests(page)
    await page.evaluate("window.stayed = true")  # gone if the page were loaded again
    await console(web, tmp_path).handle(board["moves"][0])
    await page.locator(f"#table[data-ref='{board['ref'][0]}.1']").wait_for(timeout=3000)
    assert "1 move" in await page.locator("#headline").inner_text()
    assert await page.evaluate("window.stayed") is True
    await page.wait_for_timeout(500)
    assert made == [], f"the page asked for what it was told: {made}"
    assert not errors, errors


async def test_the_page_connects_again_after_the_server_restarts_and_catches_up(
    serve: Any, web_config: Any, browser: Any, tmp_path: Path
) -> None:
    # Sessions outlive a restart when the secret is kept (WEB_SECRET): without one, each
    # server signs its own, and the page is rightly told it is signed out.
    web_config = replace(web_config, web_secret="s" * 32)
    web = await serve(config=web_config)
    session = await deal(web, ALICE)
    page = await open_page(browser, web, ALICE)
    board = await saved(web, session)
    port = web.serving.port
    await web.serving.close()  # the server goes; the page's socket is told it is going away
    await console(web, tmp_path).handle(board["moves"][0])  # meanwhile, at the console
    web.serving = await start_web(web.core, with_port(web_config, port), dev=True)
    await page.locator(f"#table[data-ref='{board['ref'][0]}.1']").wait_for(timeout=10_000)
    await console(web, tmp_path).handle("/undo")  # and, connected again, it follows on
    await page.locator(f"#table[data-ref='{board['ref'][0]}.2']").wait_for(timeout=3000)


async def test_a_game_forgotten_elsewhere_leaves_the_table_empty(
    web: Web, browser: Any, tmp_path: Path
) -> None:
    await deal(web, ALICE)
    page = await open_page(browser, web, ALICE)
    await web.core.data_rights.forget(Player(ALICE, None, "en"))
    await page.locator("#say").get_by_text("pick one above").wait_for(timeout=3000)
    assert await page.locator(".slot").count() == 0
    assert not await page.get_by_role("button", name="Undo").is_visible()
    assert await page.locator("#headline").inner_text() == "Solitaire"  # no board: the name
    await page.locator("#say").get_by_role("button", name="New deal").click()
    await page.locator(".slot").first.wait_for()
