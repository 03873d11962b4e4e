"""Beyond one process: two bot processes, serving shards 0 and 1 of 2, on one PostgreSQL.

A player's two servers lie on different shards, so each move goes to whichever process
serves that server; the game is one, in the database. The same move sent through both at
once is applied once. A process killed outright loses no acknowledged move, the other
keeps serving, and the restarted one picks up where the game is.
"""

from __future__ import annotations

import asyncio
import signal
from pathlib import Path

from engine import IllegalMove

from .fake_discord import FakeDiscord
from .harness import BotProcess
from .play import Mirror, move_options


def once_only(mirror: Mirror) -> str:
    """A legal move whose text is no longer legal right after it is played."""
    for move in mirror.game.legal_moves():
        trial = mirror.game.copy()
        trial.play(move)
        try:
            trial.resolve(str(move))
        except IllegalMove:
            return str(move)
    raise AssertionError("every move here could be played twice: pick another deal")


async def test_two_shard_processes_share_one_game_in_postgresql(
    pg_url: str, tmp_path: Path
) -> None:
    fake = await FakeDiscord(shard_count=2).start()
    processes = [
        BotProcess(
            fake, tmp_path / "unused.db", tmp_path, name=f"shard{shard}",
            env={"DATABASE_URL": pg_url, "SHARD_COUNT": "2", "SHARD_IDS": str(shard)},
        )
        for shard in (0, 1)
    ]
    try:
        for process in processes:
            await process.start()
        await fake.wait_shards(0, 1)
        for _ in range(100):  # each says which shards it serves once they are ready
            logs = [p.log() for p in processes]
            if all(f"serving shards [{i}] of 2" in log for i, log in enumerate(logs)):
                break
            await asyncio.sleep(0.1)
        assert "serving shards [0] of 2" in logs[0] and "serving shards [1] of 2" in logs[1]
        assert sum("this process leads now" in log for log in logs) == 1, logs

        alice = fake.users["alice"]
        servers = [fake.guild, fake.other_guild]  # on shards 0 and 1
        mirror = Mirror("trefoil", 5)
        reply = await fake.command(alice, "new", {"game": "trefoil", "deal": 5}, guild=servers[0])
        assert reply.shard_id == 0
        mirror.check_board(reply, alice.id)
        for turn in range(4):  # alternate between the two servers, so the two processes
            move = mirror.first_move()
            reply = await fake.command(alice, "move", move_options(move), guild=servers[turn % 2])
            assert reply.shard_id == turn % 2
            mirror.play(move)
            mirror.check_board(reply, alice.id)

        # The same move through both processes at once: applied once. (A move that cannot
        # be played twice in a row, so that sent one after the other it is refused too.)
        move = once_only(mirror)
        both = [
            fake.start_command(alice, "move", move_options(move), guild=server)
            for server in servers
        ]
        for interaction in both:
            await fake.send_interaction(interaction)
        answers = await asyncio.gather(*(interaction.reply() for interaction in both))
        boards = [a for a in answers if a.pngs]
        assert len(boards) == 1, [a.text for a in answers]
        refused = next(a for a in answers if not a.pngs)
        assert refused.ephemeral and "Sorry" not in refused.text, refused.text
        mirror.play(move)
        shown = await fake.command(alice, "show", guild=servers[1])
        mirror.check_board(shown, alice.id)

        # kill -9 the process of shard 1: the acknowledged moves are all there.
        await processes[1].stop(sig=signal.SIGKILL)
        move = mirror.first_move()
        reply = await fake.command(alice, "move", move_options(move), guild=servers[0])
        mirror.play(move)
        mirror.check_board(reply, alice.id)  # shard 0 keeps serving

        await processes[1].start()  # restarted, it picks up where the game is
        await fake.wait_shards(1)
        move = mirror.first_move()
        reply = await fake.command(alice, "move", move_options(move), guild=servers[1])
        assert reply.shard_id == 1
        mirror.play(move)
        mirror.check_board(reply, alice.id)
    finally:
        for process in processes:
            if process.proc is not None and process.proc.returncode is None:
                await process.stop()
        await fake.close()
    assert fake.problems == [], fake.problems
    assert fake.rate_limited == [], "the processes went past Discord's rate limits"
