"""What a failure tells the player: the truth about their action.

Nothing happened (a clash with another process, an unreachable database, a failure before
saving); it may have been saved (the database went away while it was on its way); or it
was saved but showing it failed. ``guarded`` runs one call of a flow and answers so (the
core runs every call through it); ``saving`` and ``shown_after_saving`` mark where in the
call a failure came.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator, Awaitable, Iterator
from typing import Any

from ..ops.metrics import APOLOGISED, PLAYED, REFUSED
from ..replies import Player, Refused, Reply
from ..store import ConcurrentChange
from ..store.database import StoreUnavailable
from ..store.games import NotChallengeable
from ..words.language import _
from ..words.phrases import (
    apology,
    changed_meanwhile,
    saved_not_shown,
    unreachable,
    unreachable_in_doubt,
)

log = logging.getLogger(__name__)


class _Shown(Exception):
    """Showing a change failed after it was saved: the player must not hear that nothing
    changed."""


class _InDoubt(Exception):
    """The database went away while a change was on its way: it may have been saved."""


@contextlib.asynccontextmanager
async def saving() -> AsyncIterator[None]:
    """Around a save: the database gone while it was on its way is ``_InDoubt``."""
    try:
        yield
    except StoreUnavailable as err:
        if err.in_doubt:
            raise _InDoubt from err
        raise


@contextlib.asynccontextmanager
async def shown_after_saving() -> AsyncIterator[None]:
    """Around what follows a save: a failure there is ``_Shown``."""
    try:
        yield
    except Exception as err:
        raise _Shown from err


async def guarded(player: Player, context: str,
                  call: Awaitable[Reply]) -> tuple[Reply, str]:
    """The reply of ``call``; its refusal, if it raised one (``Refused``); or the refusal
    that tells the truth about what happened when it failed: nothing (a clash, an outage, a
    challenge no longer open, a failure before saving), maybe saved (the database went away
    while saving), or saved but not shown. With how it ended, for the metrics: played,
    refused, or apologised (a failure)."""
    try:
        return await call, PLAYED
    except Refused as refused:
        return refused.reply, REFUSED
    except ConcurrentChange:
        log.warning("user %s: %s raced another writer", player.user_id, context)
        why = changed_meanwhile()
    except NotChallengeable:  # the challenge changed since the flow checked it
        why = _("That challenge is no longer open to you: its message shows how it stands.")
    except StoreUnavailable:  # the outage is in the log already; a write under way is
        why = unreachable()  # marked by ``saving``: this was none
    except _InDoubt:
        why = unreachable_in_doubt()
    except _Shown:
        log.exception("flow: %r was saved but not shown, for user %s in guild %s", context,
                      player.user_id, player.guild_id)
        why = saved_not_shown()
    except Exception:
        log.exception("flow: %r failed for user %s in guild %s", context, player.user_id,
                      player.guild_id)
        why = apology()
    return Refused(why).reply, APOLOGISED


class Answering:
    """The tasks showing a reply now, so that closing can let them finish: what a player
    began is answered, not dropped halfway. Once closing has begun (``finish``), what
    comes next is refused untouched: the pictures and the database are about to go."""

    def __init__(self) -> None:
        self._tasks: set[asyncio.Task[Any]] = set()
        self.closing = False

    @contextlib.contextmanager
    def showing(self) -> Iterator[None]:
        """Inside the block, this task shows a reply."""
        tasks = {task for task in (asyncio.current_task(),) if task is not None}
        self._tasks |= tasks
        try:
            yield
        finally:
            self._tasks -= tasks

    async def finish(self, within_s: float) -> None:
        """Refuse what comes from now on, and wait for the replies being shown, those
        refusals' too, ``within_s`` at most."""
        self.closing = True
        await asyncio.sleep(0)  # the interactions just dispatched begin showing their replies
        until = asyncio.get_running_loop().time() + within_s
        while self._tasks:
            left = until - asyncio.get_running_loop().time()
            if left <= 0:
                return
            await asyncio.wait(set(self._tasks), timeout=left)
