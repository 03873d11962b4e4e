"""The move menu fitted to as many entries as a place shows (Discord: 25 options; the
console: a screenful).

The core offers every legal move. When they fit, the menu lists them all; when they do not,
it lists every move to a foundation, then one entry per pile with other moves ("7 · 9♣:
3 moves →"), whose choice (``pick 7``) shows the board again with that pile's moves, and a
way back: any legal move is two taps away at most.
"""

from __future__ import annotations

from ..replies import Action, Controls, MenuOption
from .language import current, label

PICK = Action.PICK.value  # a menu value "pick 7": show pile 7's moves; "pick": every pile's


def menu_of(controls: Controls, most: int) -> tuple[tuple[MenuOption, ...], str]:
    """The options a menu of at most ``most`` entries shows under a board, and what it
    says above them, in the language spoken now (the board's)."""
    moves, words, stacks = controls.menu, current(), controls.stacks
    if controls.focus is not None:
        mine = [o for o in moves if o.pile == controls.focus]
        pile = next((p for p in controls.piles if p.pile == controls.focus), None)
        if mine and pile is not None:
            back = (label("← Back to every stack's moves") if stacks
                    else label("← Back to every pile's moves"))
            facts = {"name": pile.name}
            placeholder = (
                words.plural("Moves from stack {name} ({count})",
                             "Moves from stack {name} ({count})", len(mine), **facts)
                if stacks else
                words.plural("Moves from pile {name} ({count})",
                             "Moves from pile {name} ({count})", len(mine), **facts))
            return (*mine[: most - 1], MenuOption(PICK, back)), placeholder
    if len(moves) <= most:
        return moves, controls.menu_placeholder
    options = [o for o in moves if o.pile is None]
    for pile in controls.piles:
        said = words.plural("{name} · {card}: {count} move →", "{name} · {card}: {count} moves →",
                            pile.count, name=pile.name, card=pile.top)
        options.append(MenuOption(f"{PICK} {pile.pile + 1}", said))
    placeholder = (
        words.plural("Play a move, or pick a stack ({count} legal)",
                     "Play a move, or pick a stack ({count} legal)", len(moves))
        if stacks else
        words.plural("Play a move, or pick a pile ({count} legal)",
                     "Play a move, or pick a pile ({count} legal)", len(moves)))
    return tuple(options[:most]), placeholder
