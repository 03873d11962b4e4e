"""Challenges between members, through the fake Discord: a public challenge the challenged
member alone may answer; on accept both play the same proven-winnable deal in their own
game; the challenge's message follows each side to the end and names the winner; /stats
counts challenges won and lost."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from bot.flows.challenges import DAY_S

from ..bot.daily_lines import NOV_22_DEAL, NOV_22_WIN
from .conftest import SkippingClock
from .fake_discord import FakeDiscord
from .harness import bot_in_process
from .play import board_of


@pytest.fixture
async def bot(fake: FakeDiscord, database: Path, clock: SkippingClock) -> AsyncIterator[Any]:
    """The bot, its pool holding a Trefoil deal whose winning line the test knows."""
    async with bot_in_process(fake, database, clock=clock) as running:
        pool = running.core.stores.pool
        assert await running.core.stores.meta.try_lead(lambda: None)
        await pool.add("trefoil", NOV_22_DEAL, clock(), target=10)
        yield running


def text_of(fake: FakeDiscord, message_id: int) -> str:
    return fake.message(message_id).state().content


async def shows(fake: FakeDiscord, message_id: int, text: str) -> str:
    """The message's text once it shows ``text`` (it is edited just after the reply)."""
    await fake.wait_until(lambda: text in text_of(fake, message_id), timeout=5,
                          what=f"the challenge's message to show {text!r}")
    return text_of(fake, message_id)


async def test_a_challenge_played_to_its_end_names_the_winner(
    fake: FakeDiscord, bot: Any
) -> None:
    alice, bob = fake.users["alice"], fake.users["bob"]
    asked = await fake.command("alice", "challenge", {"user": "bob", "game": "trefoil"})
    assert not asked.ephemeral, "a challenge is public"
    assert f"<@{alice.id}> challenges <@{bob.id}> to **Trefoil**" in asked.text
    assert fake.message(asked).notified == {bob.id}, "bob is called on, nobody else"
    assert [b.label for b in asked.buttons] == ["Accept", "Decline"]
    stranger = await fake.press("carol", asked, label="Accept")
    assert stranger.ephemeral and f"for <@{bob.id}>, not for you" in stranger.text
    assert "challenges" in text_of(fake, asked.message_id), "nothing changed"
    accepted = await fake.press("bob", asked, label="Accept")
    assert accepted.message_id == asked.message_id and f"deal {NOV_22_DEAL}" in accepted.text
    assert [b.label for b in accepted.buttons] == ["Play"]
    # Each side deals the same deal with ▶ Play: a new message, the challenge stays.
    hers = await fake.press("alice", asked, label="Play")
    assert hers.message_id != asked.message_id and f"deal {NOV_22_DEAL}" in hers.text
    assert board_of(hers).pngs
    his = await fake.press("bob", asked, label="Play")
    assert f"deal {NOV_22_DEAL}" in his.text
    await shows(fake, asked.message_id, "playing…")
    # Alice gives up; Bob wins it move by move.
    resigning = await fake.command("alice", "resign")
    await fake.press("alice", resigning, label="Resign")
    await shows(fake, asked.message_id, f"<@{alice.id}>: resigned")
    for move in NOV_22_WIN:
        source, _, target = move.partition(" ")
        options = {"from": source} | ({"to": target} if target else {})
        last = await fake.command("bob", "move", options)
    assert "Won" in last.text
    final = await shows(fake, asked.message_id, "wins the challenge")
    assert f"<@{bob.id}>: won in {len(NOV_22_WIN)} moves" in final
    assert f"🏆 <@{bob.id}> wins the challenge!" in final
    assert fake.message(asked).state().components == (), "no buttons once it is over"
    stats = await fake.command("bob", "stats")
    assert "Challenges: 1 won, 0 lost" in stats.text


async def test_a_challenge_declined_or_left_a_day_ends(
    fake: FakeDiscord, bot: Any, clock: SkippingClock
) -> None:
    asked = await fake.command("alice", "challenge", {"user": "bob", "game": "clover-leaf"})
    declined = await fake.press("bob", asked, label="Decline")
    assert "declined" in declined.text and not declined.buttons
    late = await fake.command("carol", "challenge", {"user": "dana", "game": "trefoil"})
    clock.skip(DAY_S + 1)
    answered = await fake.press("dana", late, label="Accept")
    assert "went unanswered for a day" in answered.text and not answered.buttons


@pytest.mark.parametrize(
    ("opponent", "says"), [("alice", "can't challenge yourself"), ("Solitaire", "is a bot")]
)
async def test_no_challenge_to_oneself_or_a_bot(
    fake: FakeDiscord, bot: Any, opponent: str, says: str
) -> None:
    if opponent == "Solitaire":
        reply = await fake.command_unchecked(
            "alice", "challenge", {"user": str(fake.bot_user.id), "game": "trefoil"},
            resolved={"users": {str(fake.bot_user.id): fake.bot_user.payload()}},
        )
    else:
        reply = await fake.command("alice", "challenge", {"user": opponent, "game": "trefoil"})
    assert reply.ephemeral and says in reply.text


async def test_a_long_game_replays_an_even_selection_of_its_moves_and_says_so(
    fake: FakeDiscord, bot: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    from io import BytesIO

    from PIL import Image

    import render.replay

    nothing = await fake.command("alice", "replay")
    assert nothing.ephemeral and "You have no game to replay here yet" in nothing.text
    monkeypatch.setattr(render.replay, "MOST_FRAMES", 3)  # a "long" game: 5 moves
    await fake.command("alice", "new", {"game": "trefoil", "deal": NOV_22_DEAL})
    for move in NOV_22_WIN[:5]:
        source, _, target = move.partition(" ")
        await fake.command("alice", "move", {"from": source, "to": target})
    mine = await fake.command("alice", "replay")
    [gif] = fake.message(mine).state().attachments
    assert Image.open(BytesIO(gif.data)).n_frames == 4, "the deal and 3 of the 5 moves"
    assert gif.description and "3 of its moves from the deal, evenly picked" in gif.description
    assert "a frame a move" not in gif.description


async def test_a_replay_goes_to_the_channel_and_another_member_may_ask_for_one(
    fake: FakeDiscord, bot: Any, clock: SkippingClock
) -> None:
    from io import BytesIO

    from PIL import Image

    alice = fake.users["alice"]
    none_yet = await fake.command("bob", "replay", {"user": "alice"})
    assert none_yet.ephemeral and "has finished no game on this server" in none_yet.text
    await fake.command("alice", "new", {"game": "trefoil", "deal": NOV_22_DEAL})
    for move in NOV_22_WIN[:5]:
        source, _, target = move.partition(" ")
        await fake.command("alice", "move", {"from": source, "to": target})
    mine = await fake.command("alice", "replay")
    assert not mine.ephemeral and "Your **Trefoil** game" in mine.text and "5 moves" in mine.text
    [gif] = fake.message(mine).state().attachments
    assert gif.filename.endswith(".gif") and gif.description and "a frame a move" in gif.description
    # The game, the deal, the result and the moves, as typed.
    assert gif.description.startswith("A replay of Trefoil, deal ")
    assert gif.description.endswith(f"Moves: {', '.join(NOV_22_WIN[:5])}.")
    assert Image.open(BytesIO(gif.data)).n_frames == 6, "the deal and a frame a move"
    again = await fake.command("alice", "replay")
    assert again.ephemeral and "One `/replay` every 20 s" in again.text
    resigning = await fake.command("alice", "resign")
    await fake.press("alice", resigning, label="Resign")
    theirs = await fake.command("bob", "replay", {"user": "alice"})
    assert f"<@{alice.id}>'s **Trefoil** game" in theirs.text and "resigned" in theirs.text


async def test_play_over_an_unfinished_game_asks_first_and_keeps_it_on_no(
    fake: FakeDiscord, bot: Any
) -> None:
    await fake.command("bob", "new", {"game": "clover-leaf", "deal": 7})
    await fake.command("bob", "move", {"from": "1", "to": "16"})  # a game under way
    asked = await fake.command("alice", "challenge", {"user": "bob", "game": "trefoil"})
    await fake.press("bob", asked, label="Accept")
    question = await fake.press("bob", asked, label="Play")
    assert "**Clover Leaf** game" in question.text and "1 move" in question.text
    assert [b.label for b in question.buttons] == ["Start new game", "Keep playing"]
    kept = await fake.press("bob", question, label="Keep playing")
    assert f"deal {NOV_22_DEAL}" not in kept.text
    shown = await fake.command("bob", "show")
    assert "Clover Leaf" in shown.text, "the game under way is kept"
    again = await fake.press("bob", asked, label="Play")
    dealt = await fake.press("bob", again, label="Start new game")
    assert f"deal {NOV_22_DEAL}" in board_of(dealt).text and "Trefoil" in board_of(dealt).text
