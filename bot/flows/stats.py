"""Statistics and leaderboards, written once.

Like ``game.GameFlow`` for games, ``StatsFlow`` knows no Discord: the slash commands and
the console turn their input into one call here and show the ``Reply`` they get back. It
reads the results through their store, and draws the stats card off the event loop
in the drawing processes. The periods come from the flow's clock.

Privacy: everything shown in a server comes from that server's results only. A player's
record across all servers is shown to that player alone (``Message.private``); outside a
server (DMs, the console) a player sees only their own games.

Wins with hints: a win that used a hint is *assisted*. It counts as played but not won for
records, streaks, the leaderboard and the daily board; ``/stats`` lists it as assisted.

Languages: what is posted in a server's channel (the leaderboard, a record shown there) is
read by everyone there, so it speaks the server's language; what the player alone sees
(refusals, their record across all servers) speaks theirs.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable
from datetime import UTC, datetime, timedelta

from engine import GAMES
from render.stats_card import StatsRow

from ..replies import Member, Message, Player, Refused, Reply
from ..replies.text import Small, Text
from ..store.results import Record, ResultStore, Scope
from ..words.language import N_, _, current, label, n_, p_, speaking
from ..words.phrases import code, command, format_seconds, medal, mention
from ..workers.pictures import Pictures
from .challenges import Challenges
from .cooldowns import Cooldown, Cooldowns
from .daily import daily_streaks, utc_day
from .races import Races
from .scopes import board_scope, check_game, check_person, only_you_outside_servers

SERVER = "server"  # /stats scope: this server's games
EVERYWHERE = "all"  # /stats scope: the player's games in every server, DMs included
TOP = 10  # leaderboard places shown, besides the caller's own
PERIODS = {"week": timedelta(days=7), "month": timedelta(days=30), "all": None}
# The leaderboard's heading for each period: of one game, and of all games.
HEADINGS = {
    "week": (N_("🏆 <b>Leaderboard</b> — {game}, the last 7 days"),
             N_("🏆 <b>Leaderboard</b> — all games, the last 7 days")),
    "month": (N_("🏆 <b>Leaderboard</b> — {game}, the last 30 days"),
              N_("🏆 <b>Leaderboard</b> — all games, the last 30 days")),
    "all": (N_("🏆 <b>Leaderboard</b> — {game}, all time"),
            N_("🏆 <b>Leaderboard</b> — all games, all time")),
}
# The first line of a player's own record, by which games count: of one game, of all.
YOUR_RECORD = {
    "server": (N_("Your {game} record on this server: {summary}"),
               N_("Your record on this server: {summary}")),
    "servers": (N_("Your {game} record in all servers and DMs: {summary}"),
                N_("Your record in all servers and DMs: {summary}")),
    "dm": (N_("Your {game} record everywhere: {summary}"),
           N_("Your record everywhere: {summary}")),
}


class StatsFlow:
    """The statistics side of the bot: the results' store, the pictures, the clock."""

    def __init__(
        self, results: ResultStore, challenges: Challenges, races: Races, pictures: Pictures,
        cooldowns: Cooldowns, clock: Callable[[], float],
    ) -> None:
        self.results = results
        self.challenges = challenges
        self.races = races
        self.pictures = pictures
        self.cooldowns = cooldowns
        self._clock = clock

    def _now(self) -> datetime:
        return datetime.fromtimestamp(self._clock(), UTC)

    # -- /stats -----------------------------------------------------------------------

    async def stats(
        self,
        viewer: Player,
        subject: Member,
        game: str | None = None,
        scope: str = SERVER,
    ) -> Reply:
        """A player's record: per game and in all, with streaks and the daily streak."""
        check_game(game)
        check_person(subject)
        everywhere = _check_whose(viewer, subject, scope)
        await self.cooldowns.check(viewer.user_id, Cooldown.STATS)
        own = subject.user_id == viewer.user_id
        place = Scope(user_id=subject.user_id,
                      guild_id=None if everywhere else viewer.guild_id, game=game)
        # Which games count: this server's, every server's and DMs', or (outside servers,
        # DMs and the console) every game of the player's.
        where = "server" if not everywhere else "servers" if viewer.guild_id is not None else "dm"
        records = await self.results.records(place)
        if records.total.played == 0:
            text = _no_games_yet(subject.user_id if not own else None, game, everywhere)
            return Reply(message=Message(text, private=True))
        days = await self.results.won_daily_days(Scope(user_id=subject.user_id,
                                                       guild_id=place.guild_id))
        streak = daily_streaks(days, utc_day(self._clock()))
        per_game = {g: records.per_game[g] for g in GAMES if g in records.per_game}
        challenges = await self.challenges.record(subject.user_id, place.guild_id)
        races = await self.races.record(subject.user_id, place.guild_id)
        # A record shown in a server's channel is everyone's to read; everywhere, the
        # player's alone.
        with speaking(viewer.language if everywhere else viewer.shared_language):
            picture = await self.pictures.stats(*_record_card(
                subject.name, where, records.total, per_game, streak))
            text = _record_text(None if own else subject.user_id, game, where,
                                records.total, per_game, streak, challenges, races)
        return Reply(message=Message(text, picture.png, f"stats-{subject.user_id}.png",
                                     alt_text=picture.alt_text, private=everywhere))

    # -- /leaderboard -----------------------------------------------------------------

    async def leaderboard(
        self, viewer: Player, game: str | None = None, period: str = "all"
    ) -> Reply:
        """This server's players ranked by the Wilson lower bound; top ten and the caller."""
        check_game(game)
        if period not in PERIODS:
            raise Refused(_("The period is one of {periods}.",
                            periods=Text(", ").join(code(p) for p in PERIODS)))
        await self.cooldowns.check(viewer.user_id, Cooldown.LEADERBOARD)
        span = PERIODS[period]
        since = None if span is None else (self._now() - span).timestamp()
        scope = board_scope(viewer, game=game, since=since)
        ranked = await self.results.leaderboard(scope, top=TOP, viewer=viewer.user_id)
        with speaking(viewer.shared_language):  # posted in the channel, for everyone there
            one_game, all_games = HEADINGS[period]
            heading = _(one_game, game=GAMES[game]) if game else _(all_games)
            if viewer.guild_id is None:
                heading = only_you_outside_servers(heading)
            if not ranked:
                return Reply(message=Message(
                    heading + "\n" + _("No finished games here in that time yet.")
                ))
            lines = [heading]
            lines += [_standing_line(s.rank, s.user_id, s.won, s.played, s.score)
                      for s in ranked if s.rank <= TOP]
            mine = next((s for s in ranked if s.user_id == viewer.user_id), None)
            if mine is not None and mine.rank > TOP:
                lines.append(Text("…"))
                lines.append(_standing_line(mine.rank, mine.user_id, mine.won, mine.played,
                                            mine.score))
            elif mine is None:
                lines.append(_("You have no finished games here in that time."))
            lines.append(Text(Small(_(
                "Ranked by the lower bound of the 95% Wilson interval on each player's win "
                "rate: many wins over many games beat one lucky win. Wins with hints count as "
                "played, not won."
            ))))
        return Reply(message=Message(Text("\n").join(lines)))


# -- wording ------------------------------------------------------------------------------


def _check_whose(viewer: Player, subject: Member, scope: str) -> bool:
    """Whether the record asked for is the player's everywhere (else this server's); refused
    for an unknown scope, and for another player's record everywhere (theirs alone)."""
    if scope not in (SERVER, EVERYWHERE):
        raise Refused(_("The scope is {server} (this server) or {everywhere} (everywhere).",
                        server=code(SERVER), everywhere=code(EVERYWHERE)))
    everywhere = scope == EVERYWHERE or viewer.guild_id is None
    if everywhere and subject.user_id != viewer.user_id:
        if scope == EVERYWHERE:
            # Each word apart: Babel misses a word nested in a call inside another.
            user, scope_option = p_("option", "user"), p_("option", "scope")
            raise Refused(_(
                "A player's record across all servers is shown only to that player. "
                "{stats_user} without {scope} shows {player}'s record on this server.",
                stats_user=command("stats", user + ":"), scope=code(scope_option),
                player=mention(subject.user_id),
            ))
        raise Refused(_("Outside a server you can see only your own record."))
    return everywhere


def _record_card(name: str, where: str, total: Record, per_game: dict[str, Record],
                 streak: tuple[int, int]) -> tuple[str, str, list[StatsRow]]:
    """The record's card: its title, subtitle and rows, in plain words (``label``: a
    picture draws them, without parts)."""
    title = label("{name} · solitaire record", name=picture_name(name))
    subtitle = " · ".join((
        _where(where),
        _card_summary(total),
        label("daily streak {current} (best {best})", current=streak[0], best=streak[1]),
    ))
    rows = [StatsRow(GAMES[g], rec.played, rec.won, _card_details(rec), rec.assisted)
            for g, rec in per_game.items()]
    if len(rows) > 1:
        rows.append(StatsRow(label("All games"), total.played, total.won,
                             _card_details(total), total.assisted))
    return title, subtitle, rows


def _record_text(other: int | None, game: str | None, where: str, total: Record,
                 per_game: dict[str, Record], streak: tuple[int, int],
                 challenges: tuple[int, int], races: tuple[int, int]) -> Text:
    """The record's message: the summary, a line a game, the challenges won and lost, and
    the races run and won (``other``: another player's id; None: the viewer's own)."""
    summary = Text(" · ").join((
        _summary(total),
        _("streak {current} (best {best})", current=total.current_streak,
          best=total.best_streak),
        _("daily streak {current} (best {best})", current=streak[0], best=streak[1]),
    ))
    lines = [_record_heading(other, game, where, summary)]
    if len(per_game) > 1 or game:
        lines += [_("• {game}: {record}", game=GAMES[g], record=_line(rec))
                  for g, rec in per_game.items()]
    won, lost = challenges
    if won or lost:
        lines.append(_("⚔️ Challenges: {won} won, {lost} lost", won=won, lost=lost))
    run, first = races
    if run:
        lines.append(_("🏁 Races: {run} run, {won} won", run=run, won=first))
    return Text("\n").join(lines)


def picture_name(name: str) -> str:
    """A name as the stats card can print it: the picture's font (Pillow's own) has ASCII
    letters only, so accents are dropped (``Zoë`` -> ``Zoe``) and other letters left out."""
    plain = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode()
    plain = " ".join("".join(c for c in plain if c.isprintable()).split())
    return plain[:32] or label("Player")


def _where(where: str) -> str:
    """Which games a record counts, as the stats card's subtitle begins (plain words)."""
    if where == "server":
        return label("On this server")
    if where == "servers":
        return label("In all servers and DMs")
    return label("Everywhere")


def _record_heading(other: int | None, game: str | None, where: str, summary: Text) -> Text:
    """The first line of a record: whose (``other``: someone else's, which is shown on this
    server only), of which game, where, then its ``summary``."""
    name = GAMES[game] if game else None
    if other is not None:
        if name:
            return _("{player}'s {game} record on this server: {summary}",
                     player=mention(other), game=name, summary=summary)
        return _("{player}'s record on this server: {summary}", player=mention(other),
                 summary=summary)
    one_game, all_games = YOUR_RECORD[where]
    if name:
        return _(one_game, game=name, summary=summary)
    return _(all_games, summary=summary)


def _no_games_yet(other: int | None, game: str | None, everywhere: bool) -> Text:
    """A record with no game in it: whose (``other``: someone else's, on this server)."""
    if other is not None:
        if game:
            return _("{player} has no finished {game} games on this server yet.",
                     player=mention(other), game=GAMES[game])
        return _("{player} has no finished games on this server yet.", player=mention(other))
    if everywhere:
        said = (_("You have no finished {game} games anywhere yet.", game=GAMES[game]) if game
                else _("You have no finished games anywhere yet."))
    else:
        said = (_("You have no finished {game} games on this server yet.", game=GAMES[game])
                if game else _("You have no finished games on this server yet."))
    start = _("Start one with {new} or {daily}.", new=command("new"), daily=command("daily"))
    return Text(said, " ", start)


def _summary(rec: Record) -> Text:
    """A record's counts, as a message says them."""
    if rec.assisted:
        return _("{played} played · {won} won ({rate}) · {assisted} assisted",
                 played=rec.played, won=rec.won, rate=current().percent(rec.win_rate),
                 assisted=rec.assisted)
    return _("{played} played · {won} won ({rate})", played=rec.played, won=rec.won,
             rate=current().percent(rec.win_rate))


def _card_summary(rec: Record) -> str:
    """The same (``_summary``) in plain words, for the stats card."""
    if rec.assisted:
        return label("{played} played · {won} won ({rate}) · {assisted} assisted",
                     played=rec.played, won=rec.won, rate=current().percent(rec.win_rate),
                     assisted=rec.assisted)
    return label("{played} played · {won} won ({rate})", played=rec.played, won=rec.won,
                 rate=current().percent(rec.win_rate))


def _details(rec: Record) -> Text:
    """Streaks, bests, and wins with hints, as a message's line of a game says them."""
    parts = [_("streak {current} (best {best})", current=rec.current_streak,
               best=rec.best_streak)]
    if rec.fewest_moves is not None:
        parts.append(n_("fewest {count} move", "fewest {count} moves", rec.fewest_moves))
    if rec.fastest_seconds is not None:
        parts.append(_("fastest {time}", time=format_seconds(rec.fastest_seconds)))
    if rec.assisted:
        parts.append(n_("{count} assisted", "{count} assisted", rec.assisted))
    return Text(" · ").join(parts)


def _card_details(rec: Record) -> str:
    """Streaks and bests in plain words, for the stats card (which shows the wins with
    hints in its bar); the same messages as ``_details``'s."""
    parts = [label("streak {current} (best {best})", current=rec.current_streak,
                   best=rec.best_streak)]
    if rec.fewest_moves is not None:
        parts.append(current().plural("fewest {count} move", "fewest {count} moves",
                                      rec.fewest_moves))
    if rec.fastest_seconds is not None:
        parts.append(label("fastest {time}", time=format_seconds(rec.fastest_seconds)))
    return " · ".join(parts)


def _line(rec: Record) -> Text:
    return _("{won}/{played} won · {details}", won=rec.won, played=rec.played,
             details=_details(rec))


def _standing_line(rank: int, user_id: int, won: int, played: int, score: float) -> Text:
    return _(
        "{place} {player} — {won}/{played} won ({rate}) · score {score}",
        place=medal(rank) if won else f"{rank}.",  # no medal without a win
        player=mention(user_id), won=won, played=played, rate=current().percent(won / played),
        score=current().number(score, 2),
    )
