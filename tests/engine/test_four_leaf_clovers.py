"""Four Leaf Clovers: one foundation from any Ace, up regardless of suit, wrapping, 52 cards."""

import pytest

from engine import IllegalMove, new_game

from .positions import codes, position, texts


def test_four_leaf_clovers_deals_13_piles_of_four_and_one_empty_foundation() -> None:
    game = new_game("four-leaf-clovers", 9)
    assert [len(p) for p in game.tableau] == [4] * 13
    assert game.foundations == [[]]


def test_four_leaf_clovers_foundation_starts_with_any_ace_only() -> None:
    game = position("four-leaf-clovers", {1: "AS", 2: "2S"})
    with pytest.raises(IllegalMove, match=r"2♠ can't go on f1: f1 \(any A↑\) takes any A to start"):
        game.play("2 f1")
    game.play("1 f")
    assert codes(game.foundations[0]) == "AS"


def test_four_leaf_clovers_foundation_builds_up_regardless_of_suit_and_wraps() -> None:
    game = position("four-leaf-clovers", {1: "AC", 2: "2H", 3: "5D"},
                    {1: "AD 2D 3D 4D 5D 6D 7D 8D 9D 10D JD QD KD"})
    game.play("1 f1")  # K -> A wraps
    game.play("2 f1")  # then any suit
    assert codes(game.foundations[0])[-8:] == "KD AC 2H"
    with pytest.raises(IllegalMove, match="takes any 3 next"):
        game.play("3 f1")


def test_four_leaf_clovers_foundation_takes_all_52_cards() -> None:
    game = new_game("four-leaf-clovers", 1)
    all_cards = sorted((c for p in game.tableau for c in p), key=lambda c: (c.rank, c.suit))
    # Arrange the foundation as four full cycles A..K: 51 cards, the last K still to play.
    cycles = [c for _ in range(4) for c in range(13)]
    by_rank = {r: [c for c in all_cards if c.rank == r] for r in range(1, 14)}
    order = [by_rank[r + 1].pop() for r in cycles]
    game.foundations = [order[:-1]]
    game.tableau = [[order[-1]]] + [[] for _ in range(12)]
    game.play("1 f1")
    assert game.is_won
    assert len(game.foundations[0]) == 52


def test_four_leaf_clovers_tableau_any_suit_up_or_down_with_wrap() -> None:
    game = position("four-leaf-clovers", {1: "KS", 2: "AH", 3: "QD", 4: "5C"})
    moves = set(texts(game))
    assert {"1 2", "2 1", "1 3", "3 1"} <= moves  # K-A wraps, K-Q adjacent, suits ignored
    assert "4 1" not in moves
    with pytest.raises(IllegalMove, match="in Four Leaf Clovers a card goes on any card one rank higher or lower"):
        game.play("4 1")


def test_four_leaf_clovers_never_refills_an_empty_pile() -> None:
    game = position("four-leaf-clovers", {1: "KS"})
    with pytest.raises(IllegalMove, match="never refilled"):
        game.play("1 2")
