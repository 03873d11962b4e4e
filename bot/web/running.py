"""Starting the page's server: inside the bot's process (the small bot's one command), or as
a process of its own (``python -m bot --web``: a large bot's, beside its shard processes, on
the same database; ``--web --dev``: on loopback, outside Discord, for development)."""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import signal
from collections.abc import Callable
from contextlib import AbstractAsyncContextManager
from dataclasses import dataclass
from typing import Protocol

from aiohttp import web

from ..config import Config
from ..core import ANSWERS_FINISH_S, Core
from ..ops.serve import serve_ops
from .refusals import is_loopback
from .server import WebServer
from .sessions import Sessions
from .signin import Instances, Members, SignIn
from .view import ChannelBoards

log = logging.getLogger(__name__)

# A connection that sends nothing for this long is closed: one opened and left silent, one
# idle between requests, one whose headers trickle in (the page's socket, once open, is
# kept by its heartbeat: live.HEARTBEAT_S).
# A slow body is the server's own to cut short (bodies.BODY_READ_S).
IDLE_S = 20.0
# After an answer that closes the connection before its body was all read (a 408), what
# still comes is read and dropped for this long, so the client hears the answer rather
# than a reset; then the connection is closed whatever still trickles in.
LINGER_S = 2.0


class BotSide(Protocol):
    """What the page's own process gets from Discord with the bot's token: the player's
    boards in channels, who is a member of a server, and who is at an Activity's table."""

    @property
    def channels(self) -> ChannelBoards: ...

    @property
    def members(self) -> Members: ...

    @property
    def instances(self) -> Instances: ...


class WebRefused(Exception):
    """The settings do not allow the page to be served: the message says why."""


@dataclass
class Serving:
    runner: web.AppRunner
    signin: SignIn | None

    @property
    def port(self) -> int:
        """The port served (WEB_PORT, or the one the system chose for 0)."""
        return int(self.runner.addresses[0][1])

    async def close(self) -> None:
        await self.runner.cleanup()
        if self.signin is not None:
            await self.signin.close()


async def _store_ready(core: Core) -> str | None:
    """A page process is ready while its database answers."""
    return None if await core.store_answers() else "the database does not answer"


def web_ready(config: Config, *, dev: bool) -> bool:
    """Whether the page can be served with ``config``: Discord's sign-in set up, or dev mode
    on loopback. Raises ``WebRefused`` for dev mode anywhere else."""
    if dev and not is_loopback(config.web_host):
        raise WebRefused(f"--dev signs anyone in as any user, so it serves on loopback only "
                         f"(WEB_HOST=127.0.0.1), not on {config.web_host}.")
    return dev or config.activity


async def start_web(core: Core, config: Config, *, dev: bool = False, api: str | None = None,
                    channels: ChannelBoards | None = None,
                    members: Members | None = None,
                    instances: Instances | None = None) -> Serving:
    """Serve the page on WEB_HOST:WEB_PORT over ``core`` until ``close``. ``members`` and
    ``instances``: ask Discord with the bot's token (None: no token, so the page's games
    count in no server, and it plays at no table).
    ``api``: Discord's API for signing in (None: ``signin.DISCORD_API``)."""
    signin = None
    if config.client_id is not None and config.client_secret is not None:
        signin = SignIn(config.client_id, config.client_secret, api=api)
    server = WebServer(core, Sessions(config.web_secret), signin=signin, dev=dev,
                       channels=channels, members=members, instances=instances,
                       trusted=config.web_trusted_proxies)
    # Stopping, the requests under way are answered (as long as a shard waits for its own).
    runner = web.AppRunner(server.app(), access_log=None, keepalive_timeout=IDLE_S,
                           lingering_time=LINGER_S, shutdown_timeout=ANSWERS_FINISH_S)
    await runner.setup()
    await web.TCPSite(runner, config.web_host, config.web_port).start()
    serving = Serving(runner, signin)
    log.info("the page is served at http://%s:%d/%s", config.web_host, serving.port,
             " (dev mode: sign in with /?dev_user=<id>, at a table with &instance=<name>)" if dev
             else "")
    return serving


async def run_web(
    config: Config, *, dev: bool,
    bot: Callable[[], AbstractAsyncContextManager[BotSide]] | None = None,
) -> int:
    """The page's own process: until SIGTERM, SIGINT (Ctrl-C) or SIGHUP. 0 when done, 2
    when the settings do not allow it (said why). ``bot``: Discord's side with the bot's
    token, opened for as long as the page is served (None: the player's boards in channels
    stay as they are, and the page's games count in no server)."""
    try:
        ready = web_ready(config, dev=dev)
    except WebRefused as err:
        log.error("%s", err)
        return 2
    if not ready:
        log.error("The page needs DISCORD_CLIENT_ID and DISCORD_CLIENT_SECRET (Developer "
                  "Portal > your application > OAuth2), or --dev to try it on loopback.")
        return 2
    core = await Core.open(config.database, render_processes=config.render_processes)
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP):
        with contextlib.suppress(NotImplementedError):
            loop.add_signal_handler(sig, stop.set)
    try:
        async with contextlib.AsyncExitStack() as opened:
            side = None if bot is None else await opened.enter_async_context(bot())
            ops = await serve_ops(config.metrics_host, config.metrics_port,
                                  functools.partial(_store_ready, core))
            if ops is not None:
                opened.push_async_callback(ops.close)
            serving = await start_web(core, config, dev=dev,
                                      channels=None if side is None else side.channels,
                                      members=None if side is None else side.members,
                                      instances=None if side is None else side.instances)
            try:
                await stop.wait()
            finally:
                await serving.close()
    finally:
        await core.close()
    return 0
