"""What a player types: `7 3`, `7 f2`, `7 f`, `7`, `redeal`, and every refusal."""

import pytest

from engine import IllegalMove, new_game

from .positions import position


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "empty"),
        ("   ", "empty"),
        ("hello", "not a pile number"),
        ("7 3 4", "don't understand"),
        ("f1 3", "never leave a foundation"),
        ("7 fx", "not a foundation"),
        ("99 3", "no pile 99: Trefoil has piles 1 to 16"),
        ("1 17", "no pile 17"),
        ("0 3", "no pile 0"),
        ("1 f5", "no foundation f5: Trefoil has f1 to f4"),
        ("draw", "names one card"),
        ("draw ZZ", "not a card code"),
        ("9" * 3000, "far too long for a move"),
    ],
)
def test_bad_move_text_is_refused_and_changes_nothing(text: str, message: str) -> None:
    game = new_game("trefoil", 42)
    before = game.to_dict(), game.key()
    with pytest.raises(IllegalMove, match=message):
        game.play(text)
    assert (game.to_dict(), game.key()) == before


def test_separators_and_case_are_forgiven() -> None:
    for text in ("1 2", "1,2", "1 -> 2", "1 to 2", " 1   2 ", "1→2"):
        game = position("trefoil", {1: "10H", 2: "JH"})
        assert str(game.play(text)) == "1 2"
    game = position("trefoil", {1: "2S"})
    assert str(game.play("1 F4")) == "1 f4"


def test_empty_source_pile_is_refused() -> None:
    game = position("trefoil", {1: "2S"})
    with pytest.raises(IllegalMove, match="Pile 2 is empty: there is no card to move"):
        game.play("2 1")


def test_a_card_cannot_move_onto_its_own_pile() -> None:
    game = position("trefoil", {1: "2S"})
    with pytest.raises(IllegalMove, match="already on pile 1"):
        game.play("1 1")


def test_bare_source_plays_the_foundation_first() -> None:
    game = position("trefoil", {1: "2S", 2: "3S"})
    assert str(game.play("1")) == "1 f4"


def test_bare_source_plays_the_only_pile_move() -> None:
    game = position("trefoil", {1: "10H", 2: "JH"})
    assert str(game.play("1")) == "1 2"


def test_bare_source_with_several_pile_moves_lists_them() -> None:
    game = position("super-flower-garden", {1: "6H", 2: "7C", 3: "7D"})
    with pytest.raises(IllegalMove, match="type one of 1 2, 1 3") as refused:
        game.play("1")
    assert "type one of `1 2`, `1 3`" in refused.value.worded(lambda t: f"`{t}`")


def test_bare_source_with_no_move_says_so() -> None:
    game = position("trefoil", {1: "9C", 2: "4H"})
    with pytest.raises(IllegalMove, match="9♣ on pile 1 has no legal move now"):
        game.play("1")


def test_bare_f_with_no_fitting_foundation_says_what_each_needs() -> None:
    game = position("trefoil", {1: "9C"})
    with pytest.raises(IllegalMove, match=r"9♣ doesn't fit any foundation now: f1 \(♣ A↑\) takes 2♣ next"):
        game.play("1 f")


def test_legal_moves_list_explicit_foundations_first() -> None:
    game = position("trefoil", {1: "10H", 2: "JH", 3: "2S"})
    assert [str(m) for m in game.legal_moves()] == ["3 f4", "1 2", "redeal"]


def test_every_listed_move_text_plays_back_as_itself() -> None:
    for game_id in ("clover-leaf", "corner-stones", "super-flower-garden"):
        game = new_game(game_id, 77)
        for move in game.legal_moves():
            trial = game.copy()
            assert str(trial.play(str(move))) == str(move)


def test_won_game_refuses_moves() -> None:
    ranks = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]
    full = {f: " ".join(r + suit for r in ranks) for f, suit in ((1, "C"), (2, "D"), (3, "H"))}
    game = position("trefoil", {1: "KS"}, {**full, 4: " ".join(r + "S" for r in ranks[:-1])})
    assert not game.is_won
    game.play("1")
    assert game.is_won and not game.is_stuck
    assert game.cards_on_foundations == 52
    with pytest.raises(IllegalMove, match="won"):
        game.play("redeal")
    assert game.legal_moves() == []


def test_a_pile_number_of_any_length_is_refused_as_no_such_pile() -> None:
    game = new_game("trefoil", 1)
    for text in ("99 1", "99999999999999999999999999 1"):
        with pytest.raises(IllegalMove, match=r"There is no pile 9+: Trefoil has piles 1 to 16"):
            game.play(text)
