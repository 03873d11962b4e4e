"""The game flow, written once: every adapter (slash commands, buttons, the move menu,
the console) reaches it through one call of the core, which shows the ``Reply`` it makes.

One call: lock -> load (the copy this process holds, read only when it cannot decide) ->
apply the action with the engine -> draw (off the event loop) -> save (one transaction, the
result row too when the game ends) -> reply. Drawing before saving leaves the saved game as
it was on any failure; saving before replying shows no move that is not stored. Nothing here
waits on Discord: the lock is released before the adapter sends anything.

A new action: a member of ``replies.Action`` and its line in ``replies/player_actions.py``
(what each place offers), a branch in ``actions.apply``, what a board shows in ``boards.py``.
"""

from __future__ import annotations

import asyncio
import dataclasses
import logging
import weakref
from collections.abc import Callable

from engine import GAMES, BadSetup, IllegalMove, check_setup, new_game
from render import PictureOptions

from ..replies import (
    Action,
    Board,
    BoardRef,
    DealRequest,
    Drawing,
    LostBoard,
    Player,
    Refused,
    Reply,
)
from ..replies.player_actions import AUTO_AFTER, CHANGES_GAME
from ..replies.text import Text
from ..store import ABANDONED, LOST, PLAYING, RESIGNED, WON, ConcurrentChange, SavedGame
from ..store.games import GameStore
from ..store.races import NotRaceable
from ..store.statuses import GameStatus
from ..words.language import _, current
from ..words.phrases import code, command, no_game, option, refused
from ..words.questions import new_game_question, resign_question
from ..workers.pictures import UNDRAWN, Pictures
from .actions import CONFIRMED, apply, plays_at_once, refusal_with_choices
from .boards import (
    compose,
    no_pile_to_pick,
    over,
    start_text,
    went_up_line,
    with_no_win,
)
from .challenges import Challenges
from .cooldowns import EVERY_S, Cooldown, Cooldowns
from .daily import DailyDeals
from .deals import Deals
from .hints import Hints
from .outcomes import saving, shown_after_saving
from .scopes import check_game
from .scored import scored_request
from .settings import PlayerSettings
from .verdicts import Verdicts

log = logging.getLogger(__name__)

IDLE_CAP_S = 300.0  # a pause longer than this counts as this long in seconds played


def played_so_far(saved: SavedGame, now: float) -> float:
    """The seconds played on ``saved`` as they count if it changes at ``now``: the time
    saved, and the time since its last change (a pause counted up to ``IDLE_CAP_S``)."""
    return saved.seconds_played + min(max(now - saved.updated_at, 0.0), IDLE_CAP_S)


class _NotCached(Exception):
    """An action refused on the copy of a game cached in memory: the stored game decides."""


class GameFlow:
    """The one game flow, over the games' store, with the services a move needs: the
    player's settings, the pictures, the deals, hints and verdicts, the daily deals;
    ``clock`` gives Unix seconds (tests pass their own)."""

    def __init__(
        self, games: GameStore, *, settings: PlayerSettings, pictures: Pictures,
        deals: Deals, hints: Hints, verdicts: Verdicts, daily: DailyDeals,
        challenges: Challenges, cooldowns: Cooldowns, clock: Callable[[], float],
    ) -> None:
        self.games, self.challenges, self.cooldowns = games, challenges, cooldowns
        self.settings, self.pictures, self.deals = settings, pictures, deals
        self.hints, self.verdicts = hints, verdicts
        self.daily_deals, self._clock = daily, clock
        self._locks: weakref.WeakValueDictionary[int, asyncio.Lock]
        self._locks = weakref.WeakValueDictionary()

    def _lock_for(self, user_id: int) -> asyncio.Lock:
        lock = self._locks.get(user_id)
        if lock is None:
            lock = asyncio.Lock()
            self._locks[user_id] = lock
        return lock

    # -- starting a game --------------------------------------------------------------

    async def new_game(
        self, player: Player, game_id: str, deal: int | None = None, *,
        winnable: bool = False, draw: bool = False,
    ) -> Reply:
        """Deal a game; over an unfinished one, ask first (a ``Question``).

        ``winnable``: a deal the solver has proven winnable, from the pool — taken only once
        the player has said yes, if asked. ``draw``: Trefoil's "and a Draw" house rule.
        """
        try:
            check_setup(game_id, deal, draw=draw)
        except BadSetup as err:
            raise Refused(refused(err)) from None
        if winnable and deal is not None:
            raise Refused(_(
                "Pick either a deal number or {winnable}, not both: a deal number is dealt as "
                "it is, winnable or not.", winnable=code(option("winnable", "True")),
            ))
        if deal is None and not winnable:
            deal = self.deals.random_deal()
        return await self._begin(player, DealRequest(game_id, deal, draw))

    async def _begin(self, player: Player, request: DealRequest) -> Reply:
        """Deal ``request``, over an unfinished game only once the player says yes."""
        async with self._lock_for(player.user_id):
            return await self._ask_or_deal(player, request)

    async def _ask_or_deal(self, player: Player, request: DealRequest) -> Reply:
        request = await scored_request(player, request, self.daily_deals, self.challenges)
        saved = await self.games.load(player.user_id)
        if (saved is not None and not saved.is_finished and request.challenge is not None
                and saved.challenge_id == request.challenge):  # playing it already
            return Reply(board=await self._board(saved, Text()))
        if saved is not None and not saved.is_finished and not saved.game.is_stuck:
            if request.challenge is None and saved.as_dealt(request.game_id, request.deal,
                                                           request.draw):  # nothing to ask
                return Reply(board=await self._board(saved, Text()), note=_(
                    "You already have this deal, and have not moved in it yet: here is your "
                    "board."))
            private = await self._private(player.user_id)
            return Reply(message=new_game_question(player, saved, request, private=private))
        return await self._deal(player, request, saved)

    async def confirm_new(self, player: Player, replacing: int, request: DealRequest) -> Reply:
        """The player said yes to the question: abandon game row ``replacing``, deal anew."""
        try:
            check_setup(request.game_id, request.deal, draw=request.draw)
        except BadSetup as err:
            raise Refused(refused(err)) from None
        async with self._lock_for(player.user_id):
            return await self._confirm_new(player, replacing, request)

    async def _confirm_new(self, player: Player, replacing: int, request: DealRequest) -> Reply:
        # No trust in what the question's buttons carried: the challenge as it is now.
        await self.challenges.check_dealing(player, request)
        request = await scored_request(player, request, self.daily_deals, self.challenges)
        saved = await self.games.load(player.user_id)
        if saved is not None and not saved.is_finished and saved.id != replacing:
            return Reply(
                board=await self._board(saved, Text()),
                note=_("That question was about a game you have since replaced, so nothing "
                       "changed. Here is your current game; {new} starts another.",
                       new=command("new")),
            )
        return await self._deal(player, request, saved)

    async def _deal(self, player: Player, request: DealRequest,
                    replacing: SavedGame | None) -> Reply:
        """Start the requested deal; a proven-winnable one is taken now, within its cooldown."""
        if request.deal is not None:
            return await self._start(player, request, request.deal, replacing)
        wait = await self.cooldowns.wait(player.user_id, Cooldown.WINNABLE)
        if wait:
            raise Refused(_(
                "A proven-winnable deal takes the solver a while to find: one every {every} s. "
                "Ask again in {wait} s, or {new} for any deal.",
                every=round(EVERY_S[Cooldown.WINNABLE]), wait=wait, new=command("new"),
            ))
        deal = await self.deals.winnable(request.game_id)
        if deal is None:
            raise Refused(_(
                "No proven-winnable {game} deal is ready yet — the solver is looking for more. "
                "Try again in a minute, or {new} for any deal.",
                game=GAMES[request.game_id], new=command("new"),
            ))
        return await self._start(player, request, deal, replacing)

    async def daily(self, player: Player, game_id: str) -> Reply:
        """Deal today's daily deal of ``game_id`` (over an unfinished game, ask first)."""
        check_game(game_id)
        today, deal = await self.daily_deals.todays_deal(game_id)
        saved = await self.games.load(player.user_id)
        if (
            saved is not None
            and not saved.is_finished
            and (saved.game.game_id, saved.game.deal_number) == (game_id, deal)
        ):
            reply = await self.show(player)
            if reply.board is None:
                return reply
            return dataclasses.replace(
                reply, note=_("You are already playing today's daily deal: here is your board.")
            )
        reply = await self._begin(player, DealRequest(game_id, deal))
        question = reply.message
        if question is not None and question.question is not None:
            daily = await self.daily_deals.question_line(player.user_id, game_id, today)
            text = question.text + "\n" + daily
            return dataclasses.replace(reply, message=dataclasses.replace(question, text=text))
        return reply

    async def play_challenge(self, player: Player, challenge_id: int) -> Reply:
        """A side of an accepted challenge pressed ▶ Play: their game of it, dealt (over an
        unfinished game, asked first) or shown, decided under the player's lock (a second
        tap finds the game the first dealt), as a new message beside the challenge's."""
        async with self._lock_for(player.user_id):
            request = await self.challenges.game_to_deal(player, challenge_id)
            reply = await self._ask_or_deal(player, request)
        return dataclasses.replace(reply, posts=True)

    async def deal_race(self, player: Player, race_id: int, game_id: str, deal: int) -> bool:
        """Deal a racer their game of a race, over whatever game they have (left as a new
        game leaves it); False if dealt already (here or elsewhere), or no longer theirs."""
        async with self._lock_for(player.user_id):
            saved = await self.games.load(player.user_id)
            if saved is not None and saved.race_id == race_id:
                return False
            try:
                await self._start(player, DealRequest(game_id, deal), deal, saved, race=race_id)
            except (NotRaceable, ConcurrentChange):
                return False
        return True

    async def _start(
        self, player: Player, request: DealRequest, deal: int, replacing: SavedGame | None,
        *, race: int | None = None,
    ) -> Reply:
        game_id = request.game_id
        game = new_game(game_id, deal, draw=request.draw)
        went_up = []
        if (await self.settings.of(player.user_id)).auto_moves:
            went_up = game.play_safe_moves_with_deal()  # as after any move: part of the dealt game
        now = self._clock()
        # Leaving a stuck game loses it; leaving one that could still go on abandons it;
        # leaving one never touched (no move, no undo) is no game played at all.
        left_as: GameStatus | None = ABANDONED
        if replacing is not None and replacing.game.is_stuck:
            left_as = LOST
        elif replacing is not None and replacing.untouched:
            left_as = None
        day = await self.daily_deals.day_of(game_id, deal, now)
        async with saving():  # NotChallengeable: the challenge changed since it was checked
            saved = await self.games.start(
                player.user_id, player.guild_id, game, now, replacing=replacing,
                left_as=left_as, daily=None if race is not None else day,
                challenge=request.challenge, race=race,
            )
        async with shown_after_saving():
            daily = (None if day is None else
                     self.daily_deals.start_line(game_id, day, scored=saved.daily is not None))
            if saved.challenge_id is not None:  # ▶ Play's, or the deal asked for by number
                daily = self.challenges.start_line()
            if saved.race_id is not None:
                daily = _("🏁 This is your game of the race: every racer has this deal, dealt "
                          "at the same moment.")
            text = start_text(saved.game, replacing, winnable=request.deal is None, daily=daily,
                              went_up=went_up)
            board = await self._board(saved, text)
            updates = await self.challenges.updates_after(  # the one left, too: its side
                saved.challenge_id, None if replacing is None else replacing.challenge_id)
            return Reply(board=board, updates=updates)

    # -- playing ----------------------------------------------------------------------

    async def act(
        self,
        player: Player,
        action: Action,
        arg: str | None = None,
        *,
        seen: BoardRef | None = None,
    ) -> Reply:
        """Do ``action`` (``arg``: the move text for MOVE) on the player's current game;
        ``seen``: the board a button or menu press was made on (None: a typed command)."""
        async with self._lock_for(player.user_id):
            return await self._act(player, action, arg, seen)

    async def show(
        self, player: Player, seen: BoardRef | None = None, *, seen_lost: bool = False
    ) -> Reply:
        """The player's board, as an answer to something else (a question, ``/daily``, a page
        following the game): not a typed ``/show``, so not counted against its cooldown. An
        empty reply while ``seen`` is still the board and ``seen_lost`` its verdict (the page
        asks often, and learns so of a "no win is possible" found after its move)."""
        async with self._lock_for(player.user_id):
            return await self._act(player, Action.SHOW, None, seen, typed=False,
                                   seen_lost=seen_lost)

    async def _act(
        self, player: Player, action: Action, arg: str | None, seen: BoardRef | None,
        *, typed: bool = True, seen_lost: bool = False,
    ) -> Reply:
        cached = self.games.cached(player.user_id) if action in CHANGES_GAME else None
        if cached is not None and plays_at_once(cached, action, arg, seen):
            try:  # no read: the save is refused if the game moved on since it was cached
                return await self._play(player, cached, action, arg, cached=True)
            except (ConcurrentChange, _NotCached):
                pass  # out of date, or refused on it: decided again on the stored game
        saved = await self.games.load(player.user_id)
        if saved is None:
            raise Refused(no_game(), no_game=True)
        if seen is not None and seen != BoardRef(saved.id, saved.revision):
            if seen.game_row == saved.id:
                why = _("That board was out of date (your game has moved on), so nothing was "
                        "played.")
            else:
                why = _("That board belongs to a game that has since ended or been replaced.")
            shown = _("The board now shows your current position.")
            raise Refused(why + " " + shown, board=await self._board(saved, Text()))
        if action is Action.SHOW:
            if typed and seen is None:  # /show posts a new picture, so it has a limit
                await self.cooldowns.check(player.user_id, Cooldown.SHOW)
            if seen and not typed and saved.proven_lost == seen_lost:
                return Reply()
            return Reply(board=await self._board(saved, Text()))
        if action is Action.PICK:
            return await self._pick(saved, arg or "")
        if action is Action.HINT and not saved.is_finished:
            return await self.hints.hint(saved)
        if saved.is_finished:
            raise Refused(over(saved))
        if action is Action.RESIGN and arg != CONFIRMED:
            private = await self._private(player.user_id)
            return Reply(message=resign_question(player, saved, private=private))
        return await self._play(player, saved, action, arg)

    async def _play(
        self, player: Player, saved: SavedGame, action: Action, arg: str | None, *,
        cached: bool = False,
    ) -> Reply:
        """Play ``action`` on ``saved``, save it and compose the board. ``cached``: ``saved``
        is the copy this process cached, not read from the database: a refusal raises
        ``_NotCached`` (the stored game may allow it), and so does a save refused as out
        of date (``ConcurrentChange``), both before anything is written."""
        was_lost = saved.proven_lost
        try:
            summary = apply(saved, action, arg)
        except IllegalMove as err:
            if cached:
                raise _NotCached from err
            raise Refused(refusal_with_choices(saved, action, err)) from None
        settings = await self.settings.of(player.user_id)
        if settings.auto_moves and action in AUTO_AFTER and saved.status == PLAYING:
            auto = saved.game.play_safe_moves()
            if auto:
                summary += "\n" + went_up_line(auto)
        now = self._clock()
        saved.seconds_played = played_so_far(saved, now)
        saved.updated_at = now
        if saved.status == PLAYING and saved.game.is_won:
            saved.status = WON
        if saved.status != PLAYING:
            saved.finished_at = now
        # Every position a move leads to from one proven lost is lost too (a win from it
        # would be a win from the one before): it says so at once, with no search. An undo
        # goes back to a position that may still be won, unless the deal itself is lost.
        still_lost = saved.status == PLAYING and (
            saved.lost_as_dealt or (was_lost and action is not Action.UNDO))
        if not saved.lost_as_dealt:
            saved.proven_lost_at = saved.revision + 1 if still_lost else None
        hints = saved.hints
        drawing = await self.drawing(saved, no_win=still_lost)  # before saving (see above)
        async with saving():
            await self.games.save(saved)
        async with shown_after_saving():
            if saved.status == WON and saved.hints and not hints:  # a hint counted elsewhere
                drawing = await self.drawing(saved)  # meanwhile: the win is assisted
            if saved.status == WON and saved.daily is not None:
                summary += "\n" + await self.daily_deals.won_line(saved, now)
            if saved.is_finished and saved.daily is not None:
                summary += "\n" + self.daily_deals.share_line(saved)
            board = await self._compose(saved, summary, drawing)
            ended = saved.challenge_id if saved.is_finished else None
            return Reply(board=board, updates=await self.challenges.updates_after(ended))

    async def _pick(self, saved: SavedGame, pile: str) -> Reply:
        """The same board, its move menu narrowed to one pile's moves (or widened again)."""
        wrong = no_pile_to_pick(saved.game, pile) if pile else None
        if wrong is not None:
            raise Refused(wrong)
        focus = int(pile) - 1 if pile else None
        return Reply(board=await self._board(saved, Text(), focus=focus))

    # -- building the reply -----------------------------------------------------------

    async def _board(self, saved: SavedGame, summary: Text, *,
                     focus: int | None = None) -> Board:
        return await self._compose(saved, summary, await self.drawing(saved), focus=focus)

    async def drawing(self, saved: SavedGame, *, no_win: bool | None = None) -> Drawing:
        """The board's picture as the player likes it, to draw where it is shown. ``no_win``:
        whether it says that no win is possible; by default, whether the saved position
        was proven lost (a game just changed and not yet saved says it for itself)."""
        settings = await self.settings.of(saved.user_id)
        return Drawing(saved.game, PictureOptions(
            four_colour=settings.four_colour, lost_as_dealt=saved.lost_as_dealt,
            no_win=saved.proven_lost if no_win is None else no_win,
            assisted=saved.status == WON and saved.hints > 0,
            resigned=saved.status == RESIGNED,
        ), current().code)

    async def amended(self, board: Board, saved: SavedGame, *, drawn: bool = True) -> LostBoard:
        """``board`` as it must now read: the solver has just proven its position lost
        (``saved``, still the player's game at that revision). ``drawn``: with its picture
        (for a presenter that shows one, or a channel's copy)."""
        picture = await self.pictures.board(await self.drawing(saved)) if drawn else UNDRAWN
        return LostBoard(with_no_win(board.text, saved), picture.png, board.filename,
                         picture.alt_text)

    async def draw(self, board: Board) -> Board:
        """``board`` with its picture drawn (as it is if it has one, or none to draw)."""
        if board.drawing is None:
            return board
        picture = await self.pictures.board(board.drawing)
        return dataclasses.replace(board, drawing=None, png=picture.png,
                                   alt_text=picture.alt_text)

    async def _private(self, user_id: int) -> bool:  # their boards and all said of their game
        return await self.settings.private(user_id)  # true now, whichever process changed it

    async def _compose(
        self, saved: SavedGame, summary: Text, drawing: Drawing, *, focus: int | None = None
    ) -> Board:
        settings = await self.settings.of(saved.user_id)
        board = compose(
            saved, summary, drawing, proven_lost=saved.proven_lost, focus=focus,
            private=await self._private(saved.user_id), four_colour=settings.four_colour,
            seconds_played=saved.seconds_played if saved.is_finished
            else played_so_far(saved, self._clock()),
        )
        self.verdicts.board_made(board, saved.game)
        return board
