"""The page offers what the table of player actions says (``replies/player_actions.py``): its
server accepts the actions of its tool bar and its dragged cards, and nothing else, and its
tool bar is made of the board's buttons the server sends, in the table's order."""

from __future__ import annotations

import re
from typing import Any

import pytest

from bot.replies.player_actions import ACTIONS, Action, PlayerAction
from bot.web.server import STATIC
from bot.words.language import label

from .conftest import Web
from .test_page import ALICE, deal, open_page, revision_after, saved

TOOLS = sorted((a for a in ACTIONS if a.tool is not None), key=lambda a: a.tool or 0)
REDEAL = next(a for a in TOOLS if a.action is Action.REDEAL)  # a deal's first can be pressed


@pytest.mark.parametrize("line", ACTIONS, ids=[a.action.value for a in ACTIONS])
async def test_the_server_accepts_what_the_page_sends_and_nothing_else(
    web: Web, line: PlayerAction
) -> None:
    session = await web.dev_session(ALICE)
    sent = line.dragged or line.tool is not None
    reply = await web.call("api/act", {"action": line.action.value, "move": "7 f1"},
                           session=session, status=200 if sent else 400)
    assert ("action must be one of" in str(reply.get("error"))) != sent, reply


async def test_the_board_brings_the_tool_bars_buttons_in_its_order(web: Web) -> None:
    session = await web.dev_session(ALICE)
    board = (await web.call("api/new", {"game": "trefoil", "deal": 1}, session=session))["board"]
    assert [(b["action"], b["label"]) for b in board["buttons"]] == [
        (a.action.value, label(a.label or "")) for a in TOOLS]


def test_the_pages_tool_bar_is_empty_until_the_board_fills_it() -> None:
    html = (STATIC / "index.html").read_text(encoding="utf-8")
    bar = re.search(r'<div[^>]*id="tools"[^>]*>(.*?)</div>', html, re.S)
    assert bar is not None and bar.group(1).strip() == "", bar


async def test_the_page_shows_the_tool_bar_the_board_brings_and_its_buttons_play(
    web: Web, browser: Any
) -> None:
    session = await deal(web)
    board = await saved(web, session)
    page = await open_page(browser, web)
    tools = page.locator("#tools button")
    assert await tools.evaluate_all("bs => bs.map(b => [b.dataset.action, b.textContent])") == [
        [a.action.value, label(a.label or "")] for a in TOOLS]
    await page.get_by_role("button", name=label(REDEAL.label or "")).click()
    await revision_after(page, ".".join(map(str, board["ref"])))
    assert (await saved(web, session))["ref"][1] == board["ref"][1] + 1
