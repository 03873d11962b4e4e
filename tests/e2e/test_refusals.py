"""Nothing fails silently: every refusal reaches the player privately and says what would work;
a stranger cannot touch someone else's game; an out-of-date board is refreshed, not played.
"""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from engine import PILE

from .fake_discord import FakeDiscord
from .play import Mirror, board_of, move_options


@pytest.mark.parametrize(
    ("command", "options"),
    [
        ("move", {"from": "7", "to": "3"}),
        ("undo", {}),
        ("redo", {}),
        ("redeal", {}),
        ("show", {}),
        ("resign", {}),
    ],
)
async def test_no_game_yet(
    fake: FakeDiscord, bot: Any, command: str, options: dict[str, str]
) -> None:
    reply = await fake.command("carol", command, options)
    assert reply.ephemeral and not reply.pngs
    assert "/new" in reply.text, f"/{command} without a game says how to start: {reply.text}"


async def test_refused_moves_are_private_and_change_nothing(fake: FakeDiscord, bot: Any) -> None:
    alice = fake.users["alice"]
    mirror = Mirror("trefoil", 2)
    await fake.command(alice, "new", {"game": "trefoil", "deal": 2})
    legal = {str(m) for m in mirror.game.legal_moves()}
    illegal = next(
        f"{a} {b}" for a in range(1, 17) for b in range(1, 17) if a != b and f"{a} {b}" not in legal
    )
    attempts = {
        "an illegal move": move_options(illegal),
        "an unknown pile": {"from": "99", "to": "3"},
        "an unknown destination": {"from": "1", "to": "42"},
        "an unknown foundation": {"from": "1", "to": "f9"},
        "words": {"from": "the ace", "to": "home"},
        "redeal as a destination": {"from": "1", "to": "redeal"},
    }
    for what, options in attempts.items():
        reply = await fake.command(alice, "move", options)
        assert reply.ephemeral, f"{what} is refused privately"
        assert not reply.pngs and not reply.buttons
        assert len(reply.text) > 20, f"{what}: the refusal explains itself: {reply.text!r}"
    unknown = await fake.command(alice, "move", {"from": "99", "to": "3"})
    assert "99" in unknown.text and "16" in unknown.text, "names the pile and the range"
    nothing = await fake.command(alice, "undo")
    assert nothing.ephemeral, "nothing was played, so there is nothing to undo"
    shown = await fake.command(alice, "show")
    mirror.check_board(shown, alice.id)


async def test_a_game_without_redeals_refuses_redeal(fake: FakeDiscord, bot: Any) -> None:
    await fake.command("bob", "new", {"game": "clover-leaf", "deal": 2})
    reply = await fake.command("bob", "redeal")
    assert reply.ephemeral and "redeal" in reply.text.lower()


async def test_a_stranger_cannot_press_or_pick(fake: FakeDiscord, bot: Any) -> None:
    alice, bob = fake.users["alice"], fake.users["bob"]
    # Deal 3 can be won: no "no win is possible" amendment of the bot's own comes to the
    # board while the stranger presses (deal 2 is lost, and a busy machine let it land).
    mirror = Mirror("four-leaf-clovers", 3)
    reply = await fake.command(alice, "new", {"game": "four-leaf-clovers", "deal": 3})
    board = fake.messages[reply.message_id]
    before = board.state()
    for attempt in (
        fake.press(bob, board.id, label="To foundations"),
        fake.select(bob, board.id, values=[mirror.first_move()]),
    ):
        refused = await attempt
        assert refused.kind == "message" and refused.ephemeral
        assert alice.mention in refused.text and "/new" in refused.text, refused.text
        # Bob's interaction answered with a message of its own and edited nothing.
        assert not [e for e in refused.interaction.events if e[1] == "edit"]
    # The board is as it was.
    after = board.state()
    assert (after.content, after.components) == (before.content, before.components)
    mirror.check_board(await fake.command(alice, "show"), alice.id)
    # Bob's own commands reach only his own (missing) game.
    own = await fake.command(bob, "undo")
    assert own.ephemeral and "/new" in own.text


async def test_an_out_of_date_board_is_refreshed_not_played(fake: FakeDiscord, bot: Any) -> None:
    carol = fake.users["carol"]
    mirror = Mirror("super-flower-garden", 5)
    first = await fake.command(carol, "new", {"game": "super-flower-garden", "deal": 5})
    text = mirror.first_move(kind=PILE)
    await fake.command(carol, "move", move_options(text))
    mirror.play(text)

    # The first board still offers the opening moves; the game has moved on.
    interaction = fake.start_component(carol, first.message_id, label="Redeal")
    await fake.send_interaction(interaction)
    reply = await interaction.reply()
    assert reply.kind == "update" and reply.message_id == first.message_id
    mirror.check_board(reply, carol.id)  # refreshed to the current position, redeal unplayed
    [note] = await interaction.wait_followups(1)
    assert note.ephemeral and "out of date" in note.text, note.text


async def test_a_board_of_a_replaced_game_is_refreshed(fake: FakeDiscord, bot: Any) -> None:
    dana = fake.users["dana"]
    old = await fake.command(dana, "new", {"game": "trefoil", "deal": 2})
    question = await fake.command(dana, "new", {"game": "clover-leaf", "deal": 4})
    assert [b.label for b in question.buttons] == ["Start new game", "Keep playing"]
    assert not question.pngs and "Trefoil" in question.text
    started = await fake.press(dana, question, label="Start new game")
    assert started.message_id == question.message_id and started.pngs
    mirror = Mirror("clover-leaf", 4)
    mirror.check_board(started, dana.id)

    interaction = fake.start_component(dana, old.message_id, label="To foundations")
    await fake.send_interaction(interaction)
    reply = await interaction.reply()
    mirror.check_board(reply, dana.id)
    [note] = await interaction.wait_followups(1)
    assert note.ephemeral and "replaced" in note.text, note.text


async def test_new_of_the_very_deal_not_moved_in_shows_the_board(
    fake: FakeDiscord, bot: Any
) -> None:
    """Asking for the deal one already has, untouched, is no question: the board again, and
    a private note saying why."""
    bob = fake.users["bob"]
    first = await fake.command(bob, "new", {"game": "four-leaf-clovers", "deal": 12})
    again = await fake.command(bob, "new", {"game": "four-leaf-clovers", "deal": 12})
    assert "Start new game" not in [b.label for b in again.buttons]
    assert again.pngs == first.pngs
    Mirror("four-leaf-clovers", 12).check_board(again, bob.id)
    [note] = await again.interaction.wait_followups(1)
    assert note.ephemeral and "You already have this deal" in note.text, note.text


async def test_new_game_question_keep_playing_and_strangers(fake: FakeDiscord, bot: Any) -> None:
    alice, carol = fake.users["alice"], fake.users["carol"]
    mirror = Mirror("corner-stones", 1)
    await fake.command(alice, "new", {"game": "corner-stones", "deal": 1})
    text = mirror.first_move()
    await fake.command(alice, "move", move_options(text))
    mirror.play(text)
    question = await fake.command(alice, "new", {"game": "trefoil"})
    assert "Corner Stones" in question.text and "1 move" in question.text, question.text
    refused = await fake.press(carol, question, label="Start new game")
    assert refused.ephemeral and alice.mention in refused.text
    kept = await fake.press(alice, question, label="Keep playing")
    assert kept.kind == "update"
    mirror.check_board(kept, alice.id)


def _independent_moves(mirror: Mirror) -> tuple[str, str]:
    """Two legal moves that stay legal after each other and commute."""
    game = mirror.game
    moves = [m for m in game.legal_moves() if m.kind == PILE]
    for a in moves:
        for b in moves:
            if {a.src, a.dst} & {b.src, b.dst}:
                continue
            return str(a), str(b)
    raise AssertionError("no two independent moves in this deal")


async def test_concurrent_commands_of_one_player_are_both_played(
    fake: FakeDiscord, bot: Any
) -> None:
    bob = fake.users["bob"]
    mirror = Mirror("corner-stones", 1)
    await fake.command(bob, "new", {"game": "corner-stones", "deal": 1})
    first, second = _independent_moves(mirror)
    interactions = [
        fake.start_command(bob, "move", move_options(first)),
        fake.start_command(bob, "move", move_options(second)),
    ]
    for interaction in interactions:
        await fake.send_interaction(interaction)
    replies = await asyncio.gather(*(i.reply() for i in interactions))
    assert all(not r.ephemeral for r in replies), [r.text for r in replies]
    assert {"1 move" in r.text for r in replies} == {True, False}, "one after the other"
    mirror.play(first)
    mirror.play(second)
    mirror.check_board(await fake.command(bob, "show"), bob.id)


async def test_two_fast_picks_on_one_board_play_one_move(fake: FakeDiscord, bot: Any) -> None:
    carol = fake.users["carol"]
    mirror = Mirror("four-leaf-clovers", 2)
    reply = await fake.command(carol, "new", {"game": "four-leaf-clovers", "deal": 2})
    values = board_of(reply).select.values[:2]
    picks = [
        fake.start_component(carol, reply.message_id, reply.select.custom_id, values=[v])
        for v in values
    ]
    for interaction in picks:
        await fake.send_interaction(interaction)
    await asyncio.gather(*(i.reply() for i in picks))
    await fake.wait_until(lambda: sum(len(i.followup_ids) for i in picks) >= 1)
    notes = [fake.messages[m].state() for i in picks for m in i.followup_ids]
    assert len(notes) == 1 and notes[0].ephemeral, "the later pick is told it came too late"
    [played] = [v for i, v in zip(picks, values, strict=True) if not i.followup_ids]
    mirror.play(played)
    mirror.check_board(await fake.command(carol, "show"), carol.id)


async def test_rules_and_help(fake: FakeDiscord, bot: Any) -> None:
    from engine import GAMES

    for game_id, name in GAMES.items():
        reply = await fake.command("alice", "rules", {"game": game_id})
        assert reply.ephemeral and name in reply.text and "/move" in reply.text
    help_reply = await fake.command("alice", "help")
    assert help_reply.ephemeral
    for command in ("/new", "/move", "/undo", "/redo", "/redeal", "/show", "/resign", "/rules"):
        assert command in help_reply.text, f"/help mentions {command}"


async def test_play_in_a_direct_message(fake: FakeDiscord, bot: Any) -> None:
    erin = fake.users["erin"]
    mirror = Mirror("trefoil", 5)
    reply = await fake.command(erin, "new", {"game": "trefoil", "deal": 5}, guild=None)
    mirror.check_board(reply, erin.id)
    text = mirror.first_move()
    reply = await fake.select(erin, reply, values=[text])
    mirror.play(text)
    mirror.check_board(reply, erin.id)


async def test_an_overlong_entry_is_refused_with_an_explanation(
    fake: FakeDiscord, bot: Any, error_log: Any
) -> None:
    await fake.command("alice", "new", {"game": "trefoil", "deal": 2})
    for options in ({"from": "9" * 3000}, {"from": "1", "to": "x" * 3000}):
        with pytest.raises(ValueError, match="refuses that length"):
            await fake.command("alice", "move", options)  # Discord's client stops it
        reply = await fake.command_unchecked("alice", "move", options)  # a proxy might not
        assert reply.ephemeral and "must be at most 40 characters" in reply.text, reply.text
        assert "x" * 50 not in reply.text and "9" * 50 not in reply.text
    assert fake.problems == [] and error_log.lines() == []
