"""Whom the core answers in which language: the player's, as Discord tells it."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from types import SimpleNamespace
from typing import Any

import discord
import pytest

from bot.core import Core
from bot.discord.context import player_of
from bot.replies import Action, Ask, Player, Question
from bot.words.language import current, speaking
from tests.marked_language import installed, marked
from tests.said import shown

from .conftest import ALICE
from .presenting import Recorder, answer

GERMAN_ALICE = replace(ALICE, language="de")


@pytest.fixture
def german() -> Iterator[None]:
    with installed(marked("de")):
        yield


def interaction(**given: Any) -> Any:
    """What ``player_of`` reads of an interaction."""
    return SimpleNamespace(user=SimpleNamespace(id=5), **given)


def test_a_player_speaks_their_discords_language_and_a_server_its_own() -> None:
    in_server = interaction(guild_id=7, locale=discord.Locale.german,
                            guild_locale=discord.Locale.french)
    assert player_of(in_server) == Player(5, 7, language="de", server_language="fr")
    in_dm = interaction(guild_id=None, locale=discord.Locale.brazil_portuguese,
                        guild_locale=None)
    assert player_of(in_dm) == Player(5, None, language="pt-BR", server_language=None)
    assert player_of(in_dm).shared_language == "pt-BR"


async def test_the_core_answers_in_the_players_language(core: Core, german: None) -> None:
    stale = Question(Ask.NEW_GAME, GERMAN_ALICE.user_id, "", "", ("x",))
    german_reply = await answer(core.answer_question, GERMAN_ALICE, stale, True)
    english_reply = await answer(core.answer_question, ALICE, stale, True)
    assert shown(german_reply.note) == "«That question is out of date; `/newß` starts a game.»"
    assert shown(english_reply.note) == "That question is out of date; `/new` starts a game."


async def test_a_board_knows_the_language_it_was_worded_in(core: Core, german: None) -> None:
    german_board = (await answer(core.new_game, GERMAN_ALICE, "trefoil", 3)).board
    english_board = (await answer(core.new_game, replace(ALICE, user_id=9), "trefoil", 3)).board
    assert german_board is not None and german_board.language == "de"
    assert english_board is not None and english_board.language == "en-US"


async def test_the_solver_looks_at_a_board_in_the_boards_language(
    core: Core, german: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A later "no win is possible" is worded as the board was, whoever is speaking when
    the board is shown (the background check keeps the language spoken then)."""
    spoken: list[str] = []

    async def verdict(board: Any) -> None:
        spoken.append(current().code)

    monkeypatch.setattr(core.verdicts, "request_verdict",
                        lambda board, amend, *, within=None: spoken.append(current().code))
    monkeypatch.setattr(core.verdicts, "verdict", verdict)
    with speaking("fr"):
        await core.new_game(GERMAN_ALICE, "trefoil", 3, presenter=Recorder())
        await core.act(GERMAN_ALICE, Action.SHOW, presenter=Recorder(awaits_verdict=True))
    assert spoken == ["de", "de"]
