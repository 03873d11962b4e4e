"""Positions worth drawing: start, mid-game, after a redeal, won, stuck, and long piles."""

from __future__ import annotations

import random
from collections.abc import Callable

from engine import FOUNDATION, REDEAL, Game, Move, new_game, parse_card


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


# -- long piles reached in play -------------------------------------------------------------


def longest_pile(game: Game) -> int:
    return max(map(len, game.tableau))


def two_longest(game: Game) -> int:
    first, second = sorted(map(len, game.tableau))[-2:]
    return first + second


def every_row(game: Game) -> int:
    """Each row of the resting layout's longest pile, added up: how tall the picture
    would grow if nothing wrapped."""
    from render import layout

    rows: dict[int, int] = {}
    for slot, pile in zip(layout(game.game_id).piles, game.tableau, strict=True):
        rows[slot.row] = max(rows.get(slot.row, 0), len(pile))
    return sum(rows.values())


def lengthened(game_id: str, deal: int, score: Callable[[Game], int], budget: int) -> Game:
    """The position ``score`` rates highest among those reached from ``deal`` by legal
    moves: searched depth-first, each position's moves tried best-rated first (moves to a
    foundation last, since they shorten a pile), ``budget`` positions in all, the same on
    every machine. Its history is the way there, each move a player could make."""
    game = new_game(game_id, deal)
    seen = {game.key()}
    best, best_score = list(game.history), score(game)
    stack = [_ordered(game, score, seen)]
    while stack and budget > 0:
        if not stack[-1]:
            stack.pop()
            if game.history:
                game.pop()
            continue
        game.push(stack[-1].pop())
        key = game.key()
        if key in seen:
            game.pop()
            continue
        seen.add(key)
        budget -= 1
        if (rated := score(game)) > best_score:
            best, best_score = list(game.history), rated
        stack.append(_ordered(game, score, seen))
    found = new_game(game_id, deal)
    for move in best:
        found.push(move)
    return found


def _ordered(game: Game, score: Callable[[Game], int], seen: set[object]) -> list[Move]:
    """The position's moves to positions not seen yet, the best-rated last (popped first)."""
    rated = []
    for n, move in enumerate(game.legal_moves()):
        game.push(move)
        if game.key() not in seen:
            rated.append((score(game), move.kind != FOUNDATION, -n, move))
        game.pop()
    return [move for *_, move in sorted(rated, key=lambda r: r[:3])]
