"""The records commands in console mode: the same StatsFlow, the console player's own games."""

from __future__ import annotations

import io
from pathlib import Path

from bot.console import Console, plain
from bot.core import Core
from bot.replies.text import Person, Small, Text
from bot.store import Stores
from engine.solver.daily import winnable_daily_deal as daily_deal
from tests.bot.reference import all_results

from .conftest import Clock
from .daily_lines import NOV_22
from .test_daily import at


async def run(console: Console, *lines: str) -> str:
    out = console.out
    assert isinstance(out, io.StringIO)
    start = len(out.getvalue())
    for line in lines:
        assert await console.handle(line)
    return out.getvalue()[start:]


async def test_daily_stats_boards_and_forget_me_in_the_console(
    core: Core, store: Stores, clock: Clock, tmp_path: Path
) -> None:
    clock.now = at(NOV_22)
    console = Console(core, tmp_path / "boards", io.StringIO())
    text = await run(console, "/daily trefoil", "/resign", "Resign", "/daily game:trefoil")
    assert f"deal {daily_deal('trefoil', NOV_22)}" in text
    assert "this is your scored attempt" in text and "this replay is not scored" in text
    text = await run(console, "/stats trefoil")
    assert "Your Trefoil record everywhere: 1 played · 0 won (0%)" in text
    [picture] = sorted((tmp_path / "boards").glob("*stats*.png"))
    assert f"Picture: {picture}" in text
    text = await run(console, "/leaderboard trefoil week", "/daily-board trefoil today")
    assert "Leaderboard — Trefoil, the last 7 days" in text and "you — 0/1 won" in text
    assert "1 player finished a scored attempt here, 0 won." in text
    assert "<@" not in text and "**" not in text
    text = await run(console, "/daily-board trefoil 2026-12-01")
    assert "has not come yet" in text
    text = await run(console, "/forget-me", "Keep my records")
    assert "[Delete everything]  [Keep my records]" in text and "Nothing was deleted." in text
    assert len(await all_results(store)) == 1
    text = await run(console, "/forget-me", "Delete everything", "/stats")
    assert "deleted your current game and 1 result," in text
    assert "overwritten in the bot's database at once" in text, "true of SQLite"
    assert "You have no finished games anywhere yet." in text
    assert await all_results(store) == [] and await store.games.load(1) is None


def test_mentions_read_as_people_in_the_console() -> None:
    said = Text("🥇 ", Person(1), " — 2/2 won\n🥈 ", Person(77), " — 1/2\n",
                Small(Text("small print")))
    assert plain(said) == (
        "🥇 you — 2/2 won\n🥈 player 77 — 1/2\nsmall print"
    )
