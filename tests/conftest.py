"""Fixtures for every test package: a PostgreSQL server for the whole run (each worker's
own), started only when a test asks for it (``pg_url``); the pseudo-language (``pseudo``).
And how many workers run the suite (``-n auto``): one a CPU the tests may use."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from bot.config import usable_cpus
from bot.words.language import Words, install, uninstall
from tests import pg_server as pg_server_module
from tests.pg_server import PostgresServer
from tests.pseudo import pseudo_words


def pytest_xdist_auto_num_workers(config: pytest.Config) -> int:
    """A worker a CPU this process may use, as the bot counts them (its affinity and a
    container's CPU quota, where xdist would count the host's CPUs)."""
    return usable_cpus()


@pytest.fixture(scope="session")
def pg_server() -> Iterator[PostgresServer]:
    """One PostgreSQL server for the whole run, on loopback; skipped only where PostgreSQL
    is not installed (``.ci/run`` installs it)."""
    reason = pg_server_module.unavailable()
    if reason is not None:
        pytest.skip(f"needs a PostgreSQL server: {reason}")
    server = PostgresServer()
    try:
        server.start()
        yield server
    finally:
        server.stop()


@pytest.fixture
def pg_url(pg_server: PostgresServer) -> str:
    """A URL to an empty database of this test's own (a schema of the one server's
    database, chosen by the URL)."""
    return pg_server.create_database()


@pytest.fixture
def own_pg_server() -> Iterator[PostgresServer]:
    """A PostgreSQL server of the test's own, to stop and start again (``pause``,
    ``resume``) without disturbing the others' server."""
    reason = pg_server_module.unavailable()
    if reason is not None:
        pytest.skip(f"needs a PostgreSQL server: {reason}")
    server = PostgresServer()
    server.start()
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture
def pseudo() -> Iterator[Words]:
    """The pseudo-language ``en-XA`` (tests/pseudo.py: every message accented, marked and
    40% longer), spoken inside ``speaking("en-XA")`` or to a player whose language it is;
    forgotten after the test."""
    words = pseudo_words()
    install(words)
    try:
        yield words
    finally:
        uninstall(words.code)
