"""Hints: the solver's next step for a player, as an expert would put it (the words are
``words/hints.py``'s), within a cooldown per player across processes (``cooldowns.py``).
The game flow asks under the player's lock."""

from __future__ import annotations

from ..replies import Refused, Reply
from ..store import SavedGame
from ..store.games import GameStore
from ..words.hints import hint_words
from ..words.language import _
from ..workers.solver import SolverWorker
from .actions import undo_reach
from .cooldowns import EVERY_S, Cooldown, Cooldowns
from .verdicts import Verdicts


class Hints:
    def __init__(self, games: GameStore, worker: SolverWorker, cooldowns: Cooldowns,
                 verdicts: Verdicts) -> None:
        self.games, self.worker = games, worker
        self.cooldowns, self.verdicts = cooldowns, verdicts

    async def hint(self, saved: SavedGame) -> Reply:
        """The solver's next step, privately, as an expert would put it: a press of
        Auto-finish or To foundations when that is the step, else a move, with the moves
        its winning line has left; before a redeal, how often its plan wins over the
        shuffles no one can know yet; on a lost game, that no win is possible and how far
        to undo. Counted, so a win after it is assisted."""
        game = saved.game
        wait = await self.cooldowns.wait(saved.user_id, Cooldown.HINT)
        if wait:
            raise Refused(_("One hint every {every} s: ask again in {wait} s.",
                            every=round(EVERY_S[Cooldown.HINT]), wait=wait))
        found = await self.worker.hint(game)
        await self.games.count_hint(saved.id)
        deal_lost = saved.lost_as_dealt
        if found.lost:
            deal_lost = deal_lost or await self.verdicts.deal_lost(game)
            await self.games.mark_proven_lost(saved.id, saved.revision, deal_too=deal_lost)
        return Reply(note=hint_words(game, found, lost_as_dealt=deal_lost,
                                     undo_reach=undo_reach(saved)))
