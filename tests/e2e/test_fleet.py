"""Promises that hold across a fleet: two bot processes (shards 0 and 1 of 2) on one
PostgreSQL, each a real process through the bot's entry point.

What one process changes about a player (settings, /forget-me, a cooldown) is true in the
other at once; exactly one process leads, through a database restart and a kill -9 of
the leader, and whoever takes the lead syncs changed commands; an outage is told to
players calmly and logged once each way; no secret is ever logged.
"""

from __future__ import annotations

import asyncio
import signal
from collections.abc import AsyncIterator, Callable
from pathlib import Path

import asyncpg
import pytest

from engine import new_game
from engine.solver import solve
from tests.pg_server import PostgresServer

from .fake_discord import FakeDiscord
from .harness import BotProcess
from .play import Mirror, board_of, move_options

SHARDS = (0, 1)


class Fleet:
    """Two bot processes, one per shard, on one database, against one fake Discord."""

    def __init__(self, fake: FakeDiscord, url: str, workdir: Path,
                 env: dict[str, str] | None = None) -> None:
        self.fake = fake
        self.url = url
        self.processes = [
            BotProcess(fake, workdir / "unused.db", workdir, name=f"shard{shard}",
                       env={"DATABASE_URL": url, "SHARD_COUNT": "2",
                            "SHARD_IDS": str(shard), **(env or {})})
            for shard in SHARDS
        ]

    async def start(self) -> None:
        for process in self.processes:
            await process.start()
        await self.fake.wait_shards(*SHARDS)
        await until(lambda: all("serving shards" in p.log() for p in self.processes),
                    "both processes serving")

    def leads(self, process: BotProcess) -> bool:
        """Whether the process leads now, by what its log says last."""
        log = process.log()
        taken = log.rfind("this process leads now")
        return taken >= 0 and taken > log.rfind("this process no longer leads")

    async def stop(self) -> None:
        for process in self.processes:
            if process.proc is not None and process.proc.returncode is None:
                await process.stop()


async def until(condition: Callable[[], bool], what: str, timeout: float = 20.0) -> None:
    for _ in range(int(timeout * 10)):
        if condition():
            return
        await asyncio.sleep(0.1)
    raise AssertionError(f"not within {timeout} s: {what}")


@pytest.fixture
async def fleet(pg_url: str, tmp_path: Path) -> AsyncIterator[Fleet]:
    fake = await FakeDiscord(shard_count=2).start()
    made = Fleet(fake, pg_url, tmp_path)
    try:
        await made.start()
        yield made
    finally:
        await made.stop()
        await fake.close()
    assert fake.problems == [], fake.problems
    assert fake.rate_limited == [], "the fleet went past Discord's rate limits"
    for process in made.processes:
        assert "Traceback" not in process.log(), process.log()


async def rows(url: str, sql: str, *args: object) -> list[asyncpg.Record]:
    conn = await asyncpg.connect(url)
    try:
        return list(await conn.fetch(sql, *args))
    finally:
        await conn.close()


async def test_settings_changed_through_one_process_hold_in_the_other(fleet: Fleet) -> None:
    fake = fleet.fake
    here, there = fake.guild, fake.other_guild  # shards 0 and 1: the two processes
    await fake.command("alice", "new", {"game": "trefoil", "deal": 5}, guild=here)
    shown = await fake.command("alice", "settings", guild=here)  # process 0 keeps them
    assert "Four-colour deck (♣ green, ♦ blue, ♥ red, ♠ black): **on**" in shown.text
    await fake.command("alice", "settings", {"four_colour": False, "private_boards": True},
                       guild=there)

    async def seen_here() -> str:
        return (await fake.command("alice", "settings", guild=here)).text

    text = await seen_here()
    for _ in range(20):  # the notice takes a few milliseconds
        if "**off**" in text:
            break
        await asyncio.sleep(0.05)
        text = await seen_here()
    assert "Four-colour deck (♣ green, ♦ blue, ♥ red, ♠ black): **off**" in text
    mirror = Mirror("trefoil", 5)
    move = mirror.first_move()
    played = await fake.command("alice", "move", move_options(move), guild=here)
    assert played.ephemeral and board_of(played).pngs, "process 0 draws it private now"


async def test_a_cooldown_holds_across_the_fleet(fleet: Fleet) -> None:
    fake = fleet.fake
    await fake.command("alice", "new", {"game": "corner-stones", "deal": 1},
                       guild=fake.guild)
    first = await fake.command("alice", "hint", guild=fake.guild)
    assert "Hint:" in first.text
    second = await fake.command("alice", "hint", guild=fake.other_guild)
    assert "One hint every 5 s" in second.text, "the other process knows of the first hint"


async def test_both_processes_deal_the_same_proven_winnable_daily_deal(fleet: Fleet) -> None:
    fake = fleet.fake
    here = await fake.command("alice", "daily", {"game": "clover-leaf"}, guild=fake.guild)
    assert "proven winnable" in here.text, here.text
    deal = int(board_of(here).text.split("deal ")[1].split()[0])
    there = await fake.command("alice", "daily", {"game": "clover-leaf"}, guild=fake.other_guild)
    # Shard 1 finds the same deal: it shows the board of it, where another deal would ask
    # first whether to leave this one.
    assert f"deal {deal} · 0 moves" in board_of(there).text, there.text
    assert solve(new_game("clover-leaf", deal), positions=200_000).status == "won"
    [kept] = await rows(fleet.url, "SELECT deal FROM daily_deals WHERE game = 'clover-leaf' "
                        "AND day = to_char(now() AT TIME ZONE 'UTC', 'YYYY-MM-DD')")
    assert kept["deal"] == deal, "kept once, for both"


async def test_forget_me_through_one_process_removes_the_player_from_both(
    fleet: Fleet,
) -> None:
    fake = fleet.fake
    alice = fake.users["alice"]
    await fake.command("alice", "settings", {"four_colour": False}, guild=fake.other_guild)
    await fake.command("alice", "new", {"game": "trefoil", "deal": 3}, guild=fake.other_guild)
    await fake.command("alice", "hint", guild=fake.other_guild)
    # A board posted through process 1, and at once, through process 0, everything deleted.
    await fake.command("alice", "move", move_options(Mirror("trefoil", 3).first_move()),
                       guild=fake.other_guild)
    asked = await fake.command("alice", "forget-me", guild=fake.guild)
    done = await fake.press("alice", asked, label="Delete everything")
    assert "gone from everything the bot shows at once" in done.text, "true on PostgreSQL"
    await asyncio.sleep(2.5)  # past process 1's write of the live boards
    for table in ("games", "results", "player_settings", "board_messages", "cooldowns",
                  "daily_attempts"):
        left = await rows(fleet.url, f"SELECT 1 FROM {table} WHERE user_id = $1", alice.id)
        assert left == [], f"{table} keeps alice"
    shown = await fake.command("alice", "settings", guild=fake.other_guild)
    assert "♠ black): **on**" in shown.text, "process 1 forgot her settings too"


async def test_privacy_and_forgetting_in_one_process_hold_for_the_others_messages(
    fleet: Fleet,
) -> None:
    """Alice, in both servers, acts through process 1; Bob sees through process 0."""
    fake = fleet.fake
    alice = fake.users["alice"]
    here, there = fake.guild, fake.other_guild
    await fake.command("alice", "new", {"game": "trefoil", "deal": 3}, guild=here)
    await fake.command("alice", "move", move_options(Mirror("trefoil", 3).first_move()),
                       guild=here)
    resigning = await fake.command("alice", "resign", guild=here)
    await fake.press("alice", resigning, label="Resign")
    await fake.command("alice", "settings", {"private_boards": True}, guild=there)
    refused = await fake.command("bob", "replay", {"user": "alice"}, guild=here)
    assert refused.ephemeral and "keeps their boards private" in refused.text, refused.text
    # A challenge waiting for her answer, in process 0's server; she is forgotten
    # through process 1: its message there is called off at once.
    asked = await fake.command("bob", "challenge", {"user": "alice", "game": "trefoil"},
                               guild=here)
    forget = await fake.command("alice", "forget-me", guild=there)
    await fake.press("alice", forget, label="Delete everything")
    await fake.wait_until(lambda: "called off" in fake.message(asked).state().content,
                          timeout=10, what="the challenge called off")
    ended = fake.message(asked).state()
    assert f"<@{alice.id}>" not in ended.content and ended.components == ()


async def test_no_secret_reaches_a_log(pg_url: str, tmp_path: Path) -> None:
    fake = await FakeDiscord().start()
    head, _, rest = pg_url.partition("@")
    url = f"{head}:s3cretInUrl@{rest}&password=s3cretAsOption"  # trust: any password will do
    bot = BotProcess(fake, tmp_path / "unused.db", tmp_path, name="secrets",
                     env={"DATABASE_URL": url, "PGPASSWORD": "s3cretInEnv"})
    try:
        await bot.start()
        await fake.command("alice", "new", {"game": "trefoil", "deal": 1})
    finally:
        await bot.stop()
        await fake.close()
    log = bot.log()
    assert "ready to deal: database postgresql://127.0.0.1:" in log
    for secret in ("s3cretInUrl", "s3cretAsOption", "s3cretInEnv", fake.token):
        assert secret not in log
    assert "PyNaCl" not in log and "davey" not in log, "no warning about voice, never used"


async def test_exactly_one_leads_through_a_database_restart_and_a_kill(
    own_pg_server: PostgresServer, tmp_path: Path
) -> None:
    fake = await FakeDiscord(shard_count=2).start()
    fleet = Fleet(fake, own_pg_server.url(), tmp_path)
    try:
        await fleet.start()
        assert sum(fleet.leads(p) for p in fleet.processes) == 1
        own_pg_server.pause()  # every session cut: the lease with it
        await asyncio.sleep(3)
        own_pg_server.resume()
        await until(lambda: sum(fleet.leads(p) for p in fleet.processes) == 1,
                    "one leader again after the restart")
        holders = await rows(own_pg_server.url(), "SELECT pid FROM pg_locks "
                                                  "WHERE locktype = 'advisory' AND granted")
        assert len(holders) == 1, "one lease held, by one session"
        # The commands change (a new version rolls out): the leader is killed outright,
        # and the other process, taking the lead, syncs them.
        await rows(own_pg_server.url(), "UPDATE meta SET value = 'an older version' "
                                        "WHERE key LIKE 'commands_hash:%'")
        writes = len(fake.command_writes)
        leader = next(p for p in fleet.processes if fleet.leads(p))
        other = next(p for p in fleet.processes if p is not leader)
        await leader.stop(sig=signal.SIGKILL)
        await until(lambda: fleet.leads(other), "the other process takes the lead")
        await until(lambda: len(fake.command_writes) > writes, "the new leader syncs")
    finally:
        await fleet.stop()
        await fake.close()


async def test_an_outage_is_calm_and_loses_nothing(
    own_pg_server: PostgresServer, tmp_path: Path
) -> None:
    fake = await FakeDiscord(shard_count=2).start()
    fleet = Fleet(fake, own_pg_server.url(), tmp_path)
    try:
        await fleet.start()
        mirror = Mirror("trefoil", 8)
        await fake.command("alice", "new", {"game": "trefoil", "deal": 8}, guild=fake.guild)
        move = mirror.first_move()
        await fake.command("alice", "move", move_options(move), guild=fake.guild)
        mirror.play(move)
        own_pg_server.pause()
        for guild in (fake.guild, fake.other_guild, fake.guild):
            down = await fake.command("alice", "move", move_options(mirror.first_move()),
                                      guild=guild)
            assert down.ephemeral and "unreachable for a moment; nothing was played" in down.text
        await asyncio.sleep(2)
        own_pg_server.resume()
        await asyncio.sleep(1)
        shown = await fake.command("alice", "show", guild=fake.guild)
        mirror.check_board(shown, fake.users["alice"].id)  # the one acknowledged move
        move = mirror.first_move()
        again = await fake.command("alice", "move", move_options(move), guild=fake.other_guild)
        mirror.play(move)
        mirror.check_board(again, fake.users["alice"].id)
    finally:
        await fleet.stop()
        await fake.close()
    for process in fleet.processes:
        log = process.log()
        assert log.count("is unreachable") == 1, log
        assert log.count("is reachable again, after") == 1, log
        assert "Traceback" not in log and " ERROR " not in log, log
