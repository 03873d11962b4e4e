"""``/replay``: a game shown move by move, as an animation to post in the channel — the
player's current game (or, if they have none, their last finished one), or another
member's last finished game in this server."""

from __future__ import annotations

from engine import Game

from ..replies import Message, Person, Player, Reply, refusal
from ..store import PLAYING, RESIGNED, WON
from ..store.games import GameStore
from ..store.replays import ReplayStore
from ..words.phrases import code, mention, plural
from ..workers.pictures import Pictures
from .cooldowns import Cooldowns
from .settings import PlayerSettings

OUTCOMES = {WON: "won", "lost": "lost (stuck)", RESIGNED: "resigned",
            "abandoned": "left unfinished", PLAYING: "still being played"}


class Replays:
    def __init__(
        self, games: GameStore, replays: ReplayStore, settings: PlayerSettings,
        pictures: Pictures, cooldowns: Cooldowns,
    ) -> None:
        self.games = games
        self.replays = replays
        self.settings = settings
        self.pictures = pictures
        self.cooldowns = cooldowns

    async def replay(self, viewer: Player, subject: Person | None = None) -> Reply:
        own = subject is None or subject.user_id == viewer.user_id
        if subject is not None and subject.bot:
            return refusal(f"{mention(subject.user_id)} is a bot; bots don't play solitaire.")
        found = await self._game_of(viewer, None if own or subject is None else subject)
        if isinstance(found, Reply):
            return found
        game, outcome, hints = found
        if not game.moves_made:
            return refusal("That game has no move yet: nothing to replay.")
        cooling = await self.cooldowns.refusal(viewer.user_id, "replay")
        if cooling is not None:
            return cooling
        settings = await self.settings.of(viewer.user_id)
        gif = await self.pictures.replay(
            game, four_colour=settings["four_colour"], assisted=outcome == WON and hints > 0,
            resigned=outcome == RESIGNED,
        )
        whose = "Your" if own or subject is None else f"{mention(subject.user_id)}'s"
        how = OUTCOMES.get(outcome, outcome)
        text = (
            f"🎞️ {whose} **{game.name}** game, deal {game.deal}: {how}, "
            f"{plural(game.moves_made, 'move')}. "
            f"{code(f'/new {game.game_id} {game.deal}')} deals it to you."
        )
        alt = (f"A replay of {game.name}, deal {game.deal}, a frame a move from the deal: "
               f"{how} after {plural(game.moves_made, 'move')}.")
        private = own and settings["private_boards"] and outcome == PLAYING
        return Reply(message=Message(text, gif, f"replay-{game.game_id}-{game.deal}.gif",
                                     private=private, alt_text=alt))

    async def _game_of(
        self, viewer: Player, other: Person | None
    ) -> tuple[Game, str, int] | Reply:
        """The game to replay, its outcome and its hints; or why there is none."""
        if other is None:
            saved = await self.games.load(viewer.user_id)
            if saved is not None and saved.game.moves_made:
                return saved.game, saved.status, saved.hints
            finished = await self.replays.last(viewer.user_id, viewer.guild_id)
            if finished is None:
                return refusal("You have no game to replay here yet: `/new` deals one.")
            return finished.game, finished.outcome, finished.hints
        if viewer.guild_id is None:
            return refusal("Outside a server you can replay only your own games.")
        finished = await self.replays.last(other.user_id, viewer.guild_id)
        if finished is None:
            return refusal(f"{mention(other.user_id)} has finished no game on this server yet.")
        return finished.game, finished.outcome, finished.hints
