"""/replay through the fake Discord: whose games it shows, to whom, and when.

A player's ``private_boards`` setting governs every picture of their games, whoever asks;
nobody replays another player's game of today's daily deal, or of a challenge still open
to them, before finishing their own."""

from __future__ import annotations

from collections.abc import AsyncIterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from ..bot.daily_lines import NOV_22
from .conftest import SkippingClock
from .fake_discord import FakeDiscord, FakeUser, Reply
from .harness import bot_in_process
from .play import Mirror, move_options


class DailyClock(SkippingClock):
    """Noon UTC on the day whose Trefoil deal's winning line the tests know, then on."""

    def __call__(self) -> float:
        noon = datetime(NOV_22.year, NOV_22.month, NOV_22.day, 12, tzinfo=UTC).timestamp()
        return noon + self.skipped


@pytest.fixture
def clock() -> SkippingClock:
    return DailyClock()


@pytest.fixture
async def bot(fake: FakeDiscord, database: Path, clock: SkippingClock) -> AsyncIterator[Any]:
    async with bot_in_process(fake, database, clock=clock) as running:
        yield running


def replays_seen_by(fake: FakeDiscord, who: str) -> list[str]:
    """The replays (animated pictures) that ``who`` sees in the channel now."""
    return [a.filename for m in fake.channel_messages(seen_by=who) for a in m.attachments
            if a.filename.endswith(".gif")]


async def play_moves(fake: FakeDiscord, player: str | FakeUser, moves: list[str]) -> Reply:
    reply = None
    for move in moves:
        reply = await fake.command(player, "move", move_options(move))
    assert reply is not None
    return reply


async def resign(fake: FakeDiscord, player: str | FakeUser) -> None:
    asked = await fake.command(player, "resign")
    done = await fake.press(player, asked, label="Resign")
    assert "Resigned" in done.text, done.text


async def test_a_private_players_games_are_replayed_to_them_alone(
    fake: FakeDiscord, bot: Any, clock: SkippingClock
) -> None:
    alice = fake.users["alice"]
    await fake.command("alice", "settings", {"private_boards": True})
    await fake.command("alice", "new", {"game": "trefoil", "deal": 42})
    mirror = Mirror("trefoil", 42)
    for _ in range(3):
        move = mirror.first_move()
        mirror.play(move)
        await fake.command("alice", "move", move_options(move))
    await resign(fake, "alice")
    theirs = await fake.command("bob", "replay", {"user": "alice"})
    assert theirs.ephemeral and not theirs.message.attachments, theirs.text
    assert f"<@{alice.id}> keeps their boards private" in theirs.text
    mine = await fake.command("alice", "replay")
    assert mine.ephemeral and mine.message.attachments, "her finished game, to her alone"
    assert "Your **Trefoil** game, deal 42: resigned, 3 moves" in mine.text
    assert replays_seen_by(fake, "bob") == [], "nobody else saw a picture of her game"
    # Boards public again: her games may be replayed in the channel.
    await fake.command("alice", "settings", {"private_boards": False})
    clock.skip(60)  # past the replay's cooldown
    shown = await fake.command("bob", "replay", {"user": "alice"})
    assert not shown.ephemeral and replays_seen_by(fake, "bob") == ["replay-trefoil-42.gif"]
