"""Positions worth drawing: start, mid-game, after a redeal, won, stuck, and long piles."""

from __future__ import annotations

import random

from engine import REDEAL, Game, new_game, parse_card


def start(game_id: str) -> Game:
    return new_game(game_id, 42)


def mid_game(game_id: str, moves: int = 25, seed: int = 7) -> Game:
    """Random play (no redeals) from deal 42, stopping short of a stuck end."""
    game = new_game(game_id, 42)
    rng = random.Random(seed)
    for _ in range(moves):
        choices = [m for m in game.legal_moves() if m.kind != REDEAL]
        if not choices:
            break
        game.play(rng.choice(choices))
        if game.is_stuck or game.is_won:
            game.undo()
            break
    return game


def after_redeal(game_id: str) -> Game:
    game = mid_game(game_id, moves=10)
    game.play("redeal")
    return game


def won(game_id: str) -> Game:
    """Every card moved onto its foundation, in the order the foundations take them."""
    game = new_game(game_id, 42)
    cards = [c for pile in game.tableau for c in pile]
    for spec, foundation in zip(game.rules.foundations, game.foundations, strict=True):
        while wanted := [c for c in spec.next_cards(foundation) if c in cards]:
            cards.remove(wanted[0])
            foundation.append(wanted[0])
    game.tableau = [[] for _ in game.tableau]
    assert game.is_won and not cards
    return game


# Top cards that fit no foundation and no other top card, game by game.
_STUCK = {
    "clover-leaf": ["2D 7C", "2H 9S"],
    "four-leaf-clovers": ["AC 7H", "AD 10S"],
    "super-flower-garden": ["AC 7H", "AD 9S"],
    "trefoil": ["2C 7H", "2D 9S"],
    # Corner Stones: every corner stone full (an empty one takes any card), tops 5, 7 and 9.
    "corner-stones": [f"3C {rank}{suit}" for suit in "CDHS" for rank in ("5", "7", "9")],
}


def stuck(game_id: str) -> Game:
    game = new_game(game_id, 42)
    game.tableau = [[] for _ in game.tableau]
    for i, codes in enumerate(_STUCK[game_id]):
        game.tableau[i] = [parse_card(code) for code in codes.split()]
    game.redeals_left = 0
    assert game.is_stuck
    return game


def long_piles(game_id: str, lengths: list[int]) -> Game:
    """Deal 42's cards laid into piles of the given lengths (the rest empty)."""
    game = new_game(game_id, 42)
    cards = [c for pile in game.tableau for c in pile]
    assert sum(lengths) <= len(cards)
    piles = []
    for length in lengths:
        piles.append(cards[:length])
        cards = cards[length:]
    game.tableau = piles + [[] for _ in range(len(game.tableau) - len(piles))]
    return game
