"""The buttons and move menu under a board, and the two buttons of a new-game question.

Each is a ``discord.ui.DynamicItem``: its state (owner, game row, revision) lives in the
``custom_id``, so a board keeps working after the bot restarts; ``SolitaireBot.setup_hook``
registers the classes. custom_id formats (all under Discord's 100 characters):

* board button: ``sol:<action>:<owner id>:<game row>:<revision>``, action one of
  ``undo redo found redeal``
* move menu:    ``sol:menu:<owner id>:<game row>:<revision>``; each option's value is the
  move's text (``7 3``, ``7 f2``)
* new-game question: ``sol:new:<yes|no>:<owner id>:<game row replaced>:<game id>:<deal>``

A press by anyone but the owner is refused here, before it reaches the flow.
"""

from __future__ import annotations

import logging
import re
from typing import Any, Protocol

import discord

from .flow import (
    BUTTON_LABELS,
    KEEP_LABEL,
    START_LABEL,
    Action,
    Board,
    BoardRef,
    Flow,
    NewGameOffer,
    Player,
    stranger_note,
)
from .respond import answer_press

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


class HasFlow(Protocol):
    flow: Flow


def flow_of(interaction: discord.Interaction[Any]) -> Flow:
    client: HasFlow = interaction.client  # SolitaireBot
    return client.flow


def player_of(interaction: discord.Interaction[Any]) -> Player:
    return Player(user_id=interaction.user.id, guild_id=interaction.guild_id)


async def owner_only(interaction: discord.Interaction[Any], owner_id: int) -> bool:
    """True for the owner; anyone else is told, privately, whose game it is."""
    if interaction.user.id == owner_id:
        return True
    try:
        await interaction.response.send_message(stranger_note(f"<@{owner_id}>"), ephemeral=True)
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
        enabled: bool = True,
        row: int | None = None,
    ) -> None:
        super().__init__(
            discord.ui.Button(
                label=BUTTON_LABELS[action],
                emoji=_EMOJI.get(action),
                style=discord.ButtonStyle.secondary,
                disabled=not enabled,
                custom_id=f"sol:{action.value}:{owner_id}:{ref.game_row}:{ref.revision}",
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
        flow = flow_of(interaction)
        await answer_press(
            interaction, flow.act(player_of(interaction), self.action, seen=self.ref)
        )


class MoveMenu(discord.ui.DynamicItem[discord.ui.Select[Any]], template=(
    r"sol:menu:(?P<owner>\d+):(?P<game>\d+):(?P<revision>\d+)"
)):
    def __init__(
        self, owner_id: int, ref: BoardRef, board: Board | None = None, *, row: int | None = None
    ) -> None:
        select: discord.ui.Select[Any] = discord.ui.Select(
            custom_id=f"sol:menu:{owner_id}:{ref.game_row}:{ref.revision}",
            min_values=1,
            max_values=1,
        )
        if board is not None:
            controls = board.controls
            select.placeholder = controls.menu_placeholder[:150]
            for option in controls.menu:
                select.add_option(label=option.label[:100], value=option.value)
            if not controls.menu:
                select.add_option(label=controls.menu_placeholder[:100], value=_NO_MOVES)
                select.disabled = True
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
        move = values[0] if values else ""
        flow = flow_of(interaction)
        if move == _NO_MOVES:
            work = flow.act(player_of(interaction), Action.SHOW, seen=self.ref)
        else:
            work = flow.act(player_of(interaction), Action.MOVE, move, seen=self.ref)
        await answer_press(interaction, work)


class NewGameButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=(
    r"sol:new:(?P<answer>yes|no):(?P<owner>\d+):(?P<replacing>\d+):"
    r"(?P<game>[a-z-]+):(?P<deal>\d+)(?P<draw>:draw)?"
)):
    def __init__(self, yes: bool, offer: NewGameOffer) -> None:
        answer = "yes" if yes else "no"
        super().__init__(
            discord.ui.Button(
                label=START_LABEL if yes else KEEP_LABEL,
                style=discord.ButtonStyle.danger if yes else discord.ButtonStyle.secondary,
                custom_id=(
                    f"sol:new:{answer}:{offer.owner_id}:{offer.replacing}:"
                    f"{offer.game_id}:{offer.deal}{':draw' if offer.draw else ''}"
                ),
            ),
            row=0,
        )
        self.yes = yes
        self.offer = offer

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Item[Any],
        match: re.Match[str],
        /,
    ) -> NewGameButton:
        offer = NewGameOffer(
            owner_id=int(match["owner"]),
            replacing=int(match["replacing"]),
            game_id=match["game"],
            deal=int(match["deal"]),
            text="",
            draw=match["draw"] is not None,
        )
        return cls(match["answer"] == "yes", offer)

    async def interaction_check(self, interaction: discord.Interaction[Any], /) -> bool:
        return await owner_only(interaction, self.offer.owner_id)

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        flow = flow_of(interaction)
        player = player_of(interaction)
        offer = self.offer
        if self.yes:
            work = flow.confirm_new(
                player, offer.replacing, offer.game_id, offer.deal, draw=offer.draw
            )
        else:
            work = flow.act(player, Action.SHOW)
        await answer_press(interaction, work)


DYNAMIC_ITEMS = (BoardButton, MoveMenu, NewGameButton)


def board_view(board: Board) -> discord.ui.View:
    """Buttons five to a row (Discord's limit), then the move menu on a row of its own."""
    view = discord.ui.View(timeout=None)
    buttons = board.controls.buttons
    for i, button in enumerate(buttons):
        view.add_item(
            BoardButton(
                button.action, board.owner_id, board.ref, enabled=button.enabled, row=i // 5
            )
        )
    view.add_item(MoveMenu(board.owner_id, board.ref, board, row=(len(buttons) + 4) // 5))
    return view


def offer_view(offer: NewGameOffer) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(NewGameButton(True, offer))
    view.add_item(NewGameButton(False, offer))
    return view
