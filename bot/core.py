"""The bot's Discord-free core, assembled: the store, the game flow (with its pictures and
solver service) and statistics. Each adapter — the Discord client, the console — opens
one ``Core`` and talks to nothing else.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path

from .game_flow import CONFIRMED, GameFlow
from .replies import Action, Ask, BoardRef, Message, Player, Question, Reply, refusal
from .stats_flow import StatsFlow
from .store import Store

NOTHING_DELETED = "Nothing was deleted."


class Core:
    def __init__(self, store: Store, flow: GameFlow) -> None:
        self.store = store
        self.flow = flow
        self.stats = StatsFlow(flow)

    @classmethod
    async def open(
        cls,
        database: Path | str,
        *,
        clock: Callable[[], float] = time.time,
        render_processes: int = 0,
    ) -> Core:
        """The core over ``database``: a SQLite file, or a PostgreSQL URL; pictures drawn
        in ``render_processes`` worker processes (0: in threads)."""
        store = await Store.open(database)
        return cls(store, GameFlow(store, clock=clock, render_processes=render_processes))

    async def close(self) -> None:
        """The flow first (searches and pictures still running end quietly), then the store."""
        self.flow.close()
        await self.store.close()

    async def board_posted(self, user_id: int, channel_id: int, message_id: int) -> int | None:
        """A new board of the player's was posted in a channel: the one it replaces there
        (to collapse), if any. A player has one live board per channel."""
        return await self.store.swap_board_message(user_id, channel_id, message_id)

    async def answer(
        self, player: Player, question: Question, yes: bool, *, can_manage_server: bool = False
    ) -> Reply:
        """The owner's answer to a yes/no question, whatever asked it."""
        ask, args = question.ask, question.args
        if ask is Ask.NEW_GAME:
            if not yes:
                return await self.flow.act(player, Action.SHOW)
            if len(args) < 3 or not (args[0].isdigit() and args[2].isdigit()):
                return refusal("That question is out of date; `/new` starts a game.")
            draw = "draw" in args[3:]
            return await self.flow.confirm_new(
                player, int(args[0]), args[1], int(args[2]), draw=draw
            )
        if ask is Ask.RESIGN:
            if not yes:
                return await self.flow.act(player, Action.SHOW)
            if len(args) != 2 or not all(a.isdigit() for a in args):
                return refusal("That question is out of date; `/resign` asks again.")
            seen = BoardRef(int(args[0]), int(args[1]))
            return await self.flow.act(player, Action.RESIGN, CONFIRMED, seen=seen)
        if not yes:
            return Reply(message=Message(NOTHING_DELETED, private=True))
        if ask is Ask.FORGET:
            return await self.stats.forget(player)
        return await self.stats.reset(player, can_manage_server)
