"""Two bot processes on one database, played as two stores opened on it: a player's game is
changed by one of them at a time, a pooled deal goes to one of them, one of them leads."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from bot.store import ConcurrentChange, SavedGame, Stores
from bot.store.database import Notice
from engine import new_game
from tests.bot.reference import all_results
from tests.bot.store_support import run_sql


async def outcomes(*calls: object) -> list[object]:
    """Run the calls at once; what each returned or raised."""
    return list(await asyncio.gather(*calls, return_exceptions=True))  # type: ignore[arg-type]


async def test_a_move_saved_by_one_process_refuses_the_others_from_the_same_revision(
    pair: tuple[Stores, Stores],
) -> None:
    a, b = pair
    await a.games.start(1, 10, new_game("trefoil", 9), 1.0)
    here, there = await a.games.load(1), await b.games.load(1)
    assert here is not None and there is not None
    here.game.play(here.game.legal_moves()[0])
    there.game.play(there.game.legal_moves()[-1])
    results = await outcomes(a.games.save(here), b.games.save(there))
    assert sorted(type(r).__name__ for r in results) == ["ConcurrentChange", "NoneType"]
    stored = await a.games.load(1)
    assert stored is not None and stored.revision == 1 and stored.game.moves_made == 1


async def test_a_hint_counted_by_one_process_is_kept_by_the_others_save(
    pair: tuple[Stores, Stores],
) -> None:
    a, b = pair
    started = await a.games.start(1, 10, new_game("trefoil", 9), 1.0)
    here = await a.games.load(1)  # loaded before the hint...
    assert here is not None and here.hints == 0
    await b.games.count_hint(started.id)  # ...counted by the other process...
    here.game.play(here.game.legal_moves()[0])
    here.status, here.finished_at = "resigned", 5.0
    await a.games.save(here)  # ...and kept by this one's save, which ends the game
    assert here.hints == 1
    [result] = await all_results(b, user_id=1)
    assert result.hints == 1, "a game with a hint is never recorded as unaided"


async def test_a_hint_counted_while_a_game_is_replaced_goes_with_its_result(
    pair: tuple[Stores, Stores],
) -> None:
    a, b = pair
    first = await a.games.start(1, 10, new_game("trefoil", 9), 1.0)
    first.game.play(first.game.legal_moves()[0])
    await a.games.save(first)
    here = await a.games.load(1)
    await b.games.count_hint(first.id)
    await a.games.start(1, 10, new_game("trefoil", 2), 5.0, replacing=here)
    [result] = await all_results(b, user_id=1)
    assert (result.outcome, result.hints) == ("abandoned", 1)


async def test_two_processes_starting_a_players_first_game_at_once_start_one(
    pair: tuple[Stores, Stores],
) -> None:
    a, b = pair
    results = await outcomes(
        a.games.start(1, 10, new_game("trefoil", 1), 1.0), b.games.start(1, 20, new_game("trefoil", 2), 1.0)
    )
    started = [r for r in results if isinstance(r, SavedGame)]
    refused = [r for r in results if isinstance(r, ConcurrentChange)]
    assert len(started) == 1 and len(refused) == 1
    stored = await b.games.load(1)
    assert stored is not None and stored.id == started[0].id


async def test_two_processes_replacing_the_same_game_at_once_replace_it_once(
    pair: tuple[Stores, Stores],
) -> None:
    a, b = pair
    first = await a.games.start(1, 10, new_game("trefoil", 1), 1.0)
    first.game.play(first.game.legal_moves()[0])
    await a.games.save(first)
    here, there = await a.games.load(1), await b.games.load(1)
    results = await outcomes(
        a.games.start(1, 10, new_game("trefoil", 2), 5.0, replacing=here),
        b.games.start(1, 20, new_game("clover-leaf", 3), 5.0, replacing=there),
    )
    assert sorted(type(r).__name__ for r in results) == ["ConcurrentChange", "SavedGame"]
    [result] = await all_results(a, user_id=1)
    assert result.outcome == "abandoned", "the replaced game is recorded once"
    # The loser's view of the game is untouched: it was never recorded as left.
    loser = here if isinstance(results[1], SavedGame) else there
    assert loser is not None and loser.status == "playing" and loser.finished_at is None


async def test_a_process_hears_each_change_as_a_notice_naming_its_player(
    any_store: Stores,
) -> None:
    """What the fleet's processes keep of a player they drop on these notices, their own
    too (PostgreSQL's travel through the server as text, ``settings:7``)."""
    heard: list[tuple[Notice, int | None]] = []
    any_store.listen(lambda notice, user_id: heard.append((notice, user_id)))
    expected = [(Notice.SETTINGS, 7), (Notice.POOL, None), (Notice.FORGET, 7)]
    for _ in range(100):  # PostgreSQL: until its listening connection is there
        await any_store.settings.change(7, four_colour=True)
        await asyncio.sleep(0.02)
        if heard:
            break
    assert await any_store.meta.try_lead(lambda: None)
    await any_store.pool.add("trefoil", 1, 1.0, target=1)
    assert await any_store.pool.take("trefoil") == 1
    await any_store.forget_player(7, today="2025-01-01")
    for _ in range(100):
        if heard[-len(expected):] == expected:
            break
        await asyncio.sleep(0.02)
    assert heard[-len(expected):] == expected
    assert all(type(notice) is Notice for notice, _ in heard)


async def test_every_change_to_a_game_is_a_notice_naming_its_player_and_nothing_else_is(
    any_store: Stores,
) -> None:
    """What a page following the game learns of at once, in any process: a new game, a
    move, a hint counted, a verdict; a change refused or a verdict on a position gone is
    none (PostgreSQL's arrive through the server, so they are awaited a moment)."""
    heard: list[tuple[Notice, int | None]] = []
    any_store.listen(lambda notice, user_id: heard.append((notice, user_id)))
    games = any_store.games

    async def told(count: int) -> list[tuple[Notice, int | None]]:
        for _ in range(100):
            game_notices = [h for h in heard if h[0] is Notice.GAME]
            if len(game_notices) >= count:
                break
            await asyncio.sleep(0.02)
        await asyncio.sleep(0.1)  # (and none more comes)
        return [h for h in heard if h[0] is Notice.GAME]

    for _ in range(100):  # PostgreSQL: until its listening connection is there
        saved = await games.start(8, None, new_game("trefoil", 4), 1.0,
                                  replacing=await games.load(8))
        await asyncio.sleep(0.02)
        if heard:
            break
    heard.clear()
    saved = await games.start(8, None, new_game("trefoil", 5), 2.0, replacing=saved)
    assert await told(1) == [(Notice.GAME, 8)]
    stale = await games.load(8)
    assert stale is not None
    saved.game.play(saved.game.legal_moves()[0])
    await games.save(saved)
    assert await told(2) == [(Notice.GAME, 8)] * 2
    with pytest.raises(ConcurrentChange):
        await games.save(stale)
    assert not await games.mark_proven_lost(saved.id, 0)  # a position no longer there
    assert await told(2) == [(Notice.GAME, 8)] * 2
    await games.count_hint(saved.id)
    assert await games.mark_proven_lost(saved.id, saved.revision)
    assert await told(4) == [(Notice.GAME, 8)] * 4


async def test_a_pooled_winnable_deal_is_handed_out_once(pair: tuple[Stores, Stores]) -> None:
    a, b = pair
    assert await a.meta.try_lead(lambda: None), "the leader fills the pool"
    for deal in range(1, 21):
        await a.pool.add("trefoil", deal, float(deal), target=20)
    taken = await outcomes(*(s.pool.take("trefoil") for _ in range(15) for s in (a, b)))
    deals = [d for d in taken if d is not None]
    assert all(isinstance(d, int) for d in deals), taken
    assert sorted(deals) == list(range(1, 21)), "each deal once, none lost"
    assert await b.pool.count("trefoil") == 0


async def test_accepts_from_two_processes_at_once_take_one_pooled_deal(
    pair: tuple[Stores, Stores],
) -> None:
    from bot.store.challenges import Acceptance
    from bot.store.statuses import ACCEPTED, DECLINED, OPEN

    a, b = pair
    assert await a.meta.try_lead(lambda: None), "the leader fills the pool"
    for deal in range(1, 11):
        await a.pool.add("trefoil", deal, float(deal), target=20)
    made = (await a.challenges.create(900, 1, 2, "trefoil", 100.0, language="en-US",
                                      most_open=3)).challenge
    assert made is not None
    answers = await outcomes(*(s.challenges.accept(made.id, 200.0) for _ in range(4)
                               for s in (a, b)))
    assert sorted(answers) == [Acceptance.NOT_OPEN] * 7 + [Acceptance.TAKEN], answers
    assert await b.pool.count("trefoil") == 9, "one Accept, one deal"
    kept = await b.challenges.get(made.id)
    assert kept is not None and kept.status == ACCEPTED and kept.deal == 1
    # Accept and Decline at once: a declined challenge took no deal.
    raced = (await a.challenges.create(900, 3, 4, "trefoil", 100.0, language="en-US",
                                       most_open=3)).challenge
    assert raced is not None
    answers = await outcomes(a.challenges.close(raced.id, OPEN, DECLINED),
                             b.challenges.accept(raced.id, 200.0))
    after = await a.challenges.get(raced.id)
    assert after is not None
    left = 8 if after.status == ACCEPTED else 9
    assert await a.pool.count("trefoil") == left, (answers, after.status)
    # Past its day to be answered, an Accept accepts nothing and takes nothing.
    late = (await b.challenges.create(900, 5, 6, "trefoil", 100.0, language="en-US",
                                      most_open=3)).challenge
    assert late is not None
    assert await a.challenges.accept(late.id, 100.0 + 24 * 3600 + 1) is Acceptance.NOT_OPEN
    assert await a.pool.count("trefoil") == left


async def test_two_processes_challenging_within_a_pair_at_once_make_one(
    pair: tuple[Stores, Stores],
) -> None:
    from bot.store.challenges import NotMade

    a, b = pair
    made = await outcomes(*(s.challenges.create(900, x, y, "trefoil", 100.0, language="en-US",
                                                most_open=3)
                            for s, (x, y) in ((a, (1, 2)), (b, (2, 1)), (a, (2, 1)), (b, (1, 2)))))
    kept = [m.challenge for m in made if hasattr(m, "challenge") and m.challenge is not None]
    assert len(kept) == 1, made
    assert sorted(str(getattr(m, "why", m)) for m in made) == ["None"] + [NotMade.PAIR_BUSY] * 3


async def test_one_postgres_process_leads_until_it_closes(pg_url: str) -> None:
    a, b = await Stores.open(pg_url), await Stores.open(pg_url)
    lost: list[str] = []
    try:
        assert await a.meta.try_lead(lambda: lost.append("a")) is True
        assert await b.meta.try_lead(lambda: lost.append("b")) is False
        assert await a.meta.try_lead(lambda: lost.append("a")) is True, "asking again keeps it"
        await a.close()
        assert await b.meta.try_lead(lambda: lost.append("b")) is True, "a leader gone is replaced"
        assert lost == [], "closing is no loss to be told of"
    finally:
        await a.close()
        await b.close()


async def test_only_the_leader_fills_the_pool_and_never_past_its_target(pg_url: str) -> None:
    from bot.store.database import NotLeading

    a, b = await Stores.open(pg_url), await Stores.open(pg_url)
    try:
        assert await a.meta.try_lead(lambda: None) and not await b.meta.try_lead(lambda: None)
        with pytest.raises(NotLeading):
            await b.pool.add("trefoil", 1, 1.0, target=3)
        added = [await a.pool.add("trefoil", deal, 1.0, target=3) for deal in range(1, 6)]
        assert added == [True, True, True, False, False]
        assert await b.pool.count("trefoil") == 3
    finally:
        await a.close()
        await b.close()


async def test_a_leader_whose_session_ends_is_told_at_once_and_writes_nothing(
    pg_url: str,
) -> None:
    from bot.store.database import NotLeading, StoreUnavailable

    a, b = await Stores.open(pg_url), await Stores.open(pg_url)
    lost = asyncio.Event()
    try:
        assert await a.meta.try_lead(lost.set)
        # The server ends the leader's session, as a restart or a network cut would.
        await run_sql(b, "SELECT pg_terminate_backend(pid, 5000) FROM pg_locks "
                         "WHERE locktype = 'advisory' AND pid <> pg_backend_pid()")
        await asyncio.wait_for(lost.wait(), 5)
        with pytest.raises((NotLeading, StoreUnavailable)):
            await a.pool.add("trefoil", 1, 1.0, target=3)
        assert await b.meta.try_lead(lambda: None), "another process takes the lead"
        assert await b.pool.count("trefoil") == 0
    finally:
        await a.close()
        await b.close()


async def test_a_leader_whose_session_is_lost_is_replaced(pg_url: str) -> None:
    a, b = await Stores.open(pg_url), await Stores.open(pg_url)
    try:
        assert await a.meta.try_lead("commands") is True
        # The leader's connection dies (a network cut, a server restart): its lock goes.
        await run_sql(
            # Waiting (up to 5 s) for the session to end: ended, it holds no lock any more.
            b, "SELECT pg_terminate_backend(pid, 5000) FROM pg_locks "
               "WHERE locktype = 'advisory'"
        )
        assert await b.meta.try_lead("commands") is True
        assert await a.meta.try_lead("commands") is False, "the old leader learns it lost the lead"
    finally:
        await a.close()
        await b.close()


async def test_a_sqlite_file_has_one_process_which_leads(db_path: Path) -> None:
    store = await Stores.open(db_path)
    try:
        assert await store.meta.try_lead("commands") is True
    finally:
        await store.close()


async def test_a_board_write_in_flight_elsewhere_never_brings_a_forgotten_player_back(
    pair: tuple[Stores, Stores],
) -> None:
    a, b = pair
    await a.games.start(1, 10, new_game("trefoil", 9), 1.0)
    live = b.boards.live
    written = live._write
    release = asyncio.Event()

    async def held_write(changes: Any) -> None:
        await release.wait()
        await written(changes)

    live._write = held_write
    await b.boards.swap(1, 500, 7001)  # the other process posted a board...
    writing = asyncio.ensure_future(live.write_now())  # ...and is writing it down
    await asyncio.sleep(0.01)
    assert (await a.forget_player(1, today="2026-11-01"))[:2] == (1, 0)  # meanwhile the player is forgotten here
    release.set()
    await writing
    async with a.db.reading() as conn:
        assert await conn.fetch("SELECT * FROM board_messages WHERE user_id = 1") == []
