"""Limits per player where one player could load everyone: a second ask within the limit
is refused privately, says when to ask again, and draws or queries nothing."""

from __future__ import annotations

from typing import Any

import pytest

from .conftest import SkippingClock
from .fake_discord import FakeDiscord


@pytest.mark.parametrize(
    ("name", "options", "every"),
    [("stats", {}, 5), ("leaderboard", {}, 5), ("daily-board", {"game": "trefoil"}, 5),
     ("show", {}, 3)],
)
async def test_a_read_asked_again_too_soon_is_refused_with_the_wait(
    fake: FakeDiscord, bot: Any, clock: SkippingClock, name: str, options: dict[str, Any],
    every: int,
) -> None:
    await fake.command("alice", "new", {"game": "trefoil", "deal": 3})
    first = await fake.command("alice", name, options)
    assert "so everyone's games stay quick" not in first.text
    again = await fake.command("alice", name, options)
    assert again.ephemeral and not again.pngs
    assert f"every {every} s" in again.text and "ask again in" in again.text
    other = await fake.command("bob", name, options)
    assert "so everyone's games stay quick" not in other.text, "the limit is each player's"
    clock.skip(every)
    later = await fake.command("alice", name, options)
    assert "so everyone's games stay quick" not in later.text
