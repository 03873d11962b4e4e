"""The table of player actions is what every place offers: each place is asked what it does
for each action, and its answer held to the action's line in ``replies/player_actions.py``
(the page's server and tool bar: ``tests/web/test_page_actions.py``)."""

from __future__ import annotations

import io
import re
from pathlib import Path
from typing import Any, cast

import pytest

from bot.config import Config
from bot.console.terminal import Console
from bot.core import Core
from bot.discord.client import SolitaireBot
from bot.discord.components import BoardButton
from bot.discord.game_commands import GameCommands
from bot.discord.views import board_view
from bot.flows.actions import CONFIRMED, plays_at_once
from bot.flows.boards import controls
from bot.flows.game import GameFlow
from bot.replies import Board, BoardRef, Player
from bot.replies.player_actions import ACTIONS, Action, PlayerAction
from bot.replies.text import Text
from bot.store import PLAYING, SavedGame
from bot.words.language import label
from engine import Game, Move, new_game
from tests.said import shown

from .conftest import ALICE

BUTTONS = [a for a in ACTIONS if a.label is not None]
SWEPT = [a for a in ACTIONS if a.action is not Action.MOVE]  # /move takes the move after it


def test_every_action_has_one_line_and_a_tool_or_an_emoji_has_its_button() -> None:
    assert sorted(a.action for a in ACTIONS) == sorted(Action)
    for line in ACTIONS:
        assert line.label is not None or (line.tool is None and line.emoji is None), line
    tools = [a.tool for a in ACTIONS if a.tool is not None]
    assert sorted(tools) == list(range(1, len(tools) + 1))  # a place each, from the left


def test_discords_board_has_the_tables_buttons_in_order_with_their_emoji() -> None:
    board = Board(7, BoardRef(3, 4), Text(), "board.png", controls(new_game("trefoil", 1), False),
                  finished=False)
    rows = board_view(board).to_components()
    written = [b for row in rows[:-1] for b in row["components"]]
    assert [(b["custom_id"].split(":")[1], b["label"], b["emoji"]["name"]) for b in written] == [
        (a.action.value, label(a.label or ""), a.emoji) for a in BUTTONS]
    assert [c["type"] for c in rows[-1]["components"]] == [3]  # then the move menu alone


@pytest.mark.parametrize("line", ACTIONS, ids=[a.action.value for a in ACTIONS])
def test_a_press_comes_back_for_a_button_of_the_table_and_for_nothing_else(
    line: PlayerAction,
) -> None:
    template = BoardButton.__discord_ui_compiled_template__
    pressed = re.fullmatch(template, f"sol:{line.action.value}:5:1:2")
    assert (pressed is not None) == (line.label is not None)


class Acting:
    """A core that keeps the actions asked of it."""

    def __init__(self) -> None:
        self.acted: list[Action] = []

    async def act(self, player: Player, action: Action, arg: str | None = None,
                  **_: Any) -> None:
        self.acted.append(action)


@pytest.mark.parametrize("line", SWEPT, ids=[a.action.value for a in SWEPT])
async def test_the_console_takes_a_command_typed_alone_for_what_the_table_types(
    line: PlayerAction, tmp_path: Path
) -> None:
    core = Acting()
    out = io.StringIO()
    console = Console(cast(Core, core), tmp_path, out, colour=False)
    await console.handle(f"/{line.action.value}")
    assert core.acted == ([line.action] if line.typed else []), out.getvalue()
    if not line.typed:
        assert f"There is no command /{line.action.value}" in out.getvalue()


async def test_the_console_presses_each_button_of_the_table_by_its_label(
    tmp_path: Path,
) -> None:
    core = Acting()
    console = Console(cast(Core, core), tmp_path, io.StringIO(), colour=False)
    for line in BUTTONS:
        await console.handle(label(line.label or ""))
    assert core.acted == [a.action for a in BUTTONS]


async def test_discord_has_a_slash_command_with_nothing_after_it_for_each_one_typed(
    db_path: Path, core: Core
) -> None:
    bot = SolitaireBot(Config(token="unused", database_path=db_path), core)
    await bot.add_cog(GameCommands(core))
    commands = {c.name: c.to_dict(bot.tree) for c in bot.tree.get_commands()}
    for line in ACTIONS:
        if line.typed:
            assert not commands[line.action.value].get("options"), line
        elif line.action is not Action.MOVE:
            assert line.action.value not in commands, line


@pytest.mark.parametrize("line", ACTIONS, ids=[a.action.value for a in ACTIONS])
def test_what_changes_the_game_is_played_on_its_copy_in_memory(line: PlayerAction) -> None:
    cached = SavedGame(id=1, user_id=7, guild_id=None, game=new_game("trefoil", 1),
                       status=PLAYING, revision=2, undos=0, hints=0, seconds_played=0.0,
                       daily=None, started_at=0.0, updated_at=0.0, finished_at=None)
    assert plays_at_once(cached, line.action, CONFIRMED, None) == line.changes_game


async def test_the_safe_moves_go_up_after_what_the_table_says_they_follow(
    flow: GameFlow, monkeypatch: pytest.MonkeyPatch
) -> None:
    await flow.new_game(ALICE, "trefoil", 27)
    await flow.settings.change(ALICE, auto_moves=True)
    followed: list[Action] = []
    safe_moves = Game.play_safe_moves

    def watched(game: Game) -> list[Move]:
        followed.append(action)
        return safe_moves(game)

    monkeypatch.setattr(Game, "play_safe_moves", watched)
    lines = {a.action: a for a in ACTIONS}
    for action, arg in ((Action.MOVE, "7 f1"), (Action.UNDO, None), (Action.REDO, None),
                        (Action.REDEAL, None), (Action.UNDO, None)):
        reply = await flow.act(ALICE, action, arg)
        assert not reply.refused, shown(reply.text)
        assert followed == ([action] if lines[action].auto_after else []), action
        followed.clear()
