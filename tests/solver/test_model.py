"""The solver's own move generator must agree exactly with the engine's rules."""

import random

import pytest

from engine import GAMES, REDEAL, Move, new_game
from engine.solver.keys import key_function
from engine.solver.model import Position, model_for

DEALS = range(1, 25)


def playouts(game_id: str, *, draw: bool = False, steps: int = 250, seed: int = 7):
    """Random games: yields the engine game at every position along the way."""
    rng = random.Random(f"{game_id}/{draw}/{seed}")
    for deal in DEALS:
        game = new_game(game_id, deal, draw=draw)
        for _ in range(steps):
            yield game
            moves = game.legal_moves()
            if not moves:
                break
            game.play(rng.choice(moves))


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_solver_moves_agree_with_engine_legal_moves(game_id: str) -> None:
    model = model_for(game_id)
    checked = 0
    for game in playouts(game_id):
        pos = model.position(game)
        mine = [Move(*m) for m in model.legal_moves(pos, draw_rule=game.draw_rule)]
        assert len(mine) == len(set(mine))
        assert set(mine) == set(game.legal_moves()), (game.deal, game.history)
        checked += 1
    assert checked > 400


def test_solver_moves_agree_with_engine_with_trefoils_draw_rule() -> None:
    model = model_for("trefoil")
    draws = 0
    for game in playouts("trefoil", draw=True, steps=400):
        pos = model.position(game)
        mine = {Move(*m) for m in model.legal_moves(pos, draw_rule=True)}
        assert mine == set(game.legal_moves())
        draws += game.draw_available
    assert draws > 0


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_solver_apply_and_undo_match_engine_push_and_pop(game_id: str) -> None:
    model = model_for(game_id)
    rng = random.Random(game_id)
    for game in playouts(game_id, draw=game_id == "trefoil", steps=120, seed=3):
        moves = game.legal_moves()
        if not moves:
            continue
        move = rng.choice(moves)
        pos = model.position(game)
        before = pos.copy()
        saved = model.apply(pos, tuple(move), game.deal)
        game.push(move)
        assert pos == model.position(game), (game.deal, str(move))
        model.undo(pos, tuple(move), saved)
        game.pop()
        assert pos == before == model.position(game)


@pytest.mark.parametrize("game_id", ["trefoil", "super-flower-garden"])
def test_solver_redeal_deals_exactly_like_the_engine(game_id: str) -> None:
    model = model_for(game_id)
    for deal in range(1, 30):
        game = new_game(game_id, deal)
        rng = random.Random(deal)
        while game.redeals_left:
            for _ in range(rng.randrange(0, 12)):
                moves = [m for m in game.legal_moves() if m.kind != REDEAL]
                if moves:
                    game.play(rng.choice(moves))
            pos = model.position(game)
            model.apply(pos, (REDEAL, -1, -1), deal)
            game.play("redeal")
            assert pos == model.position(game)


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_equal_keys_mean_equal_cards_up_and_redeals(game_id: str) -> None:
    model = model_for(game_id)
    for deal in range(1, 5):
        root = new_game(game_id, deal)
        key = key_function(model, model.position(root))
        seen: dict[bytes, tuple] = {}
        rng = random.Random(deal)
        game = root.copy()
        for _ in range(300):
            pos = model.position(game)
            shape = (sorted(len(f) for f in game.foundations), game.redeals_left)
            assert key(pos) == key(model.position(game.copy()))
            assert seen.setdefault(key(pos), shape) == shape
            moves = game.legal_moves()
            if not moves:
                break
            game.play(rng.choice(moves))


def test_clover_leaf_positions_with_one_key_reach_each_other() -> None:
    """The coarse Clover Leaf key (keys.py) is sound only if positions sharing it are
    joined by legal moves: check it on every group of a few thousand positions."""
    model = model_for("clover-leaf")
    groups = 0
    for deal in range(1, 13):
        root = model.position(new_game("clover-leaf", deal))
        key = key_function(model, root)
        by_key: dict[bytes, set] = {}
        start = (tuple(root.piles), tuple(root.heights))
        todo, seen = [start], {start}
        while todo and len(seen) < 2500:
            piles, heights = todo.pop()
            pos = Position(list(piles), list(heights), 0, False)
            by_key.setdefault(key(pos), set()).add((piles, heights))
            for move in model.legal_moves(pos):
                saved = model.apply(pos, move, deal)
                nxt = (tuple(pos.piles), tuple(pos.heights))
                if nxt not in seen:
                    seen.add(nxt)
                    todo.append(nxt)
                model.undo(pos, move, saved)
        for k, variants in by_key.items():
            if len(variants) > 1:
                assert variants <= _reachable_within_key(model, key, k, next(iter(variants)))
                groups += 1
    assert groups > 100, groups


def _reachable_within_key(model, key, k, start):
    todo = [start]
    seen = {start}
    while todo:
        piles, heights = todo.pop()
        pos = Position(list(piles), list(heights), 0, False)
        for move in model.pile_moves(pos):
            saved = model.apply(pos, move, 1)
            if key(pos) == k:
                nxt = (tuple(pos.piles), heights)
                if nxt not in seen:
                    seen.add(nxt)
                    todo.append(nxt)
            model.undo(pos, move, saved)
    return seen
