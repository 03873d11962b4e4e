"""The operator's port of a process (``METRICS_PORT``): its metrics for Prometheus, and its
health for the orchestrator that runs it (compose's health checks, Kubernetes' probes).

- ``GET /metrics``: Prometheus's text format (``metrics.py``).
- ``GET /healthz``: 200 while the process's event loop answers (a liveness probe: restart
  it when this fails).
- ``GET /readyz``: 200 when the process can serve players: a shard process connected to
  Discord's gateway and its database answering; a page process, its database answering.
  Else 503, saying what is missing (a readiness probe: send it no traffic meanwhile).

It runs in the process's own event loop, so a loop blocked for long fails ``/healthz`` too.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable

from aiohttp import web
from prometheus_client import CONTENT_TYPE_LATEST, REGISTRY, generate_latest

log = logging.getLogger(__name__)

# What is missing for the process to serve players (None: nothing, it is ready).
Readiness = Callable[[], Awaitable[str | None]]


class OpsServer:
    """Serving on ``host``:``port`` once ``start`` returns; ``close`` stops it."""

    def __init__(self, ready: Readiness, host: str, port: int) -> None:
        self._ready = ready
        self.host, self.port = host, port
        self._runner: web.AppRunner | None = None

    async def start(self) -> None:
        app = web.Application()
        app.router.add_get("/metrics", self._metrics)
        app.router.add_get("/healthz", self._alive)
        app.router.add_get("/readyz", self._readiness)
        self._runner = web.AppRunner(app, access_log=None)
        await self._runner.setup()
        site = web.TCPSite(self._runner, self.host, self.port)
        await site.start()
        if self.port == 0:  # a port of the system's choosing (tests)
            self.port = self._runner.addresses[0][1]
        log.info("metrics and health on http://%s:%d (/metrics, /healthz, /readyz)",
                 self.host, self.port)

    async def close(self) -> None:
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    async def _metrics(self, request: web.Request) -> web.Response:
        body = generate_latest(REGISTRY)
        return web.Response(body=body, headers={"Content-Type": CONTENT_TYPE_LATEST})

    async def _alive(self, request: web.Request) -> web.Response:
        return web.Response(text="alive\n")

    async def _readiness(self, request: web.Request) -> web.Response:
        missing = await self._ready()
        if missing is None:
            return web.Response(text="ready\n")
        return web.Response(text=f"not ready: {missing}\n", status=503)


async def serve_ops(host: str, port: int | None, ready: Readiness) -> OpsServer | None:
    """The operator's port, started, if ``port`` is set (``METRICS_PORT``); else None."""
    if port is None:
        return None
    server = OpsServer(ready, host, port)
    await server.start()
    return server
