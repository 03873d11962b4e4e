"""Discord's rate limits, as its documentation describes them (topics/rate-limits), for the
fake Discord: a global limit on the bot's requests, a bucket per route and major parameter
announced in headers on every answer, and 429 answers past either, with the body and
headers Discord sends.

- **Global**: ``global_per_s`` requests in any second, counted across every process that
  uses the bot's token. The interaction endpoints (an interaction's callback, and its
  webhook: follow-ups and edits through its token) are not bound by it.
- **Per route**: each route (method and path template) with its major parameter (the
  channel, the guild, or the webhook with its token) is a bucket of ``limit`` requests per
  ``per_s`` seconds. Each answer of a limited route carries ``X-RateLimit-Limit``,
  ``-Remaining``, ``-Reset`` (epoch seconds), ``-Reset-After`` and ``-Bucket`` (one hash
  per route, shared by its major parameters).
- **429**: ``{"message": "You are being rate limited.", "retry_after": s, "global": b}``,
  with ``Retry-After`` and ``X-RateLimit-Scope`` (``user`` for a route's bucket,
  ``global``), and ``X-RateLimit-Global: true`` for the global limit.
- Every 401, 403 and 429 counts toward Discord's ban of a client that makes too many
  (10,000 in 10 minutes): ``invalid`` counts them.
- **Messages older than an hour**: a channel's take ``old_message_edits`` edits through its
  route (``PATCH /channels/{c}/messages/{m}``) in any ``per_s`` seconds, then a 429 with
  Discord's error 30046, "Maximum number of edits to messages older than 1 hour reached. Try
  again later". Discord documents the error and no number; 3 edits in 6 s a channel is what
  the userdoccers measured (discord-userdoccers, Edit Message). A message's age is on the
  fake's clock (``FakeDiscord.advance_clock`` makes messages old); the window is on this
  limiter's. Interaction responses and webhook edits are not counted: nothing documents it.
"""

from __future__ import annotations

import hashlib
import math
import re
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class Bucket:
    limit: int
    per_s: float


# A route's template in the fake's terms, and its bucket: what Discord announces for them.
CHANNEL_MESSAGES = Bucket(5, 5.0)  # a channel's messages: sent, edited or deleted
WEBHOOK_MESSAGES = Bucket(5, 2.0)  # an interaction's webhook: follow-ups and their edits
OLD_MESSAGE_EDITS = Bucket(3, 6.0)  # a channel's edits of its messages older than an hour
OLD_MESSAGE_S = 3600.0


@dataclass
class RateLimits:
    """The limits the fake keeps; ``enabled=False`` answers everything at once, as the fake
    once did (for a test of something else that must not wait)."""

    enabled: bool = True
    global_per_s: int = 50
    routes: dict[str, Bucket] = field(default_factory=lambda: {
        "POST /channels/{channel_id}/messages": CHANNEL_MESSAGES,
        "PATCH /channels/{channel_id}/messages/{message_id}": CHANNEL_MESSAGES,
        "DELETE /channels/{channel_id}/messages/{message_id}": CHANNEL_MESSAGES,
        "POST /webhooks/{app_id}/{token}": WEBHOOK_MESSAGES,
        "PATCH /webhooks/{app_id}/{token}/messages/{message_id}": WEBHOOK_MESSAGES,
        "DELETE /webhooks/{app_id}/{token}/messages/{message_id}": WEBHOOK_MESSAGES,
    })
    old_message_s: float = OLD_MESSAGE_S  # a message this old takes edits sparingly
    old_message_edits: Bucket = OLD_MESSAGE_EDITS  # in a channel, through its route


MAJOR = ("channel_id", "guild_id", "token")  # the parameters that part one bucket from another
INTERACTION_ENDPOINT = re.compile(r"/interactions/|/webhooks/")


@dataclass
class Limited:
    """A 429 the fake sent: when (monotonic), the route and major parameter, the scope."""

    at: float
    route: str
    major: str
    scope: str
    retry_after: float


@dataclass
class _Window:
    remaining: int
    resets_at: float  # monotonic


class RateLimiter:
    """Decides, request by request, whether an answer is a 429, and the headers of each."""

    def __init__(self, limits: RateLimits, clock: Callable[[], float] = time.monotonic) -> None:
        self.limits = limits
        self.clock = clock  # monotonic seconds; a test may hold it still
        self._global: deque[float] = deque()  # the times of the bot's requests this second
        self._windows: dict[tuple[str, str], _Window] = {}
        self._old_edits: dict[str, deque[float]] = {}  # channel -> its old messages' edits
        self.limited: list[Limited] = []  # every 429 sent, oldest first
        self.global_requests = 0  # requests bound by the global limit, 429s among them
        self.invalid = 0  # 401, 403 and 429 answers: what Discord bans for

    def count(self, status: int) -> None:
        """Count an answer toward the invalid requests."""
        if status in (401, 403, 429):
            self.invalid += 1

    def check(self, method: str, template: str, params: dict[str, str],
              bot_auth: bool) -> tuple[dict[str, Any] | None, dict[str, str]]:
        """Before a request is served: a 429's body, or None to serve it; and the headers
        its answer carries either way."""
        if not self.limits.enabled:
            return None, {}
        now = self.clock()
        route = f"{method} {template}"
        if bot_auth and not INTERACTION_ENDPOINT.search(template):
            self.global_requests += 1
            while self._global and self._global[0] <= now - 1.0:
                self._global.popleft()
            if len(self._global) >= self.limits.global_per_s:
                retry = max(0.001, self._global[0] + 1.0 - now)
                self.limited.append(Limited(now, route, "", "global", retry))
                return _body(retry, is_global=True), {
                    "Retry-After": str(math.ceil(retry)),
                    "X-RateLimit-Global": "true",
                    "X-RateLimit-Scope": "global",
                }
            self._global.append(now)
        bucket = self.limits.routes.get(route)
        if bucket is None:
            return None, {}
        major = "/".join(params[name] for name in MAJOR if name in params)
        window = self._windows.get((route, major))
        if window is None or now >= window.resets_at:
            window = self._windows[route, major] = _Window(bucket.limit, now + bucket.per_s)
        reset_after = max(0.0, window.resets_at - now)
        headers = {
            "X-RateLimit-Limit": str(bucket.limit),
            "X-RateLimit-Remaining": str(max(0, window.remaining - 1)),
            "X-RateLimit-Reset": f"{time.time() + reset_after:.3f}",
            "X-RateLimit-Reset-After": f"{reset_after:.3f}",
            "X-RateLimit-Bucket": hashlib.sha1(route.encode()).hexdigest()[:16],
        }
        if window.remaining == 0:
            self.limited.append(Limited(now, route, major, "user", reset_after))
            headers.update({"X-RateLimit-Remaining": "0", "X-RateLimit-Scope": "user",
                            "Retry-After": str(math.ceil(reset_after))})
            return _body(reset_after, is_global=False), headers
        window.remaining -= 1
        return None, headers


    def old_message_edit(self, channel_id: str, age_s: float) -> tuple[dict[str, Any] | None,
                                                                      dict[str, str]]:
        """An edit through the channel's route of one of its messages ``age_s`` old: a 429's
        body and headers (error 30046) past the channel's edits of old messages, else
        (None, {}) and the edit counted."""
        if not self.limits.enabled or age_s <= self.limits.old_message_s:
            return None, {}
        bucket, now = self.limits.old_message_edits, self.clock()
        edits = self._old_edits.setdefault(channel_id, deque())
        while edits and edits[0] <= now - bucket.per_s:
            edits.popleft()
        if len(edits) < bucket.limit:
            edits.append(now)
            return None, {}
        retry = max(0.001, edits[0] + bucket.per_s - now)
        route = "PATCH /channels/{channel_id}/messages/{message_id}"
        self.limited.append(Limited(now, route, channel_id, "old messages", retry))
        return {"message": "Maximum number of edits to messages older than 1 hour reached. Try "
                           "again later", "code": 30046, "retry_after": round(retry, 3),
                "global": False}, {"Retry-After": str(math.ceil(retry))}


def _body(retry_after: float, *, is_global: bool) -> dict[str, Any]:
    return {"message": "You are being rate limited.", "retry_after": round(retry_after, 3),
            "global": is_global}
