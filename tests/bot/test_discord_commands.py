"""The records commands as Discord will list them, their question buttons, and /help."""

from __future__ import annotations

from typing import Any

import discord
import pytest

from bot.config import Config
from bot.core import Core
from bot.discord.client import SolitaireBot
from bot.discord.components import BoardButton, ChallengeButton, MoveMenu, QuestionButton
from bot.discord.game_commands import GameCommands
from bot.discord.stats_commands import StatsCommands
from bot.discord.views import challenge_view, question_view
from bot.replies import CHALLENGE_LABELS, Ask, ChallengeAction, ChallengeControls, Question
from bot.store import Stores
from bot.words.help import help_text, records_help
from bot.words.phrases import DAY_TYPED_LIMIT
from tests.said import shown

GAME_IDS = ["clover-leaf", "four-leaf-clovers", "super-flower-garden", "trefoil", "corner-stones"]


@pytest.fixture
async def commands(store: Stores, core: Core) -> dict[str, dict[str, Any]]:
    bot = SolitaireBot(Config(token="unused", database_path=store.db.path), core)
    await bot.add_cog(GameCommands(core))
    await bot.add_cog(StatsCommands(core))
    return {c.name: c.to_dict(bot.tree) for c in bot.tree.get_commands()}


def options(command: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {o["name"]: o for o in command.get("options", [])}


def test_the_records_commands_and_their_options(commands: dict[str, dict[str, Any]]) -> None:
    new = {"stats", "leaderboard", "daily", "daily-board", "forget-me", "reset-server-stats"}
    assert new <= set(commands)
    for name in new:
        assert commands[name]["description"]
        assert all(o["description"] for o in commands[name].get("options", []))
    stats = options(commands["stats"])
    assert list(stats) == ["user", "game", "scope"]
    assert stats["user"]["type"] == 6 and not any(o.get("required") for o in stats.values())
    assert [c["value"] for c in stats["game"]["choices"]] == GAME_IDS
    assert [c["value"] for c in stats["scope"]["choices"]] == ["server", "all"]
    board = options(commands["leaderboard"])
    assert [c["value"] for c in board["period"]["choices"]] == ["week", "month", "all"]
    assert options(commands["daily"])["game"]["required"]
    daily_board = options(commands["daily-board"])
    assert daily_board["game"]["required"] and not daily_board["day"].get("required", False)


def test_resetting_a_server_is_for_server_managers_and_servers_only(
    commands: dict[str, dict[str, Any]],
) -> None:
    reset = commands["reset-server-stats"]
    manage_server = discord.Permissions(manage_guild=True).value
    assert str(reset["default_member_permissions"]) == str(manage_server)
    assert reset.get("contexts") == [0] and reset.get("dm_permission") is False, "consistent"
    assert commands["forget-me"]["default_member_permissions"] is None


@pytest.mark.parametrize("kind", [Ask.FORGET.value, Ask.RESET.value])
def test_question_buttons_carry_kind_answer_and_owner(kind: str) -> None:
    view = question_view(Question(Ask(kind), 123456789012345678, "Yes", "No"))
    ids = [button["custom_id"] for button in view.to_components()[0]["components"]]
    assert ids == [f"sol:ask:{kind}:yes:123456789012345678", f"sol:ask:{kind}:no:123456789012345678"]
    template = QuestionButton.__discord_ui_compiled_template__
    match = template.fullmatch(ids[0])
    assert match is not None and match.groupdict() == {
        "ask": f"ask:{kind}", "answer": "yes", "owner": "123456789012345678", "args": ""
    }
    for other in (BoardButton, MoveMenu):  # no template claims another's ids
        assert other.__discord_ui_compiled_template__.fullmatch(ids[0]) is None
    assert template.fullmatch("sol:ask:delete:yes:1") is None


def test_free_text_stops_in_the_client_and_every_description_fits(
    commands: dict[str, dict[str, Any]],
) -> None:
    move = options(commands["move"])
    assert (move["from"]["max_length"], move["to"]["max_length"]) == (40, 40)
    assert options(commands["daily-board"])["day"]["max_length"] == DAY_TYPED_LIMIT == 16
    for command in commands.values():
        assert 1 <= len(command["description"]) <= 100, command["name"]
        for option in command.get("options", []):
            assert 1 <= len(option["description"]) <= 100, (command["name"], option["name"])
            if option["type"] == 3 and "choices" not in option and not option.get("autocomplete"):
                assert option.get("max_length"), ("free text without a limit", option["name"])


def test_help_names_every_command_in_two_messages_a_translation_fits(
    commands: dict[str, dict[str, Any]],
) -> None:
    parts = shown(help_text()), shown(records_help())
    for part in parts:  # Discord's limit for a message, for a translation 40% longer
        assert len(part) <= 2000 / 1.4
    every = "\n".join(parts)
    for name in set(commands) - {"help"}:
        assert f"/{name}" in every, name
    assert "Wilson" in every and "assisted" in every


@pytest.mark.parametrize("spoken", [None, "fr"])
def test_a_challenges_buttons_are_labelled_in_the_challenges_language(
    spoken: str | None,
) -> None:
    from bot.words.language import speaking, words_for

    german = words_for("de")
    with speaking(spoken):  # whoever pressed last, or nobody (the leader's update)
        view = challenge_view(ChallengeControls(7, (ChallengeAction.ACCEPT, ChallengeAction.DECLINE), "de"))
    labels = [button["label"] for button in view.to_components()[0]["components"]]
    assert labels == [german.text(CHALLENGE_LABELS[ChallengeAction.ACCEPT]), german.text(CHALLENGE_LABELS[ChallengeAction.DECLINE])]
    assert labels[0] != CHALLENGE_LABELS[ChallengeAction.ACCEPT]  # German words, not the English ones


@pytest.mark.parametrize("language", [None, "de", "fr", "es-ES", "pt-BR"])
def test_the_commands_the_bot_writes_are_never_cut_short(language: str | None) -> None:
    """An echo of what a player typed is cut at 40 characters; a command the bot writes for
    them to type is whole, however long its words (French: `/nouvelle jeu [donne] ...`)."""
    import re

    from bot.words.language import speaking
    from bot.words.phrases import command, option

    with speaking(language):
        written = shown(help_text()) + shown(records_help())
        long_one = shown(command("new", "trefoil", "4294967295", option("draw", "True"),
                                 option("winnable", "True")))
    assert not re.search(r"`[^`]*…`", written), written
    assert "…" not in long_one and long_one.endswith(":True`")


@pytest.mark.parametrize("ask", list(Ask))
def test_a_questions_buttons_are_written_as_its_items_would_write_them(ask: Ask) -> None:
    question = Question(ask, 123456789012345678, "Oui", "Non", ("9", "trefoil", "5"))
    items = discord.ui.View(timeout=None)
    items.add_item(QuestionButton(question, True))
    items.add_item(QuestionButton(question, False))
    assert question_view(question).to_components() == items.to_components()


@pytest.mark.parametrize("language", ["en-US", "de"])
def test_a_challenges_buttons_are_written_as_its_items_would_write_them(language: str) -> None:
    from bot.words.language import speaking

    for duels in [(ChallengeAction.ACCEPT, ChallengeAction.DECLINE), (ChallengeAction.PLAY,)]:
        items = discord.ui.View(timeout=None)
        with speaking(language):
            for action in duels:
                items.add_item(ChallengeButton(action, 2**62))
        written = challenge_view(ChallengeControls(2**62, duels, language))
        assert written.to_components() == items.to_components()
