"""The page's socket (``api/live``), without a browser: the board pushed the moment the game
changes elsewhere (the console, another page of the player's, a hint, the deal forgotten),
nothing pushed that the page says it has, and every socket the page would never open closed
with a code that says why."""

from __future__ import annotations

import asyncio
import io
import json
from pathlib import Path
from typing import Any

import aiohttp
import pytest

from bot.console.terminal import Console
from bot.core import Core
from bot.flows import changes
from bot.replies import Player
from bot.web import live

from .conftest import Web
from .test_page_schema import check

ALICE = 314_159_265_358_979_323
BOB = 271_828_182_845_904_523
QUIET_S = 0.5  # nothing pushed within this: nothing was going to be


class Socket:
    """A page's socket, as the page uses it."""

    def __init__(self, ws: aiohttp.ClientWebSocketResponse) -> None:
        self.ws = ws

    async def say(self, **said: Any) -> None:
        await self.ws.send_str(json.dumps(said))

    async def pushed(self, within_s: float = 5.0) -> dict[str, Any]:
        message = await self.ws.receive(timeout=within_s)
        assert message.type is aiohttp.WSMsgType.TEXT, message
        data: dict[str, Any] = json.loads(message.data)
        check("Pushed", data)
        return data

    async def nothing(self) -> None:
        with pytest.raises(asyncio.TimeoutError):
            message = await self.ws.receive(timeout=QUIET_S)
            raise AssertionError(f"pushed unasked: {message.data[:200]}")

    async def closed(self, within_s: float = 5.0) -> tuple[int, str]:
        message = await self.ws.receive(timeout=within_s)
        assert message.type is aiohttp.WSMsgType.CLOSE, message
        return int(message.data), str(message.extra)


def shows(board: dict[str, Any] | None) -> dict[str, Any]:
    """What a page showing ``board`` says it shows, as the page says it."""
    if board is None:
        return {"have": None, "lost": False, "fourColour": False}
    return {"have": board["ref"], "lost": board["lost"], "fourColour": board["fourColour"]}


def page_named(name: str) -> str:
    return f"page-{name}-0123"


async def connect(web: Web, session: str | None, board: dict[str, Any] | None = None,
                  page: str = "one", **said: Any) -> Socket:
    """Page ``page``'s socket, signed in with ``session`` (None: nothing said yet), showing
    ``board`` (or what ``said`` says)."""
    ws = await web.http.ws_connect(web.url + "api/live")
    socket = Socket(ws)
    if session is not None:
        await socket.say(session=session, page=page_named(page), **{**shows(board), **said})
    return socket


async def deal(web: Web, session: str, number: int = 1) -> dict[str, Any]:
    reply = await web.call("api/new", {"game": "trefoil", "deal": number}, session=session)
    board: dict[str, Any] = reply["board"]
    return board


def console(web: Web, tmp_path: Path, user: int = ALICE) -> Console:
    return Console(web.core, tmp_path, io.StringIO(), Player(user, None, "en"), colour=False)


async def test_a_console_move_is_pushed_to_the_page_at_once(web: Web, tmp_path: Path) -> None:
    session = await web.dev_session(ALICE)
    board = await deal(web, session)
    socket = await connect(web, session, board)
    await socket.nothing()  # the page has the board: nothing to send
    await console(web, tmp_path).handle(board["moves"][0])
    moved = (await socket.pushed())["board"]
    assert moved["ref"] == [board["ref"][0], 1] and moved["moves"] != board["moves"]
    await socket.nothing()


async def test_a_page_without_the_board_is_sent_it_and_then_only_changes(
    web: Web, tmp_path: Path
) -> None:
    session = await web.dev_session(ALICE)
    board = await deal(web, session)
    socket = await connect(web, session, None)
    assert (await socket.pushed())["board"]["ref"] == board["ref"]
    stale = await connect(web, session, board, lost=True)
    assert (await stale.pushed())["board"]["lost"] is False  # (what it said it has is not so)
    await socket.nothing()


async def test_a_move_on_another_page_reaches_this_one_but_not_the_page_that_made_it(
    web: Web
) -> None:
    phone, laptop = await web.dev_session(ALICE), await web.dev_session(ALICE)
    board = await deal(web, phone)
    on_phone = await connect(web, phone, board, page="phone")
    on_laptop = await connect(web, laptop, board, page="laptop")
    headers = {"Authorization": f"Bearer {phone}", "X-Page": page_named("phone")}
    async with web.http.post(web.url + "api/act", headers=headers, json={
            "action": "move", "move": board["moves"][0], "seen": board["ref"]}) as answer:
        reply = await answer.json()
    assert (await on_laptop.pushed())["board"]["ref"] == reply["board"]["ref"]
    await on_phone.nothing()


async def test_only_the_players_own_game_is_pushed_to_them(web: Web, tmp_path: Path) -> None:
    alice, bob = await web.dev_session(ALICE), await web.dev_session(BOB)
    board = await deal(web, alice)
    bobs = await deal(web, bob, 2)
    on_bobs_page = await connect(web, bob, bobs)
    await console(web, tmp_path).handle(board["moves"][0])
    await on_bobs_page.nothing()


async def test_a_game_forgotten_elsewhere_leaves_the_page_without_one(
    web: Web, tmp_path: Path
) -> None:
    session = await web.dev_session(ALICE)
    board = await deal(web, session)
    socket = await connect(web, session, board)
    await web.core.data_rights.forget(Player(ALICE, None, "en"))
    assert await socket.pushed() == {"noGame": True}
    await socket.nothing()
    await deal(web, session, 3)
    assert (await socket.pushed())["board"]["ref"][1] == 0


async def test_the_four_colour_deck_chosen_elsewhere_is_pushed(web: Web, tmp_path: Path) -> None:
    session = await web.dev_session(ALICE)
    board = await deal(web, session)
    socket = await connect(web, session, board)
    await console(web, tmp_path).handle(f"/settings four_colour:{not board['fourColour']}")
    pushed = (await socket.pushed())["board"]
    assert pushed["ref"] == board["ref"] and pushed["fourColour"] is not board["fourColour"]


@pytest.mark.parametrize(("said", "code", "why"), [
    ({"session": "forged.abc", "have": None}, live.SIGNED_OUT, "sign in"),
    ({"have": None}, live.SIGNED_OUT, "session"),
    ({"session": "", "have": [1, "x"]}, live.SIGNED_OUT, "sign in"),
    ("not json", live.BAD_MESSAGE, "JSON"),
    ([1, 2], live.BAD_MESSAGE, "object"),
])
async def test_a_first_message_the_page_never_sends_closes_the_socket_saying_why(
    web: Web, said: Any, code: int, why: str
) -> None:
    socket = await connect(web, None)
    await socket.ws.send_str(said if isinstance(said, str) else json.dumps(said))
    closed, reason = await socket.closed()
    assert closed == code and why in reason, (closed, reason)


@pytest.mark.parametrize(("have", "why"), [
    ([1], "have must be"), ([1, -1], "have must be"), ("1.2", "have must be"),
    ([True, 1], "have must be"),
])
async def test_what_the_page_shows_must_be_said_as_the_page_says_it(
    web: Web, have: Any, why: str
) -> None:
    session = await web.dev_session(ALICE)
    socket = await connect(web, session, have=have)
    closed, reason = await socket.closed()
    assert closed == live.BAD_MESSAGE and why in reason, (closed, reason)
    later = await connect(web, session, None, lost="yes")
    closed, reason = await later.closed()
    assert closed == live.BAD_MESSAGE and "true or false" in reason, (closed, reason)
    for page in (None, "short", "x" * 41, "a page"):
        socket = await connect(web, None)
        await socket.say(session=session, page=page, **shows(None))
        closed, reason = await socket.closed()
        assert closed == live.BAD_MESSAGE and "page must be" in reason, (page, closed, reason)


async def test_a_socket_that_says_nothing_is_closed(web: Web,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(live, "HELLO_S", 0.2)
    socket = await connect(web, None)
    closed, reason = await socket.closed()
    assert closed == live.BAD_MESSAGE and "first message" in reason


async def test_a_message_too_long_closes_the_socket(web: Web) -> None:
    socket = await connect(web, None)
    await socket.ws.send_str("x" * (live.MESSAGE_LIMIT + 1))
    closed, _ = await socket.closed()
    assert closed == aiohttp.WSCloseCode.MESSAGE_TOO_BIG


async def test_one_player_keeps_a_few_pages_open_not_hundreds(web: Web) -> None:
    session = await web.dev_session(ALICE)
    await deal(web, session)
    kept = [await connect(web, session, None) for _ in range(live.SOCKETS_PER_PLAYER)]
    for socket in kept:
        await socket.pushed()
    one_more = await connect(web, session, None)
    closed, reason = await one_more.closed()
    assert closed == live.TOO_MANY and f"at most {live.SOCKETS_PER_PLAYER}" in reason
    await kept[0].ws.close()
    for _ in range(50):  # its place is given back once the server has seen it go
        again = await connect(web, session, None)
        message = await again.ws.receive(timeout=5)
        if message.type is aiohttp.WSMsgType.TEXT:
            break
        await asyncio.sleep(0.02)
    else:
        raise AssertionError("a page closed kept its place")


async def test_a_page_says_what_it_shows_once_and_nothing_after(web: Web) -> None:
    session = await web.dev_session(ALICE)
    socket = await connect(web, session, None)
    await socket.say(have=None)
    closed, reason = await socket.closed()
    assert closed == live.BAD_MESSAGE and "speaks once" in reason


async def test_a_request_naming_a_page_not_as_the_page_does_is_a_clear_400(web: Web) -> None:
    session = await web.dev_session(ALICE)
    headers = {"Authorization": f"Bearer {session}", "X-Page": "<script>"}
    async with web.http.get(web.url + "api/board", headers=headers) as answer:
        assert answer.status == 400 and "X-Page" in (await answer.json())["error"]


async def test_api_live_without_an_upgrade_is_a_clear_400(web: Web) -> None:
    answer = await web.call("api/live", status=400)
    assert "WebSocket" in answer["error"]


async def test_the_server_stopping_tells_its_pages_it_is_going_away(serve: Any) -> None:
    web = await serve()
    session = await web.dev_session(ALICE)
    socket = await connect(web, session, None)
    await socket.nothing()
    await web.serving.close()
    closed, reason = await socket.closed()
    assert closed == aiohttp.WSCloseCode.GOING_AWAY and "restarting" in reason


async def test_a_move_made_by_another_process_on_the_sqlite_file_is_pushed(
    web: Web, web_config: Any, tmp_path: Path
) -> None:
    """SQLite's notices stay in their process: the page's process looks at the games its
    pages follow every second, and pushes what another process (the bot's) changed."""
    session = await web.dev_session(ALICE)
    board = await deal(web, session)
    socket = await connect(web, session, board)
    other = await Core.open(web_config.database, render_processes=0)
    try:
        await Console(other, tmp_path, io.StringIO(), Player(ALICE, None, "en"),
                      colour=False).handle(board["moves"][0])
        moved = (await socket.pushed(within_s=3 * changes.LOOK_S))["board"]
        assert moved["ref"] == [board["ref"][0], 1]
        await other.data_rights.forget(Player(ALICE, None, "en"))
        assert await socket.pushed(within_s=3 * changes.LOOK_S) == {"noGame": True}
    finally:
        await other.close()
