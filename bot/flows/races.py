"""Races at an Activity's table. Anyone there starts one for a game; the others are asked to
join while its countdown (``COUNTDOWN_S``) runs; as it ends, a proven-winnable deal is taken
(so nobody has seen it before) and dealt to every racer at that moment, over whatever game
they had (left as ``/new`` leaves it). Each plays their own game; everyone at the table sees
their progress. The result follows the challenge's rule (``challenges.winner``): a win
beats none, a win without hints beats one with them, then fewer moves, then less time.

A racer's game is scored: undo stops at its last redeal. A racer away from the table for
``AWAY_S`` has left the race, which counts as resigning; a race ends when every racer has
finished or left, or ``LIMIT_S`` after it began. Its result is shown at the table and posted
once in the channel the Activity was opened in (``announce``, given by whoever can post
there), in the language of the player who started it.

Every process with a page at the table drives its race (``advance``): each step is one
conditional statement in the store, so two processes driving one race move it once.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Collection
from dataclasses import dataclass

from engine import GAMES

from ..replies import Player, Refused, Reply, is_id
from ..replies.text import Text
from ..store.races import COUNTING, OVER, RUNNING, NewRace, Race, Racer, RaceStore
from ..store.statuses import WON
from ..words.language import _, n_, speaking
from ..words.phrases import mention
from .challenges import how_it_ended
from .cooldowns import EVERY_S, Cooldown, Cooldowns
from .deals import Deals
from .game import GameFlow
from .scopes import check_game

log = logging.getLogger(__name__)

COUNTDOWN_S = 15.0  # from the Race button to the deal: long enough to press Join race
LIMIT_S = 20 * 60.0  # a race still going this long after it began is over
AWAY_S = 15.0  # a racer away from the table this long has left the race (resigned)
POSTED_PLACES = 10  # the places a result posted in a channel names (it fits a message)

Announce = Callable[[int, Text], Awaitable[None]]  # post a text in a channel, by its id


@dataclass(frozen=True)
class Where:
    """Where a race is run: the table's instance, and the channel and server the Activity
    was opened in (None: not known, as at a dev table)."""

    instance: str
    channel_id: int | None = None
    guild_id: int | None = None


class Races:
    def __init__(self, store: RaceStore, deals: Deals, game: GameFlow, cooldowns: Cooldowns,
                 clock: Callable[[], float]) -> None:
        self.store = store
        self.deals = deals
        self.cooldowns = cooldowns
        self.game = game
        self._clock = clock
        self.announce: Announce | None = None  # None: no channel can be posted in here

    def now(self) -> float:
        return self._clock()

    async def at(self, instance: str) -> Race | None:
        return await self.store.at(instance, self._clock())

    async def start(self, player: Player, name: str, where: Where, game_id: str) -> Reply:
        """``player`` starts a race of ``game_id`` at the table: it counts down, and anyone
        there may join it meanwhile."""
        check_game(game_id)
        under_way = await self.at(where.instance)
        if under_way is not None and under_way.status != OVER:
            under_way = await self.advance(under_way)  # one left behind ends now
        if under_way is None or under_way.status == OVER:
            # Each race takes a proven-winnable deal, as /new winnable does: as seldom.
            wait = await self.cooldowns.wait(player.user_id, Cooldown.WINNABLE)
            if wait:
                raise Refused(_("A race's deal takes the solver a while to prove winnable: "
                                "start one every {every} s. Ask again in {wait} s.",
                                every=round(EVERY_S[Cooldown.WINNABLE]), wait=wait))
            now = self._clock()
            made = await self.store.create(NewRace(
                where.instance, where.guild_id, where.channel_id, game_id, player.user_id,
                name, player.guild_id, player.shared_language), now, now + COUNTDOWN_S)
            if made is not None:
                return Reply(note=n_(
                    "You started a {game} race: it begins in {count} second. Everyone at "
                    "the table is asked to join it.",
                    "You started a {game} race: it begins in {count} seconds. Everyone at "
                    "the table is asked to join it.", round(COUNTDOWN_S), game=GAMES[game_id]))
        raise Refused(_("A race is under way at this table already: join it while it counts "
                        "down, or watch it, and start the next one when it is over."))

    async def join(self, player: Player, name: str, instance: str, race_id: int) -> Reply:
        """``player`` joins the race at the table while it counts down."""
        race = await self.store.get(race_id) if is_id(race_id) else None
        if race is None or race.instance != instance:
            raise Refused(_("That race is not at this table."))
        now = self._clock()
        joining = race.racer(player.user_id) is None
        if joining and (race.status != COUNTING or now >= race.starts_at
                        or not await self.store.join(race.id, player.user_id, name,
                                                     player.guild_id, now)):
            raise Refused(_("That race has begun: watch it, and join the next one."))
        if race.status != COUNTING:
            raise Refused(_("You are in that race already: your game of it is on your table."))
        return Reply(note=n_(
            "You are in the race: it begins in {count} second, with the same deal for every "
            "racer. Your game now will count as left, as a new game leaves it.",
            "You are in the race: it begins in {count} seconds, with the same deal for every "
            "racer. Your game now will count as left, as a new game leaves it.",
            max(1, round(race.starts_at - now))))

    async def advance(self, race: Race, away: Collection[int] = (),
                      home: Callable[[int], int] | None = None) -> Race:
        """Move the race on as its time says: begin it once its countdown is over (its deal
        taken then) and deal every racer; record the racers in ``away`` (gone from the
        table ``AWAY_S``) as resigned, their cards home as ``home`` says; end it once every
        racer has finished or left, or its limit has passed; post its result, once. The
        race as it now is."""
        now = self._clock()
        if race.status == COUNTING and now >= race.starts_at:
            race = await self._begin(race, now)
        if race.status == RUNNING:
            await self._deal(race)
            for racer in race.racers:
                if racer.user_id in away and racer.outcome is None:
                    await self.store.resign(race.id, racer.user_id, now,
                                            0 if home is None else home(racer.user_id))
            await self.store.close(race.id, self._clock())
            race = await self.store.get(race.id) or race
        if race.status == OVER and not race.posted and race.begun_at is not None:
            await self._post(race)
        return race

    async def _begin(self, race: Race, now: float) -> Race:
        began = await self.store.begin(race.id, now, now + LIMIT_S)
        if began is None:  # the pool had none: one proven on the spot, as a challenge's
            deal = await self.deals.proven_now(race.game)
            if deal is None:
                log.warning("race %d: no proven-winnable %s deal could be found: called off",
                            race.id, race.game)
                await self.store.call_off(race.id, now)
            else:
                await self.store.begin(race.id, now, now + LIMIT_S, deal=deal)
        return await self.store.get(race.id) or race

    async def _deal(self, race: Race) -> None:
        """Deal every racer not yet dealt their game of the race (at once: the same
        moment for all)."""
        assert race.deal is not None
        waiting = [r for r in race.racers if not r.dealt and r.outcome is None]
        if waiting:
            await asyncio.gather(*(self.game.deal_race(
                Player(r.user_id, r.guild_id), race.id, race.game, race.deal)
                for r in waiting))

    async def _post(self, race: Race) -> None:
        """The race's result, in its channel, by the one process that gets to post it."""
        if race.channel_id is None or self.announce is None:
            return
        if not await self.store.to_post(race.id):
            return
        with speaking(race.language):
            text = announcement(race)
        try:
            await self.announce(race.channel_id, text)
        except Exception:
            log.warning("race %d: its result could not be posted in channel %d", race.id,
                        race.channel_id, exc_info=True)

    async def close_left_behind(self) -> None:
        """End the races nobody at their table is left to drive on (a leader's job): one
        still counting down long after its countdown is called off, one past its limit
        ends (its result posted, if this process can)."""
        for race in await self.store.left_behind(self._clock(), AWAY_S * 4):
            if race.status == COUNTING:
                await self.store.call_off(race.id, self._clock())
            else:
                await self.advance(race)

    async def record(self, user_id: int, guild_id: int | None) -> tuple[int, int]:
        """(played, won) of a player's races that are over (in one server, or all)."""
        races = await self.store.of_player(user_id, guild_id)
        won = 0
        for race in races:
            best = winner(race)
            won += best is not None and best.user_id == user_id
        return len(races), won


def _standing(racer: Racer) -> tuple[int, bool, int, float, int]:
    """How a racer ranks, lowest best: a win first (without hints before with them, then
    fewer moves, then less time); then, of those who did not win, more cards home."""
    if racer.outcome == WON:
        return 0, racer.hints > 0, racer.moves or 0, racer.seconds or 0.0, 0
    return 1, False, 0, 0.0, -(racer.home or 0)


def placed(race: Race) -> list[Racer]:
    """The racers, best first."""
    return sorted(race.racers, key=_standing)


def winner(race: Race) -> Racer | None:
    """The race's winner, once it is over: the best win, unless another won alike (a
    tie); None when nobody won."""
    if race.status != OVER:
        return None
    wins = [r for r in placed(race) if r.outcome == WON]
    if not wins or (len(wins) > 1 and _standing(wins[0]) == _standing(wins[1])):
        return None
    return wins[0]


def how(racer: Racer, over: bool) -> Text:
    """How a racer stands, as the result tells it."""
    ended = how_it_ended(racer.outcome, racer.moves, racer.seconds, racer.hints)
    if ended is not None:
        return ended
    return _("did not finish in time") if over else _("playing…")


def announcement(race: Race) -> Text:
    """The race's result as it is posted in its channel."""
    game = GAMES[race.game]
    lines = [n_("🏁 <b>{game} race</b> over: {count} racer, deal {deal}, proven winnable.",
                "🏁 <b>{game} race</b> over: {count} racers, deal {deal}, proven winnable.",
                len(race.racers), game=game, deal=race.deal or 0)]
    ranked = placed(race)
    lines += [_("{place}. {player}: {outcome}", place=place, player=mention(r.user_id),
                outcome=how(r, True))
              for place, r in enumerate(ranked[:POSTED_PLACES], start=1)]
    if len(ranked) > POSTED_PLACES:  # (the table showed them all)
        lines.append(n_("…and {count} more racer.", "…and {count} more racers.",
                        len(ranked) - POSTED_PLACES))
    best = winner(race)
    if best is not None:
        lines.append(_("🏆 {player} wins the race!", player=mention(best.user_id)))
    elif any(r.outcome == WON for r in race.racers):
        lines.append(_("🤝 A tie: the best won alike, in the same moves and time."))
    else:
        lines.append(_("Nobody won this one."))
    return Text("\n").join(lines)
