"""The solver's own move generator must agree exactly with the engine's rules."""

import random

import pytest

from engine import GAMES, REDEAL, Move, new_game
from engine.solver.keys import key_function, piles_keep_their_places
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
        mine = [Move.from_raw(m) for m in model.legal_moves(pos, draw_rule=game.draw_rule)]
        assert len(mine) == len(set(mine))
        assert set(mine) == set(game.legal_moves()), (game.deal_number, game.history)
        checked += 1
    assert checked > 400


def test_solver_moves_agree_with_engine_with_trefoils_draw_rule() -> None:
    model = model_for("trefoil")
    draws = 0
    for game in playouts("trefoil", draw=True, steps=400):
        pos = model.position(game)
        mine = {Move.from_raw(m) for m in model.legal_moves(pos, draw_rule=True)}
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
        saved = model.apply(pos, move.raw, game.deal_number)
        game.push(move)
        assert pos == model.position(game), (game.deal_number, str(move))
        model.undo(pos, move.raw, saved)
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


@pytest.mark.parametrize(
    "game_id", sorted(g for g in GAMES if piles_keep_their_places(model_for(g).rules))
)
def test_piles_that_keep_their_places_keep_their_bottom_cards(game_id: str) -> None:
    """What the exact key rests on (keys.py): a pile is known by its bottom card."""
    for game in playouts(game_id, steps=120, seed=3):
        dealt = new_game(game_id, game.deal_number).tableau
        for pile, first in zip(game.tableau, dealt, strict=True):
            assert not pile or pile[0] == first[0]


def test_clover_leaf_keys_its_piles_in_place_and_refills_or_redeals_sort_them() -> None:
    for game_id in ("corner-stones", "trefoil", "super-flower-garden"):  # refill, redeals
        model = model_for(game_id)
        assert key_function(model, model.position(new_game(game_id, 1))) == model.key
    model = model_for("clover-leaf")
    key = key_function(model, model.position(new_game("clover-leaf", 1)))
    assert key(model.position(new_game("clover-leaf", 1))) == b"\xff".join(
        bytes(map(int, pile)) for pile in new_game("clover-leaf", 1).tableau
    )


def test_clover_leaf_piles_tell_the_foundations() -> None:
    """Its key is the piles alone (keys.py): equal piles must mean equal heights."""
    model = model_for("clover-leaf")
    heights: dict[bytes, list[int]] = {}
    for game in playouts("clover-leaf", steps=120, seed=4):
        pos = model.position(game)
        key = key_function(model, pos)
        assert heights.setdefault(key(pos), pos.heights) == pos.heights


def _child_keys(model, key, pos, deal):
    out = []
    for move in model.legal_moves(pos):
        saved = model.apply(pos, move, deal)
        out.append(key(pos))
        model.undo(pos, move, saved)
    return sorted(out)


def _renamed(model, pos, rng):
    """The same game up to renaming: piles that play alike permuted (once no redeal is
    left, and where piles may trade places at all) and, in Four Leaf Clovers, suits
    swapped among cards of one rank."""
    piles = list(pos.piles)
    if not pos.redeals_left and not piles_keep_their_places(model.rules):
        for group in model.pile_classes:
            shuffled = [piles[i] for i in group]
            rng.shuffle(shuffled)
            for i, pile in zip(group, shuffled, strict=True):
                piles[i] = pile
    if model.id == "four-leaf-clovers":
        table = list(range(256))
        for rank in range(13):
            suits = [rank + 13 * s for s in range(4)]
            rng.shuffle(suits)
            for s, c in enumerate(suits):
                table[rank + 13 * s] = c
        piles = [p.translate(bytes(table)) for p in piles]
    return Position(piles, list(pos.heights), pos.redeals_left, pos.draw_used)


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_positions_sharing_a_key_have_successors_sharing_keys(game_id: str) -> None:
    """A key may merge two positions only if their moves lead to equal keys again:
    the search expands one of them and must thereby cover the other."""
    model = model_for(game_id)
    rng = random.Random(game_id)
    by_key: dict[bytes, Position] = {}
    for game in playouts(game_id, steps=60, seed=5):
        pos = model.position(game)
        key = key_function(model, pos)
        other = _renamed(model, pos, rng)
        assert key(other) == key(pos)
        assert _child_keys(model, key, other, game.deal_number) == _child_keys(model, key, pos, game.deal_number)
        first = by_key.setdefault(key(pos), pos)
        if first.piles != pos.piles:
            assert _child_keys(model, key, first, game.deal_number) == _child_keys(
                model, key, pos, game.deal_number
            )
