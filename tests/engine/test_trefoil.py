"""Trefoil: aces start on the foundations; build down in suit; two redeals; optional draw."""

import pytest

from engine import IllegalMove, new_game

from .positions import codes, position, texts


def test_trefoil_starts_with_aces_up_and_16_fans_of_three() -> None:
    game = new_game("trefoil", 5)
    assert [codes(f) for f in game.foundations] == ["AC", "AD", "AH", "AS"]
    assert [len(p) for p in game.tableau] == [3] * 16
    assert game.redeals_left == 2


def test_trefoil_builds_down_in_suit() -> None:
    game = position("trefoil", {1: "10H", 2: "JH", 3: "JS", 4: "9H"})
    moves = texts(game)
    assert "1 2" in moves and "4 1" in moves
    assert "1 3" not in moves and "2 1" not in moves


def test_trefoil_refusal_names_card_and_rule() -> None:
    game = position("trefoil", {1: "9C", 2: "4H"})
    with pytest.raises(IllegalMove) as err:
        game.play("1 2")
    assert str(err.value) == (
        "9♣ can't go on 4♥: in Trefoil a card goes on the next higher card of its own suit."
    )


def test_trefoil_foundations_build_up_in_suit() -> None:
    game = position("trefoil", {1: "2S", 2: "3S", 3: "2D"})
    with pytest.raises(IllegalMove, match="3♠ can't go on f4"):
        game.play("2 f4")
    game.play("1 f4")
    game.play("2 f")
    assert codes(game.foundations[3]) == "AS 2S 3S"


def test_trefoil_redeal_never_needs_more_than_16_piles() -> None:
    game = new_game("trefoil", 5)
    game.play("redeal")
    assert len(game.tableau) == 16
    assert [len(p) for p in game.tableau] == [3] * 16


def test_trefoil_draw_is_off_by_default() -> None:
    game = position("trefoil", {1: "5H 9C"}, redeals_left=0)
    assert not any(t.startswith("draw") for t in texts(game))
    with pytest.raises(IllegalMove, match="draw house rule is off"):
        game.play("draw 5H")


def test_a_draw_in_a_game_without_the_house_rule_says_whose_rule_it_is() -> None:
    game = position("clover-leaf", {1: "5H 9C"}, redeals_left=0)
    with pytest.raises(IllegalMove, match="The draw house rule belongs to Trefoil only") as err:
        game.play("draw 5H")
    assert err.value.reason == "no-draw-rule"


def test_trefoil_draw_comes_after_the_last_redeal_only_once() -> None:
    game = position("trefoil", {1: "5H 9C 8D", 2: "QS"}, redeals_left=1, draw=True)
    with pytest.raises(IllegalMove, match="after the last redeal"):
        game.play("draw 5H")
    game.redeals_left = 0
    assert [t for t in texts(game) if t.startswith("draw")] == ["draw 5H", "draw 9C"]
    game.play("draw 5H")
    assert codes(game.tableau[0]) == "9C 8D 5H"
    with pytest.raises(IllegalMove, match="used"):
        game.play("draw 9C")
    game.undo()
    assert codes(game.tableau[0]) == "5H 9C 8D"
    assert game.draw_available


def test_trefoil_draw_refuses_a_top_card() -> None:
    game = position("trefoil", {1: "5H 9C"}, redeals_left=0, draw=True)
    with pytest.raises(IllegalMove, match="already on top"):
        game.play("draw 9C")


def test_trefoil_is_stuck_only_when_no_move_and_no_redeal() -> None:
    game = position("trefoil", {1: "5H 9C"}, redeals_left=1)
    assert not game.is_stuck
    game.redeals_left = 0
    assert game.is_stuck
    game.draw_rule = True
    assert not game.is_stuck  # the draw is still a move
