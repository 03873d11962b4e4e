"""Build engine positions by hand, so each rule can be tested on the exact cards it talks about."""

from __future__ import annotations

from engine import Game, new_game, parse_card


def position(
    game_id: str,
    piles: dict[int, str],
    foundations: dict[int, str] | None = None,
    *,
    redeals_left: int | None = None,
    draw: bool = False,
) -> Game:
    """A game whose pile N (1-based) holds the given cards, bottom to top; others empty.

    ``foundations`` maps a 1-based foundation to its cards; unnamed ones keep their start.
    """
    game = new_game(game_id, 1, draw=draw)
    game.tableau = [[] for _ in game.tableau]
    for number, codes in piles.items():
        game.tableau[number - 1] = [parse_card(c) for c in codes.split()]
    for number, codes in (foundations or {}).items():
        game.foundations[number - 1] = [parse_card(c) for c in codes.split()]
    if redeals_left is not None:
        game.redeals_left = redeals_left
    return game


def texts(game: Game) -> list[str]:
    return [str(m) for m in game.legal_moves()]


def codes(pile: list) -> str:  # type: ignore[type-arg]
    return " ".join(map(str, pile))
