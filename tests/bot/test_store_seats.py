"""Who is at an Activity's table, across two processes on one database (two stores opened
on it): a seat taken in one is seen in the other, each player once however many pages they
have, in the order they sat; a seat left or gone stale (its process gone) is cleared, and
every change is a notice naming the table's key."""

from __future__ import annotations

import asyncio

from bot.store import Stores
from bot.store.database import Notice
from bot.store.seats import STALE_S, Seat, table_key


def names(seated: list[object]) -> list[str]:
    return [s.name for s in seated]  # type: ignore[attr-defined]


async def test_a_table_is_everyone_seated_in_any_process_each_once_in_the_order_they_sat(
    pair: tuple[Stores, Stores],
) -> None:
    a, b = pair
    await a.seats.sit(Seat("page-a1", "den", 1, "Ann", "abc"), 10.0)
    await b.seats.sit(Seat("page-b1", "den", 2, "Bob"), 11.0)
    await b.seats.sit(Seat("page-a2", "den", 1, "Ann", "abc"), 12.0)  # Ann's second tab
    await a.seats.sit(Seat("page-c1", "attic", 3, "Cy"), 12.0)  # another table
    seated = await b.seats.at("den", 13.0)
    assert names(seated) == ["Ann", "Bob"]
    assert seated[0].avatar == "abc" and seated[1].avatar is None
    await a.seats.leave(Seat("page-a1", "den", 1, "Ann", "abc"))
    assert names(await b.seats.at("den", 13.0)) == ["Bob", "Ann"]  # her other tab is still there
    await b.seats.leave(Seat("page-a2", "den", 1, "Ann", "abc"))
    assert names(await a.seats.at("den", 13.0)) == ["Bob"]
    assert names(await a.seats.at("attic", 13.0)) == ["Cy"]


async def test_seats_no_process_keeps_are_cleared_and_their_tables_told(
    pair: tuple[Stores, Stores],
) -> None:
    a, b = pair
    heard: list[tuple[Notice, int | None]] = []
    a.listen(lambda notice, key: heard.append((notice, key)))
    for _ in range(100):  # PostgreSQL: until its listening connection is there
        await a.seats.sit(Seat("kept", "den", 1, "Ann"), 100.0)
        await asyncio.sleep(0.02)
        if heard:
            break
    await b.seats.sit(Seat("left-behind", "den", 2, "Bob"), 100.0)  # b is killed after this
    later = 100.0 + STALE_S + 1
    assert names(await a.seats.at("den", later)) == []  # both stale to a reader
    assert await a.seats.keep(["kept"], 100.0 + STALE_S / 2) == 0  # a keeps its own
    heard.clear()
    assert await a.seats.keep(["kept"], later) == 1  # and Bob's is cleared
    assert names(await b.seats.at("den", later)) == ["Ann"]
    for _ in range(100):  # PostgreSQL's notices come through the server
        if (Notice.TABLE, table_key("den")) in heard:
            break
        await asyncio.sleep(0.02)
    assert (Notice.TABLE, table_key("den")) in heard


async def test_a_table_key_is_a_number_a_notice_carries_and_differs_by_instance() -> None:
    keys = {table_key(name) for name in ("den", "attic", "i-1234567890", "")}
    assert len(keys) == 4 and all(0 <= key < 2**56 for key in keys)
    assert table_key("den") == table_key("den")
