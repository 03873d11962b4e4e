"""Drawing off the event loop: the board and stats pictures, in worker processes or threads;
the replays in a process of their own, at a lower priority.

A picture is worded in the language spoken when it is asked for (``language.current()``):
its code travels with the work, and the words are built where the picture is drawn, from
that process's own catalogs (a language only ``install``-ed in the bot's process, such as
a test's pseudo-language, is drawn in English by a worker process)."""

from __future__ import annotations

import asyncio
import functools
from collections.abc import Callable
from concurrent.futures import Executor, ThreadPoolExecutor
from dataclasses import dataclass
from typing import TypeVar

from engine import Game
from render import PictureOptions, PictureWords, alt_text, render_png
from render.options import PLAIN
from render.replay import Replay, fitted_replay
from render.stats_card import StatsRow, render_stats_png, stats_alt_text

from ..replies import Drawing
from ..words.language import Words, current, words_for
from .processes import Workers

Renderer = Callable[..., bytes]  # render.render_png(game, *, last_move, options, words)


@dataclass(frozen=True)
class Picture:
    png: bytes
    alt_text: str  # what it shows, in words: the attachment's description


UNDRAWN = Picture(b"", "")  # a board's picture not drawn yet, or where none is shown


T = TypeVar("T")
REPLAY_NICE = 10  # a replay (a second of drawing) yields the CPU to moves' pictures


class Pictures:
    """Runs the renderer off the event loop: in ``processes`` worker processes (by default
    one per core but the bot's own, so drawing, about a ms of CPU a board, never waits for
    the bot's own thread to let go of Python's lock), or with 0 in two threads of this
    process (the console, tests). ``renderer`` defaults to ``render.render_png``; a
    renderer passed in (tests) always draws in threads."""

    def __init__(
        self, renderer: Renderer | None = None, executor: Executor | None = None,
        *, processes: int = 0,
    ) -> None:
        self._render = renderer or render_png
        self._own_executor = executor is None
        if processes and executor is None and renderer is None:
            self._workers: Workers | None = Workers("drawing", processes, start_now=True)
            # Started on the first replay asked for; one replay drawn at a time.
            self._replays: Workers | None = Workers("replay", 1, nice=REPLAY_NICE)
        else:
            self._workers = self._replays = None
        self._executor = executor or ThreadPoolExecutor(max_workers=2, thread_name_prefix="render")
        self.drawing = 0  # pictures asked for and not yet drawn (the metrics' queue)

    def close(self) -> None:
        if self._workers:
            self._workers.shutdown()
        if self._replays:
            self._replays.shutdown()
        if self._own_executor:
            self._executor.shutdown(wait=False, cancel_futures=True)

    async def off_loop(self, work: Callable[[], T]) -> T:
        """Run ``work`` (a picture to draw: a function of a module and its arguments, so that
        it can travel to a worker process) off the event loop. A drawing process that
        died is replaced (see ``Workers``)."""
        self.drawing += 1
        try:
            if self._workers:
                drawn: T = await self._workers.run(work)
                return drawn
            return await asyncio.get_running_loop().run_in_executor(self._executor, work)
        finally:
            self.drawing -= 1

    async def replay(
        self, game: Game, options: PictureOptions = PLAIN, *, limit: int | None = None
    ) -> Replay | None:
        """``game`` move by move, as an animated GIF within ``limit`` bytes (None if it
        cannot fit; ``render.replay.fitted_replay``): in the replays' own process, whose
        lower priority leaves the CPU to the moves' pictures first (or in a thread)."""
        draw = functools.partial(_replay, current().code, game, limit, options)
        if self._replays:
            drawn: Replay | None = await self._replays.run(draw)
            return drawn
        return await asyncio.get_running_loop().run_in_executor(self._executor, draw)

    async def board(self, drawing: Drawing) -> Picture:
        """The board's picture, its last move highlighted, and the same in words."""
        draw = functools.partial(_board, self._render, drawing.language, drawing.game,
                                 drawing.options)
        return await self.off_loop(draw)

    async def stats(self, title: str, subtitle: str, rows: list[StatsRow]) -> Picture:
        """A player's record as a card (``render.stats_card``), and the same in words."""
        return await self.off_loop(functools.partial(_stats, current().code, title, subtitle,
                                                     rows))


def picture_words(language: str) -> PictureWords:
    """The pictures' words in ``language`` (a code of ``bot.words.language``)."""
    return _picture_words(words_for(language))


@functools.lru_cache(maxsize=16)  # by the language's words (compared by identity): a board
def _picture_words(words: Words) -> PictureWords:  # asks for them every time
    return PictureWords(text=words.text, plural=words.plural, word=words.word, rank=words.rank,
                        percent=words.percent)


def _board(render: Renderer, language: str, game: Game, options: PictureOptions) -> Picture:
    """Draw and describe a board: both where the picture is drawn, off the bot's thread."""
    words = picture_words(language)
    png = render(game, last_move=game.last_move, options=options, words=words)
    return Picture(png, alt_text(game, options, words))


def _stats(language: str, title: str, subtitle: str, rows: list[StatsRow]) -> Picture:
    words = picture_words(language)
    return Picture(render_stats_png(title, subtitle, rows, words),
                   stats_alt_text(title, subtitle, rows, words))


def _replay(language: str, game: Game, limit: int | None,
            options: PictureOptions) -> Replay | None:
    return fitted_replay(game, limit, options, picture_words(language))
