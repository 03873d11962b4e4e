"""What the page's browser tests of the table share: the five games, the four windows the
issue names (a phone held upright, with touch; the same phone on its side; two desktop
windows), dealing a game through the page's server, opening the page at a size, and the
table's geometry as the browser lays it out."""

from __future__ import annotations

import itertools
from typing import Any

from bot.replies import Action, Player
from bot.web.view import WebReplies
from engine import GAMES, new_game
from engine.solver import solve

from .conftest import Web

SIZES = {"400x860": {"viewport": {"width": 400, "height": 860}, "has_touch": True,
                     "is_mobile": True},
         "860x400": {"viewport": {"width": 860, "height": 400}, "has_touch": True,
                     "is_mobile": True},
         "1024x640": {"viewport": {"width": 1024, "height": 640}},
         "1280x800": {"viewport": {"width": 1280, "height": 800}}}
ALL_GAMES = list(GAMES)
_users = itertools.count(500_000_000_000_000_001)


def a_player() -> int:
    """A player of their own for a test (a hint's cooldown is each player's)."""
    return next(_users)


async def deal(web: Web, user: int, game: str, number: int = 1) -> tuple[str, dict[str, Any]]:
    """A new game for ``user`` as the page's New deal deals it: their session, the board."""
    session = await web.dev_session(user)
    reply = await web.call("api/new", {"game": game, "deal": number}, session=session)
    if reply["message"] and reply["message"]["question"]:
        question = reply["message"]["question"]
        reply = await web.call("api/answer", {"ask": question["ask"], "args": question["args"],
                                              "yes": True}, session=session)
    assert reply["board"] is not None, reply
    return session, reply["board"]


async def board_of(web: Web, session: str) -> dict[str, Any]:
    board: dict[str, Any] = (await web.call("api/board", session=session))["board"]
    return board


async def play(web: Web, user: int, moves: list[str]) -> None:
    """Play ``moves`` for ``user`` through the core, as the page's server would."""
    player = Player(user)
    for move in moves:
        replies = WebReplies(player)
        if move == "redeal":
            await web.core.act(player, Action.REDEAL, presenter=replies)
        else:
            await web.core.act(player, Action.MOVE, move, presenter=replies)
        assert not replies.reply.refused, (move, replies.reply.text)


def winning_line(game: str, number: int) -> list[str]:
    found = solve(new_game(game, number), budget_s=5.0)
    assert found.moves, f"{game} deal {number} has no winning line found"
    return found.moves


async def open_at(browser: Any, web: Web, user: int, size: str, **context: Any) -> Any:
    """The page at ``size`` for ``user``, once the table is laid out."""
    made = await browser.new_context(**SIZES[size], **context)
    page = await made.new_page()
    await page.goto(f"{web.url}?dev_user={user}&locale={context.get('locale', 'en-US')}")
    await page.locator(".slot .card").first.wait_for()
    return page


async def geometry(page: Any) -> dict[str, Any]:
    """Where everything lies on the screen: each card (its rect, its index's rect), each
    slot, the texts that must fit their boxes, the header, the message."""
    return await page.evaluate("""() => {
      const r = (el) => { const b = el.getBoundingClientRect();
        return {x: b.left, y: b.top, r: b.right, b: b.bottom}; };
      const ruler = document.createElement('canvas').getContext('2d');
      const chosen = (el) => {  // a list's chosen line, with the room its arrow takes
        const style = getComputedStyle(el);
        ruler.font = `${style.fontSize} ${style.fontFamily}`;
        return ruler.measureText(el.selectedOptions[0].text).width + 24; };
      const slots = [...document.querySelectorAll('#table .slot')].map(s => ({
        name: s.dataset.slot, box: r(s),
        cards: [...s.querySelectorAll('.card')].map(c => ({
          code: c.dataset.code, box: r(c), index: r(c.querySelector('.index')),
          hidden: c.getAttribute('aria-hidden') === 'true'})),
        cap: r(s.querySelector('.cap')),
      }));
      const texts = [...document.querySelectorAll(
          '#table .cap, #table .count, #table .base, header button, header select, #headline')]
        .filter(el => el.offsetParent !== null && getComputedStyle(el).visibility !== 'hidden')
        .map(el => ({what: (el.id || el.className) + ' ' + el.textContent,
                     sw: el.tagName === 'SELECT' ? chosen(el) : el.scrollWidth,
                     cw: el.clientWidth, sh: el.scrollHeight,
                     ch: el.clientHeight, font: parseFloat(getComputedStyle(el).fontSize),
                     tool: el.closest('#tools') !== null}));
      const say = document.getElementById('say');
      return {vw: document.documentElement.clientWidth, vh: innerHeight,
              sw: document.documentElement.scrollWidth, sh: document.documentElement.scrollHeight,
              header: r(document.querySelector('header')), slots, texts,
              say: say.hidden ? null : r(say)};
    }""")


def overlap(a: dict[str, float], b: dict[str, float]) -> bool:
    """Whether two rects share any area (touching edges do not)."""
    return min(a["r"], b["r"]) - max(a["x"], b["x"]) > 0.5 and \
        min(a["b"], b["b"]) - max(a["y"], b["y"]) > 0.5
