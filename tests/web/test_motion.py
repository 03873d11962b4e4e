"""Cards that move, in a real browser (issue 46, item 2): a move glides its card from where it
was to where it lands, in about a quarter of a second, and an undo glides it back; To
foundations and Auto-finish send the cards up one after another; a redeal gathers the cards
and deals them again; a new deal is dealt; a win is celebrated on the table, with its
moves, time and hints. None of it under ``prefers-reduced-motion``, nor once the player
turns it off. The table shows the time played, paused while the page is hidden.

Each animation the page starts is recorded as it starts (``Element.animate``, wrapped
before the page's script runs): which card, from how far, after what delay."""

from __future__ import annotations

import asyncio
import re
from typing import Any

import pytest

from engine import new_game

from .conftest import Web
from .tables import ALL_GAMES, SIZES, a_player, board_of, deal, play, winning_line

pytestmark = pytest.mark.asyncio(loop_scope="module")

RECORD = """
window.flown = [];
const animate = Element.prototype.animate;
Element.prototype.animate = function (frames, options) {
  const first = String(frames[0]?.transform ?? '');
  const at = /translate\\(([-\\d.e]+)px, ([-\\d.e]+)px\\)/.exec(first);
  window.flown.push({code: this.dataset.code ?? null, at: this.dataset.at ?? null,
    frames: frames.length,
    dx: at ? Number(at[1]) : null, dy: at ? Number(at[2]) : null,
    fades: frames[0]?.opacity === 0, duration: options?.duration ?? 0,
    delay: options?.delay ?? 0, up: this.closest('.foundation') !== null});
  return animate.call(this, frames, options);
};
"""


async def opened(browser: Any, web: Web, user: int, size: str = "1024x640",
                 **context: Any) -> Any:
    made = await browser.new_context(**SIZES[size], **context)
    page = await made.new_page()
    await page.add_init_script(RECORD)
    await page.goto(f"{web.url}?dev_user={user}&locale=en-US")
    await page.locator(".slot .card").first.wait_for()
    if await page.locator("#say").is_visible():
        await page.locator("#close").click()
    return page


async def changed(page: Any, ref: str) -> None:
    """Wait for a board the table shows after the one of ``ref``."""
    await page.locator(f"#table[data-ref]:not([data-ref='{ref}'])").wait_for()


async def ref_of(page: Any) -> str:
    ref: str = await page.locator("#table").get_attribute("data-ref")
    return ref


async def settled(page: Any) -> None:
    """Wait for every animation under way to end (the cards where they land)."""
    await page.evaluate("Promise.all(document.getAnimations().map(a => a.finished))")


async def flown(page: Any) -> list[dict[str, Any]]:
    found: list[dict[str, Any]] = await page.evaluate("window.flown.splice(0)")
    return found


def slot_of(move_place: str) -> str:
    return f"f{int(move_place[1:]) - 1}" if move_place.startswith("f") else \
        f"p{int(move_place) - 1}"


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("game", ALL_GAMES)
async def test_a_move_glides_its_card_to_where_it_lands_and_an_undo_glides_it_back(
    module_web: Web, module_browser: Any, game: str, size: str
) -> None:
    user = a_player()
    _, board = await deal(module_web, user, game, 2)
    src, dst = next(m.split() for m in board["moves"] if m != "redeal")
    page = await opened(module_browser, module_web, user, size)
    card = await page.locator(f"[data-slot={slot_of(src)}] .card.top").element_handle()
    home = await card.get_attribute("data-at")
    await flown(page)
    was = await card.bounding_box()
    ref = await ref_of(page)
    await page.locator(f"[data-slot={slot_of(src)}] .card.top").click()
    await page.locator(f"[data-slot={slot_of(dst)}]").click()
    await changed(page, ref)
    await settled(page)
    now = await card.bounding_box()
    there = await card.get_attribute("data-at")
    assert there.startswith(slot_of(dst) + ".")
    glides = [f for f in await flown(page) if f["at"] == there]
    assert len(glides) == 1, glides
    glide = glides[0]
    assert abs(glide["dx"] - (was["x"] - now["x"])) < 2 and \
        abs(glide["dy"] - (was["y"] - now["y"])) < 2, (glide, was, now)
    assert 200 <= glide["duration"] <= 300 and glide["frames"] == 2
    ref = await ref_of(page)
    await page.get_by_role("button", name="Undo").click()
    await changed(page, ref)
    await settled(page)
    back = [f for f in await flown(page) if f["at"] == home]
    assert len(back) == 1 and abs(back[0]["dx"] - (now["x"] - was["x"])) < 2 and \
        abs(back[0]["dy"] - (now["y"] - was["y"])) < 2, back
    assert await card.bounding_box() == was
    await page.context.close()


async def test_to_foundations_sends_the_cards_up_one_after_another(
    module_web: Web, module_browser: Any
) -> None:
    user = a_player()
    _, _board = await deal(module_web, user, "corner-stones", 7)  # two cards can go up
    page = await opened(module_browser, module_web, user)
    ref = await ref_of(page)
    await page.get_by_role("button", name="To foundations").click()
    await changed(page, ref)
    up = [f for f in await flown(page) if f["up"]]
    assert len(up) == 2, up
    assert up[0]["delay"] < up[1]["delay"]
    await page.context.close()


@pytest.mark.parametrize("size", SIZES)
async def test_auto_finish_sends_every_card_up_in_turn_and_the_win_is_celebrated(
    module_web: Web, module_browser: Any, size: str
) -> None:
    """Auto-finish from the first position that finishes itself: every card left glides up,
    each after the one before; the table then celebrates the win where its piles were,
    with the moves (the server's words), the time and the hints, and ways to deal again."""
    user = a_player()
    line = winning_line("clover-leaf", 4)
    game = new_game("clover-leaf", 4)
    played = []
    for move in line:
        if game.finishes_itself():
            break
        game.play(move)
        played.append(move)
    session, _ = await deal(module_web, user, "clover-leaf", 4)
    await play(module_web, user, played)
    left = game.rules.card_count - game.cards_on_foundations
    page = await opened(module_browser, module_web, user, size)
    await page.locator("#tools [data-action=hint]").click()  # one hint, counted
    await page.locator("#say:not([hidden])").wait_for()
    ref = await ref_of(page)
    await page.get_by_role("button", name="Auto-finish").click()
    await changed(page, ref)
    records = await flown(page)
    up = [f for f in records if f["up"] and f["frames"] == 2]
    assert len(up) == left, (len(up), left)
    assert [f["delay"] for f in up] == sorted(f["delay"] for f in up)
    assert len({f["delay"] for f in up}) == left  # one after another
    won = page.locator("#won")
    await won.wait_for()
    await settled(page)
    text = await won.inner_text()
    assert re.search(r"Won with hints\b.* in \d+ moves", text), text
    result = (await board_of(module_web, session))["played"]  # as the result counts them
    seconds = int(result["seconds"])
    assert f"Time {seconds // 60}:{seconds % 60:02}" in text and result["hints"] == 1, text
    assert "Hints 1" in text, text
    assert await won.get_by_role("button", name="New deal").count() >= 1
    leaps = [f for f in records if f["up"] and f["frames"] == 3]
    assert len(leaps) == 4  # each foundation's top card
    # The celebration covers no card: it lies where the piles were.
    panel = await won.bounding_box()
    for card in await page.locator("#table .card").evaluate_all(
            "cs => cs.map(c => { const b = c.getBoundingClientRect(); "
            "return {x: b.left, y: b.top, r: b.right, b: b.bottom}; })"):
        assert min(card["r"], panel["x"] + panel["width"]) <= max(card["x"], panel["x"]) or \
            min(card["b"], panel["y"] + panel["height"]) <= max(card["y"], panel["y"]), card
    await page.context.close()


async def test_a_redeal_gathers_the_cards_and_deals_them_again(
    module_web: Web, module_browser: Any
) -> None:
    user = a_player()
    _, _board = await deal(module_web, user, "trefoil", 1)
    page = await opened(module_browser, module_web, user)
    ref = await ref_of(page)
    await page.get_by_role("button", name="Redeal").click()
    await changed(page, ref)
    gathered = [f for f in await flown(page) if f["frames"] == 3 and not f["up"]]
    assert len(gathered) > 30, len(gathered)
    assert len({f["delay"] for f in gathered}) == len(gathered)  # dealt one after another
    await page.context.close()


async def test_a_new_deal_is_dealt_card_by_card(module_web: Web, module_browser: Any) -> None:
    user = a_player()
    await deal(module_web, user, "trefoil", 1)
    page = await opened(module_browser, module_web, user)
    ref = await ref_of(page)
    await page.locator("#new").click()
    await page.get_by_role("button", name="Start new game").click()  # over the unfinished one
    await changed(page, ref)
    dealt = [f for f in await flown(page) if f["fades"]]
    assert len(dealt) == 48  # every pile's card
    await page.context.close()


async def play_everything(page: Any, board: dict[str, Any]) -> None:
    src, dst = next(m.split() for m in board["moves"] if m != "redeal")
    ref = await ref_of(page)
    await page.locator(f"[data-slot={slot_of(src)}] .card.top").click()
    await page.locator(f"[data-slot={slot_of(dst)}]").click()
    await changed(page, ref)
    for name in ("Undo", "To foundations", "Redeal"):
        ref = await ref_of(page)
        await page.get_by_role("button", name=name).click()
        await changed(page, ref)


async def test_nothing_moves_where_the_device_asks_for_reduced_motion(
    module_web: Web, module_browser: Any
) -> None:
    user = a_player()
    _, board = await deal(module_web, user, "trefoil", 1)
    page = await opened(module_browser, module_web, user, reduced_motion="reduce")
    await play_everything(page, board)
    assert await flown(page) == []
    assert await page.evaluate("document.getAnimations().length") == 0
    await page.locator("#gear").click()
    await page.locator("#settings[open]").wait_for()
    motion = page.locator("[data-setting=motion] input")
    assert not await motion.is_checked() and await motion.is_disabled()
    await page.context.close()


async def test_the_player_can_turn_the_motion_off_and_it_stays_off(
    module_web: Web, module_browser: Any
) -> None:
    user = a_player()
    _, board = await deal(module_web, user, "trefoil", 1)
    page = await opened(module_browser, module_web, user)
    await page.locator("#gear").click()
    await page.locator("#settings[open]").wait_for()
    motion = page.locator("[data-setting=motion] input")
    assert await motion.is_checked()
    await motion.uncheck()
    await page.get_by_role("button", name="Close").last.click()
    await page.reload()
    await page.locator(".slot .card").first.wait_for()
    await play_everything(page, board)
    assert await flown(page) == []
    await page.context.close()


async def test_the_clock_shows_the_time_played_paused_while_the_page_is_hidden(
    module_web: Web, module_browser: Any
) -> None:
    """The clock goes on from the time the server counts for the game's result (a reload,
    another device: the same clock), and stops while the page is hidden."""
    user = a_player()
    await deal(module_web, user, "clover-leaf", 2)
    await asyncio.sleep(2.2)  # played before the page opens: its result counts it
    made = await module_browser.new_context(**SIZES["400x860"])
    page = await made.new_page()
    await page.clock.install()
    await page.goto(f"{module_web.url}?dev_user={user}&locale=en-US")
    clock = page.locator("#clock")
    await page.locator(".slot .card").first.wait_for()
    before = int((await clock.inner_text()).split(":")[1])
    assert 2 <= before <= 4, before

    def at(seconds: int) -> str:
        return f"{seconds // 60}:{seconds % 60:02}"

    await page.clock.run_for(65_000)
    assert await clock.inner_text() == at(before + 65)

    async def hidden(yes: bool) -> None:
        await page.evaluate("""yes => { Object.defineProperty(document, 'hidden',
            {value: yes, configurable: true});
            document.dispatchEvent(new Event('visibilitychange')); }""", yes)

    await hidden(True)
    await page.clock.run_for(120_000)
    await hidden(False)
    assert await clock.inner_text() == at(before + 65)
    await page.clock.run_for(10_000)
    assert await clock.inner_text() == at(before + 75)
    assert await clock.get_attribute("aria-label") == "Time played"
    await made.close()
