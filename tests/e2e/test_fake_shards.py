"""The fake Discord's shards, proven with tiny AutoShardedBot clients (tests/e2e/shard_client.py).

A guild's interactions go to the connection serving shard ``(guild_id >> 22) % count``, direct
messages to shard 0; READY and GUILD_CREATE carry only a shard's own guilds; a second
connection for a shard, or one with another shard count, is refused.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import sys
from collections.abc import AsyncIterator
from pathlib import Path

import discord
import pytest
from discord.ext import commands

from .fake_discord import FakeDiscord, shard_of
from .shard_client import ShardBot

REPO = Path(__file__).resolve().parents[2]


@pytest.fixture
async def fake_sharded() -> AsyncIterator[FakeDiscord]:
    fake = await FakeDiscord(shard_count=2).start()
    try:
        with fake.patch_discord():
            yield fake
    finally:
        await fake.close()


@contextlib.asynccontextmanager
async def running(bot: ShardBot, fake: FakeDiscord) -> AsyncIterator[asyncio.Task[None]]:
    """The client started against the fake until the block ends (the task ends with it)."""
    task = asyncio.create_task(bot.start(fake.token))
    try:
        yield task
    finally:
        await bot.close()
        with contextlib.suppress(Exception):
            await asyncio.wait_for(task, 5)


def test_the_two_standard_servers_are_on_different_shards_of_two() -> None:
    fake = FakeDiscord()
    assert shard_of(fake.guild.id, 2) == 0
    assert shard_of(fake.other_guild.id, 2) == 1
    assert shard_of(None, 2) == 0


async def test_one_client_runs_the_recommended_shards(fake_sharded: FakeDiscord) -> None:
    fake = fake_sharded
    bot = ShardBot("solo")  # no shard_count: asks GET /gateway/bot
    async with running(bot, fake):
        await fake.wait_shards(0, 1)
        await fake.wait_commands("where")
        assert bot.shard_count == 2
        by_shard = {s.shard_id: s for s in fake.live_sessions()}
        assert {s.shard for s in by_shard.values()} == {(0, 2), (1, 2)}
        assert by_shard[0].guild_ids == [fake.guild.id]
        assert by_shard[1].guild_ids == [fake.other_guild.id]
        here = await fake.command("alice", "where")
        there = await fake.command("erin", "where", guild=fake.other_guild)
        dm = await fake.command("erin", "where", guild=None)
        assert (here.shard_id, there.shard_id, dm.shard_id) == (0, 1, 0)
        assert "shard=0" in here.content and "shard=1" in there.content
        assert here.connection is by_shard[0] and there.connection is by_shard[1]
        assert here.connection.client_pid == there.connection.client_pid
    assert fake.problems == []


async def test_two_clients_split_the_shards_and_one_serves_on_alone(
    fake_sharded: FakeDiscord,
) -> None:
    fake = fake_sharded
    first = ShardBot("first", shard_count=2, shard_ids=[0])
    second = ShardBot("second", shard_count=2, shard_ids=[1], sync=False)
    async with running(first, fake):
        await fake.wait_shards(0)
        await fake.wait_commands("where")
        async with running(second, fake):
            await fake.wait_shards(1)
            await asyncio.wait_for(second.wait_until_ready(), 10)
            assert {g.name for g in first.guilds} == {"Solitaire Club"}
            assert {g.name for g in second.guilds} == {"Other Server"}
            here = await fake.command("alice", "where")
            there = await fake.command("alice", "where", guild=fake.other_guild)
            dm = await fake.command("alice", "where", guild=None)
            assert here.content.startswith("first ") and here.shard_id == 0
            assert there.content.startswith("second ") and there.shard_id == 1
            assert dm.content.startswith("first ") and dm.shard_id == 0
            assert here.connection.number != there.connection.number
            assert here.connection.client_pid == os.getpid()
        await fake.wait_until(
            lambda: [s.shard_id for s in fake.live_sessions()] == [0], what="shard 1 gone"
        )
        with pytest.raises(RuntimeError, match="no live gateway connection"):
            await fake.command("erin", "where", guild=fake.other_guild)
        still = await fake.command("bob", "where")
        assert still.content.startswith("first ") and still.shard_id == 0
        assert (await fake.command("bob", "where", guild=None)).shard_id == 0
    assert fake.problems == []


async def test_a_dropped_shard_resumes_on_its_own_shard(fake_sharded: FakeDiscord) -> None:
    fake = fake_sharded
    bot = ShardBot("solo", shard_count=2)
    async with running(bot, fake):
        await fake.wait_shards(0, 1)
        await fake.wait_commands("where")
        await fake.drop_gateway(shard=1)
        await fake.wait_until(lambda: fake.resumes == 1, what="RESUME")
        await fake.wait_shards(0, 1)
        assert fake.identifies == 2
        there = await fake.command("erin", "where", guild=fake.other_guild)
        assert there.shard_id == 1 and "shard=1" in there.content
    assert fake.problems == []


async def test_a_shard_twice_or_another_shard_count_is_refused(
    fake_sharded: FakeDiscord,
) -> None:
    fake = fake_sharded
    first = ShardBot("first", shard_count=2, shard_ids=[0])
    async with running(first, fake):
        await fake.wait_shards(0)
        twin = ShardBot("twin", shard_count=2, shard_ids=[0], sync=False)
        async with running(twin, fake) as task:
            with pytest.raises(discord.ConnectionClosed) as closed:
                await asyncio.wait_for(task, 10)
        assert closed.value.code == 4010
        assert fake.problems == [
            "IDENTIFY refused: shard [0, 2] is already served by connection #1"
        ]
        fake.problems.clear()
        odd = ShardBot("odd", shard_count=3, shard_ids=[1], sync=False)
        async with running(odd, fake) as task:
            with pytest.raises(discord.ConnectionClosed):
                await asyncio.wait_for(task, 10)
        assert len(fake.problems) == 1 and "shard counts disagree" in fake.problems[0]
        fake.problems.clear()
        unsharded = commands.Bot(command_prefix="!", intents=discord.Intents.default())
        task = asyncio.create_task(unsharded.start(fake.token))
        try:
            with pytest.raises(discord.ConnectionClosed):
                await asyncio.wait_for(task, 10)
        finally:
            await unsharded.close()
        assert fake.problems == [
            "IDENTIFY refused: shard [0, 1] while connection #1 runs shard [0, 2]: "
            "the shard counts disagree"
        ]
        assert [s.shard for s in fake.live_sessions()] == [(0, 2)]
        assert (await fake.command("alice", "where")).content.startswith("first ")


class ClientProcess:
    """``python -m tests.e2e.shard_client`` for some shards of two, in its own process."""

    def __init__(self, fake: FakeDiscord, name: str, shard_ids: str, log: Path) -> None:
        self.fake, self.name, self.shard_ids, self.log = fake, name, shard_ids, log
        self.proc: asyncio.subprocess.Process | None = None

    async def start(self, *, sync: bool) -> asyncio.subprocess.Process:
        env = {
            **os.environ,
            "FAKE_DISCORD_API": self.fake.api_base,
            "FAKE_DISCORD_GATEWAY": self.fake.gateway_url,
            "DISCORD_TOKEN": self.fake.token,
            "SHARD_COUNT": "2",
            "SHARD_IDS": self.shard_ids,
            "CLIENT_NAME": self.name,
            "SYNC_COMMANDS": "1" if sync else "0",
            "PYTHONPATH": str(REPO),
        }
        with self.log.open("ab") as out:
            self.proc = await asyncio.create_subprocess_exec(
                sys.executable,
                "-m",
                "tests.e2e.shard_client",
                cwd=self.log.parent,
                env=env,
                stdout=out,
                stderr=asyncio.subprocess.STDOUT,
            )
        return self.proc

    async def kill(self) -> None:
        if self.proc is not None and self.proc.returncode is None:
            self.proc.send_signal(signal.SIGKILL)
            await asyncio.wait_for(self.proc.wait(), 10)


async def test_two_client_processes_on_one_fake_and_one_killed(tmp_path: Path) -> None:
    fake = await FakeDiscord(shard_count=2).start()
    zero = ClientProcess(fake, "zero", "0", tmp_path / "zero.log")
    one = ClientProcess(fake, "one", "1", tmp_path / "one.log")
    try:
        proc_zero = await zero.start(sync=True)
        proc_one = await one.start(sync=False)
        try:
            await fake.wait_shards(0, 1, timeout=30)
            await fake.wait_commands("where", timeout=30)
        except AssertionError:
            raise AssertionError(zero.log.read_text() + one.log.read_text()) from None
        here = await fake.command("alice", "where")
        there = await fake.command("alice", "where", guild=fake.other_guild)
        dm = await fake.command("carol", "where", guild=None)
        assert here.content.startswith(f"zero pid={proc_zero.pid} shard=0")
        assert there.content.startswith(f"one pid={proc_one.pid} shard=1")
        assert dm.content.startswith(f"zero pid={proc_zero.pid}")
        if sys.platform == "linux":
            assert here.connection.client_pid == proc_zero.pid
            assert there.connection.client_pid == proc_one.pid
        await one.kill()
        await fake.wait_until(
            lambda: [s.shard_id for s in fake.live_sessions()] == [0], what="shard 1 gone"
        )
        still = await fake.command("bob", "where")
        assert still.content.startswith(f"zero pid={proc_zero.pid}")
        with pytest.raises(RuntimeError, match="no live gateway connection"):
            await fake.command("erin", "where", guild=fake.other_guild)
        assert fake.problems == []
    finally:
        await zero.kill()
        await one.kill()
        await fake.close()
