"""The daily deal in the game flow: which start is scored, where midnight falls (by a clock
the test controls), and what a won daily deal says about the streak."""

from __future__ import annotations

import asyncio
import re
from datetime import UTC, date, datetime, timedelta
from pathlib import Path

from bot.core import Core
from bot.flows.actions import CONFIRMED
from bot.flows.daily import DailyDeals, utc_day
from bot.flows.game import GameFlow
from bot.replies import Action, DealRequest, Player, Reply
from bot.store import Stores
from engine import GAMES, new_game
from engine.solver.daily import winnable_daily_deal as daily_deal
from tests.bot.reference import Result, all_results, won_days
from tests.bot.store_support import fetch_sql, run_sql
from tests.said import shown

from .conftest import ALICE, BOB, Clock, PositionPicture, as_the_core_calls
from .daily_lines import NOV_22, NOV_22_DEAL, NOV_22_WIN, NOV_23, NOV_23_DEAL, NOV_23_WIN


def at(day: date, hour: int = 12, minute: int = 0, second: int = 0) -> float:
    return datetime(day.year, day.month, day.day, hour, minute, second, tzinfo=UTC).timestamp()


async def win(flow: GameFlow, clock: Clock, player: Player, line: list[str]) -> Reply:
    reply = Reply()
    for move in line:
        clock.advance(2)
        reply = await flow.act(player, Action.MOVE, move)
        assert reply.board is not None, shown(reply.note)
    return reply


async def test_the_day_turns_at_midnight_utc(flow: GameFlow) -> None:
    day_of = flow.daily_deals.day_of
    assert utc_day(at(NOV_22, 23, 59, 59)) == NOV_22
    assert utc_day(at(NOV_22, 23, 59, 59) + 1) == NOV_22 + timedelta(days=1)
    assert await day_of("trefoil", NOV_22_DEAL, at(NOV_22, 23, 59, 59)) == "2026-11-22"
    assert await day_of("trefoil", NOV_22_DEAL, at(NOV_23, 0, 0, 0)) is None
    assert await day_of("trefoil", NOV_23_DEAL, at(NOV_23, 0, 0, 0)) == "2026-11-23"
    assert await day_of("clover-leaf", NOV_22_DEAL, at(NOV_22)) is None


async def test_a_days_deal_is_found_once_and_kept_for_every_process(
    store: Stores, core: Core
) -> None:
    searched: list[tuple[str, date]] = []

    async def find(game_id: str, day: date, secret: str) -> int:
        searched.append((game_id, day))
        return await core.solver.daily_deal(game_id, day, secret)

    def process() -> DailyDeals:  # another process: nothing remembered
        return DailyDeals(store.daily, store.results, store.games, core.cooldowns, find,
                          lambda: at(NOV_22))

    first, second = process(), process()
    assert await first.todays_deal("trefoil") == (NOV_22, NOV_22_DEAL)
    assert await first.todays_deal("trefoil") == (NOV_22, NOV_22_DEAL)
    assert await second.deal_of("trefoil", NOV_22) == NOV_22_DEAL
    assert searched == [("trefoil", NOV_22)], "searched once, then read back"
    assert await store.daily.deal("trefoil", "2026-11-22") == NOV_22_DEAL


async def test_a_day_played_before_its_deal_was_kept_keeps_the_deal_it_was_played_with(
    store: Stores, core: Core, flow: GameFlow, clock: Clock
) -> None:
    """A database from before deals were proven: the day's games were dealt another deal.
    Players that day go on with that deal, whatever the solver would choose now."""
    clock.now = at(NOV_22)
    await flow.new_game(ALICE, "trefoil", NOV_22_DEAL)
    await run_sql(store, "UPDATE games SET deal = 77 WHERE daily = '2026-11-22'")
    await run_sql(store, "DELETE FROM daily_deals")

    async def never(game_id: str, day: date, secret: str) -> int:
        raise AssertionError("a played day is not searched again")

    later = DailyDeals(store.daily, store.results, store.games, core.cooldowns, never,
                       lambda: at(NOV_22, 20))
    assert await later.todays_deal("trefoil") == (NOV_22, 77)
    assert await store.daily.deal("trefoil", "2026-11-22") == 77


async def test_the_leader_finds_todays_and_tomorrows_deals_ahead(
    store: Stores, core: Core, clock: Clock
) -> None:
    clock.now = at(NOV_22)
    job = asyncio.create_task(core.daily_deals.keep_ahead(pause_s=3600))
    try:
        for _ in range(400):
            if await store.daily.deal("corner-stones", "2026-11-23") is not None:
                break
            await asyncio.sleep(0.05)
    finally:
        job.cancel()
    for game_id in GAMES:
        for day in (NOV_22, NOV_23):
            assert await store.daily.deal(game_id, day.isoformat()) == daily_deal(game_id, day)


def test_only_unaided_scored_daily_wins_make_a_streak_day() -> None:
    def result(outcome: str, day: date | None, hints: int = 0) -> Result:
        return Result(1, 5, "trefoil", 1, outcome, 60, 0, hints, 0, 100.0,
                      datetime(2026, 11, 22, tzinfo=UTC), day)

    history = [result("won", NOV_22), result("lost", NOV_23), result("won", None),
               result("won", date(2026, 11, 24), hints=1), result("won", date(2026, 11, 25))]
    assert won_days(history) == {NOV_22, date(2026, 11, 25)}


async def test_the_first_start_of_todays_deal_is_scored(
    flow: GameFlow, store: Stores, clock: Clock
) -> None:
    clock.now = at(NOV_22)
    first = await flow.new_game(ALICE, "trefoil", NOV_22_DEAL)
    assert first.board is not None
    assert "daily deal" in shown(first.board.text) and "scored attempt" in shown(first.board.text)
    saved = await store.games.load(ALICE.user_id)
    assert saved is not None and saved.daily == "2026-11-22"
    again_shown = await flow.show(ALICE)
    assert again_shown.board is not None
    assert "· 📅 daily 2026-11-22, proven winnable" in shown(again_shown.board.text).splitlines()[0], (
        "every board of a scored daily says so, not only the first")
    await flow.act(ALICE, Action.RESIGN, CONFIRMED)
    again = await flow.new_game(ALICE, "trefoil", NOV_22_DEAL)
    assert again.board is not None and "not scored" in shown(again.board.text)
    assert "📅" not in shown(again.board.text).splitlines()[0], "not scored: no mark on its boards"
    saved = await store.games.load(ALICE.user_id)
    assert saved is not None and saved.daily is None
    other = await flow.new_game(BOB, "trefoil", NOV_22_DEAL)
    assert other.board is not None and "scored attempt" in shown(other.board.text)


async def test_yesterdays_deal_after_midnight_is_an_ordinary_game(
    flow: GameFlow, store: Stores, clock: Clock
) -> None:
    clock.now = at(NOV_22, 23, 59, 59)
    assert daily_deal("trefoil", utc_day(clock.now)) == NOV_22_DEAL
    clock.advance(1)  # 00:00:00 on the 23rd
    reply = await flow.new_game(ALICE, "trefoil", NOV_22_DEAL)
    assert reply.board is not None and "daily" not in shown(reply.board.text)
    saved = await store.games.load(ALICE.user_id)
    assert saved is not None and saved.daily is None


async def test_a_deal_started_before_midnight_stays_that_days_attempt(
    flow: GameFlow, store: Stores, clock: Clock
) -> None:
    clock.now = at(NOV_22, 23, 59, 59)
    await flow.new_game(ALICE, "trefoil", NOV_22_DEAL)
    clock.advance(60)
    reply = await win(flow, clock, ALICE, NOV_22_WIN)
    assert reply.board is not None and "Daily deal won" in shown(reply.board.text)
    [result] = await all_results(store, user_id=ALICE.user_id)
    assert result.daily == NOV_22 and result.won
    assert utc_day(result.finished_at.timestamp()) == NOV_23


async def test_winning_daily_deals_on_following_days_makes_a_streak(
    flow: GameFlow, store: Stores, clock: Clock
) -> None:
    clock.now = at(NOV_22)
    await flow.new_game(ALICE, "trefoil", NOV_22_DEAL)
    first = await win(flow, clock, ALICE, NOV_22_WIN)
    assert first.board is not None
    assert "Daily streak: **1** day (best 1)" in shown(first.board.text)
    clock.now = at(NOV_23)
    await flow.new_game(ALICE, "trefoil", NOV_23_DEAL)
    second = await win(flow, clock, ALICE, NOV_23_WIN)
    assert second.board is not None
    assert "Daily streak: **2** days (best 2)" in shown(second.board.text)
    # A replay won the same day is no daily win.
    await flow.new_game(ALICE, "trefoil", NOV_23_DEAL)
    replay = await win(flow, clock, ALICE, NOV_23_WIN)
    assert replay.board is not None and "Daily" not in shown(replay.board.text)
    assert [r.daily for r in await all_results(store, user_id=ALICE.user_id)] == [NOV_22, NOV_23, None]


async def test_a_daily_won_with_hints_is_assisted(flow: GameFlow, store: Stores, clock: Clock) -> None:
    clock.now = at(NOV_22)
    await flow.new_game(ALICE, "trefoil", NOV_22_DEAL)
    saved = await store.games.load(ALICE.user_id)
    assert saved is not None
    await store.games.count_hint(saved.id)  # as a Hint would have counted it
    reply = await win(flow, clock, ALICE, NOV_22_WIN)
    assert reply.board is not None and "assisted" in shown(reply.board.text)
    [result] = await all_results(store, user_id=ALICE.user_id)
    assert result.won and result.assisted and not result.won_unaided


async def test_a_finished_daily_gives_a_line_to_share_that_spoils_nothing(
    flow: GameFlow, clock: Clock
) -> None:
    clock.now = at(NOV_22)
    await flow.new_game(ALICE, "trefoil", NOV_22_DEAL)
    won = await win(flow, clock, ALICE, NOV_22_WIN)
    assert won.board is not None
    line = f"🃏 Trefoil daily 2026-11-22 · 🏆 won in {len(NOV_22_WIN)} moves · 52/52 cards home"
    assert f"```\n{line} · no hints\n```" in shown(won.board.text)
    shared = shown(won.board.text).split("Share it:\n```\n")[1].split("\n```")[0]
    assert str(NOV_22_DEAL) not in shared and "♥" not in shared, "nothing of the deal"
    await flow.new_game(BOB, "trefoil", NOV_22_DEAL)
    await flow.act(BOB, Action.MOVE, NOV_22_WIN[0])
    resigned = await flow.act(BOB, Action.RESIGN, CONFIRMED)
    assert resigned.board is not None
    assert "· resigned · 1 move · " in shown(resigned.board.text), "how far it went, too"


async def test_a_database_makes_its_daily_secret_once_for_every_process_on_it(
    store_target: Path | str, tmp_path: Path
) -> None:
    first = await Stores.open(store_target)
    second = await Stores.open(store_target)  # another process, migrating nothing more
    other = await Stores.open(tmp_path / "another.db")
    try:
        secret = await first.daily.secret()
        assert re.fullmatch("[0-9a-f]{64}", secret), secret
        assert await second.daily.secret() == secret
        assert await other.daily.secret() != secret, "each database has a secret of its own"
    finally:
        for opened in (first, second, other):
            await opened.close()


async def test_the_bot_and_the_console_on_one_database_deal_one_daily_nobody_can_foresee(
    store_target: Path | str, picture: PositionPicture
) -> None:
    """Tomorrow's deal is not in the code: it is keyed by the database's secret, which every
    process on the database reads alike (the console is a core of its own over it)."""
    clock = lambda: at(NOV_22)  # noqa: E731
    bot = Core(await Stores.open(store_target), renderer=picture, clock=clock)
    console = Core(await Stores.open(store_target), renderer=picture, clock=clock,
                   cooldowns=False)
    try:
        secret = await bot.stores.daily.secret()
        tomorrow = NOV_22 + timedelta(days=1)
        deals = [await core.daily_deals.deal_of("trefoil", day)
                 for core in (console, bot) for day in (NOV_22, tomorrow)]
        assert deals[:2] == deals[2:], "the console and the bot deal the same days"
        assert deals[:2] == [daily_deal("trefoil", NOV_22, secret),
                             daily_deal("trefoil", tomorrow, secret)]
        assert deals[1] != daily_deal("trefoil", tomorrow), "the code alone does not tell it"
    finally:
        await bot.close()
        await console.close()


async def test_a_house_rule_never_plays_todays_daily_while_it_would_be_scored(
    any_core: Core, clock: Clock
) -> None:
    flow, store = as_the_core_calls(any_core.game), any_core.stores
    clock.now = at(NOV_22)
    refused = await flow.new_game(ALICE, "trefoil", NOV_22_DEAL, draw=True)
    assert refused.refused and refused.note is not None and refused.board is None
    assert "house rule never plays a scored game" in shown(refused.note), shown(refused.note)
    assert "`/daily trefoil`" in shown(refused.note) and "draw:True" in shown(refused.note)
    await flow.new_game(ALICE, "clover-leaf", 8)
    under_way = await store.games.load(ALICE.user_id)
    assert under_way is not None
    moved = await flow.act(ALICE, Action.MOVE, str(under_way.game.legal_moves()[0]))
    assert moved.board is not None, "a game under way: and yet no question is asked"
    asked = await flow.new_game(ALICE, "trefoil", NOV_22_DEAL, draw=True)
    assert asked.refused and asked.message is None
    saved = await store.games.load(ALICE.user_id)
    assert saved is not None
    # The page's answer to a question, or buttons kept from before: refused all the same.
    answered = await flow.confirm_new(ALICE, saved.id, DealRequest("trefoil", NOV_22_DEAL, True))
    assert answered.refused and "house rule never plays a scored game" in shown(answered.note)
    assert not await flow.daily_deals.has_attempt(ALICE.user_id, "trefoil", NOV_22)
    # Once the scored attempt is made, the draw replays it, unscored, and its result says so.
    await flow.act(ALICE, Action.RESIGN, CONFIRMED)
    await flow.daily(ALICE, "trefoil")
    await flow.act(ALICE, Action.RESIGN, CONFIRMED)
    replay = await flow.new_game(ALICE, "trefoil", NOV_22_DEAL, draw=True)
    assert replay.board is not None and "not scored" in shown(replay.board.text)
    await flow.act(ALICE, Action.RESIGN, CONFIRMED)
    rows = await fetch_sql(store, "SELECT daily, draw FROM results WHERE game = 'trefoil' "
                                  "ORDER BY id")
    assert [(r["daily"], bool(r["draw"])) for r in rows] == [("2026-11-22", False),
                                                              (None, True)]


async def test_a_game_with_a_house_rule_is_never_a_scored_attempt_in_the_store(
    any_store: Stores,
) -> None:
    """Whatever a caller says: the store tags no game with the draw rule as the daily's."""
    saved = await any_store.games.start(ALICE.user_id, ALICE.guild_id,
                                        new_game("trefoil", NOV_22_DEAL, draw=True),
                                        at(NOV_22), daily="2026-11-22")
    assert saved.daily is None
    assert not await any_store.results.has_daily_attempt(ALICE.user_id, "trefoil", "2026-11-22")


async def test_undo_stops_at_the_last_redeal_of_a_scored_daily_and_says_why(
    any_core: Core, clock: Clock
) -> None:
    flow, store = as_the_core_calls(any_core.game), any_core.stores
    clock.now = at(NOV_22)
    await flow.daily(ALICE, "trefoil")
    first_redeal = NOV_22_WIN.index("redeal")
    redealt = await win(flow, clock, ALICE, NOV_22_WIN[: first_redeal + 1])
    assert redealt.board is not None and not redealt.board.controls.enabled(Action.UNDO)
    refused = await flow.act(ALICE, Action.UNDO)
    assert refused.refused and refused.note is not None, refused
    assert "undo stops at the last redeal" in shown(refused.note), shown(refused.note)
    assert "shuffle seen stays seen" in shown(refused.note)
    moved = await win(flow, clock, ALICE, NOV_22_WIN[first_redeal + 1: first_redeal + 2])
    assert moved.board is not None and moved.board.controls.enabled(Action.UNDO)
    undone = await flow.act(ALICE, Action.UNDO)  # a move after the redeal: taken back
    assert undone.board is not None and "Took back" in shown(undone.board.text)
    again = await flow.act(ALICE, Action.UNDO)
    assert again.refused and "undo stops at the last redeal" in shown(again.note)
    saved = await store.games.load(ALICE.user_id)
    assert saved is not None and saved.game.redeals_left == 1 and saved.hints == 0
    assert saved.daily == "2026-11-22", "still the scored attempt, unassisted"


async def test_a_scored_game_stuck_at_its_last_redeal_offers_no_undo(
    any_core: Core, clock: Clock
) -> None:
    """Trefoil 3695 is stuck after two redeals at once. As a day's scored attempt (tagged so
    in the store), neither its board nor a hint may tell the player to undo."""
    flow, store = as_the_core_calls(any_core.game), any_core.stores
    await store.games.start(ALICE.user_id, ALICE.guild_id, new_game("trefoil", 3695),
                            clock(), daily="2026-11-22")
    await flow.act(ALICE, Action.REDEAL)
    stuck = await flow.act(ALICE, Action.REDEAL)
    assert stuck.board is not None and "**Stuck**" in shown(stuck.board.text)
    assert "undo stops at the last redeal" in shown(stuck.board.text), shown(stuck.board.text)
    assert "Undo to try" not in shown(stuck.board.text)
    hint = await flow.act(ALICE, Action.HINT)
    assert hint.note is not None and "undo stops at the last redeal" in shown(hint.note), shown(hint.note)
    assert "Undo " not in shown(hint.note)


async def test_a_known_days_deal_never_waits_behind_another_days_search(core: Core) -> None:
    """Every new game asks whether its deal is a day's: a day already known answers at
    once, even while a search for another day (the leader's, a past day's board) holds
    the way to the solver."""
    daily = core.daily_deals
    day = daily.today()
    known = await daily.deal_of("trefoil", day)
    async with daily._finding:  # another day's search under way
        assert await asyncio.wait_for(daily.deal_of("trefoil", day), 1) == known
