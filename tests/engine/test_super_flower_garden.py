"""Super Flower Garden: build down regardless of suit, foundations up by suit, two redeals."""

import pytest

from engine import IllegalMove, new_game

from .positions import codes, position, texts


def test_super_flower_garden_deals_17_threes_and_a_single() -> None:
    game = new_game("super-flower-garden", 4)
    assert [len(p) for p in game.tableau] == [3] * 17 + [1]
    assert game.foundations == [[], [], [], []]
    assert game.redeals_left == 2


def test_super_flower_garden_builds_down_regardless_of_suit() -> None:
    game = position("super-flower-garden", {1: "6H", 2: "7C", 3: "8D"})
    moves = texts(game)
    assert "1 2" in moves and "2 3" in moves
    assert "2 1" not in moves  # building up is not allowed
    with pytest.raises(IllegalMove, match="7♣ can't go on 6♥: in Super Flower Garden a card goes on any card exactly one rank higher"):
        game.play("2 1")


def test_super_flower_garden_has_no_wrap() -> None:
    game = position("super-flower-garden", {1: "KH", 2: "AC"}, {1: ""})
    assert "1 2" not in texts(game)


def test_super_flower_garden_foundations_start_empty_and_take_their_ace() -> None:
    game = position("super-flower-garden", {1: "AH", 2: "2H", 3: "AC"})
    with pytest.raises(IllegalMove, match=r"f1 \(♣ A↑\) takes A♣ next"):
        game.play("1 f1")
    game.play("1 f")
    assert codes(game.foundations[2]) == "AH"
    game.play("2 f3")
    assert codes(game.foundations[2]) == "AH 2H"


def test_super_flower_garden_redeal_gathers_in_pile_order_and_deals_threes() -> None:
    game = position("super-flower-garden", {1: "AC 2C", 2: "3C", 5: "4C 5C 6C 7C"})
    before = [c for p in game.tableau for c in p]
    game.play("redeal")
    sizes = [len(p) for p in game.tableau]
    assert sizes == [3, 3, 1] + [0] * 15
    assert sorted(c for p in game.tableau for c in p) == sorted(before)
    assert game.redeals_left == 1
    assert len(game.tableau) == 18


def test_super_flower_garden_remainder_of_two_forms_one_last_pile() -> None:
    game = position("super-flower-garden", {1: "AC 2C", 2: "3C", 3: "4C 5C"})
    game.play("redeal")
    assert [len(p) for p in game.tableau][:3] == [3, 2, 0]


def test_super_flower_garden_allows_exactly_two_redeals() -> None:
    game = new_game("super-flower-garden", 8)
    game.play("redeal")
    game.play("redeal")
    assert game.redeals_left == 0
    assert "redeal" not in texts(game)
    with pytest.raises(IllegalMove, match="No redeals left: Super Flower Garden allows 2 per game"):
        game.play("redeal")


def test_redeal_is_allowed_at_any_moment() -> None:
    game = new_game("super-flower-garden", 8)
    assert texts(game)[-1] == "redeal"


def test_redeal_is_reproducible_and_undo_restores_the_piles() -> None:
    a, b = new_game("super-flower-garden", 21), new_game("super-flower-garden", 21)
    before = [list(p) for p in a.tableau]
    a.play("redeal")
    b.play("redeal")
    assert a.tableau == b.tableau
    after = [list(p) for p in a.tableau]
    a.undo()
    assert a.tableau == before and a.redeals_left == 2
    a.redo()
    assert a.tableau == after and a.redeals_left == 1


def test_second_redeal_uses_its_own_shuffle() -> None:
    game = new_game("super-flower-garden", 21)
    game.play("redeal")
    first = [list(p) for p in game.tableau]
    game.play("redeal")
    assert game.tableau != first
