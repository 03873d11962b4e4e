"""Players' sessions on the page: who plays, signed by the server, so that no request can
claim to be another player.

A session is a short token the page sends with every request (``Authorization: Bearer``;
an Activity's iframe is a third party to Discord's page, where cookies are unreliable): the
player's id, language, name and avatar (as Discord gave them at sign-in: what the table
shows of them), the server they play in (one Discord said they are a member of,
checked once at sign-in: ``server.py``) and when it expires, and an HMAC-SHA256 of them
under the server's secret (``WEB_SECRET``). Nothing is kept on the server, so every web
process beside the bot's that shares the secret reads every session.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass

from ..replies import is_id

LIFETIME_S = 12 * 3600  # a day's play; then the page signs in again through Discord


@dataclass(frozen=True)
class Session:
    user_id: int
    language: str
    guild_id: int | None = None  # verified at sign-in; None: a DM, or no server trusted
    name: str = ""  # as the table shows them ("": a session signed before names were kept)
    avatar: str | None = None  # Discord's avatar hash; None: none


class Sessions:
    """Sign and read sessions under ``secret`` (None: a new random one, for this process
    alone)."""

    def __init__(self, secret: str | None = None, *, lifetime_s: float = LIFETIME_S,
                 clock: Callable[[], float] = time.time) -> None:
        self._key = (secret or secrets.token_urlsafe(32)).encode()
        self._lifetime_s = lifetime_s
        self._clock = clock

    def sign(self, user_id: int, language: str, guild_id: int | None = None, *,
             name: str = "", avatar: str | None = None) -> str:
        fields = {"u": str(user_id), "l": language, "e": int(self._clock() + self._lifetime_s)}
        if guild_id is not None:
            fields["g"] = str(guild_id)
        if name:
            fields["n"] = name
        if avatar is not None:
            fields["a"] = avatar
        body = json.dumps(fields, separators=(",", ":"))
        data = _encode(body.encode())
        return f"{data}.{self._mac(data)}"

    def read(self, token: str) -> Session | None:
        """The session ``token`` carries, if this server signed it and it has not expired."""
        if not token.isascii():  # (compare_digest refuses to compare other text)
            return None
        data, _, mac = token.partition(".")
        if not hmac.compare_digest(mac, self._mac(data)):
            return None
        try:
            body = json.loads(base64.urlsafe_b64decode(data + "=" * (-len(data) % 4)))
            user_id, language, expires = int(body["u"]), str(body["l"]), float(body["e"])
            guild_id = None if body.get("g") is None else int(body["g"])
            name, avatar = str(body.get("n", "")), body.get("a")
        except (ValueError, KeyError, TypeError):
            return None
        if expires < self._clock() or not is_id(user_id) or not (
                guild_id is None or is_id(guild_id)):
            return None
        return Session(user_id, language, guild_id, name,
                       avatar if isinstance(avatar, str) else None)

    def _mac(self, data: str) -> str:
        return _encode(hmac.new(self._key, data.encode(), hashlib.sha256).digest())


def _encode(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).decode().rstrip("=")
