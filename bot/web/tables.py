"""The page's side of an Activity's table (``flows/tables.py`` keeps who sits where): who
may sit at one, and how a table is sent to the page.

Inside Discord a table is an Activity instance (the SDK's ``instanceId``), and the server
believes a player is at it only when Discord lists them there (``Instances``, asked with
the bot's token). Its answer is kept ``FRESH_S`` for the players it listed, and asked again
for any other, who may just have joined: each socket opened counts against its player's
share of requests, so a forged instance cannot make the server ask Discord unchecked.

In dev mode (``--dev``) a table is whatever the page's URL names (``?instance=``), and
anyone signed in sits at it: several tabs make one table.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from typing import Any

from engine.lru import LRU

from ..flows.races import placed, winner
from ..flows.tables import AtTable, Instance
from ..store.races import COUNTING, Race
from .signin import Instances

INSTANCE = re.compile(r"[A-Za-z0-9_.:-]{1,100}")  # Discord's instance ids, and dev tables' names
INSTANCE_RULE = "the Activity's instance id: 1 to 100 letters, digits or _ . : -"
FRESH_S = 10.0  # Discord's list of an instance's users is kept this long
INSTANCES_KEPT = 10_000


def dev_name(user_id: int) -> str:
    """What a dev user is called at a table: they have no Discord name."""
    return f"Player {user_id}"


class Door:
    """Who may sit at which table: in ``dev`` mode anyone at any table named; else those
    Discord (``instances``; None: no bot token here, so nobody) lists at that instance."""

    def __init__(self, *, dev: bool, instances: Instances | None,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self._dev = dev
        self._instances = instances
        self._clock = clock
        self._known: LRU[str, tuple[float, Instance]] = LRU(INSTANCES_KEPT)

    async def refusal(self, instance: str, user_id: int) -> str | None:
        """Why ``user_id`` may not sit at ``instance`` (None: they may)."""
        if self._dev:
            return None
        if self._instances is None:
            return "this server cannot ask Discord who is at a table (it has no bot token)"
        now = self._clock()
        known = self._known.get(instance)
        if known is not None and user_id in known[1].users and now - known[0] < FRESH_S:
            return None
        found = await self._instances(instance)
        if found is None:
            return "Discord could not be asked who is at this table: try again shortly"
        self._known[instance] = (now, found)
        if user_id not in found.users:
            return "Discord does not list you at this Activity's table"
        return None

    def where(self, instance: str) -> tuple[int | None, int | None]:
        """The channel and the server the instance was opened in, as Discord last said
        (None, None: not said, or a dev table)."""
        known = self._known.get(instance)
        return (None, None) if known is None else (known[1].channel_id, known[1].guild_id)


def table_json(players: list[AtTable]) -> dict[str, Any]:
    """A table as the page is sent it (``{"table": ...}``, beside ``you``, the page's own
    player): its players in the order they sat down, each with their progress (``game``
    null: no game)."""
    return {"players": [{
        "id": str(p.user_id), "name": p.name, "avatar": p.avatar,
        "game": None if p.progress is None else p.progress.game_id,
        "home": 0 if p.progress is None else p.progress.home,
        "cards": 0 if p.progress is None else p.progress.cards,
        "moves": 0 if p.progress is None else p.progress.moves,
        "finished": p.progress is not None and p.progress.finished,
        "won": p.progress is not None and p.progress.won,
        "private": p.private,
    } for p in players]}


def race_json(race: Race | None) -> dict[str, Any] | None:
    """A table's race as the page is sent it (None: none), its racers best first; its deal
    only once it is dealt, and times as Unix seconds (the page is sent the server's time
    beside them, so its own clock need not agree)."""
    if race is None:
        return None
    best = winner(race)
    return {
        "id": str(race.id), "game": race.game, "status": race.status.value,
        "by": str(race.started_by), "startsAt": race.starts_at, "endsAt": race.ends_at,
        "deal": None if race.status == COUNTING else race.deal,
        "winner": None if best is None else str(best.user_id),
        "racers": [{
            "id": str(r.user_id), "name": r.name,
            "outcome": None if r.outcome is None else r.outcome.value,
            "moves": r.moves, "seconds": r.seconds, "hints": r.hints, "home": r.home,
        } for r in placed(race)],
    }
