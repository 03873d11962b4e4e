"""A move made where no channel shows it (the Activity's page) shows on the player's live
board in every channel; a look at the game, a refused move and a private board show on none.
And the page, which no longer waits for the solver, learns its later verdict when it asks."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

from bot.core import Core
from bot.presenter import Posted
from bot.replies import Action
from bot.store import Stores

from .conftest import ALICE, Clock, PositionPicture
from .presenting import Recorder


async def deal_in_two_channels(core: Core) -> None:
    """Trefoil 27 dealt in channel 500 (board 7001), then shown in channel 600 (8001)."""
    await core.new_game(ALICE, "trefoil", 27, presenter=Recorder(posted=Posted(500, 7001)))
    await core.act(ALICE, Action.SHOW, presenter=Recorder(posted=Posted(600, 8001)))


async def test_a_move_on_the_page_shows_on_the_live_board_in_each_channel(core: Core) -> None:
    await deal_in_two_channels(core)
    page = Recorder(refreshes_boards=True)
    await core.act(ALICE, Action.MOVE, "7 f1", presenter=page)
    board = page.reply.board
    assert board is not None and board.ref.revision == 1
    assert [(c, m) for c, m, _ in page.refreshed] == [(500, 7001), (600, 8001)]
    assert all(shown is board for _, _, shown in page.refreshed)


async def test_boards_written_to_the_database_are_refreshed_after_a_restart(
    core: Core
) -> None:
    await deal_in_two_channels(core)
    await core.stores.boards.live.write_now()
    core.stores.boards.live.drop_memory()  # as another process sees them: the database's
    page = Recorder(refreshes_boards=True)
    await core.act(ALICE, Action.MOVE, "7 f1", presenter=page)
    assert sorted((c, m) for c, m, _ in page.refreshed) == [(500, 7001), (600, 8001)]


async def test_a_look_or_a_refused_move_refreshes_no_board(core: Core) -> None:
    await deal_in_two_channels(core)
    page = Recorder(refreshes_boards=True)
    await core.board(ALICE, presenter=page)
    await core.act(ALICE, Action.MOVE, "7 3", presenter=page)  # not a legal move
    assert page.replies[1].refused and page.refreshed == []


async def test_a_private_board_is_never_shown_in_a_channel(core: Core) -> None:
    await deal_in_two_channels(core)
    await core.change_settings(ALICE, private_boards=True, presenter=Recorder())
    page = Recorder(refreshes_boards=True)
    await core.act(ALICE, Action.MOVE, "7 f1", presenter=page)
    assert page.reply.board is not None and page.reply.board.private
    assert page.refreshed == []


async def test_boards_made_private_by_another_process_are_never_shown_in_a_channel(
    store_target: Path | str, clock: Clock, picture: PositionPicture
) -> None:
    """The page's process beside the bot's, on one database: it has kept the player's
    settings since their last move, and no notice of SQLite's reaches it."""
    bot = Core(await Stores.open(store_target), renderer=picture, clock=clock)
    page = Core(await Stores.open(store_target), renderer=picture, clock=clock)
    try:
        await deal_in_two_channels(bot)
        await bot.stores.boards.live.write_now()  # where the page's process finds them
        public = Recorder(refreshes_boards=True)
        await page.act(ALICE, Action.MOVE, "7 f1", presenter=public)
        assert len(public.refreshed) == 2
        await bot.change_settings(ALICE, private_boards=True, presenter=Recorder())
        private = Recorder(refreshes_boards=True)
        await page.act(ALICE, Action.MOVE, "8 f2", presenter=private)
        assert private.reply.board is not None and private.reply.board.ref.revision == 2
        assert private.refreshed == []
        if isinstance(store_target, Path):  # (PostgreSQL's process hears of it soon after)
            assert private.reply.board.private, "its board says so at once"
    finally:
        await page.close()
        await bot.close()


async def test_settings_changed_by_another_process_hold_at_the_next_move(
    store_target: Path | str, clock: Clock, picture: PositionPicture
) -> None:
    """The four-colour deck and safe moves, like private boards: a process beside the one
    that changed them (the page's) plays by them from its next move, on either backend."""
    bot = Core(await Stores.open(store_target), renderer=picture, clock=clock)
    page = Core(await Stores.open(store_target), renderer=picture, clock=clock)
    try:
        await bot.new_game(ALICE, "trefoil", 27, presenter=Recorder())
        before = Recorder()
        await page.act(ALICE, Action.MOVE, "7 f1", presenter=before)
        table = before.reply.board.table if before.reply.board else None
        assert table is not None and table.four_colour, "the deck it kept: four colours"
        await bot.change_settings(ALICE, four_colour=False, presenter=Recorder())
        if not isinstance(store_target, Path):  # PostgreSQL's notice comes a moment later
            for _ in range(50):
                if not (await page.settings.of(ALICE.user_id)).four_colour:
                    break
                await asyncio.sleep(0.1)
        after = Recorder()
        await page.act(ALICE, Action.MOVE, "8 f2", presenter=after)
        table = after.reply.board.table if after.reply.board else None
        assert table is not None and not table.four_colour, "red and black, as now set"
    finally:
        await page.close()
        await bot.close()


async def test_a_presenter_in_a_channel_refreshes_nothing(core: Core) -> None:
    await deal_in_two_channels(core)
    discord = Recorder(posted=Posted(500, 7002))
    await core.act(ALICE, Action.MOVE, "7 f1", presenter=discord)
    assert discord.refreshed == [] and discord.collapsed == [(500, 7001)]


async def test_the_page_learns_a_later_verdict_when_it_asks(core: Core) -> None:
    await deal_in_two_channels(core)
    shown = Recorder()
    await core.board(ALICE, presenter=shown)
    board = shown.reply.board
    assert board is not None and not board.proven_lost
    same = Recorder()
    await core.board(ALICE, board.ref, seen_lost=False, presenter=same)
    assert same.reply.board is None, "nothing new: the same board, the same verdict"
    assert await core.stores.games.mark_proven_lost(board.ref.game_row, board.ref.revision)
    later = Recorder()
    await core.board(ALICE, board.ref, seen_lost=False, presenter=later)
    assert later.reply.board is not None and later.reply.board.proven_lost
    again = Recorder()
    await core.board(ALICE, board.ref, seen_lost=True, presenter=again)
    assert again.reply.board is None


async def test_a_page_move_is_drawn_only_for_the_channels_it_shows_in(
    core: Core, picture: PositionPicture
) -> None:
    await core.new_game(ALICE, "trefoil", 27, presenter=Recorder())  # posted nowhere: no channel
    page = Recorder(refreshes_boards=True, shows_pictures=False)
    drawn = picture.calls
    await core.act(ALICE, Action.MOVE, "7 f1", presenter=page)
    assert page.reply.board is not None and page.reply.board.png == b""
    assert picture.calls == drawn, "no channel shows it: no picture drawn"
    await core.act(ALICE, Action.SHOW, presenter=Recorder(posted=Posted(500, 7001)))
    await core.act(ALICE, Action.MOVE, "8 f2", presenter=page)
    [(_, _, shown)] = page.refreshed
    assert shown.ref == page.replies[-1].board.ref  # type: ignore[union-attr]
    assert json.loads(shown.png)["last"] != "None", "the channel's board has its picture"
