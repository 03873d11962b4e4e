"""Records through Discord: /daily and its board, /stats pictures and who may see what,
/leaderboard without pings, /forget-me and the Manage Server reset, two servers kept apart.

The bot runs with a clock the test sets (``bot_in_process(clock=...)``), so the daily deal's day is
the test's choice and the winning lines in ``tests/bot/daily_lines.py`` apply.
"""

from __future__ import annotations

import io
import threading
from collections.abc import AsyncIterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from PIL import Image

from bot.flows.cooldowns import EVERY_S
from render.stats_card import MARGIN, ROW, TOP, WIDTH, render_stats_png

from ..bot.daily_lines import NOV_22, NOV_22_DEAL, NOV_22_WIN
from .fake_discord import (
    DEFERRED_CHANNEL_MESSAGE,
    EPHEMERAL,
    MANAGE_GUILD,
    FakeDiscord,
    FakeUser,
    Reply,
    is_png,
)
from .harness import bot_in_process
from .play import move_options


class Clock:
    def __init__(self, now: float) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def clock() -> Clock:
    return Clock(datetime(NOV_22.year, NOV_22.month, NOV_22.day, 12, tzinfo=UTC).timestamp())


@pytest.fixture
async def bot(
    fake: FakeDiscord, database: Path, clock: Clock, monkeypatch: pytest.MonkeyPatch
) -> AsyncIterator[Any]:
    """The bot on the test's clock. These tests read again and again without waiting, so
    the reads' cooldowns are off (test_cooldowns.py has them)."""
    for kind in ("show", "stats", "leaderboard", "daily-board"):
        monkeypatch.setitem(EVERY_S, kind, 0.0)
    async with bot_in_process(fake, database, clock=clock) as running:
        yield running


def stats_card(blob: bytes, rows: int) -> None:
    """The stats picture: a PNG as wide as render.stats_card draws, a bar per game."""
    assert is_png(blob)
    image = Image.open(io.BytesIO(blob))
    image.load()
    assert image.width == WIDTH and image.height == TOP + ROW * rows + MARGIN, image.size


def pings_nobody(reply: Reply) -> None:
    sent = reply.interaction.callback_data.get("data") or {}
    assert sent.get("allowed_mentions", {}).get("parse") == [], sent.get("allowed_mentions")


async def win_daily(fake: FakeDiscord, clock: Clock, player: FakeUser, step_s: float) -> Reply:
    reply = await fake.command(player, "daily", {"game": "trefoil"})
    assert f"deal {NOV_22_DEAL}" in reply.text and "scored attempt" in reply.text
    for move in NOV_22_WIN:
        clock.now += step_s
        reply = await fake.command(player, "move", move_options(move))
    return reply


async def resign_a_game(fake: FakeDiscord, player: FakeUser, guild: Any = None) -> None:
    where = {} if guild is None else {"guild": guild}
    started = await fake.command(player, "new", {"game": "clover-leaf", "deal": 5}, **where)
    assert started.pngs, "the last game was over: no question"
    asked = await fake.command(player, "resign", **where)
    resigned = await fake.press(player, asked, label="Resign")
    assert "Resigned" in resigned.text, resigned.text


async def test_the_daily_deal_its_board_and_its_streak(
    fake: FakeDiscord, bot: Any, clock: Clock
) -> None:
    alice, bob, carol = (fake.users[n] for n in ("alice", "bob", "carol"))
    won = await win_daily(fake, clock, alice, step_s=2)
    assert (
        "Won" in won.text and "Daily deal won" in won.text and "Daily streak: **1** day" in won.text
    )
    slower = await win_daily(fake, clock, bob, step_s=5)
    assert "Daily deal won" in slower.text
    share = f"🃏 Trefoil daily {NOV_22} · 🏆 won in {len(NOV_22_WIN)} moves · 52/52 cards home"
    assert f"Share it:\n```\n{share} · no hints\n```" in won.text, "a line to post anywhere"
    await fake.command(carol, "daily", {"game": "trefoil"})
    gave_up = await fake.press(carol, await fake.command(carol, "resign"), label="Resign")
    assert f"🃏 Trefoil daily {NOV_22} · resigned · 0 moves · 4/52 cards home" in gave_up.text
    shared = gave_up.text.split("Share it:\n```\n")[1].split("\n```")[0]
    assert str(NOV_22_DEAL) not in shared and "♥" not in shared, "nothing of the deal"

    replay = await fake.command(alice, "daily", {"game": "trefoil"})
    assert not replay.ephemeral and "not scored" in replay.text

    board = await fake.command("dana", "daily-board", {"game": "trefoil"})
    assert not board.ephemeral
    lines = board.text.splitlines()
    assert lines[0] == f"📅 **Daily board** — Trefoil, today (UTC), deal {NOV_22_DEAL}"
    assert lines[1].startswith(f"🥇 {alice.mention} — {len(NOV_22_WIN)} moves")
    assert lines[2].startswith(f"🥈 {bob.mention} — {len(NOV_22_WIN)} moves")
    assert "3 players finished their scored attempts here, 2 won." in board.text
    pings_nobody(board)

    elsewhere = await fake.command(
        "erin", "daily-board", {"game": "trefoil"}, guild=fake.other_guild
    )
    assert "Nobody here has finished" in elsewhere.text and alice.mention not in elsewhere.text

    ranked = await fake.command(carol, "leaderboard", {"game": "trefoil", "period": "week"})
    assert not ranked.ephemeral
    places = [line.split()[1] for line in ranked.text.splitlines()[1:4]]
    assert places == [alice.mention, bob.mention, carol.mention]
    assert "Wilson" in ranked.text
    pings_nobody(ranked)
    other = await fake.command("erin", "leaderboard", guild=fake.other_guild)
    assert alice.mention not in other.text and "No finished games here" in other.text

    stats = await fake.command(alice, "stats")
    assert "daily streak 1 (best 1)" in stats.text and "1 won" in stats.text


async def test_stats_picture_and_who_may_see_which_record(fake: FakeDiscord, bot: Any) -> None:
    alice, bob = fake.users["alice"], fake.users["bob"]
    await resign_a_game(fake, alice)
    await resign_a_game(fake, alice, guild=fake.other_guild)
    await resign_a_game(fake, alice, guild=fake.other_guild)

    here = await fake.command(alice, "stats")
    assert not here.ephemeral and len(here.pngs) == 1
    stats_card(here.pngs[0], rows=1)
    assert "Your record on this server: 1 played · 0 won" in here.text

    everywhere = await fake.command(alice, "stats", {"scope": "all"})
    assert everywhere.ephemeral and len(everywhere.pngs) == 1
    stats_card(everywhere.pngs[0], rows=1)
    assert "3 played" in everywhere.text

    theirs = await fake.command(bob, "stats", {"user": "alice"})
    assert not theirs.ephemeral and theirs.pngs
    assert theirs.text.startswith(f"{alice.mention}'s record on this server: 1 played")
    pings_nobody(theirs)

    refused = await fake.command(bob, "stats", {"user": "alice", "scope": "all"})
    assert refused.ephemeral and not refused.pngs and "only to that player" in refused.text
    assert "3 played" not in refused.text

    other_server = await fake.command("erin", "stats", {"user": "alice"}, guild=fake.other_guild)
    assert "2 played" in other_server.text, "the other server sees its own games only"

    nothing = await fake.command(bob, "stats")
    assert nothing.ephemeral and "no finished games" in nothing.text and not nothing.pngs


async def test_forget_me_asks_with_buttons_then_deletes_everything(
    fake: FakeDiscord, bot: Any
) -> None:
    alice, bob = fake.users["alice"], fake.users["bob"]
    await resign_a_game(fake, alice)
    await resign_a_game(fake, alice, guild=fake.other_guild)
    await fake.command(alice, "new", {"game": "trefoil", "deal": 4})
    await resign_a_game(fake, bob)

    asked = await fake.command(alice, "forget-me")
    assert asked.ephemeral and [b.label for b in asked.buttons] == [
        "Delete everything",
        "Keep my records",
    ]
    # A private question is pressed by its owner only; a public one (resign) shows whose it is.
    public = await fake.command(alice, "resign")
    stranger = await fake.press(bob, public, label="Resign")
    assert stranger.ephemeral and "That question was for" in stranger.text
    kept = await fake.press(alice, asked, label="Keep my records")
    assert kept.kind == "update" and kept.text == "Nothing was deleted." and not kept.buttons
    assert "2 played" in (await fake.command(alice, "stats", {"scope": "all"})).text

    asked = await fake.command(alice, "forget-me")
    done = await fake.press(alice, asked, label="Delete everything")
    assert done.kind == "update" and not done.buttons
    assert "deleted your current game and 2 results" in done.text
    assert "no finished games" in (await fake.command(alice, "stats", {"scope": "all"})).text
    assert "/new" in (await fake.command(alice, "show")).text
    assert "1 played" in (await fake.command(bob, "stats")).text, "nobody else's records"


async def test_only_server_managers_reset_and_only_their_server(
    fake: FakeDiscord, bot: Any
) -> None:
    await fake.wait_commands("reset-server-stats")
    command = fake.find_command("reset-server-stats")
    assert command is not None and str(command["default_member_permissions"]) == str(MANAGE_GUILD)
    alice, dana = fake.users["alice"], fake.users["dana"]
    await resign_a_game(fake, alice)
    await resign_a_game(fake, fake.users["bob"])
    await resign_a_game(fake, alice, guild=fake.other_guild)

    refused = await fake.command(alice, "reset-server-stats")
    assert refused.ephemeral and not refused.buttons and "Manage Server" in refused.text

    asked = await fake.command(dana, "reset-server-stats")
    assert asked.ephemeral and "all **2** results of this server" in asked.text
    # The question is private: Discord shows it, and its buttons, to Dana alone.
    assert not fake.message(asked).visible_to(alice)

    moderators = fake.guild.member_roles[dana.id]
    fake.guild.member_roles[dana.id] = []  # the role was taken away before the press
    demoted = await fake.press(dana, asked, label="Delete this server's results")
    assert demoted.ephemeral and "Manage Server" in demoted.text and not demoted.buttons
    fake.guild.member_roles[dana.id] = moderators

    asked = await fake.command(dana, "reset-server-stats")
    done = await fake.press(dana, asked, label="Delete this server's results")
    assert done.kind == "update" and "deleted 2 results" in done.text
    assert "no finished games" in (await fake.command(alice, "stats")).text
    elsewhere = await fake.command(alice, "stats", guild=fake.other_guild)
    assert "1 played" in elsewhere.text, "another server's results are kept"
    owner = await fake.command("olga", "reset-server-stats")
    assert "all **0** results" in owner.text, "the server owner may reset too"


async def test_help_tells_about_the_records(fake: FakeDiscord, bot: Any) -> None:
    reply = await fake.command("carol", "help")
    [records] = await reply.interaction.wait_followups(1)  # the help's second message
    assert reply.ephemeral and records.ephemeral and "/new" in reply.text
    for name in ("/stats", "/leaderboard", "/daily", "/daily-board", "/forget-me", "Wilson"):
        assert name in records.text


async def test_a_slow_stats_picture_is_deferred_to_the_right_audience(
    fake: FakeDiscord, bot: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    alice = fake.users["alice"]
    await resign_a_game(fake, alice)
    release = threading.Event()

    def slow_picture(*args: Any) -> bytes:  # the stats card, drawn slowly
        release.wait(10)
        return render_stats_png(*args)

    monkeypatch.setattr("bot.workers.pictures.render_stats_png", slow_picture)
    monkeypatch.setattr("bot.discord.send.DEFER_AFTER_S", 0.1)  # defer sooner: a quicker test
    for options, private in (({}, False), ({"scope": "all"}, True)):
        interaction = fake.start_command(alice, "stats", options)
        await fake.send_interaction(interaction)
        await fake.wait_until(lambda i=interaction: i.callback_type is not None, what="a deferral")
        assert interaction.callback_type == DEFERRED_CHANNEL_MESSAGE and not interaction.answered
        deferred_flags = int((interaction.callback_data.get("data") or {}).get("flags") or 0)
        assert bool(deferred_flags & EPHEMERAL) is private, "thinking… shows only to its audience"
        release.set()
        reply = await interaction.reply()
        release.clear()
        assert reply.ephemeral is private and len(reply.pngs) == 1
        assert "1 played" in reply.text
