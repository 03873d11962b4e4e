"""An Activity's table in a real browser (Chromium, driven by Playwright), in dev mode: three
tabs at ``?instance=den`` make one table, each showing a list named "Players" of everyone
there ("Player 2 · 12/52"), its own player first; a move on one page shows on the others'
lists at once; a tab closed leaves the others' lists; a page alone has no list; and axe finds
nothing wrong with the list."""

from __future__ import annotations

import re
from typing import Any

from .conftest import Web
from .test_audit import violations
from .test_page import deal, drag, saved

PLAYER_2, PLAYER_3, PLAYER_4 = 2, 3, 4


async def at_table(browser: Any, web: Web, user: int, instance: str = "den",
                   width: int = 1280) -> Any:
    context = await browser.new_context(viewport={"width": width, "height": 800})
    page = await context.new_page()
    await page.goto(f"{web.url}?dev_user={user}&locale=en-US&instance={instance}")
    await page.get_by_role("list", name="Players").wait_for()
    return page


async def names(page: Any) -> list[str]:
    items = page.get_by_role("list", name="Players").get_by_role("listitem")
    return [re.sub(r"\s+", " ", t).strip() for t in await items.all_inner_texts()]


async def shows(page: Any, wanted: list[str], within_ms: int = 3000) -> None:
    """Until the page's list of players reads ``wanted`` (each item's text, in order)."""
    for _ in range(within_ms // 50):
        if await names(page) == wanted:
            return
        await page.wait_for_timeout(50)
    assert await names(page) == wanted


async def test_three_tabs_at_one_table_see_each_other_and_each_move_live(
    web: Web, browser: Any,
) -> None:
    session = await deal(web, PLAYER_2, "trefoil", 1)
    board = await saved(web, session)
    home = sum(f["count"] for f in board["foundations"])
    two = await at_table(browser, web, PLAYER_2)
    three = await at_table(browser, web, PLAYER_3, width=400)
    four = await at_table(browser, web, PLAYER_4)
    await shows(four, ["P4 Player 4 · no game yet", f"P2 Player 2 · {home}/52 0 moves",
                       "P3 Player 3 · no game yet"])
    await shows(two, [f"P2 Player 2 · {home}/52 0 moves", "P3 Player 3 · no game yet",
                      "P4 Player 4 · no game yet"])
    to_foundation = next(m for m in board["moves"] if m.split()[1].startswith("f"))
    src, dst = to_foundation.split()
    await drag(two, int(src), dst)
    await shows(three, ["P3 Player 3 · no game yet", f"P2 Player 2 · {home + 1}/52 1 move",
                        "P4 Player 4 · no game yet"])
    await four.context.close()  # Player 4 leaves
    await shows(two, [f"P2 Player 2 · {home + 1}/52 1 move", "P3 Player 3 · no game yet"])
    assert await two.locator("#players li.you").count() == 1


async def test_a_page_alone_has_no_list_and_another_table_is_apart(
    web: Web, browser: Any,
) -> None:
    alone = await (await browser.new_context()).new_page()
    await alone.goto(f"{web.url}?dev_user={PLAYER_2}&locale=en-US")
    await alone.locator("#new:not([disabled])").wait_for()
    await alone.wait_for_timeout(300)
    assert not await alone.locator("#players").is_visible()
    den = await at_table(browser, web, PLAYER_3, "den")
    attic = await at_table(browser, web, PLAYER_4, "attic")
    await shows(den, ["P3 Player 3 · no game yet"])
    await shows(attic, ["P4 Player 4 · no game yet"])


async def test_axe_finds_nothing_wrong_with_the_players(
    web: Web, browser: Any, axe_script: str,
) -> None:
    await deal(web, PLAYER_2, "clover-leaf", 3)
    context = await browser.new_context(viewport={"width": 400, "height": 860},
                                        bypass_csp=True)
    page = await context.new_page()
    await page.goto(f"{web.url}?dev_user={PLAYER_2}&locale=en-US&instance=den")
    await page.get_by_role("list", name="Players").wait_for()
    await at_table(browser, web, PLAYER_3)
    await shows(page, ["P2 Player 2 · 4/52 0 moves", "P3 Player 3 · no game yet"])
    assert await violations(page, axe_script) == []


async def test_a_players_game_is_watched_read_only_as_they_play_until_it_goes_private(
    web: Web, browser: Any,
) -> None:
    theirs = await deal(web, PLAYER_2, "trefoil", 1)
    board = await saved(web, theirs)
    mine = await saved(web, await deal(web, PLAYER_3, "clover-leaf", 5))
    two = await at_table(browser, web, PLAYER_2)
    three = await at_table(browser, web, PLAYER_3, width=400)
    await three.get_by_role("button", name=re.compile("^Player 2 ·")).click()
    ref = ".".join(map(str, board["ref"]))
    await three.locator(f"#table.watching[data-ref='{ref}']").wait_for()
    assert await three.locator("#watching").inner_text() == "Watching Player 2\nBack to my game"
    assert not await three.locator("#tools").is_visible()
    asked: list[str] = []
    three.on("request", lambda r: asked.append(r.url) if "api/act" in r.url else None)
    src = board["moves"][0].split()[0]
    await three.locator(f"[data-slot=p{int(src) - 1}] .card.top").click()  # nothing to pick
    await three.keyboard.press("Control+z")
    to_foundation = next(m for m in board["moves"] if m.split()[1].startswith("f"))
    await drag(two, int(to_foundation.split()[0]), to_foundation.split()[1])
    await three.locator(f"#table[data-ref='{board['ref'][0]}.1']").wait_for(timeout=3000)
    assert "1 move" in await three.locator("#headline").inner_text()
    assert asked == [], "a table watched proposes nothing"
    await three.get_by_role("button", name="Back to my game").click()
    mine_ref = ".".join(map(str, mine["ref"]))
    await three.locator(f"#table:not(.watching)[data-ref='{mine_ref}']").wait_for()
    assert await three.locator("#tools").is_visible()
    await three.get_by_role("button", name=re.compile("^Player 2 ·")).click()  # again
    await three.locator("#table.watching").wait_for()
    await web.call("api/settings", {"private_boards": True}, session=theirs)
    await three.locator("#say").get_by_text("can no longer be watched").wait_for(timeout=3000)
    await three.locator(f"#table:not(.watching)[data-ref='{mine_ref}']").wait_for()
    await three.locator("#players li[title^='Their boards are private']").wait_for()
    assert await three.get_by_role("button", name=re.compile("^Player 2 ·")).count() == 0


async def test_a_row_of_players_wider_than_a_phone_scrolls_and_axe_finds_nothing_wrong(
    web: Web, browser: Any, axe_script: str,
) -> None:
    """Long names past a phone's width: the row scrolls sideways, from the keyboard too."""
    long_ids = [161_803_398_874_989_484 + n for n in range(3)]
    await deal(web, long_ids[0], "trefoil", 2)
    context = await browser.new_context(viewport={"width": 400, "height": 860},
                                        bypass_csp=True)
    page = await context.new_page()
    await page.goto(f"{web.url}?dev_user={long_ids[0]}&locale=en-US&instance=wide")
    for other in long_ids[1:]:
        await at_table(browser, web, other, "wide")
    await page.get_by_role("list", name="Players").get_by_role("listitem").nth(2).wait_for()
    row = page.locator("#players")
    assert await row.evaluate("el => el.scrollWidth > el.clientWidth"), "the row fits: no test"
    assert await violations(page, axe_script) == []
