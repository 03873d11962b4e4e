"""Clover Leaf: A♦ A♥ up, K♣ K♠ down; tableau same suit up or down, no wrap."""

import pytest

from engine import RULES, IllegalMove, new_game, parse_card

from .positions import codes, position, texts


def test_clover_leaf_starts_with_its_four_base_cards_and_16_fans_of_three() -> None:
    game = new_game("clover-leaf", 3)
    assert [codes(f) for f in game.foundations] == ["AD", "AH", "KC", "KS"]
    assert [len(p) for p in game.tableau] == [3] * 16
    assert game.redeals_left == 0


def test_clover_leaf_builds_up_or_down_in_suit() -> None:
    game = position("clover-leaf", {1: "7C", 2: "8C", 3: "6C", 4: "8D"})
    assert {"1 2", "1 3"} <= set(texts(game))
    game.play("1 2")
    assert codes(game.tableau[1]) == "8C 7C"
    game.play("2 3")  # 7♣ onto 6♣: down is fine too
    assert codes(game.tableau[2]) == "6C 7C"


def test_clover_leaf_refuses_another_suit() -> None:
    game = position("clover-leaf", {1: "7C", 4: "8D"})
    with pytest.raises(IllegalMove, match="7♣ can't go on 8♦: in Clover Leaf a card goes on a card of its own suit"):
        game.play("1 4")


def test_clover_leaf_has_no_wrap() -> None:
    rules = RULES["clover-leaf"]
    assert not rules.builds_on(parse_card("AC"), parse_card("KC"))
    assert not rules.builds_on(parse_card("KD"), parse_card("AD"))
    assert rules.builds_on(parse_card("QD"), parse_card("KD"))


def test_clover_leaf_foundations_build_up_and_down_by_suit() -> None:
    game = position("clover-leaf", {1: "2D", 2: "QC", 3: "2H", 4: "QS"})
    assert texts(game)[:4] == ["1 f1", "2 f3", "3 f2", "4 f4"]
    game.play("2 f3")
    assert codes(game.foundations[2]) == "KC QC"


def test_clover_leaf_refuses_the_wrong_foundation() -> None:
    game = position("clover-leaf", {1: "3D", 2: "2H"})
    with pytest.raises(IllegalMove, match=r"3♦ can't go on f1: f1 \(♦ A↑\) takes 2♦ next"):
        game.play("1 f1")
    with pytest.raises(IllegalMove, match="2♥ can't go on f1"):
        game.play("2 f1")


def test_clover_leaf_never_refills_an_empty_pile() -> None:
    game = position("clover-leaf", {1: "7C"})
    with pytest.raises(IllegalMove, match="Pile 2 is empty, and in Clover Leaf an emptied pile is never refilled"):
        game.play("1 2")


def test_clover_leaf_only_the_top_card_moves() -> None:
    game = position("clover-leaf", {1: "2D 9S", 2: "10S"})
    assert texts(game) == ["1 2", "2 1"]
