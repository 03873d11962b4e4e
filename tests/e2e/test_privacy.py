"""Private means private: with private boards on, everything about a player's game — the
questions, their answers, the boards, hints, the solver's amendments, and presses on
boards posted before the setting — is seen by that player alone."""

from __future__ import annotations

from typing import Any

from bot.discord.send import GONE_PRIVATE

from .fake_discord import EPHEMERAL, FakeDiscord
from .play import Mirror, board_of


async def private(fake: FakeDiscord, who: str) -> None:
    changed = await fake.command(who, "settings", {"private_boards": True})
    assert changed.ephemeral and "saved" in changed.text


def seen_by_others(fake: FakeDiscord, who: str) -> list[str]:
    """What another member of the channel sees now: every message but ``who``'s own
    ephemeral ones (Discord shows those to ``who`` alone)."""
    return [m.content for m in fake.channel_messages(seen_by="bob")
            if m.flags & EPHEMERAL == 0 or who == "bob"]


async def test_the_new_game_question_and_both_answers_stay_private(
    fake: FakeDiscord, bot: Any
) -> None:
    await private(fake, "alice")
    first = await fake.command("alice", "new", {"game": "trefoil", "deal": 21})
    assert first.ephemeral and board_of(first).pngs
    move = Mirror("trefoil", 21).first_move()
    await fake.select("alice", first, values=[move])
    asked = await fake.command("alice", "new", {"game": "trefoil", "deal": 22})
    assert asked.ephemeral and "unfinished" in asked.text, "the question is hers alone"
    kept = await fake.press("alice", asked, label="Keep playing")
    assert kept.ephemeral and board_of(kept).pngs, "keeping shows the board, privately"
    asked = await fake.command("alice", "new", {"game": "trefoil", "deal": 22})
    started = await fake.press("alice", asked, label="Start new game")
    assert started.ephemeral and "deal 22" in started.text
    again = await fake.press("alice", started, label="Redeal")
    assert again.ephemeral and board_of(again).pngs, "later presses stay private"
    assert not [m for m in fake.channel_messages(seen_by="bob") if "Trefoil" in m.content], (
        "nobody else ever saw any of it"
    )


async def test_the_daily_question_and_resigning_stay_private(fake: FakeDiscord, bot: Any) -> None:
    await private(fake, "alice")
    await fake.command("alice", "new", {"game": "clover-leaf", "deal": 3})
    move = Mirror("clover-leaf", 3).first_move()
    await fake.command("alice", "move", {"from": move.split()[0], "to": move.split()[1]})
    daily = await fake.command("alice", "daily", {"game": "trefoil"})
    assert daily.ephemeral and "daily deal" in daily.text
    await fake.press("alice", daily, label="Keep playing")
    asked = await fake.command("alice", "resign")
    assert asked.ephemeral and "Resign this" in asked.text
    kept = await fake.press("alice", asked, label="Keep playing")
    assert kept.ephemeral and board_of(kept).pngs
    asked = await fake.command("alice", "resign")
    done = await fake.press("alice", asked, label="Resign")
    assert done.ephemeral and "Resigned" in done.text
    assert not [m for m in fake.channel_messages(seen_by="bob") if "Clover" in m.content]


async def test_a_public_board_pressed_after_going_private_shows_nothing_in_public(
    fake: FakeDiscord, bot: Any
) -> None:
    posted = await fake.command("alice", "new", {"game": "trefoil", "deal": 2})
    assert not posted.ephemeral, "boards are public until the player says otherwise"
    await private(fake, "alice")
    pressed = fake.start_component("alice", posted, label="Redeal")
    await fake.send_interaction(pressed)
    await pressed.reply()
    [board] = await pressed.wait_followups(1)
    assert board.flags & EPHEMERAL and board.attachments, "the board came to her alone"
    assert "1 move" in board.content
    public = fake.message(posted).state()
    assert public.content == GONE_PRIVATE and not public.attachments and not public.components
    # Trefoil 2 redealt twice is proven lost: the solver's amendment edits her private
    # board, never the public message.
    again = fake.start_component("alice", board.id, label="Redeal")
    await fake.send_interaction(again)
    await again.reply()

    def amended() -> bool:
        return "No win is possible" in fake.message(board.id).state().content

    await fake.wait_until(amended, timeout=15, what="the private board amended")
    assert fake.message(posted).state().content == GONE_PRIVATE


async def test_a_hint_on_a_private_board_is_private(fake: FakeDiscord, bot: Any) -> None:
    await private(fake, "alice")
    board = await fake.command("alice", "new", {"game": "corner-stones", "deal": 1})
    hint = await fake.press("alice", board, label="Hint")
    assert hint.ephemeral and "Hint:" in hint.text
