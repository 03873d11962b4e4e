"""Closing lets what a player began finish: a reply being shown when the bot closes is
shown to the end, within a bound."""

from __future__ import annotations

import asyncio

from bot.core import Core
from bot.replies import Reply

from .conftest import ALICE
from .presenting import Recorder


class HeldShow(Recorder):
    """A presenter whose ``show`` waits until the test lets it go (a slow Discord)."""

    def __init__(self) -> None:
        super().__init__()
        self.shown = asyncio.Event()
        self.go = asyncio.Event()

    async def show(self, reply: Reply) -> None:
        self.shown.set()
        await self.go.wait()
        self.replies.append(reply)


async def test_closing_waits_for_a_reply_being_shown(core: Core) -> None:
    presenter = HeldShow()
    playing = asyncio.create_task(core.new_game(ALICE, "trefoil", 5, presenter=presenter))
    await presenter.shown.wait()
    closing = asyncio.create_task(core.finish_answers(within_s=30))
    await asyncio.sleep(0.05)
    assert not closing.done(), "closing went on while a reply was still being shown"
    presenter.go.set()
    await closing
    assert playing.done() and presenter.reply.board is not None, "the reply was shown in full"


async def test_closing_waits_no_longer_than_its_bound(core: Core) -> None:
    presenter = HeldShow()
    playing = asyncio.create_task(core.new_game(ALICE, "trefoil", 5, presenter=presenter))
    await presenter.shown.wait()
    await asyncio.wait_for(core.finish_answers(within_s=0.05), 5)
    assert not playing.done(), "the held reply is still held: closing did not wait for it"
    presenter.go.set()
    await playing


async def test_closing_with_nothing_being_shown_waits_for_nothing(core: Core) -> None:
    presenter = Recorder()
    await core.new_game(ALICE, "trefoil", 5, presenter=presenter)  # shown and done before closing
    await asyncio.wait_for(core.finish_answers(within_s=30), 1)
