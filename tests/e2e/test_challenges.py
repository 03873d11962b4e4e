"""Challenges between members, through the fake Discord: a public challenge the challenged
member alone may answer; on accept both play the same proven-winnable deal in their own
game; the challenge's message follows each side to the end and names the winner; /stats
counts challenges won and lost."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from bot.store.challenges import DAY_S

from ..bot.daily_lines import NOV_22_DEAL, NOV_22_WIN
from .conftest import SkippingClock
from .fake_discord import FakeDiscord
from .harness import bot_in_process
from .play import board_of, move_options


@pytest.fixture
def database(any_database: Path | str) -> Path | str:
    """Every test here on each backend: what a challenge tells its players is decided in
    the database, and must be true on both."""
    return any_database


@pytest.fixture
async def bot(
    fake: FakeDiscord, database: Path | str, clock: SkippingClock
) -> AsyncIterator[Any]:
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


async def play_line(
    fake: FakeDiscord, player: str, moves: list[str], clock: SkippingClock | None = None,
    step_s: float = 0.0,
) -> Any:
    last = None
    for move in moves:
        if clock is not None:
            clock.skip(step_s)
        last = await fake.command(player, "move", move_options(move))
    return last


async def accepted(fake: FakeDiscord, challenger: str = "alice", challenged: str = "bob") -> Any:
    asked = await fake.command(challenger, "challenge", {"user": challenged, "game": "trefoil"})
    await fake.press(challenged, asked, label="Accept")
    return asked


async def test_an_unassisted_win_beats_a_faster_one_with_a_hint(
    fake: FakeDiscord, bot: Any, clock: SkippingClock
) -> None:
    asked = await fake.command("alice", "challenge", {"user": "bob", "game": "trefoil"})
    assert "without hints" in asked.text, "the rule is told before anyone accepts"
    await fake.press("bob", asked, label="Accept")
    rules = text_of(fake, asked.message_id)
    assert "a win without hints beats one with them" in rules, rules
    await fake.press("alice", asked, label="Play")
    hint = await fake.command("alice", "hint")
    assert "Hint" in hint.text, hint.text
    await play_line(fake, "alice", NOV_22_WIN, clock, step_s=1)
    await fake.press("bob", asked, label="Play")
    await play_line(fake, "bob", NOV_22_WIN, clock, step_s=10)  # ten times as slow
    bob = fake.users["bob"]
    final = await shows(fake, asked.message_id, "wins the challenge")
    assert f"🏆 <@{bob.id}> wins the challenge!" in final, final
    assert "with hints" in final
    assert "Challenges: 0 won, 1 lost" in (await fake.command("alice", "stats")).text


async def test_a_win_after_the_challenges_day_does_not_count(
    fake: FakeDiscord, bot: Any, clock: SkippingClock
) -> None:
    asked = await accepted(fake)
    await fake.press("alice", asked, label="Play")
    await play_line(fake, "alice", NOV_22_WIN[:-1])
    clock.skip(DAY_S + 1)  # before the leader's sweep closes it
    won = await fake.command("alice", "move", move_options(NOV_22_WIN[-1]))
    assert "Won" in won.text
    final = await shows(fake, asked.message_id, "did not finish within the day")
    alice = fake.users["alice"]
    assert f"<@{alice.id}>: did not finish within the day" in final, final
    assert "wins the challenge" not in final
    assert "Challenges: 1 won" not in (await fake.command("alice", "stats")).text


async def test_a_kept_question_deals_no_second_game_of_a_challenge(
    fake: FakeDiscord, bot: Any, clock: SkippingClock
) -> None:
    await fake.command("bob", "new", {"game": "clover-leaf", "deal": 7})
    await fake.command("bob", "move", {"from": "1", "to": "16"})
    asked = await accepted(fake)
    kept = await fake.press("bob", asked, label="Play")  # a question he keeps for later
    answered = await fake.press("bob", await fake.press("bob", asked, label="Play"),
                                label="Start new game")
    assert f"deal {NOV_22_DEAL}" in board_of(answered).text
    await play_line(fake, "bob", NOV_22_WIN)
    again = await fake.press("bob", kept, label="Start new game")
    assert again.ephemeral and "played your game of this challenge" in again.text, again.text
    shown = await fake.command("bob", "show")
    assert f"{len(NOV_22_WIN)} moves" in shown.text and "Won" in shown.text, shown.text
    # After the day: a question kept from before deals nothing either.
    await fake.command("alice", "new", {"game": "clover-leaf", "deal": 7})
    await fake.command("alice", "move", {"from": "1", "to": "16"})
    hers = await fake.press("alice", asked, label="Play")
    clock.skip(DAY_S + 1)
    late = await fake.press("alice", hers, label="Start new game")
    assert late.ephemeral and "That challenge is over" in late.text, late.text
    assert "Clover Leaf" in (await fake.command("alice", "show")).text


async def test_a_forged_question_deals_nothing_as_a_challenge_game(
    fake: FakeDiscord, bot: Any, clock: SkippingClock
) -> None:
    bob = fake.users["bob"]
    board = await fake.command("bob", "new", {"game": "clover-leaf", "deal": 7})
    await fake.command("bob", "move", {"from": "1", "to": "16"})
    row = next(c for c in board_of(board).custom_ids if c.startswith("sol:undo:")).split(":")[3]
    asked = await accepted(fake)
    challenge = fake.message(asked).state().custom_ids[0].rsplit(":", 1)[1]
    theirs = await accepted(fake, "carol", "dana")
    other = fake.message(theirs).state().custom_ids[0].rsplit(":", 1)[1]
    forged = [
        f"sol:new:yes:{bob.id}:{row}:clover-leaf:1:c{challenge}",  # another game and deal
        f"sol:new:yes:{bob.id}:{row}:trefoil:{NOV_22_DEAL}:draw:c{challenge}",  # a house rule
        f"sol:new:yes:{bob.id}:{row}:trefoil:{NOV_22_DEAL}:c{other}",  # not his challenge
        f"sol:new:yes:{bob.id}:{row}:trefoil:winnable:c{challenge}",  # any deal
    ]
    for custom_id in forged:
        old = fake.post_earlier_message(content="forged", buttons={custom_id: "Start new game"})
        reply = await fake.press("bob", old, label="Start new game")
        assert reply.ephemeral and not reply.message.attachments, (custom_id, reply.text)
        clock.skip(5)  # past /show's cooldown
        shown = await fake.command("bob", "show")
        assert "Clover Leaf" in shown.text and "1 move" in shown.text, (custom_id, shown.text)
    assert "not started yet" in text_of(fake, asked.message_id)


async def test_eight_accepts_at_once_take_one_deal_and_a_lost_race_takes_none(
    fake: FakeDiscord, bot: Any, clock: SkippingClock
) -> None:
    pool = bot.core.stores.pool
    for deal in range(1, 6):
        await pool.add("trefoil", deal, clock(), target=10)
    before = await pool.count("trefoil")
    asked = await fake.command("alice", "challenge", {"user": "bob", "game": "trefoil"})
    presses = [fake.start_component("bob", asked, label="Accept") for _ in range(8)]
    for press in presses:
        await fake.send_interaction(press)
    answers = await asyncio.gather(*(press.reply() for press in presses))
    assert all("Sorry" not in a.text for a in answers), [a.text for a in answers]
    assert await pool.count("trefoil") == before - 1
    # Accept and Decline at once: whichever wins, a declined challenge took no deal.
    clock.skip(30)
    race = await fake.command("carol", "challenge", {"user": "dana", "game": "trefoil"})
    presses = [fake.start_component("dana", race, label=label) for label in ("Accept", "Decline")]
    for press in presses:
        await fake.send_interaction(press)
    await asyncio.gather(*(press.reply() for press in presses))
    final = text_of(fake, race.message_id)
    taken = 1 if "declined" not in final else 0
    assert await pool.count("trefoil") == before - 1 - taken, final


async def test_a_double_tap_on_play_deals_one_game_and_asks_nothing(
    fake: FakeDiscord, bot: Any
) -> None:
    asked = await accepted(fake)
    taps = [fake.start_component("bob", asked, label="Play") for _ in range(2)]
    for tap in taps:
        await fake.send_interaction(tap)
    answers = await asyncio.gather(*(tap.reply() for tap in taps))
    for answer in answers:
        assert "Start new game" not in [b.label for b in answer.buttons], answer.text
        assert f"deal {NOV_22_DEAL}" in answer.text, answer.text


async def test_one_open_challenge_per_pair_and_a_few_per_member(
    fake: FakeDiscord, bot: Any, clock: SkippingClock
) -> None:
    first = await fake.command("alice", "challenge", {"user": "bob", "game": "trefoil"})
    assert not first.ephemeral and fake.message(first).notified == {fake.users["bob"].id}
    for who, whom in (("alice", "bob"), ("bob", "alice")):
        clock.skip(31)  # past /challenge's cooldown
        again = await fake.command(who, "challenge", {"user": whom, "game": "clover-leaf"})
        assert again.ephemeral and "already have a challenge" in again.text, again.text
    await fake.press("bob", first, label="Decline")
    clock.skip(31)
    anew = await fake.command("alice", "challenge", {"user": "bob", "game": "clover-leaf"})
    assert not anew.ephemeral, "a challenge answered no longer stands in the way"
    for whom in ("carol", "dana"):
        clock.skip(31)
        made = await fake.command("alice", "challenge", {"user": whom, "game": "trefoil"})
        assert not made.ephemeral, made.text
    clock.skip(31)
    many = await fake.command("alice", "challenge", {"user": "olga", "game": "trefoil"})
    assert many.ephemeral and "3 challenges waiting for an answer" in many.text, many.text
    olga = fake.users["olga"]
    assert not [m for m in fake.channel_messages() if f"<@{olga.id}>" in m.content], (
        "nobody was called on by a refused challenge"
    )


@pytest.mark.parametrize("who", ["the bot", "a stranger", "an id alone"])
async def test_a_challenge_goes_only_to_a_member_of_the_server(
    fake: FakeDiscord, bot: Any, who: str
) -> None:
    if who == "a stranger":  # erin is not in this server: Discord resolves no member
        reply = await fake.command("alice", "challenge", {"user": "erin", "game": "trefoil"})
    else:
        target = fake.bot_user.id if who == "the bot" else fake.users["carol"].id
        reply = await fake.command_unchecked(
            "alice", "challenge", {"user": str(target), "game": "trefoil"}
        )
    assert reply.ephemeral and not reply.buttons, reply.text
    assert "Challenge!" not in reply.text and reply.text, reply.text


async def forget(fake: FakeDiscord, who: str) -> None:
    asked = await fake.command(who, "forget-me")
    done = await fake.press(who, asked, label="Delete everything")
    assert "Done: deleted" in done.text, done.text


async def test_forgetting_reaches_a_finished_challenges_message(
    fake: FakeDiscord, bot: Any
) -> None:
    alice, bob = fake.users["alice"], fake.users["bob"]
    asked = await accepted(fake)
    await fake.press("alice", asked, label="Play")
    resigning = await fake.command("alice", "resign")
    await fake.press("alice", resigning, label="Resign")
    await fake.press("bob", asked, label="Play")
    await play_line(fake, "bob", NOV_22_WIN)
    await shows(fake, asked.message_id, "wins the challenge")
    await forget(fake, "alice")
    final = await shows(fake, asked.message_id, "a player who has left")
    assert f"<@{alice.id}>" not in final and "resigned" not in final, final
    assert f"<@{bob.id}>: won in {len(NOV_22_WIN)} moves" in final, "his record stays"
    assert f"🏆 <@{bob.id}> wins the challenge!" in final
    assert "Challenges: 1 won, 0 lost" in (await fake.command("bob", "stats")).text


async def test_forgetting_calls_off_an_open_challenge_and_its_buttons(
    fake: FakeDiscord, bot: Any
) -> None:
    asked = await fake.command("carol", "challenge", {"user": "dana", "game": "trefoil"})
    accept = next(c for c in fake.message(asked).state().custom_ids if ":accept:" in c)
    await forget(fake, "dana")
    ended = await shows(fake, asked.message_id, "called off")
    assert f"<@{fake.users['dana'].id}>" not in ended
    assert fake.message(asked).state().components == (), "no buttons left to press"
    stale = fake.post_earlier_message(content="an old copy", buttons={accept: "Accept"})
    pressed = await fake.press("carol", stale, label="Accept")
    assert "<@0>" not in pressed.text and "called off" in pressed.text, pressed.text
    assert not fake.message(stale).state().components


async def test_an_expired_challenge_shows_how_it_ended_when_play_is_pressed(
    fake: FakeDiscord, bot: Any, clock: SkippingClock
) -> None:
    asked = await accepted(fake)
    await fake.press("alice", asked, label="Play")
    clock.skip(DAY_S + 1)  # before the leader's sweep
    press = fake.start_component("bob", asked, label="Play")
    await fake.send_interaction(press)
    late = await press.reply()
    assert late.kind == "update" and late.message_id == asked.message_id, "edited in place"
    [note] = await press.wait_followups(1)
    assert note.ephemeral and "That challenge is over: its message shows how it ended" in (
        note.content
    ), note.content
    ended = fake.message(asked).state()
    assert ended.components == (), "its Play button is gone"
    assert "did not finish within the day" in ended.content, ended.content


async def test_a_sides_game_on_the_deal_of_a_live_challenge_is_their_challenge_game(
    fake: FakeDiscord, bot: Any, clock: SkippingClock
) -> None:
    """The deal is shown at Accept: played first as a free game, hints and all, it would
    then be won "without hints". While the challenge lasts, it is the side's challenge game."""
    alice, bob = fake.users["alice"], fake.users["bob"]
    asked = await accepted(fake)
    drawn = await fake.command("bob", "new", {"game": "trefoil", "deal": NOV_22_DEAL,
                                              "draw": True})
    assert drawn.ephemeral and "house rule never plays a scored game" in drawn.text, drawn.text
    dealt = await fake.command("bob", "new", {"game": "trefoil", "deal": NOV_22_DEAL})
    assert "your game of the challenge" in board_of(dealt).text, board_of(dealt).text
    await shows(fake, asked.message_id, f"<@{bob.id}>: playing…")
    hint = await fake.command("bob", "hint")
    assert "Hint" in hint.text, hint.text
    await play_line(fake, "bob", NOV_22_WIN[:3])
    again = await fake.press("bob", asked, label="Play")
    assert "3 moves" in board_of(again).text, "▶ Play shows the game he has, not a new one"
    await play_line(fake, "bob", NOV_22_WIN[3:])
    final = await shows(fake, asked.message_id, f"<@{bob.id}>: won")
    assert f"<@{bob.id}>: won in {len(NOV_22_WIN)} moves" in final and "with hints" in final
    # Someone who is not a side plays the deal as any other; so does a side who has played.
    clock.skip(5)
    carol = await fake.command("carol", "new", {"game": "trefoil", "deal": NOV_22_DEAL})
    assert "challenge" not in board_of(carol).text
    free = await fake.command("bob", "new", {"game": "trefoil", "deal": NOV_22_DEAL})
    assert "challenge" not in board_of(free).text
    assert f"<@{alice.id}>: not started yet" in text_of(fake, asked.message_id)


async def test_a_challenge_game_left_untouched_uses_up_the_sides_go(
    fake: FakeDiscord, bot: Any
) -> None:
    alice = fake.users["alice"]
    asked = await accepted(fake)
    await fake.press("alice", asked, label="Play")  # the deal seen, no move made
    question = await fake.command("alice", "new", {"game": "clover-leaf", "deal": 7})
    assert "your go at it is used up" in question.text, question.text
    left = await fake.press("alice", question, label="Start new game")
    assert "Clover Leaf" in board_of(left).text
    await shows(fake, asked.message_id, f"<@{alice.id}>: left the game")
    again = await fake.press("alice", asked, label="Play")
    assert again.ephemeral and "you left the game" in again.text, again.text
    stats = await fake.command("alice", "stats")
    assert "no finished games" in stats.text, "no game played: only the go is spent"


async def test_a_challenge_game_takes_back_no_redeal(fake: FakeDiscord, bot: Any) -> None:
    asked = await accepted(fake)
    await fake.press("bob", asked, label="Play")
    first_redeal = NOV_22_WIN.index("redeal")
    redealt = await play_line(fake, "bob", NOV_22_WIN[: first_redeal + 1])
    assert "1 redeal left" in redealt.text, redealt.text
    [button] = [b for b in redealt.buttons if b.label == "Undo"]
    assert button.disabled, "nothing to take back on this board"
    undo = await fake.command("bob", "undo")  # typed all the same
    assert undo.ephemeral and "undo stops at the last redeal" in undo.text, undo.text
    shown = await fake.command("bob", "show")
    assert "1 redeal left" in shown.text, "the redeal stands"
