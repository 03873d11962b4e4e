"""Fixtures: a fake Discord per test, and the real bot connected to it with a fresh database.

Every test ends by checking that nothing went wrong out of sight: the fake refused nothing
(no unknown route, no late or double answer, no over-limit message), answered no 429 (it
keeps Discord's rate limits) and the bot logged no error. A test that provokes either says so with ``@pytest.mark.problems_expected``.
"""

from __future__ import annotations

import logging
import time
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import pytest

from .fake_discord import FakeDiscord
from .harness import bot_in_process


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers", "problems_expected: the test provokes refusals or logged errors on purpose"
    )


class ErrorLog(logging.Handler):
    """Every record at ERROR or above, from the bot and from discord.py."""

    def __init__(self) -> None:
        super().__init__(logging.ERROR)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        if record.name.startswith(("bot", "discord", "render", "engine")):
            self.records.append(record)

    def lines(self) -> list[str]:
        return [f"{r.name}: {r.getMessage()}" for r in self.records]


@pytest.fixture
def error_log() -> Iterator[ErrorLog]:
    handler = ErrorLog()
    root = logging.getLogger()
    root.addHandler(handler)
    try:
        yield handler
    finally:
        root.removeHandler(handler)


@pytest.fixture
async def fake(request: pytest.FixtureRequest, error_log: ErrorLog) -> AsyncIterator[FakeDiscord]:
    server = await FakeDiscord(strict_ephemeral=True).start()  # no one presses another's private message
    try:
        yield server
    finally:
        await server.close()
    if request.node.get_closest_marker("problems_expected") is None:
        assert server.problems == [], "the fake Discord refused something"
        assert server.rate_limited == [], "the bot went past Discord's rate limits"
        assert error_log.lines() == [], "the bot logged errors"


@pytest.fixture
def database(tmp_path: Path) -> Path:
    return tmp_path / "solitaire.db"


@pytest.fixture(params=["sqlite", "postgresql"])
def any_database(request: pytest.FixtureRequest, tmp_path: Path) -> Path | str:
    """A database on each backend in turn, for what the bot tells a player that the store
    decides (a test module overrides ``database`` with it): a SQLite file, a PostgreSQL
    URL."""
    if request.param == "sqlite":
        return tmp_path / "solitaire.db"
    return str(request.getfixturevalue("pg_url"))


class SkippingClock:
    """The bot's clock: Unix time, plus whatever a test skips ahead (``skip``), so that a
    test can ask again past a cooldown without waiting for it."""

    def __init__(self) -> None:
        self.skipped = 0.0

    def __call__(self) -> float:
        return time.time() + self.skipped

    def skip(self, seconds: float) -> None:
        self.skipped += seconds


@pytest.fixture
def clock() -> SkippingClock:
    return SkippingClock()


@pytest.fixture
async def bot(
    fake: FakeDiscord, database: Path | str, clock: SkippingClock
) -> AsyncIterator[Any]:
    async with bot_in_process(fake, database, clock=clock) as running:
        yield running
