"""Depth-first search with a transposition table over the compact positions of model.py.

The search is plain reachability: a position is expanded once (the table remembers every
position seen, on the current line or already refuted), so when it runs out of moves the
start position is proven lost. Prunings that could lose a win are not allowed (prune.py
argues each one); the move order only decides how soon a win is found.
"""

from __future__ import annotations

import math
import random
import time
from typing import Final

from .. import moves as kinds
from .keys import key_function
from .model import REDEAL_RAW, Model, Position, RawMove
from .order import order_moves
from .prune import (
    dead_check_applies,
    is_dead,
    last_card_buried,
    most_cards_up,
    safe_move,
    shortcuts_for,
)
from .verdict import Verdict

# Final: mypyc keeps these in C variables instead of looking them up at every use.
FOUNDATION: Final = int(kinds.FOUNDATION)
PILE: Final = int(kinds.PILE)
REDEAL: Final = int(kinds.REDEAL)
_CLOCK_EVERY: Final = 128  # positions between looks at the clock
UNLIMITED: Final = 1 << 62  # more positions than any search reaches: no limit, no pause


class OutOfTime(Exception):
    pass


class Search:
    """One search from ``pos`` (which it changes while running and restores at the end).

    It stops "unknown" past ``deadline`` (``time.perf_counter()``, looked at every
    128 positions; by default never), or when it has searched exactly ``positions`` (by
    default no limit): a count stops it on the same position on every machine.

    ``within_deal``: never redeal; a redeal ends the line. The result is then "won"
    (a win inside this deal), "exhausted" (every line of this deal seen: ``best_line``
    puts the most cards up) or "unknown".

    ``reached`` (within a deal only): a dict the search fills with every set of
    foundation heights it reaches (``bytes(heights)``) and the first line that reached
    it. No line is then cut for putting up fewer cards than the best one: each way of
    ending the deal is a choice of its own (sampled.py compares them).
    """

    def __init__(
        self,
        model: Model,
        pos: Position,
        *,
        deal: int,
        draw_rule: bool = False,
        deadline: float = math.inf,
        positions: int | None = None,
        within_deal: bool = False,
        caps: dict[int, int] | None = None,
        node_cap: int | None = None,
        shuffle: random.Random | None = None,
        avoid: frozenset[bytes] = frozenset(),
        reached: dict[bytes, list[RawMove]] | None = None,
    ) -> None:
        if reached is not None and not within_deal:
            raise ValueError("only a search within one deal lists the heights it reaches")
        self.model = model
        self.pos = pos
        self.deal = deal
        self.draw_rule = draw_rule
        self.deadline = deadline
        self.limit = UNLIMITED if positions is None else positions
        self.within_deal = within_deal
        # caps[r]: positions allowed in the subtree after a redeal that leaves r redeals;
        # a capped search finds wins sooner but proves nothing when it runs dry.
        self.caps = caps
        self.complete = True
        # node_cap: give up (unproven) after this many positions; shuffle: random tie
        # breaks in the move order, so that restarts try other lines first.
        self.node_cap = node_cap
        self.shuffle = shuffle
        self.status = Verdict.UNKNOWN  # what run() returned, for callers keeping the Search
        self.first_moves: list[RawMove] = []  # the start's moves, in the order tried
        self.positions = 0
        self.line: list[RawMove] = []
        self.start_count = sum(pos.heights)
        self.best_count = self.start_count
        self.best_line: list[RawMove] = []
        # avoid: keys of positions no line may pass (a player's path so far, so that a
        # hint never leads back). Treated as searched: a loss is then only "no win that
        # avoids them", which the caller must not report as lost.
        self.seen: set[bytes] = set(avoid)
        cuts = shortcuts_for(model)
        self.dead_checked = cuts.dead_checked
        self.last_checked = cuts.last_cards is not None
        # Planning within a deal for the most cards up: a position that cannot put up
        # more than the best line found so far is not worth searching (branch and bound).
        self.bounded = within_deal and self.dead_checked and reached is None
        self.reached = reached
        # Won when every card now on the tableau is up (a constructed position need not
        # hold a whole deck: the engine's is_won is "the tableau is empty").
        self.card_count = self.start_count + sum(map(len, pos.piles))
        self.key = key_function(model, pos)
        # Where the search stands between run(until=...) calls: the moves played from the
        # start, what undoes them, and the frames (moves to try, next index, moves in).
        self._line: list[RawMove] = []
        self._undo: list[object] = []
        self._frames: list[list[object]] | None = None
        self._limits: list[tuple[int, int]] = []
        self._pause_at = UNLIMITED

    # -- what may be pruned here --------------------------------------------------------

    def _settled(self, pos: Position) -> bool:
        """No redeal ahead (or none allowed) and no draw to come: prune.py's arguments hold."""
        if pos.redeals_left and not self.within_deal:
            return False
        return not (self.draw_rule and not pos.draw_used and not pos.redeals_left)

    def _autoplay(self, pos: Position, line: list[RawMove], undo: list[object]) -> int:
        """Play safe foundation moves while there are any; returns how many."""
        if not self._settled(pos):
            return 0
        count = 0
        model = self.model
        while True:
            move = safe_move(model, pos)
            if move is None:
                return count
            undo.append(model.apply(pos, move, self.deal))
            line.append(move)
            count += 1

    def _moves(self, pos: Position) -> list[RawMove]:
        model = self.model
        moves = order_moves(
            model, pos, model.foundation_moves(pos), model.pile_moves(pos), self.shuffle
        )
        if pos.redeals_left and not self.within_deal:
            moves.append(REDEAL_RAW)
        if self.draw_rule and not pos.draw_used and not pos.redeals_left:
            moves.extend(model.draw_moves(pos))
        return moves

    def _dead(self, pos: Position) -> bool:
        if self.within_deal or not self._settled(pos):
            return False
        if self.last_checked and last_card_buried(self.model, pos):
            return True
        if not self.dead_checked:
            return False
        return dead_check_applies(self.model, pos) and is_dead(self.model, pos)

    @staticmethod
    def _worth_checking(pos: Position, move: RawMove) -> bool:
        """Whether to run the dead check after ``move`` (skipping it is always sound).

        Measured on Clover Leaf, where the check costs most: after a move to a
        foundation it seldom finds anything new (autoplay moves are checked with the
        move before them), and a card taken from a pile that still holds three or more
        cards is a loose card from a run, whose move never made a live position dead in
        the measurements: there the check costs more than it saves.
        """
        kind, src = move[0], move[1]
        return kind != FOUNDATION and not (kind == PILE and len(pos.piles[src]) >= 3)

    @staticmethod
    def _not_again(moves: list[RawMove], pile: int) -> list[RawMove]:
        """Leave out moving the card just moved (to ``pile``) on to another pile.

        Moving it from A to B and then to C ends where moving it from A to C straight
        does (C's top was the same then: nothing else moved, not even by autoplay, which
        the caller checks), and that is a sibling the search tries anyway; moving it
        back to A ends where the parent was. So no position is lost, only a detour."""
        return [m for m in moves if m[0] != PILE or m[1] != pile]

    # -- the search ---------------------------------------------------------------------

    def run(self, until: int | None = None) -> Verdict:
        """Search until won, proven lost (or exhausted), or out of time or positions;
        with ``until``, stop (PAUSED) once that many positions are searched, to go on at
        the next call. The position is handed back as it came, except while paused."""
        if self._frames is not None and not self._frames:
            return self.status  # over: decided, out of time or stopped
        self._pause_at = until or UNLIMITED
        status = Verdict.UNKNOWN
        try:
            status = self._run(self.pos, self.model, self._line, self._undo)
        except OutOfTime:
            status = Verdict.UNKNOWN
        finally:
            self.status = status
            if status != Verdict.PAUSED:
                self.stop()
        return status

    def stop(self) -> None:
        """Give up a paused search: hand the position back as it came."""
        line, undo = self._line, self._undo
        while line:
            self.model.undo(self.pos, line.pop(), undo.pop())
        self._frames = []
        if self.status == Verdict.PAUSED:
            self.status = Verdict.UNKNOWN

    def _start(
        self, pos: Position, model: Model, line: list[RawMove], undo: list[object]
    ) -> Verdict:
        """The start position: autoplay, and whether that already decides."""
        entered = self._autoplay(pos, line, undo)
        self.best_count = sum(pos.heights)
        self.best_line = list(line)
        if self.reached is not None:
            self.reached.setdefault(bytes(pos.heights), list(line))
        if sum(pos.heights) == self.card_count:
            self.line = list(line)
            return Verdict.WON
        self.seen.add(self.key(pos))
        root_moves = self._moves(pos)
        self.first_moves = list(line) + root_moves
        if self._dead(pos):
            return Verdict.LOST
        if self.bounded and most_cards_up(model, pos) <= self.best_count:
            return Verdict.EXHAUSTED
        self._frames = [[root_moves, 0, entered]]
        return Verdict.UNKNOWN

    def _run(
        self, pos: Position, model: Model, line: list[RawMove], undo: list[object]
    ) -> Verdict:
        if self._frames is None:
            status = self._start(pos, model, line, undo)
            if status != Verdict.UNKNOWN:
                return status
        deal = self.deal
        card_count = self.card_count
        seen = self.seen
        caps = self.caps
        # Each frame: moves to try, the next one's index, moves that led into it.
        frames = self._frames
        assert frames is not None
        # Capped subtrees (after a redeal): (index of their frame, last position allowed).
        limits = self._limits
        positions = self.positions
        deadline = self.deadline
        limit = self.limit
        pause_at = min(self._pause_at, limit)
        while frames:
            if positions >= pause_at:  # between positions: the frames match the position
                self.positions = positions
                return Verdict.PAUSED if positions < limit else Verdict.UNKNOWN
            frame = frames[-1]
            moves: list[RawMove] = frame[0]  # type: ignore[assignment]
            i: int = frame[1]  # type: ignore[assignment]
            if i == len(moves):
                frames.pop()
                for _ in range(frame[2]):  # type: ignore[call-overload]
                    model.undo(pos, line.pop(), undo.pop())
                if limits and limits[-1][0] == len(frames):
                    limits.pop()
                continue
            frame[1] = i + 1
            move = moves[i]
            undo.append(model.apply(pos, move, deal))
            line.append(move)
            entered = 1 + self._autoplay(pos, line, undo)
            positions += 1
            if positions % _CLOCK_EVERY == 0:
                self.positions = positions
                if time.perf_counter() > deadline:
                    raise OutOfTime
                if self.node_cap and positions > self.node_cap:
                    self.complete = False
                    return Verdict.UNKNOWN
            up = sum(pos.heights)
            reached = self.reached
            if reached is not None and (move[0] == FOUNDATION or entered > 1):
                heights = bytes(pos.heights)
                if heights not in reached:
                    reached[heights] = list(line)
            if up > self.best_count:
                self._note_best(pos, line)
                if up == card_count:
                    self.positions = positions
                    self.line = list(line)
                    return Verdict.WON
            key = self.key(pos)
            if (
                key in seen
                or (self._worth_checking(pos, move) and self._dead(pos))
                or (self.bounded and most_cards_up(model, pos) <= self.best_count)
            ):
                seen.add(key)
                for _ in range(entered):
                    model.undo(pos, line.pop(), undo.pop())
                continue
            seen.add(key)
            if caps and move[0] == REDEAL and pos.redeals_left in caps:
                limits.append((len(frames), positions + caps[pos.redeals_left]))
            moves = self._moves(pos)
            if move[0] == PILE and entered == 1:
                moves = self._not_again(moves, move[2])
            frames.append([moves, 0, entered])
            for at, limit in limits:
                if positions > limit:  # give up this subtree (the outermost one over)
                    self.complete = False
                    while len(frames) > at:
                        for _ in range(frames.pop()[2]):  # type: ignore[call-overload]
                            model.undo(pos, line.pop(), undo.pop())
                    del limits[limits.index((at, limit)) :]
                    break
        self.positions = positions
        if not self.complete:
            return Verdict.UNKNOWN
        return Verdict.EXHAUSTED if self.within_deal else Verdict.LOST

    def _note_best(self, pos: Position, line: list[RawMove]) -> None:
        self.best_count = sum(pos.heights)
        self.best_line = list(line)


__all__ = ["UNLIMITED", "Search", "Verdict"]
