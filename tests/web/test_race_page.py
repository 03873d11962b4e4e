"""A race at an Activity's table in a real browser (Chromium, driven by Playwright), in dev
mode: Player 2 presses "Race", Player 3 presses "Join race" while it counts down, Player 4
stays out; as the countdown ends both racers' pages are dealt one deal at the same moment,
with no reload; Player 4 sees their progress live and watches Player 2's table; Player 3
closes their tab (leaving is resigning) and Player 2 wins; every page still there shows
the result. And axe finds nothing wrong with the race's row, at a phone's width."""

from __future__ import annotations

import re
from typing import Any

import pytest

from bot.flows import races, tables
from bot.replies import Action, Player
from engine.solver import solve
from tests.bot.presenting import Recorder

from .conftest import Web
from .test_audit import violations
from .test_page import deal, saved
from .test_players_page import at_table

PLAYER_2, PLAYER_3, PLAYER_4 = 2, 3, 4
DEAL = 27  # a Trefoil deal the solver wins


@pytest.fixture(autouse=True)
def quick(monkeypatch: pytest.MonkeyPatch) -> None:
    """A race counting down 4 s, a racer gone 1 s resigned: the test need not wait 15 s."""
    monkeypatch.setattr(races, "COUNTDOWN_S", 4.0)
    monkeypatch.setattr(tables, "AWAY_S", 1.0)
    monkeypatch.setattr(tables, "DRIVE_S", 0.2)


async def pooled(web: Web, deal_number: int = DEAL) -> None:
    stores = web.core.stores
    assert await stores.meta.try_lead(lambda: None), "the leader fills the pool"
    await stores.pool.add("trefoil", deal_number, 1.0, target=20)


async def race_row(page: Any) -> str:
    return re.sub(r"\s+", " ", await page.locator("#race").inner_text()).strip()


async def until_row(page: Any, pattern: str, within_ms: int = 8000) -> str:
    """Until the page's race row matches ``pattern``; the row."""
    for _ in range(within_ms // 50):
        if re.search(pattern, row := await race_row(page)):
            return row
        await page.wait_for_timeout(50)
    raise AssertionError(f"{pattern!r} not in the race's row: {await race_row(page)!r}")


async def win(web: Web, user: int) -> None:
    """Play the player's game to its win, as the solver finds it, by another adapter's
    moves (the console's, say): the race hears of them as of the page's."""
    game = await web.core.stores.games.load(user)
    assert game is not None
    for move in solve(game.game, positions=200_000).moves:
        shown = Recorder()
        await web.core.act(Player(user), Action.MOVE, move, presenter=shown)
        assert shown.reply.board is not None, shown.reply


async def test_three_pages_race_one_deal_watch_it_live_and_see_who_won(
    web: Web, browser: Any,
) -> None:
    await pooled(web)
    await deal(web, PLAYER_3, "clover-leaf", 5)  # a game under way: the race leaves it
    two = await at_table(browser, web, PLAYER_2, "track")
    three = await at_table(browser, web, PLAYER_3, "track", width=400)
    four = await at_table(browser, web, PLAYER_4, "track")
    three_before = await three.locator("#table").get_attribute("data-ref")
    await two.select_option("#game", "trefoil")
    await two.get_by_role("button", name="Race", exact=True).click()
    await two.locator("#say").get_by_text("You started a Trefoil race").wait_for()
    await until_row(four, r"^Player 2 starts a Trefoil race: join within \d s\. "
                          r"Player 2 · playing$")
    await three.get_by_role("button", name="Join race").click()
    await three.locator("#say").get_by_text("You are in the race").wait_for()
    await until_row(three, r"^You are in the Trefoil race: the deal comes in \d s\.")
    assert await four.get_by_role("button", name="Join race").count() == 1
    # The countdown ends: both racers are dealt the deal, pushed to their pages.
    for page in (two, three):
        await page.locator("#headline").get_by_text("Trefoil").wait_for(timeout=8000)
        await until_row(page, r"^Trefoil race · \d+:\d\d left")
        assert await page.locator("#say").is_hidden(), "what was said before the deal goes"
    assert await three.locator("#table").get_attribute("data-ref") != three_before
    session_2, session_3 = await web.dev_session(PLAYER_2), await web.dev_session(PLAYER_3)
    ours = [await saved(web, s) for s in (session_2, session_3)]
    assert {b["game"] for b in ours} == {"trefoil"}
    assert [c["cards"] for c in ours[0]["piles"]] == [c["cards"] for c in ours[1]["piles"]]
    assert await four.get_by_role("button", name=re.compile("^(Race|Join race)$")).count() == 0
    # Player 4 watches Player 2's table as the race goes on.
    await four.get_by_role("button", name=re.compile("^Player 2 ·")).click()
    await four.locator("#table.watching").wait_for()
    await three.context.close()  # Player 3 leaves the table: resigned, a second later
    await until_row(four, r"Player 2 · \d+/52 Player 3 · resigned$")
    await win(web, PLAYER_2)
    row = await until_row(four, r"^Trefoil race over · Player 2 wins the race!")
    assert re.search(r"Player 2 · won, \d+ moves, \d+:\d\d Player 3 · resigned$", row), row
    await until_row(two, r"^Trefoil race over · Player 2 wins the race!")
    await four.locator("#table.watching .card").first.wait_for()
    stats = await web.core.races.record(PLAYER_2, None)
    assert stats == (1, 1)
    assert await two.get_by_role("button", name="Race", exact=True).count() == 1, "the next"


async def test_axe_finds_nothing_wrong_with_a_race_on_a_phone(
    web: Web, browser: Any, axe_script: str,
) -> None:
    await pooled(web)
    context = await browser.new_context(viewport={"width": 400, "height": 860},
                                        bypass_csp=True, has_touch=True)
    page = await context.new_page()
    await page.goto(f"{web.url}?dev_user={PLAYER_2}&locale=en-US&instance=phone")
    await page.get_by_role("list", name="Players").wait_for()
    other = await at_table(browser, web, PLAYER_3, "phone")
    await page.select_option("#game", "trefoil")
    await page.get_by_role("button", name="Race", exact=True).click()
    await until_row(page, "starts|You are in")
    assert await violations(page, axe_script) == []
    await other.get_by_role("button", name="Join race").click()
    await until_row(page, r"Trefoil race · \d+:\d\d left")
    assert await violations(page, axe_script) == []
