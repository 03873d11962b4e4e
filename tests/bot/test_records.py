"""Statistics over constructed histories: records, streaks, ranking and daily boards."""

from datetime import UTC, date, datetime, timedelta

import pytest

from bot.flows.daily import daily_streaks
from bot.flows.stats import PERIODS
from bot.words.phrases import format_seconds
from tests.bot.reference import (
    Result,
    daily_board,
    leaderboard,
    record,
    wilson_lower_bound,
    win_streaks,
)

T0 = datetime(2026, 11, 1, 12, 0, tzinfo=UTC)
DAY = T0.date()


def result(user: int, outcome: str, minute: int, *, moves: int = 50, seconds: float = 300,
           game: str = "trefoil", daily: date | None = None, hints: int = 0) -> Result:
    return Result(user, 1, game, 7, outcome, moves, 0, hints, 0, seconds,
                  T0 + timedelta(minutes=minute), daily)


def test_record_counts_wins_streaks_and_bests() -> None:
    history = [
        result(1, "won", 1, moves=80, seconds=400),
        result(1, "won", 2, moves=60, seconds=500),
        result(1, "lost", 3, moves=20, seconds=30),
        result(1, "won", 4, moves=70, seconds=200),
        result(1, "won", 5, moves=90, seconds=350),
        result(1, "won", 6, moves=75, seconds=360),
    ]
    rec = record(reversed(history))  # order of arrival doesn't matter: finish time does
    assert (rec.played, rec.won) == (6, 5)
    assert rec.win_rate == pytest.approx(5 / 6)
    assert (rec.current_streak, rec.best_streak) == (3, 3)
    assert rec.fewest_moves == 60  # the lost game's 20 moves don't count
    assert rec.fastest_seconds == 200


def test_resigned_and_abandoned_games_break_a_streak() -> None:
    history = [result(1, "won", 1), result(1, "abandoned", 2), result(1, "won", 3)]
    assert (record(history).current_streak, record(history).best_streak) == (1, 1)
    assert record([result(1, "resigned", 1)]).win_rate == 0.0


def test_empty_record() -> None:
    rec = record([])
    assert (rec.played, rec.won, rec.win_rate, rec.fewest_moves) == (0, 0, 0.0, None)


@pytest.mark.parametrize(
    ("outcomes", "expected"),
    [([], (0, 0)), ([True], (1, 1)), ([True, True, False], (0, 2)), ([False, True, True, True, False, True], (1, 3))],
)
def test_win_streaks(outcomes: list[bool], expected: tuple[int, int]) -> None:
    assert win_streaks(outcomes) == expected


def test_wilson_bound_does_not_reward_one_lucky_win() -> None:
    assert wilson_lower_bound(1, 1) < wilson_lower_bound(30, 40)
    assert wilson_lower_bound(0, 10) == 0.0
    assert wilson_lower_bound(0, 0) == 0.0
    assert 0.0 < wilson_lower_bound(5, 10) < 0.5 < wilson_lower_bound(95, 100) < 0.95


def test_leaderboard_orders_by_score_then_wins() -> None:
    lucky = [result(1, "won", 0)]
    steady = [result(2, "won", i) for i in range(8)] + [result(2, "lost", 9), result(2, "lost", 10)]
    loser = [result(3, "lost", i) for i in range(5)]
    board = leaderboard(lucky + steady + loser)
    assert [s.user_id for s in board] == [2, 1, 3]
    assert [s.rank for s in board] == [1, 2, 3]
    assert (board[0].played, board[0].won) == (10, 8)


def test_leaderboard_ties_go_to_more_wins_then_fewer_games() -> None:
    a = [result(1, "won", i) for i in range(2)] + [result(1, "lost", 5)]
    b = [result(2, "won", i) for i in range(2)] + [result(2, "lost", 5)]
    board = leaderboard(b + a)
    assert [s.user_id for s in board] == [1, 2]  # equal in everything: lower id first, stable


def test_the_leaderboard_periods() -> None:
    assert {"week": timedelta(days=7), "month": timedelta(days=30), "all": None} == PERIODS


def test_daily_streak_counts_consecutive_days_and_survives_until_a_day_is_missed() -> None:
    d = date(2026, 11, 10)
    won = [d, d + timedelta(days=1), d + timedelta(days=2), d + timedelta(days=5), d + timedelta(days=6)]
    assert daily_streaks(won, today=d + timedelta(days=6)) == (2, 3)
    assert daily_streaks(won, today=d + timedelta(days=7)) == (2, 3)  # today not yet played
    assert daily_streaks(won, today=d + timedelta(days=8)) == (0, 3)  # a day was missed
    assert daily_streaks([], today=d) == (0, 0)
    assert daily_streaks([d, d], today=d) == (1, 1)


def test_daily_board_ranks_fewest_moves_then_time_and_only_scored_wins() -> None:
    results = [
        result(1, "won", 1, moves=70, seconds=100, daily=DAY),
        result(2, "won", 2, moves=60, seconds=900, daily=DAY),
        result(3, "won", 3, moves=60, seconds=400, daily=DAY),
        result(4, "lost", 4, moves=10, daily=DAY),
        result(5, "won", 5, moves=5),
        result(6, "won", 6, moves=40, seconds=50, daily=DAY, hints=1),  # assisted
    ]
    assert [(e.rank, e.user_id) for e in daily_board(results)] == [(1, 3), (2, 2), (3, 1)]


def test_assisted_means_hints_were_used() -> None:
    assert result(1, "won", 1, hints=2).assisted
    assert not result(1, "won", 1).assisted


@pytest.mark.parametrize(("seconds", "text"), [(0, "0:00"), (75, "1:15"), (3725, "1:02:05")])
def test_format_seconds(seconds: float, text: str) -> None:
    assert format_seconds(seconds) == text


def test_an_assisted_win_is_played_not_won_in_a_record() -> None:
    history = [
        result(1, "won", 1, moves=80),
        result(1, "won", 2, moves=40, seconds=10, hints=3),
        result(1, "won", 3, moves=90),
    ]
    rec = record(history)
    assert (rec.played, rec.won, rec.assisted) == (3, 2, 1)
    assert (rec.current_streak, rec.best_streak) == (1, 1)  # the assisted win broke the run
    assert rec.fewest_moves == 80 and rec.fastest_seconds == 300  # its 40 moves don't count


def test_assisted_wins_do_not_rank_on_the_leaderboard() -> None:
    helped = [result(1, "won", i, hints=1) for i in range(10)]
    alone = [result(2, "won", 0), result(2, "lost", 1)]
    board = leaderboard(helped + alone)
    assert [(s.user_id, s.won, s.played) for s in board] == [(2, 1, 2), (1, 0, 10)]
