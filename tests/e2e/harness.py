"""Run the real bot, unmodified, against the fake Discord: in this process or in a new one.

In-process (fast, for most tests): discord.py's two addresses are patched in this process,
then ``bot.discord.client.SolitaireBot`` starts with a fake token and a temporary database, as
``run_bot`` would start it.

Subprocess (for restarts): ``python -m tests.e2e.launch_bot`` patches the same two addresses
from the environment and calls the bot's normal entry point, ``bot.__main__.main``; the
settings go in through the environment, as in production.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import sys
import time
from collections.abc import AsyncIterator, Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

from ..bot.store_support import without_daily_secret
from .fake_discord import FakeDiscord

REPO = Path(__file__).resolve().parents[2]


@contextlib.asynccontextmanager
async def bot_in_process(
    fake: FakeDiscord,
    database: Path | str,
    *,
    dev_guild_id: int | None = None,
    force_sync: bool = False,
    timeout: float = 20.0,
    clock: Callable[[], float] = time.time,
    activity: bool = False,
) -> AsyncIterator[Any]:
    """The bot, logged in to the fake and connected to its gateway, until the block ends;
    ``database`` is a SQLite file or a PostgreSQL URL; ``clock`` gives its Unix seconds
    (games, statistics, the daily deal's day); ``activity``: the Activity's sign-in is set
    up (DISCORD_CLIENT_ID and DISCORD_CLIENT_SECRET), though its page is not served here."""
    from bot.config import Config
    from bot.core import Core
    from bot.discord.client import SolitaireBot

    url = database if isinstance(database, str) else None
    config = Config(
        token=fake.token, database_path=Path(database) if url is None else Path("unused.db"),
        database_url=url, dev_guild_id=dev_guild_id, log_level="INFO",
        render_processes=0,  # pictures in this process's threads: tests patch the renderer
        client_id=str(fake.application_id) if activity else None,
        client_secret=fake.client_secret if activity else None,
    )
    core = await Core.open(config.database, clock=clock)
    await without_daily_secret(core.stores)  # the days whose winning lines tests know
    with fake.patch_discord():
        bot = SolitaireBot(config, core, force_sync=force_sync)
        before = fake.identifies
        task = asyncio.create_task(bot.start(fake.token), name="bot under test")
        try:
            connected = asyncio.create_task(
                fake.wait_connected(identifies=before + 1, timeout=timeout)
            )
            done, _ = await asyncio.wait({task, connected}, return_when=asyncio.FIRST_COMPLETED)
            if task in done:  # the bot stopped before connecting: show why
                connected.cancel()
                task.result()
                raise RuntimeError("the bot stopped before connecting to the fake gateway")
            connected.result()
            yield bot
        finally:
            await bot.close()
            with contextlib.suppress(asyncio.CancelledError):
                await asyncio.wait_for(task, 10)


class BotProcess:
    """``python -m tests.e2e.launch_bot`` in a new process, its output in ``log_path``.
    ``module``: another bot to run the same way (``bench_bot --ceiling`` runs a minimal one)."""

    def __init__(
        self,
        fake: FakeDiscord,
        database: Path,
        workdir: Path,
        *,
        dev_guild_id: int | None = None,
        args: Sequence[str] = (),
        name: str = "bot",
        env: Mapping[str, str] | None = None,
        module: str = "tests.e2e.launch_bot",
    ) -> None:
        self.fake = fake
        self.module = module
        self.extra_env = dict(env or {})  # more settings: DATABASE_URL, SHARD_COUNT, ...
        self.database = database
        self.workdir = workdir
        self.dev_guild_id = dev_guild_id
        self.args = list(args)
        self.log_path = workdir / f"{name}.log"
        self.proc: asyncio.subprocess.Process | None = None

    def environment(self) -> dict[str, str]:
        env = {k: v for k, v in os.environ.items() if not k.startswith(("DISCORD_", "DEV_GUILD"))}
        env.update(
            FAKE_DISCORD_API=self.fake.api_base,
            FAKE_DISCORD_GATEWAY=self.fake.gateway_url,
            DISCORD_TOKEN=self.fake.token,
            DATABASE_PATH=str(self.database),
            LOG_LEVEL="INFO",
            PYTHONPATH=os.pathsep.join([str(REPO), env.get("PYTHONPATH", "")]).rstrip(os.pathsep),
            PYTHONUNBUFFERED="1",
            PYTHONFAULTHANDLER="1",  # SIGABRT on a hung bot writes every thread's stack
        )
        if self.dev_guild_id is not None:
            env["DEV_GUILD_ID"] = str(self.dev_guild_id)
        env.update(self.extra_env)
        return env

    async def start(self, *, timeout: float = 30.0) -> None:
        """Start the process (in ``workdir``, so no stray .env is read) and wait until it
        has identified on the fake gateway."""
        before = self.fake.identifies
        with self.log_path.open("ab") as log:
            self.proc = await asyncio.create_subprocess_exec(
                sys.executable,
                "-m",
                self.module,
                *self.args,
                cwd=self.workdir,
                env=self.environment(),
                stdout=log,
                stderr=asyncio.subprocess.STDOUT,
            )
        waiting = asyncio.create_task(
            self.fake.wait_connected(identifies=before + 1, timeout=timeout)
        )
        exited = asyncio.create_task(self.proc.wait())
        done, _ = await asyncio.wait({waiting, exited}, return_when=asyncio.FIRST_COMPLETED)
        if exited in done:
            waiting.cancel()
            raise RuntimeError(
                f"the bot process exited with {self.proc.returncode} before connecting:\n"
                + self.log()
            )
        exited.cancel()
        waiting.result()

    async def stop(self, *, sig: int = signal.SIGTERM, timeout: float = 15.0) -> int:
        """Send ``sig`` (SIGKILL: a crash) and wait for the process to end; its exit code."""
        proc = self.proc
        assert proc is not None
        if proc.returncode is None:
            proc.send_signal(sig)
            try:
                await asyncio.wait_for(proc.wait(), timeout)
            except TimeoutError:
                proc.send_signal(signal.SIGABRT)  # the stacks of every thread, into the log
                try:
                    await asyncio.wait_for(proc.wait(), 5)
                except TimeoutError:
                    proc.kill()
                    await proc.wait()
                raise AssertionError(
                    f"the bot did not stop on signal {sig}:\n{self.log()}"
                ) from None
        assert proc.returncode is not None
        return proc.returncode

    def log(self) -> str:
        try:
            return self.log_path.read_text(encoding="utf-8", errors="replace")
        except FileNotFoundError:
            return ""
