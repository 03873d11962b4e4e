"""The controls under a message, written as Discord's JSON: a board's buttons and move menu,
a question's yes and no, a challenge's buttons.

Presses come back by their ``custom_id`` to the items of ``components.py``, which hold the
formats' patterns (a test holds what is written here the same as what those items would
write). Written here, apart from them, so that sending a reply (``send.py``) needs nothing
that answers a press. custom_id formats (all under Discord's 100 characters):

* board button: ``sol:<action>:<owner id>:<game row>:<revision>``, action one of the
  board's buttons (``undo redo found redeal hint finish``: ``replies/player_actions.py``)
* play by hand: ``sol:hand`` (opens the Activity on whoever presses it: the page shows the
  presser's own game, so the button carries no owner, game or revision)
* move menu:    ``sol:menu:<owner id>:<game row>:<revision>``; each option's value is the
  move's text (``7 3``, ``7 f2``)
* question:     ``sol:new:<yes|no>:<owner id>:<args…>`` (a new game over an unfinished one)
  and ``sol:ask:<forget|reset|resign>:<yes|no>:<owner id>``
* challenge:    ``sol:duel:<accept|decline|play>:<challenge id>``
"""

from __future__ import annotations

from typing import Any

import discord

from ..replies import (
    BUTTON_LABELS,
    CHALLENGE_LABELS,
    Ask,
    Board,
    BoardRef,
    Button,
    ChallengeAction,
    ChallengeControls,
    Question,
)
from ..replies.player_actions import BUTTON_EMOJI
from ..words.language import N_, label, speaking
from ..words.menu import menu_of
from .limits import BUTTONS_PER_ROW, MENU_LIMIT, OPTION_LIMIT, PLACEHOLDER_LIMIT, cut

CHALLENGE_EMOJI = {
    ChallengeAction.ACCEPT: "✅", ChallengeAction.DECLINE: "✖️", ChallengeAction.PLAY: "▶️"
}
NO_MOVES = "none"  # the value of the placeholder option of an empty, disabled menu
MENU = "menu"  # in the move menu's custom_id, where a button has its action
PLAY_BY_HAND_ID = "sol:hand"
# TRANSLATORS: the button under a board that opens the Activity, where cards are dragged
PLAY_BY_HAND = N_("Play by hand")
PLAY_BY_HAND_EMOJI = "🃏"


def board_id(what: str, owner_id: int, ref: BoardRef) -> str:
    """A board control's custom_id: a button's action, or the menu's."""
    return f"sol:{what}:{owner_id}:{ref.game_row}:{ref.revision}"


def question_id(question: Question, yes: bool) -> str:
    ask = "new" if question.ask is Ask.NEW_GAME else f"ask:{question.ask.value}"
    args = "".join(f":{a}" for a in question.args)
    return f"sol:{ask}:{'yes' if yes else 'no'}:{question.owner_id}{args}"


def challenge_id(action: ChallengeAction, challenge: int) -> str:
    return f"sol:duel:{action.value}:{challenge}"


class Written(discord.ui.View):
    """Controls handed to discord.py already written as Discord's JSON. discord.py sends
    what ``to_components`` gives, and keeps a view it may dispatch presses to until the view
    is finished: this one is finished from the start, because presses reach the items of
    ``components.py`` by their custom ids (``SolitaireBot.setup_hook`` registers them), not
    through a view. Written rather than built from those items: a board's view is built at
    every move, and discord.py's objects for its buttons and 25 options took 0.13 ms of the
    bot's CPU."""

    def __init__(self, rows: list[dict[str, Any]]) -> None:
        super().__init__(timeout=None)
        self._rows = rows
        self.stop()

    def to_components(self) -> list[dict[str, Any]]:
        return self._rows


def board_view(board: Board, *, play_by_hand: bool = False) -> Written:
    """Buttons five to a row (Discord's limit), then the move menu on a row of its own.
    ``play_by_hand``: the bot serves the Activity, so the board's buttons end with the one
    that opens it."""
    owner_id, ref, controls = board.owner_id, board.ref, board.controls
    buttons = [_board_button(button, board_id(button.action.value, owner_id, ref))
               for button in controls.buttons]
    if play_by_hand:
        buttons.append(play_by_hand_button())
    rows = [{"type": 1, "components": buttons[i:i + BUTTONS_PER_ROW]}
            for i in range(0, len(buttons), BUTTONS_PER_ROW)]
    with speaking(board.language):
        shown, placeholder = menu_of(controls, MENU_LIMIT)
    options = [{"label": cut(option.label, OPTION_LIMIT), "value": option.value,
                "default": False} for option in shown]
    menu = {
        "type": 3, "custom_id": board_id(MENU, owner_id, ref),
        "placeholder": cut(placeholder, PLACEHOLDER_LIMIT),
        "min_values": 1, "max_values": 1,
        "options": options or [{"label": cut(placeholder, OPTION_LIMIT),
                                "value": NO_MOVES, "default": False}],
        "disabled": not options, "required": True,
    }
    rows.append({"type": 1, "components": [menu]})
    return Written(rows)


def question_view(question: Question) -> Written:
    """Yes (red: it deletes or abandons something) and no."""
    buttons = [
        _button(question.yes, discord.ButtonStyle.danger, question_id(question, True)),
        _button(question.no, discord.ButtonStyle.secondary, question_id(question, False)),
    ]
    return Written([{"type": 1, "components": buttons}])


def challenge_view(controls: ChallengeControls) -> Written:
    """The challenge's buttons, labelled in the challenge's language (its message's), not
    in that of whoever pressed last, nor in none (the leader's updates)."""
    with speaking(controls.language):
        buttons = [
            _button(label(CHALLENGE_LABELS[action]),
                    discord.ButtonStyle.secondary if action is ChallengeAction.DECLINE
                    else discord.ButtonStyle.success,
                    challenge_id(action, controls.challenge_id), CHALLENGE_EMOJI[action])
            for action in controls.actions
        ]
    return Written([{"type": 1, "components": buttons}])


def play_by_hand_button() -> dict[str, Any]:
    return _button(label(PLAY_BY_HAND), discord.ButtonStyle.primary, PLAY_BY_HAND_ID,
                   PLAY_BY_HAND_EMOJI)


def _board_button(button: Button, custom_id: str) -> dict[str, Any]:
    return _button(button.label or label(BUTTON_LABELS[button.action]),
                   discord.ButtonStyle.secondary, custom_id, BUTTON_EMOJI.get(button.action),
                   disabled=not button.enabled)


def _button(label: str, style: discord.ButtonStyle, custom_id: str, emoji: str | None = None,
            *, disabled: bool = False) -> dict[str, Any]:
    written: dict[str, Any] = {"type": 2, "style": style.value, "label": label,
                               "disabled": disabled, "custom_id": custom_id}
    if emoji is not None:
        written["emoji"] = {"name": emoji, "id": None}
    return written
