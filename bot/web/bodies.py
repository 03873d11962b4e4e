"""A request's body, as the page's server reads it: a JSON object within its limits, and
each of its fields checked as the page sends it. What is not as the page sends it is
refused with a 400 that says why (``BadRequest``), before anything is done."""

from __future__ import annotations

import asyncio
import json
from typing import Any

from aiohttp import web

from engine import GAMES

from ..replies import BoardRef, is_digits, is_id
from .refusals import BadRequest
from .tables import INSTANCE, INSTANCE_RULE

BODY_DEPTH = 8  # levels of JSON nesting: the page's requests nest two at most
BODY_READ_S = 10.0  # a body not all sent by then is refused (408), its connection closed


async def read_body(request: web.Request) -> dict[str, Any]:
    """The request's body, a JSON object: all sent within ``BODY_READ_S`` (else 408), nested
    at most ``BODY_DEPTH`` deep; else refused, saying why."""
    try:
        async with asyncio.timeout(BODY_READ_S):
            raw = await request.read()
    except TimeoutError:
        raise web.HTTPRequestTimeout(text=f"the body was not all sent within {BODY_READ_S:.0f} "
                                          "s") from None
    if depth(raw) > BODY_DEPTH:
        raise BadRequest(f"the body must be JSON nested at most {BODY_DEPTH} levels deep")
    try:
        body = json.loads(raw or b"{}")
    except (ValueError, UnicodeDecodeError, RecursionError):
        raise BadRequest("the body must be JSON") from None
    if not isinstance(body, dict):
        raise BadRequest("the body must be a JSON object")
    return body


def depth(raw: bytes) -> int:
    """How deeply the JSON text nests arrays and objects, counted outside strings: checked
    before parsing, so no depth reaches the parser's recursion (whose limit varies)."""
    depth = deepest = 0
    in_string = escaped = False
    for byte in raw:
        if in_string:
            if escaped:
                escaped = False
            elif byte == 0x5C:  # backslash
                escaped = True
            elif byte == 0x22:  # quote
                in_string = False
        elif byte == 0x22:
            in_string = True
        elif byte in (0x5B, 0x7B):  # [ {
            depth += 1
            deepest = max(deepest, depth)
        elif byte in (0x5D, 0x7D):  # ] }
            depth -= 1
    return deepest


def text(body: dict[str, Any], key: str, most: int) -> str:
    value = body.get(key)
    if not isinstance(value, str) or not 0 < len(value) <= most:
        raise BadRequest(f"{key} must be a text of 1 to {most} characters")
    return value


def guild(body: dict[str, Any]) -> int | None:
    """The server the page says the Activity was opened in (the SDK's ``guildId``; None or
    absent in a DM): the page's word, which the server checks with Discord."""
    value = body.get("guild")
    if value is None:
        return None
    guild = whole(value) if isinstance(value, str) else None
    if guild is None or not is_id(guild):
        raise BadRequest("guild must be a server's id: digits 0 to 9")
    return guild


def game_of(body: dict[str, Any]) -> str:
    game = text(body, "game", 40)
    if game not in GAMES:
        raise BadRequest(f"game must be one of {', '.join(GAMES)}")
    return game


def ref_of(value: object) -> BoardRef | None:
    """A board's ``[row, revision]`` (or ``row.revision``), as the page sends it back."""
    if value is None:
        return None
    if isinstance(value, str) and value.count(".") == 1:
        value = value.split(".")
    if isinstance(value, list) and len(value) == 2:
        row, revision = whole(value[0]), whole(value[1])
        if row is not None and revision is not None and is_id(row) and revision < 2**62:
            return BoardRef(row, revision)
    raise BadRequest("seen must be a board's [row, revision]: two whole numbers")


def whole(value: object) -> int | None:
    """``value`` as a whole number from 0 if it is one: a JSON number (not true or false), or
    up to 20 ASCII digits (no id is longer, and ``int`` refuses thousands)."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value if value >= 0 else None
    if isinstance(value, str) and len(value) <= 20 and is_digits(value):
        return int(value)
    return None


def instance(body: dict[str, Any]) -> str:
    """The Activity's instance the body names (its table)."""
    value = body.get("instance")
    if not isinstance(value, str) or not INSTANCE.fullmatch(value):
        raise BadRequest(f"instance must be {INSTANCE_RULE}")
    return value


def race_id(body: dict[str, Any]) -> int:
    """The race the body names, as the table names it (its id, in digits)."""
    value = body.get("race")
    race = whole(value) if isinstance(value, str) else None
    if race is None or not is_id(race):
        raise BadRequest("race must be the race's id, as the table names it: digits")
    return race
