"""The board in words, for a screen reader: the picture's alt text.

Discord takes up to 1,024 characters for an attachment's description. The picture
shows every card, so the alt text lists every card too: each pile's cards from
bottom to top by the codes a player types (``QH``, ``10C``), which is what lets
Corner Stones' 104 cards fit (tested on the longest description each game can
reach); the foundations' top cards are named in words.
"""

from __future__ import annotations

from engine import Card, FoundationSpec, Game

from . import words
from .words import card_words

__all__ = ["LIMIT", "alt_text", "card_words"]

LIMIT = 1024  # Discord's longest attachment description


def alt_text(
    game: Game, *, no_win: bool = False, assisted: bool = False, resigned: bool = False
) -> str:
    """What the picture of ``game`` shows, in plain sentences (no Markdown), at most
    1,024 characters: game, deal, moves, the end if it came, every foundation's top card
    and every card of every pile."""
    redeals = game.redeals_left if game.rules.redeals else None
    sentences = [words.alt_header(game.name, game.deal, game.draw_rule, game.moves_made,
                                  redeals)]
    if game.is_won:
        sentences.append(words.ALT_WON_WITH_HINTS if assisted else words.ALT_WON)
    elif resigned:
        sentences.append(words.ALT_RESIGNED)
    elif game.is_stuck:
        sentences.append(words.ALT_STUCK)
    elif no_win:
        sentences.append(words.ALT_NO_WIN)
    foundations = zip(game.rules.foundations, game.foundations, strict=True)
    sentences.append(f"{words.ALT_FOUNDATIONS}: " + "; ".join(
        f"f{i}: {_foundation(spec, pile)}" for i, (spec, pile) in enumerate(foundations, 1)
    ))
    heading, pile_word = words.ALT_PILES.get(game.rules.pile_word, words.ALT_PILES["pile"])
    if any(game.tableau):
        sentences.append(words.alt_card_codes(pile_word))
        piles = "; ".join(_pile(game, i, pile) for i, pile in enumerate(game.tableau))
    else:
        piles = words.ALT_ALL_EMPTY
    sentences.append(f"{heading}: {piles}")
    text = ". ".join(sentences) + "."
    if len(text) > LIMIT:  # not reached by any game (tested), but Discord refuses longer
        text = text[: LIMIT - 1] + "…"
    return text


def _foundation(spec: FoundationSpec, pile: list[Card]) -> str:
    return words.alt_foundation(pile[-1] if pile else None, spec.step > 0, len(pile),
                                spec.size, spec.suit, spec.base_rank)


def _pile(game: Game, index: int, pile: list[Card]) -> str:
    cards = " ".join(str(card) for card in pile) if pile else words.ALT_EMPTY
    return f"{game.pile_name(index)}: {cards}"
