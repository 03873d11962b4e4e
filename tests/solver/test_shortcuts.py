"""The solver's shortcuts come from the rules: each pruning argument holds only for
certain rule values, which are read off ``Rules``. An edited rule changes or switches
off a shortcut (and a test here says which), never silently corrupts a verdict."""

import dataclasses
import random
import sys

import pytest

from engine import RULES, Rules, parse_card
from engine.solver import solve
from engine.solver.keys import key_function, suits_never_matter
from engine.solver.model import Model, model_for
from engine.solver.prune import Shortcuts, shortcuts_for
from tests.solver.test_exhaustive import endgame, engine_can_win


def cuts(rules: Rules) -> Shortcuts:
    return shortcuts_for(Model(rules))


def slot(model: Model, code: str) -> tuple[int, int]:
    (place,) = model.goes_up[int(parse_card(code))]
    return place


# What each game's shortcuts are today: (safe moves by the run argument, every card has
# one slot, the last cycle's height, the rank-only key, the last card rule). A rule edit that changes one
# of these fails here: check the argument in prune.py / keys.py still holds.
ARGUED = {
    "clover-leaf": (True, True, None, False, False),
    "trefoil": (True, True, None, False, False),
    "super-flower-garden": (True, True, None, False, False),
    "four-leaf-clovers": (False, False, 39, True, True),
    "corner-stones": (False, False, None, False, False),
}


@pytest.mark.parametrize("game_id", sorted(ARGUED))
def test_each_games_shortcuts_are_the_ones_argued_for_its_rules(game_id: str) -> None:
    found = shortcuts_for(model_for(game_id))
    rules = RULES[game_id]
    assert (
        found.safe_needs is not None,
        found.one_slot,
        found.last_cycle,
        suits_never_matter(rules),
        found.last_cards is not None,
    ) == ARGUED[game_id]


def test_clover_leaf_and_trefoil_cards_are_always_safe_to_put_up() -> None:
    for game_id in ("clover-leaf", "trefoil"):
        needs = shortcuts_for(model_for(game_id)).safe_needs
        assert needs is not None
        assert {n for n in needs if n is not None} == {()}


def test_a_super_flower_garden_card_is_safe_once_the_four_lower_cards_are_up() -> None:
    model = model_for("super-flower-garden")
    needs = shortcuts_for(model).safe_needs
    assert needs is not None
    assert set(needs[int(parse_card("5H"))] or ()) == {
        slot(model, code) for code in ("4C", "4D", "4S")  # 4♥ is up before 5♥ anyway
    }


def test_a_refillable_pile_switches_off_safe_moves_and_the_dead_check() -> None:
    edited = dataclasses.replace(RULES["clover-leaf"], refillable=frozenset({0}))
    found = cuts(edited)
    assert found.safe_needs is None and not found.one_slot and not found.dead_checked


def test_piles_feeding_only_some_foundations_switch_off_safe_moves_and_the_dead_check() -> None:
    feeds = tuple(frozenset({p % 4}) for p in range(16))
    found = cuts(dataclasses.replace(RULES["trefoil"], feeds=feeds))
    assert found.safe_needs is None and not found.dead_checked


def test_trefoil_building_regardless_of_suit_makes_a_card_wait_for_the_lower_ones() -> None:
    edited = Model(dataclasses.replace(RULES["trefoil"], same_suit=False))
    needs = shortcuts_for(edited).safe_needs
    assert needs is not None
    assert set(needs[int(parse_card("5H"))] or ()) == {
        slot(edited, code) for code in ("4C", "4D", "4S")
    }


def test_a_second_deck_switches_off_the_one_slot_arguments() -> None:
    found = cuts(dataclasses.replace(RULES["super-flower-garden"], decks=2))
    assert found.safe_needs is None and not found.one_slot


def test_four_leaf_clovers_edited_to_look_at_suits_loses_its_rank_only_key() -> None:
    edited = Model(dataclasses.replace(RULES["four-leaf-clovers"], same_suit=True))
    assert not suits_never_matter(edited.rules)
    pos = edited.position(_flc_game(edited.rules))
    assert key_function(edited, pos) == edited.exact_key  # its piles keep their places


def test_a_refillable_pile_switches_off_the_last_card_rule() -> None:
    # A King could then reach an empty pile, with nothing under it.
    assert cuts(RULES["four-leaf-clovers"]).last_cards is not None
    edited = dataclasses.replace(RULES["four-leaf-clovers"], refillable=frozenset({0}))
    assert cuts(edited).last_cards is None


def test_four_leaf_clovers_building_two_ranks_apart_has_no_last_cycle_argument() -> None:
    # The last cycle's argument needs the cards landing on a card to be a rank away.
    edited = dataclasses.replace(RULES["four-leaf-clovers"], steps=(2, -2))
    assert cuts(edited).last_cycle is None and not cuts(edited).dead_checked


def _flc_game(rules: Rules):
    from engine import new_game

    game = new_game("four-leaf-clovers", 1)
    game.rules = rules
    return game


# Positions per solve: these endgames are decided within a hundred (measured).
POSITIONS = 20_000

# Edited rules the arguments still cover, derived anew: the verdicts must stay exact.
EDITS = {
    "clover-leaf with A and K adjacent": ("clover-leaf", {"wrap": True}),
    "trefoil building regardless of suit": ("trefoil", {"same_suit": False}),
    "super-flower-garden building up and down": ("super-flower-garden", {"steps": (1, -1)}),
}


@pytest.mark.parametrize("name", sorted(EDITS))
def test_verdicts_under_edited_rules_match_brute_force(name: str) -> None:
    sys.setrecursionlimit(10_000)
    game_id, change = EDITS[name]
    rules = dataclasses.replace(RULES[game_id], **change)
    rng = random.Random(name)
    verdicts = {"won": 0, "lost": 0}
    for _ in range(40):
        game = endgame(game_id, rng, rng.randrange(3, 9), rules=rules)
        game.redeals_left = 0
        expected = "won" if engine_can_win(game.copy(), set()) else "lost"
        assert solve(game, positions=POSITIONS).status == expected, (game.tableau, game.foundations)
        verdicts[expected] += 1
    assert verdicts["won"] > 3 and verdicts["lost"] > 3, verdicts
