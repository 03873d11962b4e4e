"""Statistics, leaderboards, the daily deal and the data-rights commands, written once.

Like ``game_flow.GameFlow`` for games, ``StatsFlow`` knows no Discord: the slash commands
and the console turn their input into one call here and show the ``Reply`` they get back.
It reads the results table through the store, computes with ``records`` and ``daily``, and
draws the stats card off the event loop in the flow's picture threads. The day and the
periods come from the flow's clock, so tests decide where midnight falls.

Privacy: everything shown in a server comes from that server's results only. A player's
record across all servers is shown to that player alone (``Answer.private``); outside a
server (DMs, the console) a player sees only their own games.

Wins with hints: a win that used a hint is *assisted*. It counts as played but not won for
records, streaks, the leaderboard and the daily board (``records.Result.won_unaided``);
``/stats`` lists it as assisted.
"""

from __future__ import annotations

import dataclasses
import functools
import unicodedata
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta

from engine import GAMES, BadSetup, check_setup
from render.stats_card import StatsRow, render_stats_png

from .daily import daily_deal, daily_streaks, utc_day
from .game_flow import GameFlow
from .records import PERIODS, Record, format_seconds, period_start
from .replies import Action, Ask, Message, Player, Question, Reply
from .wording import code, plural, refused

SERVER = "server"  # /stats scope: this server's games
EVERYWHERE = "all"  # /stats scope: the player's games in every server, DMs included
TOP = 10  # leaderboard places shown, besides the caller's own
DAILY_TOP = 10  # daily board winners shown

FORGET_YES, FORGET_NO = "Delete everything", "Keep my records"
RESET_YES, RESET_NO = "Delete this server's results", "Cancel"

PERIOD_WORDS = {"week": "the last 7 days", "month": "the last 30 days", "all": "all time"}
SCORE_NOTE = (
    "Ranked by the lower bound of the 95% Wilson interval on each player's win rate: many wins "
    "over many games beat one lucky win. Wins with hints count as played, not won."
)


@dataclass(frozen=True)
class Person:
    """Whose record: the id, and the name to print on the picture."""

    user_id: int
    name: str
    bot: bool = False


def _refuse(text: str) -> Reply:
    return Reply(message=Message(text, private=True), refused=True)


def _answer(text: str, *, private: bool = False, png: bytes | None = None,
            filename: str = "stats.png", question: Question | None = None) -> Reply:
    return Reply(message=Message(text, png, filename, private, question))


def mention(user_id: int) -> str:
    return f"<@{user_id}>"


class StatsFlow:
    """The statistics side of the bot, on top of the game flow (its store, clock, threads)."""

    def __init__(self, flow: GameFlow) -> None:
        self.flow = flow
        self.store = flow.store

    def _now(self) -> datetime:
        return datetime.fromtimestamp(self.flow.now(), UTC)

    # -- /stats -----------------------------------------------------------------------

    async def stats(
        self,
        viewer: Player,
        subject: Person,
        game: str | None = None,
        scope: str = SERVER,
    ) -> Reply:
        """A player's record: per game and in all, with streaks and the daily streak."""
        refusal = _game_refusal(game)
        if refusal is not None:
            return refusal
        if scope not in (SERVER, EVERYWHERE):
            return _refuse(f"The scope is `{SERVER}` (this server) or `{EVERYWHERE}` (everywhere).")
        if subject.bot:
            return _refuse(f"{mention(subject.user_id)} is a bot; bots don't play solitaire.")
        own = subject.user_id == viewer.user_id
        everywhere = scope == EVERYWHERE or viewer.guild_id is None
        if everywhere and not own:
            if scope == EVERYWHERE:
                return _refuse(
                    "A player's record across all servers is shown only to that player. "
                    f"`/stats user:` without `scope` shows {mention(subject.user_id)}'s record "
                    "on this server."
                )
            return _refuse("Outside a server you can see only your own record.")
        place: dict[str, int | None] = {} if everywhere else {"guild_id": viewer.guild_id}
        where = (
            "on this server" if not everywhere
            else "in all servers and DMs" if viewer.guild_id is not None
            else "everywhere"
        )
        records = await self.store.records(subject.user_id, game=game, **place)
        whose = "You have" if own else f"{mention(subject.user_id)} has"
        if records.total.played == 0:
            what = f"{GAMES[game]} games" if game else "games"
            hint = " Start one with `/new` or `/daily`." if own else ""
            at = "anywhere" if everywhere else where
            return _answer(f"{whose} no finished {what} {at} yet.{hint}", private=True)
        days = await self.store.won_daily_days(subject.user_id, **place)
        streak = daily_streaks(days, self._now().date())
        per_game = {g: records.per_game[g] for g in GAMES if g in records.per_game}
        total = records.total
        title = f"{picture_name(subject.name)} · solitaire record"
        subtitle = (
            f"{where.capitalize()} · {_summary(total)} · daily streak {streak[0]} "
            f"(best {streak[1]})"
        )
        rows = [
            StatsRow(GAMES[g], rec.played, rec.won, _details(rec)) for g, rec in per_game.items()
        ]
        if len(rows) > 1:
            rows.append(StatsRow("All games", total.played, total.won, _details(total)))
        draw = functools.partial(render_stats_png, title, subtitle, rows)
        png = await self.flow.pictures.off_loop(draw)
        owner = "Your" if own else f"{mention(subject.user_id)}'s"
        lines = [
            f"{owner} record {where}: {_summary(total)} · streak {total.current_streak} "
            f"(best {total.best_streak}) · daily streak {streak[0]} (best {streak[1]})"
        ]
        if len(per_game) > 1 or game:
            lines += [f"• {GAMES[g]}: {_line(rec)}" for g, rec in per_game.items()]
        return _answer(
            "\n".join(lines), png=png, filename=f"stats-{subject.user_id}.png", private=everywhere
        )

    # -- /leaderboard -----------------------------------------------------------------

    async def leaderboard(
        self, viewer: Player, game: str | None = None, period: str = "all"
    ) -> Reply:
        """This server's players ranked by the Wilson lower bound; top ten and the caller."""
        refusal = _game_refusal(game)
        if refusal is not None:
            return refusal
        if period not in PERIODS:
            return _refuse(f"The period is one of {', '.join(f'`{p}`' for p in PERIODS)}.")
        start = period_start(period, self._now())
        since = None if start is None else start.timestamp()
        ranked = await self.store.leaderboard(
            top=TOP, viewer=viewer.user_id, game=game, since=since, **self._place(viewer)
        )
        heading = (
            f"🏆 **Leaderboard** — {GAMES[game] if game else 'all games'}, {PERIOD_WORDS[period]}"
        )
        if viewer.guild_id is None:
            heading += " (outside a server the board has only you)"
        if not ranked:
            return _answer(f"{heading}\nNo finished games here in that time yet.")
        lines = [heading]
        lines += [_standing_line(s.rank, s.user_id, s.won, s.played, s.score)
                  for s in ranked if s.rank <= TOP]
        mine = next((s for s in ranked if s.user_id == viewer.user_id), None)
        if mine is not None and mine.rank > TOP:
            lines.append("…")
            lines.append(_standing_line(mine.rank, mine.user_id, mine.won, mine.played, mine.score))
        elif mine is None:
            lines.append("You have no finished games here in that time.")
        lines.append(f"-# {SCORE_NOTE}")
        return _answer("\n".join(lines))

    # -- the daily deal ---------------------------------------------------------------

    async def daily(self, player: Player, game_id: str) -> Reply:
        """Deal today's daily deal of ``game_id`` through the flow's new-game path."""
        refusal = _game_refusal(game_id)
        if refusal is not None:
            return refusal
        today = utc_day(self.flow.now())
        deal = daily_deal(game_id, today)
        saved = await self.store.load(player.user_id)
        if (
            saved is not None
            and not saved.is_finished
            and (saved.game.game_id, saved.game.deal) == (game_id, deal)
        ):
            reply = await self.flow.act(player, Action.SHOW)
            if reply.board is None:
                return reply
            return dataclasses.replace(
                reply, note="You are already playing today's daily deal: here is your board."
            )
        reply = await self.flow.new_game(player, game_id, deal)
        question = reply.message
        if question is not None and question.question is not None:
            attempted = await self.store.has_daily_attempt(
                player.user_id, game_id, today.isoformat()
            )
            what = (
                "a replay: your scored attempt at it was made earlier today"
                if attempted
                else "your scored attempt"
            )
            text = f"{question.text}\n📅 It is today's daily deal, and this would be {what}."
            return dataclasses.replace(reply, message=dataclasses.replace(question, text=text))
        return reply

    async def daily_board(self, viewer: Player, game: str, day: str | None = None) -> Reply:
        """This server's board of a day's daily deal: winners by fewest moves, then time."""
        refusal = _game_refusal(game)
        if refusal is not None:
            return refusal
        today = self._now().date()
        wanted = _parse_day(day, today)
        if isinstance(wanted, str):
            return _refuse(wanted)
        deal = daily_deal(game, wanted)
        board = await self.store.daily_board(
            wanted.isoformat(), game, limit=DAILY_TOP, **self._place(viewer)
        )
        when = "today" if wanted == today else wanted.isoformat()
        lines = [f"📅 **Daily board** — {GAMES[game]}, {when} (UTC), deal {deal}"]
        if viewer.guild_id is None:
            lines[0] += " (outside a server the board has only you)"
        lines += [
            f"{_place(e.rank)} {mention(e.user_id)} — {e.moves} moves · {format_seconds(e.seconds)}"
            for e in board.entries
        ]
        if board.won_unaided > len(board.entries):
            lines.append(f"… and {board.won_unaided - len(board.entries)} more winners.")
        unaided, won = board.won_unaided, board.won
        if board.finished:
            lines.append(
                f"{board.finished} finished their scored attempt here, {unaided} won"
                + (f" ({won - unaided} more with hints)." if won > unaided else ".")
            )
        else:
            lines.append("Nobody here has finished a scored attempt at it yet.")
        if wanted == today and await self.store.has_daily_attempt(
            viewer.user_id, game, today.isoformat()
        ):
            lines.append(
                f"You have made your scored attempt today; {code(f'/new {game} {deal}')} "
                "replays it, unscored."
            )
        elif wanted == today:
            lines.append(
                f"Play it: {code(f'/daily {game}')} — your first attempt of the day is scored."
            )
        else:
            lines.append(f"Replay it, unscored: {code(f'/new {game} {deal}')}.")
        return _answer("\n".join(lines))

    # -- data rights ------------------------------------------------------------------

    def forget_question(self, player: Player) -> Reply:
        text = (
            "Delete **everything** this bot keeps about you — your current game and every "
            "result, in every server (statistics, leaderboards, daily boards and streaks)? "
            "This cannot be undone."
        )
        question = Question(Ask.FORGET, player.user_id, FORGET_YES, FORGET_NO)
        return _answer(text, private=True, question=question)

    async def forget(self, player: Player) -> Reply:
        games, results = await self.store.forget_player(player.user_id)
        game_words = "your current game and " if games else ""
        return _answer(
            f"Done: deleted {game_words}{plural(results, 'result')}, in every server. "
            "Nothing about you is kept; `/new` starts afresh.",
            private=True,
        )

    async def reset_question(self, player: Player, can_manage_server: bool) -> Reply:
        refusal = _reset_refusal(player, can_manage_server)
        if refusal:
            return refusal
        assert player.guild_id is not None
        count = await self.store.count_results(player.guild_id)
        text = (
            f"Delete all **{count}** result{'' if count == 1 else 's'} of this server? Its "
            "statistics, "
            "leaderboards and daily boards start again from nothing; games being played are "
            "kept and count when they finish. This cannot be undone."
        )
        question = Question(Ask.RESET, player.user_id, RESET_YES, RESET_NO)
        return _answer(text, private=True, question=question)

    async def reset(self, player: Player, can_manage_server: bool) -> Reply:
        refusal = _reset_refusal(player, can_manage_server)
        if refusal:
            return refusal
        assert player.guild_id is not None
        count = await self.store.reset_guild(player.guild_id)
        return _answer(
            f"Done: deleted {plural(count, 'result')} of this server. Its statistics "
            "start again from nothing.",
            private=True,
        )

    # -- internals --------------------------------------------------------------------

    @staticmethod
    def _place(viewer: Player) -> dict[str, int | bool | None]:
        """The results a board in the viewer's place may show: the server's; outside a
        server only the viewer's own games played outside servers."""
        if viewer.guild_id is None:
            return {"user_id": viewer.user_id, "outside_servers": True}
        return {"guild_id": viewer.guild_id}


# -- wording ------------------------------------------------------------------------------


def picture_name(name: str) -> str:
    """A name as the stats card can print it: the picture's font (Pillow's own) has ASCII
    letters only, so accents are dropped (``Zoë`` -> ``Zoe``) and other letters left out."""
    plain = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode()
    plain = " ".join("".join(c for c in plain if c.isprintable()).split())
    return plain[:32] or "Player"


def _game_refusal(game: str | None) -> Reply | None:
    """None for no game or a real one; the refusal for a game that does not exist."""
    if game is None:
        return None
    try:
        check_setup(game)
    except BadSetup as err:
        return _refuse(refused(err))
    return None


def _reset_refusal(player: Player, can_manage_server: bool) -> Reply | None:
    if player.guild_id is None:
        return _refuse("Resetting statistics works in a server, for that server.")
    if not can_manage_server:
        return _refuse(
            "Only members with the **Manage Server** permission can reset this server's "
            "statistics. `/forget-me` deletes your own records."
        )
    return None


def _parse_day(day: str | None, today: date) -> date | str:
    """The day a player asked for (``2026-11-22``, ``today``, ``yesterday``), or why not."""
    text = (day or "today").strip().lower()
    if text == "today":
        return today
    if text == "yesterday":
        return today - timedelta(days=1)
    try:
        wanted = date.fromisoformat(text)
    except ValueError:
        return (
            f"{code(day or '')} is not a day I can read. Write it as year-month-day, like "
            f"{code(today.isoformat())}, or `today` or `yesterday`."
        )
    if wanted > today:
        return f"{wanted.isoformat()} has not come yet (today is {today.isoformat()} UTC)."
    return wanted


def _summary(rec: Record) -> str:
    text = f"{rec.played} played · {rec.won} won ({rec.win_rate:.0%})"
    if rec.assisted:
        text += f" · {rec.assisted} assisted"
    return text


def _details(rec: Record) -> str:
    """The line under a game's bar: streaks, bests, assisted wins."""
    parts = [f"streak {rec.current_streak} (best {rec.best_streak})"]
    if rec.fewest_moves is not None:
        parts.append(f"fewest {rec.fewest_moves} moves")
    if rec.fastest_seconds is not None:
        parts.append(f"fastest {format_seconds(rec.fastest_seconds)}")
    if rec.assisted:
        parts.append(f"{rec.assisted} assisted")
    return " · ".join(parts)


def _line(rec: Record) -> str:
    return f"{rec.won}/{rec.played} won · {_details(rec)}"


def _place(rank: int) -> str:
    return {1: "🥇", 2: "🥈", 3: "🥉"}.get(rank, f"{rank}.")


def _standing_line(rank: int, user_id: int, won: int, played: int, score: float) -> str:
    return (
        f"{_place(rank)} {mention(user_id)} — {won}/{played} won ({won / played:.0%}) · "
        f"score {score:.2f}"
    )
