"""Each game is described once, in engine/rules.py; the rules document is made from it."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from engine import GAMES, RULES, BadSetup, check_setup, new_game
from engine.__main__ import layout_text
from engine.rulebook import document, move_example

DOCS = Path(__file__).resolve().parents[2] / "docs" / "RULES.md"


def test_the_rules_document_is_what_the_engine_says() -> None:
    assert DOCS.read_text(encoding="utf-8") == document(), (
        "docs/RULES.md is out of date: run `python -m engine rules > docs/RULES.md`"
    )


def test_the_document_follows_an_edited_rule() -> None:
    trefoil = RULES["trefoil"]
    edited = dataclasses.replace(trefoil, redeals=3)
    RULES["trefoil"] = edited
    try:
        assert "Redeals: 3." in document()
    finally:
        RULES["trefoil"] = trefoil
    assert "Redeals: 2." in document()


@pytest.mark.parametrize("game_id", list(GAMES))
def test_every_game_has_its_words(game_id: str) -> None:
    rules = RULES[game_id]
    assert rules.intro and rules.summary and rules.note and rules.build_text
    for text in (rules.intro, rules.note, str(rules.build_text), *rules.summary,
                 *rules.decisions):
        assert "`" not in text and "**" not in text  # plain text: interfaces add markup


@pytest.mark.parametrize("game_id", list(GAMES))
def test_the_move_example_names_a_real_move_shape(game_id: str) -> None:
    rules = RULES[game_id]
    words = move_example(rules).split()
    src, dst = int(words[1]), int(words[2])
    assert 1 <= src <= rules.tableau_size and 1 <= dst <= rules.tableau_size and src != dst
    foundation = words[-1].rstrip(".")
    assert 1 <= int(foundation[1:]) <= len(rules.foundations)
    if rules.feeds is not None:
        assert int(foundation[1:]) - 1 in rules.feeds[src - 1]


def test_corner_stones_text_names_its_corners_from_the_rules() -> None:
    text = layout_text(new_game("corner-stones", 1))
    assert "Piles 1 (C1), 2 (C2), 11 (C3), 12 (C4) feed every foundation." in text


@pytest.mark.parametrize(
    ("game_id", "deal", "draw", "reason"),
    [("hearts", None, False, "unknown-game"), ("trefoil", 0, False, "bad-deal"),
     ("trefoil", 2**31, False, "bad-deal"), ("clover-leaf", 5, True, "no-draw-rule")],
)
def test_check_setup_refuses_with_its_reason(
    game_id: str, deal: int | None, draw: bool, reason: str
) -> None:
    with pytest.raises(BadSetup) as refused:
        check_setup(game_id, deal, draw=draw)
    assert refused.value.reason == reason
    with pytest.raises(BadSetup):
        new_game(game_id, 1 if deal is None else deal, draw=draw)


def test_an_unknown_game_is_not_echoed_whole() -> None:
    with pytest.raises(BadSetup) as refused:
        check_setup("x" * 2000)
    assert len(str(refused.value)) < 300
