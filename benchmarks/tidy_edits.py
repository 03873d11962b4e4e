"""``python -m benchmarks.tidy_edits``: what editing a board costs the bot's process: a
collapse or a refresh as ``bot.discord.tidy`` makes it (through the channel's route, a plain
PATCH through discord.py's HTTP client; through an interaction's webhook, a PATCH of Tidy's
own session) and as discord.py would (``PartialMessage.edit``, ``Webhook.edit_message``, and
a plain PATCH through its HTTP client with each board's own token, as Tidy did until issue
34's last stop), and what each sends. Not a test: it prints figures, each the median of
``--repeat`` rounds with the lowest and highest beside it.

Discord is a stub at the HTTP session: every request is answered at once with a collapsed
board's message as Discord returns it (and rate-limit headers with room left), so the CPU
measured is the client's own, from the call to its result. Each way starts on a client of
its own. discord.py's HTTP client keeps a rate-limit bucket for every route it has seen, a
webhook's token among its parts, and looks over all of them for each new one once it holds
256: with a token per board (as every collapse has) its cost grows with the boards of the
last 5 minutes, which ``--edits`` stands for here.
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import json
import statistics
import time
from collections.abc import Awaitable, Callable
from typing import Any

import discord
from discord.http import Route
from multidict import CIMultiDict

from bot.discord.tidy import Tidy

APPLICATION_ID = 42
CHANNEL_ID = 1_100_000_000_000_000_001
MESSAGE_ID = 1_200_000_000_000_000_001
TOKEN = "aW50ZXJhY3Rpb246MTIzNDU2Nzg5MDEyMzQ1Njc4OTpzZWNyZXQ" * 3  # about a real token's size
COLLAPSED = "-# Trefoil #42 · 17 moves · <@1000000000000000001> played on below"


def answer() -> dict[str, Any]:
    """A collapsed board as Discord returns it from the edit (as the fake Discord does)."""
    user = {"id": "1000000000000000001", "username": "alice", "discriminator": "0",
            "global_name": "Alice", "avatar": None, "bot": False, "public_flags": 0, "flags": 0}
    return {
        "id": str(MESSAGE_ID), "channel_id": str(CHANNEL_ID), "type": 20, "content": COLLAPSED,
        "author": {"id": str(APPLICATION_ID), "username": "Solitaire", "discriminator": "0",
                   "global_name": None, "avatar": None, "bot": True, "public_flags": 0,
                   "flags": 0},
        "embeds": [], "attachments": [], "components": [], "flags": 0,
        "timestamp": "2025-01-01T12:00:00.000000+00:00",
        "edited_timestamp": "2025-01-01T12:00:05.000000+00:00", "tts": False,
        "mention_everyone": False, "mentions": [], "mention_roles": [], "pinned": False,
        "reactions": [], "guild_id": "1300000000000000001",
        "webhook_id": str(APPLICATION_ID), "application_id": str(APPLICATION_ID),
        "interaction_metadata": {"id": "1400000000000000001", "type": 2, "user": user,
                                 "authorizing_integration_owners": {"0": "1300000000000000001"},
                                 "name": "move"},
    }


class Response:
    status = 200
    reason = "OK"

    def __init__(self, text: str) -> None:
        self._text = text
        self.headers = CIMultiDict({
            "content-type": "application/json", "X-RateLimit-Limit": "5",
            "X-RateLimit-Remaining": "4", "X-RateLimit-Reset-After": "1.0",
            "X-RateLimit-Bucket": "abcd"})

    async def text(self, encoding: str = "utf-8") -> str:
        return self._text

    async def read(self) -> bytes:
        return self._text.encode()

    async def __aenter__(self) -> Response:
        return self

    async def __aexit__(self, *_exc: object) -> None:
        return None


class Session:
    """aiohttp's session as discord.py uses it: each request recorded, answered at once."""

    def __init__(self) -> None:
        self.sent: list[tuple[str, str, dict[str, Any], Any, Any]] = []
        self.record = True
        self._answer = json.dumps(answer())

    def request(self, method: str, url: str, **kwargs: Any) -> Response:
        if self.record:
            self.sent.append((method, url, dict(kwargs.get("headers") or {}),
                              kwargs.get("params"), kwargs.get("data")))
        return Response(self._answer)

    def patch(self, url: str, **kwargs: Any) -> Response:
        return self.request("PATCH", url, **kwargs)


def client_with(session: Session) -> discord.Client:
    """A discord.Client as the bot's is once logged in, its HTTP going to ``session``."""
    client = discord.Client(intents=discord.Intents.none(),
                            allowed_mentions=discord.AllowedMentions.none())
    http = client.http
    http._HTTPClient__session = session  # type: ignore[attr-defined]  # name-mangled
    http.token = "bot-token"
    http._global_over = asyncio.Event()
    http._global_over.set()
    client._connection.application_id = APPLICATION_ID
    return client


BODY = {"content": COLLAPSED, "attachments": [], "components": []}


def ways(client: discord.Client,
         session: Session) -> dict[str, Callable[[], Awaitable[Any]]]:
    http = client.http
    channel = client.get_partial_messageable(CHANNEL_ID)
    tidy = Tidy(client)
    tidy._session = session  # type: ignore[assignment]  # Discord stubbed, as for the client
    webhook_url = f"{Route.BASE}/webhooks/{APPLICATION_ID}/{TOKEN}/messages/@original"
    boards = itertools.count()

    async def raw_channel() -> None:
        await http.request(Route("PATCH", "/channels/{channel_id}/messages/{message_id}",
                                 channel_id=CHANNEL_ID, message_id=MESSAGE_ID), json=BODY)

    async def library_channel() -> discord.Message:
        return await channel.get_partial_message(MESSAGE_ID).edit(
            content=COLLAPSED, attachments=[], view=None)

    async def tidy_webhook() -> tuple[int, float]:
        return await tidy._patch(webhook_url, BODY, None)

    async def raw_webhook() -> None:
        await http.request(Route("PATCH", "/webhooks/{webhook_id}/{webhook_token}/messages/"
                                 "{message_id}", webhook_id=APPLICATION_ID, webhook_token=TOKEN,
                                 message_id=MESSAGE_ID), json=BODY)

    async def raw_webhook_each_token() -> None:
        token = f"{TOKEN}{next(boards)}"
        await http.request(Route("PATCH", "/webhooks/{webhook_id}/{webhook_token}/messages/"
                                 "{message_id}", webhook_id=APPLICATION_ID, webhook_token=token,
                                 message_id=MESSAGE_ID), json=BODY)

    async def library_webhook() -> discord.WebhookMessage:
        hook = discord.Webhook.partial(APPLICATION_ID, TOKEN, client=client)
        return await hook.edit_message(MESSAGE_ID, content=COLLAPSED, attachments=[],
                                       view=None)

    return {"channel, raw PATCH (tidy.py)": raw_channel,
            "channel, PartialMessage.edit": library_channel,
            "webhook, Tidy's own session (tidy.py)": tidy_webhook,
            "webhook, raw PATCH via discord.py, one token": raw_webhook,
            "webhook, raw PATCH via discord.py, a token each": raw_webhook_each_token,
            "webhook, Webhook.partial().edit_message": library_webhook}


async def cpu_us(edit: Callable[[], Awaitable[Any]], edits: int) -> float:
    for _ in range(50):  # warm
        await edit()
    started = time.process_time()
    for _ in range(edits):
        await edit()
    return (time.process_time() - started) * 1e6 / edits


async def measure(edits: int) -> dict[str, float]:
    measured = {}
    for name in ways(*stubbed()):
        client, session = stubbed()  # each way on a client of its own
        session.record = False
        measured[name] = await cpu_us(ways(client, session)[name], edits)
    return measured


def stubbed() -> tuple[discord.Client, Session]:
    session = Session()
    return client_with(session), session


async def what_is_sent() -> None:
    client, session = stubbed()
    for name, edit in ways(client, session).items():
        session.sent.clear()
        result = await edit()
        print(f"\n{name}: {len(session.sent)} request(s), returns {type(result).__name__}")
        for method, url, headers, params, data in session.sent:
            print(f"  {method} {url.replace(TOKEN, '<token>')}  query: {params}")
            print(f"  headers: {sorted(k for k in headers if k != 'User-Agent')}")
            print(f"  body: {data}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=7)
    parser.add_argument("--edits", type=int, default=5_000)
    args = parser.parse_args()
    asyncio.run(what_is_sent())
    rounds = [asyncio.run(measure(args.edits)) for _ in range(args.repeat)]
    print(f"\nCPU µs per edit, median [min-max] of {args.repeat} rounds of {args.edits}:")
    for name in rounds[0]:
        values = [r[name] for r in rounds]
        print(f"  {name:<50} {statistics.median(values):7.1f}  "
              f"[{min(values):.1f}-{max(values):.1f}]")


if __name__ == "__main__":
    main()
