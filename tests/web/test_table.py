"""The table in a real browser (issue 46, items 1 and 3), in every game at the four windows
the issue names: every card on the screen without scrolling, with no text cut or spilling
out of its box and nothing overlapping, as dealt and once play has lengthened the piles;
every pile, foundation and Corner Stones stack named as hints and refusals name it; a
picked card lighting every place it can go, whatever lies there; a hint lighting its card
and where it goes, and saying both in words; messages where no card is, going by
themselves."""

from __future__ import annotations

import re
from typing import Any

import pytest

from engine import FOUNDATION, new_game

from .conftest import Web
from .tables import (
    ALL_GAMES,
    SIZES,
    a_player,
    board_of,
    deal,
    geometry,
    open_at,
    overlap,
    play,
)

pytestmark = pytest.mark.asyncio(loop_scope="module")


def lengthening(game_id: str, number: int, most: int = 14) -> list[str]:
    """Up to ``most`` moves between piles, each onto the longest pile it can go on: a
    position whose fans are longer than any deal's."""
    game = new_game(game_id, number)
    made: list[str] = []
    for _ in range(most):
        moves = [m for m in game.legal_moves() if m.kind != FOUNDATION and m.dst >= 0
                 and str(m) != "redeal" and not str(m).startswith("draw")]
        if not moves:
            break
        move = max(moves, key=lambda m: (len(game.tableau[m.dst]), -m.src))
        game.play(move)
        made.append(str(move))
    return made


def assert_fits(seen: dict[str, Any], where: str, fanned: bool = True) -> None:
    vw, vh = seen["vw"], seen["vh"]
    assert seen["sw"] <= vw and seen["sh"] <= vh, f"{where}: the page scrolls: {seen['sw']}x{seen['sh']}"
    header = seen["header"]
    cards = 0
    for slot in seen["slots"]:
        box = slot["box"]
        assert box["y"] >= header["b"] - 0.5, f"{where}: {slot['name']} under the header"
        assert slot["cap"]["b"] <= (slot["cards"][0]["box"]["y"] if slot["cards"] else box["b"]) + 0.5
        for i, card in enumerate(slot["cards"]):
            cards += 1
            c = card["box"]
            assert c["x"] >= 0 and c["r"] <= vw and c["y"] >= 0 and c["b"] <= vh, (
                f"{where}: {card['code']} of {slot['name']} is off the screen: {c}")
            later = slot["cards"][i + 1:]
            if fanned and slot["name"].startswith("p"):  # each card's index shows above the next
                for on in later[:1]:
                    assert on["box"]["y"] >= card["index"]["b"] - 0.5, (
                        f"{where}: {card['code']}'s index is covered in {slot['name']}: {card} {on}")
    for a, b in ((a, b) for i, a in enumerate(seen["slots"]) for b in seen["slots"][i + 1:]):
        assert not overlap(a["box"], b["box"]), f"{where}: {a['name']} and {b['name']} overlap"
    for text in seen["texts"]:
        assert text["sw"] <= text["cw"] + 1 and text["sh"] <= text["ch"] + 1, (
            f"{where}: '{text['what']}' is cut or spills out of its box: {text}")
        assert text["font"] >= (11 if text["tool"] else 9), (
            f"{where}: '{text['what']}' is too small to read")
    assert cards


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("game", ALL_GAMES)
@pytest.mark.parametrize("played", [0, 5, 30], ids=["dealt", "grown", "packed"])
async def test_every_card_is_on_the_screen_and_every_text_fits_its_box(
    module_web: Web, module_browser: Any, game: str, size: str, played: int
) -> None:
    """As dealt, after 5 moves onto the longest piles (each card's index still shows above
    the next), and after 30 (fans longer than play brings: closed up, but on the screen)."""
    user = a_player()
    session, _ = await deal(module_web, user, game, 3)
    await play(module_web, user, lengthening(game, 3, played))
    board = await board_of(module_web, session)
    page = await open_at(module_browser, module_web, user, size)
    seen = await geometry(page)
    assert_fits(seen, f"{game} at {size}, {played} moves played", fanned=played < 30)
    on_table = sum(len(s["cards"]) for s in seen["slots"])
    assert on_table == sum(len(p["cards"]) for p in board["piles"]) + \
        sum(len(f["cards"]) for f in board["foundations"])
    await page.context.close()


@pytest.mark.parametrize("game", ALL_GAMES)
async def test_each_place_shows_the_name_hints_and_refusals_use(
    module_web: Web, module_browser: Any, game: str
) -> None:
    """Each pile's caption is its name as a hint says it ("pile 8", Corner Stones' "stack
    2 (C2)"), each foundation's as a move types it (f2); the hint the player asks for names
    a place the table shows."""
    user = a_player()
    session, board = await deal(module_web, user, game, 2)
    page = await open_at(module_browser, module_web, user, "1280x800")
    names = await page.locator("#table .slot").evaluate_all(
        "ss => ss.map(s => [s.getAttribute('aria-label'), s.querySelector('.cap').textContent])")
    expected = [[f["label"], f"f{i + 1}"] for i, f in enumerate(board["foundations"])]
    expected += [[p["label"], p["name"]] for p in board["piles"]]
    assert names == expected
    if game == "corner-stones":
        assert ["stack 4 (S2)", "4 (S2)"] in names and ["stack 2 (C2)", "2 (C2)"] in names
    hinted = await module_web.call("api/act", {"action": "hint"}, session=session)
    words = " ".join(p.get("text", "") for line in hinted["note"] for p in line)
    shown = {cap for _, cap in names}
    for place in re.findall(r"(?:pile|stack) (\d+(?: \([CS]\d\))?)|foundation (f\d)", words):
        assert (place[0] or place[1]) in shown, (words, shown)
    await page.context.close()


async def lit(page: Any) -> list[str]:
    return await page.locator("#table .lit").evaluate_all(
        "ls => ls.map(l => l.closest('.slot').dataset.slot)")


@pytest.mark.parametrize("size", SIZES)
async def test_a_picked_card_lights_every_place_it_can_go_whatever_lies_there(
    module_web: Web, module_browser: Any, size: str
) -> None:
    user = a_player()
    _, board = await deal(module_web, user, "four-leaf-clovers", 4)
    moves = board["moves"]
    src = max({int(m.split()[0]) for m in moves},
              key=lambda s: sum(m.startswith(f"{s} ") for m in moves))
    targets = sorted(m.split()[1] for m in moves if m.startswith(f"{src} "))
    assert any(not t.startswith("f") and board["piles"][int(t) - 1]["cards"] for t in targets)
    page = await open_at(module_browser, module_web, user, size)
    await page.locator(f"[data-slot=p{src - 1}] .card.top").click()
    want = sorted(f"f{int(t[1:]) - 1}" if t.startswith("f") else f"p{int(t) - 1}" for t in targets)
    assert sorted(await lit(page)) == want
    # Each lit card is its pile's top card, seen on top: nothing covers its light.
    for slot in want:
        top = page.locator(f"[data-slot={slot}] .lit")
        assert await top.evaluate("""el => { const b = el.getBoundingClientRect();
            const at = document.elementFromPoint(b.left + b.width / 2, b.bottom - 4);
            return el.contains(at) && getComputedStyle(el).boxShadow !== 'none'; }""")
    await page.locator(f"[data-slot=p{src - 1}] .card.top").click()  # put back
    assert await lit(page) == []
    await page.context.close()


@pytest.mark.parametrize("size", SIZES)
async def test_a_hint_lights_its_card_and_where_it_goes_and_says_both(
    module_web: Web, module_browser: Any, size: str
) -> None:
    user = a_player()
    _, board = await deal(module_web, user, "clover-leaf", 7)
    page = await open_at(module_browser, module_web, user, size)
    await page.locator("#close").click()
    await page.locator("#tools [data-action=hint]").click()
    said = page.locator("#say:not([hidden])")
    await said.wait_for()
    text = await page.locator("#words").inner_text()
    move = re.search(r"\b(\d+) (f?\d+)\b", text)
    assert move, text
    src, dst = move.groups()
    card = board["piles"][int(src) - 1]["cards"][-1]
    assert await page.locator("#say").get_attribute("aria-live") == "polite"
    assert f"{card['rank']}{'♣♦♥♠'[card['suit']]}" in text and re.search(
        rf"(pile|foundation) {dst}\b", text), text
    src_slot, dst_slot = f"p{int(src) - 1}", (f"f{int(dst[1:]) - 1}" if dst.startswith("f")
                                              else f"p{int(dst) - 1}")
    assert await page.locator(f"[data-slot={src_slot}] .card.hint-from").get_attribute(
        "data-code") == card["code"]
    assert await page.locator(f"[data-slot={dst_slot}] .hint-to").count() == 1
    assert await page.locator("#table .hint-from, #table .hint-to").count() == 2
    await page.context.close()


async def test_a_hint_to_press_a_button_lights_the_button(
    module_web: Web, module_browser: Any
) -> None:
    user = a_player()
    await deal(module_web, user, "corner-stones", 7)  # its hint: press To foundations
    page = await open_at(module_browser, module_web, user, "1024x640")
    await page.locator("#tools [data-action=hint]").click()
    await page.locator("#tools [data-action=found].hinted").wait_for()
    assert await page.locator("#table .hint-from").count() == 0
    await page.context.close()


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("game", ALL_GAMES)
async def test_messages_never_cover_a_card_and_go_by_themselves(
    module_web: Web, module_browser: Any, game: str, size: str
) -> None:
    """A refusal with its legal moves (one of the longest messages play brings) lies where
    no card is, whole or scrolled within its box, and is gone some seconds later."""
    user = a_player()
    _, board = await deal(module_web, user, game, 5)
    made = await module_browser.new_context(**SIZES[size])
    page = await made.new_page()
    await page.clock.install()
    await page.goto(f"{module_web.url}?dev_user={user}&locale=en-US")
    await page.locator(".slot .card").first.wait_for()
    moves = board["moves"]
    src = next(s for s in range(1, len(board["piles"]) + 1) if board["piles"][s - 1]["cards"])
    bad = next(d for d in range(1, len(board["piles"]) + 1)
               if d != src and f"{src} {d}" not in moves)
    await page.locator(f"[data-slot=p{src - 1}] .card.top").click()
    await page.locator(f"[data-slot=p{bad - 1}]").click()
    await page.locator("#words", has_text="Legal now").wait_for()
    seen = await geometry(page)
    say = seen["say"]
    assert say is not None and say["r"] <= seen["vw"] and say["b"] <= seen["vh"]
    assert say["y"] >= seen["header"]["b"] - 0.5
    for slot in seen["slots"]:
        for card in slot["cards"]:
            assert not overlap(say, card["box"]), (card["code"], say)
    await page.clock.run_for(16_000)
    await page.locator("#say").wait_for(state="hidden")
    await made.close()


@pytest.mark.parametrize("size", SIZES)
async def test_the_longest_new_game_message_stays_in_the_window_its_stop_by_its_button(
    module_web: Web, module_browser: Any, size: str
) -> None:
    """Corner Stones' new game says the most (its share line and its rules in short): the
    message keeps within the window, scrolled within its box where it must be, and the
    stop after the share line stays beside the Copy button."""
    user = a_player()
    made = await module_browser.new_context(**SIZES[size])
    page = await made.new_page()
    await page.goto(f"{module_web.url}?dev_user={user}&locale=en-US")
    await page.locator("#game").select_option("corner-stones")
    await page.get_by_role("button", name="New deal").first.click()
    await page.locator("#words .share").wait_for()
    seen = await geometry(page)
    say = seen["say"]
    assert say is not None and say["r"] <= seen["vw"] and say["b"] <= seen["vh"], (say, seen["vh"])
    for slot in seen["slots"]:
        for card in slot["cards"]:
            assert not overlap(say, card["box"]), (card["code"], say)
    share = page.locator("#words .share")
    assert (await share.inner_text()).endswith(".")  # "/new corner-stones 42 Copy."
    stop = await share.locator("span").bounding_box()
    copy = await share.get_by_role("button", name="Copy").bounding_box()
    assert stop and copy and abs((stop["y"] + stop["height"]) - (copy["y"] + copy["height"])) < 12
    await made.close()
