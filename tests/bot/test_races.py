"""Races at an Activity's table (``flows/races.py``, ``store/races.py``): started by one
player and joined by others while it counts down; one proven-winnable deal taken as it
begins and dealt to every racer at once, over whatever game they had; ranked by the
challenge's rule; a racer gone from the table resigned; its result posted once; counted
by ``/stats``. And driven by two processes at once, each step taken once."""

from __future__ import annotations

import asyncio

import pytest

from bot.core import Core
from bot.flows import tables
from bot.flows.actions import CONFIRMED
from bot.flows.races import COUNTDOWN_S, LIMIT_S, Where, announcement, winner
from bot.replies import Action, Member, Player, Refused
from bot.replies.text import Text
from bot.store import Stores
from bot.store.races import COUNTING, OVER, RUNNING, NewRace, Race, Racer
from bot.store.seats import Seat
from bot.store.statuses import ABANDONED, RESIGNED, WON
from engine.solver import solve
from tests.said import shown

from .conftest import ALICE, BOB, Clock
from .presenting import Answering, answer

CAROL = Player(user_id=333, guild_id=900)
DEN = Where("den", channel_id=4242, guild_id=900)
DEAL = 27  # a Trefoil deal the solver wins


async def pooled(core: Core, *deals: int) -> None:
    assert await core.stores.meta.try_lead(lambda: None), "the leader fills the pool"
    for deal in deals:
        await core.stores.pool.add("trefoil", deal, 1.0, target=20)


async def win(core: Core, player: Player) -> None:
    """Play the player's game to its win, as the solver finds it."""
    saved = await core.stores.games.load(player.user_id)
    assert saved is not None
    solution = solve(saved.game, positions=200_000)
    assert solution.moves, "the deal is won from here"
    for move in solution.moves:
        await answer(core.act, player, Action.MOVE, move)
    saved = await core.stores.games.load(player.user_id)
    assert saved is not None and saved.game.is_won


async def test_a_race_deals_every_racer_one_deal_at_once_and_ranks_them(
    core: Core, clock: Clock,
) -> None:
    await pooled(core, DEAL)
    posted: list[tuple[int, Text]] = []

    async def post(channel_id: int, text: Text) -> None:
        posted.append((channel_id, text))

    core.races.announce = post
    # Alice has a game under way: joining a race leaves it, as /new would.
    await answer(core.new_game, ALICE, "clover-leaf", 5)
    saved = await core.stores.games.load(ALICE.user_id)
    assert saved is not None
    await answer(core.act, ALICE, Action.MOVE, str(saved.game.legal_moves()[0]))

    started = await answer(core.start_race, ALICE, "Alice", DEN, "trefoil")
    assert "You started a Trefoil race: it begins in 15 seconds" in shown(started.note)
    again = await answer(core.start_race, BOB, "Bob", DEN, "trefoil")
    assert "A race is under way at this table already" in shown(again.note)
    race = await core.races.at("den")
    assert race is not None and race.status == COUNTING and race.deal is None
    joined = await answer(core.join_race, BOB, "Bob", "den", race.id)
    assert "You are in the race: it begins in 15 seconds" in shown(joined.note)
    elsewhere = await answer(core.join_race, CAROL, "Carol", "attic", race.id)
    assert shown(elsewhere.note) == "That race is not at this table."

    clock.advance(COUNTDOWN_S)
    late = await answer(core.join_race, CAROL, "Carol", "den", race.id)
    assert "That race has begun" in shown(late.note)
    race = await core.races.advance(race)
    assert race.status == RUNNING and race.deal == DEAL
    assert [r.user_id for r in race.racers] == [ALICE.user_id, BOB.user_id]
    assert all(r.dealt for r in race.racers)
    for player in (ALICE, BOB):
        game = await core.stores.games.load(player.user_id)
        assert game is not None and game.race_id == race.id and game.scored
        assert (game.game.game_id, game.game.deal_number) == ("trefoil", DEAL)
    assert await core.stores.pool.count("trefoil") == 0, "one deal for the race"

    await win(core, ALICE)
    resigned = await answer(core.act, BOB, Action.RESIGN, CONFIRMED)
    assert resigned.board is not None
    race = await core.races.advance(race)
    assert race.status == OVER
    best = winner(race)
    assert best is not None and best.user_id == ALICE.user_id
    assert [(r.user_id, r.outcome) for r in race.racers] == [
        (ALICE.user_id, WON), (BOB.user_id, RESIGNED)]
    await core.races.advance(race)  # again: posted once
    [(channel, text)] = posted
    assert channel == 4242
    said = shown(text)
    assert said.startswith("🏁 **Trefoil race** over: 2 racers, deal 27, proven winnable.")
    assert f"1. <@{ALICE.user_id}>: won in " in said
    assert f"2. <@{BOB.user_id}>: resigned" in said
    assert f"🏆 <@{ALICE.user_id}> wins the race!" in said
    assert await core.races.record(ALICE.user_id, 900) == (1, 1)
    assert await core.races.record(BOB.user_id, 900) == (1, 0)
    assert await core.races.record(BOB.user_id, 901) == (0, 0)
    stats = await Answering(core).stats(BOB, Member(BOB.user_id, "Bob"))
    assert "🏁 Races: 1 run, 0 won" in shown(stats.message.text)


async def test_the_left_game_counts_as_a_new_game_leaves_it(core: Core, clock: Clock) -> None:
    await pooled(core, DEAL)
    await answer(core.new_game, ALICE, "clover-leaf", 5)
    saved = await core.stores.games.load(ALICE.user_id)
    assert saved is not None
    await answer(core.act, ALICE, Action.MOVE, str(saved.game.legal_moves()[0]))
    await answer(core.start_race, ALICE, "Alice", DEN, "trefoil")
    clock.advance(COUNTDOWN_S)
    race = await core.races.at("den")
    assert race is not None
    await core.races.advance(race)
    async with core.stores.db.reading() as conn:
        rows = await conn.fetch("SELECT game, outcome FROM results WHERE user_id = $1",
                                ALICE.user_id)
    assert [(r["game"], r["outcome"]) for r in rows] == [("clover-leaf", ABANDONED)]


async def test_a_race_ends_at_its_limit_and_a_late_win_does_not_count(
    core: Core, clock: Clock,
) -> None:
    await pooled(core, DEAL)
    await answer(core.start_race, ALICE, "Alice", DEN, "trefoil")
    clock.advance(COUNTDOWN_S)
    race = await core.races.at("den")
    assert race is not None
    race = await core.races.advance(race)
    clock.advance(LIMIT_S + 1)
    await win(core, ALICE)
    race = await core.races.advance(race)
    assert race.status == OVER and race.racers[0].outcome is None
    assert winner(race) is None
    assert "1. <@111>: did not finish in time" in shown(announcement(race))
    assert await core.races.record(ALICE.user_id, None) == (1, 0)


async def test_no_deal_to_be_found_calls_the_race_off(
    core: Core, clock: Clock, monkeypatch: pytest.MonkeyPatch,
) -> None:
    async def none(game_id: str) -> None:
        return None

    monkeypatch.setattr(core.deals, "proven_now", none)
    await answer(core.start_race, ALICE, "Alice", DEN, "trefoil")
    clock.advance(COUNTDOWN_S)
    race = await core.races.at("den")
    assert race is not None
    race = await core.races.advance(race)
    assert race.status == OVER and race.begun_at is None
    assert await core.stores.games.load(ALICE.user_id) is None, "nothing dealt"
    assert await core.races.record(ALICE.user_id, None) == (0, 0)
    again = await answer(core.start_race, ALICE, "Alice", DEN, "trefoil")
    assert shown(again.note) == ("A race's deal takes the solver a while to prove winnable: "
                                 "start one every 30 s. Ask again in 15 s.")
    clock.advance(15)
    restarted = await answer(core.start_race, ALICE, "Alice", DEN, "trefoil")
    assert "You started a Trefoil race" in shown(restarted.note)


async def test_a_racer_gone_from_the_table_is_resigned_and_the_race_ends(
    core: Core, clock: Clock, monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(tables, "DRIVE_S", 0.05)
    monkeypatch.setattr(tables, "AWAY_S", 5.0)
    await pooled(core, DEAL)
    async with core.tables.sitting(Seat("alice-page", "den", ALICE.user_id, "Alice")) as (
            watch, since):
        await watch.looked(since)
        async with core.tables.sitting(Seat("bob-page", "den", BOB.user_id, "Bob")):
            await answer(core.start_race, ALICE, "Alice", DEN, "trefoil")
            race = await core.races.at("den")
            assert race is not None
            await answer(core.join_race, BOB, "Bob", "den", race.id)
            clock.advance(COUNTDOWN_S)
            watch.look_again()

            async def running() -> bool:
                return watch.race is not None and watch.race.status == RUNNING and all(
                    r.dealt for r in watch.race.racers)

            await until(running)

        async def bob_gone() -> bool:  # his page left, and the watch has seen it
            return [p.user_id for p in watch.players] == [ALICE.user_id]

        await until(bob_gone)
        await asyncio.sleep(0.1)
        race = watch.race
        assert race is not None and race.racer(BOB.user_id).outcome is None  # type: ignore[union-attr]
        clock.advance(6.0)  # gone for AWAY_S

        async def bob_resigned() -> bool:
            watch.look_again()
            now = watch.race
            return now is not None and now.racer(BOB.user_id) is not None and \
                now.racer(BOB.user_id).outcome == RESIGNED  # type: ignore[union-attr]

        await until(bob_resigned)
        await answer(core.act, ALICE, Action.RESIGN, CONFIRMED)

        async def over() -> bool:
            watch.look_again()
            return watch.race is not None and watch.race.status == OVER

        await until(over)


async def until(check: object, within_s: float = 5.0) -> None:
    for _ in range(int(within_s / 0.02)):
        if await check():  # type: ignore[operator]
            return
        await asyncio.sleep(0.02)
    raise AssertionError("not within the time")


async def test_two_processes_driving_one_race_begin_it_once(
    pair: tuple[Stores, Stores],
) -> None:
    a, b = pair
    assert await a.meta.try_lead(lambda: None)
    for deal in (3, 4):
        await a.pool.add("trefoil", deal, 1.0, target=20)
    new = NewRace("den", 900, 4242, "trefoil", 1, "Ann", 900, "en-US")
    made = await a.races.create(new, 100.0, 110.0)
    assert made is not None
    assert await b.races.create(new, 100.0, 110.0) is None, "one race under way a table"
    assert await b.races.join(made.id, 2, "Bob", 900, 105.0)
    begun = await asyncio.gather(*(s.races.begin(made.id, 110.0, 1310.0)
                                   for _ in range(3) for s in (a, b)))
    assert (begun.count(True), begun.count(False)) == (1, 5), begun
    assert await a.pool.count("trefoil") == 1, "one deal taken"
    assert not await a.races.join(made.id, 3, "Cy", 900, 111.0), "begun: no one joins"
    closed = await asyncio.gather(*(s.races.close(made.id, 1400.0) for s in (a, b)))
    assert sorted(closed) == [False, True]
    posts = await asyncio.gather(*(s.races.to_post(made.id) for s in (a, b, a, b)))
    assert sorted(posts) == [False] * 3 + [True]


async def test_a_refused_start_changes_nothing(core: Core) -> None:
    with pytest.raises(Refused):
        await core.races.start(ALICE, "Alice", DEN, "chess")
    assert await core.races.at("den") is None


def test_a_posted_result_names_the_first_ten_places_and_counts_the_rest() -> None:
    racers = tuple(Racer(user_id=500 + n, name=f"R{n}", guild_id=900, joined_at=float(n),
                         dealt=True, outcome=WON if n < 2 else None, moves=80 + n,
                         seconds=100.0, hints=0, home=40 - n) for n in range(14))
    race = Race(id=1, instance="den", guild_id=900, channel_id=4242, game="trefoil", deal=27,
                status=OVER, started_by=500, created_at=0.0, starts_at=15.0, begun_at=15.0,
                ends_at=1215.0, language="en-US", posted=False, racers=racers)
    said = shown(announcement(race))
    assert len(said.split("\n")) == 1 + 10 + 1 + 1, said  # head, places, the rest, winner
    assert "1. <@500>: won in 80 moves (1:40)" in said
    assert "10. <@509>: did not finish in time" in said and "<@510>" not in said
    assert "…and 4 more racers." in said and said.endswith("🏆 <@500> wins the race!")
