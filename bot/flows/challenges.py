"""Challenges between members: one challenges another to a game; on accept, both play the
same proven-winnable deal, each in their own saved game (the game flow deals it, on each
player's ▶ Play); the challenge's message shows how each did and, at the end, names the
winner: a win beats anything else, then fewer moves, then less time.

A challenge waits a day for its answer, and once accepted lasts a day: a side that has not
finished by then did not finish. Everything is in the database, so a challenge goes on
across shard processes and restarts; its message is edited by whichever process sees a
change (``Update``), and the leader closes the ones whose day is over.
"""

from __future__ import annotations

from collections.abc import Callable

from engine import GAMES

from ..replies import (
    ChallengeControls,
    Duel,
    Message,
    Person,
    Player,
    Reply,
    Update,
    refusal,
)
from ..store.challenges import ACCEPTED, DECLINED, GONE, OPEN, OVER, Challenge, ChallengeStore, Side
from ..words.phrases import format_seconds, mention
from .cooldowns import Cooldowns
from .scopes import game_refusal
from .solver import SolverService

DAY_S = 24 * 3600  # a challenge waits this long for its answer, and lasts this long after
EXPIRED = "expired"  # an open challenge nobody answered within the day
OUTCOME_WORDS = {"lost": "lost (stuck)", "resigned": "resigned", "abandoned": "left the game"}


class Challenges:
    def __init__(
        self, store: ChallengeStore, solver: SolverService, cooldowns: Cooldowns,
        clock: Callable[[], float],
    ) -> None:
        self.store = store
        self.solver = solver
        self.cooldowns = cooldowns
        self._clock = clock

    async def challenge(self, player: Player, opponent: Person, game_id: str) -> Reply:
        """``player`` challenges ``opponent`` to ``game_id``: a public message with Accept
        and Decline, for the opponent alone to press."""
        refused = game_refusal(game_id)
        if refused is not None:
            return refused
        if player.guild_id is None:
            return refusal("Challenges are between members of a server: challenge someone "
                           "there.")
        if opponent.user_id == player.user_id:
            return refusal("You can't challenge yourself — but `/new` deals you a game.")
        if opponent.bot:
            return refusal(f"{mention(opponent.user_id)} is a bot; bots don't play solitaire.")
        cooling = await self.cooldowns.refusal(player.user_id, "challenge")
        if cooling is not None:
            return cooling
        made = await self.store.create(player.guild_id, player.user_id, opponent.user_id,
                                       game_id, self._clock())
        text, controls = await self.message_of(made)
        return Reply(message=Message(text, challenge=controls, ping=opponent.user_id))

    async def posted(self, challenge_id: int, channel_id: int, message_id: int) -> None:
        await self.store.posted(challenge_id, channel_id, message_id)

    async def answer(self, player: Player, challenge_id: int, accept: bool) -> Reply:
        """The challenged member's Accept or Decline (a press on the challenge's message,
        which shows the challenge as it now is)."""
        challenge = await self.store.get(challenge_id)
        if challenge is None:
            return refusal("That challenge is no longer kept.")
        if player.user_id != challenge.challenged.user_id:
            return refusal(f"That challenge is for {mention(challenge.challenged.user_id)}, "
                           "not for you. `/challenge` makes one of your own.")
        if challenge.status == OPEN and self._clock() > challenge.created_at + DAY_S:
            await self.store.close(challenge.id, OPEN, EXPIRED)
        elif challenge.status == OPEN and accept:
            deal = await self.solver.winnable_deal(challenge.game)
            if deal is None:
                return refusal(f"No proven-winnable {GAMES[challenge.game]} deal is ready "
                               "just now: try again in a minute.")
            await self.store.accept(challenge.id, deal, self._clock())
        elif challenge.status == OPEN:
            await self.store.close(challenge.id, OPEN, DECLINED)
        shown = await self.store.get(challenge.id)
        assert shown is not None
        text, controls = await self.message_of(shown)
        note = ("Accepted! Press ▶ Play when you are ready: it deals your game."
                if accept and shown.status == ACCEPTED else None)
        return Reply(message=Message(text, challenge=controls), note=note)

    async def message_of(self, challenge: Challenge) -> tuple[str, ChallengeControls | None]:
        """What the challenge's message says now, and its buttons (none once it is over).
        A challenge whose day is over is closed here."""
        now = self._clock()
        if challenge.status == ACCEPTED and (
            all(s.outcome is not None for s in challenge.sides)
            or now > (challenge.accepted_at or now) + DAY_S
        ) and await self.store.close(challenge.id, ACCEPTED, OVER):
            challenge = await self.store.get(challenge.id) or challenge
        name, who = f"**{GAMES[challenge.game]}**", _name(challenge.challenger.user_id)
        them = _name(challenge.challenged.user_id)
        if challenge.status == OPEN:
            ends = int(challenge.created_at + DAY_S)
            text = (f"⚔️ **Challenge!** {who} challenges {them} to {name}: the same deal for "
                    "both, one the solver has proven can be won, and the better result "
                    f"wins. {them}, will you play? (Open until <t:{ends}:f>.)")
            return text, ChallengeControls(challenge.id, (Duel.ACCEPT, Duel.DECLINE))
        if challenge.status == DECLINED:
            return f"⚔️ {them} declined {who}'s {name} challenge.", None
        if challenge.status == EXPIRED:
            return f"⚔️ {who}'s {name} challenge to {them} went unanswered for a day.", None
        playing = await self.store.playing(challenge.id)
        over = challenge.status == OVER
        lines = [f"⚔️ **{GAMES[challenge.game]} challenge**: {who} vs {them}, deal "
                 f"{challenge.deal}, proven winnable. A win beats anything else, then fewer "
                 "moves, then less time."]
        if not over:
            ends = int((challenge.accepted_at or now) + DAY_S)
            lines[0] += f" Both press ▶ Play to deal it; it ends <t:{ends}:f>."
        lines += [f"• {_name(s.user_id)}: {_how(s, s.user_id in playing, over)}"
                  for s in challenge.sides]
        if over:
            lines.append(verdict(challenge))
            return "\n".join(lines), None
        return "\n".join(lines), ChallengeControls(challenge.id, (Duel.PLAY,))

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

    async def record(self, user_id: int, guild_id: int | None) -> tuple[int, int]:
        """(won, lost) of a player's challenges that are over (in one server, or all)."""
        won = lost = 0
        for challenge in await self.store.of_player(user_id, guild_id):
            best = winner(challenge)
            if best is not None:
                won += best.user_id == user_id
                lost += best.user_id != user_id
        return won, lost


def play_refusal(challenge: Challenge | None, player: Player, now: float) -> Reply | None:
    """None if ``player`` may deal their game of ``challenge`` now; else why not."""
    if challenge is None:
        return refusal("That challenge is no longer kept.")
    side = challenge.side_of(player.user_id)
    if side is None:
        return refusal(
            f"That challenge is between {_name(challenge.challenger.user_id)} and "
            f"{_name(challenge.challenged.user_id)}. `/challenge` someone to play your own."
        )
    if challenge.status == OPEN:
        return refusal("That challenge has not been accepted yet.")
    if challenge.status != ACCEPTED or now > (challenge.accepted_at or now) + DAY_S:
        return refusal("That challenge is over: its message shows how it ended.")
    if side.outcome is not None:
        return refusal(f"You have played your game of this challenge: you "
                       f"{_how(side, False, False)}. Its message shows how it stands.")
    return None


def winner(challenge: Challenge) -> Side | None:
    """The better side of a challenge over: a win beats anything else, then fewer moves,
    then less time; None when neither won, or both won alike."""
    wins = [s for s in challenge.sides if s.outcome == "won"]
    if len(wins) < 2:
        return wins[0] if wins else None
    first, second = sorted(wins, key=lambda s: (s.moves or 0, s.seconds or 0.0))
    return None if (first.moves, first.seconds) == (second.moves, second.seconds) else first


def verdict(challenge: Challenge) -> str:
    best = winner(challenge)
    if best is not None:
        return f"🏆 {_name(best.user_id)} wins the challenge!"
    if any(s.outcome == "won" for s in challenge.sides):
        return "🤝 A tie: both won in the same moves and time."
    return "Neither won this one: no winner."


def _how(side: Side, playing: bool, over: bool) -> str:
    if side.outcome == "won":
        return f"won in {side.moves} moves ({format_seconds(side.seconds or 0.0)})"
    if side.outcome is not None:
        return OUTCOME_WORDS.get(side.outcome, side.outcome)
    if over:
        return "did not finish within the day"
    return "playing…" if playing else "not started yet"


def _name(user_id: int) -> str:
    return "a player who has left" if user_id == GONE else mention(user_id)
