"""Properties over random deals and random play, for every game."""

import dataclasses
import pickle
from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from engine import GAMES, MAX_DEAL, Game, new_game
from engine.cards import Card, full_deck
from engine.moves import Move
from engine.rules import RULES

games = st.sampled_from(list(GAMES))
deals = st.integers(min_value=1, max_value=MAX_DEAL)
choices = st.lists(st.integers(min_value=0, max_value=10_000), max_size=60)


def play_out(game: Game, picks: list[int]) -> None:
    """Play moves chosen by ``picks`` (indices into the legal moves) until they or the game end."""
    for pick in picks:
        moves = game.legal_moves()
        if not moves:
            return
        game.play(moves[pick % len(moves)])


@settings(max_examples=60, deadline=None)
@given(games, deals, choices)
def test_cards_are_conserved(game_id: str, deal: int, picks: list[int]) -> None:
    game = new_game(game_id, deal, draw=game_id == "trefoil")
    play_out(game, picks)
    held = Counter(c for pile in game.tableau + game.foundations for c in pile)
    assert held == Counter(full_deck(game.rules.decks))
    assert len(game.tableau) == len(game.rules.deal_sizes)


@settings(max_examples=60, deadline=None)
@given(games, deals, choices)
def test_undo_restores_exactly_and_undo_all_returns_to_the_deal(
    game_id: str, deal: int, picks: list[int]
) -> None:
    game = new_game(game_id, deal, draw=game_id == "trefoil")
    start = game.key()
    seen = [game.key()]
    for pick in picks:
        moves = game.legal_moves()
        if not moves:
            break
        game.play(moves[pick % len(moves)])
        seen.append(game.key())
    while game.can_undo:
        seen.pop()
        game.undo()
        assert game.key() == seen[-1]
    assert game.key() == start == new_game(game_id, deal).key()


@settings(max_examples=60, deadline=None)
@given(games, deals, choices, st.integers(min_value=0, max_value=20))
def test_to_dict_round_trips(game_id: str, deal: int, picks: list[int], undos: int) -> None:
    game = new_game(game_id, deal)
    play_out(game, picks)
    for _ in range(min(undos, game.moves_made)):
        game.undo()
    copy = Game.from_dict(game.to_dict())
    assert copy.key() == game.key()
    assert copy.to_dict() == game.to_dict()
    while game.can_redo:
        assert copy.redo() == game.redo()
        assert copy.key() == game.key()


@settings(max_examples=60, deadline=None)
@given(games, deals, choices, st.integers(min_value=0, max_value=20))
def test_a_pickled_game_is_the_same_game_with_the_same_undo_and_redo(
    game_id: str, deal: int, picks: list[int], undos: int
) -> None:
    game = new_game(game_id, deal, draw=game_id == "trefoil")
    play_out(game, picks)
    for _ in range(min(undos, game.moves_made)):
        game.undo()
    twin = pickle.loads(pickle.dumps(game, protocol=pickle.HIGHEST_PROTOCOL))
    assert twin.rules is game.rules, "one of the five games' rules, not a copy"
    assert (twin.key(), twin.to_dict(), twin.history, twin.last_move) == (
        game.key(), game.to_dict(), game.history, game.last_move
    )
    assert all(type(c) is Card for pile in twin.tableau + twin.foundations for c in pile)
    assert all(type(m) is Move for m in twin.history)
    while game.can_redo:
        assert twin.redo() == game.redo()
    while game.can_undo:
        assert twin.undo() == game.undo()
        assert twin.key() == game.key() and twin.tableau == game.tableau


def test_rules_made_outside_the_five_games_are_pickled_whole() -> None:
    variant = dataclasses.replace(RULES["trefoil"], redeals=5)
    twin = pickle.loads(pickle.dumps(variant))
    assert twin == variant and twin.redeals == 5 and twin is not RULES["trefoil"]


@settings(max_examples=40, deadline=None)
@given(st.sampled_from(["super-flower-garden", "trefoil"]), deals, choices)
def test_redeal_is_reproducible(game_id: str, deal: int, picks: list[int]) -> None:
    game = new_game(game_id, deal)
    play_out(game, picks)
    twin = Game.from_dict(game.to_dict())
    if game.redeals_left and not game.is_won:
        game.play("redeal")
        twin.play("redeal")
        assert game.tableau == twin.tableau
        after = game.key()
        game.undo()
        game.redo()
        assert game.key() == after


@settings(max_examples=80, deadline=None)
@given(games, deals, choices)
def test_stuck_exactly_when_no_legal_move_is_left(game_id: str, deal: int, picks: list[int]) -> None:
    game = new_game(game_id, deal)
    play_out(game, picks + [0] * 200)
    assert game.is_stuck == (not game.is_won and not game.legal_moves())


@settings(max_examples=40, deadline=None)
@given(games, deals)
def test_every_legal_move_is_accepted_and_every_other_pile_move_refused(game_id: str, deal: int) -> None:
    game = new_game(game_id, deal)
    legal = {str(m) for m in game.legal_moves()}
    size = len(game.tableau)
    for src in range(1, size + 1):
        targets = [str(d) for d in range(1, size + 1)]
        targets += [f"f{f}" for f in range(1, len(game.foundations) + 1)]
        for dst in targets:
            text = f"{src} {dst}"
            trial = game.copy()
            try:
                trial.play(text)
                accepted = True
            except ValueError:
                accepted = False
            assert accepted == (text in legal), text
