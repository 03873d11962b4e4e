"""Facts the bot keeps in the database rather than in memory, on both backends: a game
proven lost, each player's settings, their live board per channel; leaving an untouched
game uncounted; and forgetting a player leaving no trace, in the SQLite files too."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.store import DEFAULT_SETTINGS, WON, Settings, Stores
from engine import new_game
from tests.bot.reference import all_results


@pytest.fixture
def store(any_store: Stores) -> Stores:
    return any_store


async def test_a_proven_loss_holds_only_at_the_revision_it_was_proven(store: Stores) -> None:
    saved = await store.games.start(1, 10, new_game("trefoil", 9), 1.0)
    assert not saved.proven_lost
    assert await store.games.mark_proven_lost(saved.id, 0) is True
    loaded = await store.games.load(1)
    assert loaded is not None and loaded.proven_lost
    loaded.game.play(loaded.game.legal_moves()[0])
    await store.games.save(loaded)
    assert not loaded.proven_lost, "the game moved on"
    again = await store.games.load(1)
    assert again is not None and not again.proven_lost
    assert await store.games.mark_proven_lost(saved.id, 0) is False, "too late: nothing written"
    assert await store.games.mark_proven_lost(saved.id, 1) is True
    again = await store.games.load(1)
    assert again is not None and again.proven_lost


async def test_a_deal_proven_lost_holds_at_every_revision(store: Stores) -> None:
    saved = await store.games.start(1, 10, new_game("clover-leaf", 7), 1.0)
    assert await store.games.mark_proven_lost(saved.id, 0, deal_too=True) is True
    loaded = await store.games.load(1)
    assert loaded is not None and loaded.lost_as_dealt and loaded.proven_lost
    stale = await store.games.load(1)
    assert stale is not None
    loaded.game.play(loaded.game.legal_moves()[0])
    await store.games.save(loaded)
    assert await store.games.mark_proven_lost(saved.id, 1) is True  # from here: not less
    again = await store.games.load(1)
    assert again is not None and again.lost_as_dealt and again.proven_lost
    # A process that loaded the game before the mark saves over it: the mark stays.
    other = await store.games.start(2, 10, new_game("clover-leaf", 7), 1.0)
    held = await store.games.load(2)
    assert held is not None and not held.lost_as_dealt
    assert await store.games.mark_proven_lost(other.id, 0, deal_too=True) is True
    held.game.play(held.game.legal_moves()[0])
    await store.games.save(held)
    after = await store.games.load(2)
    assert after is not None and after.lost_as_dealt


async def test_settings_start_at_the_defaults_and_keep_what_a_player_sets(store: Stores) -> None:
    assert await store.settings.get(1) == DEFAULT_SETTINGS
    changed = await store.settings.change(1, private_boards=True, four_colour=True)
    assert changed == Settings(private_boards=True, four_colour=True)
    assert await store.settings.change(1, four_colour=False) == Settings(True, False, False)
    assert await store.settings.get(1) == Settings(private_boards=True, four_colour=False)
    assert await store.settings.get(2) == DEFAULT_SETTINGS, "one player's settings are theirs"


async def test_an_unknown_setting_or_a_value_not_true_or_false_changes_nothing(
    store: Stores,
) -> None:
    with pytest.raises(ValueError, match="no setting called 'sparkles'"):
        await store.settings.change(1, private_boards=True, sparkles=True)
    with pytest.raises(ValueError, match="true or false"):
        await store.settings.change(1, auto_moves=1)  # type: ignore[arg-type]
    assert await store.settings.get(1) == DEFAULT_SETTINGS


async def test_a_new_board_hands_back_the_players_previous_board_in_that_channel(
    store: Stores,
) -> None:
    assert await store.boards.swap(1, 500, 7001) is None
    assert await store.boards.swap(1, 500, 7002) == 7001
    assert await store.boards.swap(1, 500, 7002) is None, "the same board again"
    assert await store.boards.swap(1, 500, 7003) == 7002
    assert await store.boards.swap(1, 501, 8001) is None, "another channel"
    assert await store.boards.swap(2, 500, 9001) is None, "another player"


async def test_live_boards_written_behind_reach_the_next_start(
    any_store: Stores, store_target: Path | str
) -> None:
    for user in range(1, 402):  # only a player with a game has a board written
        await any_store.games.start(user, None, new_game("trefoil", 1), 1.0)
    for user in range(1, 401):  # more rows than one write took when it was one statement
        await any_store.boards.swap(user, 500, 10_000 + user)
    await any_store.boards.swap(7, 500, 20_007)
    await any_store.close()  # writes what is still in memory
    again = await Stores.open(store_target)
    try:
        assert await again.boards.swap(1, 500, 30_001) == 10_001
        assert await again.boards.swap(400, 500, 30_400) == 10_400
        assert await again.boards.swap(7, 500, 30_007) == 20_007, "the newest swap"
        assert await again.boards.swap(401, 500, 30_401) is None
    finally:
        await again.close()


async def test_a_game_left_untouched_leaves_no_result(store: Stores) -> None:
    first = await store.games.start(1, 10, new_game("trefoil", 1), 1.0, daily="2026-11-22")
    second = await store.games.start(1, 10, new_game("trefoil", 2), 2.0, replacing=first,
                               left_as=None)
    assert await all_results(store) == [], "not a game played"
    assert first.status == "playing"
    second.game.play(second.game.legal_moves()[0])
    await store.games.save(second)
    with pytest.raises(ValueError, match="untouched"):
        await store.games.start(1, 10, new_game("trefoil", 3), 3.0, replacing=second, left_as=None)
    current = await store.games.load(1)
    assert current is not None and current.id == second.id, "nothing changed"
    await store.games.start(1, 10, new_game("trefoil", 3), 3.0, replacing=second)
    assert [r.outcome for r in await all_results(store)] == ["abandoned"]
    again = await store.games.start(1, 10, new_game("trefoil", 1), 4.0, replacing=await store.games.load(1),
                              daily="2026-11-22")
    assert again.daily is None, "the untouched scored attempt still used the day up"


async def test_forgetting_a_player_also_forgets_their_settings_and_boards(store: Stores) -> None:
    await store.settings.change(1, auto_moves=True)
    await store.boards.swap(1, 500, 7001)
    await store.settings.change(2, auto_moves=True)
    await store.boards.swap(2, 500, 7101)
    await store.forget_player(1, today="2026-11-01")
    assert await store.settings.get(1) == DEFAULT_SETTINGS
    assert await store.boards.swap(1, 500, 7002) is None
    assert (await store.settings.get(2)).auto_moves is True
    assert await store.boards.swap(2, 500, 7102) == 7101


FORGOTTEN = 0x0DB4_DA5F_7EF4_12B1  # a 64-bit id, distinctive as 8 bytes in a file


def files_hold(path: Path, needle: bytes) -> bool:
    return any(
        p.exists() and needle in p.read_bytes()
        for p in (path, path.with_name(path.name + "-wal"))
    )


async def test_a_forgotten_players_id_leaves_the_sqlite_file_and_its_wal(db_path: Path) -> None:
    needle = FORGOTTEN.to_bytes(8, "big")  # how SQLite writes an integer of that size
    store = await Stores.open(db_path)
    try:
        for deal in (1, 2, 3):
            saved = await store.games.start(FORGOTTEN, 77, new_game("trefoil", deal), 1.0,
                                      replacing=await store.games.load(FORGOTTEN),
                                      daily="2026-11-22")
            saved.status, saved.finished_at = WON, 2.0
            await store.games.save(saved)
        await store.settings.change(FORGOTTEN, private_boards=True)
        await store.boards.swap(FORGOTTEN, 500, 7001)
        await store.games.start(5, 77, new_game("trefoil", 4), 1.0)  # somebody else stays
        assert files_hold(db_path, needle), "the id is there to be forgotten"
        assert (await store.forget_player(FORGOTTEN, today="2026-11-01"))[:2] == (1, 3)
        assert not files_hold(db_path, needle)
        assert await store.games.load(5) is not None
    finally:
        await store.close()
