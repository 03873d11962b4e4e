"""Undo, redo and the saved form."""

import json

import pytest

from engine import DRAW, FOUNDATION, PILE, REDEAL, Game, IllegalMove, Move, new_game
from engine.cards import parse_card

from .positions import position


def test_undo_and_redo_walk_the_history() -> None:
    game = position("trefoil", {1: "10H", 2: "JH", 3: "2S"})
    game.play("1 2")
    game.play("3 f4")
    assert game.moves_made == 2
    assert str(game.undo()) == "3 f4"
    assert str(game.undo()) == "1 2"
    with pytest.raises(IllegalMove, match="Nothing to undo"):
        game.undo()
    assert str(game.redo()) == "1 2"
    assert game.moves_made == 1 and game.can_redo


def test_a_new_move_clears_redo_but_the_redone_move_keeps_it() -> None:
    game = position("trefoil", {1: "10H", 2: "JH", 3: "2S"})
    game.play("1 2")
    game.play("3 f4")
    game.undo()
    game.undo()
    game.play("1 2")  # the same as redo: the line is kept
    assert game.can_redo
    game.undo()
    game.play("3 f4")  # another move: redo is gone
    assert not game.can_redo
    with pytest.raises(IllegalMove, match="Nothing to redo"):
        game.redo()


def test_to_dict_is_json_and_round_trips_history_and_redo() -> None:
    game = new_game("super-flower-garden", 3)
    for _ in range(3):
        game.play(game.legal_moves()[0])
    game.play("redeal")
    game.play(game.legal_moves()[0])
    game.undo()
    data = json.loads(json.dumps(game.to_dict()))
    copy = Game.from_dict(data)
    assert copy.key() == game.key()
    assert copy.history == game.history
    assert copy.to_dict() == data
    assert copy.redo() == game.redo()
    assert copy.key() == game.key()


def test_saved_draw_game_round_trips() -> None:
    game = new_game("trefoil", 3, draw=True)
    game.play("redeal")
    game.play("redeal")
    buried = game.tableau[0][0]
    game.play(f"draw {buried}")
    copy = Game.from_dict(game.to_dict())
    assert copy.key() == game.key() and copy.draw_used


def test_a_game_saved_by_an_earlier_version_reads_back_move_for_move() -> None:
    """Saved moves are what a player types, dashes for spaces, whatever the Move type
    is made of: this one was saved before moves had their kinds named."""
    saved = {"format": 1, "game": "trefoil", "deal": 1, "moves": "4-f2 3-10 redeal redeal",
             "redo": "draw-4D", "draw": True}
    game = Game.from_dict(saved)
    assert game.history == [Move(FOUNDATION, 3, 1), Move(PILE, 2, 9), Move(REDEAL),
                            Move(REDEAL)]
    drawn = game.redo()
    assert drawn == Move(DRAW, card=parse_card("4D")) and (drawn.src, drawn.dst) == (-1, -1)
    game.undo()
    assert game.to_dict() == saved


def test_a_move_is_the_solvers_three_ints_and_back() -> None:
    game = new_game("trefoil", 1, draw=True)
    game.play("redeal")
    game.play("redeal")
    for move in game.legal_moves():
        assert all(type(n) is int for n in move.raw)
        assert Move.from_raw(move.raw) == move and type(Move.from_raw(move.raw).kind) is type(move.kind)
    assert Move(DRAW, card=parse_card("4D")).raw == (3, -1, int(parse_card("4D")))


def test_safe_moves_played_with_the_deal_are_the_deals_own_and_saved() -> None:
    game = new_game("trefoil", 27)
    played = game.play_safe_moves_with_deal()
    assert played and game.moves_made == game.moves_with_deal == len(played)
    copy = Game.from_dict(json.loads(json.dumps(game.to_dict())))
    assert copy.moves_with_deal == game.moves_with_deal and copy.key() == game.key()
    assert game.copy().moves_with_deal == game.moves_with_deal
    assert "dealt" not in new_game("trefoil", 27).to_dict(), "absent while there are none"
    game.play(game.legal_moves()[0])
    assert game.own_moves == 1
    with pytest.raises(ValueError, match="as dealt"):
        game.play_safe_moves_with_deal()


def test_undoing_into_the_deals_own_moves_leaves_the_rest_to_the_player() -> None:
    game = new_game("trefoil", 27)
    dealt = len(game.play_safe_moves_with_deal())
    game.undo()
    game.undo()
    assert game.moves_with_deal == dealt - 2 and game.own_moves == 0
    game.redo()  # a move the player made, though the deal had made it before
    assert game.moves_with_deal == dealt - 2 and game.own_moves == 1
    copy = Game.from_dict(game.to_dict())
    assert (copy.moves_with_deal, copy.own_moves) == (dealt - 2, 1)


@pytest.mark.parametrize(
    "data",
    [
        {},
        {"format": 99, "game": "trefoil", "deal": 1, "moves": "", "redo": ""},
        {"format": 1, "game": "chess", "deal": 1, "moves": "", "redo": ""},
        {"format": 1, "game": "trefoil", "deal": 1, "moves": "1-99", "redo": ""},
        {"format": 1, "game": "trefoil", "deal": 1, "moves": 5, "redo": ""},
    ],
)
def test_from_dict_refuses_what_it_did_not_save(data: dict) -> None:  # type: ignore[type-arg]
    with pytest.raises(ValueError):
        Game.from_dict(data)


def test_a_copy_undoes_a_redeal_without_touching_the_original() -> None:
    game = new_game("super-flower-garden", 4)
    before = [list(p) for p in game.tableau]
    game.play("redeal")
    twin = game.copy()
    twin.undo()
    twin.play(twin.legal_moves()[0])  # plays on the piles the undo put back
    game.undo()
    assert game.tableau == before


def test_a_position_with_no_move_of_the_players_own_is_the_deals_own() -> None:
    """Lost there is lost as dealt (no undo can help); once the player has moved, only the
    solver's word on the deal says so."""
    game = new_game("trefoil", 27)
    assert game.play_safe_moves_with_deal() and game.lost_as_dealt()
    game.play(game.legal_moves()[0])
    assert not game.lost_as_dealt()
    assert game.lost_as_dealt(deal_lost=True)
    game.undo()
    assert game.lost_as_dealt()
