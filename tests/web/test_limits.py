"""One client cannot take the page's server from everyone: each player's requests, each
address's sign-ins and everyone's sign-ins at Discord are within a share (429, or 503 when
it is everyone's, with Retry-After); Discord's own 429 on the token exchange is honoured;
a forwarded address is believed only from a trusted proxy; a silent connection is closed.
(How fast everyone else is answered meanwhile is measured by benchmarks.web_flood.)"""

from __future__ import annotations

import asyncio
import dataclasses
import ipaddress
import logging
import time
from typing import Any

import pytest

import bot.web.running
import bot.web.server
from bot.config import Config
from bot.replies import Player
from bot.web import limits
from bot.web.limits import Buckets, Rate, client_address
from bot.web.view import WebReplies
from tests.e2e.fake_discord import FakeDiscord

from .conftest import Web

ALICE = 314_159_265_358_979_323
BOB = 271_828_182_845_904_523
HARDLY = 0.001  # a bucket that refills about never within a test
LOOPBACK = (ipaddress.ip_network("127.0.0.1/32"),)


@pytest.fixture(autouse=True)
def refused_at_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """A refusal's hold (limits.HOLD_S) is a matter of time: the tests below wait for none."""
    monkeypatch.setattr(limits, "HOLD_S", 0.0)


def no_error_logged(caplog: pytest.LogCaptureFixture) -> None:
    assert [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR] == []


async def refused(web: Web, path: str, body: dict[str, Any] | None = None, *,
                  session: str = "", status: int = 429,
                  headers: dict[str, str] | None = None) -> dict[str, Any]:
    sent = dict(headers or {}) | ({"Authorization": f"Bearer {session}"} if session else {})
    async with web.http.request("POST" if body is not None else "GET", web.url + path,
                                json=body, headers=sent) as response:
        assert response.status == status, await response.text()
        assert int(response.headers["Retry-After"]) >= 1
        answer: dict[str, Any] = await response.json()
        return answer


def discord_config(config: Config, fake: FakeDiscord) -> Config:
    return dataclasses.replace(config, client_id=str(fake.application_id),
                               client_secret=fake.client_secret)


def token_exchanges(fake: FakeDiscord) -> int:
    return sum(1 for method, path, _ in fake.requests if path.endswith("/oauth2/token"))


async def test_a_player_past_their_share_is_answered_429_and_no_one_else_is(
    serve: Any, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    monkeypatch.setattr(limits, "PER_PLAYER", Rate(per_s=HARDLY, burst=3))
    web: Web = await serve()
    alice = await web.dev_session(ALICE)
    board = (await web.call("api/new", {"game": "trefoil", "deal": 1}, session=alice))["board"]
    await web.call("api/board", session=alice)
    await web.call("api/board", session=alice)
    polled = await refused(web, "api/board", session=alice)
    assert "Too many requests" in polled["error"]
    await refused(web, "api/act", {"action": "move", "move": board["moves"][0],
                                   "seen": board["ref"]}, session=alice)
    again = await web.dev_session(ALICE)  # a new session is the same player's share
    await refused(web, "api/board", session=again)
    bob = await web.dev_session(BOB)
    assert (await web.call("api/new", {"game": "trefoil", "deal": 2}, session=bob))["board"]
    shown = WebReplies(Player(ALICE, None, "en-US"))
    await web.core.board(shown.player, presenter=shown)
    assert shown.reply.board is not None and [shown.reply.board.ref.game_row,
                                              shown.reply.board.ref.revision] == board["ref"]
    no_error_logged(caplog)


async def test_sign_ins_reach_discord_within_one_budget_for_everyone(
    serve: Any, web_config: Config, fake: FakeDiscord, monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
) -> None:
    monkeypatch.setattr(limits, "SIGN_INS_TO_DISCORD", Rate(per_s=HARDLY, burst=2))
    web: Web = await serve(dev=False, config=discord_config(web_config, fake),
                           api=fake.api_base)
    for junk in ("junk-1", "junk-2"):
        await web.call("api/signin", {"code": junk}, status=401)
    code = fake.authorize("alice")
    busy = await refused(web, "api/signin", {"code": code}, status=503)
    assert "Discord is signing in too many players" in busy["error"]
    assert token_exchanges(fake) == 2 and code in fake.oauth_codes, "the third never left"
    no_error_logged(caplog)


async def test_discords_429_on_the_token_exchange_is_honoured_until_its_retry_after(
    discord_web: Web, fake: FakeDiscord, caplog: pytest.LogCaptureFixture
) -> None:
    fake.token_limited_until = time.monotonic() + 120
    busy = await refused(discord_web, "api/signin", {"code": fake.authorize("alice")},
                         status=503)
    assert "try again" in busy["error"]
    fake.token_limited_until = 0.0  # Discord would take it now, but said 120 s
    code = fake.authorize("bob")
    async with discord_web.http.post(discord_web.url + "api/signin",
                                     json={"code": code}) as response:
        assert response.status == 503 and int(response.headers["Retry-After"]) > 60
    assert token_exchanges(fake) == 1 and code in fake.oauth_codes
    said = [r for r in caplog.records if "429" in r.getMessage()]
    assert len(said) == 1 and said[0].levelno == logging.WARNING, "told once"
    no_error_logged(caplog)


async def test_sign_ins_are_limited_by_the_address_a_trusted_proxy_forwards(
    serve: Any, web_config: Config, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(limits, "SIGN_INS_PER_ADDRESS", Rate(per_s=HARDLY, burst=2))
    web: Web = await serve(config=dataclasses.replace(web_config,
                                                      web_trusted_proxies=LOOPBACK))

    async def sign_in(forwarded: str, status: int = 200) -> None:
        headers = {"X-Forwarded-For": forwarded}
        async with web.http.post(web.url + "api/dev/signin", json={"user": str(ALICE)},
                                 headers=headers) as response:
            assert response.status == status, (forwarded, await response.text())

    await sign_in("198.51.100.7")
    await sign_in("198.51.100.7")
    await sign_in("198.51.100.7", 429)
    await sign_in("198.51.100.8, 198.51.100.7", 429)  # what the player wrote comes first
    await sign_in("198.51.100.8")  # another player behind the same proxy: their own share
    await sign_in("198.51.100.7, 198.51.100.9")


async def test_a_forwarded_address_is_not_believed_but_from_a_trusted_proxy(
    serve: Any, web_config: Config, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(limits, "SIGN_INS_PER_ADDRESS", Rate(per_s=HARDLY, burst=2))
    no_proxy: Web = await serve()  # no proxy trusted: no address known, none limited
    for _ in range(4):
        await no_proxy.call("api/dev/signin", {"user": str(ALICE)})
    elsewhere = (ipaddress.ip_network("10.0.0.0/8"),)  # the peer, 127.0.0.1, is not one
    web: Web = await serve(config=dataclasses.replace(web_config,
                                                      web_trusted_proxies=elsewhere))
    for n in (1, 2):
        async with web.http.post(web.url + "api/dev/signin", json={"user": str(ALICE)},
                                 headers={"X-Forwarded-For": f"198.51.100.{n}"}) as response:
            assert response.status == 200
    await refused(web, "api/dev/signin", {"user": str(ALICE)},
                  headers={"X-Forwarded-For": "198.51.100.3"})


def test_the_address_is_the_first_one_no_trusted_proxy_added() -> None:
    proxies = (ipaddress.ip_network("127.0.0.1/32"), ipaddress.ip_network("10.0.0.0/8"))
    assert client_address("127.0.0.1", ["203.0.113.1"], ()) is None
    assert client_address("127.0.0.1", ["203.0.113.1"], proxies) == "203.0.113.1"
    assert client_address("127.0.0.1", ["6.6.6.6, 203.0.113.1, 10.1.2.3"],
                          proxies) == "203.0.113.1"
    assert client_address("127.0.0.1", ["6.6.6.6", "203.0.113.1"], proxies) == "203.0.113.1"
    assert client_address("192.0.2.5", ["203.0.113.1"], proxies) == "192.0.2.5"
    assert client_address("127.0.0.1", [], proxies) == "127.0.0.1"
    assert client_address("127.0.0.1", ["not an address"], proxies) == "127.0.0.1"
    assert client_address("127.0.0.1", ["2001:db8::1"], proxies) == "2001:db8::1"
    assert client_address(None, ["203.0.113.1"], proxies) is None


def test_a_bucket_refills_at_its_rate_and_keeps_its_keys_bounded() -> None:
    now = [0.0]
    buckets = Buckets(Rate(per_s=2, burst=2), keys=3, clock=lambda: now[0])
    assert [buckets.take("a") for _ in range(3)] == [0.0, 0.0, 0.5]
    now[0] = 0.5
    assert buckets.take("a") == 0.0 and buckets.take("a") > 0
    for key in range(10):
        assert buckets.take(key) == 0.0
    assert len(buckets) == 3


async def test_a_connection_that_sends_nothing_or_too_slowly_is_closed(
    serve: Any, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    monkeypatch.setattr(bot.web.running, "IDLE_S", 0.3)
    monkeypatch.setattr(bot.web.running, "LINGER_S", 0.3)
    monkeypatch.setattr(bot.web.bodies, "BODY_READ_S", 0.3)
    web: Web = await serve()
    request = "GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"
    slow_body = ("POST /api/dev/signin HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                 "Content-Type: application/json\r\nContent-Length: 100\r\n\r\n{")
    for sent, answered in (("", b""), ("GET / HTTP/1.1\r\nHo", b""),
                           (request, b"HTTP/1.1 200"), (slow_body, b"HTTP/1.1 408")):
        reader, writer = await asyncio.open_connection("127.0.0.1", web.serving.port)
        try:
            writer.write(sent.encode())
            heard = await asyncio.wait_for(reader.read(), timeout=30)  # until it is closed
        finally:
            writer.close()
        assert heard.startswith(answered), (sent, heard[:80])
    no_error_logged(caplog)
