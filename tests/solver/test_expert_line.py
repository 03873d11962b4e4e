"""Tidy winning lines: still a win, never longer, no position twice, no card put straight
back, cards up as soon as that costs nothing; decided by positions, never the clock."""

import itertools

import pytest

from engine import FOUNDATION, GAMES, PILE, Game, new_game
from engine.solver import solve
from engine.solver.expert_line import finishing_moves, tidy
from engine.solver.lines import without_cycles
from engine.solver.model import RawMove, model_for, move_text

POSITIONS = 20_000  # each search here wins within 2,000 (measured)
WON_DEALS = {  # deals the solver wins quickly
    "clover-leaf": (4, 281633),
    "corner-stones": (4, 6),
    "four-leaf-clovers": (4, 6),
    "super-flower-garden": (4, 6),
    "trefoil": (4, 6),
}


def searched(game_id: str, deal: int) -> tuple[Game, list[RawMove]]:
    game = new_game(game_id, deal)
    solution = solve(game, positions=POSITIONS)
    assert solution.status == "won"
    replay = game.copy()
    return game, [replay.play(text).raw for text in solution.moves]


def tidied(game: Game, line: list[RawMove], **kwargs: int) -> list[RawMove]:
    model = model_for(game.game_id)
    out, _ = tidy(model, model.position(game), line, game.deal_number, draw_rule=False, **kwargs)
    return out


def played(game: Game, line: list[RawMove]) -> list[Game]:
    """The game after each move of ``line``, played as a player types it."""
    walk = game.copy()
    out = []
    for move in line:
        walk.play(move_text(move))
        out.append(walk.copy())
    return out


@pytest.mark.parametrize(("game_id", "deal"), [(g, d) for g in sorted(GAMES) for d in WON_DEALS[g]])
def test_a_tidy_line_wins_never_longer_and_never_comes_back(game_id: str, deal: int) -> None:
    game, line = searched(game_id, deal)
    tidy_line = tidied(game, line)
    model = model_for(game_id)
    assert len(tidy_line) <= len(without_cycles(model, model.position(game), line, deal))
    after = played(game, tidy_line)
    assert after[-1].is_won
    keys = [game.key()] + [g.key() for g in after]
    assert len(set(keys)) == len(keys), "a position comes twice"


@pytest.mark.parametrize("game_id", ["corner-stones", "four-leaf-clovers"])
def test_no_card_is_put_straight_back(game_id: str) -> None:
    game, line = searched(game_id, 1)
    tidy_line = tidied(game, line)
    for before, after in itertools.pairwise(tidy_line):
        if before[0] == after[0] == PILE:
            assert (after[1], after[2]) != (before[2], before[1]), (before, after)


def test_the_wandering_four_leaf_clovers_line_gets_shorter() -> None:
    """Deal 1's searched line: 152 moves, moves 47-126 put two cards up while one run went
    back and forth."""
    game, line = searched("four-leaf-clovers", 1)
    assert len(line) == 152
    assert len(tidied(game, line)) <= 130


def test_cards_go_up_as_soon_as_it_costs_nothing() -> None:
    """Trefoil 42's searched line (82 moves) could finish itself from move 53 on, yet
    played 27 more moves; the tidy line gets there no later and then only sends cards
    up."""
    game, line = searched("trefoil", 42)
    tidy_line = tidied(game, line)
    model = model_for("trefoil")
    pos = model.position(game)
    finished_at = None
    for i, move in enumerate(tidy_line):
        up, after = finishing_moves(model, pos, game.deal_number)
        if up and not any(after.piles):
            finished_at = i
            assert all(m[0] == FOUNDATION for m in tidy_line[i:])
            break
        model.apply(pos, move, game.deal_number)
    assert finished_at is not None and finished_at <= 53  # the searched line: 82 moves


def test_tidying_is_decided_by_positions_not_the_clock() -> None:
    game, line = searched("corner-stones", 4)
    assert tidied(game, line) == tidied(game, line)
    assert tidied(game, line, allowance=0) == without_cycles(
        model_for("corner-stones"), model_for("corner-stones").position(game), line, 4
    )
    some = tidied(game, line, allowance=2_000)
    assert played(game, some)[-1].is_won  # cut short: the rest of the line as it was
