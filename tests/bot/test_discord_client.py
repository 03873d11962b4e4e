"""The Discord side that runs without Discord: command sync decisions, custom ids, the tree."""

from __future__ import annotations

import re
from collections.abc import AsyncIterator
from dataclasses import replace
from typing import Any

import discord
import pytest

from bot.config import Config
from bot.core import Core
from bot.discord.client import SolitaireBot
from bot.discord.components import DYNAMIC_ITEMS, BoardButton, MoveMenu, PlayByHand, QuestionButton
from bot.discord.game_commands import GameCommands
from bot.discord.limits import MENU_LIMIT, cut
from bot.discord.rate_limits import CHANNEL_EDITS_PER_S
from bot.discord.views import board_view, question_view
from bot.flows.game import GameFlow
from bot.replies import BUTTON_LABELS, Ask, Board, BoardRef, Controls, MenuOption, Question
from bot.store import Stores
from bot.words.menu import menu_of

from .conftest import ALICE


@pytest.fixture
async def bot(store: Stores, core: Core) -> AsyncIterator[SolitaireBot]:
    made = SolitaireBot(Config(token="unused", database_path=store.db.path), core)
    await made.add_cog(GameCommands(made.core))
    calls: list[Any] = []

    async def fake_sync(*, guild: discord.abc.Snowflake | None = None) -> list[Any]:
        calls.append(guild)
        return []

    made.tree.sync = fake_sync  # type: ignore[method-assign]
    made.sync_calls = calls  # type: ignore[attr-defined]
    yield made


async def test_commands_sync_once_then_only_when_changed_or_forced(bot: SolitaireBot) -> None:
    calls = bot.sync_calls  # type: ignore[attr-defined]
    assert await bot.sync_commands() is True
    assert await bot.sync_commands() is False  # same commands: Discord is not called
    assert len(calls) == 1
    assert await bot.sync_commands(force=True) is True  # --sync
    bot.tree.get_command("help").description = "Something new"  # type: ignore[union-attr]
    assert await bot.sync_commands() is True
    assert len(calls) == 3


async def test_a_dev_guild_gets_its_own_sync(bot: SolitaireBot, store: Stores) -> None:
    await bot.sync_commands()
    guild_bot = SolitaireBot(Config(database_path=store.db.path, dev_guild_id=4242), bot.core)
    await guild_bot.add_cog(GameCommands(bot.core))
    synced: list[Any] = []

    async def fake_sync(*, guild: discord.abc.Snowflake | None = None) -> list[Any]:
        synced.append(guild)
        return []

    guild_bot.tree.sync = fake_sync  # type: ignore[method-assign]
    assert await guild_bot.sync_commands() is True  # the global hash does not cover the guild
    assert [g.id for g in synced] == [4242]
    assert await guild_bot.sync_commands() is False


def test_the_slash_commands_and_their_options(bot: SolitaireBot) -> None:
    payload = {c.name: c.to_dict(bot.tree) for c in bot.tree.get_commands()}
    assert sorted(payload) == sorted(
        ["new", "move", "undo", "redo", "redeal", "hint", "show", "resign", "rules", "settings",
         "help"]
    )
    for command in payload.values():
        assert command["description"]
        for option in command.get("options", []):
            assert option["description"], (command["name"], option["name"])
    move = {o["name"]: o for o in payload["move"]["options"]}
    assert list(move) == ["from", "to"]
    assert move["from"]["required"] and not move["to"].get("required", False)
    assert move["from"]["autocomplete"] and move["to"]["autocomplete"]
    assert move["from"]["type"] == move["to"]["type"] == 3  # strings
    new = {o["name"]: o for o in payload["new"]["options"]}
    assert [c["value"] for c in new["game"]["choices"]] == [
        "clover-leaf", "four-leaf-clovers", "super-flower-garden", "trefoil", "corner-stones"
    ]
    assert new["deal"]["type"] == 4 and new["deal"]["min_value"] == 1
    assert new["winnable"]["type"] == 5 and not new["winnable"].get("required", False)
    assert new["draw"]["type"] == 5 and not new["draw"].get("required", False)
    assert [c["value"] for c in {o["name"]: o for o in payload["rules"]["options"]}["game"]["choices"]]


async def test_board_controls_carry_owner_game_and_revision(flow: GameFlow) -> None:
    reply = await flow.new_game(ALICE, "corner-stones", 1)
    assert reply.board is not None
    view = board_view(reply.board)
    assert view.is_finished()  # so discord.py sends it and keeps nothing: presses go by id
    rows = view.to_components()
    assert len(rows) == 3  # buttons five to a row, then the menu
    controls = [c for row in rows for c in row["components"]]
    ids = [c["custom_id"] for c in controls]
    row = reply.board.ref.game_row
    assert ids == [
        f"sol:undo:111:{row}:0", f"sol:redo:111:{row}:0", f"sol:found:111:{row}:0",
        f"sol:redeal:111:{row}:0", f"sol:hint:111:{row}:0", f"sol:finish:111:{row}:0",
        f"sol:menu:111:{row}:0",
    ]
    assert all(len(i) <= 100 for i in ids)
    for item, custom_id in zip((*[BoardButton] * 6, MoveMenu), ids, strict=True):
        assert item.__discord_ui_compiled_template__.fullmatch(custom_id)
    assert [c["disabled"] for c in controls[:6]] == [True, True, False, True, False, True]
    menu = controls[-1]
    assert len(menu["options"]) == len(menu_of(reply.board.controls, MENU_LIMIT)[0]) <= 25
    assert not menu["disabled"]


def _as_discord_py_writes_it(board: Board, *, play_by_hand: bool = False
                             ) -> list[dict[str, Any]]:
    """A board's controls as discord.py's own objects give them: ``BoardButton``,
    ``PlayByHand`` and ``MoveMenu`` items in a view."""
    view = discord.ui.View(timeout=None)
    controls = board.controls
    for i, button in enumerate(controls.buttons):
        view.add_item(BoardButton(button.action, board.owner_id, board.ref, label=button.label,
                                  enabled=button.enabled, row=i // 5))
    buttons = len(controls.buttons)
    if play_by_hand:
        view.add_item(PlayByHand(row=buttons // 5))
        buttons += 1
    menu = MoveMenu(board.owner_id, board.ref, row=(buttons + 4) // 5)
    options, placeholder = menu_of(controls, MENU_LIMIT)
    menu.item.placeholder = cut(placeholder, 150)  # Discord's limits, marked as cut
    for option in options:
        menu.item.add_option(label=cut(option.label, 100), value=option.value)
    if not options:
        menu.item.add_option(label=cut(placeholder, 100), value="none")
        menu.item.disabled = True
    view.add_item(menu)
    return view.to_components()


@pytest.mark.parametrize("game_id", ["clover-leaf", "four-leaf-clovers", "super-flower-garden",
                                     "trefoil", "corner-stones"])
async def test_a_boards_controls_are_written_as_discord_py_would(
    flow: GameFlow, game_id: str
) -> None:
    reply = await flow.new_game(ALICE, game_id, 3)
    assert reply.board is not None
    board = reply.board
    long = "x" * 160
    variants = [
        board,
        replace(board, controls=replace(board.controls, menu=(), menu_placeholder=long)),
        replace(board, controls=Controls(
            tuple(replace(b, enabled=not b.enabled, label=b.label * 9) for b in
                  board.controls.buttons[:4]),
            (*board.controls.menu[:3], MenuOption("7 f2", long)), "Pick one",
        )),
        replace(board, controls=replace(board.controls, buttons=())),
    ]
    for variant in variants:
        assert board_view(variant).to_components() == _as_discord_py_writes_it(variant)
        assert (board_view(variant, play_by_hand=True).to_components()
                == _as_discord_py_writes_it(variant, play_by_hand=True))


async def test_play_by_hand_ends_the_buttons_five_to_a_row_before_the_menu(
    flow: GameFlow
) -> None:
    reply = await flow.new_game(ALICE, "corner-stones", 1)
    assert reply.board is not None
    rows = board_view(reply.board, play_by_hand=True).to_components()
    assert [len(row["components"]) for row in rows] == [5, 2, 1]
    launch = rows[1]["components"][-1]
    assert launch["custom_id"] == "sol:hand" and launch["label"] == "Play by hand"
    assert PlayByHand.__discord_ui_compiled_template__.fullmatch(launch["custom_id"])
    assert rows[-1]["components"][0]["type"] == 3  # the move menu, last
    assert [item for item in DYNAMIC_ITEMS
            if item.__discord_ui_compiled_template__.fullmatch("sol:hand")] == [PlayByHand]
    assert len(board_view(reply.board).to_components()) == 3  # without it: as before


@pytest.mark.parametrize(
    ("custom_id", "cls", "fields"),
    [
        ("sol:found:111:7:12", BoardButton, {"action": "found", "owner": "111", "game": "7", "revision": "12"}),
        ("sol:menu:111:7:12", MoveMenu, {"owner": "111", "game": "7", "revision": "12"}),
        ("sol:new:yes:111:7:four-leaf-clovers:2147483647", QuestionButton,
         {"ask": "new", "answer": "yes", "owner": "111", "args": ":7:four-leaf-clovers:2147483647"}),
        ("sol:new:no:111:7:trefoil:5:draw", QuestionButton,
         {"ask": "new", "answer": "no", "owner": "111", "args": ":7:trefoil:5:draw"}),
    ],
)
def test_custom_ids_parse_back(custom_id: str, cls: Any, fields: dict[str, str]) -> None:
    match = cls.__discord_ui_compiled_template__.fullmatch(custom_id)
    assert match is not None and match.groupdict() == fields


def test_other_custom_ids_are_not_ours() -> None:
    for custom_id in ("sol:fly:1:2:3", "sol:menu:x:2:3", "other:undo:1:2:3", "sol:handy"):
        for cls in (BoardButton, MoveMenu, QuestionButton, PlayByHand):
            assert cls.__discord_ui_compiled_template__.fullmatch(custom_id) is None


async def test_a_pressed_new_game_question_keeps_the_draw_rule() -> None:
    question = Question(Ask.NEW_GAME, 111, "Start new game", "Keep playing",
                        ("9", "trefoil", "5", "draw"))
    button = question_view(question).to_components()[0]["components"][0]
    match = QuestionButton.__discord_ui_compiled_template__.fullmatch(button["custom_id"])
    assert match is not None
    parsed = await QuestionButton.from_custom_id(None, None, match)  # type: ignore[arg-type]
    assert parsed.question.args == ("9", "trefoil", "5", "draw") and parsed.yes
    assert parsed.question.ask is Ask.NEW_GAME and parsed.question.owner_id == 111


def test_a_new_game_question_has_start_and_keep_buttons() -> None:
    question = Question(Ask.NEW_GAME, 111, "Start new game", "Keep playing",
                        ("9", "super-flower-garden", "2147483647"))
    buttons = question_view(question).to_components()[0]["components"]
    assert [button["label"] for button in buttons] == ["Start new game", "Keep playing"]
    assert all(len(button["custom_id"]) <= 100 for button in buttons)


def test_every_button_action_is_in_the_template() -> None:
    for action in BUTTON_LABELS:
        button = BoardButton(action, 5, BoardRef(1, 2))
        assert re.fullmatch(BoardButton.__discord_ui_compiled_template__, button.custom_id)


async def test_closing_stops_the_page_before_the_core(store: Stores, core: Core) -> None:
    """The page's server takes moves over the core: it stops first, so none reaches a
    closed core."""
    order: list[str] = []

    class Page:
        async def close(self) -> None:
            order.append("page")

    closing_core = core.close

    async def close_core() -> None:
        order.append("core")
        await closing_core()

    core.close = close_core  # type: ignore[method-assign]
    made = SolitaireBot(Config(token="unused", database_path=store.db.path), core,
                        page=Page())  # type: ignore[arg-type]
    async with made:  # not logged in: the block's end closes it, as run_bot's does
        pass
    assert order == ["page", "core"]


async def test_a_shard_process_leaves_the_pages_process_its_part_of_the_edit_budget(
    store: Stores, core: Core,
) -> None:
    """Two shard processes of a fleet with the Activity set up take a third of the channel
    edits' budget each: the page's own process (--web) takes the last third."""
    fleet = Config(token="unused", database_path=store.db.path, shard_count=2, shard_ids=(1,))
    with_page = replace(fleet, client_id="1", client_secret="s")
    rates = [SolitaireBot(config, core).tidy.budget.rate for config in (fleet, with_page)]
    assert rates == [pytest.approx(CHANNEL_EDITS_PER_S / 2),
                     pytest.approx(CHANNEL_EDITS_PER_S / 3)]
