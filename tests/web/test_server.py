"""The page's server without a browser: who may play (signed sessions; sign-in through
Discord, against the fake Discord; dev mode only when asked for, on loopback), and that
nothing the page sends is trusted — every move is the engine's to allow, bad input is
answered with what was wrong, and nothing refused is saved."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest

from bot.config import Config
from bot.web.running import WebRefused, web_ready
from bot.web.server import STATIC
from bot.web.sessions import Session, Sessions
from tests.e2e.fake_discord import FakeDiscord
from tests.said import read

from .conftest import Web

ALICE = 314_159_265_358_979_323
GUILD = 271_828_182_845_904_523


async def test_a_player_signs_in_through_discord_and_plays_as_themself(
    discord_web: Web, fake: FakeDiscord
) -> None:
    fake.locales[fake.user("alice").id] = "fr"
    signed = await discord_web.call("api/signin", {"code": fake.authorize("alice")})
    assert fake.access_tokens[signed["access_token"]] == fake.user("alice").id
    assert signed["language"] == "fr" and signed["words"]["newDeal"] == "Nouvelle donne"
    reply = await discord_web.call("api/new", {"game": "trefoil", "deal": 3},
                                   session=signed["session"])
    assert reply["board"]["piles"][0]["label"] == "pile 1"
    assert fake.client_secret not in str(signed)  # the secret never reaches the page


async def test_a_code_is_good_for_one_sign_in_and_a_made_up_one_for_none(
    discord_web: Web, fake: FakeDiscord
) -> None:
    code = fake.authorize("bob")
    await discord_web.call("api/signin", {"code": code})
    refused = await discord_web.call("api/signin", {"code": code}, status=401)
    assert refused == {"error": "Discord did not accept the sign-in."}
    await discord_web.call("api/signin", {"code": "made-up"}, status=401)


async def test_without_dev_mode_no_one_signs_in_as_a_user_the_page_names(
    discord_web: Web,
) -> None:
    await discord_web.call("api/dev/signin", {"user": str(ALICE)}, status=404)


def test_dev_mode_serves_on_loopback_only() -> None:
    assert web_ready(Config(web_host="127.0.0.1"), dev=True)
    with pytest.raises(WebRefused, match="loopback only"):
        web_ready(Config(web_host="0.0.0.0"), dev=True)
    assert not web_ready(Config(), dev=False)  # no OAuth2 client set up: no page
    assert web_ready(Config(client_id="1", client_secret="s"), dev=False)


async def test_a_session_not_signed_here_or_expired_plays_nothing(web: Web) -> None:
    other = Sessions("another server's secret").sign(ALICE, "en-US")
    await web.call("api/new", {"game": "trefoil"}, session=other, status=401)
    await web.call("api/new", {"game": "trefoil"}, session="", status=401)
    session = await web.dev_session(ALICE)
    data, _, mac = session.partition(".")
    forged = data[:-2] + ("AA" if data[-2:] != "AA" else "BB") + "." + mac
    await web.call("api/new", {"game": "trefoil"}, session=forged, status=401)
    stale = Sessions("k", clock=lambda: 0.0).sign(ALICE, "en-US")
    assert Sessions("k").read(stale) is None
    assert Sessions("k").read(Sessions("k").sign(ALICE, "de")).language == "de"  # type: ignore[union-attr]


async def test_an_illegal_move_is_refused_with_why_and_nothing_is_saved(web: Web) -> None:
    session = await web.dev_session(ALICE)
    board = (await web.call("api/new", {"game": "trefoil", "deal": 1}, session=session))["board"]
    illegal = next(f"{s} {d}" for s in range(1, 17) for d in range(1, 17)
                   if s != d and f"{s} {d}" not in board["moves"])
    reply = await web.call("api/act", {"action": "move", "move": illegal, "seen": board["ref"]},
                           session=session)
    assert reply["refused"] and reply["note"]
    assert (await web.call("api/board", session=session))["board"]["ref"] == board["ref"]


async def test_a_move_on_a_board_the_game_has_left_plays_nothing(web: Web) -> None:
    session = await web.dev_session(ALICE)
    board = (await web.call("api/new", {"game": "trefoil", "deal": 1}, session=session))["board"]
    first, second = board["moves"][:2]
    moved = await web.call("api/act", {"action": "move", "move": first, "seen": board["ref"]},
                           session=session)
    stale = await web.call("api/act", {"action": "move", "move": second, "seen": board["ref"]},
                           session=session)
    assert stale["refused"] and "out of date" in read(stale["note"])
    assert stale["board"]["ref"] == moved["board"]["ref"]


async def test_the_page_hears_of_a_move_only_once_the_game_moved(web: Web) -> None:
    session = await web.dev_session(ALICE)
    board = (await web.call("api/new", {"game": "trefoil", "deal": 1}, session=session))["board"]
    have = ".".join(map(str, board["ref"]))
    assert await web.call(f"api/board?have={have}", session=session) == {"same": True}
    await web.call("api/act", {"action": "move", "move": board["moves"][0], "seen": board["ref"]},
                   session=session)
    moved = await web.call(f"api/board?have={have}", session=session)
    assert moved["board"]["ref"][1] == board["ref"][1] + 1


@pytest.mark.parametrize(("path", "body", "why"), [
    ("api/act", {"action": "resign"}, "action must be one of"),
    ("api/act", {"action": "move", "move": "x" * 41}, "move must be a text of 1 to 40"),
    ("api/act", {"action": "undo", "seen": [1, "x"]}, "seen must be a board's"),
    ("api/new", {"game": "spider"}, "game must be one of"),
    ("api/new", {"game": "trefoil", "deal": -4}, "deal must be a number from 1"),
    ("api/answer", {"ask": "explode", "args": []}, "ask names no question"),
    ("api/answer", {"ask": "new", "args": ["x" * 99]}, "args must be a short list"),
])
async def test_what_the_page_never_sends_is_answered_with_what_was_wrong(
    web: Web, path: str, body: dict[str, Any], why: str
) -> None:
    session = await web.dev_session(ALICE)
    reply = await web.call(path, body, session=session, status=400)
    assert why in reply["error"]


async def test_a_new_deal_over_an_unfinished_game_asks_first(web: Web) -> None:
    session = await web.dev_session(ALICE)
    board = (await web.call("api/new", {"game": "trefoil", "deal": 1}, session=session))["board"]
    await web.call("api/act", {"action": "move", "move": board["moves"][0], "seen": board["ref"]},
                   session=session)
    asked = await web.call("api/new", {"game": "clover-leaf", "deal": 5}, session=session)
    question = asked["message"]["question"]
    assert question["ask"] == "new" and asked["board"] is None
    dealt = await web.call("api/answer", {"ask": "new", "args": question["args"], "yes": True},
                           session=session)
    assert dealt["board"]["game"] == "clover-leaf"


async def test_every_asset_is_served_compressed_from_here(web: Web) -> None:
    async with web.http.get(web.url + "app.js", headers={"Accept-Encoding": "gzip"}) as response:
        assert response.headers["Content-Encoding"] == "gzip"
        assert "script-src 'self'" in response.headers["Content-Security-Policy"]
        script = await response.text()  # read to the end: aiohttp 3.9.0's client otherwise
        # hands the next request a connection with this body still in it, and hangs there
    assert script == (STATIC / "app.js").read_text(encoding="utf-8"), "gzip, undone: the script"
    page = await web.call("")
    assert 'src="app.js"' in page and "{{" not in page


def test_a_session_carries_the_server_checked_at_sign_in_and_is_not_forged_to_another() -> None:
    keys = Sessions("k")
    token = keys.sign(ALICE, "en-US", GUILD)
    assert keys.read(token) == Session(ALICE, "en-US", GUILD)
    assert keys.read(keys.sign(ALICE, "en-US")) == Session(ALICE, "en-US", None)
    data, _, mac = token.partition(".")
    assert keys.read(f"{data[:-2]}AA.{mac}") is None


async def test_a_named_server_is_trusted_only_as_discord_answers(
    serve: Any, web_config: Config
) -> None:
    async def members(guild_id: int, user_id: int) -> bool | None:
        return {GUILD: True, GUILD + 1: False}.get(guild_id)  # GUILD + 2: Discord unreachable

    config = dataclasses.replace(web_config, web_secret="s")
    for asks, guild, trusted in ((members, GUILD, GUILD), (members, GUILD + 1, None),
                                 (members, GUILD + 2, None), (None, GUILD, None)):
        web: Web = await serve(config=config, members=asks)
        signed = await web.call("api/dev/signin", {"user": str(ALICE), "guild": str(guild)})
        session = Sessions("s").read(signed["session"])
        assert session is not None and session.guild_id == trusted, (guild, asks)
    await web.call("api/dev/signin", {"user": str(ALICE), "guild": "x"}, status=400)
