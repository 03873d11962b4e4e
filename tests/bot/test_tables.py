"""An Activity's table as the core keeps it (``flows/tables.py``): a page's seat is kept fresh
by its process for as long as it sits, so it outlasts the seconds a seat lasts unkept; a
process gone leaves seats that its keeper clears; a watch of the table reads who is there
with their progress, and looks again when one of them moves."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable

import pytest

from bot.core import Core
from bot.flows import tables
from bot.replies import Action
from bot.store.seats import STALE_S, Seat

from .conftest import ALICE, Clock
from .presenting import Recorder

ANN, BOB = 1001, 1002


async def until(check: Callable[[], Awaitable[bool]], within_s: float = 3.0) -> None:
    for _ in range(int(within_s / 0.02)):
        if await check():
            return
        await asyncio.sleep(0.02)
    raise AssertionError("not within the time")


async def test_a_seat_is_kept_while_its_page_sits_and_a_gone_process_seats_are_cleared(
    core: Core, clock: Clock, monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(tables, "KEEP_S", 0.05)
    seats = core.stores.seats
    await seats.sit(Seat("gone-process", "den", BOB, "Bob"), clock())  # never kept again
    async with core.tables.sitting(Seat("ann-page", "den", ANN, "Ann")):
        clock.advance(STALE_S + 1)

        async def only_ann() -> bool:
            return [s.name for s in await seats.at("den", clock())] == ["Ann"]

        await until(only_ann)  # Ann's kept by this process; Bob's cleared by it
        assert core.tables.seated == 1
    assert await seats.at("den", clock()) == []  # her page left: her seat with it
    assert core.tables.seated == 0


async def test_a_watch_reads_each_players_progress_and_again_when_they_move(
    core: Core,
) -> None:
    await core.new_game(ALICE, "trefoil", 27, presenter=Recorder())
    async with core.tables.sitting(Seat("alice-page", "den", ALICE.user_id, "Alice")) as (
            watch, since):
        await watch.looked(since)
        [seated] = watch.players
        assert seated.progress is not None and not seated.private
        assert (seated.progress.game_id, seated.progress.cards, seated.progress.moves) == (
            "trefoil", 52, 0)
        home, seen = seated.progress.home, watch.version
        await core.act(ALICE, Action.MOVE, "7 f1", presenter=Recorder())
        await watch.changed(seen)
        [moved] = watch.players
        assert moved.progress is not None
        assert (moved.progress.moves, moved.progress.home) == (1, home + 1)
