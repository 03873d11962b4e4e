"""The step that wins most often over the shuffles a player cannot know.

While a redeal is left (Trefoil, Super Flower Garden), its shuffle is fixed by the deal
number, but a player sees it only by redealing. A hint that planned through it would
know what the player cannot, and would say things no expert says ("redeal" with five
cards up, because this deal's next shuffle happens to win). So a hint with a redeal to
come knows only what is on the table:

1. If this deal can be won without redealing, that win: it is certain.
2. Otherwise the deal ends in a redeal, and what a redeal deals, to someone who cannot
   see the shuffle, depends only on which cards are left on the tableau, never on how
   they lie when they are gathered: the shuffle is just as likely to be any order. In
   these games the cards left are fixed by the foundations' heights, so the choices
   are the sets of heights this deal can reach, redealing now among them. More cards
   up is not always better: Super Flower Garden 6 can put 39 cards up, leaving one suit
   whose cards can only be built on each other (2 samples in 32 win from there), or 32
   that leave two suits (13 in 32 win).
3. Each choice (at most ``CHOICES``, the most cards up first) is played out over
   sampled shuffles: the cards it leaves, in one fixed order, dealt again by a shuffle of
   the sample's own (a seed that no deal has, never the deal's), then played by the blind
   policy (blind.py): with a redeal still left, win that deal if it can be won, else put
   the most cards up and redeal (the sample's next shuffle); after the last one, win if
   any line wins (nothing is hidden then). Every choice gets a few samples (``screen``);
   the best few, and the blind policy's own choice (the most cards up), get them all
   (``shuffles``).
4. The plan is the blind policy's choice unless another wins clearly more often: by
   ``CLEAR`` standard errors of the difference, so that a few lucky samples never make
   the hint redeal early (Trefoil 2: redealing with 7 cards up won 9 of 32 samples, and
   20 cards up 6 of 32, a difference chance alone makes). Its line's first move is the
   hint, or a redeal when that is the plan.

So a plan depends on the position alone (and, as every hint, on the positions already
played, which it keeps away from), never on the deal number, and is the same in every
process: the samples' seeds are fixed and every search is counted in positions. A plan
made is remembered along its line (``UNDER_WAY``, by position, not by deal), so a
player who follows it walks it to its redeal instead of meeting a new plan at each
step; the outcomes of each set of heights' samples are remembered too (``SAMPLES``).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from ..lru import LRU
from .blind import play_out
from .budget import Budget
from .lines import Plans, shorten, without_cycles
from .model import REDEAL_RAW, Model, Position, RawMove
from .search import Search
from .verdict import Verdict


@dataclass(frozen=True)
class Sampling:
    shuffles: int  # samples for the finalists: their figure is out of this many
    screen: int  # samples for every choice, to find the finalists


# Tuning keyed by game, as plan.RESTARTS: a Trefoil sample costs about a tenth of a
# Super Flower Garden one (measured: 1 ms and 10 ms, compiled), so it gets more.
SAMPLING = {"trefoil": Sampling(128, 32)}
SAMPLED = Sampling(32, 8)  # any other game with redeals
CHOICES = 12  # ways of ending this deal compared at most, the most cards up first
FINALISTS = 3  # besides the blind policy's own choice
CLEAR = 2.0  # standard errors by which a plan must beat the blind policy's choice
WIN_POSITIONS = 20_000  # the search for a win in this deal, or for its most cards up
CHOICE_POSITIONS = 20_000  # the search for the other ways of ending this deal
# Each search of a sampled shuffle's play. Measured on Super Flower Garden deals 1-6:
# 2,000 count about as many wins as 20,000 (a sample or two in 32 fewer) in a fifth of
# the time.
SAMPLE_POSITIONS = 2_000
SHORTEN_POSITIONS = 5_000  # cutting the detours of the line to the choice
# A deal seen by no player: the search plans within the deal and never redeals, and a
# redeal of a sample is shuffled by the sample's seed (-1, -2, ...: no deal's number).
UNSEEN = 0
# Each sample's outcome (1 won, 0 not) by the set of heights, with the cards left,
# redeals left and the draw rule: a few hundred bytes each.
SAMPLES: LRU[bytes, bytes] = LRU(4_096)
# Plans under way, by position (Plans.key, the deal left out): the plan's move from
# there, its cards up, its wins and samples. A line holds tens of positions.
UNDER_WAY: LRU[bytes, tuple[RawMove, int, int, int]] = LRU(5_000)


@dataclass(frozen=True)
class Plan:
    """This deal's plan. ``won_here``: ``line`` wins without redealing (certain). Else
    ``line`` reaches ``heights`` (empty: redeal now), and ``shuffles_won`` of ``shuffles``
    sampled shuffles win from there. ``positions``: searched (the cache's answers not
    counted)."""

    line: list[RawMove]
    won_here: bool
    cards_up: int
    shuffles_won: int = 0
    shuffles: int = 0
    positions: int = 0
    heights: bytes = field(default=b"")


def plan_deal(
    model: Model, pos: Position, *, draw_rule: bool, avoid: frozenset[bytes] = frozenset()
) -> Plan:
    """The plan for ``pos`` (a redeal left; never changed), see the module's text.
    ``avoid``: position keys no line may pass (the game's history: see ``Search``)."""
    if not pos.redeals_left:
        raise ValueError("a position with no redeal left has nothing hidden to sample")
    best = Search(model, pos.copy(), deal=UNSEEN, positions=WIN_POSITIONS, within_deal=True,
                  avoid=avoid)
    if best.run() == Verdict.WON:
        return Plan(best.line, True, model.card_count, positions=best.positions)
    reached: dict[bytes, list[RawMove]] = {}
    others = Search(model, pos.copy(), deal=UNSEEN, positions=CHOICE_POSITIONS,
                    within_deal=True, avoid=avoid, reached=reached)
    searched = best.positions
    if others.run() == Verdict.WON:
        return Plan(others.line, True, model.card_count, positions=searched + others.positions)
    searched += others.positions
    most = _heights_after(model, pos, best.best_line)
    reached.setdefault(most, best.best_line)
    sampling = sampling_for(model.id)
    choices = sorted(reached, key=lambda h: (-sum(h), h))[:CHOICES]
    if most not in choices:
        choices[-1] = most
    ends = {h: _after(model, pos, reached[h]) for h in choices}
    screened = []
    for heights in choices:
        outcomes, cost = sampled_outcomes(model, ends[heights], sampling.screen,
                                          draw_rule=draw_rule)
        searched += cost
        screened.append((-sum(outcomes), -sum(heights), heights))
    finalists = {h for *_, h in sorted(screened)[:FINALISTS]} | {most}
    won: dict[bytes, int] = {}
    for heights in sorted(finalists):
        outcomes, cost = sampled_outcomes(model, ends[heights], sampling.shuffles,
                                          draw_rule=draw_rule)
        searched += cost
        won[heights] = sum(outcomes)
    best_won, _, heights = min((-w, -sum(h), h) for h, w in won.items())
    if not clearly_better(-best_won, won[most], sampling.shuffles):
        heights = most
    line = reached[heights]
    line = shorten(model, pos, without_cycles(model, pos, line, UNSEEN), UNSEEN,
                   draw_rule=False, budget=Budget(0.0, SHORTEN_POSITIONS))
    return Plan(line, False, sum(heights), won[heights], sampling.shuffles, searched, heights)


def sampling_for(game_id: str) -> Sampling:
    return SAMPLING.get(game_id, SAMPLED)


def clearly_better(won: int, than: int, samples: int) -> bool:
    """Whether ``won`` of ``samples`` beats ``than`` of as many by CLEAR standard errors
    of the difference (the samples of two choices are independent)."""
    variance = (won * (samples - won) + than * (samples - than)) / samples
    return won - than > CLEAR * math.sqrt(variance)


def sampled_outcomes(
    model: Model, end: Position, samples: int, *, draw_rule: bool
) -> tuple[bytes, int]:
    """The outcomes (1: won) of the first ``samples`` sampled shuffles when ``end`` (a
    redeal left) is redealt, and the positions searched for them (those remembered cost
    none). Only the cards left count, not how they lie: they are gathered in one fixed
    order before each sample's shuffle."""
    cards = bytes(sorted(b"".join(end.piles)))
    key = (f"{model.id}/{int(draw_rule)}/".encode() + bytes(end.heights)
           + bytes((end.redeals_left, end.draw_used)) + cards)
    known = SAMPLES.get(key) or b""
    searched = 0
    outcomes = bytearray(known)
    for sample in range(len(known) + 1, samples + 1):
        seed = -sample
        pos = Position([cards] + [b""] * (model.pile_count - 1), list(end.heights),
                       end.redeals_left, end.draw_used)
        model.apply(pos, REDEAL_RAW, seed)
        played = play_out(model, pos, seed, draw_rule=draw_rule, positions=SAMPLE_POSITIONS)
        outcomes.append(played.won)
        searched += played.positions
    if len(outcomes) > len(known):
        SAMPLES[key] = bytes(outcomes)
    return bytes(outcomes[:samples]), searched


def _after(model: Model, pos: Position, line: list[RawMove]) -> Position:
    end = pos.copy()
    for move in line:
        model.apply(end, move, UNSEEN)
    return end


def _heights_after(model: Model, pos: Position, line: list[RawMove]) -> bytes:
    return bytes(_after(model, pos, line).heights)


def remember(model: Model, pos: Position, plan: Plan, *, draw_rule: bool) -> None:
    """Remember ``plan`` (not a win in this deal) along its line from ``pos`` (left as it
    was): each position's next move, and the redeal where the line ends."""
    walk = pos.copy()
    for move in [*plan.line, REDEAL_RAW]:
        key = Plans.key(model, walk, UNSEEN, draw_rule)
        UNDER_WAY[key] = (move, plan.cards_up, plan.shuffles_won, plan.shuffles)
        if move != REDEAL_RAW:
            model.apply(walk, move, UNSEEN)


def under_way(
    model: Model, pos: Position, *, draw_rule: bool
) -> tuple[RawMove, int, int, int] | None:
    """The remembered plan's (move, cards up, wins, samples) from ``pos``, if it lies on
    one."""
    return UNDER_WAY.get(Plans.key(model, pos, UNSEEN, draw_rule))
