"""The board in words, for a screen reader: the picture's alt text.

Discord takes up to 1,024 characters for an attachment's description. Every
game fits with room to spare, Corner Stones' 12 stacks and 8 foundations
included: cards are named in words ("queen of hearts"), each pile once, with
its top card (the one that moves) and how many cards it holds.
"""

from __future__ import annotations

from engine import Card, FoundationSpec, Game
from engine.cards import SUIT_NAMES

LIMIT = 1024  # Discord's longest attachment description

_RANK_WORDS = ("ace", "2", "3", "4", "5", "6", "7", "8", "9", "10", "jack", "queen", "king")


def card_words(card: Card) -> str:
    """``queen of hearts``: a card as a screen reader should say it."""
    return f"{_RANK_WORDS[card.rank - 1]} of {SUIT_NAMES[card.suit]}"


def alt_text(
    game: Game, *, no_win: bool = False, assisted: bool = False, resigned: bool = False
) -> str:
    """What the picture of ``game`` shows, in plain sentences (no Markdown), at most
    1,024 characters: game, deal, moves, the end if it came, every foundation's top card
    and every pile's top card."""
    moves = f"{game.moves_made} move{'' if game.moves_made == 1 else 's'}"
    header = f"{game.name}, deal {game.deal}{', draw rule' if game.draw_rule else ''}, {moves}"
    if game.rules.redeals:
        left = game.redeals_left
        header += f", {left or 'no'} redeal{'' if left == 1 else 's'} left"
    sentences = [header]
    if game.is_won:
        sentences.append("Won with hints" if assisted else "Won, every card is home")
    elif resigned:
        sentences.append("Resigned")
    elif game.is_stuck:
        sentences.append("Stuck, no move left")
    elif no_win:
        sentences.append("No win is possible from here")
    foundations = zip(game.rules.foundations, game.foundations, strict=True)
    sentences.append("Foundations: " + "; ".join(
        f"f{i}: {_foundation(spec, pile)}" for i, (spec, pile) in enumerate(foundations, 1)
    ))
    piles = [_pile(game, i, pile) for i, pile in enumerate(game.tableau)]
    sentences.append("Piles and their top cards: " + "; ".join(piles))
    text = ". ".join(sentences) + "."
    if len(text) > LIMIT:  # not reached by any game (tested), but Discord refuses longer
        text = text[: LIMIT - 1] + "…"
    return text


def _foundation(spec: FoundationSpec, pile: list[Card]) -> str:
    direction = "up" if spec.step > 0 else "down"
    if not pile:
        base = "ace" if spec.base_rank == 1 else "king"
        suit = "any suit" if spec.suit is None else SUIT_NAMES[spec.suit]
        return f"empty, {suit} {direction} from {base}"
    return f"{card_words(pile[-1])}, {direction}, {len(pile)} of {spec.size}"


def _pile(game: Game, index: int, pile: list[Card]) -> str:
    label = game.pile_name(index)
    if not pile:
        return f"{label}: empty"
    count = "" if len(pile) == 1 else f", {len(pile)} cards"
    return f"{label}: {card_words(pile[-1])}{count}"
