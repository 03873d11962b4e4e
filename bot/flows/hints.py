"""Hints: the solver's next step for a player, as an expert would put it (the words are
``words/hints.py``'s). The game flow asks under the player's lock.

A hint that searches has a cooldown per player, across processes (``cooldowns.py``). One
whose step lies on the winning line the player's last hint proved, followed since (or
asked again where it was given), costs no search, so it meets no cooldown: winning by
following the hints takes as long as playing the moves. The line is the solver process's
memory, so a hint asked in another process searches there.
"""

from __future__ import annotations

from engine import Game
from engine.lru import LRU
from engine.solver import AUTO_FINISH, TO_FOUNDATIONS

from ..replies import Action, HintStep, Refused, Reply
from ..store import SavedGame
from ..store.games import GameStore
from ..words.hints import hint_words
from ..words.language import _
from ..workers.solver import HintAnswer, SolverWorker
from .actions import undo_reach
from .cooldowns import EVERY_S, Cooldown, Cooldowns
from .verdicts import REMEMBERED, Verdicts


class Hints:
    def __init__(self, games: GameStore, worker: SolverWorker, cooldowns: Cooldowns,
                 verdicts: Verdicts) -> None:
        self.games, self.worker = games, worker
        self.cooldowns, self.verdicts = cooldowns, verdicts
        # player -> the game row whose last hint here was on a winning line; and the
        # position (row, revision) where that line was found left, not asked again
        self._on_a_line: LRU[int, int] = LRU(REMEMBERED)
        self._left_at: LRU[int, tuple[int, int]] = LRU(REMEMBERED)

    async def hint(self, saved: SavedGame) -> Reply:
        """The solver's next step, privately, as an expert would put it: a press of
        Auto-finish or To foundations when that is the step, else a move, with the moves
        its winning line has left; before a redeal, how often its plan wins over the
        shuffles no one can know yet; on a lost game, that no win is possible and how far
        to undo. Counted, so a win after it is assisted."""
        game = saved.game
        found = None
        at = (saved.id, saved.revision)
        if self._on_a_line.get(saved.user_id) == saved.id and self._left_at.get(
                saved.user_id) != at:
            found = await self.worker.followed_hint(game)  # no search: no cooldown
            if found is None:
                self._left_at[saved.user_id] = at  # a press again here: straight to the cooldown
        if found is None:
            wait = await self.cooldowns.wait(saved.user_id, Cooldown.HINT)
            if wait:
                raise Refused(_("One hint every {every} s: ask again in {wait} s.",
                                every=round(EVERY_S[Cooldown.HINT]), wait=wait))
            found = await self.worker.hint(game)
        await self.games.count_hint(saved.id)
        if found.winning:
            self._on_a_line[saved.user_id] = saved.id
        else:
            self._on_a_line.pop(saved.user_id)
        deal_lost = saved.lost_as_dealt
        if found.lost:
            deal_lost = deal_lost or await self.verdicts.deal_lost(game)
            await self.games.mark_proven_lost(saved.id, saved.revision, deal_too=deal_lost)
        return Reply(note=hint_words(game, found, lost_as_dealt=deal_lost,
                                     undo_reach=undo_reach(saved)), hint=_step(game, found))

    def forget(self, user_id: int | None) -> None:
        """Drop what is kept of a player (None: of everyone)."""
        for kept in (self._on_a_line, self._left_at):
            if user_id is None:
                kept.clear()
            else:
                kept.pop(user_id)


def _step(game: Game, found: HintAnswer) -> HintStep | None:
    """The step a hint names, as data: the button its words say to press, or its move (the
    one that puts the most cards up, where no win is possible); None where it names none."""
    if found.winning and found.action in _PRESSED:
        return HintStep(action=_PRESSED[found.action])
    if found.move is None:
        return None
    return HintStep(move=str(game.resolve(found.move)))


_PRESSED = {AUTO_FINISH: Action.AUTO_FINISH, TO_FOUNDATIONS: Action.TO_FOUNDATIONS}
