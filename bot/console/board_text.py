"""A board drawn in characters for the console, so a player at a terminal sees the cards
after every move without opening a picture.

The layout, and why: every pile is one line, its label first and its cards after it from
bottom to top (``  7 │ 9♣ 8♦ 7♠``), so the card that moves always ends its line, where the
eye looks for it. Columns side by side, as the picture draws them, would have to be read
down and across at once, and one long pile would make every row as tall as a terminal;
a line only grows longer, and past 80 columns it goes on under itself, after the same
``│``. The piles come in the picture's order and in its groups, a blank line where the
picture starts a new row (``render.layout``: the same place for everything, so the two
never disagree), labelled as the picture labels them and as the console takes them: the
pile's number, and Corner Stones' name for it besides (``3 S1``: type ``3`` or ``S1``). The
foundations are one line where the picture has them (above the piles; in Corner Stones
under C1 and C2), each as its tab reads (``f1↑``) with its top card, or the base card it
waits for in brackets (``f1↑ (A♣)``, ``(A)`` for any suit's), which says so without colour.

Colour only where the terminal shows it (``wants_colour``): the suits in the picture's
inks, red and black or the four-colour deck's, where black is the terminal's own
foreground (black on black would be no card at all); an awaited base and an empty pile's
mark are faint.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import TextIO

from engine import RULES, Card
from render import layout

from ..replies import Table
from ..words.language import current

WIDTH = 80  # a terminal's columns: no line of a board is longer
EMPTY = "·"  # an empty pile's place
_RESET = "\x1b[0m"
_FAINT = "\x1b[2m"
# Each suit's ink (♣ ♦ ♥ ♠) as the picture has it (``render.cards.suit_ink``), as ANSI
# colours: "" is the terminal's own foreground.
_FOUR_COLOURS = ("\x1b[32m", "\x1b[34m", "\x1b[31m", "")
_RED_AND_BLACK = ("", "\x1b[31m", "\x1b[31m", "")
Shown = tuple[int, str]  # a card or mark as printed: its width on screen, and its text


def wants_colour(out: TextIO, environ: Mapping[str, str] = os.environ) -> bool:
    """Whether to colour what is printed to ``out``: not where ``NO_COLOR`` is set to
    anything (https://no-color.org), yes where ``FORCE_COLOR`` is (but to 0), else only
    on a terminal that is not a dumb one."""
    if environ.get("NO_COLOR"):
        return False
    if environ.get("FORCE_COLOR", "0") not in ("", "0"):
        return True
    return out.isatty() and environ.get("TERM") != "dumb"


def board_text(table: Table, *, colour: bool = False) -> str:
    """``table``'s piles and foundations as lines of text at most ``WIDTH`` wide (colour
    aside), in the language spoken now."""
    rules = RULES[table.game_id]
    lay = layout(table.game_id)
    inks = _FOUR_COLOURS if table.four_colour else _RED_AND_BLACK
    labels = [str(slot.index + 1) + (f" {slot.name}" if slot.name else "")
              for slot in lay.piles]
    wide = max(map(len, labels))
    bands: dict[int, list[str]] = {}  # the picture's rows, by the height of their labels
    for slot, label in zip(lay.piles, labels, strict=True):
        cards = [_card(card, inks, colour) for card in table.tableau[slot.index]]
        bands.setdefault(slot.label.y, []).extend(
            _pile_lines(f"  {label:>{wide}} │ ", cards or [_faint(EMPTY, colour)]))
    tops = []
    for place in lay.foundations:
        spec, pile = rules.foundations[place.index], table.foundations[place.index]
        tab = f"f{place.index + 1}{'↑' if spec.step > 0 else '↓'}"
        if pile:
            top = _card(pile[-1], inks, colour)[1]
        else:  # the base it waits for, the suit's or any
            base = spec.base_cards()[0]
            said = current().rank(base.rank) if spec.suit is None else current().card(base)
            top = _faint(f"({said})", colour)[1]
        tops.append(f"{tab} {top}")
    if tops:
        bands.setdefault(lay.foundations[0].label.y, []).insert(0, "  " + "  ".join(tops))
    return "\n\n".join("\n".join(bands[y]) for y in sorted(bands))


def _card(card: Card, inks: tuple[str, ...], colour: bool) -> Shown:
    """A card as the language prints it, in its suit's ink."""
    text = current().card(card)
    ink = inks[card.suit] if colour else ""
    return len(text), f"{ink}{text}{_RESET}" if ink else text


def _faint(text: str, colour: bool) -> Shown:
    return len(text), f"{_FAINT}{text}{_RESET}" if colour else text


def _pile_lines(head: str, cards: list[Shown]) -> list[str]:
    """A pile's line, its label in ``head``, its cards one space apart; past ``WIDTH``,
    the cards go on in lines of their own, under the first's, after the same bar."""
    lines: list[str] = []
    more = " " * (len(head) - 2) + "│ "  # as wide as ``head``
    line, used, fresh = head, len(head), True
    for width, text in cards:
        if not fresh and used + 1 + width > WIDTH:
            lines.append(line)
            line, used, fresh = more, len(more), True
        if not fresh:
            line, used = line + " ", used + 1
        line, used, fresh = line + text, used + width, False
    lines.append(line)
    return lines
