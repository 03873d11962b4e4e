"""Input a Discord client can send, however odd, is answered privately with a reason —
never the generic apology, never silence — and every reply fits Discord's limits."""

from __future__ import annotations

import unicodedata
from typing import Any

import pytest

from bot.words.phrases import apology
from bot.words.phrases import sorry as send_apology
from tests.said import shown

from .fake_discord import FakeDiscord, Reply

LIMIT = 2000


def private_reason(reply: Reply, *words: str) -> None:
    """A private answer that says why, within Discord's limit, and is no apology."""
    text = reply.text
    assert reply.ephemeral, text
    assert 0 < len(text) <= LIMIT, len(text)
    assert shown(apology()) not in text and shown(send_apology()) not in text, text
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


async def test_a_long_day_is_refused_before_it_is_read(fake: FakeDiscord, bot: Any) -> None:
    reply = await fake.command_unchecked("alice", "daily-board",
                                         {"game": "trefoil", "day": "9" * 1990})
    private_reason(reply, "`day` must be at most 16 characters")
    assert "9" * 20 not in reply.text
    unread = await fake.command("alice", "daily-board", {"game": "trefoil", "day": "99999999"})
    private_reason(unread, "is not a day I can read")


async def test_a_long_unknown_game_is_cut_short(fake: FakeDiscord, bot: Any) -> None:
    reply = await fake.command_unchecked("alice", "new", {"game": "x" * 1990})
    private_reason(reply, "`game` must be one of")
    assert "x" * 50 not in reply.text


async def test_an_option_of_the_wrong_type_is_explained(fake: FakeDiscord, bot: Any) -> None:
    reply = await fake.command_unchecked("alice", "new", {"game": "trefoil", "deal": "12x"})
    private_reason(reply, "deal")


async def test_a_user_discord_did_not_resolve_still_gets_an_answer(
    fake: FakeDiscord, bot: Any
) -> None:
    reply = await fake.command_unchecked("alice", "stats", {"user": "123456789012345678"})
    assert "123456789012345678" in reply.text, reply.text
    assert shown(apology()) not in reply.text and shown(send_apology()) not in reply.text


@pytest.mark.parametrize("custom_id", ["v1:undo:42", "sol:undo:1:2", "sol:fly:1:2:3"])
async def test_a_button_of_an_older_version_is_answered(
    fake: FakeDiscord, bot: Any, custom_id: str
) -> None:
    old = fake.post_earlier_message(content="an old board", buttons={custom_id: "Undo"})
    reply = await fake.press("alice", old, label="Undo")
    private_reason(reply, "/show")


# Interactions Discord's client never sends, as a proxy or a future client could: each is
# answered privately with the reason, changes nothing, and logs no failure (the fixture
# fails the test on any error logged).
MALFORMED = [
    ("new", {}, "needs `game`"),
    ("new", {"game": 5}, "`game` must be text"),
    ("new", {"game": None}, "`game` must have a value"),
    ("new", {"game": "trefoil", "deal": 2**60}, "`deal` must be a whole number from 1"),
    ("new", {"game": "trefoil", "winnable": "yes"}, "`winnable` must be true or false"),
    ("move", {}, "needs `from`"),
    ("move", {"from": 7, "to": "3"}, "`from` must be text"),
    ("rules", {}, "needs `game`"),
    ("daily", {"game": None}, "`game` must have a value"),
    ("settings", {"private_boards": "yes"}, "`private_boards` must be true or false"),
    ("stats", {"user": 2**70}, "`user` must be a member"),
    ("stats", {"user": "abc"}, "`user` must be a member"),
    ("stats", {"scope": "galaxy"}, "`scope` must be one of"),
    ("leaderboard", {"period": "decade"}, "`period` must be one of"),
    ("show", {"please": True}, "has no option `please`"),
]


@pytest.mark.parametrize(("name", "options", "says"), MALFORMED)
async def test_a_malformed_command_is_refused_with_its_reason(
    fake: FakeDiscord, bot: Any, name: str, options: dict[str, Any], says: str
) -> None:
    board = await started(fake)
    reply = await fake.command_unchecked("alice", name, options)
    private_reason(reply, says, "nothing was done")
    again = await fake.command("alice", "show")
    assert "0 moves" in again.text and again.text.split("\n")[0] == board.text.split("\n")[0]


async def test_a_user_id_sent_as_a_number_is_read_as_an_id(fake: FakeDiscord, bot: Any) -> None:
    reply = await fake.command_unchecked("alice", "stats", {"user": 123})
    assert "<@123> has no finished games" in reply.text


@pytest.mark.parametrize(
    ("name", "options", "focused"),
    [("move", {"nothing": "1"}, "nothing"), ("new", {"game": "tre"}, "game"),
     ("stats", {"game": "x"}, "game")],
)
async def test_an_autocomplete_of_an_option_that_suggests_nothing_gets_no_choices(
    fake: FakeDiscord, bot: Any, name: str, options: dict[str, Any], focused: str
) -> None:
    await started(fake)
    reply = await fake.autocomplete_unchecked("alice", name, options, focused=focused)
    assert reply.kind == "autocomplete" and reply.choices == ()


async def test_a_press_without_its_message_is_answered(fake: FakeDiscord, bot: Any) -> None:
    board = await started(fake)
    reply = await fake.press_without_message("alice", board, label="To foundations")
    private_reason(reply, "came without the board", "/show")
    again = await fake.command("alice", "show")
    assert "0 moves" in again.text, "nothing was played"


@pytest.mark.parametrize(("source", "target"), [("7\u202e", "3"), ("7", "\x003"),
                                                ("\u200b7\u2066", "f\u00ad9")])
async def test_control_characters_typed_are_never_echoed(
    fake: FakeDiscord, bot: Any, source: str, target: str
) -> None:
    await started(fake)
    reply = await fake.command("alice", "move", {"from": source, "to": target})
    private_reason(reply)
    hidden = [c for c in reply.text if unicodedata.category(c) in ("Cc", "Cf") and c != "\n"]
    assert hidden == [], [f"U+{ord(c):04X}" for c in hidden]


PAST_SQLITE = 2**63  # one past the largest integer SQLite (and PostgreSQL's BIGINT) keeps


@pytest.mark.parametrize("name", ["replay", "stats", "challenge"])
@pytest.mark.parametrize("resolved", [False, True])
async def test_a_user_id_past_64_bit_integers_is_refused_at_the_edge(
    fake: FakeDiscord, bot: Any, name: str, resolved: bool
) -> None:
    huge = str(PAST_SQLITE)
    options = {"user": huge} | ({"game": "trefoil"} if name == "challenge" else {})
    users = {"users": {huge: {"id": huge, "username": "ghost", "discriminator": "0",
                              "global_name": None, "avatar": None}}}
    reply = await fake.command_unchecked("alice", name, options,
                                         resolved=users if resolved else None)
    private_reason(reply, "`user` must be a member", "nothing was done")


@pytest.mark.parametrize("custom_id", [
    "sol:duel:accept:99999999999999999999",
    "sol:duel:play:9223372036854775808",
    "sol:new:yes:{alice}:1:trefoil:1:c99999999999999999999",
    "sol:new:yes:{alice}:99999999999999999999:trefoil:1",
    "sol:undo:{alice}:99999999999999999999:0",
    "sol:menu:{alice}:1:99999999999999999999",
])
async def test_a_custom_id_with_an_id_past_64_bit_integers_is_refused_with_a_reason(
    fake: FakeDiscord, bot: Any, custom_id: str
) -> None:
    board = await started(fake)
    forged = custom_id.format(alice=fake.users["alice"].id)
    old = fake.post_earlier_message(content="forged", buttons={forged: "Press"})
    reply = await fake.press("alice", old, label="Press")
    private_reason(reply, "nothing was done")
    again = await fake.command("alice", "show")
    assert "0 moves" in again.text and again.text.split("\n")[0] == board.text.split("\n")[0]


ARABIC_INDIC = str.maketrans("0123456789", "٠١٢٣٤٥٦٧٨٩")


async def test_a_custom_id_in_digits_that_are_not_ascii_plays_nothing(
    fake: FakeDiscord, bot: Any
) -> None:
    """``\\d`` and ``int`` take Arabic-Indic digits: the owner and board written in them are
    no press of the owner's."""
    await started(fake)
    moved = await fake.command("alice", "move", {"from": "3", "to": "f4"})
    undo = next(c for c in moved.custom_ids if c.startswith("sol:undo:"))
    forged = fake.post_earlier_message(content="forged",
                                       buttons={undo.translate(ARABIC_INDIC): "Press"})
    reply = await fake.press("alice", forged, label="Press")
    private_reason(reply, "/show")
    again = await fake.command("alice", "show")
    assert "1 move" in again.text, again.text
