"""Corner Stones: two decks, foundations fed by their pair of side stacks, corner stones
feed all and refill; stacks typed by number or by name, refused as stacks."""

import pytest

from engine import IllegalMove, new_game

from .positions import codes, position, texts

CORNERS = (1, 2, 11, 12)


def test_corner_stones_uses_two_decks_and_eight_started_foundations() -> None:
    game = new_game("corner-stones", 2)
    assert [len(p) for p in game.tableau] == [8] * 12
    assert [codes(f) for f in game.foundations] == ["AC", "KC", "AD", "KD", "AH", "KH", "AS", "KS"]
    assert sum(map(len, game.tableau)) + sum(map(len, game.foundations)) == 104


def test_side_stacks_feed_only_their_own_row() -> None:
    # Row 1 is piles 3 and 4 (S1, S2) beside f1 and f2; row 3 is piles 7 and 8 beside f5, f6.
    game = position("corner-stones", {3: "2C", 4: "QC", 7: "2D", 8: "QH"})
    assert texts(game)[:3] == ["3 f1", "4 f2", "8 f6"]
    with pytest.raises(IllegalMove, match=r"stack 7 \(S5\) feeds only f5 and f6") as refused:
        game.play("7 f3")
    assert refused.value.reason == "does-not-feed"
    assert refused.value.facts["anywhere"] == "1 (C1), 2 (C2), 11 (C3), 12 (C4)"


@pytest.mark.parametrize("corner", CORNERS)
def test_corner_stone_feeds_every_foundation(corner: int) -> None:
    game = position("corner-stones", {corner: "2S"})
    game.play(f"{corner} f7")
    assert codes(game.foundations[6]) == "AS 2S"


def test_corner_stones_manoeuvre_any_suit_with_wrap() -> None:
    game = position("corner-stones", {3: "KH", 5: "AS", 6: "QC", 9: "5D"})
    moves = set(texts(game))
    assert {"3 5", "5 3", "3 6", "6 3"} <= moves
    with pytest.raises(IllegalMove, match="in Corner Stones a card goes on any card one rank higher or lower"):
        game.play("9 3")


def test_corner_stone_refills_from_any_stack() -> None:
    game = position("corner-stones", {5: "9H 4S", 12: "7C 8D"})
    assert {"5 1", "5 2", "5 11", "12 1"} <= set(texts(game))
    game.play("5 1")
    assert codes(game.tableau[0]) == "4S"


def test_emptied_side_stack_stays_empty() -> None:
    game = position("corner-stones", {1: "5C"})
    with pytest.raises(IllegalMove, match="Stack 3 \\(S1\\) is empty, and in Corner Stones an emptied side stack is never refilled"):
        game.play("1 3")


def test_lone_corner_card_to_another_empty_corner_is_no_move() -> None:
    game = position("corner-stones", {1: "5C", 3: "9H"})
    assert "1 2" not in texts(game)
    with pytest.raises(IllegalMove, match="changes nothing"):
        game.play("1 2")
    assert "3 2" in texts(game)  # a side stack's card may go to a corner


def test_bare_f_is_refused_with_choices_when_two_foundations_fit() -> None:
    game = position("corner-stones", {1: "5C"}, {1: "AC 2C 3C 4C", 2: "KC QC JC 10C 9C 8C 7C 6C"})
    with pytest.raises(IllegalMove, match="fits more than one foundation: type one of 1 f1, 1 f2"
                       ) as refused:
        game.play("1 f")
    assert refused.value.worded(lambda t: f"`{t}`").endswith("type one of `1 f1`, `1 f2`.")
    with pytest.raises(IllegalMove, match="more than one place"):
        game.play("1")
    game.play("1 f2")
    assert codes(game.foundations[1]).endswith("6C 5C")


def test_a_complete_foundation_takes_nothing_more() -> None:
    game = position("corner-stones", {1: "KC", 2: "KC"},
                    {1: "AC 2C 3C 4C 5C 6C 7C 8C 9C 10C JC QC"})
    game.play("1 f1")
    assert len(game.foundations[0]) == 13
    with pytest.raises(IllegalMove, match="f1 is complete"):
        game.play("2 f1")


def test_stacks_are_typed_by_the_names_the_picture_and_the_rules_show() -> None:
    game = position("corner-stones", {1: "5C", 2: "9H", 3: "4D", 7: "10S"})
    assert game.resolve("C1 S1") == game.resolve("1 3") == game.resolve("c1 s1")
    assert game.resolve("S1 C1") == game.resolve("3 1")
    assert game.resolve("C2 S5") == game.resolve("2 7")
    game.play("C1 S1")
    assert codes(game.tableau[2]) == "4D 5C"
    with pytest.raises(IllegalMove, match="s9 in S9 1 is not a stack: a number or a name like C1"):
        game.play("S9 1")


@pytest.mark.parametrize(("text", "reason"), [
    ("3 1", "empty-pile"), ("13 1", "no-such-pile"), ("1 1", "same-pile"),
    ("1 4", "never-refilled"), ("7 f3", "does-not-feed"), ("2", "no-move"),
    ("x 3", "not-a-number"), ("f1 3", "from-foundation"), ("1 2 3", "not-understood"),
])
def test_a_refusal_in_corner_stones_says_stack_never_pile(text: str, reason: str) -> None:
    game = position("corner-stones", {1: "5C", 2: "9H", 7: "2D", 11: "7S"})
    with pytest.raises(IllegalMove) as refused:
        game.play(text)
    said = str(refused.value)
    assert refused.value.reason == reason and "stack" in said.lower(), said
    assert "pile" not in said.lower(), said
