"""Deals are fixed by (game, deal number) forever: these pins must never change."""

from collections import Counter

import pytest

from engine import GAMES, RULES, IllegalMove, new_game
from engine.cards import full_deck
from engine.shuffle import SplitMix64, seed_for, shuffled

# First two piles (bottom to top, joined) and the last pile of a few deals of every game.
PINNED = [
    ("clover-leaf", 1, "2C 6D 4S KH 5S 3D", "9S 9H JC"),
    ("clover-leaf", 42, "9H 6S 5C 10D JD QH", "7S 3D QC"),
    ("clover-leaf", 2147483647, "8D 4D 3H AS 3D 10H", "7H 4S 6D"),
    ("four-leaf-clovers", 1, "6D 4H QD 6C 3S QS 7S 10H", "5H 9C 5D KD"),
    ("four-leaf-clovers", 42, "6S 8H 4C 2D KC JC 9S AD", "8S AH QC 8D"),
    ("super-flower-garden", 1, "AC 9D 10D 5S QC QS", "6D"),
    ("super-flower-garden", 42, "9C 6D QC 7S JD 6C", "8C"),
    ("trefoil", 1, "6H 3D KC QH 4S 8D", "3S 5S KH"),
    ("trefoil", 42, "3H 10D JD 3D 7H 8C", "6C QD 8H"),
    ("trefoil", 2147483647, "8C 4D 3D KS 10D 2C", "QH 6C QS"),
    ("corner-stones", 1, "6H 7H 2H 4S 10D 10C 8H JD 3H 3S 4D KD 10D 9H 7D 9D",
     "KC 9S 8C 4S AC 5C 6C QC"),
    ("corner-stones", 42, "5C KC KD 7C 10D 6S 5D 10H 5D 3H 4D 6H 9S 2H JD 10S",
     "8H 5S 9H 10C 5H KS QD 10H"),
]


@pytest.mark.parametrize(("game_id", "deal", "first_two", "last"), PINNED)
def test_deal_is_pinned_forever(game_id: str, deal: int, first_two: str, last: str) -> None:
    game = new_game(game_id, deal)
    assert " ".join(str(c) for pile in game.tableau[:2] for c in pile) == first_two
    assert " ".join(map(str, game.tableau[-1])) == last


def test_redeal_shuffles_are_pinned_forever() -> None:
    game = new_game("super-flower-garden", 7)
    game.play("redeal")
    assert " ".join(map(str, game.tableau[0] + game.tableau[1])) == "10H QH 6D 3H 6S AD"
    game.play("redeal")
    assert " ".join(map(str, game.tableau[0])) == "QD 8S JS"
    game = new_game("trefoil", 7)
    game.play("redeal")
    assert " ".join(map(str, game.tableau[0] + game.tableau[1])) == "8S 2H 3D 9C 7S KS"


def test_splitmix64_matches_the_published_sequence() -> None:
    rng = SplitMix64(0)
    assert [rng.next() for _ in range(3)] == [
        0xE220A8397B1DCDAF,
        0x6E789E6AA1B965F4,
        0x06C45D188009454F,
    ]


def test_seed_depends_on_game_deal_and_round() -> None:
    seeds = {seed_for(g, d, r) for g in ("trefoil", "clover-leaf") for d in (1, 2) for r in (0, 1)}
    assert len(seeds) == 8


def test_shuffle_is_a_permutation_and_leaves_its_input_alone() -> None:
    items = list(range(52))
    out = shuffled(items, "trefoil", 5, 0)
    assert items == list(range(52))
    assert sorted(out) == items
    assert out != items


@pytest.mark.parametrize("game_id", list(GAMES))
def test_every_card_is_dealt_exactly_once(game_id: str) -> None:
    rules = RULES[game_id]
    game = new_game(game_id, 12345)
    dealt = Counter(c for pile in game.tableau + game.foundations for c in pile)
    assert dealt == Counter(full_deck(rules.decks))
    assert [len(p) for p in game.tableau] == list(rules.deal_sizes)


@pytest.mark.parametrize("game_id", list(GAMES))
def test_same_number_same_deal_other_number_other_deal(game_id: str) -> None:
    assert new_game(game_id, 99).tableau == new_game(game_id, 99).tableau
    assert new_game(game_id, 99).tableau != new_game(game_id, 100).tableau


def test_games_lists_the_five_ids_with_display_names() -> None:
    assert GAMES == {
        "clover-leaf": "Clover Leaf",
        "four-leaf-clovers": "Four Leaf Clovers",
        "super-flower-garden": "Super Flower Garden",
        "trefoil": "Trefoil",
        "corner-stones": "Corner Stones",
    }


@pytest.mark.parametrize("deal", [0, -1, 2**31, 1.5, "7", True])
def test_bad_deal_numbers_are_refused(deal: object) -> None:
    with pytest.raises(ValueError, match="deal number"):
        new_game("trefoil", deal)  # type: ignore[arg-type]


def test_unknown_game_is_refused_with_the_list() -> None:
    with pytest.raises(ValueError, match="trefoil"):
        new_game("klondike", 1)


def test_draw_house_rule_exists_only_in_trefoil() -> None:
    assert new_game("trefoil", 1, draw=True).draw_rule
    with pytest.raises(ValueError):
        new_game("clover-leaf", 1, draw=True)
    assert not isinstance(ValueError(), IllegalMove)
