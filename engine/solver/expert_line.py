"""A winning line as an expert would play it, before a hint follows it.

The search wins by walking its move order with little backtracking (Corner Stones deal
1: 320 positions for a line of 265 moves), and that walk wanders: runs go back and forth
while no card goes up. ``tidy`` walks the line again from its start and, at each
position, takes the first of these that keeps a win and makes the whole line no longer:

1. every card that can go up, the way "To foundations" plays them (a search proves the
   rest still wins, unless the line passes that position anyway);
2. a redeal, where one is left (a search proves the rest still wins);
3. a few moves that reach a position the line reaches later (a shortcut), or one with
   more cards up sooner than the line does (a search proves the rest still wins);
4. otherwise the line's own moves, up to its next card up.

So cards go up as soon as they can where that costs nothing, and the line is never
longer than it was. Loops are cut before and after (``without_cycles``): no position
comes twice, and no card is put straight back where it came from.

With ``within_deal``, the line wins without redealing and so does every line tidying
puts in its place: no redeal is tried (2.) and every proof searches this deal only, so a
line planned without knowing the next shuffle is tidied without it too.

Every position looked at or searched is charged to an allowance of positions, never
the clock: the same line comes out on every machine. Once the allowance is spent, the
rest of the line is kept as it is.
"""

from __future__ import annotations

from collections.abc import Iterator

from .keys import key_function
from .lines import shorten, without_cycles
from .model import DRAW, FOUNDATION, REDEAL, REDEAL_RAW, Model, Position, RawMove
from .plan import REDEAL_CAPS
from .search import Search
from .verdict import Verdict

# What one line's tidying may spend, in positions: Corner Stones lines (the longest,
# 160-480 moves) take 30-100k (0.3 s compiled), the other games' under 40k (measured
# over deals 1-100).
TIDY_POSITIONS = 150_000
LOOK_AROUND = 600  # positions looked at around each position of the line (moves apart)
PROOF_POSITIONS = 3_000  # a search proving that a step keeps a win: most take < 1,500
PROOF_TRIES = 6  # steps with more cards up tried at each position, nearest first


def finishing_moves(model: Model, pos: Position, deal: int) -> tuple[list[RawMove], Position]:
    """The moves "To foundations" plays from ``pos`` (``Game.play_to_foundations``: the
    first foundation move, again and again), and the position they reach."""
    after = pos.copy()
    moves: list[RawMove] = []
    while up := model.foundation_moves(after):
        model.apply(after, up[0], deal)
        moves.append(up[0])
    return moves, after


class _Tidying:
    def __init__(
        self, model: Model, deal: int, draw_rule: bool, allowance: int, avoid: frozenset[bytes],
        within_deal: bool = False,
    ) -> None:
        self.model = model
        self.deal = deal
        self.draw_rule = draw_rule
        self.left = allowance
        self.avoid = avoid
        self.within_deal = within_deal

    def proof(self, pos: Position) -> list[RawMove] | None:
        """A winning line from ``pos`` found within PROOF_POSITIONS, loops and detours cut;
        None if none was found."""
        if self.left <= 0:
            return None
        model = self.model
        search = Search(
            model, pos.copy(), deal=self.deal, draw_rule=self.draw_rule,
            positions=min(PROOF_POSITIONS, self.left), within_deal=self.within_deal,
            caps=REDEAL_CAPS if pos.redeals_left and not self.within_deal else None,
            avoid=self.avoid,
        )
        status = search.run()
        self.left -= max(1, search.positions)
        if status != Verdict.WON:
            return None
        line = without_cycles(model, pos, search.line, self.deal)
        return shorten(model, pos, line, self.deal, draw_rule=self.draw_rule)

    def around(self, pos: Position) -> Iterator[tuple[list[RawMove], Position]]:
        """Positions a few moves from ``pos`` (within this deal, no draw), nearest first,
        each once (as the search tells positions apart), with the moves to them."""
        model = self.model
        key = key_function(model, pos)
        seen = {key(pos)}
        level: list[tuple[list[RawMove], Position]] = [([], pos)]
        while level:
            deeper = []
            for path, here in level:
                for move in model.legal_moves(here):
                    if move[0] == REDEAL or move[0] == DRAW:
                        continue
                    if len(seen) > LOOK_AROUND:
                        return
                    there = here.copy()
                    model.apply(there, move, self.deal)
                    self.left -= 1
                    k = key(there)
                    if k not in seen and k not in self.avoid:
                        seen.add(k)
                        yield [*path, move], there
                        deeper.append(([*path, move], there))
            level = deeper

    def keys(self, pos: Position, plan: list[RawMove]) -> list[bytes]:
        """The exact keys of the positions ``plan`` passes after ``pos``."""
        model = self.model
        walk = pos.copy()
        out = []
        for move in plan:
            model.apply(walk, move, self.deal)
            out.append(model.exact_key(walk))
        self.left -= len(plan)
        return out

    def step(self, pos: Position, plan: list[RawMove], keys: list[bytes]) -> tuple[
        list[RawMove], list[RawMove], list[bytes] | None
    ]:
        """From ``pos``, whose winning line is ``plan`` (passing ``keys``): the moves to
        play next, the winning line left after them, and its keys if they are known."""
        model, deal = self.model, self.deal
        later = {k: i for i, k in enumerate(keys, 1)}  # position -> moves of plan to it
        # 1. To foundations.
        up, after = finishing_moves(model, pos, deal)
        self.left -= len(up)
        if up:
            if not any(after.piles):
                return up, [], []
            at = later.get(model.exact_key(after))
            if at is not None:
                return up, plan[at:], keys[at:]
            rest = self.proof(after)
            if rest is not None and len(up) + len(rest) <= len(plan):
                return up, rest, None
        # 2. A redeal now. The arrangement before a redeal decides its shuffle, and
        # the search may walk long to one that wins (Super Flower Garden 67: 150 moves
        # before its first redeal, a Queen moved back and forth all along).
        nearest = next(i for i, m in enumerate(plan, 1) if m[0] in (FOUNDATION, REDEAL))
        if pos.redeals_left and plan[0][0] != REDEAL and not self.within_deal:
            redealt = pos.copy()
            model.apply(redealt, REDEAL_RAW, deal)
            rest = self.proof(redealt)
            if rest is not None and 1 + len(rest) <= len(plan):
                return [REDEAL_RAW], rest, None
        # 3. A shortcut, or cards up sooner. The plan's next card up (or redeal) is
        # `nearest` moves away: only a step with more cards up in fewer moves is tried.
        cards_up = sum(pos.heights)
        tries = 0
        for path, there in self.around(pos):
            if self.left <= 0:
                break
            at = later.get(model.exact_key(there))
            if at is not None:
                if len(path) < at:
                    return path, plan[at:], keys[at:]
                continue
            if sum(there.heights) > cards_up and len(path) < nearest and tries < PROOF_TRIES:
                tries += 1
                rest = self.proof(there)
                if rest is not None and len(path) + len(rest) <= len(plan):
                    return path, rest, None
        # 4. The plan, to its next card up.
        return plan[:nearest], plan[nearest:], keys[nearest:]


def tidy(
    model: Model,
    start: Position,
    line: list[RawMove],
    deal: int,
    *,
    draw_rule: bool,
    avoid: frozenset[bytes] = frozenset(),
    allowance: int = TIDY_POSITIONS,
    within_deal: bool = False,
) -> tuple[list[RawMove], int]:
    """``line``, a win from ``start`` (left as it was), as an expert would play it (see
    the module's text); never longer. ``avoid``: search keys of positions the new moves
    must not pass (a player's path so far: see ``Search``); ``line`` passes none.
    Returns the line and the positions spent: at most ``allowance``, and a few more (a
    line's length) to finish the step under way."""
    work = _Tidying(model, deal, draw_rule, allowance, avoid, within_deal)
    plan = without_cycles(model, start, line, deal)
    pos = start.copy()
    keys: list[bytes] | None = None
    out: list[RawMove] = []
    while plan and work.left > 0:
        if keys is None:
            keys = work.keys(pos, plan)
        moves, plan, keys = work.step(pos, plan, keys)
        for move in moves:
            model.apply(pos, move, deal)
        out.extend(moves)
    out = without_cycles(model, start, out + plan, deal)
    return out, allowance - work.left
