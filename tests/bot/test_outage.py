"""A calm outage and honest answers: while the database cannot be reached the player is
told so privately and nothing is played; the log says so once when it starts and once
when it ends; a failure after a save never claims that nothing changed."""

from __future__ import annotations

import logging
import random
from typing import Any

import asyncpg
import pytest

from bot.core import Core
from bot.flows.game import GameFlow
from bot.replies import Action
from bot.store import Stores
from bot.store.database import StoreUnavailable
from bot.store.postgres import _Connection
from bot.words.phrases import saved_not_shown, unreachable, unreachable_in_doubt
from tests.pg_server import PostgresServer

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
        shown = await answer(core.act, ALICE, Action.SHOW)
        assert shown.board is not None and "0 moves" in shown.board.text, "nothing was played"
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
    assert "nothing was" not in reply.note


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
        shown = await answer(core.act, ALICE, Action.SHOW)
        assert shown.board is not None, "it recovers by itself"
    finally:
        await core.close()
    assert lines(caplog, logging.ERROR) == [], "no traceback for any player"
