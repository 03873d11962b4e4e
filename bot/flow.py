"""The game flow, written once: every adapter (slash commands, buttons, the move menu,
the console) turns its input into one call here and shows the ``Reply`` it gets back.

One call: take the player's lock -> load their game -> apply the action with the engine ->
render the picture (in a thread, off the event loop) -> save (one transaction, the result
row too when the game ends) -> build the reply. Rendering comes before saving, so a
failure anywhere leaves the saved game as it was; saving comes before the reply, so a
player never sees a move that is not stored.

Nothing here knows Discord. A ``Reply`` says what to show:

* ``board``: the picture, status text and controls. A command posts it as a new message;
  a button or menu press edits the pressed message in place.
* ``note``: text for the player alone (Discord: ephemeral). With a board too (a stale
  press), the board is refreshed and the note follows.
* ``offer``: a question with two buttons (start a new game over an unfinished one?).

Presses carry a ``BoardRef`` (game row and revision) of the board they were made on; a
press on an out-of-date board plays nothing and refreshes it instead. The revision counts
every saved change, so an undo followed by a move is out of date too, though the move
count is the same.

Growing it (the solver's hint and auto-finish, daily deals): a new action is a member of
``Action`` plus a branch in ``_apply`` (and a ``BUTTON_LABELS`` entry if it is a button —
the Discord button template and the console pick it up from there); what a board shows
beyond the position goes in ``_compose``/``_controls``; ``SavedGame.hints`` and
``SavedGame.daily`` already reach the result row. Daily deals (``bot/daily.py``) hook in
where a game starts (``_start``) and where a scored daily is won (end of ``_act``).
"""

from __future__ import annotations

import asyncio
import functools
import logging
import random
import time
import weakref
from collections.abc import Awaitable, Callable, Iterable
from concurrent.futures import Executor, ThreadPoolExecutor
from dataclasses import dataclass
from enum import StrEnum
from typing import TypeVar

from engine import (
    DRAW,
    FOUNDATION,
    GAMES,
    MAX_DEAL,
    PILE,
    REDEAL,
    RULES,
    Game,
    IllegalMove,
    Move,
    new_game,
)
from engine.cards import CARDS
from render import render_png

from .daily import start_line, todays_daily, won_line
from .solving import Solver
from .store import ABANDONED, LOST, PLAYING, RESIGNED, WON, ConcurrentChange, SavedGame, Store

log = logging.getLogger(__name__)

MENU_LIMIT = 25  # Discord's most options in a select menu or autocomplete
RANDOM_DEAL_MAX = 999_999  # random deals stay short enough to share; any deal up to MAX_DEAL plays
IDLE_CAP_S = 300.0  # a pause longer than this counts as this long in seconds played
WINNABLE_POOL = 10  # proven-winnable deals kept ready per game for `/new winnable`
WINNABLE_TRIES_NOW = 6  # deals tried on the spot when the pool is empty
NO_WIN = "**No win is possible from here** — undo or start again."

Renderer = Callable[..., bytes]  # render.render_png(game, *, last_move=None) -> PNG bytes
T = TypeVar("T")


class Action(StrEnum):
    """What a player can do to their current game. The value goes into button custom ids."""

    MOVE = "move"
    UNDO = "undo"
    REDO = "redo"
    REDEAL = "redeal"
    TO_FOUNDATIONS = "found"
    HINT = "hint"
    AUTO_FINISH = "finish"
    RESIGN = "resign"
    SHOW = "show"


@dataclass(frozen=True)
class Player:
    """Who is acting, and where: ``guild_id`` is None in DMs and the console."""

    user_id: int
    guild_id: int | None = None


@dataclass(frozen=True)
class BoardRef:
    """The game and revision a board shows; presses carry it to detect stale boards."""

    game_row: int
    revision: int


@dataclass(frozen=True)
class MenuOption:
    value: str  # the move's text, exactly what /move takes: "7 3", "7 f2"
    label: str  # for people: "7 → f2 · 9♣ to ♣ A↑"


# The buttons under every board, in order. Labels are what the console types to press them.
BUTTON_LABELS: dict[Action, str] = {
    Action.UNDO: "Undo",
    Action.REDO: "Redo",
    Action.TO_FOUNDATIONS: "To foundations",
    Action.REDEAL: "Redeal",
    Action.HINT: "Hint",
    Action.AUTO_FINISH: "Auto-finish",
}
KEEP_LABEL = "Keep playing"
START_LABEL = "Start new game"


@dataclass(frozen=True)
class Button:
    action: Action
    label: str
    enabled: bool


@dataclass(frozen=True)
class Controls:
    """The buttons under a board (enabled or not) and the move menu."""

    buttons: tuple[Button, ...]
    menu: tuple[MenuOption, ...]
    menu_placeholder: str

    def enabled(self, action: Action) -> bool:
        return any(b.action is action and b.enabled for b in self.buttons)


@dataclass(frozen=True)
class Board:
    owner_id: int
    ref: BoardRef
    text: str
    png: bytes
    filename: str
    controls: Controls
    finished: bool


@dataclass(frozen=True)
class NewGameOffer:
    """Start ``game_id`` deal ``deal`` over the unfinished game in row ``replacing``?"""

    owner_id: int
    replacing: int
    game_id: str
    deal: int
    text: str
    draw: bool = False  # Trefoil's "and a Draw" house rule


@dataclass(frozen=True)
class Reply:
    board: Board | None = None
    note: str | None = None
    offer: NewGameOffer | None = None
    refused: bool = False  # the request was refused or failed; ``note`` says why


NO_GAME = "You have no game yet. Start one with `/new` — for example `/new trefoil`."
APOLOGY = (
    "Sorry — something went wrong on my side and nothing was changed. Your saved game is as "
    "it was; please try again, or `/show` to see it."
)


def stranger_note(owner: str) -> str:
    """The refusal for a press on somebody else's board."""
    return f"This is {owner}'s game — start your own with `/new`."


class Flow:
    """The one game flow. ``renderer`` defaults to ``render.render_png``; ``clock`` gives
    Unix seconds (tests pass their own); ``deals`` picks random deal numbers."""

    def __init__(
        self,
        store: Store,
        *,
        renderer: Renderer | None = None,
        executor: Executor | None = None,
        clock: Callable[[], float] = time.time,
        deals: random.Random | None = None,
        solver: Solver | None = None,
    ) -> None:
        self.store = store
        self.solver = solver or Solver()
        self._proven_lost: dict[int, int] = {}  # game row -> revision proven unwinnable
        self._latest: dict[int, BoardRef] = {}  # player -> the last board composed for them
        self._closed = False
        self._render = renderer or render_png
        self._own_executor = executor is None
        self._executor = executor or ThreadPoolExecutor(max_workers=2, thread_name_prefix="render")
        self._clock = clock
        self._deals = deals or random.Random()
        self._locks: weakref.WeakValueDictionary[int, asyncio.Lock] = (
            weakref.WeakValueDictionary()
        )

    def close(self) -> None:
        self._closed = True
        if self._own_executor:
            self._executor.shutdown(wait=False, cancel_futures=True)
        self.solver.close()

    def now(self) -> float:
        """Unix seconds by the flow's clock: what statistics and daily deals go by too."""
        return self._clock()

    async def off_loop(self, work: Callable[[], T]) -> T:
        """Run ``work`` (a picture to draw) in the render threads, off the event loop."""
        return await asyncio.get_running_loop().run_in_executor(self._executor, work)

    def _lock_for(self, user_id: int) -> asyncio.Lock:
        lock = self._locks.get(user_id)
        if lock is None:
            lock = asyncio.Lock()
            self._locks[user_id] = lock
        return lock

    # -- starting a game --------------------------------------------------------------

    async def new_game(
        self,
        player: Player,
        game_id: str,
        deal: int | None = None,
        *,
        winnable: bool = False,
        draw: bool = False,
    ) -> Reply:
        """Deal a game; over an unfinished one, ask first (``Reply.offer``).

        ``winnable``: a deal the solver has proven winnable, from the pool. ``draw``:
        Trefoil's "and a Draw" house rule.
        """
        refusal = _check_new(game_id, deal, draw)
        if refusal:
            return Reply(note=refusal, refused=True)
        if winnable and deal is not None:
            return Reply(
                note="Pick either a deal number or `winnable:True`, not both: a deal number "
                "is dealt as it is, winnable or not.",
                refused=True,
            )
        if winnable:
            deal = await self._winnable_deal(game_id)
            if deal is None:
                return Reply(
                    note=f"No proven-winnable {GAMES[game_id]} deal is ready yet — the solver "
                    "is looking for more. Try again in a minute, or `/new` for any deal.",
                    refused=True,
                )
        if deal is None:
            deal = self._deals.randint(1, RANDOM_DEAL_MAX)
        context = f"new {game_id} {deal}"
        async with self._lock_for(player.user_id):
            try:
                saved = await self.store.load(player.user_id)
                if saved is not None and not saved.is_finished and not saved.game.is_stuck:
                    return Reply(offer=_offer(player, saved, game_id, deal, draw))
                return await self._start(player, game_id, deal, saved, draw=draw)
            except Exception:
                return _apologise(player, context)

    async def confirm_new(
        self, player: Player, replacing: int, game_id: str, deal: int, *, draw: bool = False
    ) -> Reply:
        """The player said yes to an offer: abandon game row ``replacing`` and deal anew."""
        refusal = _check_new(game_id, deal, draw)
        if refusal:
            return Reply(note=refusal, refused=True)
        context = f"confirm new {game_id} {deal} over {replacing}"
        async with self._lock_for(player.user_id):
            try:
                saved = await self.store.load(player.user_id)
                if saved is not None and not saved.is_finished and saved.id != replacing:
                    board = await self._board(saved, "")
                    return Reply(
                        board=board,
                        note="That question was about a game you have since replaced, so "
                        "nothing changed. Here is your current game; `/new` starts another.",
                    )
                return await self._start(player, game_id, deal, saved, draw=draw)
            except Exception:
                return _apologise(player, context)

    async def _start(
        self,
        player: Player,
        game_id: str,
        deal: int,
        replacing: SavedGame | None,
        *,
        draw: bool = False,
    ) -> Reply:
        game = new_game(game_id, deal, draw=draw)
        now = self._clock()
        # Leaving a stuck game loses it; leaving one that could still go on abandons it.
        left_as = LOST if replacing is not None and replacing.game.is_stuck else ABANDONED
        day = todays_daily(game_id, deal, now)
        saved = await self.store.start(
            player.user_id, player.guild_id, game, now, replacing=replacing, left_as=left_as,
            daily=day,
        )
        share = f"/new {game_id} {deal}" + (" draw:True" if draw else "")
        headline = f"New game: **{game.name}**, deal {deal}. Share it: `{share}`."
        if draw:
            headline += (
                "\nHouse rule: after the last redeal you may once bring one buried card to the "
                "top of its pile (`/move draw QH`, or from the menu)."
            )
        if replacing is not None and replacing.status in (ABANDONED, LOST):
            headline += f" Your {replacing.game.name} game was recorded as {replacing.status}."
        if day is not None:
            headline += "\n" + start_line(game_id, day, scored=saved.daily is not None)
        return Reply(board=await self._board(saved, headline))

    # -- playing ----------------------------------------------------------------------

    async def act(
        self,
        player: Player,
        action: Action,
        arg: str | None = None,
        *,
        seen: BoardRef | None = None,
    ) -> Reply:
        """Do ``action`` (``arg``: the move text for MOVE) on the player's current game.

        ``seen`` is the board a button or menu press was made on; None for typed commands.
        """
        context = f"{action.value} {arg or ''}".strip()
        async with self._lock_for(player.user_id):
            try:
                return await self._act(player, action, arg, seen)
            except ConcurrentChange:
                log.warning("user %s: %s raced another writer", player.user_id, context)
                return Reply(
                    note="Your game changed while that was being played, so it was not "
                    "applied. `/show` shows the current position.",
                    refused=True,
                )
            except Exception:
                return _apologise(player, context)

    async def _act(
        self, player: Player, action: Action, arg: str | None, seen: BoardRef | None
    ) -> Reply:
        saved = await self.store.load(player.user_id)
        if saved is None:
            return Reply(note=NO_GAME, refused=True)
        if seen is not None and seen != BoardRef(saved.id, saved.revision):
            if seen.game_row == saved.id:
                note = "That board was out of date (your game has moved on), so nothing was played."
            else:
                note = "That board belongs to a game that has since ended or been replaced."
            return Reply(
                board=await self._board(saved, ""),
                note=note + " The board now shows your current position.",
                refused=True,
            )
        if action is Action.SHOW:
            return Reply(board=await self._board(saved, ""))
        if action is Action.HINT and not saved.is_finished:
            return await self._hint(saved)
        if saved.is_finished:
            game = saved.game
            return Reply(
                note=f"This {game.name} game is over ({_outcome_text(saved.status)}). "
                f"Start another with `/new`; `/new {game.game_id} {game.deal}` replays this deal.",
                refused=True,
            )
        try:
            summary = _apply(saved, action, arg)
        except IllegalMove as err:
            return Reply(note=_refusal(saved.game, action, str(err)), refused=True)
        now = self._clock()
        saved.seconds_played += min(max(now - saved.updated_at, 0.0), IDLE_CAP_S)
        saved.updated_at = now
        if saved.status == PLAYING and saved.game.is_won:
            saved.status = WON
        if saved.status != PLAYING:
            saved.finished_at = now
        picture = await self._picture(saved.game)  # before saving: a failure changes nothing
        await self.store.save(saved)
        if saved.status == WON and saved.daily is not None:
            summary += "\n" + await won_line(self.store, saved, now)
        return Reply(board=self._compose(saved, summary, picture))

    # -- the solver -------------------------------------------------------------------

    async def _hint(self, saved: SavedGame) -> Reply:
        """The solver's next move, privately; counted, so a win after it is assisted."""
        game = saved.game
        if game.is_stuck:
            return Reply(note="No move is left to hint at: undo, or `/new` to deal again.",
                         refused=True)
        answer = await self.solver.hint(game)
        await self.store.add_hint(saved.id)
        if answer.lost:
            self._proven_lost[saved.id] = saved.revision
        if answer.move is None:
            return Reply(note=answer.note)
        move = game.resolve(answer.move)
        return Reply(note=f"Hint: `{move}` — {describe(game, move)}.\n{answer.note}")

    async def verdict(self, board: Board, show: Callable[[str], Awaitable[None]]) -> None:
        """After a board is shown: if the solver soon proves its position unwinnable, call
        ``show`` with the board's text plus a "no win is possible" line.

        Checks take turns in the solver (players' moves come first); one whose board is no
        longer the player's latest is dropped. The answer is shown under the player's lock
        and only while the game is still at the board's revision, so a late answer never
        covers a newer board. Never raises.
        """
        if board.finished:
            return
        try:
            async with self.solver.check_turn():
                if self._latest.get(board.owner_id) != board.ref:
                    return  # the player has moved on while this waited its turn
                saved = await self.store.load(board.owner_id)
                if saved is None or BoardRef(saved.id, saved.revision) != board.ref:
                    return
                if saved.game.is_stuck or await self.solver.verdict(saved.game) != "lost":
                    return
            async with self._lock_for(board.owner_id):
                current = await self.store.load(board.owner_id)
                if current is None or BoardRef(current.id, current.revision) != board.ref:
                    return
                self._proven_lost[current.id] = current.revision
                await show(f"{board.text}\n{NO_WIN}")
        except Exception:
            if not self._closed:  # a search cut short by shutting down is no failure
                log.exception("looking for a win after a board of user %s failed", board.owner_id)

    async def _winnable_deal(self, game_id: str) -> int | None:
        """A deal from the pool, or one proven on the spot; None if none is found in time."""
        deal = await self.store.take_winnable(game_id)
        if deal is not None:
            return deal
        for _ in range(WINNABLE_TRIES_NOW):
            candidate = self._deals.randint(1, RANDOM_DEAL_MAX)
            if await self.solver.is_winnable(game_id, candidate, budget_s=1.0):
                return candidate
        return None

    async def fill_winnable_pool(
        self, *, target: int = WINNABLE_POOL, games: Iterable[str] = GAMES
    ) -> int:
        """Top up each game's pool of proven-winnable deals to ``target``; deals added."""
        added = 0
        for game_id in games:
            tries = 0
            while await self.store.winnable_count(game_id) < target and tries < 4 * target:
                tries += 1
                deal = self._deals.randint(1, RANDOM_DEAL_MAX)
                if await self.solver.is_winnable(game_id, deal):
                    await self.store.add_winnable(game_id, deal, self._clock())
                    added += 1
        return added

    async def keep_winnable_pool(self, *, first_s: float = 30.0, pause_s: float = 60.0) -> None:
        """Refill the pools for as long as the bot runs (a background task); it starts after
        ``first_s`` so that a restart serves players before it searches."""
        await asyncio.sleep(first_s)
        while True:
            try:
                await self.fill_winnable_pool()
            except Exception:
                log.exception("filling the pool of winnable deals failed")
            await asyncio.sleep(pause_s)

    # -- choices for autocomplete -----------------------------------------------------

    async def move_choices(self, player: Player, typed: str = "") -> list[MenuOption]:
        """Legal moves matching what the player has typed so far (for `/move from`)."""
        saved = await self.store.load(player.user_id)
        if saved is None or saved.is_finished:
            return []
        wanted = " ".join(typed.lower().split())
        options = [
            MenuOption(str(move), describe(saved.game, move))
            for move in saved.game.legal_moves()
        ]
        if wanted[:1].isdigit():  # a pile number: the moves from it
            options = [o for o in options if o.value.startswith(wanted)]
        elif wanted:  # a card ("9♣"), a foundation ("f2") or "redeal"
            options = [
                o for o in options if o.value.startswith(wanted) or wanted in o.label.lower()
            ]
        return options[:MENU_LIMIT]

    async def destination_choices(
        self, player: Player, source: str, typed: str = ""
    ) -> list[MenuOption]:
        """Where the top card of pile ``source`` may go (for `/move to`), as ``3`` or ``f2``."""
        saved = await self.store.load(player.user_id)
        source = source.strip()
        if saved is None or saved.is_finished or not source.isdigit():
            return []
        src = int(source) - 1
        wanted = typed.strip().lower()
        options = []
        for move in saved.game.legal_moves():
            if move.kind not in (PILE, FOUNDATION) or move.src != src:
                continue
            value = str(move).split()[1]
            if value.startswith(wanted):
                options.append(MenuOption(value, describe(saved.game, move)))
        return options[:MENU_LIMIT]

    # -- building the reply -----------------------------------------------------------

    async def _picture(self, game: Game) -> bytes:
        return await self.off_loop(functools.partial(self._render, game, last_move=game.last_move))

    async def _board(self, saved: SavedGame, summary: str) -> Board:
        return self._compose(saved, summary, await self._picture(saved.game))

    def _compose(self, saved: SavedGame, summary: str, picture: bytes) -> Board:
        game = saved.game
        finished = saved.is_finished
        lines = [_headline(game)]
        if summary:
            lines.append(summary)
        end = _ending(saved)
        if end:
            lines.append(end)
        elif self._proven_lost.get(saved.id) == saved.revision:
            lines.append(NO_WIN)
        ref = BoardRef(saved.id, saved.revision)
        self._latest[saved.user_id] = ref
        return Board(
            owner_id=saved.user_id,
            ref=ref,
            text="\n".join(lines),
            png=picture,
            filename=f"{game.game_id}-{game.deal}-{game.moves_made}.png",
            controls=_controls(game, finished),
            finished=finished,
        )


# -- the rules of the flow, as plain functions -------------------------------------------


def _apply(saved: SavedGame, action: Action, arg: str | None) -> str:
    """Apply ``action`` to the saved game; the line that says what happened.

    Raises IllegalMove, with the game unchanged, when it cannot be done.
    """
    game = saved.game
    if action is Action.MOVE:
        move = game.play(arg or "")
        return f"Played {describe_done(game, move)}."
    if action is Action.UNDO:
        move = game.undo()
        saved.undos += 1
        return f"Took back `{move}`."
    if action is Action.REDO:
        move = game.redo()
        return f"Replayed {describe_done(game, move)}."
    if action is Action.REDEAL:
        game.play("redeal")
        left = game.redeals_left
        return f"Redealt: the pile cards were shuffled and dealt again ({left} left)."
    if action is Action.TO_FOUNDATIONS:
        played = to_foundations(game)
        if not played:
            raise IllegalMove("No card can go to a foundation now.")
        texts = ", ".join(f"`{m}`" for m in played)
        return f"{len(played)} card{_s(len(played))} to the foundations: {texts}."
    if action is Action.AUTO_FINISH:
        if not finishes_itself(game):
            raise IllegalMove(
                "Auto-finish works once every card left can go straight to the foundations."
            )
        played = to_foundations(game)
        return f"Auto-finished: {len(played)} card{_s(len(played))} to the foundations."
    if action is Action.RESIGN:
        saved.status = RESIGNED
        return "You resigned this game."
    raise ValueError(f"unknown action {action!r}")


def to_foundations(game: Game) -> list[Move]:
    """Play every card that can go to a foundation, again and again; the moves played.

    Each card is its own move in the game's history, so Undo takes them back one by one.
    """
    played: list[Move] = []
    while True:
        move = next((m for m in game.legal_moves() if m.kind == FOUNDATION), None)
        if move is None:
            return played
        game.play(move)
        played.append(move)


def finishes_itself(game: Game) -> bool:
    """Whether playing foundation moves alone wins: nothing is left to decide."""
    if game.is_won or not any(m.kind == FOUNDATION for m in game.legal_moves()):
        return False
    trial = game.copy()
    to_foundations(trial)
    return trial.is_won


def describe(game: Game, move: Move) -> str:
    """A legal move, for a menu: ``7 → 3 · 9♣ on 10♣``; ``7 → f2 · 9♣ to ♦ A↑``."""
    if move.kind == REDEAL:
        return f"Redeal ({game.redeals_left} left)"
    if move.kind == DRAW:
        return f"Draw: bring {CARDS[move.dst].label} to the top of its pile (once)"
    card = game.tableau[move.src][-1].label
    src = game.pile_name(move.src)
    if move.kind == FOUNDATION:
        return f"{src} → f{move.dst + 1} · {card} to {game.rules.foundations[move.dst].label}"
    target = game.tableau[move.dst]
    onto = f"on {target[-1].label}" if target else "to the empty stack"
    return f"{src} → {game.pile_name(move.dst)} · {card} {onto}"


def describe_done(game: Game, move: Move) -> str:
    """A move just played: ``7 f2`` (9♣)."""
    if move.kind == PILE:
        return f"`{move}` ({game.tableau[move.dst][-1].label})"
    if move.kind == FOUNDATION:
        return f"`{move}` ({game.foundations[move.dst][-1].label})"
    return f"`{move}`"


def _controls(game: Game, finished: bool) -> Controls:
    moves = [] if finished else [m for m in game.legal_moves() if m.kind != REDEAL]
    menu = tuple(MenuOption(str(m), describe(game, m)) for m in moves[:MENU_LIMIT])
    if finished:
        placeholder = "The game is over"
    elif not moves:
        placeholder = "No move left on the piles"
    elif len(moves) > MENU_LIMIT:
        placeholder = f"Play a move ({MENU_LIMIT} of {len(moves)} shown; /move for the rest)"
    else:
        placeholder = f"Play a move ({len(moves)} legal)"
    enabled = {
        Action.UNDO: not finished and game.can_undo,
        Action.REDO: not finished and game.can_redo,
        Action.TO_FOUNDATIONS: any(m.kind == FOUNDATION for m in moves),
        Action.REDEAL: not finished and game.redeals_left > 0,
        Action.HINT: not finished and not game.is_stuck,
        Action.AUTO_FINISH: not finished and finishes_itself(game),
    }
    buttons = tuple(Button(a, label, enabled[a]) for a, label in BUTTON_LABELS.items())
    return Controls(buttons=buttons, menu=menu, menu_placeholder=placeholder)


def _headline(game: Game) -> str:
    moves = game.moves_made
    parts = [f"**{game.name}**", f"deal {game.deal}", f"{moves} move{_s(moves)}"]
    if game.rules.redeals:
        parts.append(f"{game.redeals_left} redeal{_s(game.redeals_left)} left")
    parts.append(f"{game.cards_on_foundations}/{game.rules.card_count} cards home")
    return " · ".join(parts)


def _ending(saved: SavedGame) -> str:
    game = saved.game
    replay = f"`/new {game.game_id} {game.deal}` replays this deal, `/new` deals another."
    if saved.status == WON:
        return f"🏆 **Won** in {game.moves_made} moves! {replay}"
    if saved.status == PLAYING and game.is_stuck:
        return (
            "**Stuck**: no move is left. Undo to try another way, or `/new` to deal again "
            "(leaving a stuck game counts as a loss)."
        )
    if saved.status == LOST:
        return f"**Lost**: the game was left stuck. {replay}"
    if saved.status == RESIGNED:
        return f"**Resigned.** {replay}"
    return ""


def _outcome_text(status: str) -> str:
    return {WON: "won", LOST: "stuck: no move left", RESIGNED: "resigned"}.get(status, status)


def _refusal(game: Game, action: Action, message: str) -> str:
    """A refused action's message, with what would work instead."""
    if action is not Action.MOVE:
        return message
    moves = game.legal_moves()
    if not moves:
        return message
    shown = ", ".join(f"`{m}`" for m in moves[:8])
    more = f" and {len(moves) - 8} more" if len(moves) > 8 else ""
    return f"{message}\nLegal now: {shown}{more} — or pick one from the menu under your board."


def _offer(
    player: Player, saved: SavedGame, game_id: str, deal: int, draw: bool = False
) -> NewGameOffer:
    old = saved.game
    text = (
        f"You have an unfinished **{old.name}** game (deal {old.deal}, "
        f"{old.moves_made} move{_s(old.moves_made)}). Start **{GAMES[game_id]}** deal {deal} "
        "instead? The unfinished game will count as abandoned."
    )
    return NewGameOffer(player.user_id, saved.id, game_id, deal, text, draw)


def _check_new(game_id: str, deal: int | None, draw: bool = False) -> str | None:
    if game_id not in GAMES:
        names = ", ".join(f"`{g}`" for g in GAMES)
        return f"There is no game called `{game_id}`. The games are: {names}."
    if draw and not RULES[game_id].has_draw_option:
        return "The draw house rule belongs to Trefoil (\"Trefoil and a Draw\") only."
    if deal is not None and not 1 <= deal <= MAX_DEAL:
        return (
            f"A deal number is a whole number from 1 to {MAX_DEAL}; "
            "leave it out for a random deal."
        )
    return None


def _apologise(player: Player, context: str) -> Reply:
    log.exception(
        "flow: %r failed for user %s in guild %s", context, player.user_id, player.guild_id
    )
    return Reply(note=APOLOGY, refused=True)


def _s(count: int) -> str:
    return "" if count == 1 else "s"
