"""Challenges between members: one challenges another to a game; on accept, both play the
same proven-winnable deal, each in their own saved game (the game flow deals it, on each
player's ▶ Play); the challenge's message shows how each did and, at the end, names the
winner: a win beats anything else, a win without hints beats one with them (``/stats``
calls it assisted), then fewer moves, then less time.

A challenge waits a day for its answer, and once accepted lasts a day: a side that has not
finished by then did not finish. The day is the time, not the leader's sweep: a game won
after it is not counted (the store checks it as it records the game), an Accept after it
accepts nothing, a ▶ Play deals nothing. Everything is in the database, so a challenge goes
on across shard processes and restarts; its message is edited by whichever process sees a
change (``Update``), and the leader closes the ones whose day is over.

The message is read by everyone in the channel, so it speaks the server's language; it is
posted in it and keeps it (the store has it), so every later update by either side or by
the leader is worded alike. Refusals and notes go to the player alone, in their language.
"""

from __future__ import annotations

from collections.abc import Callable

from engine import GAMES

from ..replies import (
    ChallengeAction,
    ChallengeControls,
    DealRequest,
    Member,
    Message,
    Player,
    Refused,
    Reply,
    Update,
)
from ..replies.text import Text
from ..store.challenges import (
    DAY_S,
    GONE,
    Acceptance,
    Challenge,
    ChallengeStore,
    NotMade,
    Side,
)
from ..store.statuses import (
    ACCEPTED,
    CANCELLED,
    DECLINED,
    EXPIRED,
    LOST,
    OPEN,
    OVER,
    RESIGNED,
    WON,
    GameStatus,
)
from ..words.language import _, n_, p_, speaking
from ..words.phrases import command, format_seconds, mention, moment
from .cooldowns import Cooldown, Cooldowns
from .deals import Deals
from .outcomes import saving
from .scopes import check_game, check_person

MOST_OPEN = 3  # challenges a member may have waiting for an answer at once


class Challenges:
    def __init__(
        self, store: ChallengeStore, deals: Deals, cooldowns: Cooldowns,
        clock: Callable[[], float],
    ) -> None:
        self.store = store
        self.deals = deals
        self.cooldowns = cooldowns
        self._clock = clock

    async def challenge(self, player: Player, opponent: Member, game_id: str) -> Reply:
        """``player`` challenges ``opponent`` to ``game_id``: a public message with Accept
        and Decline, for the opponent alone to press."""
        check_game(game_id)
        if player.guild_id is None:
            raise Refused(_("Challenges are between members of a server: challenge someone "
                            "there."))
        if opponent.user_id == player.user_id:
            raise Refused(_("You can't challenge yourself — but {new} deals you a game.",
                            new=command("new")))
        check_person(opponent)
        if not opponent.member:  # the client resolved no member of this server
            raise Refused(_("{player} is not a member of this server, as far as Discord "
                            "told me: challenge someone from the list of its members.",
                            player=mention(opponent.user_id)))
        await self.cooldowns.check(player.user_id, Cooldown.CHALLENGE)
        async with saving():
            made = await self.store.create(player.guild_id, player.user_id, opponent.user_id,
                                           game_id, self._clock(),
                                           language=player.shared_language, most_open=MOST_OPEN)
        updates = [await self.update_after_game(i) for i in made.expired]
        closed = tuple(u for u in updates if u is not None)
        if made.challenge is None and made.why == NotMade.PAIR_BUSY:
            raise Refused(_(
                "You and {player} already have a challenge under way: answer or finish that "
                "one first (its message has the buttons).", player=mention(opponent.user_id),
            ), updates=closed)
        if made.challenge is None:
            raise Refused(n_(
                "You have {count} challenge waiting for an answer: wait until it is "
                "answered, or its day ends, before you make another.",
                "You have {count} challenges waiting for an answer: wait until one is "
                "answered, or its day ends, before you make another.", MOST_OPEN,
            ), updates=closed)
        text, controls = await self.message_of(made.challenge)
        return Reply(message=Message(text, challenge=controls, ping=opponent.user_id),
                     updates=closed)

    async def posted(self, challenge_id: int, channel_id: int, message_id: int) -> None:
        await self.store.posted(challenge_id, channel_id, message_id)

    async def answer(self, player: Player, challenge_id: int, accept: bool) -> Reply:
        """The challenged member's Accept or Decline (a press on the challenge's message,
        which shows the challenge as it now is). A press on one no longer waiting for an
        answer, by anyone, brings its message up to date: how it stands, or how it ended."""
        challenge = await self.store.get(challenge_id)
        if challenge is None:
            raise Refused(_("That challenge is no longer kept."))
        if challenge.status == OPEN and GONE in (s.user_id for s in challenge.sides):
            await self.store.close(challenge.id, OPEN, CANCELLED)  # forgotten meanwhile
        elif challenge.status == OPEN and player.user_id != challenge.challenged.user_id:
            raise Refused(_("That challenge is for {player}, not for you. {challenge} makes "
                            "one of your own.", player=mention(challenge.challenged.user_id),
                            challenge=command("challenge")))
        elif challenge.status == OPEN and _day_over(challenge, self._clock()):
            await self.store.close(challenge.id, OPEN, EXPIRED)
        elif challenge.status == OPEN and accept:
            # The deal is taken in the statement's transaction that accepts it, so of many
            # presses at once only the one that accepts takes one; with the pool empty, a
            # deal is proven on the spot first (and only used if this press accepts).
            async with saving():
                taken = await self.store.accept(challenge.id, self._clock())
            if taken == Acceptance.NO_DEAL:
                deal = await self.deals.proven_now(challenge.game)
                if deal is None:
                    raise Refused(_("No proven-winnable {game} deal is ready just now: try "
                                    "again in a minute.", game=GAMES[challenge.game]))
                async with saving():
                    taken = await self.store.accept(challenge.id, self._clock(), deal=deal)
            if taken == Acceptance.NOT_OPEN:  # answered meanwhile, or its day just ended
                await self.close_if_over(challenge.id)
        elif challenge.status == OPEN:
            await self.store.close(challenge.id, OPEN, DECLINED)
        shown = await self.store.get(challenge.id)
        assert shown is not None
        text, controls = await self.message_of(shown)
        note = (_("Accepted! Press ▶ Play when you are ready: it deals your game.")
                if accept and shown.status == ACCEPTED
                and player.user_id == shown.challenged.user_id else None)
        return Reply(message=Message(text, challenge=controls), note=note)

    async def game_to_deal(self, player: Player, challenge_id: int) -> DealRequest:
        """The game ▶ Play deals the player for a challenge. Refused, saying why, when there
        is none; when the challenge is over (closed or not yet), with its message brought
        up to date to show how it ended, as the refusal says (the pressed message is
        edited)."""
        found = await self.store.get(challenge_id)
        now = self._clock()
        try:
            challenge = playable(found, player, now)
        except Refused as refused:
            if found is None or not is_over(found, now):
                raise
            text, controls = await self.message_of(found)
            raise Refused(refused.why, message=Message(text, challenge=controls)) from None
        assert challenge.deal is not None  # dealt at Accept
        return DealRequest(challenge.game, challenge.deal, challenge=challenge.id)

    async def check_dealing(self, player: Player, request: DealRequest) -> None:
        """Refuse ``request`` (what a question's buttons carried) if it is a challenge's
        game and not the player's game of it as the challenge now stands: accepted, within
        its day, their side still to play, its game and deal."""
        if request.challenge is None:
            return
        challenge = playable(await self.store.get(request.challenge), player, self._clock())
        if (request.game_id, request.deal, request.draw) != (challenge.game, challenge.deal,
                                                              False):
            raise Refused(_("That question does not match its challenge, so nothing was "
                            "dealt. The challenge's ▶ Play button deals your game of it."))

    async def close_if_over(self, challenge_id: int) -> None:
        """Close a challenge whose day to be answered is over (the leader would, later)."""
        challenge = await self.store.get(challenge_id)
        if (challenge is not None and challenge.status == OPEN
                and _day_over(challenge, self._clock())):
            await self.store.close(challenge.id, OPEN, EXPIRED)

    async def message_of(self, challenge: Challenge) -> tuple[Text, ChallengeControls | None]:
        """What the challenge's message says now, in the language it was posted in, and its
        buttons (none once it is over). A challenge whose day is over is closed here."""
        now = self._clock()
        if challenge.status == ACCEPTED and (
            all(s.outcome is not None for s in challenge.sides) or _day_over(challenge, now)
        ) and await self.store.close(challenge.id, ACCEPTED, OVER):
            challenge = await self.store.get(challenge.id) or challenge
        played = challenge.status in (ACCEPTED, OVER)
        playing = await self.store.playing(challenge.id) if played else set()
        with speaking(challenge.language):
            return _worded(challenge, playing, now)

    @staticmethod
    def start_line() -> Text:
        """What the board says when a side's game of a challenge is dealt."""
        return _("⚔️ This is your game of the challenge: how it ends is your side's result.")

    async def updates_after(self, *challenge_ids: int | None) -> tuple[Update, ...]:
        """The messages of these challenges (None: none), whose games just started or
        ended."""
        ids = {i for i in challenge_ids if i is not None}
        updates = [await self.update_after_game(i) for i in sorted(ids)]
        return tuple(u for u in updates if u is not None)

    async def update_after_game(self, challenge_id: int) -> Update | None:
        """The challenge's message as it now is, after a game played for it changed."""
        challenge = await self.store.get(challenge_id)
        if challenge is None or challenge.channel_id is None or challenge.message_id is None:
            return None
        text, controls = await self.message_of(challenge)
        return Update(challenge.channel_id, challenge.message_id, text, controls)

    async def close_due(self) -> list[Update]:
        """The challenges whose day is over, closed, and their messages as they end (a
        leader's job: one process closes each)."""
        since = self._clock() - DAY_S
        updates = []
        for status in (OPEN, ACCEPTED):
            for challenge in await self.store.due(status, since):
                if status == OPEN and not await self.store.close(challenge.id, OPEN, EXPIRED):
                    continue
                update = await self.update_after_game(challenge.id)
                if update is not None:
                    updates.append(update)
        return updates

    async def live_on(self, game_id: str, deal: int) -> list[Challenge]:
        """The accepted challenges on this deal whose day is not over."""
        return await self.store.live_on(game_id, deal, self._clock() - DAY_S)

    async def record(self, user_id: int, guild_id: int | None) -> tuple[int, int]:
        """(won, lost) of a player's challenges that are over (in one server, or all)."""
        won = lost = 0
        for challenge in await self.store.of_player(user_id, guild_id):
            best = winner(challenge)
            if best is not None:
                won += best.user_id == user_id
                lost += best.user_id != user_id
        return won, lost


def _worded(
    challenge: Challenge, playing: set[int], now: float
) -> tuple[Text, ChallengeControls | None]:
    """The challenge's message in the language spoken now (``playing``: the sides whose
    game of it is under way)."""
    game, challenger = GAMES[challenge.game], _name(challenge.challenger.user_id)
    challenged = _name(challenge.challenged.user_id)
    if challenge.status == OPEN:
        text = _("⚔️ <b>Challenge!</b> {challenger} challenges {challenged} to <b>{game}</b>: the "
                 "same deal for both, one the solver has proven can be won, and the better "
                 "result wins (a win, then a win without hints, then fewer moves, then less "
                 "time). {challenged}, will you play? (Open until {ends}.)",
                 challenger=challenger, challenged=challenged, game=game,
                 ends=moment(challenge.created_at + DAY_S))
        return text, _controls(challenge, ChallengeAction.ACCEPT, ChallengeAction.DECLINE)
    if challenge.status == DECLINED:
        return _("⚔️ {challenged} declined {challenger}'s <b>{game}</b> challenge.",
                 challenged=challenged, challenger=challenger, game=game), None
    if challenge.status == EXPIRED:
        return _("⚔️ {challenger}'s <b>{game}</b> challenge to {challenged} went unanswered for "
                 "a day.", challenger=challenger, challenged=challenged, game=game), None
    if challenge.status == CANCELLED:
        return _("⚔️ This <b>{game}</b> challenge was called off before it was answered: one "
                 "of its two players has left.", game=game), None
    over = challenge.status == OVER
    head = _("⚔️ <b>{game} challenge</b>: {challenger} vs {challenged}, deal {deal}, proven "
             "winnable. A win beats anything else, a win without hints beats one with them, "
             "then fewer moves, then less time.",
             game=game, challenger=challenger, challenged=challenged, deal=challenge.deal)
    if not over:
        head += " " + _("Both press ▶ Play to deal it; it ends {ends}.",
                        ends=moment((challenge.accepted_at or now) + DAY_S))
    lines = [head]
    # A side who asked to be forgotten is named no more, nor is how they did.
    lines += [Text("• ", _name(s.user_id)) if s.user_id == GONE else
              _("• {player}: {outcome}", player=_name(s.user_id),
                outcome=_how(s, s.user_id in playing, over))
              for s in challenge.sides]
    if over:
        lines.append(verdict(challenge))
        return Text("\n").join(lines), None
    return Text("\n").join(lines), _controls(challenge, ChallengeAction.PLAY)


def _day_over(challenge: Challenge, now: float) -> bool:
    """Whether the day a challenge has is over: to be answered (open), or to be played
    (accepted)."""
    started = challenge.created_at if challenge.status == OPEN else challenge.accepted_at
    return started is not None and now > started + DAY_S


def is_over(challenge: Challenge, now: float) -> bool:
    """Whether a challenge has ended: answered no, called off, closed, or past its day
    (whether or not it has been closed yet)."""
    return challenge.status not in (OPEN, ACCEPTED) or _day_over(challenge, now)


def _controls(challenge: Challenge, *actions: ChallengeAction) -> ChallengeControls:
    return ChallengeControls(challenge.id, actions, challenge.language)


def playable(challenge: Challenge | None, player: Player, now: float) -> Challenge:
    """``challenge``, if ``player`` may deal their game of it now; else refused, saying
    why not."""
    if challenge is None:
        raise Refused(_("That challenge is no longer kept."))
    side = challenge.side_of(player.user_id)
    if side is None:
        raise Refused(_(
            "That challenge is between {challenger} and {challenged}. {challenge} someone to "
            "play your own.", challenger=_name(challenge.challenger.user_id),
            challenged=_name(challenge.challenged.user_id), challenge=command("challenge"),
        ))
    if challenge.status == OPEN:
        raise Refused(_("That challenge has not been accepted yet."))
    if challenge.status != ACCEPTED or _day_over(challenge, now):
        raise Refused(_("That challenge is over: its message shows how it ended."))
    if side.outcome is not None:
        raise Refused(_played(side))
    return challenge


def winner(challenge: Challenge) -> Side | None:
    """The better side of a challenge over: a win beats anything else, a win without hints
    beats one with them, then fewer moves, then less time; None when neither won, or both
    won alike."""
    wins = [s for s in challenge.sides if s.outcome == WON]
    if len(wins) < 2:
        return wins[0] if wins else None
    first, second = sorted(wins, key=_standing)
    return None if _standing(first) == _standing(second) else first


def _standing(side: Side) -> tuple[bool, int, float]:
    """How a won side ranks, lowest best: assisted or not, moves, time."""
    return side.hints > 0, side.moves or 0, side.seconds or 0.0


def verdict(challenge: Challenge) -> Text:
    best = winner(challenge)
    if any(s.user_id == GONE for s in challenge.sides) and (best is None or best.user_id == GONE):
        return _("⚔️ This challenge is over.")  # nothing said of the side forgotten
    if best is not None:
        return _("🏆 {player} wins the challenge!", player=_name(best.user_id))
    if any(s.outcome == WON for s in challenge.sides):
        return _("🤝 A tie: both won alike, in the same moves and time.")
    return _("Neither won this one: no winner.")


def how_it_ended(outcome: GameStatus | None, moves: int | None, seconds: float | None,
                 hints: int) -> Text | None:
    """How a game played for a challenge (or a race) ended, beside its player's name (None:
    it has not)."""
    if outcome == WON and hints:
        return n_("won in {count} move ({time}), with hints",
                  "won in {count} moves ({time}), with hints",
                  moves or 0, time=format_seconds(seconds or 0.0))
    if outcome == WON:
        return n_("won in {count} move ({time})", "won in {count} moves ({time})",
                  moves or 0, time=format_seconds(seconds or 0.0))
    if outcome == LOST:
        return Text(p_("challenge side", "lost (stuck)"))
    if outcome == RESIGNED:
        return Text(p_("challenge side", "resigned"))
    if outcome is not None:  # abandoned
        return Text(p_("challenge side", "left the game"))
    return None


def _how(side: Side, playing: bool, over: bool) -> Text:
    """How a side stands, as the challenge's message tells it beside their name."""
    ended = how_it_ended(side.outcome, side.moves, side.seconds, side.hints)
    if ended is not None:
        return ended
    if over:
        return _("did not finish within the day")
    return _("playing…") if playing else _("not started yet")


def _played(side: Side) -> Text:
    """The refusal of a second game of a challenge: how the first ended."""
    if side.outcome == WON:
        return n_("You have played your game of this challenge: you won in {count} move "
                  "({time}). Its message shows how it stands.",
                  "You have played your game of this challenge: you won in {count} moves "
                  "({time}). Its message shows how it stands.",
                  side.moves or 0, time=format_seconds(side.seconds or 0.0))
    if side.outcome == LOST:
        return _("You have played your game of this challenge: you lost (stuck). Its message "
                 "shows how it stands.")
    if side.outcome == RESIGNED:
        return _("You have played your game of this challenge: you resigned. Its message "
                 "shows how it stands.")
    return _("You have played your game of this challenge: you left the game. Its message "
             "shows how it stands.")


def _name(user_id: int) -> Text:
    return _("a player who has left") if user_id == GONE else mention(user_id)
