"""Presses on the controls ``views.py`` writes: a board's buttons and move menu, a
question's yes and no, a challenge's buttons, the button that opens the Activity.

Each is a ``discord.ui.DynamicItem``: its state lives in the ``custom_id`` (formats in
``views.py``), so a board keeps working after the bot restarts; ``SolitaireBot.setup_hook``
registers the classes. Each press is one call of the core, answered through ``replying``.

A press by anyone but the owner is refused here (``owner_only``), before it reaches the core,
in the language of whoever pressed; "Play by hand" is the exception, open to anyone: the page
it opens shows the presser's own game. The labels come with the reply, in its language.
"""

from __future__ import annotations

import logging
import re
from typing import Any

import discord

from ..replies import (
    BUTTON_LABELS,
    CHALLENGE_LABELS,
    ID_LIMIT,
    Action,
    Ask,
    BoardRef,
    ChallengeAction,
    Question,
)
from ..replies.player_actions import BUTTON_EMOJI
from ..replies.text import Text
from ..words.language import _
from ..words.language import label as label_
from ..words.phrases import command, mention
from . import views
from .context import can_manage_server, core_of, player_of, serves_activity, speaking_to
from .markdown import fit
from .send import replying, tell_privately
from .views import (
    CHALLENGE_EMOJI,
    MENU,
    NO_MOVES,
    PLAY_BY_HAND,
    PLAY_BY_HAND_EMOJI,
    PLAY_BY_HAND_ID,
    board_id,
    question_id,
)

log = logging.getLogger(__name__)

_BUTTON_ACTIONS = "|".join(re.escape(a.value) for a in BUTTON_LABELS)


def stranger_note(owner_id: int, *, question: bool = False) -> Text:
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
    if all(int(n) < ID_LIMIT for n in re.findall(r"[0-9]+", custom_id)):
        return True
    with speaking_to(interaction):
        note = _("That control carries a number too large to be any id of this bot's, so "
                 "nothing was done. {show} posts your current board.", show=command("show"))
    try:
        await interaction.response.send_message(fit(note), ephemeral=True)
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
        await interaction.response.send_message(fit(note), ephemeral=True)
    except discord.HTTPException:
        log.exception("could not refuse a stranger's press (user %s)", interaction.user.id)
    return False


class BoardButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=(
    rf"sol:(?P<action>{_BUTTON_ACTIONS}):(?P<owner>[0-9]+):(?P<game>[0-9]+):(?P<revision>[0-9]+)"
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
                label=label or label_(BUTTON_LABELS[action]),
                emoji=BUTTON_EMOJI.get(action),
                style=discord.ButtonStyle.secondary,
                disabled=not enabled,
                custom_id=board_id(action.value, owner_id, ref),
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
        async with replying(interaction) as presenter:
            await core_of(interaction).act(player_of(interaction), self.action, seen=self.ref,
                                           presenter=presenter)


class MoveMenu(discord.ui.DynamicItem[discord.ui.Select[Any]], template=(
    r"sol:menu:(?P<owner>[0-9]+):(?P<game>[0-9]+):(?P<revision>[0-9]+)"
)):
    def __init__(self, owner_id: int, ref: BoardRef, *, row: int | None = None) -> None:
        select: discord.ui.Select[Any] = discord.ui.Select(
            custom_id=board_id(MENU, owner_id, ref), min_values=1, max_values=1,
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
        async with replying(interaction) as presenter:
            if value == NO_MOVES:
                await core.act(player, Action.SHOW, seen=self.ref, presenter=presenter)
            else:
                await core.choose(player, value, seen=self.ref, presenter=presenter)


_ASKS = "|".join(f"ask:{a.value}" for a in Ask if a is not Ask.NEW_GAME)


class QuestionButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=(
    rf"sol:(?P<ask>new|{_ASKS}):(?P<answer>yes|no):(?P<owner>[0-9]+)(?P<args>(?::[a-z0-9-]+)*)"
)):
    """Yes or no to a question of the core; the owner's answer goes to
    ``Core.answer_question``."""

    def __init__(self, question: Question, yes: bool) -> None:
        super().__init__(
            discord.ui.Button(
                label=question.yes if yes else question.no,
                style=discord.ButtonStyle.danger if yes else discord.ButtonStyle.secondary,
                custom_id=question_id(question, yes),
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
        private = self.question.ask is not Ask.NEW_GAME
        async with replying(interaction, private=private) as presenter:
            await core_of(interaction).answer_question(
                player_of(interaction), self.question, self.yes,
                can_manage_server=can_manage_server(interaction), presenter=presenter,
            )


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


_CHALLENGE_ACTIONS = "|".join(d.value for d in ChallengeAction)


class ChallengeButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=(
    rf"sol:duel:(?P<action>{_CHALLENGE_ACTIONS}):(?P<challenge>[0-9]+)"
)):
    """A button of a challenge's message. Who may press it is the core's to say: it knows
    the challenge's two sides."""

    def __init__(self, action: ChallengeAction, challenge_id: int) -> None:
        super().__init__(
            discord.ui.Button(
                label=label_(CHALLENGE_LABELS[action]),
                emoji=CHALLENGE_EMOJI[action],
                style=(discord.ButtonStyle.success if action is not ChallengeAction.DECLINE
                       else discord.ButtonStyle.secondary),
                custom_id=views.challenge_id(action, challenge_id),
            ),
            row=0,
        )
        self.action = action
        self.challenge_id = challenge_id

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Item[Any],
        match: re.Match[str],
        /,
    ) -> ChallengeButton:
        return cls(ChallengeAction(match["action"]), int(match["challenge"]))

    async def interaction_check(self, interaction: discord.Interaction[Any], /) -> bool:
        return await ids_fit(interaction)

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        private = self.action is ChallengeAction.DECLINE
        async with replying(interaction, private=private) as presenter:
            await core_of(interaction).press_challenge(
                player_of(interaction), self.challenge_id, self.action, presenter=presenter
            )


class PlayByHand(discord.ui.DynamicItem[discord.ui.Button[Any]],
                 template=re.escape(PLAY_BY_HAND_ID)):
    """Opens the Activity (interaction callback LAUNCH_ACTIVITY), where the page shows the
    game of whoever pressed: the board's owner plays on there, anyone else gets their own
    game, which harms no one. No call of the core: the page asks it once open."""

    def __init__(self, *, row: int | None = None) -> None:
        super().__init__(discord.ui.Button(
            label=label_(PLAY_BY_HAND), emoji=PLAY_BY_HAND_EMOJI,
            style=discord.ButtonStyle.primary, custom_id=PLAY_BY_HAND_ID,
        ), row=row)

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Item[Any],
        match: re.Match[str],
        /,
    ) -> PlayByHand:
        return cls()

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        if serves_activity(interaction):
            try:
                await interaction.response.launch_activity()
                return
            except discord.HTTPException as err:  # no Activity here, or none set up
                log.warning("could not open the Activity for user %s: %s",
                            interaction.user.id, err)
        with speaking_to(interaction):
            note = (_("Discord could not open the page to play by hand here. The buttons "
                      "and the menu under the board play the same game.")
                    if serves_activity(interaction) else
                    _("Playing by hand is switched off on this bot for now. The buttons and "
                      "the menu under the board play the same game."))
        try:
            await tell_privately(interaction, note)
        except discord.HTTPException:
            log.warning("could not tell user %s the page did not open", interaction.user.id)


DYNAMIC_ITEMS = (BoardButton, MoveMenu, QuestionButton, ChallengeButton, PlayByHand)
