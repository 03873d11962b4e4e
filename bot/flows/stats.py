"""Statistics and leaderboards, written once.

Like ``game.GameFlow`` for games, ``StatsFlow`` knows no Discord: the slash commands and
the console turn their input into one call here and show the ``Reply`` they get back. It
reads the results through their store room, and draws the stats card off the event loop
in the drawing processes. The periods come from the flow's clock.

Privacy: everything shown in a server comes from that server's results only. A player's
record across all servers is shown to that player alone (``Message.private``); outside a
server (DMs, the console) a player sees only their own games.

Wins with hints: a win that used a hint is *assisted*. It counts as played but not won for
records, streaks, the leaderboard and the daily board; ``/stats`` lists it as assisted.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable
from datetime import UTC, datetime, timedelta

from engine import GAMES
from render.stats_card import StatsRow

from ..replies import Message, Person, Player, Reply, refusal
from ..store.results import Record, ResultStore, Scope
from ..words.phrases import format_seconds, medal, mention
from ..workers.pictures import Pictures
from .challenges import Challenges
from .cooldowns import Cooldowns
from .daily import daily_streaks, utc_day
from .scopes import board_scope, game_refusal

SERVER = "server"  # /stats scope: this server's games
EVERYWHERE = "all"  # /stats scope: the player's games in every server, DMs included
TOP = 10  # leaderboard places shown, besides the caller's own
PERIODS = {"week": timedelta(days=7), "month": timedelta(days=30), "all": None}
PERIOD_WORDS = {"week": "the last 7 days", "month": "the last 30 days", "all": "all time"}
SCORE_NOTE = (
    "Ranked by the lower bound of the 95% Wilson interval on each player's win rate: many wins "
    "over many games beat one lucky win. Wins with hints count as played, not won."
)


class StatsFlow:
    """The statistics side of the bot: the results' room, the pictures, the clock."""

    def __init__(
        self, results: ResultStore, challenges: Challenges, pictures: Pictures,
        cooldowns: Cooldowns, clock: Callable[[], float],
    ) -> None:
        self.results = results
        self.challenges = challenges
        self.pictures = pictures
        self.cooldowns = cooldowns
        self._clock = clock

    def _now(self) -> datetime:
        return datetime.fromtimestamp(self._clock(), UTC)

    # -- /stats -----------------------------------------------------------------------

    async def stats(
        self,
        viewer: Player,
        subject: Person,
        game: str | None = None,
        scope: str = SERVER,
    ) -> Reply:
        """A player's record: per game and in all, with streaks and the daily streak."""
        refused = game_refusal(game)
        if refused is not None:
            return refused
        if scope not in (SERVER, EVERYWHERE):
            return refusal(f"The scope is `{SERVER}` (this server) or `{EVERYWHERE}` (everywhere).")
        if subject.bot:
            return refusal(f"{mention(subject.user_id)} is a bot; bots don't play solitaire.")
        own = subject.user_id == viewer.user_id
        everywhere = scope == EVERYWHERE or viewer.guild_id is None
        if everywhere and not own:
            if scope == EVERYWHERE:
                return refusal(
                    "A player's record across all servers is shown only to that player. "
                    f"`/stats user:` without `scope` shows {mention(subject.user_id)}'s record "
                    "on this server."
                )
            return refusal("Outside a server you can see only your own record.")
        cooling = await self.cooldowns.refusal(viewer.user_id, "stats")
        if cooling is not None:
            return cooling
        place = Scope(user_id=subject.user_id,
                      guild_id=None if everywhere else viewer.guild_id, game=game)
        where = (
            "on this server" if not everywhere
            else "in all servers and DMs" if viewer.guild_id is not None
            else "everywhere"
        )
        records = await self.results.records(place)
        whose = "You have" if own else f"{mention(subject.user_id)} has"
        if records.total.played == 0:
            what = f"{GAMES[game]} games" if game else "games"
            hint = " Start one with `/new` or `/daily`." if own else ""
            at = "anywhere" if everywhere else where
            text = f"{whose} no finished {what} {at} yet.{hint}"
            return Reply(message=Message(text, private=True))
        days = await self.results.won_daily_days(Scope(user_id=subject.user_id,
                                                       guild_id=place.guild_id))
        streak = daily_streaks(days, utc_day(self._clock()))
        per_game = {g: records.per_game[g] for g in GAMES if g in records.per_game}
        total = records.total
        title = f"{picture_name(subject.name)} · solitaire record"
        subtitle = (
            f"{where.capitalize()} · {_summary(total)} · daily streak {streak[0]} "
            f"(best {streak[1]})"
        )
        rows = [
            StatsRow(GAMES[g], rec.played, rec.won, _details(rec, card=True), rec.assisted)
            for g, rec in per_game.items()
        ]
        if len(rows) > 1:
            rows.append(StatsRow("All games", total.played, total.won,
                                 _details(total, card=True), total.assisted))
        picture = await self.pictures.stats(title, subtitle, rows)
        owner = "Your" if own else f"{mention(subject.user_id)}'s"
        which = f"{GAMES[game]} record" if game else "record"
        lines = [
            f"{owner} {which} {where}: {_summary(total)} · streak {total.current_streak} "
            f"(best {total.best_streak}) · daily streak {streak[0]} (best {streak[1]})"
        ]
        if len(per_game) > 1 or game:
            lines += [f"• {GAMES[g]}: {_line(rec)}" for g, rec in per_game.items()]
        won, lost = await self.challenges.record(subject.user_id, place.guild_id)
        if won or lost:
            lines.append(f"⚔️ Challenges: {won} won, {lost} lost")
        return Reply(message=Message("\n".join(lines), picture.png,
                                     f"stats-{subject.user_id}.png", alt_text=picture.alt_text,
                                     private=everywhere))

    # -- /leaderboard -----------------------------------------------------------------

    async def leaderboard(
        self, viewer: Player, game: str | None = None, period: str = "all"
    ) -> Reply:
        """This server's players ranked by the Wilson lower bound; top ten and the caller."""
        refused = game_refusal(game)
        if refused is not None:
            return refused
        if period not in PERIODS:
            return refusal(f"The period is one of {', '.join(f'`{p}`' for p in PERIODS)}.")
        cooling = await self.cooldowns.refusal(viewer.user_id, "leaderboard")
        if cooling is not None:
            return cooling
        span = PERIODS[period]
        since = None if span is None else (self._now() - span).timestamp()
        scope = board_scope(viewer, game=game, since=since)
        ranked = await self.results.leaderboard(scope, top=TOP, viewer=viewer.user_id)
        heading = (
            f"🏆 **Leaderboard** — {GAMES[game] if game else 'all games'}, {PERIOD_WORDS[period]}"
        )
        if viewer.guild_id is None:
            heading += " (outside a server the board has only you)"
        if not ranked:
            return Reply(message=Message(f"{heading}\nNo finished games here in that time yet."))
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
        return Reply(message=Message("\n".join(lines)))


# -- wording ------------------------------------------------------------------------------


def picture_name(name: str) -> str:
    """A name as the stats card can print it: the picture's font (Pillow's own) has ASCII
    letters only, so accents are dropped (``Zoë`` -> ``Zoe``) and other letters left out."""
    plain = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode()
    plain = " ".join("".join(c for c in plain if c.isprintable()).split())
    return plain[:32] or "Player"


def _summary(rec: Record) -> str:
    text = f"{rec.played} played · {rec.won} won ({rec.win_rate:.0%})"
    if rec.assisted:
        text += f" · {rec.assisted} assisted"
    return text


def _details(rec: Record, *, card: bool = False) -> str:
    """Streaks, bests, and wins with hints (unless for the ``card``, which shows those
    in its bar)."""
    parts = [f"streak {rec.current_streak} (best {rec.best_streak})"]
    if rec.fewest_moves is not None:
        parts.append(f"fewest {rec.fewest_moves} moves")
    if rec.fastest_seconds is not None:
        parts.append(f"fastest {format_seconds(rec.fastest_seconds)}")
    if rec.assisted and not card:
        parts.append(f"{rec.assisted} assisted")
    return " · ".join(parts)


def _line(rec: Record) -> str:
    return f"{rec.won}/{rec.played} won · {_details(rec)}"


def _standing_line(rank: int, user_id: int, won: int, played: int, score: float) -> str:
    place = medal(rank) if won else f"{rank}."  # no medal without a win
    return (
        f"{place} {mention(user_id)} — {won}/{played} won ({won / played:.0%}) · "
        f"score {score:.2f}"
    )
