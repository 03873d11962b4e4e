"""Tidy: earlier boards collapsed through the interaction that posted them while its token
lives, else through the channel's route within the budget all processes share; the edits waiting are
bounded, one per message; a 429 is logged once with its scope."""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import AsyncIterator
from types import SimpleNamespace
from typing import Any

import discord
import pytest
from aiohttp import test_utils, web
from discord.http import Route

from bot.discord.rate_limits import Budget, QuietRetries, fleet_share
from bot.discord.tidy import REFUSED_FOR_S, TOKEN_LIFETIME_S, Tidy, Upload


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


class Http:
    """discord.py's HTTP client as Tidy uses it (for the channel's route): each request
    recorded as its path."""

    user_agent = "DiscordBot (test)"

    def __init__(self) -> None:
        self.paths: list[str] = []
        self.bodies: list[dict[str, Any]] = []

        self.refusing: set[int] = set()  # channels that answer 403
        self.limiting: dict[int, int] = {}  # channels that answer this status (429, 400...)

    async def request(self, route: Any, json: dict[str, Any] | None = None,
                      **multipart: Any) -> None:
        self.paths.append(route.path.format_map(
            {"webhook_id": route.webhook_id, "webhook_token": route.webhook_token,
             "channel_id": route.channel_id, "message_id": route.url.rsplit("/", 1)[1]}))
        self.bodies.append(json if json is not None else multipart)
        if route.channel_id in self.refusing:
            raise discord.Forbidden(SimpleNamespace(status=403, reason="Forbidden"),  # type: ignore[arg-type]
                                    {"code": 50001, "message": "Missing Access"})
        if route.channel_id in self.limiting:
            status = self.limiting[route.channel_id]
            raise discord.HTTPException(SimpleNamespace(status=status, reason="Refused"),  # type: ignore[arg-type]
                                        {"code": 0, "message": f"{status}: refused"})


class Client:
    application_id = 42

    def __init__(self) -> None:
        self.http = Http()

    def is_closed(self) -> bool:
        return False


def interaction(token: str) -> Any:
    return SimpleNamespace(token=token)


class Webhooks:
    """Discord's interaction webhooks on loopback: each PATCH recorded as its path and
    body, answered with the statuses queued for its token (then 200)."""

    def __init__(self) -> None:
        self.paths: list[str] = []
        self.bodies: list[Any] = []
        self.agents: list[str] = []
        self.answers: dict[str, list[int]] = {}
        self.files: list[bytes | None] = []  # each request's files[0], if it had one
        self.gate: asyncio.Event | None = None  # while set to one unset, answers wait

    async def edit(self, request: web.Request) -> web.Response:
        self.paths.append(request.path)
        self.agents.append(request.headers["User-Agent"])
        if request.content_type == "multipart/form-data":
            form = await request.post()
            payload = form["payload_json"]  # sent as application/json: its bytes
            self.bodies.append(json.loads(payload if isinstance(payload, str | bytes | bytearray)
                                          else payload.file.read()))
            picture = form["files[0]"]
            assert isinstance(picture, web.FileField)
            self.files.append(picture.file.read())
        else:
            self.bodies.append(await request.json())
            self.files.append(None)
        if self.gate is not None:
            await self.gate.wait()
        queued = self.answers.get(request.match_info["token"], [])
        status = queued.pop(0) if queued else 200
        if status == 429:
            return web.json_response(
                {"message": "You are being rate limited.", "retry_after": 0.01,
                 "global": False},
                status=429, headers={"Retry-After": "0.01", "X-RateLimit-Scope": "user"})
        return web.json_response({"id": "1"} if status == 200 else {"code": 0}, status=status)


@pytest.fixture
async def webhooks(monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[Webhooks]:
    hooks = Webhooks()
    app = web.Application()
    app.router.add_patch("/api/v10/webhooks/{app}/{token}/messages/{message}", hooks.edit)
    async with test_utils.TestServer(app, host="127.0.0.1") as server:
        monkeypatch.setattr(Route, "BASE", str(server.make_url("/api/v10")))
        yield hooks


async def settle() -> None:
    for _ in range(5):
        await asyncio.sleep(0)


def test_the_budget_lets_a_burst_through_then_paces() -> None:
    clock = Clock()
    budget = Budget(rate=2.0, burst=2.0, clock=clock)
    assert [budget.wait_s(), budget.wait_s()] == [0.0, 0.0]
    assert budget.wait_s() == pytest.approx(0.5)  # two a second: the third waits half of one
    clock.now += 10  # a quiet while refills the burst, no more
    assert [budget.wait_s(), budget.wait_s(), budget.wait_s() > 0] == [0.0, 0.0, True]


async def until(done: Any, timeout_s: float = 5.0) -> None:
    """Let the background requests run until ``done()`` holds."""
    for _ in range(int(timeout_s / 0.01)):
        if done():
            return
        await asyncio.sleep(0.01)
    raise AssertionError("the requests did not happen in time")


async def test_a_board_is_collapsed_through_the_interaction_that_posted_it(
    webhooks: Webhooks,
) -> None:
    client, clock = Client(), Clock()
    tidy = Tidy(client, clock=clock)  # type: ignore[arg-type]
    tidy.posted(501, interaction("tok-a"), original=True)
    tidy.posted(502, interaction("tok-b"), original=False)
    tidy.collapse(9, 501, "gone", channel_route=True)
    tidy.collapse(9, 502, "gone", channel_route=True)
    await until(lambda: tidy.counts.through_interaction == 2)
    assert sorted(webhooks.paths) == ["/api/v10/webhooks/42/tok-a/messages/@original",
                                      "/api/v10/webhooks/42/tok-b/messages/502"]
    assert webhooks.bodies[0] == {"content": "gone", "attachments": [], "components": []}
    assert webhooks.agents == ["DiscordBot (test)"] * 2
    assert client.http.paths == [], "not through discord.py's client and its buckets"
    assert tidy.counts.through_channel == 0
    await tidy.close()


async def test_a_429_on_the_webhook_is_waited_out_and_a_refused_token_takes_the_channel(
    webhooks: Webhooks, caplog: pytest.LogCaptureFixture,
) -> None:
    client, clock = Client(), Clock()
    tidy = Tidy(client, clock=clock)  # type: ignore[arg-type]
    tidy.start()
    webhooks.answers = {"tok-a": [429, 500], "tok-b": [401], "tok-c": [404]}
    for message, token in ((501, "tok-a"), (502, "tok-b"), (503, "tok-c")):
        tidy.posted(message, interaction(token), original=True)
        with caplog.at_level(logging.WARNING):
            tidy.collapse(9, message, "gone", channel_route=True)
    await until(lambda: tidy.counts.through_interaction == 1 and tidy.counts.through_channel)
    assert sorted(webhooks.paths).count("/api/v10/webhooks/42/tok-a/messages/@original") == 3
    assert client.http.paths == ["/channels/9/messages/502"], "refused: the channel's route"
    assert tidy.counts.rate_limited == 1, "the 429 is heard on this session too"
    assert ["scope user" in r.getMessage() for r in caplog.records] == [True]
    await tidy.close()


async def test_an_expired_interaction_leaves_the_board_to_the_channels_route_paced() -> None:
    client, clock = Client(), Clock()
    tidy = Tidy(client, share=0.5, total_rate=4.0, clock=clock)  # type: ignore[arg-type]
    assert tidy.budget.rate == 2.0, "half the budget all processes share: half its shards"
    tidy.posted(501, interaction("tok-a"), original=True)
    clock.now += TOKEN_LIFETIME_S  # the token has (nearly) run out
    tidy.collapse(9, 501, "gone", channel_route=False)
    await settle()
    assert client.http.paths == [], "not in the server: no channel route, the board stays"
    tidy.posted(502, interaction("tok-b"), original=True)
    clock.now += TOKEN_LIFETIME_S
    tidy.start()
    tidy.collapse(9, 502, "gone", channel_route=True)
    await settle()
    assert client.http.paths == ["/channels/9/messages/502"]
    assert tidy.counts.through_channel == 1
    await tidy.close()


async def test_edits_waiting_are_one_per_message_and_bounded(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    monkeypatch.setattr("bot.discord.tidy.WAITING_LIMIT", 3)
    client = Client()
    tidy = Tidy(client)  # type: ignore[arg-type]  # not started: the edits wait
    tidy.edit_later(9, 1, {"content": "first"})
    tidy.edit_later(9, 1, {"content": "newer"})  # the waiting edit of 1 is pointless now
    for message in (2, 3, 4, 5):
        tidy.edit_later(9, message, {"content": "x"})
    assert list(tidy._waiting) == [3, 4, 5], "1 and 2 were the oldest"
    assert tidy.counts.dropped == 2
    assert sum("wait for Discord's rate limit" in r.getMessage() for r in caplog.records) == 1
    tidy.edit_later(9, 3, {"content": "newest"})
    assert list(tidy._waiting) == [4, 5, 3] and tidy._waiting[3][1] == {"content": "newest"}
    tidy.start()
    await settle()
    assert client.http.paths == ["/channels/9/messages/4", "/channels/9/messages/5",
                                 "/channels/9/messages/3"]
    await tidy.close()


async def test_the_pictures_waiting_are_bounded_too(monkeypatch: pytest.MonkeyPatch) -> None:
    """Boards refreshed from the page carry their picture: the queue holds at most
    WAITING_BYTES of them, the oldest dropped first, and a replaced edit gives its back."""
    monkeypatch.setattr("bot.discord.tidy.WAITING_BYTES", 250)
    tidy = Tidy(Client())  # type: ignore[arg-type]  # not started: the edits wait
    for message in (1, 2, 3):
        tidy.edit_later(9, message, {"content": "x"}, Upload("board.png", bytes(100)))
    assert list(tidy._waiting) == [2, 3] and tidy._waiting_bytes == 200
    tidy.edit_later(9, 2, {"content": "y"}, Upload("board.png", bytes(50)))  # replaces 2's
    assert list(tidy._waiting) == [3, 2] and tidy._waiting_bytes == 150
    tidy.edit_later(9, 4, {"content": "z"})  # no picture: no bytes
    assert tidy._waiting_bytes == 150 and tidy.counts.dropped == 1


async def test_a_429_is_logged_once_with_its_route_and_scope(
    caplog: pytest.LogCaptureFixture,
) -> None:
    tidy = Tidy(Client())  # type: ignore[arg-type]
    response = SimpleNamespace(status=429, headers={"X-RateLimit-Scope": "global",
                                                    "Retry-After": "1"})
    params: Any = SimpleNamespace(method="PATCH", response=response,
                                  url=SimpleNamespace(path="/api/v10/channels/9/messages/4"))
    with caplog.at_level(logging.WARNING):
        await tidy._on_request_end(None, None, params)  # type: ignore[arg-type]
        params.response = SimpleNamespace(status=200, headers={})
        await tidy._on_request_end(None, None, params)  # type: ignore[arg-type]
    assert [r.getMessage() for r in caplog.records] == [
        "Discord answered 429 (rate limited) to PATCH /api/v10/channels/9/messages/4: scope "
        "global, retry after 1 s"]
    assert tidy.counts.rate_limited == 1
    quiet = QuietRetries()
    assert not quiet.filter(logging.makeLogRecord(
        {"msg": "We are being rate limited. %s %s responded with 429."}))
    assert quiet.filter(logging.makeLogRecord({"msg": "Any other line"}))


async def test_a_channel_edit_refused_by_discord_is_a_line_in_the_log_not_a_traceback(
    caplog: pytest.LogCaptureFixture,
) -> None:
    client = Client()
    client.http.limiting.update({9: 429, 10: 400})
    tidy = Tidy(client)  # type: ignore[arg-type]
    with caplog.at_level(logging.DEBUG, logger="bot.discord.tidy"):
        await tidy.edit_now(9, 1, {"content": "x"})  # its 429 is told where it is heard
        await tidy.edit_now(10, 2, {"content": "x"})
    assert [r.exc_info for r in caplog.records] == [None, None], "no traceback"
    assert [r.levelno for r in caplog.records] == [logging.DEBUG, logging.WARNING]
    assert caplog.records[1].getMessage() == (
        "could not edit message 2 in channel 10: 400 Refused (error code: 0): 400: refused")
    await tidy.close()


def test_the_fleets_shares_add_up_to_one_budget_with_the_page_apart_or_not() -> None:
    assert [fleet_share(1, 2, page_apart=False)] * 2 == [0.5, 0.5]
    shard_processes = [fleet_share(n, 3, page_apart=True) for n in (2, 1)]
    page = fleet_share(1, 3, page_apart=True)  # the page's own process (--web)
    assert sum(shard_processes) + page == pytest.approx(1.0)
    assert page == pytest.approx(0.25), "as one shard more"


async def test_a_live_board_is_shown_anew_through_its_interaction_with_its_picture(
    webhooks: Webhooks,
) -> None:
    client, clock = Client(), Clock()
    tidy = Tidy(client, clock=clock)  # type: ignore[arg-type]
    tidy.start()
    tidy.posted(501, interaction("tok-a"), original=True)
    body = {"content": "board", "attachments": [{"id": 0, "filename": "board.png"}]}
    tidy.refresh(9, 501, body, Upload("board.png", b"PNG-1"))
    await until(lambda: tidy.counts.through_interaction == 1)
    assert webhooks.paths == ["/api/v10/webhooks/42/tok-a/messages/@original"]
    assert webhooks.bodies == [body] and webhooks.files == [b"PNG-1"]
    tidy.posted(502, interaction("tok-b"), original=True)
    clock.now += TOKEN_LIFETIME_S  # its token has run out: the channel's route, paced
    tidy.refresh(9, 502, body, Upload("board.png", b"PNG-2"))
    await until(lambda: tidy.counts.through_channel == 1)
    assert client.http.paths == ["/channels/9/messages/502"]
    await tidy.close()


async def test_the_newest_edit_of_a_board_lands_last_and_those_it_overtook_are_not_sent(
    webhooks: Webhooks,
) -> None:
    """Two refreshes and then the collapse of one board, while the first is on its way:
    the second is never sent, and the collapse goes after the first, so the board stays
    collapsed."""
    client, clock = Client(), Clock()
    tidy = Tidy(client, clock=clock)  # type: ignore[arg-type]
    tidy.posted(501, interaction("tok-a"), original=True)
    webhooks.gate = asyncio.Event()
    tidy.refresh(9, 501, {"content": "first"}, Upload("board.png", b"1"))
    await until(lambda: len(webhooks.paths) == 1)
    tidy.refresh(9, 501, {"content": "second"}, Upload("board.png", b"2"))
    tidy.collapse(9, 501, "gone", channel_route=True)
    webhooks.gate.set()
    await until(lambda: tidy.counts.through_interaction == 2)
    assert [b["content"] for b in webhooks.bodies] == ["first", "gone"]
    assert webhooks.files == [b"1", None] and client.http.paths == []
    await tidy.close()


async def test_a_channel_that_refuses_an_edit_is_asked_none_for_a_while() -> None:
    client, clock = Client(), Clock()
    client.http.refusing.add(9)  # the bot is not in that server (installed to the player)
    tidy = Tidy(client, clock=clock)  # type: ignore[arg-type]
    tidy.start()
    tidy.edit_later(9, 1, {"content": "x"})
    await until(lambda: client.http.paths == ["/channels/9/messages/1"])
    for message in (2, 3):
        tidy.edit_later(9, message, {"content": "x"})
    await tidy.edit_now(9, 4, {"content": "x"})
    tidy.edit_later(10, 5, {"content": "x"})  # another channel is asked as before
    await until(lambda: len(client.http.paths) == 2)
    await settle()
    assert client.http.paths == ["/channels/9/messages/1", "/channels/10/messages/5"]
    clock.now += REFUSED_FOR_S
    tidy.edit_later(9, 6, {"content": "x"})
    await until(lambda: len(client.http.paths) == 3)
    assert client.http.paths[-1] == "/channels/9/messages/6", "asked again after a while"
    await tidy.close()
