"""What a player can do to their game: one line each, saying what every place offers for it.

Each place reads its part of ``ACTIONS`` and keeps no list of its own: the buttons under a
board (``flows/boards.py``; Discord's buttons and emoji, ``discord/views.py``; the console
presses one by its label), the commands typed alone (``/undo`` on Discord and in the
console), the page's tool bar and what its server accepts (``web/``), and the game flow's
(which actions play on the game, after which the auto-moves follow). A new action is a
member of ``Action``, its line here, and the flow that plays it (``flows/actions.apply``;
what enables its button, ``flows/boards.controls``).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from engine.words import N_


class Action(StrEnum):
    """What a player can do to their current game. The value goes into button custom ids,
    which Discord keeps on every board posted: a value is never renamed ("found", not
    "to-foundations", as first shipped), or the buttons of boards already in channels would
    stop working."""

    MOVE = "move"
    UNDO = "undo"
    REDO = "redo"
    REDEAL = "redeal"
    TO_FOUNDATIONS = "found"
    HINT = "hint"
    AUTO_FINISH = "finish"
    RESIGN = "resign"
    SHOW = "show"
    PICK = "pick"  # narrow the move menu to one pile's moves (a view, not a move)


@dataclass(frozen=True)
class PlayerAction:
    """One action, and what each place offers for it."""

    action: Action
    label: str | None = None  # its button under every board, in English (translated where
    #                           the board's buttons are made); None: no button
    emoji: str | None = None  # beside the button's label, where a place shows one (Discord)
    tool: int | None = None  # its place in the page's tool bar, from the left (None: none)
    dragged: bool = False  # what the page sends when a card is dragged
    typed: bool = False  # a command typed alone (Discord's and the console's ``/undo``)
    changes_game: bool = False  # it plays on the game: on the copy cached in memory, if any
    auto_after: bool = False  # the auto-moves setting plays the safe moves after it


# In the order of the buttons under a board. No auto-moves after an undo: they would replay.
ACTIONS: tuple[PlayerAction, ...] = (
    PlayerAction(Action.MOVE, dragged=True, changes_game=True, auto_after=True),
    # Translators: the buttons under a board. The console presses one when its label is
    # typed, so in each language the six labels must differ from each other.
    PlayerAction(Action.UNDO, label=N_("Undo"), emoji="↩️", tool=1, typed=True,
                 changes_game=True),
    PlayerAction(Action.REDO, label=N_("Redo"), emoji="↪️", tool=2, typed=True,
                 changes_game=True, auto_after=True),
    PlayerAction(Action.TO_FOUNDATIONS, label=N_("To foundations"), emoji="⏫", tool=3,
                 changes_game=True),
    PlayerAction(Action.REDEAL, label=N_("Redeal"), emoji="🔀", tool=5, typed=True,
                 changes_game=True, auto_after=True),
    PlayerAction(Action.HINT, label=N_("Hint"), emoji="💡", tool=6, typed=True),
    PlayerAction(Action.AUTO_FINISH, label=N_("Auto-finish"), emoji="🏁", tool=4,
                 changes_game=True),
    PlayerAction(Action.RESIGN, typed=True, changes_game=True),
    PlayerAction(Action.SHOW, typed=True),
    PlayerAction(Action.PICK),
)

# What each place reads, taken from the table.
BUTTON_LABELS: dict[Action, str] = {a.action: a.label for a in ACTIONS if a.label is not None}
BUTTON_EMOJI: dict[Action, str] = {a.action: a.emoji for a in ACTIONS if a.emoji is not None}
TYPED_ALONE: tuple[Action, ...] = tuple(a.action for a in ACTIONS if a.typed)
TOOL_BAR: tuple[Action, ...] = tuple(
    a.action for a in sorted((a for a in ACTIONS if a.tool is not None),
                             key=lambda a: a.tool or 0))
PAGE_SENDS: tuple[Action, ...] = tuple(
    a.action for a in ACTIONS if a.dragged or a.tool is not None)
CHANGES_GAME: frozenset[Action] = frozenset(a.action for a in ACTIONS if a.changes_game)
AUTO_AFTER: frozenset[Action] = frozenset(a.action for a in ACTIONS if a.auto_after)
