"""Fixtures for the bot's tests: a real SQLite file per test (and, for the store's own
tests, a database on a real PostgreSQL server), a clock the test moves."""

from __future__ import annotations

import functools
import inspect
import json
import random
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, cast

import pytest

from bot.core import Core
from bot.flows.game import GameFlow
from bot.flows.verdicts import Pace
from bot.replies import Ask, Board, DealRequest, Player, Refused, Reply
from bot.replies.text import Text
from bot.store import Stores
from engine import Game, Move
from render import PictureOptions, PictureWords
from render.options import PLAIN

from .store_support import without_daily_secret


class Clock:
    """Unix seconds that move only when the test says so."""

    def __init__(self, now: float = 1_800_000_000.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


class PositionPicture:
    """Stands in for render.render_png where a test needs to read what was drawn:
    the "picture" is the position as JSON, so a test can check the board shows the
    saved position. (The real renderer is exercised in test_flow_renders_a_png.)"""

    def __init__(self) -> None:
        self.calls = 0
        self.fail = False

    def __call__(
        self, game: Game, *, last_move: Move | None = None, options: PictureOptions = PLAIN,
        words: PictureWords | None = None,
    ) -> bytes:
        self.calls += 1
        self.four_colour = options.four_colour
        self.words = words
        if self.fail:
            raise RuntimeError("picture failed")
        return json.dumps(
            {"tableau": [list(map(str, p)) for p in game.tableau], "last": str(last_move),
             "no_win": options.no_win, "lost_as_dealt": options.lost_as_dealt,
             "assisted": options.assisted, "resigned": options.resigned}
        ).encode()


@dataclass(frozen=True)
class Offer:
    """A new-game question, read back from its buttons' arguments."""

    text: Text
    replacing: int
    game_id: str
    deal: int | None  # None: a proven-winnable deal, taken on yes
    draw: bool
    request: DealRequest


def offer_of(reply: Reply) -> Offer | None:
    """The new-game question a reply asks, if it asks one."""
    message = reply.message
    if message is None or message.question is None:
        return None
    question = message.question
    assert question.ask is Ask.NEW_GAME
    request = DealRequest.from_tokens(question.args[1:])
    assert request is not None, question.args
    return Offer(message.text, int(question.args[0]), request.game_id, request.deal, request.draw,
                 request)


ALICE = Player(user_id=111, guild_id=900)
BOB = Player(user_id=222, guild_id=900)


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "data" / "solitaire.db"


@pytest.fixture
async def store(db_path: Path) -> AsyncIterator[Stores]:
    """The test's SQLite store, its daily deals those of daily_lines.py (no secret)."""
    opened = await Stores.open(db_path)
    await without_daily_secret(opened)
    yield opened
    await opened.close()


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def picture() -> PositionPicture:
    return PositionPicture()


@pytest.fixture
async def core(store: Stores, clock: Clock, picture: PositionPicture) -> AsyncIterator[Core]:
    """The core over the test's store, its pictures the position as JSON."""
    made = Core(store, renderer=picture, clock=clock, deals=random.Random(5))
    yield made
    await made.close()


class AsTheCoreCalls:
    """A flow called as the core calls it: a refusal it raises (``Refused``) is the reply
    the player is shown, and nothing else is caught (a failure fails the test)."""

    def __init__(self, flow: Any) -> None:
        self._flow = flow

    def __getattr__(self, name: str) -> Any:
        found = getattr(self._flow, name)
        if not inspect.iscoroutinefunction(found):
            return found

        @functools.wraps(found)
        async def answered(*args: Any, **kwargs: Any) -> Any:
            try:
                return await found(*args, **kwargs)
            except Refused as refused:
                return refused.reply

        return answered


def as_the_core_calls(flow: GameFlow) -> GameFlow:
    """``flow``, its refusals answered as replies (see ``AsTheCoreCalls``)."""
    return cast(GameFlow, AsTheCoreCalls(flow))


@pytest.fixture
def flow(core: Core) -> GameFlow:
    return as_the_core_calls(core.game)


@pytest.fixture
async def stepped(store: Stores, clock: Clock, picture: PositionPicture
                  ) -> AsyncIterator[GameFlow]:
    """The game flow of a core whose verdict checks run only when the test steps through
    them (``solver.run_waiting_checks``), with no rest between them."""

    async def no_rest(_seconds: float) -> None:
        return None

    made = Core(store, renderer=picture, clock=clock, deals=random.Random(5),
                pace=Pace(rest=no_rest, background=False))
    yield as_the_core_calls(made.game)
    await made.close()


# -- both backends (pg_url comes from tests/conftest.py) ----------------------------------


@pytest.fixture(params=["sqlite", "postgresql"])
def store_target(request: pytest.FixtureRequest, db_path: Path) -> Path | str:
    """What ``Stores.open`` takes, for each backend in turn: a file path, a URL."""
    if request.param == "sqlite":
        return db_path
    return str(request.getfixturevalue("pg_url"))


@pytest.fixture
async def any_store(store_target: Path | str) -> AsyncIterator[Stores]:
    """A store on each backend in turn: tests of the store's contract take this one."""
    opened = await Stores.open(store_target)
    yield opened
    await opened.close()


@pytest.fixture
async def pair(store_target: Path | str) -> AsyncIterator[tuple[Stores, Stores]]:
    """Two bot processes on one database, on each backend in turn: two stores opened on it."""
    first = await Stores.open(store_target)
    second = await Stores.open(store_target)
    yield first, second
    await first.close()
    await second.close()


@pytest.fixture
async def any_core(
    any_store: Stores, clock: Clock, picture: PositionPicture
) -> AsyncIterator[Core]:
    """The core over each backend in turn (what it tells a player must be true on both),
    its daily deals those of daily_lines.py."""
    await without_daily_secret(any_store)
    made = Core(any_store, renderer=picture, clock=clock, deals=random.Random(5))
    yield made
    await made.close()


async def picture_of(flow: GameFlow, board: Board) -> dict[str, Any]:
    """What ``board``'s picture shows (drawn now, as a presenter that shows pictures has
    it drawn), as ``PositionPicture`` writes it."""
    drawn = await flow.draw(board)
    shown: dict[str, Any] = json.loads(drawn.png)
    return shown
