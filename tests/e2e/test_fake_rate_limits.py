"""The fake Discord keeps Discord's rate limits (rate_limits.py): the global limit on the
bot's requests, buckets per route and major parameter announced in headers, 429 answers as
documented, the interaction endpoints outside the global limit, and a count of the invalid
requests Discord bans for. Its clock is held still here, so that nothing depends on how fast
the machine sends."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import aiohttp
import pytest

from .fake_discord import FakeDiscord
from .rate_limits import RateLimits


class Held:
    """A clock that moves only when told."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
async def held(fake: FakeDiscord) -> Held:
    clock = Held()
    fake.rate_limiter.clock = clock
    return clock


@pytest.fixture
async def http(fake: FakeDiscord) -> AsyncIterator[aiohttp.ClientSession]:
    async with aiohttp.ClientSession(headers={"Authorization": f"Bot {fake.token}"}) as session:
        yield session


def api(fake: FakeDiscord, path: str) -> str:
    return f"{fake.api_base}/{path}"


async def edit(fake: FakeDiscord, http: aiohttp.ClientSession, channel_id: int,
               message_id: int) -> tuple[int, dict[str, str], Any]:
    async with http.patch(api(fake, f"channels/{channel_id}/messages/{message_id}"),
                          json={"content": "edited"}) as answer:
        return answer.status, dict(answer.headers), await answer.json()


@pytest.mark.problems_expected  # 429s on purpose
async def test_a_channels_messages_are_a_bucket_announced_in_headers(
    fake: FakeDiscord, held: Held, http: aiohttp.ClientSession
) -> None:
    channel = fake.guild.channel
    message = fake.post_earlier_message(content="an old board", channel=channel)
    answers = [await edit(fake, http, channel.id, message.id) for _ in range(6)]
    assert [status for status, _, _ in answers[:5]] == [200] * 5
    first = answers[0][1]
    assert first["X-RateLimit-Limit"] == "5" and first["X-RateLimit-Remaining"] == "4"
    assert float(first["X-RateLimit-Reset-After"]) == pytest.approx(5.0)
    assert first["X-RateLimit-Bucket"] and "X-RateLimit-Reset" in first
    assert answers[4][1]["X-RateLimit-Remaining"] == "0"
    status, headers, body = answers[5]
    assert status == 429
    assert body == {"message": "You are being rate limited.", "retry_after": 5.0,
                    "global": False}
    assert headers["X-RateLimit-Scope"] == "user" and headers["Retry-After"] == "5"
    assert "X-RateLimit-Global" not in headers
    # another channel is another bucket; the same route's bucket id is the same
    elsewhere = fake.guild.channels[1]
    other = fake.post_earlier_message(content="elsewhere", channel=elsewhere)
    status, headers, _ = await edit(fake, http, elsewhere.id, other.id)
    assert status == 200 and headers["X-RateLimit-Bucket"] == first["X-RateLimit-Bucket"]
    held.now += 5.0  # the bucket resets
    assert (await edit(fake, http, channel.id, message.id))[0] == 200
    assert [(limit.route, limit.scope) for limit in fake.rate_limited] == [
        ("PATCH /channels/{channel_id}/messages/{message_id}", "user")]
    assert fake.rate_limiter.invalid == 1


@pytest.mark.problems_expected  # 429s on purpose
async def test_the_global_limit_counts_every_request_with_the_bots_token(
    fake: FakeDiscord, held: Held, http: aiohttp.ClientSession
) -> None:
    fake.rate_limiter.limits = RateLimits(global_per_s=3)
    statuses = []
    for _ in range(4):
        async with http.get(api(fake, "users/@me")) as answer:
            statuses.append(answer.status)
            last = (dict(answer.headers), await answer.json())
    assert statuses == [200, 200, 200, 429]
    headers, body = last
    assert body == {"message": "You are being rate limited.", "retry_after": 1.0, "global": True}
    assert headers["X-RateLimit-Global"] == "true" and headers["X-RateLimit-Scope"] == "global"
    held.now += 1.0
    async with http.get(api(fake, "users/@me")) as answer:
        assert answer.status == 200
    assert fake.rate_limiter.global_requests == 5 and fake.rate_limiter.invalid == 1


@pytest.mark.problems_expected  # a 401 on purpose
async def test_a_401_counts_toward_the_ban_and_interaction_endpoints_are_not_global(
    fake: FakeDiscord, held: Held
) -> None:
    fake.rate_limiter.limits = RateLimits(global_per_s=1)
    async with aiohttp.ClientSession() as anonymous:
        async with anonymous.get(api(fake, "users/@me")) as answer:
            assert answer.status == 401
        for _ in range(3):  # an unknown token: a 404, never a global 429
            async with anonymous.patch(api(fake, f"webhooks/{fake.application_id}/nope/messages/1"),
                                       json={"content": "x"}) as answer:
                assert answer.status == 404
    assert fake.rate_limiter.invalid == 1 and fake.rate_limiter.global_requests == 0
    assert fake.rate_limited == []


async def test_limits_can_be_switched_off(fake: FakeDiscord, held: Held,
                                          http: aiohttp.ClientSession) -> None:
    fake.rate_limiter.limits = RateLimits(enabled=False)
    channel = fake.guild.channel
    message = fake.post_earlier_message(content="an old board", channel=channel)
    answers = [await edit(fake, http, channel.id, message.id) for _ in range(8)]
    assert {status for status, _, _ in answers} == {200}
    assert "X-RateLimit-Limit" not in answers[0][1]
