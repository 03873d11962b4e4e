"""Two of Discord's rules a bot meets only in production, kept by the fake and by the bot.

- An interaction of an app installed to the user alone (its authorizing integration owners
  hold USER_INSTALL only: a server the app is not in, a DM, a group DM) takes at most 5
  follow-up messages (error 40094).
- A channel's messages older than an hour take a few edits through its route every few
  seconds (error 30046): a challenge's message is edited for a day, and an earlier board
  may be collapsed an hour after it was posted.
"""

from __future__ import annotations

import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import aiohttp
import pytest

from bot.discord.send import COLLAPSED
from bot.lead import duties as leading
from bot.store.challenges import DAY_S

from .conftest import SkippingClock
from .fake_discord import USER_INSTALL_FOLLOWUPS, FakeDiscord, FakeInteraction
from .harness import bot_in_process

HOUR_S = 3600
FOLLOW_UPS = "POST /webhooks/{app_id}/{token}"
CHANNEL_EDITS = "PATCH /channels/{channel_id}/messages/{message_id}"


@pytest.fixture
async def bot(
    fake: FakeDiscord, database: Path, clock: SkippingClock, monkeypatch: pytest.MonkeyPatch
) -> AsyncIterator[Any]:
    """The bot, its leader sweeping the challenges whose day is over every 0.2 s, and its
    Unix time (for how old a message is) the test's, which skips ahead with the fake's."""
    monkeypatch.setattr(leading, "CHALLENGES_EVERY_S", 0.2)
    async with bot_in_process(fake, database, clock=clock) as running:
        running.tidy.old_messages.wall = clock
        yield running


def later(fake: FakeDiscord, bot: Any, clock: SkippingClock, seconds: float) -> None:
    """Skip ahead on every clock: the fake's (its messages' ages, its tokens), the bot's
    Unix time and its board tokens' lifetimes."""
    fake.advance_clock(seconds)
    clock.skip(seconds)
    skipped = clock.skipped
    bot.tidy.clock = lambda: time.monotonic() + skipped


async def follow_up(fake: FakeDiscord, interaction: FakeInteraction,
                    session: aiohttp.ClientSession) -> tuple[int, int | None]:
    """One follow-up of ``interaction`` sent as the bot would: the status, and the error."""
    url = f"{fake.api_base}/webhooks/{fake.application_id}/{interaction.token}?wait=true"
    async with session.post(url, json={"content": "one more", "flags": 64}) as answer:
        body = await answer.json()
        return answer.status, body.get("code") if answer.status >= 400 else None


async def edit(fake: FakeDiscord, channel_id: int, message_id: int,
               session: aiohttp.ClientSession) -> tuple[int, dict[str, Any]]:
    """One edit of a message through the channel's route, as the bot would: its answer."""
    url = f"{fake.api_base}/channels/{channel_id}/messages/{message_id}"
    async with session.patch(url, json={"content": "edited"},
                             headers={"Authorization": f"Bot {fake.token}"}) as answer:
        return answer.status, await answer.json()


@pytest.mark.problems_expected
@pytest.mark.parametrize(("context", "limited"), [
    ("user_install_guild", True), ("group_dm", True), ("guild", False), ("bot_dm", False)])
async def test_the_fake_takes_five_follow_ups_of_an_interaction_only_the_user_installed(
    fake: FakeDiscord, bot: Any, context: str, limited: bool
) -> None:
    fake.rate_limiter.limits.routes.pop(FOLLOW_UPS)  # the webhook's own bucket aside
    where: dict[str, Any] = {"guild": None} if context == "bot_dm" else {}
    asked = await fake.command("alice", "rules", {"game": "trefoil"}, context=context, **where)
    async with aiohttp.ClientSession() as session:
        answers = [await follow_up(fake, asked.interaction, session)
                   for _ in range(USER_INSTALL_FOLLOWUPS + 1)]
    assert answers[:USER_INSTALL_FOLLOWUPS] == [(200, None)] * USER_INSTALL_FOLLOWUPS
    assert answers[-1] == ((400, 40094) if limited else (200, None))
    assert len(asked.interaction.followup_ids) == USER_INSTALL_FOLLOWUPS + (not limited)
    assert [p for p in fake.problems if "takes 5" in p] == ([fake.problems[-1]] if limited else [])


@pytest.mark.problems_expected
async def test_the_fake_takes_three_edits_in_six_seconds_of_a_channels_messages_an_hour_old(
    fake: FakeDiscord, bot: Any
) -> None:
    fake.rate_limiter.limits.routes.pop(CHANNEL_EDITS)  # the route's own bucket aside
    old, other = [await fake.command(name, "new", {"game": "trefoil", "deal": 4})
                  for name in ("alice", "bob")]
    fake.advance_clock(HOUR_S + 1)
    young = await fake.command("carol", "new", {"game": "trefoil", "deal": 4})
    channel = fake.guild.channel.id
    async with aiohttp.ClientSession() as session:
        taken = [await edit(fake, channel, old.message_id, session) for _ in range(3)]
        refused = await edit(fake, channel, old.message_id, session)
        also = await edit(fake, channel, other.message_id, session)
        fresh = await edit(fake, channel, young.message_id, session)
    assert [status for status, _ in taken] == [200, 200, 200]
    assert refused[0] == 429 and refused[1]["code"] == 30046, refused
    assert refused[1]["message"] == (
        "Maximum number of edits to messages older than 1 hour reached. Try again later")
    assert 0 < refused[1]["retry_after"] <= 6
    assert also[0] == 429, "the channel's edits of old messages, not the message's"
    assert fresh[0] == 200, "a message younger than an hour is edited as ever"
    assert [limited.scope for limited in fake.rate_limited] == ["old messages"] * 2
    assert fake.message(old.message_id).state().content == "edited"


async def test_earlier_boards_collapsed_an_hour_on_keep_to_what_old_messages_take(
    fake: FakeDiscord, bot: Any, clock: SkippingClock
) -> None:
    """Four players of one channel come back after an hour: each new board collapses the
    earlier one through the channel's route (its token is long gone), and the fourth of
    those hour-old messages waits its turn instead of being refused."""
    players = ("alice", "bob", "carol", "dana")
    earlier = [await fake.command(name, "new", {"game": "trefoil", "deal": 4})
               for name in players]
    later(fake, bot, clock, HOUR_S + 1)
    for name in players:
        await fake.command(name, "show")
    await fake.wait_until(
        lambda: all(fake.message(board.message_id).state().content == COLLAPSED
                    for board in earlier),
        timeout=15, what="every earlier board collapsed")
    paths = [path for method, path, status in fake.requests if method == "PATCH"]
    assert all(f"/channels/{fake.guild.channel.id}/messages/" in path for path in paths), paths
    assert len(paths) == len(players)


async def test_the_leader_closing_a_days_challenges_in_one_channel_shows_every_one(
    fake: FakeDiscord, bot: Any, clock: SkippingClock
) -> None:
    """Four challenges posted in one channel go unanswered for a day; the leader closes them
    at once, and each message, a day old, says how it ended, none refused."""
    pairs = [("alice", "bob"), ("carol", "dana"), ("olga", "alice"), ("bob", "carol")]
    asked = [await fake.command(challenger, "challenge", {"user": challenged, "game": "trefoil"})
             for challenger, challenged in pairs]
    later(fake, bot, clock, DAY_S + 1)

    def closed() -> list[bool]:
        return ["went unanswered for a day" in fake.message(m.message_id).state().content
                for m in asked]

    await fake.wait_until(lambda: all(closed()), timeout=20,
                          what="every challenge's message to say how it ended")
    assert all(not fake.message(m.message_id).state().components for m in asked)


async def test_a_player_of_a_user_install_is_answered_within_its_follow_ups(
    fake: FakeDiscord, bot: Any
) -> None:
    """Where only the player installed the app, each answer keeps within the 5 follow-ups
    an interaction takes: the help's second message, a board gone private under the public
    one its move was picked on."""
    where = {"context": "user_install_guild"}
    board = await fake.command("alice", "new", {"game": "trefoil", "deal": 4}, **where)
    helped = await fake.command("alice", "help", **where)
    await fake.command("alice", "settings", {"private_boards": True}, **where)
    picked = await fake.select("alice", board, values=[board.select.values[0]])
    assert "now keeps private" in picked.text and not picked.ephemeral
    [private] = await picked.interaction.wait_followups(1)  # the board, to its player alone
    assert private.ephemeral and private.attachments
    assert len(helped.interaction.followup_ids) == 1
    counts = [len(i.followup_ids) for i in fake.interactions.values()]
    assert max(counts) <= USER_INSTALL_FOLLOWUPS, counts
