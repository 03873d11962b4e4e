"""The page's socket (``GET /api/live``): the player's board pushed to the page the moment it
changes anywhere — a slash command, the console, another of their pages, the solver finding
that no win is possible — in this process or, through the database's notices, in any
(``Core.follow``). Nothing is asked again while nothing changes.

The page speaks once, when it connects (a browser cannot give a socket a header, so the
session comes in that message, within ``HELLO_S``)::

    {"session": "...", "page": "<its own id>", "have": [row, revision] | null,
     "lost": bool, "fourColour": bool, "instance": "<the Activity's instance>"}

``have``, ``lost`` and ``fourColour`` say what the page shows, so nothing it has is sent
again; ``page`` is an id the page made up for itself, which its requests carry too
(``X-Page``): the board a request is answered with is then known to be on that page, and the
change the request made is not pushed back to it. The server pushes ``{"board": {...}}`` (as
``api/board`` answers it) whenever the board differs from what the page shows, and
``{"noGame": true}`` when a game the page shows is gone (forgotten). A push never says a
refusal: a board out of date is simply followed by the board as it is.

With an ``instance`` (the SDK's ``instanceId``; in dev mode the URL's ``?instance=``), the
page sits at that Activity's table for as long as its socket is open, if it may
(``tables.Door``), and is pushed ``{"table": {"you": "<its player>", "now": <the server's
time>, "players": [...], "race": {...} | null}}`` whenever anyone there sits down, leaves,
or moves, or its race changes (``tables.table_json``, ``tables.race_json``), in any process.

A page at a table may also open another socket to watch another player's table there:
``{"session", "page", "instance", "watch": "<their id>"}``. It is pushed that player's board
(``{"board"}``, read-only: the page proposes no move on it) whenever it changes, for as
long as both sit at the table and that player's boards are not private; then it is closed
with ``WATCH_ENDED`` and why.

A socket the server will not keep is closed with a code and its reason: ``BAD_MESSAGE``
(what was wrong), ``SIGNED_OUT`` (the session is missing, forged or has expired: sign in
again), ``TOO_MANY`` (too many sockets from one player: try later) and ``GOING_AWAY`` (the
server is stopping: connect again shortly), ``NOT_SEATED`` (the page may not sit at the
table it named: play alone, without one) and ``WATCH_ENDED`` (the table watched can no
longer be: its player left, or made their boards private).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import re
import secrets
import weakref
from collections import Counter
from collections.abc import Callable, Coroutine, Iterator
from dataclasses import dataclass
from typing import Any

from aiohttp import WSCloseCode, WSMsgType, web

from ..core import Core
from ..flows.changes import Follower
from ..flows.tables import Watch
from ..ops.metrics import WATCHED
from ..replies import Board, BoardRef, Player, is_id
from ..store.seats import Seat
from ..words.language import speaking
from . import limits
from .sessions import Session, Sessions
from .tables import INSTANCE, INSTANCE_RULE, Door, dev_name, race_json, table_json
from .view import ChannelBoards, WebReplies, board_json

log = logging.getLogger(__name__)

HELLO_S = 10.0  # the first message, with the session, must come within this
HEARTBEAT_S = 25.0  # a ping this often: idle sockets stay open through proxies, dead ones end
MESSAGE_LIMIT = 1024  # bytes: the page's messages are a few dozen, a session's a few hundred
SOCKETS_PER_PLAYER = 8  # a player's pages open at once (tabs, a phone and a computer)
PAGE_ID = re.compile(r"[A-Za-z0-9-]{8,40}")
PAGE_ID_RULE = "the page's own id: 8 to 40 letters, digits or -"

BAD_MESSAGE = 4400
SIGNED_OUT = 4401
NOT_SEATED = 4403
WATCH_ENDED = 4410
TOO_MANY = 4429
GOING_AWAY = int(WSCloseCode.GOING_AWAY)


@dataclass(frozen=True)
class Shows:
    """What a page shows: its board's ref (None: no board), whether it says no win is
    possible, and in which deck's colours."""

    ref: BoardRef | None
    lost: bool = False
    four_colour: bool = False


class Refusal(Exception):
    """The socket is closed with ``code`` and this message as its reason."""

    def __init__(self, code: int, why: str) -> None:
        super().__init__(why)
        self.code = code


class _Page:
    """One socket's page: what it shows, as it said or was last sent or answered, and how
    many of its requests are being answered now (a push waits for them: their answers
    bring the page the board they made)."""

    def __init__(self, shows: Shows) -> None:
        self.shows = shows
        self._asking = 0
        self._quiet = asyncio.Event()
        self._quiet.set()

    @contextlib.contextmanager
    def asking(self) -> Iterator[None]:
        self._asking += 1
        self._quiet.clear()
        try:
            yield
        finally:
            self._asking -= 1
            if not self._asking:
                self._quiet.set()

    async def quiet(self) -> None:
        await self._quiet.wait()

    def answered(self, board: Board | None) -> None:
        if board is not None and board.table is not None:
            self.shows = Shows(board.ref, board.proven_lost, board.table.four_colour)


class Live:
    """The sockets of the page's players over ``core``, each signed in by its first message
    (``sessions``, counted against ``per_player`` as a request is)."""

    def __init__(self, core: Core, sessions: Sessions, per_player: limits.Buckets,
                 channels: ChannelBoards | None = None, door: Door | None = None) -> None:
        self.core = core
        self.sessions = sessions
        self.per_player = per_player
        self.channels = channels
        self.door = door or Door(dev=False, instances=None)
        self._open: Counter[int] = Counter()  # each player's sockets
        self._pages: dict[tuple[int, str], _Page] = {}  # by player and the page's own id
        self._sockets: set[web.WebSocketResponse] = set()
        # each table's players as last made into JSON, with the watch's version then
        self._tables: weakref.WeakKeyDictionary[Watch, tuple[int, str]] = (
            weakref.WeakKeyDictionary())
        WATCHED.gauge("solitaire_page_sockets", "The page's sockets (api/live) open on this "
                      "process", lambda: len(self._sockets))

    @property
    def connected(self) -> int:
        return len(self._sockets)

    @contextlib.contextmanager
    def answering(self, user_id: int,
                  page_named: str | None) -> Iterator[Callable[[Board | None], None]]:
        """While a request of the player's page named ``page_named`` (``X-Page``; None: none)
        is answered: that page's socket pushes nothing meanwhile. Yields what to tell with
        the board the answer carries (None: none)."""
        page = None if page_named is None else self._pages.get((user_id, page_named))
        if page is None:
            yield _ignore
            return
        with page.asking():
            yield page.answered

    async def socket(self, request: web.Request) -> web.StreamResponse:
        ws = web.WebSocketResponse(heartbeat=HEARTBEAT_S, max_msg_size=MESSAGE_LIMIT)
        if not ws.can_prepare(request).ok:
            raise web.HTTPBadRequest(text="api/live is a WebSocket: connect with an Upgrade.")
        await ws.prepare(request)
        self._sockets.add(ws)
        try:
            await self._serve(ws)
        except Refusal as refusal:
            await ws.close(code=refusal.code, message=str(refusal).encode()[:120])
        finally:
            self._sockets.discard(ws)
        return ws

    async def close_all(self, app: web.Application | None = None) -> None:
        """Close every socket, saying the server is going away (on the server's shutdown:
        the pages connect again to whichever process serves next)."""
        await asyncio.gather(*(ws.close(code=GOING_AWAY, message=b"the server is restarting")
                               for ws in list(self._sockets)), return_exceptions=True)

    async def _serve(self, ws: web.WebSocketResponse) -> None:
        try:
            async with asyncio.timeout(HELLO_S):
                hello = await _message(ws)
        except TimeoutError:
            raise Refusal(BAD_MESSAGE, f"the first message, with the session, must come "
                                       f"within {HELLO_S:.0f} s") from None
        if hello is None:
            return
        token = hello.get("session")
        if not isinstance(token, str) or not token.isascii():
            raise Refusal(SIGNED_OUT, "the first message must carry the session signing in gave")
        session = self.sessions.read(token)
        if session is None:
            raise Refusal(SIGNED_OUT, "sign in first: the session is missing or has expired")
        if self.per_player.take(session.user_id):
            raise Refusal(TOO_MANY, "too many requests from this player: try again in a moment")
        if self._open[session.user_id] >= SOCKETS_PER_PLAYER:
            raise Refusal(TOO_MANY, f"at most {SOCKETS_PER_PLAYER} pages of one player are "
                                    "kept up to date at once")
        player = Player(session.user_id, session.guild_id, session.language)
        page, key = _Page(_shows(hello)), (player.user_id, page_id(hello.get("page")))
        instance, watched = _instance(hello), _watched(hello)
        if watched is not None and (instance is None or watched == player.user_id):
            raise Refusal(BAD_MESSAGE, "watch names another player at the table the page "
                                       "names (instance)")
        if instance is not None:
            why = await self.door.refusal(instance, player.user_id)
            if why is not None:
                raise Refusal(NOT_SEATED, why)
        with self._counted(player.user_id):
            if watched is not None and instance is not None:
                await self._serve_watching(ws, token, player, instance, watched)
                return
            self._pages[key] = page  # (a page connecting again takes its id's place)
            try:
                async with contextlib.AsyncExitStack() as stack:
                    follower = stack.enter_context(self.core.follow(player.user_id))
                    send = _Sender(ws)
                    steps = [_listen(ws), self._push(send, token, player, page, follower)]
                    if instance is not None:
                        watch, since = await stack.enter_async_context(
                            self.core.tables.sitting(_seat(session, instance)))
                        steps.append(self._push_table(send, watch, since, player.user_id))
                    await _first(*steps)
            finally:
                if self._pages.get(key) is page:
                    del self._pages[key]

    @contextlib.contextmanager
    def _counted(self, user_id: int) -> Iterator[None]:
        """One more socket of the player's open while the ``with`` lasts."""
        self._open[user_id] += 1
        try:
            yield
        finally:
            self._open[user_id] -= 1
            if not self._open[user_id]:
                del self._open[user_id]

    async def _push(self, send: _Sender, token: str, player: Player, page: _Page,
                    follower: Follower) -> None:
        """The board whenever it is not what the page shows: now, then at each change (once
        the page's own requests are answered)."""
        while True:
            await page.quiet()
            if self.sessions.read(token) is None:
                raise Refusal(SIGNED_OUT, "the session has expired: sign in again")
            now = await self.core.shows(player.user_id)
            if now is not None and Shows(*now) == page.shows:  # (most often: its own move)
                await follower.wait()
                continue
            pushed = await self._news(player, page)
            if pushed is not None:
                await send(json.dumps(pushed, separators=(",", ":"), ensure_ascii=False))
            await follower.wait()

    async def _serve_watching(self, ws: web.WebSocketResponse, token: str, viewer: Player,
                              instance: str, watched: int) -> None:
        async with self.core.tables.watching(instance) as watch:
            with self.core.follow(watched) as follower:
                await _first(_listen(ws), self._push_watched(_Sender(ws), token, viewer, watch,
                                                             watched, follower))

    async def _push_watched(self, send: _Sender, token: str, viewer: Player, watch: Watch,
                            watched: int, follower: Follower) -> None:
        """The watched player's board, as the viewer reads it, whenever it changes, while
        both sit at the table and the watched player's boards are not private."""
        await watch.looked(0)
        shown: tuple[BoardRef, bool, bool] | None = None  # (as ``Core.shows`` says it)
        while True:
            if self.sessions.read(token) is None:
                raise Refusal(SIGNED_OUT, "the session has expired: sign in again")
            at = {p.user_id: p for p in watch.players}
            if viewer.user_id not in at:
                raise Refusal(WATCH_ENDED, "only a player at the table watches a table there")
            if watched not in at:
                raise Refusal(WATCH_ENDED, "that player is not at this table")
            if at[watched].private or await self.core.settings.private(watched):
                raise Refusal(WATCH_ENDED, "that player's boards are private")
            now = await self.core.shows(watched)
            if now is not None and now == shown:  # (someone sat down, or left: no move)
                await _first(follower.wait(), watch.changed(watch.version))
                continue
            replies = WebReplies(Player(watched, None, viewer.language), self.channels)
            await self.core.board(replies.player, presenter=replies)
            board = replies.reply.board
            if board is not None and board.table is not None:
                shown = now
                with speaking(viewer.language):
                    await send(json.dumps({"board": board_json(board, viewer.user_id)},
                                          separators=(",", ":"), ensure_ascii=False))
            await _first(follower.wait(), watch.changed(watch.version))

    async def _push_table(self, send: _Sender, watch: Watch, since: int, user_id: int) -> None:
        """The table once the watch has looked with the page there (past look ``since``),
        then each time it changes."""
        you = json.dumps(str(user_id))
        await watch.looked(since)
        while True:
            seen = watch.version
            now = json.dumps(round(self.core.tables.now(), 3))
            await send(f'{{"table":{{"you":{you},"now":{now},{self._table(watch, seen)}}}}}')
            await watch.changed(seen)

    def _table(self, watch: Watch, version: int) -> str:
        """The table's players and race as JSON members, made once for all this process's
        pages there."""
        made = self._tables.get(watch)
        if made is None or made[0] != version:
            table = {**table_json(watch.players), "race": race_json(watch.race)}
            made = version, json.dumps(table, separators=(",", ":"), ensure_ascii=False)[1:-1]
            self._tables[watch] = made
        return made[1]

    async def _news(self, player: Player, page: _Page) -> dict[str, Any] | None:
        """What to push to ``page`` (None: nothing, it shows the board as it is), and what
        it then shows."""
        replies = WebReplies(player, self.channels)
        await self.core.board(player, presenter=replies)
        board = replies.reply.board
        if board is not None and board.table is not None:
            shows = Shows(board.ref, board.proven_lost, board.table.four_colour)
            if shows == page.shows:
                return None
            page.shows = shows
            with speaking(player.language):
                return {"board": board_json(board, player.user_id)}
        if replies.reply.no_game and page.shows.ref is not None:
            page.shows = Shows(None)
            return {"noGame": True}
        return None  # no game still, or the database out of reach: the next change tells


class _Sender:
    """A socket's messages sent one at a time (the board's pushes and the table's)."""

    def __init__(self, ws: web.WebSocketResponse) -> None:
        self._ws = ws
        self._lock = asyncio.Lock()

    async def __call__(self, text: str) -> None:
        # A page gone, or the server closing it: its listener ends, and the rest with it.
        async with self._lock:
            with contextlib.suppress(ConnectionResetError):
                await self._ws.send_str(text)


def _seat(session: Session, instance: str) -> Seat:
    """A new seat at ``instance`` for the page of the session's player."""
    return Seat(secrets.token_hex(12), instance, session.user_id,
                session.name or dev_name(session.user_id), session.avatar)


async def _first(*steps: Coroutine[Any, Any, None]) -> None:
    """Until the first of ``steps`` is done, the others cancelled; what it raised is raised
    (a refusal, which closes the socket)."""
    tasks = [asyncio.create_task(step) for step in steps]
    try:
        done, _ = await asyncio.wait(tasks, return_when=asyncio.FIRST_COMPLETED)
    finally:
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
    for task in done:
        task.result()


def _watched(said: dict[str, Any]) -> int | None:
    """The player whose table the page watches (None: none: it plays its own)."""
    watched = said.get("watch")
    if watched is None:
        return None
    if isinstance(watched, str) and len(watched) <= 20 and watched.isdigit() \
            and watched.isascii() and is_id(int(watched)):
        return int(watched)
    raise Refusal(BAD_MESSAGE, "watch must be a player's id: digits 0 to 9")


def _instance(said: dict[str, Any]) -> str | None:
    """The table the page names (None: it names none, and plays alone)."""
    instance = said.get("instance")
    if instance is None:
        return None
    if isinstance(instance, str) and INSTANCE.fullmatch(instance):
        return instance
    raise Refusal(BAD_MESSAGE, f"instance must be {INSTANCE_RULE}")


def page_id(value: object) -> str:
    """A page's own id, as it says it (``hello["page"]``, ``X-Page``); refused if it is not
    one the page makes (a short text of letters, digits and ``-``)."""
    if isinstance(value, str) and PAGE_ID.fullmatch(value):
        return value
    raise Refusal(BAD_MESSAGE, f"page must be {PAGE_ID_RULE}")


def _ignore(board: Board | None) -> None:
    """An answer to a request of no page with a socket here: nothing to tell."""


async def _listen(ws: web.WebSocketResponse) -> None:
    """Until the page goes: it says nothing after its first message."""
    if await _message(ws) is not None:
        raise Refusal(BAD_MESSAGE, "the page speaks once, when it connects")


async def _message(ws: web.WebSocketResponse) -> dict[str, Any] | None:
    """The page's next message, a JSON object; None once the socket is closing."""
    message = await ws.receive()
    if message.type in (WSMsgType.CLOSE, WSMsgType.CLOSING, WSMsgType.CLOSED, WSMsgType.ERROR):
        return None
    if message.type is not WSMsgType.TEXT:
        raise Refusal(BAD_MESSAGE, "each message must be a JSON object, sent as text")
    try:
        said = json.loads(message.data)
    except (ValueError, RecursionError):
        raise Refusal(BAD_MESSAGE, "each message must be JSON") from None
    if not isinstance(said, dict):
        raise Refusal(BAD_MESSAGE, "each message must be a JSON object")
    return said


def _shows(said: dict[str, Any]) -> Shows:
    """What a message says the page shows; refused if it does not say it as the page does."""
    have, lost, four = said.get("have"), said.get("lost", False), said.get("fourColour", False)
    if not isinstance(lost, bool) or not isinstance(four, bool):
        raise Refusal(BAD_MESSAGE, "lost and fourColour must be true or false")
    if have is None:
        return Shows(None)
    if (isinstance(have, list) and len(have) == 2
            and all(isinstance(n, int) and not isinstance(n, bool) for n in have)
            and is_id(have[0]) and 0 <= have[1] < 2**62):
        return Shows(BoardRef(have[0], have[1]), lost, four)
    raise Refusal(BAD_MESSAGE, "have must be a board's [row, revision] (two whole numbers) "
                               "or null")
