"""Drawing off the event loop: the board and stats pictures, in worker threads."""

from __future__ import annotations

import asyncio
import functools
from collections.abc import Callable
from concurrent.futures import Executor, ThreadPoolExecutor
from dataclasses import dataclass
from typing import TypeVar

from engine import Game
from render import alt_text, render_png

Renderer = Callable[..., bytes]  # render.render_png(game, *, last_move, ...) -> PNG bytes


@dataclass(frozen=True)
class Picture:
    png: bytes
    alt_text: str  # what it shows, in words: the attachment's description
T = TypeVar("T")


class Pictures:
    """Runs the renderer in a small pool of threads. ``renderer`` defaults to
    ``render.render_png``; tests pass their own."""

    def __init__(self, renderer: Renderer | None = None, executor: Executor | None = None) -> None:
        self._render = renderer or render_png
        self._own_executor = executor is None
        self._executor = executor or ThreadPoolExecutor(max_workers=2, thread_name_prefix="render")

    def close(self) -> None:
        if self._own_executor:
            self._executor.shutdown(wait=False, cancel_futures=True)

    async def off_loop(self, work: Callable[[], T]) -> T:
        """Run ``work`` (a picture to draw) in the render threads, off the event loop."""
        return await asyncio.get_running_loop().run_in_executor(self._executor, work)

    async def board(
        self, game: Game, *, four_colour: bool = False, no_win: bool = False,
        assisted: bool = False,
    ) -> Picture:
        """The board's picture, its last move highlighted, and the same in words."""
        draw = functools.partial(
            self._render, game, last_move=game.last_move, four_colour=four_colour,
            no_win=no_win, assisted=assisted,
        )
        png = await self.off_loop(draw)
        return Picture(png, alt_text(game, no_win=no_win, assisted=assisted))
