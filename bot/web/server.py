"""The page's server (aiohttp, which discord.py brings already: no new dependency, and one
event loop with the bot's when both run in one process).

Each request that acts is one call of the core with a ``WebReplies``, whose JSON is the
answer; the page's moves are checked by the engine there like any other, never trusted.
The page's socket (``live.py``) pushes the board to it whenever the game changes elsewhere.
Every asset is served from here (Discord's proxy allows no other host): the page, its
stylesheet and its script, the SDK bundled in. Requests carry a signed session
(``sessions.py``), got by signing in through Discord (``signin.py``) — or, in dev mode only
(``--dev``, on loopback), as whichever user the page's URL names (``/?dev_user=<id>``).
A game counts in the server the Activity was opened in only when Discord says the player
is a member of it (``Members``, asked once at sign-in). How much any one player or address
is answered is ``limits.py``'s to say; how a refusal reads, ``refusals.py``'s.
"""

from __future__ import annotations

import gzip
import json
import logging
import re
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from aiohttp import web

from engine import GAMES, MAX_DEAL
from engine.moves import MAX_TEXT

from ..config import Network
from ..core import Core
from ..flows.races import Where
from ..flows.settings import WORDS
from ..replies import Action, Ask, Player, Question, is_id
from ..replies.player_actions import PAGE_SENDS
from ..words.language import language_of, speaking
from . import bodies, limits
from .limits import TryLater, client_address
from .live import PAGE_ID, PAGE_ID_RULE, Live
from .refusals import BadRequest, refusing, secure
from .sessions import Sessions
from .signin import Instances, Members, SignIn, SignInBusy, SignInRefused
from .tables import Door, dev_name
from .view import ChannelBoards, WebReplies, page_start, page_words

log = logging.getLogger(__name__)

STATIC = Path(__file__).with_name("static")
ASSETS = {"app.js": "text/javascript", "app.css": "text/css", "favicon.svg": "image/svg+xml"}
# The actions the page's tool bar and dragged cards ask for, by name; anything else is refused.
ACCEPTED = {a.value: a for a in PAGE_SENDS}
BODY_LIMIT = 4096  # bytes: the largest request the page sends is a few dozen
ARG = re.compile(r"[a-z0-9-]{1,30}")  # a question's argument: a game, a number, a flag
SETTINGS = tuple(WORDS)  # the settings the page may change, by the command's option names
SHARED_LIMIT = 10 * 2**20  # bytes: a replay shared as a moment (what Discord takes from anyone)
COMPRESSED_FROM = 1024  # bytes: an answer this long or longer goes gzipped where accepted


@dataclass(frozen=True)
class Asset:
    body: bytes
    gzipped: bytes
    content_type: str


class WebServer:
    """The page's routes over ``core``. ``signin``: Discord's OAuth2 (None: no sign-in but
    dev mode's); ``dev``: sign in as any user the page names, for development;
    ``members``: asks Discord with the bot's token whether a player is in the server the
    page names (None: no token here, so no game counts in a server); ``instances``: asks
    Discord who is at an Activity's table (None: no token, so the page plays alone);
    ``trusted``: the proxies whose ``X-Forwarded-For`` is believed
    (``WEB_TRUSTED_PROXIES``)."""

    def __init__(self, core: Core, sessions: Sessions, *, signin: SignIn | None,
                 dev: bool = False, channels: ChannelBoards | None = None,
                 members: Members | None = None, instances: Instances | None = None,
                 trusted: tuple[Network, ...] = ()) -> None:
        self.core = core
        self.sessions = sessions
        self.signin = signin
        self.dev = dev
        self.channels = channels
        self.members = members
        self._said_no_members = False
        self.trusted = trusted
        self.per_player = limits.Buckets(limits.PER_PLAYER)
        self.sign_ins = limits.Buckets(limits.SIGN_INS_PER_ADDRESS)
        self.live = Live(core, sessions, self.per_player, channels,
                         Door(dev=dev, instances=instances))
        if channels is not None:  # a race's result is posted where its Activity was opened
            core.races.announce = channels.post
        self.assets = {name: _asset(STATIC / name, kind) for name, kind in ASSETS.items()}
        self.index = (STATIC / "index.html").read_text(encoding="utf-8")

    def app(self) -> web.Application:
        app = web.Application(client_max_size=BODY_LIMIT, middlewares=[refusing(dev=self.dev)])
        app.on_response_prepare.append(secure)
        app.router.add_get("/", self.page)
        for name in self.assets:
            app.router.add_get(f"/{name}", self.asset)
        app.router.add_post("/api/signin", self.sign_in)
        app.router.add_post("/api/dev/signin", self.dev_sign_in)
        app.router.add_get("/api/board", self.board)
        app.router.add_get("/api/live", self.live.socket)
        app.router.add_post("/api/act", self.act)
        app.router.add_post("/api/new", self.new_game)
        app.router.add_post("/api/daily", self.daily)
        app.router.add_post("/api/rules", self.rules)
        app.router.add_post("/api/answer", self.answer)
        app.router.add_post("/api/settings", self.settings)
        app.router.add_post("/api/replay", self.replay)
        app.router.add_post("/api/race", self.race)
        app.router.add_post("/api/race/join", self.join_race)
        app.router.add_get("/favicon.ico", self.favicon)
        app.on_shutdown.append(self.live.close_all)
        return app

    # -- the page and its assets --------------------------------------------------------

    async def page(self, request: web.Request) -> web.Response:
        client_id = self.signin.client_id if self.signin is not None else ""
        html = self.index.replace("{{CLIENT_ID}}", client_id)
        return web.Response(text=html, content_type="text/html",
                            headers={"Cache-Control": "no-cache"})

    async def favicon(self, request: web.Request) -> web.Response:
        """The icon a browser asks for by its old name, whatever the page's link says."""
        raise web.HTTPMovedPermanently("favicon.svg")

    async def asset(self, request: web.Request) -> web.Response:
        asset = self.assets[request.path.lstrip("/")]
        headers = {"Cache-Control": "no-cache", "Vary": "Accept-Encoding"}
        if "gzip" in request.headers.get("Accept-Encoding", ""):
            headers["Content-Encoding"] = "gzip"
            return web.Response(body=asset.gzipped, content_type=asset.content_type,
                                headers=headers)
        return web.Response(body=asset.body, content_type=asset.content_type, headers=headers)

    # -- signing in ---------------------------------------------------------------------

    async def sign_in(self, request: web.Request) -> web.Response:
        """The SDK's code, exchanged for an access token (for the SDK's ``authenticate``)
        and a session for this server."""
        if self.signin is None:
            raise web.HTTPNotFound(text="Signing in through Discord is not set up here.")
        self._sign_in_from(request)
        body = await bodies.read_body(request)
        code = bodies.text(body, "code", 200)
        named = bodies.guild(body)
        try:
            token = await self.signin.exchange(code)
            user = await self.signin.who(token)
        except SignInBusy as err:
            raise TryLater("Discord is signing in too many players just now: try again in "
                           "a moment.", err.retry_after_s, status=503) from None
        except SignInRefused as err:
            log.warning("a sign-in was refused: %s", err)
            return web.json_response({"error": "Discord did not accept the sign-in."},
                                     status=401)
        guild = await self._server(named, user.user_id)
        return self._signed(user.user_id, user.locale, guild, name=user.name,
                            avatar=user.avatar, access_token=token)

    async def dev_sign_in(self, request: web.Request) -> web.Response:
        """Dev mode only: a session for the user the page's URL names (and the server,
        trusted as at a real sign-in: if Discord says they are in it)."""
        if not self.dev:
            raise web.HTTPNotFound(text="There is no dev sign-in: the server is not in dev "
                                        "mode (--dev).")
        self._sign_in_from(request)
        body = await bodies.read_body(request)
        user = bodies.whole(bodies.text(body, "user", 20))
        if user is None or not is_id(user):
            raise BadRequest("dev_user must be a user id: digits 0 to 9")
        locale = body.get("locale")
        guild = await self._server(bodies.guild(body) or bodies.guild(dict(request.query)), user)
        return self._signed(user, locale if isinstance(locale, str) else None, guild,
                            name=dev_name(user))

    async def _server(self, guild_id: int | None, user_id: int) -> int | None:
        """``guild_id`` if Discord says ``user_id`` is a member of it; else None (no server:
        the game counts in none, as in a DM)."""
        if guild_id is None:
            return None
        if self.members is None:
            if not self._said_no_members:
                self._said_no_members = True
                log.warning("games on the page count in no server: this process has no bot "
                            "token (DISCORD_TOKEN) to ask Discord who is a member of one")
            return None
        member = await self.members(guild_id, user_id)
        if member is None:
            log.warning("Discord could not be asked whether user %d is in server %d: their "
                        "games on the page count in no server until they sign in again",
                        user_id, guild_id)
        elif not member:
            log.info("user %d signed in naming server %d, which Discord says they are not "
                     "in (or the bot is not): their games on the page count in no server",
                     user_id, guild_id)
        return guild_id if member else None

    def _sign_in_from(self, request: web.Request) -> None:
        """Count a sign-in against its address's share (none known: no share to count)."""
        address = client_address(request.remote, request.headers.getall("X-Forwarded-For", []),
                                 self.trusted)
        if address is not None and (wait := self.sign_ins.take(address)):
            raise TryLater("Too many sign-ins from this address: try again later.", wait)

    def _signed(self, user_id: int, locale: str | None, guild_id: int | None = None, *,
                name: str, avatar: str | None = None, **extra: str) -> web.Response:
        language = language_of(locale)
        with speaking(language):
            words, start = page_words(language), page_start(user_id)
        session = self.sessions.sign(user_id, language, guild_id, name=name, avatar=avatar)
        return web.json_response({"session": session,
                                  "language": language, "words": words, "start": start,
                                  "games": GAMES, **extra})

    # -- playing: each one call of the core ---------------------------------------------

    async def board(self, request: web.Request) -> web.Response:
        """The player's board; with ``have`` (``row.revision``) and ``lost=1`` if it said
        that no win is possible, nothing new while the game is still there and so is the
        verdict (``{"same": true}``). (The page asks once, then follows the game on its
        socket: ``live.py``.)"""
        player = self._player(request)
        seen = bodies.ref_of(request.query.get("have"))
        lost = request.query.get("lost") == "1"
        return await self._call(request, player, lambda presenter: self.core.board(
            player, seen, seen_lost=lost, presenter=presenter), empty={"same": True})

    async def act(self, request: web.Request) -> web.Response:
        player = self._player(request)
        body = await bodies.read_body(request)
        action = ACCEPTED.get(bodies.text(body, "action", 10))
        if action is None:
            raise BadRequest(f"action must be one of {', '.join(ACCEPTED)}")
        move = bodies.text(body, "move", MAX_TEXT) if action is Action.MOVE else None
        seen = bodies.ref_of(body.get("seen"))
        return await self._call(request, player, lambda presenter: self.core.act(
            player, action, move, seen=seen, presenter=presenter))

    async def new_game(self, request: web.Request) -> web.Response:
        player = self._player(request)
        body = await bodies.read_body(request)
        game = bodies.game_of(body)
        deal = body.get("deal")
        if deal is not None and (not isinstance(deal, int) or isinstance(deal, bool)
                                 or not 0 < deal <= MAX_DEAL):
            raise BadRequest(f"deal must be a number from 1 to {MAX_DEAL}")
        winnable = body.get("winnable", False)
        if not isinstance(winnable, bool) or (winnable and deal is not None):
            raise BadRequest("winnable must be true or false, and not true beside a deal")
        return await self._call(request, player, lambda presenter: self.core.new_game(
            player, game, deal, winnable=winnable, presenter=presenter))

    async def daily(self, request: web.Request) -> web.Response:
        player = self._player(request)
        body = await bodies.read_body(request)
        game = bodies.game_of(body)
        return await self._call(request, player, lambda presenter: self.core.daily(player, game,
                                                                            presenter=presenter))

    async def rules(self, request: web.Request) -> web.Response:
        """How a game plays, for the page's Rules button (as the help names it)."""
        player = self._player(request)
        game = bodies.game_of(await bodies.read_body(request))
        return await self._call(request, player, lambda presenter: self.core.rules(player, game,
                                                                            presenter=presenter))

    async def answer(self, request: web.Request) -> web.Response:
        """A yes or no to a question a reply asked (a new game over an unfinished one)."""
        player = self._player(request)
        body = await bodies.read_body(request)
        try:
            ask = Ask(bodies.text(body, "ask", 10))
        except ValueError:
            raise BadRequest("ask names no question") from None
        args = body.get("args")
        if (not isinstance(args, list) or len(args) > 8
                or not all(isinstance(a, str) and ARG.fullmatch(a) for a in args)):
            raise BadRequest("args must be a short list of short texts, each of a to z, 0 to 9 "
                             "and -: the question's own")
        question = Question(ask, player.user_id, "", "", tuple(args))
        yes = body.get("yes") is True
        return await self._call(request, player, lambda presenter: self.core.answer_question(
            player, question, yes, presenter=presenter))

    async def settings(self, request: web.Request) -> web.Response:
        """The player's settings, the same as ``/settings``: changed by those the body names
        (``{"four_colour": false}``), or shown as they are (``{}``)."""
        player = self._player(request)
        body = await bodies.read_body(request)
        unknown = set(body) - set(SETTINGS)
        if unknown or not all(isinstance(v, bool) for v in body.values()):
            raise BadRequest(f"the body names settings, each true or false: "
                             f"{', '.join(SETTINGS)}")
        changes: dict[str, bool] = dict(body)
        return await self._call(request, player, lambda presenter: self.core.change_settings(
            player, presenter=presenter, **changes))

    async def replay(self, request: web.Request) -> web.Response:
        """The player's own game, move by move, as an animated GIF (their current game, else
        their last finished one: a win just made), as ``/replay`` draws it, within what
        Discord takes as an attachment: what the page shares as a moment inside Discord.
        A refusal (nothing to replay, a cooldown) is answered as any other, in JSON."""
        player = self._player(request)
        with self.live.answering(player.user_id, _page_named(request)):
            replies = WebReplies(player, self.channels)
            await self.core.replay(player, limit=SHARED_LIMIT, presenter=replies)
        message = replies.reply.message
        if message is None or message.image is None:
            with speaking(player.language):
                return _json(request, replies.shown())
        return web.Response(body=message.image, content_type="image/gif", headers={
            "Content-Disposition": f'inline; filename="{message.filename}"'})

    async def race(self, request: web.Request) -> web.Response:
        """Start a race of a game at the table the page sits at (``{"instance", "game"}``)."""
        player, name = self._player(request), self._name(request)
        body = await bodies.read_body(request)
        game, at = bodies.game_of(body), await self._seated(body, player)
        where = Where(at, *self.live.door.where(at))
        return await self._call(request, player, lambda presenter: self.core.start_race(
            player, name, where, game, presenter=presenter))

    async def join_race(self, request: web.Request) -> web.Response:
        """Join the race counting down at the page's table (``{"instance", "race"}``)."""
        player, name = self._player(request), self._name(request)
        body = await bodies.read_body(request)
        race = bodies.race_id(body)
        at = await self._seated(body, player)
        return await self._call(request, player, lambda presenter: self.core.join_race(
            player, name, at, race, presenter=presenter))

    async def _seated(self, body: dict[str, Any], player: Player) -> str:
        """The table the body names, if the player may sit at it; else refused, saying why."""
        at = bodies.instance(body)
        why = await self.live.door.refusal(at, player.user_id)
        if why is not None:
            raise web.HTTPForbidden(text=why[0].upper() + why[1:] + ".")
        return at

    def _name(self, request: web.Request) -> str:
        """The name the player signed in with (in dev mode, ``Player <id>``)."""
        session = self.sessions.read(request.headers.get("Authorization", "")
                                     .removeprefix("Bearer ").strip())
        assert session is not None  # (``_player`` read it first)
        return session.name or dev_name(session.user_id)

    async def _call(
        self, request: web.Request, player: Player,
        call: Callable[[WebReplies], Awaitable[None]], *, empty: dict[str, Any] | None = None,
    ) -> web.Response:
        with self.live.answering(player.user_id, _page_named(request)) as answered:
            replies = WebReplies(player, self.channels)
            await call(replies)
            reply = replies.reply
            answered(reply.board)  # (its socket need not push it back)
        if empty is not None and reply.board is None and reply.message is None and not reply.note:
            return web.json_response(empty)
        with speaking(player.language):
            shown = replies.shown()
        return _json(request, shown)

    def _player(self, request: web.Request) -> Player:
        header = request.headers.get("Authorization", "")
        token = header.removeprefix("Bearer ").strip()
        if not token.isascii():
            raise BadRequest("the session must be ASCII text, as signing in gave it")
        session = self.sessions.read(token)
        if session is None:
            raise web.HTTPUnauthorized(text="Sign in first: the session is missing or has "
                                            "expired.")
        if wait := self.per_player.take(session.user_id):
            raise TryLater("Too many requests from this player: try again in a moment.", wait)
        # The server Discord said at sign-in the player is in (None: a DM, or none trusted).
        return Player(session.user_id, session.guild_id, session.language)


def _page_named(request: web.Request) -> str | None:
    """The page a request comes from, as it names itself (``X-Page``: its socket's)."""
    named = request.headers.get("X-Page")
    if named is not None and not PAGE_ID.fullmatch(named):
        raise BadRequest(f"X-Page must be {PAGE_ID_RULE}")
    return named


def _json(request: web.Request, data: dict[str, Any]) -> web.Response:
    """``data`` as JSON, gzipped where the page accepts it and it is long enough to gain."""
    body = json.dumps(data, separators=(",", ":"), ensure_ascii=False).encode()
    response = web.Response(body=body, content_type="application/json")
    if len(body) >= COMPRESSED_FROM and "gzip" in request.headers.get("Accept-Encoding", ""):
        response.enable_compression(web.ContentCoding.gzip)
    return response


def _asset(path: Path, content_type: str) -> Asset:
    body = path.read_bytes()
    return Asset(body, gzip.compress(body, 9, mtime=0), content_type)

