"""Discord's REST alone, for the Activity's page served as a process of its own
(``python -m bot --web``): no gateway, only the bot's token, so that a move made on the page
shows on the player's boards in channels (``edits.BoardEdits``) and a game played there counts
in the server the player is a member of (``GuildMembers``). Its edits are paced by a ``Tidy``
of its own, one more process's share of the budget all the bot's processes share."""

from __future__ import annotations

import contextlib
import logging
from collections.abc import AsyncIterator
from dataclasses import dataclass

import aiohttp
import discord

from ..config import Config
from ..flows.tables import Instance
from .edits import BoardEdits
from .rate_limits import QuietRetries, fleet_share
from .tidy import Tidy

log = logging.getLogger(__name__)


class GuildMembers:
    """Whether a user is a member of a server, asked with the bot's token
    (``GET /guilds/{guild_id}/members/{user_id}``): the page's ``Members``."""

    def __init__(self, client: discord.Client) -> None:
        self._client = client

    async def __call__(self, guild_id: int, user_id: int) -> bool | None:
        try:
            await self._client.http.get_member(guild_id, user_id)
        except (discord.NotFound, discord.Forbidden):  # not a member, or the bot not there
            return False
        except (discord.HTTPException, aiohttp.ClientError, TimeoutError, OSError) as err:
            log.debug("asking Discord whether user %d is in server %d failed: %s",
                      user_id, guild_id, type(err).__name__)  # the page's server says it

            return None
        return True


class ActivityInstances:
    """Who is connected to an Activity's instance, asked with the bot's token
    (``GET /applications/{app}/activity-instances/{instance}``, the application the client
    logged in as): the page's ``Instances``."""

    def __init__(self, client: discord.Client) -> None:
        self._client = client

    async def __call__(self, instance: str) -> Instance | None:
        if self._client.application_id is None:  # not logged in (yet): Discord not asked
            return None
        route = discord.http.Route(
            "GET", "/applications/{application_id}/activity-instances/{instance_id}",
            application_id=self._client.application_id, instance_id=instance)
        try:
            found = await self._client.http.request(route)
        except discord.NotFound:  # no such instance (or no longer: everyone left)
            return Instance(frozenset())
        except (discord.HTTPException, aiohttp.ClientError, TimeoutError, OSError) as err:
            log.debug("asking Discord who is at instance %s failed: %s", instance,
                      type(err).__name__)
            return None
        users = found.get("users") if isinstance(found, dict) else None
        if not isinstance(users, list):
            return None
        location = found.get("location")
        where = location if isinstance(location, dict) else {}
        return Instance(frozenset(int(u) for u in users if isinstance(u, str) and u.isdigit()),
                        _snowflake(where.get("channel_id")), _snowflake(where.get("guild_id")))


def _snowflake(value: object) -> int | None:
    """A Discord id as its JSON says it (a string of digits); None: absent, or not one."""
    return int(value) if isinstance(value, str) and value.isdigit() and len(value) < 21 else None


@dataclass(frozen=True)
class Rest:
    """The page's process's side of Discord (its ``BotSide``)."""

    channels: BoardEdits
    members: GuildMembers
    instances: ActivityInstances


@contextlib.asynccontextmanager
async def logged_in(config: Config) -> AsyncIterator[Rest]:
    """Logged in with ``config.token`` while the block runs; what waits is left at its end."""
    if not config.token:
        raise ValueError("logged_in needs config.token")
    trace = aiohttp.TraceConfig()
    # No gateway, so intents ask for nothing; guilds only keeps discord.py from warning.
    client = discord.Client(intents=discord.Intents(guilds=True), http_trace=trace)
    share = fleet_share(1, config.shard_count or 1, page_apart=True)  # as one shard more
    tidy = Tidy(client, share)
    tidy.listen(trace)
    QuietRetries.install()
    await client.login(config.token)
    tidy.start()
    try:
        yield Rest(BoardEdits(tidy), GuildMembers(client), ActivityInstances(client))
    finally:
        await tidy.close()
        await client.close()
