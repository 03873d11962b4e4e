"""Fixtures for the page's tests: the page's server over a real core on a SQLite file, in
this test's event loop, and a real browser (Playwright driving Debian's ``chromium``)."""

from __future__ import annotations

import contextlib
import shutil
import subprocess
from collections.abc import AsyncIterator
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import aiohttp
import pytest
import pytest_asyncio

from bot.config import Config
from bot.core import Core
from bot.web.running import Serving, start_web
from bot.web.server import STATIC
from bot.web.signin import DISCORD_API, Instances, Members
from bot.web.view import ChannelBoards
from tests.e2e.fake_discord import FakeDiscord

CHROMIUM = "/usr/bin/chromium"  # Debian's package; Playwright's own download is not used
PAGE = STATIC.parent / "page"  # the page's TypeScript source, its lock and its tools


@dataclass
class Web:
    """The page's server, and a way to call it as the page does."""

    core: Core
    serving: Serving
    http: aiohttp.ClientSession

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.serving.port}/"

    async def call(self, path: str, body: dict[str, Any] | None = None, *,
                   session: str | None = None, status: int = 200) -> Any:
        headers = {"Authorization": f"Bearer {session}"} if session else {}
        method = "POST" if body is not None else "GET"
        async with self.http.request(method, self.url + path, json=body,
                                     headers=headers) as response:
            assert response.status == status, (response.status, await response.text())
            return await response.json() if response.content_type == "application/json" \
                else await response.text()

    async def dev_session(self, user: int, locale: str = "en-US") -> str:
        signed = await self.call("api/dev/signin", {"user": str(user), "locale": locale})
        return str(signed["session"])


@pytest.fixture
def web_config(tmp_path: Path) -> Config:
    return Config(database_path=tmp_path / "web.db", web_port=0, render_processes=0)


@pytest.fixture
async def serve(web_config: Config) -> AsyncIterator[Any]:
    """``await serve(dev=True, ...)``: the page's server over a core of its own."""
    started: list[Web] = []

    async def start(*, dev: bool = True, config: Config | None = None, api: str = DISCORD_API,
                    channels: ChannelBoards | None = None,
                    members: Members | None = None,
                    instances: Instances | None = None) -> Web:
        config = config or web_config
        core = await Core.open(config.database, render_processes=0)
        serving = await start_web(core, config, dev=dev, api=api, channels=channels,
                                   members=members, instances=instances)
        web = Web(core, serving, aiohttp.ClientSession())
        started.append(web)
        return web

    yield start
    for web in started:
        await web.http.close()
        await web.serving.close()
        await web.core.close()


@pytest.fixture
async def fake() -> AsyncIterator[FakeDiscord]:
    """The fake Discord, for its OAuth2 and its members."""
    server = await FakeDiscord().start()
    try:
        yield server
    finally:
        await server.close()


@pytest.fixture
async def discord_web(serve: Any, web_config: Config, fake: FakeDiscord) -> Web:
    """The page's server as inside Discord: no dev mode, the fake's OAuth2."""
    config = replace(web_config, client_id=str(fake.application_id),
                     client_secret=fake.client_secret)
    served: Web = await serve(dev=False, config=config, api=fake.api_base)
    return served


@pytest.fixture
async def web(serve: Any) -> Web:
    return await serve()  # type: ignore[no-any-return]


def browser_missing() -> str | None:
    try:
        import playwright  # noqa: F401
    except ImportError:
        return "Playwright is not installed (the dev extra: requirements-dev.lock)"
    if shutil.which(CHROMIUM) is None:
        return f"{CHROMIUM} is missing (apt-get install chromium; .ci/run does it)"
    return None


@contextlib.asynccontextmanager
async def chromium() -> AsyncIterator[Any]:
    """Debian's Chromium, driven by Playwright, for as long as the ``with`` lasts (the test
    is skipped where either is missing)."""
    reason = browser_missing()
    if reason is not None:
        pytest.skip(f"needs a real browser: {reason}")
    from playwright.async_api import async_playwright

    async with async_playwright() as playwright:
        launched = await playwright.chromium.launch(executable_path=CHROMIUM,
                                                    args=["--no-sandbox"])
        try:
            yield launched
        finally:
            await launched.close()


@pytest.fixture
async def browser() -> AsyncIterator[Any]:
    async with chromium() as launched:
        yield launched


def with_port(config: Config, port: int) -> Config:
    return replace(config, web_port=port)


def npm() -> str:
    found = shutil.which("npm")
    if found is None:
        pytest.skip("needs npm to install the page's tools (apt-get install npm; .ci/run does it)")
    return found


def run_npm(folder: Path, *args: str) -> None:
    done = subprocess.run([npm(), *args], cwd=folder, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, (
        f"npm {' '.join(args)}:\n{done.stdout[-6000:]}\n{done.stderr[-3000:]}")


@pytest.fixture(scope="session")
def page_copy(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The page's committed source, installed from its lock (``npm ci``) once for every test
    that needs it: in ``<tmp>/page``, its build going to ``<tmp>/static`` as the real one
    goes to bot/web/static."""
    root = tmp_path_factory.mktemp("installed")
    copy = root / "page"
    npm()
    shutil.copytree(PAGE, copy, ignore=shutil.ignore_patterns("node_modules"))
    (root / "static").mkdir()
    run_npm(copy, "ci", "--no-audit", "--no-fund")
    return copy


@pytest.fixture(scope="session")
def axe_script(page_copy: Path) -> str:
    """axe-core (Deque's accessibility rules, an npm package of the page's lock), to run in
    a page the tests open."""
    return (page_copy / "node_modules" / "axe-core" / "axe.min.js").read_text(encoding="utf-8")


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def module_web(tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[Web]:
    """One page's server, in dev mode over a core of its own, for every test of a module
    (each test plays as players of its own)."""
    config = Config(database_path=tmp_path_factory.mktemp("web") / "web.db", web_port=0,
                    render_processes=0)
    core = await Core.open(config.database, render_processes=0)
    serving = await start_web(core, config, dev=True)
    web = Web(core, serving, aiohttp.ClientSession())
    try:
        yield web
    finally:
        await web.http.close()
        await serving.close()
        await core.close()


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def module_browser() -> AsyncIterator[Any]:
    """One Chromium for every test of a module (each test opens a context of its own)."""
    async with chromium() as launched:
        yield launched
