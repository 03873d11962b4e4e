"""The daily deal: each game has one deal a UTC day, the same for everyone.

Whoever starts today's daily deal of a game — with `/daily`, or with `/new` and that deal
number — makes a daily attempt. A player's first attempt at a game's daily deal that day is
scored: the game is tagged with the day, and its result feeds the daily board and daily
streaks. Later attempts that day are replays, played like any game but not scored. The store
decides which, in the transaction that starts the game (``GameStore.start``).

A day's deal is proven winnable (``engine.solver.daily``: the same on every machine), one
of the day's candidates keyed by the database's secret, so that the code alone tells nobody
tomorrow's deal; every process on one database (the bot's, the console's) reads the same
secret and deals the same day. It is kept in the database the first time any process asks
for it, and a day already played before deals were proven keeps the deal it was played
with, so a day's deal never changes under its players. The leader finds today's and
tomorrow's ahead of time.

Everything about the daily deal is here: which deal a day has, what a board says when one
is dealt and won, the streaks, and the day's board. The game flow starts the game itself.
The day comes from the flow's clock (Unix seconds), so tests choose where midnight falls.

A board's lines are worded in the language spoken when they are asked for (the player's,
around a game); the day's board is posted in the channel, so it speaks the server's. Days
stay written as ``2026-11-22``: that is how a player types one.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Iterable
from datetime import UTC, date, datetime, timedelta

from engine import GAMES
from engine.lru import LRU

from ..replies import Message, Player, Refused, Reply
from ..replies.text import Share, Text
from ..store import RESIGNED, WON, SavedGame
from ..store.daily import DailyStore
from ..store.database import StoreUnavailable
from ..store.games import GameStore
from ..store.results import ResultStore, Scope
from ..words.language import _, current, label, n_, p_, speaking
from ..words.phrases import code, command, format_seconds, medal, mention, typed_days
from .cooldowns import Cooldown, Cooldowns
from .scopes import board_scope, check_game, only_you_outside_servers

log = logging.getLogger(__name__)

DAILY_TOP = 10  # daily board winners shown
KEEP_AHEAD_EVERY_S = 3600.0  # the leader makes sure of today's and tomorrow's deals this often
KNOWN_DAYS = 64  # days' deals each process remembers, per game


def utc_day(now: float) -> date:
    """The UTC calendar day of a moment given in Unix seconds."""
    return datetime.fromtimestamp(now, UTC).date()


def to_next_day(now: float) -> float:
    """Seconds from ``now`` (Unix seconds) to the next UTC midnight: Unix time has no leap
    seconds, so each UTC day starts at a multiple of 86,400."""
    return 86_400.0 - now % 86_400.0


def daily_streaks(won_days: Iterable[date], today: date) -> tuple[int, int]:
    """(current, best) runs of consecutive UTC days with a won daily deal.

    The current streak is still alive on a day not yet won: it counts up to yesterday.
    """
    days = sorted(set(won_days))
    best = run = 0
    previous: date | None = None
    for day in days:
        run = run + 1 if previous is not None and day - previous == timedelta(days=1) else 1
        best = max(best, run)
        previous = day
    alive = previous is not None and (today - previous).days <= 1
    return (run if alive else 0), best


class DailyDeals:
    """The daily deals over the results they score, by the flow's ``clock``; ``find`` is
    the solver's search for a day's winnable deal (game, day, the database's secret)."""

    def __init__(
        self, store: DailyStore, results: ResultStore, games: GameStore, cooldowns: Cooldowns,
        find: Callable[[str, date, str], Awaitable[int]], clock: Callable[[], float],
    ) -> None:
        self.store = store
        self.results = results
        self.games = games
        self.cooldowns = cooldowns
        self._find = find
        self._clock = clock
        self._known: LRU[tuple[str, date], int] = LRU(KNOWN_DAYS * len(GAMES))
        self._finding = asyncio.Lock()  # one search at a time; the others wait for it
        self._secret: str | None = None  # the database's, read once: it never changes

    def today(self) -> date:
        return utc_day(self._clock())

    async def deal_of(self, game_id: str, day: date) -> int:
        """The deal everyone plays of ``game_id`` on ``day`` (UTC): the one kept for the
        day, else the one the day was played with before deals were kept, else the
        solver's, kept from then on."""
        key = (game_id, day)
        known = self._known.get(key)
        if known is not None:  # no wait behind another day's search
            return known
        async with self._finding:
            known = self._known.get(key)  # found while this one waited
            if known is None:
                iso = day.isoformat()
                known = (await self.store.deal(game_id, iso)
                         or await self.store.played(game_id, iso))
                if known is None:
                    if self._secret is None:
                        self._secret = await self.store.secret()
                    known = await self._find(game_id, day, self._secret)
                known = await self.store.keep(game_id, iso, known)
                self._known[key] = known
        return known

    async def todays_deal(self, game_id: str) -> tuple[date, int]:
        """Today (UTC) and the deal of ``game_id`` everyone plays on it."""
        today = self.today()
        return today, await self.deal_of(game_id, today)

    async def day_of(self, game_id: str, deal: int, now: float) -> str | None:
        """The day (``YYYY-MM-DD``) if ``deal`` is the daily deal of ``game_id`` on the day
        of ``now``, else None."""
        today = utc_day(now)
        return today.isoformat() if await self.deal_of(game_id, today) == deal else None

    async def todays_if_daily(self, game_id: str, deal: int) -> date | None:
        """Today (UTC), if ``deal`` is today's daily deal of ``game_id``; else None."""
        today = self.today()
        return today if await self.deal_of(game_id, today) == deal else None

    async def keep_ahead(self, *, pause_s: float = KEEP_AHEAD_EVERY_S) -> None:
        """The leader's job: find and keep today's and tomorrow's deals of every game, so
        that no player waits for a search at midnight."""
        while True:
            today = self.today()
            for day in (today, today + timedelta(days=1)):
                for game_id in GAMES:
                    try:
                        await self.deal_of(game_id, day)
                    except StoreUnavailable:
                        pass  # the outage is in the log already; again after the pause
                    except Exception:
                        log.exception("finding the daily deal of %s on %s failed", game_id, day)
            await asyncio.sleep(pause_s)

    async def has_attempt(self, user_id: int, game_id: str, day: date) -> bool:
        """Whether the player has started their scored attempt at that day's deal."""
        return await self.results.has_daily_attempt(user_id, game_id, day.isoformat())

    async def question_line(self, user_id: int, game_id: str, day: date) -> Text:
        """What a question to deal the day's deal over an unfinished game adds: whether it
        would be the player's scored attempt."""
        if await self.has_attempt(user_id, game_id, day):
            return _("📅 It is today's daily deal, and this would be a replay: your scored "
                     "attempt at it was made earlier today.")
        return _("📅 It is today's daily deal, and this would be your scored attempt.")

    # -- what a board says -------------------------------------------------------------

    @staticmethod
    def start_line(game_id: str, day: str, scored: bool) -> Text:
        """What the board says when a daily deal is dealt."""
        if scored:
            return _(
                "📅 Today's daily deal ({day} UTC), proven winnable — this is your scored "
                "attempt. Win it in the fewest moves to top {daily_board}.",
                day=day, daily_board=command("daily-board", game_id),
            )
        return _(
            "📅 Today's daily deal ({day} UTC), proven winnable — you already made your "
            "scored attempt at it today, so this replay is not scored.", day=day,
        )

    async def won_line(self, saved: SavedGame, now: float) -> Text:
        """What the board adds when a scored daily deal is won: the daily streak it makes.

        The win is already saved when this runs, so a failure to read the streak only
        shortens the line; it must not turn a stored win into an apology.
        """
        daily_board = command("daily-board", saved.game.game_id)
        if saved.hints:
            return _(
                "📅 Daily deal won with hints: it counts as assisted, so it is not on "
                "{daily_board} and does not extend your daily streak.", daily_board=daily_board,
            )
        # In a server the streak is that server's; in DMs (private anyway) the player's own.
        try:
            days = await self.results.won_daily_days(
                Scope(user_id=saved.user_id, guild_id=saved.guild_id)
            )
        except Exception:
            log.exception("could not read the daily streak of user %s", saved.user_id)
            return _("📅 Daily deal won! See {daily_board}.", daily_board=daily_board)
        current, best = daily_streaks(days, utc_day(now))
        return n_(
            "📅 Daily deal won! Daily streak: <b>{count}</b> day (best {best}). See {daily_board}.",
            "📅 Daily deal won! Daily streak: <b>{count}</b> days (best {best}). See "
            "{daily_board}.", current, best=best, daily_board=daily_board,
        )

    @staticmethod
    def share_line(saved: SavedGame) -> Text:
        """A scored daily attempt's result in one line a player can post anywhere, as the
        daily word games' are: the game, the day, how it went — and nothing of the deal.
        The line itself is plain words (a ``Share`` part), to be copied as it is."""
        game = saved.game
        words = current()
        if saved.status == WON:
            how = words.plural("🏆 won in {count} move", "🏆 won in {count} moves",
                               game.moves_made)
        else:  # how it ended, then how far it went
            ended = (p_("daily attempt", "resigned") if saved.status == RESIGNED
                     else p_("daily attempt", "stuck"))
            how = " · ".join((ended, words.plural("{count} move", "{count} moves",
                                                  game.moves_made)))
        cards = label("{home}/{total} cards home", home=game.cards_on_foundations,
                      total=game.rules.card_count)
        hints = (words.plural("{count} hint", "{count} hints", saved.hints) if saved.hints
                 else label("no hints"))
        line = " · ".join((label("🃏 {game} daily {day}", game=game.name, day=saved.daily),
                           how, cards, hints))
        return _("Share it:\n{line}", line=Text(Share(line)))

    # -- /daily-board ------------------------------------------------------------------

    async def board(self, viewer: Player, game: str, day: str | None = None) -> Reply:
        """The board of a day's daily deal where the viewer is: winners by fewest moves,
        then time."""
        check_game(game)
        today = self.today()
        wanted = _parse_day(day, today)
        if isinstance(wanted, Text):
            raise Refused(wanted)
        await self.cooldowns.check(viewer.user_id, Cooldown.DAILY_BOARD)
        deal = await self.deal_of(game, wanted)
        scope = board_scope(viewer, game=game, daily=wanted.isoformat())
        ranking = await self.results.daily_ranking(scope, limit=DAILY_TOP)
        attempt = await self.attempt(viewer.user_id, game, today) if wanted == today else None
        with speaking(viewer.shared_language):  # posted in the channel, for everyone there
            lines = [_heading(GAMES[game], None if wanted == today else wanted, deal)]
            if viewer.guild_id is None:
                lines[0] = only_you_outside_servers(lines[0])
            lines += [
                n_("{place} {player} — {count} move · {time}",
                   "{place} {player} — {count} moves · {time}", e.moves,
                   place=medal(e.rank), player=mention(e.user_id),
                   time=format_seconds(e.seconds))
                for e in ranking.entries
            ]
            more = ranking.won_unaided - len(ranking.entries)
            if more > 0:
                lines.append(n_("… and {count} more winner.", "… and {count} more winners.",
                                more))
            lines.append(_finished(ranking.finished, ranking.won_unaided, ranking.won))
            lines.append(_invitation(attempt, game, deal, wanted == today))
        return Reply(message=Message(Text("\n").join(lines)))

    async def attempt(self, user_id: int, game: str, day: date) -> str | None:
        """The player's scored attempt at a day's deal: None (not made), "playing",
        "finished", or "left" (its game replaced before a move)."""
        if not await self.has_attempt(user_id, game, day):
            return None
        mine = Scope(user_id=user_id, game=game, daily=day.isoformat())
        if (await self.results.daily_ranking(mine, limit=0)).finished:
            return "finished"
        saved = await self.games.load(user_id)
        playing = (saved is not None and not saved.is_finished
                   and saved.daily == day.isoformat() and saved.game.game_id == game)
        return "playing" if playing else "left"


def _heading(game: str, day: date | None, deal: int) -> Text:
    """The daily board's first line: of today (``day`` None), or of a day asked for."""
    if day is None:
        return _("📅 <b>Daily board</b> — {game}, today (UTC), deal {deal}", game=game, deal=deal)
    return _("📅 <b>Daily board</b> — {game}, {day} (UTC), deal {deal}", game=game,
             day=day.isoformat(), deal=deal)


def _finished(finished: int, unaided: int, won: int) -> Text:
    """How many finished their scored attempt, how many won it (and with hints)."""
    if not finished:
        return _("Nobody here has finished a scored attempt at it yet.")
    if won > unaided:
        return n_("{count} player finished a scored attempt here, {won} won ({more} more "
                  "with hints).",
                  "{count} players finished their scored attempts here, {won} won ({more} "
                  "more with hints).", finished, won=unaided, more=won - unaided)
    return n_("{count} player finished a scored attempt here, {won} won.",
              "{count} players finished their scored attempts here, {won} won.", finished,
              won=unaided)


def _invitation(attempt: str | None, game: str, deal: int, today: bool) -> Text:
    """What the viewer can do about the day's deal: their scored attempt (``attempt``, of
    today), or a replay."""
    replay = command("new", game, str(deal))
    if attempt == "playing":
        return _("Your scored attempt is under way: finish it to be on this board.")
    if attempt == "finished":
        return _("You have made your scored attempt today; {replay} replays it, unscored.",
                 replay=replay)
    if attempt is not None:
        return _("You left your scored attempt today before a move, which used it up; "
                 "{replay} replays it, unscored.", replay=replay)
    if today:
        return _("Play it: {daily} — your first attempt of the day is scored.",
                 daily=command("daily", game))
    return _("Replay it, unscored: {replay}.", replay=replay)


def _parse_day(day: str | None, today: date) -> date | Text:
    """The day a player asked for (``2026-11-22``, ``today``, ``yesterday``: the words in
    English or in the language spoken), or why not."""
    text = (day or "today").strip().lower()
    back = typed_days().get(text)
    if back is not None:
        return today - timedelta(days=back)
    try:
        wanted = date.fromisoformat(text)
    except ValueError:
        return _(
            "{typed} is not a day I can read. Write it as year-month-day, like {example}, or "
            "{today} or {yesterday}.", typed=code(day or ""), example=code(today.isoformat()),
            today=code(p_("a day typed in /daily-board", "today")),
            yesterday=code(p_("a day typed in /daily-board", "yesterday")),
        )
    if wanted > today:
        return _("{day} has not come yet (today is {today} UTC).", day=wanted.isoformat(),
                 today=today.isoformat())
    return wanted
