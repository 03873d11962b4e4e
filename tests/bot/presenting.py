"""A ``Presenter`` for tests: it keeps everything the core shows through it."""

from __future__ import annotations

import inspect
from collections.abc import Awaitable, Callable
from typing import Any

from bot.presenter import Posted
from bot.replies import Board, LostBoard, Reply, Update
from bot.replies.text import Text


class Recorder:
    """Everything shown, in order. ``posted``: where each board or message "went", as a
    channel would have it (None: nowhere, as in a DM without the bot)."""

    source = "console"  # the metrics' source: tests answer as the console does

    def __init__(self, *, awaits_verdict: bool = False, posted: Posted | None = None,
                 refreshes_boards: bool = False, shows_pictures: bool = True,
                 amends_within: float | None = None) -> None:
        self.awaits_verdict = awaits_verdict
        self.amends_within = amends_within
        self.refreshes_boards = refreshes_boards
        self.shows_pictures = shows_pictures
        self.refreshed: list[tuple[int, int, Board]] = []
        self.posted = posted
        self.replies: list[Reply] = []
        self.waits: list[Text] = []
        self.amended: list[LostBoard] = []
        self.collapsed: list[tuple[int, int]] = []
        self.updated: list[Update] = []

    async def show(self, reply: Reply) -> Posted | None:
        self.replies.append(reply)
        return self.posted

    async def wait(self, text: Text) -> None:
        self.waits.append(text)

    async def amend(self, amended: LostBoard) -> None:
        self.amended.append(amended)

    async def collapse(self, channel_id: int, message_id: int) -> None:
        self.collapsed.append((channel_id, message_id))

    async def refresh(self, channel_id: int, message_id: int, board: Board) -> None:
        self.refreshed.append((channel_id, message_id, board))

    async def update(self, update: Update) -> None:
        self.updated.append(update)

    @property
    def reply(self) -> Reply:
        """The one reply shown."""
        assert len(self.replies) == 1, self.replies
        return self.replies[0]


async def answer(call: Callable[..., Awaitable[None]], *args: Any, **kwargs: Any) -> Reply:
    """The reply a core method shows: ``await answer(core.act, ALICE, Action.UNDO)``."""
    presenter = Recorder()
    await call(*args, presenter=presenter, **kwargs)
    return presenter.reply


class Answering:
    """The core, each of its methods that shows a reply returning that reply instead:
    ``await Answering(core).stats(ALICE, person)``. Everything else is the core's own."""

    def __init__(self, core: Any) -> None:
        self.core = core

    def __getattr__(self, name: str) -> Any:
        found = getattr(self.core, name)
        if not callable(found) or "presenter" not in inspect.signature(found).parameters:
            return found

        async def shown(*args: Any, **kwargs: Any) -> Reply:
            return await answer(found, *args, **kwargs)

        return shown
