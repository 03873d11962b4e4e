"""The board in words, for a screen reader: the picture's alt text.

A description is at most ``LONGEST`` characters (1,024: about a minute of listening,
and what the places that show the pictures take: the Discord adapter's limit for an
attachment's description is no shorter). The picture shows every card, so the alt text
lists every card too: each pile's cards from
bottom to top by the codes a player types (``QH``, ``10C``, the same in every
language), which is what lets Corner Stones' 104 cards fit (tested on the longest
description each game can reach, in words 40% longer than English ones); the
foundations' top cards are named in words.
"""

from __future__ import annotations

from engine import Card, FoundationSpec, Game

from .options import PLAIN, PictureOptions
from .words import ENGLISH, PictureWords

__all__ = ["LONGEST", "alt_text"]

LONGEST = 1024  # the most characters a description of a picture has


def alt_text(
    game: Game, options: PictureOptions = PLAIN, words: PictureWords = ENGLISH
) -> str:
    """What the picture of ``game`` shows, in plain sentences (no Markdown), at most
    1,024 characters: game, deal, moves, the end if it came, every foundation's top card
    and every card of every pile. Where a language's words make that too long, the
    legend of the card codes is said in short, then left out; a text longer still ends
    with "…" after the last pile it lists whole."""
    redeals = game.redeals_left if game.rules.redeals else None
    said = [words.alt_header(game.name, game.deal_number, game.draw_rule, game.moves_made, redeals)]
    dealt = game.lost_as_dealt(options.lost_as_dealt)
    if game.is_won:
        said.append(words.alt_won_with_hints() if options.assisted else words.alt_won())
    elif options.resigned:
        said.append(words.alt_resigned())
    elif game.is_stuck:
        said.append(words.alt_stuck(dealt))
    elif options.no_win or options.lost_as_dealt:
        said.append(words.alt_no_win(dealt))
    foundations = zip(game.rules.foundations, game.foundations, strict=True)
    said.append(words.alt_foundations("; ".join(
        f"f{i}: {_foundation(spec, pile, words)}" for i, (spec, pile) in enumerate(foundations, 1)
    )))
    stacks = game.rules.pile_word == "stack"
    if not any(game.tableau):
        return " ".join([*said, words.alt_all_empty(stacks)])
    piles = [_pile(game, i, pile, words) for i, pile in enumerate(game.tableau)]
    listed = words.alt_piles(stacks, "; ".join(piles))
    for legend in (words.alt_card_codes(stacks), words.alt_card_codes_short(stacks), None):
        text = " ".join([*said, *([legend] if legend else []), listed])
        if len(text) <= LONGEST:
            return text
    # Not reached by any game in English or in words 40% longer (tested), but Discord
    # refuses a longer description: the piles that fit, whole, then "…".
    while len(piles) > 1 and len(text) > LONGEST:
        piles.pop()
        text = " ".join([*said, words.alt_piles(stacks, "; ".join([*piles, "…"]))])
    return text if len(text) <= LONGEST else text[: LONGEST - 1] + "…"


def _foundation(spec: FoundationSpec, pile: list[Card], words: PictureWords) -> str:
    return words.alt_foundation(pile[-1] if pile else None, spec.step > 0, len(pile),
                                spec.size, spec.suit, spec.base_rank)


def _pile(game: Game, index: int, pile: list[Card], words: PictureWords) -> str:
    cards = " ".join(str(card) for card in pile) if pile else words.alt_empty()
    return f"{game.pile_name(index)}: {cards}"
