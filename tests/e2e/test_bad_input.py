"""Input a Discord client can send, however odd, is answered privately with a reason —
never the generic apology, never silence — and every reply fits Discord's limits."""

from __future__ import annotations

from typing import Any

import pytest

from bot.words.phrases import APOLOGY
from bot.words.phrases import SORRY as SEND_APOLOGY

from .fake_discord import FakeDiscord, Reply

LIMIT = 2000


def private_reason(reply: Reply, *words: str) -> None:
    """A private answer that says why, within Discord's limit, and is no apology."""
    text = reply.text
    assert reply.ephemeral, text
    assert 0 < len(text) <= LIMIT, len(text)
    assert APOLOGY not in text and SEND_APOLOGY not in text, text
    for word in words:
        assert word in text, (word, text)


async def started(fake: FakeDiscord, user: str = "alice") -> Reply:
    return await fake.command(user, "new", {"game": "trefoil", "deal": 7})


@pytest.mark.parametrize("typed", ["²", "⑦", "7 f①", "7 ²"])
async def test_digits_that_are_not_ascii_are_no_pile(fake: FakeDiscord, bot: Any, typed: str) -> None:
    await started(fake)
    source, _, target = typed.partition(" ")
    options = {"from": source} | ({"to": target} if target else {})
    reply = await fake.command("alice", "move", options)
    private_reason(reply, "not a")


async def test_a_menu_value_not_offered_is_refused_with_a_reason(fake: FakeDiscord, bot: Any) -> None:
    board = await started(fake)
    reply = await fake.select_unchecked("alice", board, ["²"])
    private_reason(reply, "not a pile number")


async def test_a_long_day_is_cut_short_in_the_answer(fake: FakeDiscord, bot: Any) -> None:
    reply = await fake.command("alice", "daily-board", {"game": "trefoil", "day": "9" * 1990})
    private_reason(reply, "is not a day I can read")


async def test_a_long_unknown_game_is_cut_short(fake: FakeDiscord, bot: Any) -> None:
    reply = await fake.command_unchecked("alice", "new", {"game": "x" * 1990})
    private_reason(reply, "There is no game called")


async def test_an_option_of_the_wrong_type_is_explained(fake: FakeDiscord, bot: Any) -> None:
    reply = await fake.command_unchecked("alice", "new", {"game": "trefoil", "deal": "12x"})
    private_reason(reply, "deal")


async def test_a_user_discord_did_not_resolve_still_gets_an_answer(
    fake: FakeDiscord, bot: Any
) -> None:
    reply = await fake.command_unchecked("alice", "stats", {"user": "123456789012345678"})
    assert "123456789012345678" in reply.text, reply.text
    assert APOLOGY not in reply.text and SEND_APOLOGY not in reply.text


@pytest.mark.parametrize("custom_id", ["v1:undo:42", "sol:undo:1:2", "sol:fly:1:2:3"])
async def test_a_button_of_an_older_version_is_answered(
    fake: FakeDiscord, bot: Any, custom_id: str
) -> None:
    old = fake.post_earlier_message(content="an old board", buttons={custom_id: "Undo"})
    reply = await fake.press("alice", old, label="Undo")
    private_reason(reply, "/show")
