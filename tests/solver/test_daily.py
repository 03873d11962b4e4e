"""The daily deal: proven winnable, the same on every machine, a day's old deal kept
when it was winnable."""

import hashlib
import itertools
from datetime import date

import pytest

from engine import GAMES, MAX_DEAL, new_game
from engine.solver import solve
from engine.solver.daily import (
    DAILY_POSITIONS,
    daily_candidates,
    find_daily_deal,
    winnable_daily_deal,
)
from tools.solver.__main__ import main

# The daily deals of these days, computed once (compiled and plain Python agree). They
# must never change: players share them, and scored results and streaks refer to them.
PINNED = {
    "clover-leaf": (616118249, 539148622, 1226135353),
    "corner-stones": (1526523552, 787307239, 17507428),
    "four-leaf-clovers": (1051136756, 710500242, 1487908633),
    "super-flower-garden": (189240014, 1307527336, 316516445),
    "trefoil": (360650070, 1786006598, 1735179900),
}
DAYS = (date(2026, 11, 25), date(2027, 1, 1), date(2030, 6, 15))


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_the_daily_deals_of_these_days_never_change(game_id: str) -> None:
    assert tuple(winnable_daily_deal(game_id, day) for day in DAYS) == PINNED[game_id]


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_a_daily_deal_is_proven_winnable(game_id: str) -> None:
    for day in DAYS:
        deal = winnable_daily_deal(game_id, day)
        assert solve(new_game(game_id, deal), positions=DAILY_POSITIONS[game_id]).status == "won"


def test_the_first_candidate_is_the_deal_a_day_had_before() -> None:
    for game_id, day in itertools.product(GAMES, DAYS):
        digest = hashlib.sha256(f"daily/{game_id}/{day.isoformat()}".encode()).digest()
        before = int.from_bytes(digest[:8], "big") % MAX_DEAL + 1
        assert next(daily_candidates(game_id, day)) == before


def test_later_candidates_hash_their_place() -> None:
    day = date(2026, 11, 25)
    third = next(itertools.islice(daily_candidates("trefoil", day), 2, None))
    digest = hashlib.sha256(b"daily/trefoil/2026-11-25/2").digest()
    assert third == int.from_bytes(digest[:8], "big") % MAX_DEAL + 1


def test_a_day_keeps_its_deal_when_it_was_winnable_and_passes_over_it_when_not() -> None:
    # Trefoil 2026-11-25's first candidate is won; Clover Leaf's is lost from the deal.
    kept = find_daily_deal("trefoil", DAYS[0])
    assert (kept.candidate, kept.deal) == (0, next(daily_candidates("trefoil", DAYS[0])))
    passed = find_daily_deal("clover-leaf", DAYS[0])
    first = next(daily_candidates("clover-leaf", DAYS[0]))
    assert passed.candidate == 1
    assert solve(new_game("clover-leaf", first), positions=DAILY_POSITIONS["clover-leaf"]).status == "lost"


def test_daily_prints_a_days_deals(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["daily", "--day", "2026-11-25", "--days", "2"]) == 0
    out = capsys.readouterr().out
    assert "2026-11-25 clover-leaf: deal 616118249 (candidate 1, " in out
    assert "2026-11-26 trefoil: deal " in out
    assert "trefoil: first candidate kept on 2 of 2 days; 100,000 positions a candidate" in out
