"""Tidy: earlier boards collapsed through the interaction that posted them while its token
lives, else through the channel's route within the budget all processes share; the edits waiting are
bounded, one per message; a 429 is logged once with its scope."""

from __future__ import annotations

import asyncio
import logging
from types import SimpleNamespace
from typing import Any

import pytest

from bot.discord.tidy import TOKEN_LIFETIME_S, Budget, QuietRetries, Tidy, Upload


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


class Http:
    """discord.py's HTTP client as Tidy uses it: each request recorded as its path."""

    def __init__(self) -> None:
        self.paths: list[str] = []
        self.bodies: list[dict[str, Any]] = []

    async def request(self, route: Any, json: dict[str, Any]) -> None:
        self.paths.append(route.path.format_map(
            {"webhook_id": route.webhook_id, "webhook_token": route.webhook_token,
             "channel_id": route.channel_id, "message_id": route.url.rsplit("/", 1)[1]}))
        self.bodies.append(json)


class Client:
    application_id = 42

    def __init__(self) -> None:
        self.http = Http()

    def is_closed(self) -> bool:
        return False


def interaction(token: str) -> Any:
    return SimpleNamespace(token=token)


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


async def test_a_board_is_collapsed_through_the_interaction_that_posted_it() -> None:
    client, clock = Client(), Clock()
    tidy = Tidy(client, clock=clock)  # type: ignore[arg-type]
    tidy.posted(501, interaction("tok-a"), original=True)
    tidy.posted(502, interaction("tok-b"), original=False)
    tidy.collapse(9, 501, "gone", channel_route=True)
    tidy.collapse(9, 502, "gone", channel_route=True)
    await settle()
    assert client.http.paths == ["/webhooks/42/tok-a/messages/@original",
                                 "/webhooks/42/tok-b/messages/502"]
    assert client.http.bodies[0] == {"content": "gone", "attachments": [], "components": []}
    assert tidy.counts.through_interaction == 2 and tidy.counts.through_channel == 0
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
