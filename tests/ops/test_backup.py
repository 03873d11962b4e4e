"""``python -m bot --backup FILE``: a copy of the live SQLite file that loses no acknowledged
move while another process plays on, restored as docs/OPERATING.md says; and every refusal,
which writes nothing."""

from __future__ import annotations

import contextlib
import errno
import os
import shlex
import shutil
import sqlite3
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import IO, Any

import pytest

from bot.__main__ import main
from bot.store import Stores
from bot.store.backup import back_up, without_password
from bot.store.sqlite import SCHEMA_VERSION
from engine import new_game
from tests.pg_server import PostgresServer, bin_dir

ROOT = Path(__file__).resolve().parents[2]
PLAYERS = 100
BACKUPS = 3


class Acknowledged:
    """What the writer's process has acknowledged so far, read from its output as it comes
    (by a thread, so that the writer never waits on a full pipe): each player's latest game
    row and revision."""

    def __init__(self, output: IO[str]) -> None:
        self.latest: dict[int, tuple[int, int]] = {}
        self.count = 0
        self.ended = False
        self._news = threading.Condition()
        self._reader = threading.Thread(target=self._read, args=(output,), daemon=True)
        self._reader.start()

    def _read(self, output: IO[str]) -> None:
        for line in output:
            if not line.endswith("\n"):
                break  # half a line: the writer was killed as it printed it
            user, game, revision = map(int, line.split())
            with self._news:
                self.latest[user] = (game, revision)
                self.count += 1
                self._news.notify_all()
        with self._news:
            self.ended = True
            self._news.notify_all()

    def after(self, count: int) -> None:
        """Wait until ``count`` changes in all were acknowledged."""
        with self._news:
            self._news.wait_for(lambda: self.count >= count or self.ended)
            assert not self.ended, "the writer stopped (its log is in the test's folder)"

    def so_far(self) -> dict[int, tuple[int, int]]:
        """Each player's latest change acknowledged so far: their game row and revision."""
        with self._news:
            return dict(self.latest)


class Writer:
    """A process playing on the database through the bot's store, as the bot would."""

    def __init__(self, database: Path, log: IO[str]) -> None:
        self.database = database
        self._process = subprocess.Popen(
            [sys.executable, "-m", "tests.ops.backup_writer", str(database), str(PLAYERS)],
            cwd=ROOT, stdout=subprocess.PIPE, stderr=log, text=True,
        )
        assert self._process.stdout is not None
        self.acknowledged = Acknowledged(self._process.stdout)

    def kill(self) -> None:
        """Stop it as a bot killed outright: its write-ahead log left behind."""
        self._process.kill()
        self._process.wait()


@pytest.fixture
def writer(tmp_path: Path) -> Iterator[Writer]:
    with (tmp_path / "writer.log").open("w") as log:
        playing = Writer(tmp_path / "data" / "solitaire.db", log)
        try:
            yield playing
        finally:
            playing.kill()


def backing_up(folder: Path, database: Path, target: Path) -> subprocess.CompletedProcess[str]:
    """``python -m bot --backup target`` in a process of its own, run as an operator would
    (from ``folder``, with the bot's settings in the environment)."""
    return subprocess.run(
        [sys.executable, "-m", "bot", "--backup", str(target), "--env-file", "none"],
        cwd=folder, env={"DATABASE_PATH": str(database), "PYTHONPATH": str(ROOT)},
        capture_output=True, text=True,
    )


def rows(database: Path, sql: str) -> list[tuple[Any, ...]]:
    with contextlib.closing(sqlite3.connect(f"{database.as_uri()}?mode=ro", uri=True)) as db:
        return db.execute(sql).fetchall()


def assert_holds(backup: Path, acknowledged: dict[int, tuple[int, int]]) -> None:
    """Every change acknowledged is in ``backup``: each player's game at its revision or
    later, or, replaced since, its result recorded."""
    assert rows(backup, "PRAGMA integrity_check") == [("ok",)]
    games = {user: (game, revision)
             for user, game, revision in rows(backup, "SELECT user_id, id, revision FROM games")}
    recorded = {game for (game,) in rows(backup, "SELECT game_row FROM results")}
    for user, (game, revision) in acknowledged.items():
        kept_game, kept_revision = games[user]
        assert (kept_game == game and kept_revision >= revision) or (
            kept_game > game and game in recorded), (user, game, revision, games[user])


def test_a_backup_made_while_a_process_plays_on_holds_every_acknowledged_move(
    tmp_path: Path, writer: Writer,
) -> None:
    """Made here, the moment after the last acknowledgement read: the moves the writer has
    not yet checkpointed into the file, only in its write-ahead log, are in it too."""
    database, acknowledged = writer.database, writer.acknowledged
    for taken in range(BACKUPS):
        acknowledged.after(PLAYERS + 300 * (taken + 1))  # games started, moves played
        before = acknowledged.so_far()
        made = back_up(database, tmp_path / f"backup-{taken}.db")
        assert made.schema_version == SCHEMA_VERSION and made.size > 0
        assert_holds(made.path, before)
    assert rows(made.path, "PRAGMA journal_mode") == [("delete",)], "one file, no -wal"
    assert sorted(p.name for p in tmp_path.glob("*.db")) == [
        f"backup-{taken}.db" for taken in range(BACKUPS)], "nothing left of the copies"


async def test_a_backup_restored_as_the_runbook_says_opens_with_the_bots_store(
    tmp_path: Path, writer: Writer,
) -> None:
    database, acknowledged = writer.database, writer.acknowledged
    acknowledged.after(PLAYERS + 300)
    backup = tmp_path / "backup.db"
    made = backing_up(tmp_path, database, backup)
    assert made.returncode == 0, made.stderr
    assert made.stdout.startswith(f"Backed up {database} to {backup} (")
    acknowledged.after(acknowledged.count + 300)  # played on past the backup, then...
    writer.kill()  # ...stopped (killed, the worst way)
    kept = {user: (game, revision)
            for user, game, revision in rows(backup, "SELECT user_id, id, revision FROM games")}
    assert database.with_name("solitaire.db-wal").exists(), "a stale log, to move aside"
    replaced = database.parent / "replaced"
    replaced.mkdir()
    for end in ("", "-wal", "-shm"):  # mv data/solitaire.db* "$old"/
        shutil.move(database.with_name(f"solitaire.db{end}"), replaced)
    shutil.copy(backup, database)  # cp BACKUP data/solitaire.db

    assert rows(database, "PRAGMA user_version") == [(SCHEMA_VERSION,)]
    stores = await Stores.open(database)
    try:
        assert await stores.db.schema_version() == SCHEMA_VERSION
        for user, (game, revision) in kept.items():
            saved = await stores.games.load(user)
            assert saved is not None and (saved.id, saved.revision) == (game, revision)
        await stores.games.start(PLAYERS + 1, 900, new_game("trefoil", 1), 2.0)  # it writes
    finally:
        await stores.close()
    assert rows(database, "PRAGMA journal_mode") == [("wal",)]
    assert rows(replaced / "solitaire.db", "PRAGMA integrity_check") == [("ok",)], (
        "the file replaced, moved with its log, is whole too")


@pytest.fixture
def settings(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The bot's SQLite file in the test's folder, as the environment names it; the
    process's log left as the tests have it."""
    database = tmp_path / "data" / "solitaire.db"
    monkeypatch.setenv("DATABASE_PATH", str(database))
    monkeypatch.delenv("DATABASE_URL", raising=False)
    monkeypatch.setattr("bot.__main__.setup_logging", lambda config: None)
    return database


async def made_database(database: Path) -> None:
    stores = await Stores.open(database)
    await stores.close()


def backup_says(target: Path, capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    code = main(["--backup", str(target), "--env-file", "none"])
    return code, capsys.readouterr().err


async def test_a_backup_never_replaces_a_file(
    tmp_path: Path, settings: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    await made_database(settings)
    target = tmp_path / "backup.db"
    target.write_text("last week's backup")
    code, said = backup_says(target, capsys)
    assert code == 2 and f"{target} exists already" in said
    assert target.read_text() == "last week's backup"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["backup.db", "data"]


async def test_a_backup_into_a_missing_folder_is_refused_and_makes_none(
    tmp_path: Path, settings: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    await made_database(settings)
    code, said = backup_says(tmp_path / "backups" / "backup.db", capsys)
    assert code == 2 and f"The folder {tmp_path / 'backups'} does not exist" in said
    assert not (tmp_path / "backups").exists()


def test_a_backup_of_a_database_not_there_is_refused_and_makes_none(
    tmp_path: Path, settings: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, said = backup_says(tmp_path / "backup.db", capsys)
    assert code == 2 and f"There is no database file at {settings}" in said
    assert sorted(p.name for p in tmp_path.iterdir()) == [], "neither a database nor a backup"


async def test_a_backup_to_a_disk_without_hard_links_is_refused_and_leaves_nothing(
    tmp_path: Path, settings: Path, capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Such a disk (FAT, some network shares) could only be written in place, where a
    backup cut short would leave half of one under its name."""
    await made_database(settings)

    def no_links(source: object, target: object) -> None:
        raise OSError(errno.EPERM, os.strerror(errno.EPERM))

    monkeypatch.setattr(os, "link", no_links)
    code, said = backup_says(tmp_path / "backup.db", capsys)
    assert code == 2 and "cannot take the backup without risking half of one" in said
    assert sorted(p.name for p in tmp_path.iterdir()) == ["data"]


def test_a_backup_of_a_file_that_is_no_database_is_refused_and_leaves_nothing(
    tmp_path: Path, settings: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    settings.parent.mkdir()
    settings.write_text("DATABASE_PATH named the wrong file")
    code, said = backup_says(tmp_path / "backup.db", capsys)
    assert code == 2 and f"Cannot back up {settings}: file is not a database" in said
    assert sorted(p.name for p in tmp_path.iterdir()) == ["data"]


def test_a_backup_of_postgresql_says_how_with_pg_dump_and_shows_no_password(
    tmp_path: Path, settings: Path, capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("DATABASE_URL", 'postgresql://bot:s3"cr%40t@db:5432/sol?password=s3"cr%40t')
    code, said = backup_says(tmp_path / "sol.dump", capsys)
    assert code == 2 and "The database is PostgreSQL (postgresql://db:5432/sol)" in said
    assert f"pg_dump --format=custom --file={tmp_path / 'sol.dump'} " in said
    assert "--dbname=postgresql://bot@db:5432/sol\n" in said
    assert "s3" not in said and not list(tmp_path.iterdir())


def test_a_url_without_its_password_keeps_everything_else() -> None:
    assert without_password("postgresql://bot:pw@db:5432/sol") == "postgresql://bot@db:5432/sol"
    assert without_password("postgres://db/sol?sslmode=require&password=pw&connect_timeout=5") == (
        "postgres://db/sol?sslmode=require&connect_timeout=5")
    assert without_password("postgresql://bot@db/sol") == "postgresql://bot@db/sol"


def database_of_its_own(server: PostgresServer, name: str) -> str:
    """A database on ``server``, not a schema: pg_dump takes libpq's URL, and libpq knows
    no ``?search_path=``."""
    programs = bin_dir()
    assert programs is not None
    subprocess.run([str(programs / "psql"), "-q", "-X", "--dbname", server.url(), "-c",
                    f"CREATE DATABASE {name}"], check=True, capture_output=True)
    return server.url(name)


async def test_the_pg_dump_it_prints_and_the_runbooks_pg_restore_bring_a_database_back(
    tmp_path: Path, pg_server: PostgresServer, settings: Path,
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
) -> None:
    url = database_of_its_own(pg_server, "backed_up")
    stores = await Stores.open(url)
    try:
        await stores.games.start(1, 900, new_game("trefoil", 42), 1.0)
    finally:
        await stores.close()
    monkeypatch.setenv("DATABASE_URL", url)
    monkeypatch.setenv("PATH", f"{bin_dir()}:{os.environ['PATH']}")  # pg_dump, pg_restore
    dump = tmp_path / "solitaire.dump"
    code, said = backup_says(dump, capsys)
    [command] = [line for line in said.splitlines() if line.startswith("  pg_dump ")]
    assert code == 2 and shlex.split(command)[-1] == f"--dbname={url}"
    subprocess.run(shlex.split(command), check=True, capture_output=True)

    stores = await Stores.open(url)
    try:
        await stores.games.start(2, 900, new_game("trefoil", 7), 2.0)  # after the dump
    finally:
        await stores.close()
    restore = f"pg_restore --clean --if-exists --no-owner --single-transaction --dbname={url} {dump}"
    subprocess.run(shlex.split(restore), check=True, capture_output=True)  # docs/OPERATING.md's
    stores = await Stores.open(url)
    try:
        assert await stores.db.schema_version() == stores.db.schema_target
        assert await stores.games.load(1) is not None and await stores.games.load(2) is None
    finally:
        await stores.close()
