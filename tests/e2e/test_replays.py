"""/replay through the fake Discord: whose games it shows, to whom, and when.

A player's ``private_boards`` setting governs every picture of their games, whoever asks;
nobody replays another player's game of today's daily deal, or of a challenge still open
to them, before finishing their own."""

from __future__ import annotations

import asyncio
import random
import threading
from datetime import UTC, datetime
from io import BytesIO
from pathlib import Path
from typing import Any

import pytest
from PIL import Image

from engine import PILE, Game, Move, new_game

from ..bot.daily_lines import NOV_22, NOV_22_DEAL, NOV_22_WIN
from .conftest import SkippingClock
from .fake_discord import FakeDiscord, FakeUser, Reply
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
def database(request: pytest.FixtureRequest, tmp_path: Path) -> Path | str:
    """A SQLite file; or, for a test that asks (``BOTH_BACKENDS``), each backend in turn:
    whom a replay may reach is decided in the database, and must be so on both."""
    if getattr(request, "param", "sqlite") == "sqlite":
        return tmp_path / "solitaire.db"
    return str(request.getfixturevalue("pg_url"))


BOTH_BACKENDS = pytest.mark.parametrize("database", ["sqlite", "postgresql"], indirect=True)


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


@BOTH_BACKENDS
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


@BOTH_BACKENDS
async def test_nobody_replays_todays_daily_of_another_before_finishing_their_own(
    fake: FakeDiscord, bot: Any, clock: SkippingClock
) -> None:
    alice = fake.users["alice"]
    dealt = await fake.command("alice", "daily", {"game": "trefoil"})
    assert f"deal {NOV_22_DEAL}" in dealt.text
    won = await play_moves(fake, "alice", NOV_22_WIN)
    assert "Daily deal won" in won.text
    spoiler = await fake.command("bob", "replay", {"user": "alice"})
    assert spoiler.ephemeral and not spoiler.message.attachments, spoiler.text
    assert f"<@{alice.id}>'s game of today's daily deal" in spoiler.text
    mine = await fake.command("alice", "replay")  # hers, but not for the channel today
    assert mine.ephemeral and mine.message.attachments, mine.text
    assert "today's daily deal" in mine.text
    await fake.command("bob", "daily", {"game": "trefoil"})
    under_way = await fake.command("bob", "replay", {"user": "alice"})
    assert under_way.ephemeral and not under_way.message.attachments, "his attempt is on"
    await resign(fake, "bob")
    allowed = await fake.command("bob", "replay", {"user": "alice"})
    assert allowed.message.attachments and "won, 68 moves" in allowed.text, allowed.text
    assert allowed.ephemeral, "to him alone: others may not have played it yet"
    assert replays_seen_by(fake, "carol") == []
    clock.skip(24 * 3600)  # the next day: yesterday's daily spoils nothing
    public = await fake.command("carol", "replay", {"user": "alice"})
    assert not public.ephemeral and public.message.attachments, public.text


@BOTH_BACKENDS
async def test_nobody_replays_a_game_of_a_challenge_still_open_to_them(
    fake: FakeDiscord, bot: Any, clock: SkippingClock
) -> None:
    clock.skip(24 * 3600)  # a day whose daily deal is not the challenge's
    assert await bot.core.stores.meta.try_lead(lambda: None)
    await bot.core.stores.pool.add("trefoil", NOV_22_DEAL, clock(), target=10)
    asked = await fake.command("alice", "challenge", {"user": "bob", "game": "trefoil"})
    await fake.press("bob", asked, label="Accept")
    await fake.press("alice", asked, label="Play")
    await play_moves(fake, "alice", NOV_22_WIN)
    spoiler = await fake.command("bob", "replay", {"user": "alice"})
    assert spoiler.ephemeral and not spoiler.message.attachments, spoiler.text
    assert "your challenge" in spoiler.text
    # The same deal dealt again, unscored, and left: still the challenge's deal.
    await fake.command("alice", "new", {"game": "trefoil", "deal": NOV_22_DEAL})
    await play_moves(fake, "alice", NOV_22_WIN[:2])
    await resign(fake, "alice")
    again = await fake.command("bob", "replay", {"user": "alice"})
    assert again.ephemeral and not again.message.attachments, again.text
    watching = await fake.command("carol", "replay", {"user": "alice"})
    assert watching.ephemeral and watching.message.attachments, "not in bob's channel"
    mine = await fake.command("alice", "replay")
    assert mine.ephemeral and mine.message.attachments, mine.text
    await fake.press("bob", asked, label="Play")
    await resign(fake, "bob")  # his game of it is over: nothing left to spoil
    clock.skip(60)
    allowed = await fake.command("bob", "replay", {"user": "alice"})
    assert not allowed.ephemeral and allowed.message.attachments, allowed.text


def pile_to_pile(game_id: str, deal: int, moves: int, seed: int) -> Game:
    """A long game: ``moves`` random moves from pile to pile, each of which could be taken
    back at once (so the game never runs out of them), from a seeded generator."""
    game = new_game(game_id, deal)
    rng = random.Random(seed)
    while game.moves_made < moves:
        legal = [m for m in game.legal_moves() if m.kind == PILE]
        rng.shuffle(legal)
        for move in legal:
            trial = game.copy()
            trial.play(move)
            if Move(PILE, move.dst, move.src) in trial.legal_moves():
                game.play(move)
                break
        else:
            raise AssertionError(f"no move to take back after {game.moves_made} moves")
    return game


async def playing(bot: Any, fake: FakeDiscord, who: str, game: Game, now: float) -> None:
    """``game`` as the player's game in play (as if they had made every move of it)."""
    await bot.core.stores.games.start(fake.users[who].id, fake.guild.id, game, now)


def gif_of(reply: Reply) -> Image.Image:
    [attachment] = [a for a in reply.message.attachments if a.filename.endswith(".gif")]
    return Image.open(BytesIO(attachment.data))


async def test_the_longest_replay_fits_in_what_the_channel_takes_and_says_what_it_left_out(
    fake: FakeDiscord, bot: Any, clock: SkippingClock
) -> None:
    """Corner Stones deal 20, 2,400 moves from pile to pile, the four-colour deck: 400 of
    its moves at full size are 3.4 MB (12 MB before its picture was made narrower, issue
    35), beyond a channel that takes 2 MiB."""
    fake.attachment_size_limit = 2 * 2**20
    await fake.command("alice", "settings", {"four_colour": True})
    await playing(bot, fake, "alice", pile_to_pile("corner-stones", 20, 2400, seed=3), clock())
    reply = await fake.command("alice", "replay")
    [attachment] = reply.message.attachments
    assert len(attachment.data) <= fake.attachment_size_limit
    gif = gif_of(reply)
    frames = gif.n_frames - 1  # after the deal
    assert 60 <= frames < 400, frames
    # Whether its pictures had to be smaller too depends on how small the GIFs of this
    # Pillow release are: the words say so exactly where they are.
    clock.skip(60)
    board = (await fake.command("alice", "show")).message.attachments[0]
    smaller = gif.width < Image.open(BytesIO(board.data)).width
    said = (f"To fit in the 2 MB this channel takes, it shows {frames} of its 2,400 moves, "
            "evenly picked" + (", on pictures smaller than a board's." if smaller else "."))
    assert said in reply.text, reply.text
    assert attachment.description and f"{frames} of its moves" in attachment.description


@pytest.mark.parametrize("limit", [300_000, 3_000])
async def test_a_replay_for_a_small_limit_is_smaller_or_says_it_cannot_fit(
    fake: FakeDiscord, bot: Any, clock: SkippingClock, limit: int
) -> None:
    fake.attachment_size_limit = limit
    await playing(bot, fake, "alice", pile_to_pile("corner-stones", 20, 150, seed=1), clock())
    reply = await fake.command("alice", "replay")
    if limit == 3_000:  # not even two small pictures: said so, and nothing is sent
        assert reply.ephemeral and not reply.message.attachments, reply.text
        assert "does not fit in the" in reply.text, reply.text
        return
    [attachment] = reply.message.attachments
    assert len(attachment.data) <= limit
    picture = gif_of(reply)
    assert picture.width < 300, "smaller pictures than a board's"
    assert "on pictures smaller than a board's" in reply.text, reply.text


async def test_a_replay_waiting_behind_others_says_so_at_once(
    fake: FakeDiscord, bot: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Replays are drawn one at a time: the first is held in the drawing until the others
    have asked, and each of those is told at once how many are ahead of it."""
    import bot.workers.pictures as pictures

    drawing, release = threading.Event(), threading.Event()
    draw = pictures.fitted_replay

    def held(*args: Any, **kwargs: Any) -> Any:
        drawing.set()
        release.wait(timeout=20)
        return draw(*args, **kwargs)

    monkeypatch.setattr(pictures, "fitted_replay", held)
    for who in ("alice", "bob", "carol"):
        await fake.command(who, "new", {"game": "trefoil", "deal": 42})
        await play_moves(fake, who, [Mirror("trefoil", 42).first_move()])
    asked = []
    for who in ("alice", "bob", "carol"):
        interaction = fake.start_command(who, "replay")
        await fake.send_interaction(interaction)
        asked.append(interaction)
        if who == "alice":
            await asyncio.get_running_loop().run_in_executor(None, drawing.wait, 20)
        else:
            note = await interaction.reply()  # at once, while the first is being drawn
            ahead = 1 if who == "bob" else 2
            assert note.ephemeral and not note.message.attachments, note.text
            assert f"{ahead} replay{'s' if ahead > 1 else ''} " in note.text, note.text
            assert "before yours" in note.text, note.text
    release.set()
    first = await asked[0].reply()
    assert first.message.attachments and not first.ephemeral
    for interaction in asked[1:]:
        [replay] = await interaction.wait_followups(1)
        assert replay.attachments and not replay.ephemeral, "the replay, for the channel"
        note = interaction.original
        assert note is not None
        await fake.wait_until(lambda note=note: note.deleted, timeout=5,
                              what="the note to wait gone once the replay is there")
