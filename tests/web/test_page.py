"""The page in a real browser (Chromium, driven by Playwright), against the page's server in
dev mode over a real core: a player drags, taps and types, and the saved game changes only
by the moves the engine allows."""

from __future__ import annotations

import re
from typing import Any

import pytest

from .conftest import Web

ALICE = 271_828_182_845_904_523


async def deal(web: Web, user: int = ALICE, game: str = "trefoil", number: int = 1) -> str:
    """A new game for ``user``, dealt as the page's New deal button would; their session."""
    session = await web.dev_session(user)
    reply = await web.call("api/new", {"game": game, "deal": number}, session=session)
    assert reply["board"] is not None, reply
    return session


async def saved(web: Web, session: str) -> dict[str, Any]:
    """The player's board as the server has it now."""
    reply = await web.call("api/board", session=session)
    board: dict[str, Any] = reply["board"]
    return board


async def open_page(browser: Any, web: Web, user: int = ALICE, **context: Any) -> Any:
    page = await (await browser.new_context(**context)).new_page()
    await page.goto(f"{web.url}?dev_user={user}&locale={context.get('locale', 'en-US')}")
    await page.locator(".slot").first.wait_for()
    return page


def first(moves: list[str], to_foundation: bool) -> tuple[int, str]:
    """The first legal move to a foundation (or to a pile): its pile and destination."""
    for move in moves:
        src, dst = move.split()
        if dst.startswith("f") == to_foundation:
            return int(src), dst
    raise AssertionError(f"no such move in {moves}")


def slot(page: Any, name: str) -> Any:
    """A pile or foundation by what the commands call it: ``7`` or ``f2``."""
    label = f"foundation {name[1:]}" if name.startswith("f") else f"pile {name}"
    return page.get_by_role("group", name=label, exact=True)


async def drag(page: Any, src: int, dst: str) -> None:
    """Drag pile ``src``'s top card with the mouse and drop it on ``dst``."""
    card = slot(page, str(src)).locator(".card.top")
    start = await card.bounding_box()
    target = await slot(page, dst).bounding_box()
    await page.mouse.move(start["x"] + start["width"] / 2, start["y"] + 10)
    await page.mouse.down()
    await page.mouse.move(target["x"] + target["width"] / 2, target["y"] + 20, steps=8)
    await page.mouse.up()


async def revision_after(page: Any, before: str) -> str:
    await page.locator(f"#table[data-ref]:not([data-ref='{before}'])").wait_for()
    return str(await page.locator("#table").get_attribute("data-ref"))


async def test_a_card_dragged_onto_a_foundation_goes_up(web: Web, browser: Any) -> None:
    session = await deal(web)
    board = await saved(web, session)
    src, dst = first(board["moves"], to_foundation=True)
    moving = board["piles"][src - 1]["cards"][-1]
    page = await open_page(browser, web)
    await drag(page, src, dst)
    await revision_after(page, ".".join(map(str, board["ref"])))
    after = await saved(web, session)
    assert after["foundations"][int(dst[1:]) - 1]["cards"][-1]["code"] == moving["code"]
    assert await slot(page, dst).get_by_role("img", name=moving["name"]).count() == 1


async def test_a_card_dragged_onto_a_pile_lands_there(web: Web, browser: Any) -> None:
    session = await deal(web)
    board = await saved(web, session)
    src, dst = first(board["moves"], to_foundation=False)
    moving = board["piles"][src - 1]["cards"][-1]
    page = await open_page(browser, web)
    await drag(page, src, dst)
    await revision_after(page, ".".join(map(str, board["ref"])))
    after = await saved(web, session)
    assert after["piles"][int(dst) - 1]["cards"][-1]["code"] == moving["code"]
    top = slot(page, dst).locator(".card.top")
    assert await top.get_attribute("aria-label") == moving["name"]


async def test_an_illegal_drop_springs_back_and_nothing_is_saved(web: Web, browser: Any) -> None:
    session = await deal(web)
    board = await saved(web, session)
    legal = set(board["moves"])
    src, dst = next((s, d) for s in range(1, 17) for d in range(1, 17)
                    if s != d and board["piles"][s - 1]["cards"] and f"{s} {d}" not in legal)
    page = await open_page(browser, web)
    card = slot(page, str(src)).locator(".card.top")
    home = await card.bounding_box()
    await drag(page, src, str(dst))
    await page.locator("#say").wait_for()  # the engine's refusal, in words
    assert await page.locator("#words").inner_text()
    await page.locator(".card.dragging").wait_for(state="detached")
    await page.wait_for_timeout(300)  # the spring back's transition
    assert await card.bounding_box() == home
    assert (await saved(web, session))["ref"] == board["ref"]


async def test_undo_takes_the_move_back(web: Web, browser: Any) -> None:
    session = await deal(web)
    board = await saved(web, session)
    src, dst = first(board["moves"], to_foundation=False)
    page = await open_page(browser, web)
    await drag(page, src, dst)
    moved = await revision_after(page, ".".join(map(str, board["ref"])))
    await page.get_by_role("button", name="Undo").click()
    await revision_after(page, moved)
    after = await saved(web, session)
    assert after["piles"] == board["piles"]


async def test_tap_then_tap_and_double_tap_and_keys_play(web: Web, browser: Any) -> None:
    session = await deal(web)
    board = await saved(web, session)
    page = await open_page(browser, web)
    src, dst = first(board["moves"], to_foundation=False)
    await slot(page, str(src)).locator(".card.top").click()
    await slot(page, dst).click()
    ref = await revision_after(page, ".".join(map(str, board["ref"])))
    board = await saved(web, session)
    assert ".".join(map(str, board["ref"])) == ref
    src, dst = first(board["moves"], to_foundation=True)
    await slot(page, str(src)).locator(".card.top").dblclick()
    ref = await revision_after(page, ref)
    assert (await saved(web, session))["foundations"][int(dst[1:]) - 1]["count"] == \
        board["foundations"][int(dst[1:]) - 1]["count"] + 1
    board = await saved(web, session)
    src, dst = first(board["moves"], to_foundation=False)
    await slot(page, str(src)).focus()
    await page.keyboard.press("Enter")
    await slot(page, dst).focus()
    await page.keyboard.press("Enter")
    await revision_after(page, ref)
    assert (await saved(web, session))["ref"][1] == board["ref"][1] + 1


async def test_every_card_and_pile_has_its_name_in_the_players_language(
    web: Web, browser: Any
) -> None:
    await deal(web, game="corner-stones")
    page = await open_page(browser, web, locale="de")
    assert await page.get_by_role("group", name="Stapel 3 (S1)", exact=True).count() == 1
    assert await page.get_by_role("group", name="Ablage 8", exact=True).count() == 1
    names = await page.locator(".card").evaluate_all("cs => cs.map(c => c.getAttribute('aria-label'))")
    assert len(names) == 104 and all(names)
    assert "Herz-Dame" in names
    assert await page.get_by_role("button", name="Rückgängig").count() == 1


@pytest.mark.parametrize("game", ["clover-leaf", "four-leaf-clovers", "super-flower-garden",
                                  "trefoil", "corner-stones"])
async def test_every_game_fits_a_phone_held_upright(web: Web, browser: Any, game: str) -> None:
    await deal(web, game=game)
    page = await open_page(browser, web, viewport={"width": 400, "height": 860},
                           has_touch=True, is_mobile=True)
    assert await page.evaluate("document.documentElement.scrollWidth") <= 400
    for box in await page.locator(".slot").evaluate_all(
            "ss => ss.map(s => s.getBoundingClientRect().right)"):
        assert box <= 400


async def test_a_touch_drag_plays_on_a_phone(web: Web, browser: Any) -> None:
    session = await deal(web)
    board = await saved(web, session)
    src, dst = first(board["moves"], to_foundation=False)
    page = await open_page(browser, web, viewport={"width": 400, "height": 860},
                           has_touch=True, is_mobile=True)
    card = await slot(page, str(src)).locator(".card.top").bounding_box()
    target = await slot(page, dst).bounding_box()
    cdp = await page.context.new_cdp_session(page)
    x, y = card["x"] + card["width"] / 2, card["y"] + 8
    to_x, to_y = target["x"] + target["width"] / 2, target["y"] + 20
    await cdp.send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [{"x": x, "y": y}]})
    for i in range(1, 9):
        point = {"x": x + (to_x - x) * i / 8, "y": y + (to_y - y) * i / 8}
        await cdp.send("Input.dispatchTouchEvent", {"type": "touchMove", "touchPoints": [point]})
    await cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
    await revision_after(page, ".".join(map(str, board["ref"])))
    after = await saved(web, session)
    assert after["piles"][int(dst) - 1]["cards"][-1] == board["piles"][src - 1]["cards"][-1]


async def test_nothing_shifts_as_the_page_loads(web: Web, browser: Any) -> None:
    await deal(web, game="corner-stones")
    context = await browser.new_context(viewport={"width": 400, "height": 860})
    page = await context.new_page()
    await page.add_init_script(
        "window.shifted = 0; new PerformanceObserver(l => { for (const e of l.getEntries()) "
        "window.shifted += e.value; }).observe({type: 'layout-shift', buffered: true});")
    await page.goto(f"{web.url}?dev_user={ALICE}")
    await page.locator(".card").first.wait_for()
    await page.wait_for_timeout(300)
    assert await page.evaluate("window.shifted") == 0


async def test_a_player_without_a_game_is_shown_the_pages_own_way_to_deal(
    web: Web, browser: Any
) -> None:
    """No slash command is named (the page deals with its own buttons), and no button that
    would act on a game is shown before there is one; New deal then deals the game chosen."""
    page = await (await browser.new_context()).new_page()
    await page.goto(f"{web.url}?dev_user=161803398874989484&locale=en-US")
    said = page.locator("#say")
    await said.get_by_text("pick one above").wait_for()
    text = await said.inner_text()
    assert "New deal" in text and "Daily deal" in text and "/new" not in text, text
    assert not await page.get_by_role("button", name="Undo").is_visible()
    await page.select_option("#game", "clover-leaf")
    await said.get_by_role("button", name="New deal").click()  # the sentence's own button
    await page.locator(".slot").first.wait_for()
    assert await page.get_by_role("button", name="Undo").is_visible()
    assert "Clover Leaf" in await page.locator("#headline").inner_text()


async def test_a_deal_to_share_is_copied_with_its_button(web: Web, browser: Any) -> None:
    """A new deal's line to share has a copy button that puts it on the clipboard as
    Discord's chat takes it; no Markdown character is on the screen."""
    context = await browser.new_context(permissions=["clipboard-read", "clipboard-write"])
    page = await context.new_page()
    await page.goto(f"{web.url}?dev_user={ALICE}&locale=en-US")
    await page.locator("#new:not([disabled])").wait_for()
    await page.select_option("#game", "clover-leaf")
    # A deal the solver proves winnable: a random one may be proven lost at once, and that
    # news is then said instead
    await page.get_by_role("button", name="More deals").click()
    await page.locator("#deal-number").fill("195722")
    await page.locator("#deal-it").click()
    copy = page.locator("#say .share button.copy")
    await copy.wait_for()
    shared = await page.locator("#say .share code").inner_text()
    assert shared == "/new clover-leaf 195722", shared
    await copy.click()
    await page.locator("#say .share button.copy", has_text="Copied").wait_for()
    assert await page.evaluate("navigator.clipboard.readText()") == shared
    said = await page.locator("#say").inner_text() + await page.locator("#headline").inner_text()
    assert not re.search(r"\*\*|`|<@|-# ", said), said
