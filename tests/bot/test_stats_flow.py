"""Statistics, leaderboards, daily boards and data rights, on histories built in a real SQLite
file, read back through the store, with a clock the test controls."""

from __future__ import annotations

import io
import itertools
import sqlite3
from collections.abc import AsyncIterator
from datetime import UTC, date, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from PIL import Image

from bot.core import Core
from bot.flows.actions import CONFIRMED
from bot.flows.cooldowns import EVERY_S
from bot.flows.data_rights import FORGET_YES
from bot.flows.stats import EVERYWHERE, picture_name
from bot.replies import Action, Ask, DealRequest, Member, Player, Reply
from bot.store import Stores
from engine.solver.daily import winnable_daily_deal as daily_deal
from render.stats_card import MARGIN, ROW, TOP, WIDTH
from tests.bot.reference import all_results
from tests.said import shown

from .conftest import ALICE, BOB, Clock, as_the_core_calls, offer_of
from .presenting import Answering

GUILD, OTHER = 900, 901
NOW = datetime(2026, 11, 22, 12, 0, tzinfo=UTC)
TODAY = NOW.date()
CAROL = Player(user_id=333, guild_id=GUILD)
ALICE_ELSEWHERE = Player(ALICE.user_id, OTHER)
ALICE_IN_DM = Player(ALICE.user_id, None)


class History:
    """Finished games written straight into the results table, as the store writes them."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.rows = itertools.count(1_000)

    def add(
        self,
        user: int,
        outcome: str = "won",
        *,
        guild: int | None = GUILD,
        game: str = "trefoil",
        moves: int = 60,
        seconds: float = 300.0,
        hours_ago: float = 1.0,
        hints: int = 0,
        daily: date | None = None,
    ) -> None:
        finished = (NOW - timedelta(hours=hours_ago)).timestamp()
        with sqlite3.connect(self.path) as con:
            con.execute(
                "INSERT INTO results (game_row, user_id, guild_id, game, deal, outcome, moves, "
                "undos, hints, redeals_used, seconds_played, finished_at, daily) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, 0, ?, 0, ?, ?, ?)",
                (next(self.rows), user, guild, game,
                 1 if daily is None else daily_deal(game, daily), outcome, moves, hints,
                 seconds, finished, None if daily is None else daily.isoformat()),
            )
        con.close()


@pytest.fixture
def history(store: Stores, db_path: Path) -> History:
    return History(db_path)


@pytest.fixture
async def stats(
    core: Core, clock: Clock, monkeypatch: pytest.MonkeyPatch
) -> AsyncIterator[Any]:
    """The core, whose face has every statistics command, each returning the reply it
    shows, at noon on the 22nd; these tests ask again and again without waiting, so the
    reads' cooldowns are off (they have their own tests)."""
    for kind in ("show", "stats", "leaderboard", "daily-board"):
        monkeypatch.setitem(EVERY_S, kind, 0.0)
    clock.now = NOW.timestamp()
    yield Answering(core)


def person(player: Player, name: str = "Alice") -> Member:
    return Member(player.user_id, name)


def picture(answer: Reply) -> Image.Image:
    assert answer.message is not None and answer.message.image is not None
    image = Image.open(io.BytesIO(answer.message.image))
    image.load()
    return image


# -- /stats ---------------------------------------------------------------------------------


async def test_stats_per_game_and_in_all_on_this_server(
    stats: Any, history: History
) -> None:
    for hours, outcome, moves, seconds in [
        (9, "won", 80, 400), (8, "won", 62, 500), (7, "lost", 20, 30), (6, "won", 70, 190),
        (5, "won", 75, 360),
    ]:
        history.add(ALICE.user_id, outcome, moves=moves, seconds=seconds, hours_ago=hours)
    history.add(ALICE.user_id, "won", game="clover-leaf", moves=10, seconds=5, hints=2,
                hours_ago=4)
    history.add(ALICE.user_id, "resigned", game="clover-leaf", hours_ago=3)
    history.add(ALICE.user_id, "won", guild=OTHER, moves=5, seconds=1)  # another server
    answer = await stats.stats(ALICE, person(ALICE))
    assert not answer.message.private and not answer.refused
    first, *games = shown(answer.message.text).splitlines()
    assert first.startswith("Your record on this server: 7 played · 4 won (57%) · 1 assisted")
    assert "streak 0 (best 2)" in first  # the assisted win and the resignation came last
    assert games == [  # in the order of engine.GAMES
        "• Clover Leaf: 0/2 won · streak 0 (best 0) · 1 assisted",
        "• Trefoil: 4/5 won · streak 2 (best 2) · fewest 62 moves · fastest 3:10",
    ]
    assert "5 moves" not in shown(answer.message.text), "nothing of the other server"
    image = picture(answer)
    assert image.size == (WIDTH, TOP + ROW * 3 + MARGIN)  # two games and the totals: a bar each
    alt = answer.message.alt_text
    assert 0 < len(alt) <= 1024 and "Trefoil" in alt and "Clover Leaf" in alt, "described"
    one_game = picture(await stats.stats(ALICE, person(ALICE), game="trefoil"))
    assert one_game.size == (WIDTH, TOP + ROW + MARGIN)


async def test_stats_of_another_player_on_this_server_is_public(
    stats: Any, history: History
) -> None:
    history.add(BOB.user_id, "won")
    history.add(BOB.user_id, "won", guild=OTHER)
    answer = await stats.stats(ALICE, person(BOB, "Bob"))
    assert not answer.message.private and answer.message.image is not None
    assert shown(answer.message.text).startswith(f"<@{BOB.user_id}>'s record on this server: 1 played · 1 won")


async def test_the_all_servers_record_is_for_the_player_alone(
    stats: Any, history: History
) -> None:
    history.add(ALICE.user_id, "won")
    history.add(ALICE.user_id, "lost", guild=OTHER)
    history.add(ALICE.user_id, "won", guild=None)
    mine = await stats.stats(ALICE, person(ALICE), scope=EVERYWHERE)
    assert mine.message.private and mine.message.image is not None
    assert "3 played · 2 won" in shown(mine.message.text)
    theirs = await stats.stats(BOB, person(ALICE), scope=EVERYWHERE)
    assert theirs.refused and theirs.message is None, "a refusal is a private note"
    assert "only to that player" in shown(theirs.text)
    assert "2 won" not in shown(theirs.text)


async def test_outside_a_server_stats_are_your_own_and_private(
    stats: Any, history: History
) -> None:
    history.add(ALICE.user_id, "won")
    history.add(ALICE.user_id, "won", guild=OTHER)
    mine = await stats.stats(ALICE_IN_DM, person(ALICE))
    assert mine.message.private and "everywhere: 2 played · 2 won" in shown(mine.message.text)
    theirs = await stats.stats(Player(BOB.user_id, None), person(ALICE))
    assert theirs.refused and "only your own" in shown(theirs.text)


async def test_stats_for_one_game_and_the_daily_streak(
    stats: Any, history: History
) -> None:
    yesterday = TODAY - timedelta(days=1)
    history.add(ALICE.user_id, "won", daily=yesterday - timedelta(days=1), hours_ago=50)
    history.add(ALICE.user_id, "won", game="clover-leaf", daily=yesterday, hours_ago=26)
    history.add(ALICE.user_id, "won", daily=TODAY, hours_ago=1, hints=1)  # assisted: no day
    history.add(ALICE.user_id, "lost", game="corner-stones")
    answer = await stats.stats(ALICE, person(ALICE), game="trefoil")
    assert "daily streak 2 (best 2)" in shown(answer.message.text)  # any game's daily counts
    assert "Corner Stones" not in shown(answer.message.text) and "Clover Leaf" not in shown(answer.message.text)
    assert "• Trefoil: 1/2 won" in shown(answer.message.text)


async def test_no_games_yet(stats: Any, history: History) -> None:
    history.add(ALICE.user_id, "won", guild=OTHER)
    mine = await stats.stats(ALICE, person(ALICE))
    assert mine.message.private and mine.message.image is None
    assert "no finished games on this server yet" in shown(mine.message.text) and "/new" in shown(mine.message.text)
    theirs = await stats.stats(BOB, person(ALICE))
    assert f"<@{ALICE.user_id}> has no finished games" in shown(theirs.message.text)


async def test_stats_refuses_unknown_games_and_bots(stats: Any) -> None:
    assert (await stats.stats(ALICE, person(ALICE), game="hearts")).refused
    assert (await stats.stats(ALICE, Member(5, "Robot", bot=True))).refused


# -- /leaderboard ---------------------------------------------------------------------------


async def test_the_leaderboard_does_not_reward_one_lucky_win(
    stats: Any, history: History
) -> None:
    history.add(ALICE.user_id, "won")  # 1 of 1
    for i in range(10):  # 8 of 10
        history.add(BOB.user_id, "won" if i < 8 else "lost", hours_ago=2 + i)
    for i in range(5):  # 0 of 5
        history.add(CAROL.user_id, "lost", hours_ago=2 + i)
    answer = await stats.leaderboard(ALICE)
    assert not answer.message.private
    lines = shown(answer.message.text).splitlines()
    assert lines[0].startswith("🏆 **Leaderboard** — all games, all time")
    assert lines[1] == f"🥇 <@{BOB.user_id}> — 8/10 won (80%) · score 0.49"
    assert lines[2] == f"🥈 <@{ALICE.user_id}> — 1/1 won (100%) · score 0.21"
    assert lines[3] == f"3. <@{CAROL.user_id}> — 0/5 won (0%) · score 0.00", "no medal: no win"
    assert "Wilson" in lines[-1]


async def test_the_leaderboard_shows_the_top_ten_and_the_callers_rank(
    stats: Any, history: History
) -> None:
    for user in range(1, 13):  # user n wins n of 12: user 12 first, user 1 last
        for i in range(12):
            history.add(user, "won" if i < user else "lost", hours_ago=1 + i)
    top = await stats.leaderboard(Player(12, GUILD))
    assert [line.split()[1] for line in shown(top.text).splitlines()[1:11]] == [
        f"<@{user}>" for user in range(12, 2, -1)
    ]
    assert "…" not in shown(top.text)
    low = await stats.leaderboard(Player(1, GUILD))
    assert "…\n12. <@1> — 1/12 won" in shown(low.text)
    stranger = await stats.leaderboard(Player(99, GUILD))
    assert "You have no finished games here" in shown(stranger.text)


async def test_the_leaderboard_keeps_to_its_server_period_and_game(
    stats: Any, history: History
) -> None:
    history.add(ALICE.user_id, "won", hours_ago=24 * 10)  # 10 days ago
    history.add(BOB.user_id, "won", hours_ago=24 * 3)
    history.add(CAROL.user_id, "won", guild=OTHER)
    history.add(CAROL.user_id, "won", game="clover-leaf")
    history.add(ALICE.user_id, "won", hints=1)  # assisted: played, not won

    def users(answer: Reply) -> list[str]:
        assert answer.message is not None
        return [w for w in shown(answer.message.text).split() if w.startswith("<@")]

    # Bob and Carol both won 1 of 1 here (Carol's other win was elsewhere): a tie, by id.
    assert users(await stats.leaderboard(ALICE, period="all")) == [
        f"<@{BOB.user_id}>", f"<@{CAROL.user_id}>", f"<@{ALICE.user_id}>"
    ]
    assert f"<@{ALICE.user_id}> — 1/2 won" in shown((await stats.leaderboard(ALICE)).text)
    week = await stats.leaderboard(ALICE, period="week")
    assert "the last 7 days" in shown(week.text)
    assert users(week) == [f"<@{BOB.user_id}>", f"<@{CAROL.user_id}>", f"<@{ALICE.user_id}>"]
    assert f"<@{ALICE.user_id}> — 0/1 won" in shown(week.text), "the old win left, the assisted one is no win"
    trefoil = await stats.leaderboard(ALICE, game="trefoil")
    assert f"<@{CAROL.user_id}>" not in shown(trefoil.text)
    elsewhere = await stats.leaderboard(ALICE_ELSEWHERE)
    assert users(elsewhere) == [f"<@{CAROL.user_id}>"]
    assert (await stats.leaderboard(ALICE, period="year")).refused


async def test_outside_a_server_the_leaderboard_has_only_you(
    stats: Any, history: History
) -> None:
    history.add(ALICE.user_id, "won", guild=None)
    history.add(BOB.user_id, "won", guild=None)
    answer = await stats.leaderboard(ALICE_IN_DM)
    assert "only you" in shown(answer.message.text)
    assert f"<@{ALICE.user_id}>" in shown(answer.message.text) and f"<@{BOB.user_id}>" not in shown(answer.message.text)


# -- the daily deal -------------------------------------------------------------------------


async def test_daily_deals_todays_deal_and_scores_only_the_first_attempt(
    stats: Any, store: Stores
) -> None:
    deal = daily_deal("trefoil", TODAY)
    first = await stats.daily(ALICE, "trefoil")
    assert first.board is not None and f"deal {deal}" in shown(first.board.text)
    assert "scored attempt" in shown(first.board.text)
    again = await stats.daily(ALICE, "trefoil")
    assert again.board is not None and again.message is None
    assert again.note is not None and "already playing" in shown(again.note)
    await stats.game.act(ALICE, Action.RESIGN, CONFIRMED)
    replay = await stats.daily(ALICE, "trefoil")
    assert replay.board is not None and "not scored" in shown(replay.board.text)
    [result] = await all_results(store, user_id=ALICE.user_id)
    assert (result.outcome, result.daily) == ("resigned", TODAY)


async def test_daily_over_an_unfinished_game_asks_first(stats: Any, store: Stores) -> None:
    await stats.game.new_game(ALICE, "clover-leaf", 5)
    reply = await stats.daily(ALICE, "trefoil")
    assert reply.message is not None and reply.board is None
    asked = reply.message.question
    assert asked is not None and asked.ask is Ask.NEW_GAME
    assert "daily deal" in shown(reply.message.text) and "your scored attempt" in shown(reply.message.text)
    replacing, game_id, deal = asked.args
    assert int(deal) == daily_deal("trefoil", TODAY)
    confirmed = await stats.game.confirm_new(ALICE, int(replacing), DealRequest(game_id, int(deal)))
    assert confirmed.board is not None and "scored attempt" in shown(confirmed.board.text)
    saved = await store.games.load(ALICE.user_id)
    assert saved is not None and saved.daily == TODAY.isoformat()


async def test_the_daily_deal_changes_at_midnight_utc(stats: Any, clock: Clock) -> None:
    clock.now = datetime(2026, 11, 22, 23, 59, 59, tzinfo=UTC).timestamp()
    before = await stats.daily(ALICE, "trefoil")
    clock.advance(1)
    after = await stats.daily(BOB, "trefoil")
    assert before.board is not None and after.board is not None
    assert f"deal {daily_deal('trefoil', date(2026, 11, 22))}" in shown(before.board.text)
    assert f"deal {daily_deal('trefoil', date(2026, 11, 23))}" in shown(after.board.text)
    assert "2026-11-23" in shown(after.board.text)


async def test_the_daily_board_ranks_winners_by_moves_then_time(
    stats: Any, history: History
) -> None:
    history.add(ALICE.user_id, "won", moves=70, seconds=100, daily=TODAY)
    history.add(BOB.user_id, "won", moves=60, seconds=900, daily=TODAY)
    history.add(CAROL.user_id, "won", moves=60, seconds=400, daily=TODAY)
    history.add(4, "lost", moves=10, daily=TODAY)
    history.add(5, "won", moves=40, daily=TODAY, hints=1)  # assisted
    history.add(6, "won", moves=30)  # an ordinary game
    history.add(7, "won", moves=20, daily=TODAY, guild=OTHER)  # another server
    history.add(8, "won", moves=20, daily=TODAY, game="clover-leaf")
    answer = await stats.daily_board(ALICE, "trefoil")
    assert not answer.message.private
    lines = shown(answer.message.text).splitlines()
    deal = daily_deal("trefoil", TODAY)
    assert lines[0] == f"📅 **Daily board** — Trefoil, today (UTC), deal {deal}"
    assert lines[1:4] == [
        f"🥇 <@{CAROL.user_id}> — 60 moves · 6:40",
        f"🥈 <@{BOB.user_id}> — 60 moves · 15:00",
        f"🥉 <@{ALICE.user_id}> — 70 moves · 1:40",
    ]
    assert lines[4] == "5 players finished their scored attempts here, 3 won (1 more with hints)."
    assert "/daily trefoil" in lines[5]


async def test_the_daily_board_of_another_day(stats: Any, history: History) -> None:
    yesterday = TODAY - timedelta(days=1)
    history.add(ALICE.user_id, "won", daily=yesterday, hours_ago=20)
    history.add(BOB.user_id, "won", daily=TODAY)
    for asked in ("yesterday", yesterday.isoformat()):
        answer = await stats.daily_board(BOB, "trefoil", asked)
        assert yesterday.isoformat() in shown(answer.message.text)
        assert f"<@{ALICE.user_id}>" in shown(answer.message.text) and f"<@{BOB.user_id}>" not in shown(answer.message.text)
        assert f"`/new trefoil {daily_deal('trefoil', yesterday)}`" in shown(answer.message.text)
    empty = await stats.daily_board(BOB, "trefoil", "2026-01-01")
    assert "Nobody here has finished" in shown(empty.text)


async def test_the_daily_board_takes_today_and_yesterday_in_the_language_spoken_too(
    stats: Any,
) -> None:
    import dataclasses
    import gettext

    from babel import Locale

    from bot.words.language import Words
    from tests.marked_language import installed

    class Typed(gettext.NullTranslations):
        def pgettext(self, context: str, message: str) -> str:
            days = {"today": "heute", "yesterday": "gestern"}
            return days[message] if context == "a day typed in /daily-board" else message

    german = dataclasses.replace(ALICE, language="de")
    with installed(Words("de", Typed(), Locale.parse("de"))):
        for typed in ("gestern", "yesterday", "Gestern "):
            answer = await stats.daily_board(german, "trefoil", typed)
            assert not answer.refused, typed
        refused = await stats.daily_board(german, "trefoil", "morgen")
        assert refused.refused and "`heute` or `gestern`" in shown(refused.text)


@pytest.mark.parametrize(("day", "says"), [
    ("2026-11-23", "has not come yet"), ("22/11/2026", "year-month-day"), ("soon", "`soon`"),
])
async def test_the_daily_board_refuses_days_it_cannot_show(
    stats: Any, day: str, says: str
) -> None:
    answer = await stats.daily_board(ALICE, "trefoil", day)
    assert answer.refused and answer.message is None and says in shown(answer.text)


# -- data rights ----------------------------------------------------------------------------


async def test_forget_me_asks_then_deletes_that_player_everywhere(
    stats: Any, store: Stores, history: History
) -> None:
    history.add(ALICE.user_id, "won")
    history.add(ALICE.user_id, "won", guild=OTHER)
    history.add(ALICE.user_id, "won", guild=None)
    history.add(BOB.user_id, "won")
    await stats.game.new_game(ALICE, "trefoil", 3)
    await stats.game.new_game(BOB, "trefoil", 3)
    asked = await stats.forget_question(ALICE)
    assert asked.message.private and asked.message.question is not None
    assert (asked.message.question.ask, asked.message.question.owner_id, asked.message.question.yes) == (
        Ask.FORGET, ALICE.user_id, FORGET_YES
    )
    assert await store.games.load(ALICE.user_id) is not None, "asking deletes nothing"
    done = await stats.data_rights.forget(ALICE)
    assert done.message.private and "your current game and 3 results" in shown(done.message.text)
    assert await store.games.load(ALICE.user_id) is None
    assert await all_results(store, user_id=ALICE.user_id) == []
    assert [r.user_id for r in await all_results(store)] == [BOB.user_id]
    assert await store.games.load(BOB.user_id) is not None


async def test_only_a_server_manager_may_reset_and_only_that_server(
    stats: Any, store: Stores, history: History
) -> None:
    history.add(ALICE.user_id, "won")
    history.add(BOB.user_id, "lost")
    history.add(ALICE.user_id, "won", guild=OTHER)
    refused = await stats.reset_question(BOB, can_manage_server=False)
    assert refused.refused and refused.message is None and "Manage Server" in shown(refused.text)
    assert (await as_the_core_calls(stats.data_rights).reset(BOB, can_manage_server=False)).refused
    assert len(await all_results(store)) == 3
    asked = await stats.reset_question(BOB, can_manage_server=True)
    assert asked.message.question is not None and asked.message.question.ask is Ask.RESET
    assert "all **2** results of this server" in shown(asked.message.text)
    done = await stats.data_rights.reset(BOB, can_manage_server=True)
    assert "deleted 2 results" in shown(done.message.text)
    assert [(r.user_id, r.guild_id) for r in await all_results(store)] == [(ALICE.user_id, OTHER)]
    in_dm = await stats.reset_question(ALICE_IN_DM, can_manage_server=True)
    assert in_dm.refused and "in a server" in shown(in_dm.text)


@pytest.mark.parametrize(("name", "printed"), [
    ("Alice", "Alice"), ("Zoë  Żak", "Zoe Zak"), ("Дмитрий", "Player"), ("ace 🂡 high", "ace high"),
])
def test_names_on_the_picture_use_letters_its_font_has(name: str, printed: str) -> None:
    assert picture_name(name) == printed


async def test_the_daily_board_invites_only_those_who_have_not_tried_today(
    stats: Any,
) -> None:
    await stats.daily(ALICE, "trefoil")  # Alice's scored attempt has begun
    hers = await stats.daily_board(ALICE, "trefoil")
    assert "Your scored attempt is under way" in shown(hers.text), "begun is not made"
    assert "/daily trefoil" not in shown(hers.text)
    await stats.act(ALICE, Action.RESIGN, CONFIRMED)
    hers = await stats.daily_board(ALICE, "trefoil")
    assert "You have made your scored attempt today" in shown(hers.text)
    assert f"`/new trefoil {daily_deal('trefoil', TODAY)}`" in shown(hers.text)
    his = await stats.daily_board(BOB, "trefoil")
    assert "/daily trefoil" in shown(his.text)
    await stats.daily(BOB, "trefoil")  # begun, then left before a move
    asked = offer_of(await stats.new_game(BOB, "clover-leaf", 3))
    assert asked is not None
    await stats.game.confirm_new(BOB, asked.replacing, DealRequest("clover-leaf", 3))
    his = await stats.daily_board(BOB, "trefoil")
    assert "You left your scored attempt today before a move, which used it up" in shown(his.text)
