"""``/replay``: a game shown move by move, as an animation to post in the channel — the
player's current game (or, if they have none, their last finished one), or another
member's last finished game in this server. A replay posted in the channel speaks the
server's language; one only its player sees, and every refusal, speak theirs.

A player's ``private_boards`` setting governs every picture of their games, whoever asks:
their own replays come to them alone, and nobody else gets one. It is read from the
database at each ask, so a player who has just made their boards private in another
process is never shown.

Nor is a game that others may still play for a score: one on today's daily deal, or on
the deal of a challenge whose day is not over and a side has still to finish. Whoever may
still play it (their daily attempt not finished, their side of the challenge not played)
is refused another player's game of it; anyone else, its player too, gets it privately,
so that it never reaches the channel before the day, or the challenge, is over."""

from __future__ import annotations

import asyncio
import inspect
from collections.abc import Awaitable, Callable
from typing import TypeVar

from engine import Game
from render import PictureOptions
from render.alt_text import LONGEST
from render.replay import Replay

from ..replies import Member, Message, Player, Refused, Reply
from ..replies.text import Text
from ..store import LOST, PLAYING, RESIGNED, WON, GameStatus
from ..store.challenges import GONE
from ..store.games import GameStore
from ..store.replays import ReplayStore
from ..words.language import _, current, label, n_, p_, speaking
from ..words.phrases import command, mention
from ..words.typed import as_typed
from ..workers.pictures import Pictures
from .challenges import Challenges
from .cooldowns import Cooldown, Cooldowns
from .daily import DailyDeals
from .scopes import check_person
from .settings import PlayerSettings

QUEUE = 8  # replays that may wait their turn at once, besides the one being drawn
T = TypeVar("T")
Waiting = Callable[[Text], Awaitable[None]]  # tells a player their replay waits its turn


class Replays:
    def __init__(
        self, games: GameStore, replays: ReplayStore, settings: PlayerSettings,
        pictures: Pictures, cooldowns: Cooldowns, daily: DailyDeals, challenges: Challenges,
    ) -> None:
        self.games = games
        self.daily = daily
        self.challenges = challenges
        self.replays = replays
        self.settings = settings
        self.pictures = pictures
        self.cooldowns = cooldowns
        self._one_at_a_time = asyncio.Lock()  # replays drawn one after another
        self._queued = 0  # replays being drawn or waiting their turn, in this process

    @property
    def waiting(self) -> int:
        """Replays being drawn or waiting their turn, in this process."""
        return self._queued

    async def replay(
        self, viewer: Player, subject: Member | None = None, *, limit: int | None = None,
        waiting: Waiting | None = None,
    ) -> Reply:
        """A game's replay (see the module), within ``limit`` bytes where it is sent (None:
        no limit); ``waiting`` tells the player, while the reply is still to come, that
        their replay waits behind others."""
        own = subject is None or subject.user_id == viewer.user_id
        if subject is not None:
            check_person(subject)
        owner = viewer.user_id if own or subject is None else subject.user_id
        private = (await self.settings.as_stored(owner)).private_boards
        if private and not own:
            raise Refused(_("{player} keeps their boards private, so their games are "
                            "replayed to them alone.", player=mention(owner)))
        game, outcome, hints = await self._game_of(viewer, None if own else subject)
        if not game.moves_made:  # only a finished game comes here without a move
            raise Refused(_("That game ended before its first move: nothing to replay."))
        secret = await self._secret(game, owner, viewer.user_id)
        private = private or secret is not None
        if self._queued > QUEUE:  # before the cooldown counts: nothing is drawn
            raise Refused(_("Many replays are being drawn just now: ask again in a "
                            "minute."))
        await self.cooldowns.check(viewer.user_id, Cooldown.REPLAY)
        settings = await self.settings.of(viewer.user_id)
        language = viewer.language if private else viewer.shared_language
        assisted = outcome == WON and hints > 0  # told on the last frame and in the caption
        with speaking(language):  # the picture's words: where it is shown
            drawn = await self._in_turn(viewer, waiting, self.pictures.replay(
                game, PictureOptions(four_colour=settings.four_colour, assisted=assisted,
                                     resigned=outcome == RESIGNED),
                limit=limit,
            ))
        if drawn is None:
            assert limit is not None
            raise Refused(_("That game's replay does not fit in the {size} MB this channel "
                            "takes, even with few of its moves on small pictures.",
                            size=_megabytes(limit)))
        with speaking(language):
            whose = None if own or subject is None else subject.user_id
            text = _caption(game, outcome, assisted, whose, drawn, limit, secret)
            alt = _description(game, _outcome(outcome, assisted), drawn)
        return Reply(message=Message(text, drawn.gif,
                                     f"replay-{game.game_id}-{game.deal_number}.gif",
                                     private=private, alt_text=alt))

    async def _in_turn(
        self, viewer: Player, waiting: Waiting | None, drawing: Awaitable[T]
    ) -> T:
        """``drawing`` done in its turn: one replay is drawn at a time (a second or more of
        a core each). A player whose replay waits behind others is told at once, through
        ``waiting``, how many are ahead; beyond ``QUEUE`` waiting, they are asked to come
        back instead (their cooldown not counted)."""
        ahead = self._queued
        if ahead > QUEUE:
            if inspect.iscoroutine(drawing):
                drawing.close()  # never started
            raise Refused(_("Many replays are being drawn just now: ask again in a "
                            "minute."))
        self._queued += 1
        try:
            if ahead and waiting is not None:
                await waiting(n_("⏳ {count} replay is being drawn before yours: it follows "
                                 "as soon as it is done.",
                                 "⏳ {count} replays are being drawn before yours: it follows "
                                 "as soon as they are done.", ahead))
            async with self._one_at_a_time:
                return await drawing
        finally:
            self._queued -= 1

    async def _secret(self, game: Game, owner: int, viewer: int) -> Text | None:
        """Whether ``game`` (``owner``'s) is on a deal others may still play for a score:
        why it is shown to the viewer alone (a viewer who may still play it is refused);
        None when it spoils nothing."""
        day = await self.daily.todays_if_daily(game.game_id, game.deal_number)
        if day is not None:
            attempt = await self.daily.attempt(viewer, game.game_id, day)
            if viewer != owner and attempt in (None, "playing"):
                raise Refused(_(
                    "That is {player}'s game of today's daily deal: finish your own scored "
                    "attempt at it ({daily}) first, then watch it.", player=mention(owner),
                    daily=command("daily", game.game_id),
                ))
            return _("📅 Only you see this replay: it is of today's daily deal, which others "
                     "may still be playing for a score.")
        yet_to_play: set[int] = set()
        for challenge in await self.challenges.live_on(game.game_id, game.deal_number):
            yet_to_play |= {s.user_id for s in challenge.sides
                            if s.outcome is None and s.user_id != GONE}
        if viewer in yet_to_play and viewer != owner:
            raise Refused(_("That game is on the deal of your challenge, which you have "
                            "still to play: finish your game of it first, then watch it."))
        if yet_to_play - {viewer}:
            return _("⚔️ Only you see this replay: it is of a challenge's deal, which a side "
                     "has still to play.")
        return None

    async def _game_of(
        self, viewer: Player, other: Member | None
    ) -> tuple[Game, GameStatus, int]:
        """The game to replay, its outcome and its hints (none: refused, saying why)."""
        if other is None:
            saved = await self.games.load(viewer.user_id)
            if saved is not None and saved.game.moves_made:
                return saved.game, saved.status, saved.hints
            finished = await self.replays.last(viewer.user_id, viewer.guild_id)
            if finished is None:
                raise Refused(_("You have no game to replay here yet: {new} deals one.",
                                new=command("new")))
            return finished.game, finished.outcome, finished.hints
        if viewer.guild_id is None:
            raise Refused(_("Outside a server you can replay only your own games."))
        finished = await self.replays.last(other.user_id, viewer.guild_id)
        if finished is None:
            raise Refused(_("{player} has finished no game on this server yet.",
                            player=mention(other.user_id)))
        return finished.game, finished.outcome, finished.hints


def _caption(game: Game, outcome: GameStatus, assisted: bool, whose: int | None,
             drawn: Replay, limit: int | None, secret: Text | None) -> Text:
    """What the replay's message says: whose game, how it went, what it leaves out to fit,
    and why only the viewer sees it (``whose``: the other member's id; None: the viewer's
    own game)."""
    moves = game.moves_made
    facts = {"game": game.name, "deal": game.deal_number, "outcome": _outcome(outcome, assisted)}
    if whose is None:
        said = n_("🎞️ Your <b>{game}</b> game, deal {deal}: {outcome}, {count} move.",
                  "🎞️ Your <b>{game}</b> game, deal {deal}: {outcome}, {count} moves.",
                  moves, **facts)
    else:
        said = n_("🎞️ {player}'s <b>{game}</b> game, deal {deal}: {outcome}, {count} "
                  "move.",
                  "🎞️ {player}'s <b>{game}</b> game, deal {deal}: {outcome}, {count} "
                  "moves.", moves, player=mention(whose), **facts)
    # The game in play is the player's already: no offer to deal it.
    lines = [said if whose is None and outcome == PLAYING else said + " " + _(
        "{new} deals it to you.", new=command("new", game.game_id, str(game.deal_number)))]
    left_out = _left_out(drawn, moves, limit)
    if left_out:
        lines.append(left_out)
    if secret is not None:
        lines.append(secret)
    return Text("\n").join(lines)


def _description(game: Game, how: str, drawn: Replay) -> str:
    """The replay's alt text: plain words, as a picture's description is, and its moves."""
    moves, frames = game.moves_made, drawn.shown
    facts = {"game": game.name, "deal": game.deal_number, "outcome": how}
    words = current()
    if frames == moves:
        alt = words.plural("A replay of {game}, deal {deal}, a frame a move from the "
                           "deal: {outcome} after {count} move.",
                           "A replay of {game}, deal {deal}, a frame a move from the "
                           "deal: {outcome} after {count} moves.", moves, **facts)
    else:
        alt = words.plural("A replay of {game}, deal {deal}, {frames} of its moves "
                           "from the deal, evenly picked: {outcome} after {count} move.",
                           "A replay of {game}, deal {deal}, {frames} of its moves "
                           "from the deal, evenly picked: {outcome} after {count} "
                           "moves.", moves, frames=frames, **facts)
    return _with_moves(alt, game)


def _left_out(drawn: Replay, moves: int, limit: int | None) -> Text | None:
    """What a replay leaves out, if anything: moves (a long game shows an even selection of
    them; fewer, to fit where it is sent), and size (smaller pictures, to fit)."""
    if drawn.cut_to_fit and limit is not None and drawn.scale < 1:
        return n_("📏 To fit in the {size} MB this channel takes, it shows {frames} of its "
                  "{count} move, evenly picked, on pictures smaller than a board's.",
                  "📏 To fit in the {size} MB this channel takes, it shows {frames} of its "
                  "{count} moves, evenly picked, on pictures smaller than a board's.",
                  moves, size=_megabytes(limit), frames=drawn.shown)
    if drawn.cut_to_fit and limit is not None:
        return n_("📏 To fit in the {size} MB this channel takes, it shows {frames} of its "
                  "{count} move, evenly picked.",
                  "📏 To fit in the {size} MB this channel takes, it shows {frames} of its "
                  "{count} moves, evenly picked.", moves, size=_megabytes(limit),
                  frames=drawn.shown)
    if drawn.shown < moves:
        return n_("📏 It shows {frames} of its {count} move, evenly picked.",
                  "📏 It shows {frames} of its {count} moves, evenly picked.", moves,
                  frames=drawn.shown)
    return None


def _megabytes(limit: int) -> int:
    """A size limit in whole MB, as Discord states its own (10 MB is 10 MiB)."""
    return max(1, limit // 2**20)


def _with_moves(alt: str, game: Game) -> str:
    """The replay's alt text (plain words) and the moves it plays, as typed, as many as a
    picture's description takes (``LONGEST``; then how many more): a replay is its moves, as a board
    is its cards."""
    moves = [as_typed(str(move)) for move in game.history]
    words = current()
    for shown in range(len(moves), -1, -1):
        listed = ", ".join(moves[:shown])
        if shown < len(moves):
            listed += " " + words.plural("… and {count} more", "… and {count} more",
                                         len(moves) - shown)
        said = " ".join((alt, label("Moves: {moves}.", moves=listed)))
        if len(said) <= LONGEST:
            return said
    return alt


def _outcome(outcome: GameStatus, assisted: bool) -> str:
    """What became of a replayed game, in a word or two: a win with hints says so, as its
    board and a challenge's result do."""
    if outcome == WON and assisted:
        return p_("game outcome", "won with hints")
    if outcome == WON:
        return p_("game outcome", "won")
    if outcome == LOST:
        return p_("game outcome", "lost (stuck)")
    if outcome == RESIGNED:
        return p_("game outcome", "resigned")
    if outcome == PLAYING:
        return p_("game outcome", "still being played")
    return p_("game outcome", "left unfinished")
