"""A move played on the game this process holds, without reading it back, on both backends:
nothing read when the copy is the stored game, and when it is not (another process played
meanwhile), the stored game decides, as if it had been read first."""

from __future__ import annotations

import random
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from bot.core import Core
from bot.flows.game import GameFlow
from bot.replies import Action, Reply
from bot.store import Stores
from bot.store.games import GameStore
from engine import new_game
from tests.said import shown

from .conftest import ALICE, Clock, PositionPicture, as_the_core_calls


@pytest.fixture
async def two(store_target: Path | str) -> AsyncIterator[tuple[Core, Core]]:
    """Two bot processes' cores on one database."""
    cores = []
    for seed in (1, 2):
        stores = await Stores.open(store_target)
        cores.append(Core(stores, renderer=PositionPicture(), clock=Clock(),
                          deals=random.Random(seed)))
    yield cores[0], cores[1]
    for core in cores:
        await core.close()


async def moved_elsewhere(here: Core, there: Core) -> None:
    """The player's game dealt through ``here`` (which holds it), then "7 f1" played
    through ``there``: ``here``'s copy is out of date."""
    await as_the_core_calls(here.game).new_game(ALICE, "trefoil", 27)
    assert played(await as_the_core_calls(there.game).act(ALICE, Action.MOVE, "7 f1"), "7 f1")


class Reads:
    """Counts the game reads of a flow's store (``GameStore.load``)."""

    def __init__(self, flow: GameFlow, monkeypatch: pytest.MonkeyPatch) -> None:
        self.count = 0
        store = flow.games
        load = store.load

        async def counted(user_id: int) -> Any:
            self.count += 1
            return await load(user_id)

        monkeypatch.setattr(store, "load", counted)


def played(reply: Reply, move: str) -> bool:
    board = reply.board
    return (board is not None and not reply.refused and board.drawing is not None
            and str(board.drawing.game.last_move) == move)


async def stored(core: Core) -> tuple[int, int]:
    saved = await core.stores.games.load(ALICE.user_id)
    assert saved is not None
    return saved.revision, saved.game.moves_made


async def test_the_held_copy_is_the_game_as_last_written_here_and_the_callers_own(
    any_store: Stores,
) -> None:
    games = any_store.games
    assert games.cached(ALICE.user_id) is None
    started = await games.start(ALICE.user_id, 900, new_game("trefoil", 27), 1.0)
    cached = games.cached(ALICE.user_id)
    assert cached is not None and (cached.id, cached.revision) == (started.id, 0)
    cached.game.play("7 f1")  # played on a copy that is never saved...
    again = games.cached(ALICE.user_id)
    assert again is not None and again.game.moves_made == 0  # ...changes nothing kept
    cached.revision, cached.updated_at = 0, 2.0
    await games.save(cached)
    after = games.cached(ALICE.user_id)
    assert after is not None and (after.revision, after.game.moves_made) == (1, 1)


@pytest.mark.parametrize("write", ["hint", "proven lost", "forget"])
async def test_a_write_that_leaves_the_revision_drops_the_held_copy(
    any_store: Stores, write: str
) -> None:
    games: GameStore = any_store.games
    started = await games.start(ALICE.user_id, 900, new_game("trefoil", 27), 1.0)
    if write == "hint":
        await games.count_hint(started.id)
    elif write == "proven lost":
        await games.mark_proven_lost(started.id, 0)
    else:
        games.forget(ALICE.user_id)
    assert games.cached(ALICE.user_id) is None
    loaded = await games.load(ALICE.user_id)  # read again, and cached as read
    cached = games.cached(ALICE.user_id)
    assert loaded is not None and cached is not None and cached.hints == loaded.hints
    assert cached.proven_lost_at == loaded.proven_lost_at


async def test_a_move_on_the_held_game_reads_nothing(
    two: tuple[Core, Core], monkeypatch: pytest.MonkeyPatch
) -> None:
    here, _ = two
    await as_the_core_calls(here.game).new_game(ALICE, "trefoil", 27)
    reads = Reads(here.game, monkeypatch)
    for move in ("7 f1", "8 f2"):
        assert played(await as_the_core_calls(here.game).act(ALICE, Action.MOVE, move), move)
    assert played(await as_the_core_calls(here.game).act(ALICE, Action.UNDO), "7 f1")
    assert reads.count == 0
    assert await stored(here) == (3, 1)


async def test_a_move_after_another_process_played_is_played_on_the_stored_game(
    two: tuple[Core, Core], monkeypatch: pytest.MonkeyPatch
) -> None:
    here, there = two
    await moved_elsewhere(here, there)
    # Legal only after the other process's move: refused on the cached copy, played on the
    # stored game.
    before = new_game("trefoil", 27)
    after = new_game("trefoil", 27)
    after.play("7 f1")
    move = str(next(m for m in after.legal_moves() if m not in before.legal_moves()))
    reads = Reads(here.game, monkeypatch)
    reply = await as_the_core_calls(here.game).act(ALICE, Action.MOVE, move)
    assert played(reply, move) and reads.count == 1
    assert await stored(there) == (2, 2)
    # The copy cached now is the stored game: the next move reads nothing.
    assert played(await as_the_core_calls(here.game).act(ALICE, Action.UNDO), "7 f1")
    assert reads.count == 1 and await stored(there) == (3, 1)


async def test_a_move_saved_as_out_of_date_from_the_held_copy_is_played_on_the_stored_game(
    two: tuple[Core, Core], monkeypatch: pytest.MonkeyPatch
) -> None:
    here, there = two
    await moved_elsewhere(here, there)
    # "8 f2" is legal on the cached copy (still at the deal) and on the stored game: its save
    # from the copy is refused as out of date, and it is played on the stored game, with
    # no word of a clash.
    reads = Reads(here.game, monkeypatch)
    reply = await as_the_core_calls(here.game).act(ALICE, Action.MOVE, "8 f2")
    assert played(reply, "8 f2") and reply.note is None and reads.count == 1
    assert await stored(there) == (2, 2)


async def test_presses_are_checked_against_the_stored_board_not_the_held_one(
    two: tuple[Core, Core],
) -> None:
    here, there = two
    start = await as_the_core_calls(here.game).new_game(ALICE, "trefoil", 27)
    assert start.board is not None
    moved = await as_the_core_calls(there.game).act(ALICE, Action.MOVE, "7 f1")
    assert moved.board is not None
    # A press on the other process's newer board: played here, though the cached copy is
    # older.
    pressed = await as_the_core_calls(here.game).act(ALICE, Action.UNDO, seen=moved.board.ref)
    assert pressed.board is not None and not pressed.refused
    assert await stored(there) == (2, 0)
    # A press on the first board, which the cached copy matched until the other process
    # played: out of date, nothing played.
    await as_the_core_calls(there.game).act(ALICE, Action.REDO)
    stale = await as_the_core_calls(here.game).act(ALICE, Action.UNDO, seen=start.board.ref)
    assert stale.refused and stale.note is not None and "out of date" in shown(stale.note)
    assert await stored(there) == (3, 1)
