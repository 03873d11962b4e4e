"""The rules as a document: ``docs/RULES.md`` is ``python -m engine rules``, from ``RULES``.

Each game's words live on its ``Rules`` (rules.py); this module adds what all five share
and how a move is typed, and lays them out as one document. A test checks that the
document in the repository is exactly what this prints, so the two cannot drift apart.
"""

from __future__ import annotations

from .cards import SUIT_SYMBOLS
from .game import MAX_DEAL
from .rules import RULES, Rules

COMMON = (
    "Every card is face up. Only the top card of a pile moves, one card at a time.",
    "An emptied pile is never refilled (Corner Stones' corner stones excepted).",
    "Cards never leave a foundation. Each foundation has a fixed suit (or any suit) and "
    "direction, and an empty one takes only its own base card.",
    f"Suits: clubs {SUIT_SYMBOLS[0]}, diamonds {SUIT_SYMBOLS[1]}, hearts {SUIT_SYMBOLS[2]}, "
    f"spades {SUIT_SYMBOLS[3]}. Ranks A 2 3 4 5 6 7 8 9 10 J Q K.",
    f"A deal is fixed by the game and its number (1 to {MAX_DEAL}): the same number gives the "
    "same deal on every machine and in every version. A redeal's shuffle is fixed by the "
    "game, the deal number and which redeal it is, so undo and redo replay it exactly.",
    "A shuffle seen stays seen: in a scored game (the daily deal, a challenge) undo stops at "
    "the last redeal; elsewhere, undoing a redeal marks the game assisted, as a hint does. A "
    "house rule (Trefoil's draw) never plays a scored game.",
    "Won: every card is on a foundation. Stuck: no legal move and no redeal left.",
    "Piles keep their numbers all game: a pile emptied by play or left over by a redeal "
    "stays in its place, empty.",
)

NOTATION = (
    "Piles are numbered from 1 in reading order, as drawn: left to right, top row first. "
    "Foundations are f1, f2, ... in the order each game lists them.",
    "7 3 moves pile 7's top card onto pile 3; 7 f2 moves it to foundation f2; 7 f to the "
    "one foundation it fits; 7 alone plays its only legal move (a foundation first).",
    "redeal gathers, shuffles and deals again where the game allows it; draw QH is "
    "Trefoil's once-a-game draw of the queen of hearts under the house rule.",
    "A card's code is its rank then its suit letter: AS, 10H, KD (C, D, H, S).",
)


def example_move(rules: Rules) -> tuple[int, int, int]:
    """A source pile, a target pile and a foundation (1-based) this game really has, the
    source able to feed the foundation: for examples of typing a move."""
    if rules.feeds is None:
        src = min(7, rules.tableau_size)
        foundation = min(2, len(rules.foundations))
    else:  # a pile that feeds f1, and f1
        src = next(p for p in range(rules.tableau_size) if 0 in rules.feeds[p]) + 1
        foundation = 1
    return src, (src - 4 if src > 4 else src + 4), foundation


def move_example(rules: Rules) -> str:
    """How to type a move in this game, with a pile and a foundation it really has."""
    word = rules.pile_word
    src, dst, foundation = example_move(rules)
    return (
        f"Move: {src} {dst} puts {word} {src}'s card on {word} {dst}; "
        f"{src} f{foundation} puts it on f{foundation}."
    )


def layout_lines(rules: Rules) -> list[str]:
    """The game's shape as numbers: piles, foundations, redeals."""
    sizes = rules.deal_sizes
    counts: dict[int, int] = {}
    for size in sizes:
        counts[size] = counts.get(size, 0) + 1
    piles = " and ".join(f"{n} of {size}" for size, n in counts.items())
    lines = [
        f"Cards: {rules.card_count}. {rules.pile_word.capitalize()}s: {len(sizes)} ({piles}), "
        f"numbered 1 to {len(sizes)}."
    ]
    if rules.pile_names:
        names = ", ".join(f"{i + 1} = {name}" for i, name in enumerate(rules.pile_names))
        lines.append(f"Names: {names}.")
    for f, spec in enumerate(rules.foundations):
        start = "starts with its base card" if spec.prefilled else "starts empty"
        lines.append(f"f{f + 1}: {spec.label}, {start}, holds {spec.size} cards.")
    lines.append(f"Redeals: {rules.redeals}." if rules.redeals else "No redeals.")
    return lines


def document() -> str:
    """docs/RULES.md, whole."""
    out = [
        "# The rules, as this bot plays them",
        "",
        "Generated from `engine/rules.py` by `python -m engine rules`; edit the rules there.",
        "",
        "## Common to all five games",
        "",
        *(f"- {line}" for line in COMMON),
        "",
        "## Typing a move",
        "",
        *(f"- {line}" for line in NOTATION),
    ]
    for rules in RULES.values():
        out += ["", f"## {rules.name} (`{rules.id}`)", "", f"{rules.intro.capitalize()}.", ""]
        out += [f"- {line}" for line in rules.summary]
        out += ["", "Layout:", ""]
        out += [f"- {line}" for line in layout_lines(rules)]
        if rules.decisions:
            out += ["", "Decided by this project where the source rules are open:", ""]
            out += [f"- {line}" for line in rules.decisions]
        out += ["", move_example(rules)]
    return "\n".join(out) + "\n"
