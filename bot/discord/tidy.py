"""A tidy channel within Discord's rate limits: each player's earlier board collapsed to one
line, through the interaction that posted it, in the background.

Discord allows a bot 50 requests a second across all its processes, on every route but the
interaction endpoints, and a channel's messages a few edits every few seconds. Collapsing
earlier boards through the channel's routes met both limits at a few processes' load. So:

* **Through the interaction.** A board remembers the interaction that posted it (or that
  last edited it in place, a press): for 15 minutes that interaction's token edits it
  through its webhook, an interaction endpoint, bound by neither the global limit nor the
  channel's. This is how nearly every board is collapsed.
* **Through the channel, paced.** An older board (its token gone, or the process restarted)
  is edited through the channel's route, within this process's share of one budget for all the
  bot's processes (``CHANNEL_EDITS_PER_S``, shared by shard count), which the challenges'
  message updates draw on too, and so do the boards a move on the Activity's page brings
  up to date (a page's process of its own takes a share as one shard more, the shard
  processes' shrinking to leave it: ``fleet_share``). discord.py waits on
  each route's own bucket as its headers announce. Waiting edits are a bounded queue, one
  per message: a newer edit of a message replaces the waiting one, and beyond
  ``WAITING_LIMIT`` the oldest is dropped.
* **Never in the way.** An answer hands its collapse over and is done; nothing here holds a
  player's lock or keeps an interaction waiting.

A 429 from Discord is logged once, at WARNING, with its route and scope, and counted in a
statistics line logged every ``REPORT_EVERY_S`` (with the boards collapsed each way).
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import json
import logging
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from types import SimpleNamespace
from typing import Any

import aiohttp
import discord
from discord.http import Route

from engine.lru import LRU

log = logging.getLogger(__name__)

TOKEN_LIFETIME_S = 15 * 60  # an interaction's token edits its messages this long
TOKEN_MARGIN_S = 60  # used only while this much of its life is left
CHANNEL_EDITS_PER_S = 10.0  # the processes' channel-route edits: a fifth of the
# global limit, the rest left to everything else a bot asks (and to other processes' slips)
WAITING_LIMIT = 5_000  # channel-route edits waiting, at most (the oldest dropped beyond)
WAITING_BYTES = 32 * 2**20  # and the pictures they carry, at most (about 800 boards)
REMEMBERED = 50_000  # boards whose interaction is remembered: the live ones of active players
REPORT_EVERY_S = 600  # the statistics line, this often
WEBHOOK_TRIES = 3  # a collapse through its interaction, past a 429 or a 5xx
MAX_WAIT_S = 30.0  # the longest a collapse waits on one answer, or before trying again
_JSON = {"Content-Type": "application/json"}


@dataclass(frozen=True)
class Posted:
    """How a board message can be edited without the channel's route: the token of the
    interaction that posted (or last updated) it, and whether it is that interaction's
    original response (else a follow-up, edited by its id)."""

    token: str
    original: bool
    issued: float  # monotonic seconds, when the interaction came


@dataclass(frozen=True)
class Upload:
    """A file that goes with an edit: its name and bytes."""

    filename: str
    data: bytes


@dataclass
class Counts:
    through_interaction: int = 0
    through_channel: int = 0
    dropped: int = 0
    rate_limited: int = 0

    def any(self) -> bool:
        return any(vars(self).values())


class Budget:
    """A token bucket: ``rate`` edits a second, ``burst`` at once."""

    def __init__(self, rate: float, burst: float,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.rate = rate
        self.burst = burst
        self._tokens = burst
        self._clock = clock
        self._at = clock()

    def wait_s(self) -> float:
        """Take one edit's token: how long to wait first (0: at once)."""
        now = self._clock()
        self._tokens = min(self.burst, self._tokens + (now - self._at) * self.rate)
        self._at = now
        self._tokens -= 1
        return 0.0 if self._tokens >= 0 else -self._tokens / self.rate

    async def take(self) -> None:
        delay = self.wait_s()
        if delay > 0:
            await asyncio.sleep(delay)


def fleet_share(shards: int, of: int, *, page_apart: bool) -> float:
    """A process's part of the channel edits' budget, its ``shards`` of the ``of`` that the
    fleet's processes serve between them. Where the Activity's page runs in a process of its
    own (``page_apart``: a fleet with the Activity set up), that process counts as one shard
    more (it asks with ``shards`` 1), so the parts still add up to the one budget."""
    return shards / (of + 1 if page_apart else of)


class Tidy:
    """One bot process's collapses and channel-route edits (see the module's docstring).
    ``share``: this process's part of all of them (its shards / all shards)."""

    def __init__(self, client: discord.Client, share: float = 1.0, *,
                 total_rate: float = CHANNEL_EDITS_PER_S,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self._client = client
        self.clock = clock  # monotonic seconds; a test may move it
        rate = max(0.5, total_rate * share)
        self.budget = Budget(rate, burst=max(1.0, rate), clock=clock)
        self._posted: LRU[int, Posted] = LRU(REMEMBERED)
        # message id -> (channel id, JSON body, its picture): the channel-route edits
        # waiting, oldest first
        self._waiting: OrderedDict[int, tuple[int, dict[str, Any], Upload | None]] = \
            OrderedDict()
        self._waiting_bytes = 0  # of the pictures the waiting edits carry
        self._wake = asyncio.Event()
        self._tasks: set[asyncio.Task[None]] = set()
        self._runner: asyncio.Task[None] | None = None
        self._trace = aiohttp.TraceConfig()  # the 429s of this class's own requests
        self._trace.on_request_end.append(self._on_request_end)
        self._session: aiohttp.ClientSession | None = None  # for interactions' webhooks
        self.counts = Counts()

    # -- what the answers tell -----------------------------------------------------------

    def posted(self, message_id: int, interaction: discord.Interaction[Any], *,
               original: bool) -> None:
        """A board went up (or was updated in place) through ``interaction``, just now: its
        token can edit ``message_id`` while it lives (counted from the answer, a few
        seconds after the interaction came at most: ``TOKEN_MARGIN_S`` covers them)."""
        self._posted[message_id] = Posted(interaction.token, original, self.clock())

    def collapse(self, channel_id: int, message_id: int, text: str, *,
                 channel_route: bool) -> None:
        """Collapse an earlier board to ``text``, its picture and buttons dropped: started
        here, done in the background. ``channel_route``: whether the bot may edit the
        channel's messages itself (not where it is installed to the player alone); if not,
        a board whose interaction has expired stays whole."""
        body = {"content": text, "attachments": [], "components": []}
        posted = self._posted.pop(message_id, None)
        if posted is not None and self.clock() - posted.issued < TOKEN_LIFETIME_S - TOKEN_MARGIN_S:
            self._spawn(self._through_interaction(channel_id, message_id, posted, body,
                                                  channel_route))
        elif channel_route:
            self.edit_later(channel_id, message_id, body)

    def edit_later(self, channel_id: int, message_id: int, body: dict[str, Any],
                   upload: Upload | None = None) -> None:
        """Edit a channel message through its route, paced within the budget; a newer edit
        of the same message replaces one still waiting. ``upload``: the file the body's
        ``attachments`` name as id 0 (a board's picture)."""
        if message_id in self._waiting:
            self._unwait(message_id)
        self._waiting[message_id] = (channel_id, body, upload)
        self._waiting_bytes += 0 if upload is None else len(upload.data)
        while len(self._waiting) > WAITING_LIMIT or self._waiting_bytes > WAITING_BYTES:
            self._unwait(next(iter(self._waiting)))
            if not self.counts.dropped:
                log.warning("more than %d channel edits, or %d MB of their pictures, wait for "
                            "Discord's rate limit: the oldest are dropped (those messages stay "
                            "as they are)", WAITING_LIMIT, WAITING_BYTES // 2**20)
            self.counts.dropped += 1
        self._wake.set()

    def _unwait(self, message_id: int) -> tuple[int, dict[str, Any], Upload | None]:
        """Take the edit waiting for ``message_id`` out of the queue."""
        waiting = self._waiting.pop(message_id)
        self._waiting_bytes -= 0 if waiting[2] is None else len(waiting[2].data)
        return waiting

    async def edit_now(self, channel_id: int, message_id: int, body: dict[str, Any]) -> None:
        """Edit a channel message through its route within the budget, and wait for it (a
        challenge's message, whose news a reply promises)."""
        await self.budget.take()
        await self._channel_edit(channel_id, message_id, body)

    def start(self) -> None:
        """Start the paced edits and the statistics line (in the bot's event loop)."""
        loop = asyncio.get_running_loop()
        if self._runner is None:
            self._runner = loop.create_task(self._run())
            self._spawn(self._report_every())

    # -- the work ------------------------------------------------------------------------

    def _spawn(self, work: Any) -> None:
        task = asyncio.get_running_loop().create_task(work)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _through_interaction(self, channel_id: int, message_id: int, posted: Posted,
                                   body: dict[str, Any], channel_route: bool) -> None:
        """One request of this class's own, not through discord.py's HTTP client: that
        client keeps a rate-limit bucket for every route it has seen, a webhook's token
        among the route's parts, and once it holds 256 it looks over all of them each time
        a new one comes, dropping none younger than 5 minutes. With a token per board, that
        was a look over every board of the last 5 minutes for each collapse: 12% of the
        bot's CPU at 400 moves a second (``bench_bot --profile``), more the more players. An
        interaction's webhook is bound by no global limit and each token here edits one
        board once, so there is no bucket worth keeping; a 429 is waited out as it says."""
        where = "@original" if posted.original else str(message_id)
        url = (f"{Route.BASE}/webhooks/{self._client.application_id}/{posted.token}"
               f"/messages/{where}")
        try:
            status = await self._patch(url, body)
        except (TimeoutError, aiohttp.ClientError, OSError):
            if not self._client.is_closed():
                log.warning("could not collapse an earlier board in channel %s", channel_id,
                            exc_info=True)
            return
        if status < 300:
            self.counts.through_interaction += 1
        elif status == 404:
            log.debug("an earlier board in channel %s is gone", channel_id)
        else:  # the token was refused (or Discord kept failing): the channel's way
            log.debug("collapsing through its interaction failed (%s)", status)
            if channel_route:
                self.edit_later(channel_id, message_id, body)

    async def _patch(self, url: str, body: dict[str, Any]) -> int:
        """PATCH ``body`` to ``url``, waiting out a 429 or a failure of Discord's own (5xx)
        up to ``WEBHOOK_TRIES`` times; the last answer's status."""
        data = json.dumps(body, separators=(",", ":")).encode()
        status = 0
        for attempt in range(WEBHOOK_TRIES):
            async with self._web().patch(url, data=data, headers=_JSON) as response:
                await response.read()  # read whole, so that the connection is used again
                status = response.status
                if status != 429 and status < 500:
                    return status
                wait = (float(response.headers.get("Retry-After") or 1) if status == 429
                        else 1.0 + attempt)
            await asyncio.sleep(min(wait, MAX_WAIT_S))
        return status

    def _web(self) -> aiohttp.ClientSession:
        """The session for interactions' webhooks (made in the running loop, once)."""
        if self._session is None:
            self._session = aiohttp.ClientSession(
                trace_configs=[self._trace], timeout=aiohttp.ClientTimeout(total=MAX_WAIT_S),
                headers={"User-Agent": self._client.http.user_agent})
        return self._session

    async def _run(self) -> None:
        while True:
            if not self._waiting:
                self._wake.clear()
                await self._wake.wait()
                continue
            await self.budget.take()
            if not self._waiting:
                continue
            message_id = next(iter(self._waiting))
            channel_id, body, upload = self._unwait(message_id)
            await self._channel_edit(channel_id, message_id, body, upload)
            self.counts.through_channel += 1

    async def _channel_edit(self, channel_id: int, message_id: int, body: dict[str, Any],
                            upload: Upload | None = None) -> None:
        """One plain request: discord.py's ``PartialMessage.edit`` would also build a Message
        from the answer (11 µs of its 35), which nothing here reads, and add ``tts`` and
        ``allowed_mentions`` to the body: 35 µs of CPU an edit against 18
        (``python -m benchmarks.tidy_edits``, Discord stubbed at the HTTP session, medians of
        7 rounds of 5,000, 2026-11-28). Same request otherwise; nothing is fetched."""
        route = Route("PATCH", "/channels/{channel_id}/messages/{message_id}",
                      channel_id=channel_id, message_id=message_id)
        try:
            if upload is None:
                await self._client.http.request(route, json=body)
            else:  # multipart: the body as payload_json, the picture as files[0]
                picture = discord.File(io.BytesIO(upload.data), filename=upload.filename)
                form: list[dict[str, Any]] = [
                    {"name": "payload_json", "value": json.dumps(body)},
                    {"name": "files[0]", "value": picture.fp, "filename": upload.filename,
                     "content_type": "application/octet-stream"}]
                await self._client.http.request(route, form=form, files=[picture])
        except (discord.NotFound, discord.Forbidden):
            log.debug("message %s in channel %s is gone or out of reach", message_id,
                      channel_id)
        except Exception:
            if not self._client.is_closed():  # a bot shutting down leaves messages as they are
                log.warning("could not edit message %s in channel %s", message_id,
                            channel_id, exc_info=True)

    # -- 429s and the statistics line ------------------------------------------------------

    def listen(self, trace: aiohttp.TraceConfig) -> None:
        """Hear of every answer of the bot's HTTP session (its ``http_trace``), as of this
        class's own: each 429 is logged here once (discord.py's own line about it is left
        out, ``QuietRetries``)."""
        trace.on_request_end.append(self._on_request_end)

    async def _on_request_end(self, session: aiohttp.ClientSession, context: SimpleNamespace,
                              params: aiohttp.TraceRequestEndParams) -> None:
        if params.response.status != 429:
            return
        headers = params.response.headers
        self.counts.rate_limited += 1
        log.warning("Discord answered 429 (rate limited) to %s %s: scope %s, retry after %s s",
                    params.method, params.url.path, headers.get("X-RateLimit-Scope", "?"),
                    headers.get("Retry-After", "?"))

    async def _report_every(self) -> None:
        while True:
            await asyncio.sleep(REPORT_EVERY_S)
            counts, self.counts = self.counts, Counts()
            if counts.any():
                log.info("in the last %d minutes: %d earlier boards collapsed through their "
                         "interaction, %d through the channel, %d dropped; %d answers of 429",
                         REPORT_EVERY_S // 60, counts.through_interaction,
                         counts.through_channel, counts.dropped, counts.rate_limited)

    async def close(self) -> None:
        """Stop: what waits is left as it is (a bot shutting down leaves boards whole)."""
        tasks = [*self._tasks, *([self._runner] if self._runner else [])]
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        if self._session is not None:
            await self._session.close()


class QuietRetries(logging.Filter):
    """Leaves out discord.py's own line for a 429 it retries: ``Tidy`` logs each one, with
    its scope."""

    @classmethod
    def install(cls) -> None:
        """On discord.py's HTTP log, once however many bots are made."""
        logger = logging.getLogger("discord.http")
        if not any(isinstance(f, cls) for f in logger.filters):
            logger.addFilter(cls())

    def filter(self, record: logging.LogRecord) -> bool:
        message = str(record.msg)
        return not message.startswith(("We are being rate limited", "Global rate limit"))
