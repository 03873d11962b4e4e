"""Whether a board is drawn is its presenter's to say, passed on as an argument: a page's
board is not drawn (the page lays the cards out itself), a channel's is, once; and the
solver's later amendment of a board is drawn as that board's presenter shows them, whoever
asked the solver first."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest

from bot.core import Core
from bot.presenter import Posted
from bot.replies import Action, Board

from .conftest import ALICE, BOB
from .presenting import Recorder


def page() -> Recorder:
    return Recorder(refreshes_boards=True, shows_pictures=False)


def counted(core: Core, monkeypatch: pytest.MonkeyPatch) -> list[Board]:
    """The boards the core draws from now on (each a drawing of its position)."""
    drawn: list[Board] = []
    draw = core.game.draw

    async def counting(board: Board) -> Board:
        if board.drawing is not None:
            drawn.append(board)
        return await draw(board)

    monkeypatch.setattr(core.game, "draw", counting)
    return drawn


async def test_a_page_board_is_not_drawn_and_a_channel_board_is(
    core: Core, monkeypatch: pytest.MonkeyPatch
) -> None:
    drawn = counted(core, monkeypatch)
    on_page = page()
    await core.new_game(ALICE, "trefoil", 27, presenter=on_page)
    assert on_page.reply.board is not None and on_page.reply.board.png == b""
    assert drawn == []
    in_channel = Recorder(posted=Posted(500, 7001))
    await core.act(ALICE, Action.SHOW, presenter=in_channel)
    board = in_channel.reply.board
    assert board is not None and json.loads(board.png)["tableau"], "drawn for the channel"
    assert len(drawn) == 1


async def test_a_page_move_is_drawn_once_for_all_its_channels_without_reading_it_back(
    core: Core, monkeypatch: pytest.MonkeyPatch
) -> None:
    await core.new_game(ALICE, "trefoil", 27, presenter=Recorder(posted=Posted(500, 7001)))
    await core.act(ALICE, Action.SHOW, presenter=Recorder(posted=Posted(600, 8001)))
    drawn = counted(core, monkeypatch)
    loads: list[Any] = []
    load = core.stores.games.load

    async def counting_load(user_id: int) -> Any:
        loads.append(user_id)
        return await load(user_id)

    monkeypatch.setattr(core.stores.games, "load", counting_load)
    on_page = page()
    await core.act(ALICE, Action.MOVE, "7 f1", presenter=on_page)
    assert on_page.reply.board is not None and on_page.reply.board.png == b""
    assert len(drawn) == 1, "one drawing serves both channels"
    pictures = {shown.png for _, _, shown in on_page.refreshed}
    assert len(on_page.refreshed) == 2 and len(pictures) == 1 and b"" not in pictures
    assert json.loads(pictures.pop())["last"] == "7 f1"
    assert loads == [], "the game just saved is not read back to draw it"


async def test_a_discord_amendment_is_drawn_though_a_page_board_was_checked_first(
    core: Core,
) -> None:
    """The solver's checker serves every later request: it once kept whether boards were
    drawn from the request that started it (a page's), so Discord's amendments had none."""
    first = page()
    await core.new_game(BOB, "trefoil", 27, presenter=first)  # the first board checked: a page's
    discord = Recorder()
    await core.new_game(ALICE, "trefoil", 2, presenter=discord)
    await core.act(ALICE, Action.REDEAL, presenter=discord)
    await core.act(ALICE, Action.REDEAL, presenter=discord)  # Trefoil 2 redealt twice: lost
    async with asyncio.timeout(30):
        while not discord.amended:
            await asyncio.sleep(0.05)
    amended = discord.amended[0]
    assert amended.png and json.loads(amended.png)["no_win"], "the amendment has its picture"
    assert amended.alt_text
