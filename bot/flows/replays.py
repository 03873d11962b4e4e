"""``/replay``: a game shown move by move, as an animation to post in the channel — the
player's current game (or, if they have none, their last finished one), or another
member's last finished game in this server. A replay posted in the channel speaks the
server's language; one only its player sees (a game in play on private boards), and every
refusal, speak theirs."""

from __future__ import annotations

from engine import Game
from render.alt_text import LIMIT
from render.replay import frames_shown

from ..replies import Message, Person, Player, Reply, refusal
from ..store import PLAYING, RESIGNED, WON
from ..store.games import GameStore
from ..store.replays import ReplayStore
from ..words.language import _, n_, p_, speaking
from ..words.phrases import command, mention
from ..words.typed import as_typed
from ..workers.pictures import Pictures
from .cooldowns import Cooldowns
from .scopes import bot_refusal
from .settings import PlayerSettings


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
        refused = None if subject is None else bot_refusal(subject)
        if refused is not None:
            return refused
        found = await self._game_of(viewer, None if own or subject is None else subject)
        if isinstance(found, Reply):
            return found
        game, outcome, hints = found
        if not game.moves_made:  # only a finished game comes here without a move
            return refusal(_("That game ended before its first move: nothing to replay."))
        cooling = await self.cooldowns.refusal(viewer.user_id, "replay")
        if cooling is not None:
            return cooling
        settings = await self.settings.of(viewer.user_id)
        private = own and settings["private_boards"] and outcome == PLAYING
        with speaking(viewer.language if private else viewer.shared_language):
            gif = await self.pictures.replay(
                game, four_colour=settings["four_colour"],
                assisted=outcome == WON and hints > 0, resigned=outcome == RESIGNED,
            )
            how, moves = _outcome(outcome), game.moves_made
            facts = {"game": game.name, "deal": game.deal, "outcome": how}
            if own or subject is None:
                said = n_("🎞️ Your **{game}** game, deal {deal}: {outcome}, {count} move.",
                          "🎞️ Your **{game}** game, deal {deal}: {outcome}, {count} moves.",
                          moves, **facts)
            else:
                said = n_("🎞️ {player}'s **{game}** game, deal {deal}: {outcome}, {count} "
                          "move.",
                          "🎞️ {player}'s **{game}** game, deal {deal}: {outcome}, {count} "
                          "moves.", moves, player=mention(subject.user_id), **facts)
            # The game in play is the player's already: no offer to deal it.
            deal_it = "" if own and outcome == PLAYING else " " + _(
                "{new} deals it to you.", new=command("new", game.game_id, str(game.deal)))
            frames = len(frames_shown(moves))  # the replay's own choice of moves to show
            if frames == moves:
                alt = n_("A replay of {game}, deal {deal}, a frame a move from the deal: "
                         "{outcome} after {count} move.",
                         "A replay of {game}, deal {deal}, a frame a move from the deal: "
                         "{outcome} after {count} moves.", moves, **facts)
            else:
                alt = n_("A replay of {game}, deal {deal}, {frames} of its moves from the deal, "
                         "evenly picked: {outcome} after {count} move.",
                         "A replay of {game}, deal {deal}, {frames} of its moves from the deal, "
                         "evenly picked: {outcome} after {count} moves.", moves,
                         frames=frames, **facts)
            alt = _with_moves(alt, game)
        return Reply(message=Message(f"{said}{deal_it}", gif,
                                     f"replay-{game.game_id}-{game.deal}.gif",
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
                return refusal(_("You have no game to replay here yet: {new} deals one.",
                                 new=command("new")))
            return finished.game, finished.outcome, finished.hints
        if viewer.guild_id is None:
            return refusal(_("Outside a server you can replay only your own games."))
        finished = await self.replays.last(other.user_id, viewer.guild_id)
        if finished is None:
            return refusal(_("{player} has finished no game on this server yet.",
                             player=mention(other.user_id)))
        return finished.game, finished.outcome, finished.hints


def _with_moves(alt: str, game: Game) -> str:
    """The replay's alt text and the moves it plays, as typed, as many as Discord's 1,024
    characters take (then how many more): a replay is its moves, as a board is its cards."""
    moves = [as_typed(str(move)) for move in game.history]
    for shown in range(len(moves), -1, -1):
        listed = ", ".join(moves[:shown])
        if shown < len(moves):
            listed += " " + n_("… and {count} more", "… and {count} more", len(moves) - shown)
        said = f"{alt} {_('Moves: {moves}.', moves=listed)}"
        if len(said) <= LIMIT:
            return said
    return alt


def _outcome(outcome: str) -> str:
    """What became of a replayed game, in a word or two."""
    if outcome == WON:
        return p_("game outcome", "won")
    if outcome == "lost":
        return p_("game outcome", "lost (stuck)")
    if outcome == RESIGNED:
        return p_("game outcome", "resigned")
    if outcome == PLAYING:
        return p_("game outcome", "still being played")
    return p_("game outcome", "left unfinished")
