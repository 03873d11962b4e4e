"""A tidy channel within Discord's rate limits: each player's earlier board collapsed to one
line, through the interaction that posted it, in the background.

Discord allows a bot 50 requests a second across all its processes, on every route but the
interaction endpoints, and a channel's messages a few edits every few seconds. Collapsing
earlier boards through the channel's routes met both limits at a few processes' load. So:

* **Through the interaction.** A board remembers the interaction that posted it (or that
  last edited it in place, a press): for 15 minutes that interaction's token edits it
  through its webhook, an interaction endpoint, bound by neither the global limit nor the
  channel's. This is how nearly every board is collapsed, and how a live board is shown
  anew after a move on the Activity's page where this process posted it. One edit of a
  message is sent at a time, within its token's bucket as the answers' headers announce,
  and only the newest waits, so a collapse always lands last.
* **Through the channel, paced.** An older board (its token gone, or the process restarted)
  is edited through the channel's route, within this process's share of one budget for all
  the bot's processes (``rate_limits``: shared by shard count, a page's process of its own
  counted as one shard more), which the challenges' message updates draw on too, and so do
  the boards a move on the Activity's page brings up to date where no token of theirs is
  at hand. discord.py waits on each route's own bucket as its headers announce; a channel's
  messages older than an hour take a few edits every few seconds (``OldMessages``), which
  no header announces: an edit of one waits its turn, the others go first. Waiting
  edits are a bounded queue, one per message: a newer edit of a message replaces the
  waiting one, and beyond ``WAITING_LIMIT`` the oldest is dropped. A channel that refuses
  an edit (403: the bot is not in it, or may not edit there) is asked none for
  ``REFUSED_FOR_S``: each refusal counts toward Discord's ban of a bot that asks in vain.
* **Never in the way.** An answer hands its collapse over and is done; nothing here holds a
  player's lock or keeps an interaction waiting.

A 429 from Discord is logged once, at WARNING, with its route and scope (a channel edit it
refused is dropped with no traceback), and counted in a statistics line logged every
``REPORT_EVERY_S`` (with the boards edited each way).
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

from ..ops.metrics import INVALID_REQUESTS, RATE_LIMITED, WATCHED
from .rate_limits import CHANNEL_EDITS_PER_S, Budget, OldMessages

log = logging.getLogger(__name__)

TOKEN_LIFETIME_S = 15 * 60  # an interaction's token edits its messages this long
TOKEN_MARGIN_S = 60  # used only while this much of its life is left
WAITING_LIMIT = 5_000  # channel-route edits waiting, at most (the oldest dropped beyond)
WAITING_BYTES = 32 * 2**20  # and the pictures they carry, at most (about 800 boards)
REMEMBERED = 50_000  # boards whose interaction is remembered: the live ones of active players
REPORT_EVERY_S = 600  # the statistics line, this often
REFUSED_FOR_S = 600  # a channel that refused an edit is asked none this long
WEBHOOK_TRIES = 3  # a collapse through its interaction, past a 429 or a 5xx
MAX_WAIT_S = 30.0  # the longest a collapse waits on one answer, or before trying again
_JSON = {"Content-Type": "application/json"}
SCOPES = ("user", "global", "shared")  # a 429's X-RateLimit-Scope


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


@dataclass(frozen=True)
class _Hooked:
    """An edit waiting to go through the interaction that posted its message."""

    channel_id: int
    posted: Posted
    body: dict[str, Any]
    upload: Upload | None
    channel_route: bool  # the channel's way, should the interaction's be refused


@dataclass
class Counts:
    through_interaction: int = 0
    through_channel: int = 0
    dropped: int = 0
    rate_limited: int = 0

    def any(self) -> bool:
        return any(vars(self).values())


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
        self.old_messages = OldMessages(share)  # a test may set its wall clock
        self._posted: LRU[int, Posted] = LRU(REMEMBERED)
        # message id -> (channel id, JSON body, its picture): the channel-route edits
        # waiting, oldest first
        self._waiting: OrderedDict[int, tuple[int, dict[str, Any], Upload | None]] = \
            OrderedDict()
        self._waiting_bytes = 0  # of the pictures the waiting edits carry
        # message id -> the newest edit through its interaction not yet sent; and the
        # messages with one being sent (one at a time each, so the newest lands last)
        self._hooked: dict[int, _Hooked] = {}
        self._hooking: set[int] = set()
        self._resting: LRU[str, float] = LRU(REMEMBERED)  # token -> its bucket's refill
        self._refused: LRU[int, float] = LRU(REMEMBERED)  # channel id -> when it refused
        self._wake = asyncio.Event()
        self._tasks: set[asyncio.Task[None]] = set()
        self._runner: asyncio.Task[None] | None = None
        self._trace = aiohttp.TraceConfig()  # the 429s of this class's own requests
        self._trace.on_request_end.append(self._on_request_end)
        self._session: aiohttp.ClientSession | None = None  # for interactions' webhooks
        self.counts = Counts()
        WATCHED.queue("channel_edits", lambda: len(self._waiting))

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
        self._edit(channel_id, message_id, body, None, channel_route=channel_route, last=True)

    def refresh(self, channel_id: int, message_id: int, body: dict[str, Any],
                upload: Upload) -> None:
        """Show a live board anew (after a move made on the Activity's page), its picture
        ``upload``: through the interaction that posted it while its token lives, else
        through the channel's route, paced. A newer edit of it replaces one still waiting."""
        self._edit(channel_id, message_id, body, upload, channel_route=True, last=False)

    def _edit(self, channel_id: int, message_id: int, body: dict[str, Any],
              upload: Upload | None, *, channel_route: bool, last: bool) -> None:
        """The one way a board is edited: the newest edit of a message replaces any still
        waiting, either way, and one is sent at a time, so the newest lands last (a board
        collapsed stays so). ``last``: the message is done with (its token forgotten)."""
        posted = self._posted.pop(message_id, None) if last else self._posted.get(message_id)
        if posted is not None and self.clock() - posted.issued < TOKEN_LIFETIME_S - TOKEN_MARGIN_S:
            if message_id in self._waiting:  # older, for the channel's route
                self._unwait(message_id)
            self._hooked[message_id] = _Hooked(channel_id, posted, body, upload, channel_route)
            if message_id not in self._hooking:
                self._hooking.add(message_id)
                self._spawn(self._through_interaction(message_id))
            return
        self._hooked.pop(message_id, None)
        if channel_route:
            self.edit_later(channel_id, message_id, body, upload)
        elif message_id in self._waiting:  # an older edit must not land after this one
            self._unwait(message_id)

    def edit_later(self, channel_id: int, message_id: int, body: dict[str, Any],
                   upload: Upload | None = None) -> None:
        """Edit a channel message through its route, paced within the budget; a newer edit
        of the same message replaces one still waiting. ``upload``: the file the body's
        ``attachments`` name as id 0 (a board's picture). Not in a channel that refused
        an edit in the last ``REFUSED_FOR_S`` (the bot is not there, or may not edit
        there): every refusal counts toward Discord's ban of a bot asking in vain."""
        if message_id in self._waiting:
            self._unwait(message_id)
        if self._refuses(channel_id):
            log.debug("channel %s refused an edit lately: message %s stays as it is",
                      channel_id, message_id)
            return
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
        if self._refuses(channel_id):
            return
        await self.old_messages.room(channel_id, message_id)
        await self.budget.take()
        await self._channel_edit(channel_id, message_id, body)

    async def post_now(self, channel_id: int, body: dict[str, Any]) -> None:
        """Post a message in a channel within the budget, and wait for it (a race's result,
        posted once where the Activity was opened)."""
        if not self._refuses(channel_id):
            await self.budget.take()
            try:
                await self._client.http.request(Route(
                    "POST", "/channels/{channel_id}/messages", channel_id=channel_id), json=body)
            except discord.Forbidden:  # asked no more for REFUSED_FOR_S
                self._refused[channel_id] = self.clock()
            except discord.HTTPException as err:
                log.warning("could not post in channel %s: %s", channel_id, _said(err))

    def _refuses(self, channel_id: int) -> bool:
        refused = self._refused.get(channel_id)
        return refused is not None and self.clock() - refused < REFUSED_FOR_S

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

    async def _through_interaction(self, message_id: int) -> None:
        """Send the edits of ``message_id`` waiting to go through its interaction, newest
        only, one at a time."""
        try:
            while message_id in self._hooked:
                token = self._hooked[message_id].posted.token
                rest = (self._resting.get(token) or 0.0) - time.monotonic()
                if rest > 0:  # its bucket is empty: wait, then send the newest edit then
                    await asyncio.sleep(rest)
                    continue
                await self._hook_edit(message_id, self._hooked.pop(message_id))
        finally:
            self._hooking.discard(message_id)

    async def _hook_edit(self, message_id: int, edit: _Hooked) -> None:
        """One request of this class's own, not through discord.py's HTTP client: that
        client keeps a rate-limit bucket for every route it has seen, a webhook's token
        among the route's parts, and once it holds 256 it looks over all of them each time
        a new one comes, dropping none younger than 5 minutes. With a token per board, that
        was a look over every board of the last 5 minutes for each collapse: 12% of the
        bot's CPU at 400 moves a second (``bench_bot --profile``), more the more players. An
        interaction's webhook is bound by no global limit, and this class sends one edit of
        a message at a time, so there is no bucket worth keeping; a 429 is waited out as it
        says."""
        where = "@original" if edit.posted.original else str(message_id)
        url = (f"{Route.BASE}/webhooks/{self._client.application_id}/{edit.posted.token}"
               f"/messages/{where}")
        try:
            status, rest_s = await self._patch(url, edit.body, edit.upload)
        except (TimeoutError, aiohttp.ClientError, OSError) as err:
            if not self._client.is_closed():
                log.warning("could not edit a board in channel %s: %s", edit.channel_id,
                            _said(err))
            return
        if rest_s > 0:
            self._resting[edit.posted.token] = time.monotonic() + rest_s
        if status < 300:
            self.counts.through_interaction += 1
        elif status == 404:
            log.debug("a board in channel %s is gone", edit.channel_id)
        else:  # the token was refused (or Discord kept failing): the channel's way
            log.debug("editing through its interaction failed (%s)", status)
            self._posted.pop(message_id, None)
            if edit.channel_route and message_id not in self._hooked:  # none newer waits
                self.edit_later(edit.channel_id, message_id, edit.body, edit.upload)

    async def _patch(self, url: str, body: dict[str, Any],
                     upload: Upload | None) -> tuple[int, float]:
        """PATCH ``body`` to ``url`` (with ``upload``: multipart, the body as payload_json
        and the picture as files[0]), waiting out a 429 or a failure of Discord's own (5xx)
        up to ``WEBHOOK_TRIES`` times. The last answer's status, and how long its bucket
        says to wait before the next request (0: it has room)."""
        payload = json.dumps(body, separators=(",", ":"))
        status = 0
        for attempt in range(WEBHOOK_TRIES):
            if upload is None:
                sent: Any = {"data": payload.encode(), "headers": _JSON}
            else:  # a form is sent once: made again for each try
                form = aiohttp.FormData()
                form.add_field("payload_json", payload, content_type="application/json")
                form.add_field("files[0]", upload.data, filename=upload.filename,
                               content_type="application/octet-stream")
                sent = {"data": form}
            async with self._web().patch(url, **sent) as response:
                await response.read()  # read whole, so that the connection is used again
                status = response.status
                if status != 429 and status < 500:
                    empty = response.headers.get("X-RateLimit-Remaining") == "0"
                    return status, (float(response.headers.get("X-RateLimit-Reset-After")
                                          or 1) if empty else 0.0)
                wait = (float(response.headers.get("Retry-After") or 1) if status == 429
                        else 1.0 + attempt)
            await asyncio.sleep(min(wait, MAX_WAIT_S))
        return status, 0.0

    def _web(self) -> aiohttp.ClientSession:
        """The session for interactions' webhooks (made in the running loop, once)."""
        if self._session is None:
            self._session = aiohttp.ClientSession(
                trace_configs=[self._trace], timeout=aiohttp.ClientTimeout(total=MAX_WAIT_S),
                headers={"User-Agent": self._client.http.user_agent})
        return self._session

    async def _run(self) -> None:
        while True:
            self._wake.clear()
            message_id, wait_s = self.old_messages.first_taken(
                (waiting, edit[0]) for waiting, edit in self._waiting.items())
            if message_id is None:  # nothing waits, or only old messages' edits, later
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self._wake.wait(), wait_s)
                continue
            await self.budget.take()
            if message_id not in self._waiting:
                continue
            channel_id = self._waiting[message_id][0]
            if self.old_messages.wait_s(channel_id, message_id) > 0:  # taken meanwhile
                continue
            channel_id, body, upload = self._unwait(message_id)
            self.old_messages.took(channel_id, message_id)
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
        except discord.Forbidden:
            log.debug("channel %s refused an edit of message %s: none is asked there for "
                      "%d s", channel_id, message_id, REFUSED_FOR_S)
            self._refused[channel_id] = self.clock()
        except discord.NotFound:
            log.debug("message %s in channel %s is gone", message_id, channel_id)
        except discord.HTTPException as err:  # an answer of Discord's: a line, not a trace
            if err.status == 429:  # logged where it was heard (``_on_request_end``)
                log.debug("a 429 dropped the edit of message %s in channel %s", message_id,
                          channel_id)
            elif not self._client.is_closed():
                log.warning("could not edit message %s in channel %s: %s", message_id,
                            channel_id, _said(err))
        except Exception:
            if not self._client.is_closed():  # a bot shutting down leaves messages as they are
                log.warning("could not edit message %s in channel %s", message_id,
                            channel_id, exc_info=True)

    # -- 429s and the statistics line ------------------------------------------------------

    def listen(self, trace: aiohttp.TraceConfig) -> None:
        """Hear of every answer of the bot's HTTP session (its ``http_trace``), as this
        class hears its own: each 429 is logged here once (discord.py's own line about it
        is left out, ``QuietRetries``)."""
        trace.on_request_end.append(self._on_request_end)

    async def _on_request_end(self, session: aiohttp.ClientSession, context: SimpleNamespace,
                              params: aiohttp.TraceRequestEndParams) -> None:
        headers = params.response.headers
        scope = headers.get("X-RateLimit-Scope")
        INVALID_REQUESTS.heard(params.response.status, scope)
        if params.response.status != 429:
            return
        RATE_LIMITED.labels(scope if scope in SCOPES else "unknown").inc()
        self.counts.rate_limited += 1
        log.warning("Discord answered 429 (rate limited) to %s %s: scope %s, retry after %s s",
                    params.method, params.url.path, headers.get("X-RateLimit-Scope", "?"),
                    headers.get("Retry-After", "?"))

    async def _report_every(self) -> None:
        while True:
            await asyncio.sleep(REPORT_EVERY_S)
            counts, self.counts = self.counts, Counts()
            if counts.any():
                log.info("in the last %d minutes: %d boards edited through their "
                         "interaction (earlier ones collapsed, live ones shown anew), %d "
                         "through the channel, %d dropped; %d answers of 429",
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


def _said(err: BaseException) -> str:
    """What a failure says, in one line (its type where it says nothing)."""
    return str(err).splitlines()[0] if str(err) else type(err).__name__
