"""What a player expects to choose, in a real browser (issue 46, item 4): a new deal of any
game, a winnable one, a deal by its number, today's daily; the settings, the same as
``/settings`` (the player's one set) beside the page's own (motion); and what a browser
and a search engine ask of a page: a favicon, a description, compressed JSON."""

from __future__ import annotations

import gzip
from typing import Any

import aiohttp
import pytest

from bot.replies import Player
from bot.web.view import WebReplies

from .conftest import Web
from .tables import SIZES, a_player, board_of, deal, open_at

pytestmark = pytest.mark.asyncio(loop_scope="module")


async def changed(page: Any, ref: str | None) -> None:
    await page.locator(f"#table[data-ref]:not([data-ref='{ref}'])").wait_for()


@pytest.mark.parametrize("size", SIZES)
async def test_a_deal_by_its_number_of_the_game_chosen(
    module_web: Web, module_browser: Any, size: str
) -> None:
    user = a_player()
    session, _ = await deal(module_web, user, "trefoil", 1)
    page = await open_at(module_browser, module_web, user, size)
    await page.select_option("#game", "corner-stones")
    ref = await page.locator("#table").get_attribute("data-ref")
    await page.get_by_role("button", name="More deals").click()
    await page.get_by_label("Deal number").fill("4242")
    await page.get_by_role("button", name="Deal", exact=True).click()
    await page.get_by_role("button", name="Start new game").click()
    await changed(page, ref)
    board = await board_of(module_web, session)
    assert board["game"] == "corner-stones" and "deal 4242" in str(board["text"])
    assert "Corner Stones" in await page.locator("#headline").inner_text()
    await page.context.close()


async def test_a_winnable_deal_and_todays_daily(module_web: Web, module_browser: Any) -> None:
    """Winnable deal asks the core for a proven-winnable deal (the solver's pool answers, a
    deal or that none is ready yet); Daily deal deals today's, which says so."""
    user = a_player()
    session, _ = await deal(module_web, user, "clover-leaf", 1)
    page = await open_at(module_browser, module_web, user, "1280x800")
    await page.get_by_role("button", name="More deals").click()
    await page.get_by_role("button", name="Winnable deal").click()
    asked = page.get_by_role("button", name="Start new game")
    said = page.locator("#words", has_text="winnable")
    await asked.or_(said).first.wait_for()
    assert not await page.locator("#deals").is_visible()
    if await asked.is_visible():
        await page.get_by_role("button", name="Keep playing").click()
    ref = await page.locator("#table").get_attribute("data-ref")
    await page.locator("#daily").click()
    await page.get_by_role("button", name="Start new game").click()
    await changed(page, ref)
    assert "daily" in await page.locator("#headline").inner_text()
    assert (await board_of(module_web, session))["game"] == "clover-leaf"
    await page.context.close()


async def settings_of(web: Web, user: int) -> dict[str, bool]:
    """The player's settings as /settings shows them (through the core, as Discord asks)."""
    replies = WebReplies(Player(user))
    await web.core.change_settings(Player(user), presenter=replies)
    return {s["name"]: s["on"] for s in replies.shown()["settings"]}


@pytest.mark.parametrize("size", ["400x860", "1280x800"])
async def test_the_settings_are_the_players_one_set(
    module_web: Web, module_browser: Any, size: str
) -> None:
    """Each box is the setting /settings has; ticking it changes that one (the four-colour
    deck's at once on the table), and the page shows what another place changed."""
    user = a_player()
    await deal(module_web, user, "trefoil", 1)
    page = await open_at(module_browser, module_web, user, size)
    await page.locator("#gear").click()
    await page.locator("#settings[open]").wait_for()  # shown once the server has answered
    boxes = page.locator("#setting-list input")
    names = await page.locator("#setting-list label").evaluate_all(
        "ls => ls.map(l => l.dataset.setting)")
    assert names == ["private_boards", "four_colour", "auto_moves", "motion"]
    assert {n: await boxes.nth(i).is_checked() for i, n in enumerate(names[:3])} == \
        await settings_of(module_web, user)
    await page.locator("[data-setting=four_colour] input").uncheck()
    await page.locator("#table.two").wait_for()  # two colours now
    await page.locator("[data-setting=auto_moves] input").check()
    await page.locator("[data-setting=auto_moves] input:checked").wait_for()
    assert await settings_of(module_web, user) == {
        "private_boards": False, "four_colour": False, "auto_moves": True}
    await module_web.core.change_settings(Player(user), presenter=WebReplies(Player(user)),
                                          auto_moves=False)  # /settings in Discord
    await page.get_by_role("button", name="Close").last.click()
    await page.locator("#gear").click()
    await page.locator("[data-setting=auto_moves] input:not(:checked)").wait_for()
    await page.context.close()


async def test_the_page_has_a_favicon_and_a_description(
    module_web: Web, module_browser: Any
) -> None:
    user = a_player()
    await deal(module_web, user, "trefoil", 1)
    page = await open_at(module_browser, module_web, user, "1024x640")
    errors: list[str] = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    await page.reload()
    await page.locator(".slot .card").first.wait_for()
    icon = await page.locator("link[rel=icon]").get_attribute("href")
    async with aiohttp.ClientSession() as http:
        for path in (icon, "favicon.ico"):
            async with http.get(module_web.url + path) as response:
                assert response.status == 200 and response.content_type == "image/svg+xml"
    description = await page.locator("meta[name=description]").get_attribute("content")
    assert description and len(description) > 50
    assert errors == []
    await page.context.close()


async def test_the_boards_json_goes_compressed(module_web: Web) -> None:
    session, _ = await deal(module_web, a_player(), "corner-stones", 1)
    async with aiohttp.ClientSession(auto_decompress=False) as http:
        for accepted in ("gzip, deflate, br", ""):
            async with http.get(module_web.url + "api/board",
                                headers={"Authorization": f"Bearer {session}",
                                         "Accept-Encoding": accepted}) as response:
                body = await response.read()
                if accepted:
                    assert response.headers["Content-Encoding"] == "gzip"
                    body = gzip.decompress(body)
                else:
                    assert "Content-Encoding" not in response.headers
                assert body.startswith(b'{"hint"') or b'"board"' in body
