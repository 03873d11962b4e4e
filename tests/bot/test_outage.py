"""A calm outage and honest answers: while the database cannot be reached the player is
told so privately and nothing is played; the log says so once when it starts and once
when it ends; a failure after a save never claims that nothing changed. A SQLite file that
takes no write (read-only, its disk full) is such an outage: boards are still shown, and
the file is written again once it can be."""

from __future__ import annotations

import logging
import os
import random
import shutil
import sqlite3
import subprocess
from pathlib import Path
from typing import Any

import asyncpg
import pytest

from bot.core import Core
from bot.flows.game import GameFlow
from bot.replies import Action, Player
from bot.store import Stores
from bot.store import sqlite as sqlite_backend
from bot.store.database import StoreUnavailable
from bot.store.postgres import _Connection
from bot.words.phrases import saved_not_shown, unreachable, unreachable_in_doubt
from tests.pg_server import PostgresServer
from tests.said import shown

from .conftest import ALICE, Clock, PositionPicture
from .presenting import answer


def lines(caplog: pytest.LogCaptureFixture, level: int) -> list[str]:
    return [r.getMessage() for r in caplog.records if r.levelno == level]


async def test_an_outage_is_told_to_players_and_logged_once_each_way(
    own_pg_server: PostgresServer, clock: Clock, picture: PositionPicture,
    caplog: pytest.LogCaptureFixture,
) -> None:
    caplog.set_level(logging.INFO)
    core = await Core.open(own_pg_server.url(), renderer=picture, clock=clock,
                           deals=random.Random(3))
    try:
        assert (await answer(core.new_game, ALICE, "trefoil", 7)).board is not None
        own_pg_server.pause()
        for _ in range(3):  # three tries during the outage: three calm answers
            reply = await answer(core.act, ALICE, Action.MOVE, "1 2")
            assert reply.refused and reply.note == unreachable()
        assert (await answer(core.leaderboard, ALICE)).note == unreachable()
        assert await core.move_choices(ALICE) == [], "no suggestions, no error"
        own_pg_server.resume()
        showing = await answer(core.act, ALICE, Action.SHOW)
        assert showing.board is not None and "0 moves" in shown(showing.board.text), \
            "nothing was played"
    finally:
        await core.close()
    warnings = lines(caplog, logging.WARNING)
    assert sum("is unreachable" in w for w in warnings) == 1, warnings
    assert sum("is reachable again, after" in w for w in warnings) == 1, warnings
    assert lines(caplog, logging.ERROR) == [], "no traceback for any player"


async def test_a_save_cut_short_by_an_outage_says_it_may_have_been_kept(
    core: Core, flow: GameFlow, monkeypatch: pytest.MonkeyPatch
) -> None:
    await flow.new_game(ALICE, "trefoil", 7)

    async def cut_short(*args: Any) -> None:
        raise StoreUnavailable("the server went away mid-commit", in_doubt=True)

    monkeypatch.setattr(flow.games, "save", cut_short)
    move = str((await flow.games.load(ALICE.user_id)).game.legal_moves()[0])  # type: ignore[union-attr]
    reply = await answer(core.act, ALICE, Action.MOVE, move)
    assert reply.refused and reply.note == unreachable_in_doubt()
    assert "nothing was" not in shown(reply.note)


async def test_a_failure_after_the_save_never_says_nothing_changed(
    core: Core, flow: GameFlow, store: Stores, monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
) -> None:
    await flow.new_game(ALICE, "trefoil", 7)
    before = await store.games.load(ALICE.user_id)
    assert before is not None
    move = str(before.game.legal_moves()[0])

    def broken(*args: Any, **kwargs: Any) -> Any:
        raise RuntimeError("composing the board failed")

    monkeypatch.setattr("bot.flows.game.compose", broken)
    reply = await answer(core.act, ALICE, Action.MOVE, move)
    assert reply.refused and reply.note == saved_not_shown()
    after = await store.games.load(ALICE.user_id)
    assert after is not None and after.revision == before.revision + 1, "the move is saved"
    assert "was saved but not shown" in caplog.text


async def test_a_connection_left_mid_operation_by_a_restart_is_an_outage(
    own_pg_server: PostgresServer, clock: Clock, picture: PositionPicture,
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture,
) -> None:
    """What asyncpg raises when PostgreSQL restarts under a statement in flight: the
    player is told of the outage (the move may be saved), and no traceback is logged."""
    core = await Core.open(own_pg_server.url(), renderer=picture, clock=clock,
                           deals=random.Random(3))
    try:
        board = (await answer(core.new_game, ALICE, "trefoil", 7)).board
        assert board is not None

        async def cut_short(*args: Any) -> None:
            raise asyncpg.InternalClientError(
                "cannot switch to state 12; another operation (2) is in progress")

        with monkeypatch.context() as patched:
            patched.setattr(_Connection, "fetchrow", cut_short)
            reply = await answer(core.choose, ALICE, board.controls.menu[0].value)  # a legal move
        assert reply.refused and reply.note == unreachable_in_doubt()
        showing = await answer(core.act, ALICE, Action.SHOW)
        assert showing.board is not None, "it recovers by itself"
    finally:
        await core.close()
    assert lines(caplog, logging.ERROR) == [], "no traceback for any player"


class ReadOnly:
    """A file the operating system will not let the bot write: its mode says so to anyone
    but root, and its immutable attribute to root too, whom no mode stops."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.on = False
        self._as_root = os.geteuid() == 0
        if self._as_root and shutil.which("chattr") is None:
            pytest.skip("run as root, and no chattr to make a file read-only for root")

    def __enter__(self) -> ReadOnly:
        if self._as_root:
            done = subprocess.run(["chattr", "+i", str(self.path)], capture_output=True)
            if done.returncode != 0:
                pytest.skip(f"run as root, and this file system keeps no immutable "
                            f"attribute: {done.stderr.decode(errors='replace')}")
        else:
            self.path.chmod(0o444)
        self.on = True
        return self

    def __exit__(self, *exc: object) -> None:
        self.off()

    def off(self) -> None:
        if self.on:
            if self._as_root:
                subprocess.run(["chattr", "-i", str(self.path)], check=True)
            else:
                self.path.chmod(0o644)
            self.on = False


@pytest.fixture
def reopen_at_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """The writer opened anew at each use after the file failed, not once a second."""
    monkeypatch.setattr(sqlite_backend, "REOPEN_S", 0.0)


async def test_a_bot_started_on_a_read_only_file_shows_boards_and_writes_once_it_can(
    db_path: Path, clock: Clock, picture: PositionPicture, caplog: pytest.LogCaptureFixture,
    reopen_at_once: None,
) -> None:
    caplog.set_level(logging.INFO)
    core = await Core.open(db_path, renderer=picture, clock=clock, deals=random.Random(3))
    await answer(core.new_game, ALICE, "trefoil", 7)
    await core.close()
    with ReadOnly(db_path) as read_only:
        core = await Core.open(db_path, renderer=picture, clock=clock, deals=random.Random(3))
        try:
            assert sum("is unreachable" in w for w in lines(caplog, logging.WARNING)) == 1, \
                "said at start, before any player asks"
            showing = await answer(core.act, ALICE, Action.SHOW)  # its cooldown: not written
            assert showing.board is not None and "0 moves" in shown(showing.board.text), \
                shown(showing.text)
            again = await answer(core.act, ALICE, Action.SHOW)
            assert again.refused and "ask again in 3 s" in shown(again.note), \
                "the cooldown holds all the same, in this process's memory"
            move = showing.board.controls.menu[0].value
            refused = await answer(core.choose, ALICE, move)
            assert refused.refused and refused.note == unreachable(), shown(refused.text)
            read_only.off()
            played = await answer(core.choose, ALICE, move)
            assert played.board is not None and "1 move" in shown(played.board.text), \
                shown(played.text)
        finally:
            await core.close()
    warnings = lines(caplog, logging.WARNING)
    assert sum("is unreachable" in w for w in warnings) == 1, warnings
    assert sum("is reachable again, after" in w for w in warnings) == 1, warnings
    assert lines(caplog, logging.ERROR) == [], "no traceback for any player"
    stored = await Stores.open(db_path)
    try:
        saved = await stored.games.load(ALICE.user_id)
        assert saved is not None and saved.game.moves_made == 1
    finally:
        await stored.close()


async def test_a_full_disk_is_an_outage_and_writes_go_on_when_there_is_room_again(
    db_path: Path, clock: Clock, picture: PositionPicture, caplog: pytest.LogCaptureFixture,
    monkeypatch: pytest.MonkeyPatch, reopen_at_once: None,
) -> None:
    caplog.set_level(logging.INFO)
    core = await Core.open(db_path, renderer=picture, clock=clock, deals=random.Random(3))
    await answer(core.new_game, ALICE, "trefoil", 7)
    await core.close()
    room = sqlite_backend.WRITER_PRAGMAS
    with sqlite3.connect(db_path) as probe:
        pages = probe.execute("PRAGMA page_count").fetchone()[0]
    probe.close()
    monkeypatch.setattr(sqlite_backend, "WRITER_PRAGMAS",  # no room beyond its size
                        (*room, f"PRAGMA max_page_count = {pages}"))
    core = await Core.open(db_path, renderer=picture, clock=clock, deals=random.Random(3))
    try:
        for user_id in range(1, 500):  # new players' games, until one needs a page more
            player = Player(user_id=user_id, guild_id=900)
            dealt = await answer(core.new_game, player, "trefoil", 7)
            if dealt.refused:
                break
        else:
            raise AssertionError("the file never filled")
        assert dealt.note == unreachable(), shown(dealt.text)
        monkeypatch.setattr(sqlite_backend, "WRITER_PRAGMAS", room)  # room made again
        dealt = await answer(core.new_game, player, "trefoil", 7)
        assert dealt.board is not None and not dealt.refused, shown(dealt.text)
    finally:
        await core.close()
    warnings = lines(caplog, logging.WARNING)
    assert sum("is unreachable (OperationalError: database or disk is full)" in w
               for w in warnings) == 1, warnings
    assert sum("is reachable again, after" in w for w in warnings) == 1, warnings
    assert lines(caplog, logging.ERROR) == [], "no traceback for any player"
