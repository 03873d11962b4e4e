"""Signing a player in through Discord: the page's OAuth2 code exchanged for an access
token (with the client secret, which never leaves the server), and the token asked who it
belongs to (``/users/@me``). The page hands the access token on to the SDK's
``authenticate``; the server keeps neither.

The server the Activity was opened in is the page's word (the SDK's ``guildId``), so it is
trusted only once Discord says, asked with the bot's token, that the player is a member of
it (``Members``: the Discord side provides it, the web side never imports that side).

Codes are exchanged within one budget for every player (``limits.SIGN_INS_TO_DISCORD``),
so that junk sign-ins never carry this host past what Discord takes; and once Discord
answers the exchange 429, no code is sent it again until its ``Retry-After`` has passed.
"""

from __future__ import annotations

import logging
import re
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol

import aiohttp

from ..flows.tables import Instance
from ..replies import is_digits, is_id
from . import limits

log = logging.getLogger(__name__)

# Read when a SignIn is made, so that tests can point it at the fake Discord (in a page
# process of its own too: tests/e2e/launch_bot.py sets it from FAKE_DISCORD_API).
DISCORD_API = "https://discord.com/api/v10"
TIMEOUT = aiohttp.ClientTimeout(total=10)
UNSAID_RETRY_S = 60.0  # a 429 that says no Retry-After: a minute
LONGEST_RETRY_S = 24 * 3600.0
NAME_LIMIT = 32  # characters of a display name Discord allows
AVATAR = re.compile(r"(a_)?[0-9a-f]{32}")  # an avatar's hash, as Discord gives it


class SignInRefused(Exception):
    """Discord did not accept the code or the token: the player is not signed in."""


class SignInBusy(Exception):
    """Discord is not asked now (its 429, or the budget spent): try in ``retry_after_s``."""

    def __init__(self, retry_after_s: float) -> None:
        super().__init__(f"try again in {retry_after_s:.0f} s")
        self.retry_after_s = retry_after_s


@dataclass(frozen=True)
class DiscordUser:
    user_id: int
    locale: str | None  # the language of their Discord app (the ``identify`` scope)
    name: str = ""  # their display name, else their username
    avatar: str | None = None  # their avatar's hash (None: Discord's default avatar)


class Instances(Protocol):
    """An Activity's instance now, as Discord answers the bot's token
    (``GET /applications/{app}/activity-instances/{instance}``)."""

    async def __call__(self, instance: str) -> Instance | None:
        """The instance (nobody in it: no such instance). None: Discord could not be
        asked."""


class Members(Protocol):
    """Whether a user is a member of a server, as Discord answers the bot's token
    (``GET /guilds/{guild_id}/members/{user_id}``)."""

    async def __call__(self, guild_id: int, user_id: int) -> bool | None:
        """True: a member. False: not one, or the bot is not in that server. None: Discord
        could not be asked."""


class SignIn:
    def __init__(self, client_id: str, client_secret: str, *, api: str | None = None,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.client_id = client_id
        self._client_secret = client_secret
        self.api = (api or DISCORD_API).rstrip("/")  # None: Discord's (DISCORD_API, as now)
        self._http: aiohttp.ClientSession | None = None
        self._clock = clock
        self._budget = limits.Buckets(limits.SIGN_INS_TO_DISCORD, keys=1, clock=clock)
        self._closed_until = 0.0  # Discord's 429 on the exchange: not asked again before

    def _session(self) -> aiohttp.ClientSession:
        if self._http is None:
            self._http = aiohttp.ClientSession(timeout=TIMEOUT)
        return self._http

    async def exchange(self, code: str) -> str:
        """The access token for the page's ``code`` (``commands.authorize``). Raises
        ``SignInBusy`` while Discord said to wait, or the budget is spent."""
        now = self._clock()
        if now < self._closed_until:
            raise SignInBusy(self._closed_until - now)
        wait = self._budget.take("discord")
        if wait:
            raise SignInBusy(wait)
        form = {"client_id": self.client_id, "client_secret": self._client_secret,
                "grant_type": "authorization_code", "code": code}
        try:
            body = await self._call("POST", "/oauth2/token", data=form)
        except SignInBusy as err:
            self._closed_until = self._clock() + err.retry_after_s
            log.warning("Discord answered a sign-in's code exchange 429: no player's code is "
                        "sent it for %.0f s, as it asked", err.retry_after_s)
            raise
        token = body.get("access_token")
        if not isinstance(token, str) or not token:
            raise SignInRefused("no access token in Discord's answer")
        return token

    async def who(self, access_token: str) -> DiscordUser:
        """Whose ``access_token`` it is, as Discord says."""
        body = await self._call("GET", "/users/@me",
                                headers={"Authorization": f"Bearer {access_token}"})
        user_id = str(body.get("id", ""))
        if not (len(user_id) <= 20 and is_digits(user_id)) or not is_id(int(user_id)):
            raise SignInRefused("Discord named no user")
        locale, avatar = body.get("locale"), body.get("avatar")
        name = next((str(n) for n in (body.get("global_name"), body.get("username"))
                     if isinstance(n, str) and n.strip()), "")
        return DiscordUser(int(user_id), locale if isinstance(locale, str) else None,
                           name[:NAME_LIMIT],
                           avatar if isinstance(avatar, str) and AVATAR.fullmatch(avatar)
                           else None)

    async def _call(self, method: str, path: str, **kwargs: Any) -> dict[str, Any]:
        try:
            async with self._session().request(method, self.api + path, **kwargs) as response:
                if response.status == 429:
                    raise SignInBusy(await _retry_after(response))
                if response.status != 200:
                    raise SignInRefused(f"{method} {path}: HTTP {response.status}")
                body = await response.json()
        except (aiohttp.ClientError, TimeoutError, ValueError) as err:
            raise SignInRefused(f"{method} {path}: {type(err).__name__}") from err
        if not isinstance(body, dict):
            raise SignInRefused(f"{method} {path}: not an object")
        return body

    async def close(self) -> None:
        if self._http is not None:
            await self._http.close()


async def _retry_after(response: aiohttp.ClientResponse) -> float:
    """How long a 429 says to wait: its ``Retry-After``, or its body's ``retry_after``
    (Discord sends both), whichever is longer; a minute if it says neither."""
    said: list[object] = [response.headers.get("Retry-After")]
    try:
        body = await response.json(content_type=None)
        said.append(body.get("retry_after") if isinstance(body, dict) else None)
    except (aiohttp.ClientError, ValueError):
        pass
    seconds = []
    for value in said:
        if isinstance(value, int | float | str) and not isinstance(value, bool):
            try:
                seconds.append(float(value))
            except ValueError:
                continue
    valid = [s for s in seconds if 0 <= s < LONGEST_RETRY_S]
    return max(valid) if valid else UNSAID_RETRY_S
