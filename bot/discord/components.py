"""The buttons and move menu under a board, and the two buttons of every yes/no question.

Each is a ``discord.ui.DynamicItem``: its state lives in the ``custom_id``, so a board
keeps working after the bot restarts; ``SolitaireBot.setup_hook`` registers the classes.
custom_id formats (all under Discord's 100 characters):

* board button: ``sol:<action>:<owner id>:<game row>:<revision>``, action one of
  ``undo redo found redeal hint finish``
* move menu:    ``sol:menu:<owner id>:<game row>:<revision>``; each option's value is the
  move's text (``7 3``, ``7 f2``)
* question:     ``sol:new:<yes|no>:<owner id>:<args…>`` (a new game over an unfinished one)
  and ``sol:ask:<forget|reset>:<yes|no>:<owner id>``
* challenge:    ``sol:duel:<accept|decline|play>:<challenge id>``

A press by anyone but the owner is refused here (``owner_only``), before it reaches the core,
in the language of whoever pressed. The labels come with the reply, in its language.
"""

from __future__ import annotations

import logging
import re
from typing import Any

import discord

from ..replies import (
    BUTTON_LABELS,
    DUEL_LABELS,
    ID_LIMIT,
    Action,
    Ask,
    Board,
    BoardRef,
    Button,
    ChallengeControls,
    Duel,
    Question,
)
from ..words.language import _, speaking
from ..words.phrases import command, mention
from .context import can_manage_server, core_of, player_of, respond, speaking_to

log = logging.getLogger(__name__)

_EMOJI = {
    Action.UNDO: "↩️",
    Action.REDO: "↪️",
    Action.TO_FOUNDATIONS: "⏫",
    Action.REDEAL: "🔀",
    Action.HINT: "💡",
    Action.AUTO_FINISH: "🏁",
}
_BUTTON_ACTIONS = "|".join(re.escape(a.value) for a in BUTTON_LABELS)
_NO_MOVES = "none"  # the value of the placeholder option of an empty, disabled menu
_MENU = "menu"  # in the move menu's custom_id, where a button has its action


def stranger_note(owner_id: int, *, question: bool = False) -> str:
    """The refusal for a press on somebody else's board or question."""
    if question:
        return _("That question was for {owner}, not for you.", owner=mention(owner_id))
    return _("This is {owner}'s game — start your own with {new}.", owner=mention(owner_id),
             new=command("new"))


async def ids_fit(interaction: discord.Interaction[Any]) -> bool:
    """Whether every number in the pressed control's custom_id can be an id (a modified
    client can send any); if not, the player is told privately and nothing is done. Before
    anything else: a number past 64-bit integers would fail in the database."""
    custom_id = str(dict(interaction.data or {}).get("custom_id", ""))
    if all(int(n) < ID_LIMIT for n in re.findall(r"\d+", custom_id)):
        return True
    with speaking_to(interaction):
        note = _("That control carries a number too large to be any id of this bot's, so "
                 "nothing was done. {show} posts your current board.", show=command("show"))
    try:
        await interaction.response.send_message(note, ephemeral=True)
    except discord.HTTPException:
        log.exception("could not refuse a forged id (user %s)", interaction.user.id)
    return False


async def owner_only(
    interaction: discord.Interaction[Any], owner_id: int, *, question: bool = False
) -> bool:
    """True for the owner, when the control's ids can be ids (``ids_fit``); anyone else is
    told, privately, whose it is."""
    if not await ids_fit(interaction):
        return False
    if interaction.user.id == owner_id:
        return True
    with speaking_to(interaction):
        note = stranger_note(owner_id, question=question)
    try:
        await interaction.response.send_message(note, ephemeral=True)
    except discord.HTTPException:
        log.exception("could not refuse a stranger's press (user %s)", interaction.user.id)
    return False


class BoardButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=(
    rf"sol:(?P<action>{_BUTTON_ACTIONS}):(?P<owner>\d+):(?P<game>\d+):(?P<revision>\d+)"
)):
    def __init__(
        self,
        action: Action,
        owner_id: int,
        ref: BoardRef,
        *,
        label: str | None = None,
        enabled: bool = True,
        row: int | None = None,
    ) -> None:
        super().__init__(
            discord.ui.Button(
                label=label or _(BUTTON_LABELS[action]),
                emoji=_EMOJI.get(action),
                style=discord.ButtonStyle.secondary,
                disabled=not enabled,
                custom_id=_board_id(action.value, owner_id, ref),
            ),
            row=row,
        )
        self.action = action
        self.owner_id = owner_id
        self.ref = ref

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Item[Any],
        match: re.Match[str],
        /,
    ) -> BoardButton:
        ref = BoardRef(int(match["game"]), int(match["revision"]))
        return cls(Action(match["action"]), int(match["owner"]), ref)

    async def interaction_check(self, interaction: discord.Interaction[Any], /) -> bool:
        return await owner_only(interaction, self.owner_id)

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        core = core_of(interaction)
        await respond(interaction, core.act(player_of(interaction), self.action, seen=self.ref))


class MoveMenu(discord.ui.DynamicItem[discord.ui.Select[Any]], template=(
    r"sol:menu:(?P<owner>\d+):(?P<game>\d+):(?P<revision>\d+)"
)):
    def __init__(self, owner_id: int, ref: BoardRef, *, row: int | None = None) -> None:
        select: discord.ui.Select[Any] = discord.ui.Select(
            custom_id=_board_id(_MENU, owner_id, ref), min_values=1, max_values=1,
        )
        super().__init__(select, row=row)
        self.owner_id = owner_id
        self.ref = ref

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Item[Any],
        match: re.Match[str],
        /,
    ) -> MoveMenu:
        return cls(int(match["owner"]), BoardRef(int(match["game"]), int(match["revision"])))

    async def interaction_check(self, interaction: discord.Interaction[Any], /) -> bool:
        return await owner_only(interaction, self.owner_id)

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        values = self.item.values
        value = values[0] if values else ""
        core, player = core_of(interaction), player_of(interaction)
        if value == _NO_MOVES:
            await respond(interaction, core.act(player, Action.SHOW, seen=self.ref))
        else:
            await respond(interaction, core.choose(player, value, seen=self.ref))


_ASKS = "|".join(f"ask:{a.value}" for a in Ask if a is not Ask.NEW_GAME)


class QuestionButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=(
    rf"sol:(?P<ask>new|{_ASKS}):(?P<answer>yes|no):(?P<owner>\d+)(?P<args>(?::[a-z0-9-]+)*)"
)):
    """Yes or no to a question of the core; the owner's answer goes to
    ``Core.answer_question``."""

    def __init__(self, question: Question, yes: bool) -> None:
        ask = "new" if question.ask is Ask.NEW_GAME else f"ask:{question.ask.value}"
        args = "".join(f":{a}" for a in question.args)
        super().__init__(
            discord.ui.Button(
                label=question.yes if yes else question.no,
                style=discord.ButtonStyle.danger if yes else discord.ButtonStyle.secondary,
                custom_id=f"sol:{ask}:{'yes' if yes else 'no'}:{question.owner_id}{args}",
            ),
            row=0,
        )
        self.question = question
        self.yes = yes

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Item[Any],
        match: re.Match[str],
        /,
    ) -> QuestionButton:
        ask = Ask(match["ask"].removeprefix("ask:"))
        args = tuple(a for a in match["args"].split(":") if a)
        question = Question(ask, int(match["owner"]), "", "", args)
        return cls(question, match["answer"] == "yes")

    async def interaction_check(self, interaction: discord.Interaction[Any], /) -> bool:
        return await owner_only(interaction, self.question.owner_id, question=True)

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        core = core_of(interaction)
        work = core.answer_question(
            player_of(interaction), self.question, self.yes,
            can_manage_server=can_manage_server(interaction),
        )
        await respond(interaction, work, private=self.question.ask is not Ask.NEW_GAME)


def dispatched(interaction: discord.Interaction[Any]) -> bool:
    """Whether discord.py hands a press to one of ours: its custom_id is ours, and it
    came with its message, which carries that control (otherwise discord.py drops it
    without a word, and the player would see "This interaction failed")."""
    data: dict[str, Any] = dict(interaction.data or {})
    custom_id = str(data.get("custom_id", ""))
    if not any(item.__discord_ui_compiled_template__.fullmatch(custom_id)
               for item in DYNAMIC_ITEMS):
        return False
    message = interaction.message
    if message is None:
        return False
    return any(
        getattr(child, "custom_id", None) == custom_id
        for row in message.components
        for child in getattr(row, "children", [row])
    )


def _board_id(what: str, owner_id: int, ref: BoardRef) -> str:
    """A board control's custom_id: a button's action, or the menu's."""
    return f"sol:{what}:{owner_id}:{ref.game_row}:{ref.revision}"


class _Written(discord.ui.View):
    """Controls handed to discord.py already written as Discord's JSON. discord.py sends
    what ``to_components`` gives, and keeps a view it may dispatch presses to until the view
    is finished: this one is finished from the start, because presses on a board reach
    ``BoardButton`` and ``MoveMenu`` by their custom ids (``SolitaireBot.setup_hook``
    registers them), not through a view."""

    def __init__(self, rows: list[dict[str, Any]]) -> None:
        super().__init__(timeout=None)
        self._rows = rows
        self.stop()

    def to_components(self) -> list[dict[str, Any]]:
        return self._rows


def board_view(board: Board) -> discord.ui.View:
    """Buttons five to a row (Discord's limit), then the move menu on a row of its own.

    Written straight as the JSON that ``BoardButton`` and ``MoveMenu`` items in a view would
    give (a test holds the two the same): a board's view is built at every move, and
    discord.py's objects for its buttons and 25 options took 0.13 ms of the bot's CPU."""
    owner_id, ref, controls = board.owner_id, board.ref, board.controls
    buttons = [_button(button, _board_id(button.action.value, owner_id, ref))
               for button in controls.buttons]
    rows = [{"type": 1, "components": buttons[i:i + 5]} for i in range(0, len(buttons), 5)]
    options = [{"label": option.label[:100], "value": option.value, "default": False}
               for option in controls.menu]
    menu = {
        "type": 3, "custom_id": _board_id(_MENU, owner_id, ref),
        "placeholder": controls.menu_placeholder[:150], "min_values": 1, "max_values": 1,
        "options": options or [
            {"label": controls.menu_placeholder[:100], "value": _NO_MOVES, "default": False}
        ],
        "disabled": not options, "required": True,
    }
    rows.append({"type": 1, "components": [menu]})
    return _Written(rows)


def _button(button: Button, custom_id: str) -> dict[str, Any]:
    written: dict[str, Any] = {
        "type": 2, "style": discord.ButtonStyle.secondary.value,
        "label": button.label or _(BUTTON_LABELS[button.action]),
        "disabled": not button.enabled, "custom_id": custom_id,
    }
    emoji = _EMOJI.get(button.action)
    if emoji is not None:
        written["emoji"] = {"name": emoji, "id": None}
    return written


def question_view(question: Question) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(QuestionButton(question, True))
    view.add_item(QuestionButton(question, False))
    return view



_DUELS = "|".join(d.value for d in Duel)
_DUEL_EMOJI = {Duel.ACCEPT: "✅", Duel.DECLINE: "✖️", Duel.PLAY: "▶️"}


class ChallengeButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=(
    rf"sol:duel:(?P<duel>{_DUELS}):(?P<challenge>\d+)"
)):
    """A button of a challenge's message. Who may press it is the core's to say: it knows
    the challenge's two sides."""

    def __init__(self, duel: Duel, challenge_id: int) -> None:
        super().__init__(
            discord.ui.Button(
                label=_(DUEL_LABELS[duel]),
                emoji=_DUEL_EMOJI[duel],
                style=(discord.ButtonStyle.success if duel is not Duel.DECLINE
                       else discord.ButtonStyle.secondary),
                custom_id=f"sol:duel:{duel.value}:{challenge_id}",
            ),
            row=0,
        )
        self.duel = duel
        self.challenge_id = challenge_id

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Item[Any],
        match: re.Match[str],
        /,
    ) -> ChallengeButton:
        return cls(Duel(match["duel"]), int(match["challenge"]))

    async def interaction_check(self, interaction: discord.Interaction[Any], /) -> bool:
        return await ids_fit(interaction)

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        work = core_of(interaction).press_challenge(
            player_of(interaction), self.challenge_id, self.duel
        )
        await respond(interaction, work, private=self.duel is Duel.DECLINE)


DYNAMIC_ITEMS = (BoardButton, MoveMenu, QuestionButton, ChallengeButton)


def challenge_view(controls: ChallengeControls) -> discord.ui.View:
    """The challenge's buttons, labelled in the challenge's language (its message's), not
    in that of whoever pressed last, nor in none (the leader's updates)."""
    view = discord.ui.View(timeout=None)
    with speaking(controls.language):
        for duel in controls.actions:
            view.add_item(ChallengeButton(duel, controls.challenge_id))
    return view
