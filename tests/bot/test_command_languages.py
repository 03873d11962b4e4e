"""The slash commands in each language: what is synced, what Discord would refuse, and what
the catalog's extraction finds."""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import discord
import pytest
from babel import Locale
from babel.messages.extract import extract_from_file
from discord.app_commands import Command

from bot.config import Config
from bot.core import Core
from bot.discord.client import SolitaireBot
from bot.discord.game_commands import GameCommands
from bot.discord.limits import is_name, is_text
from bot.discord.stats_commands import StatsCommands
from bot.discord.together_commands import TogetherCommands
from bot.discord.translator import CatalogTranslator
from bot.store import Stores
from bot.words.language import ENGLISH, LANGUAGES, Words, speaking
from bot.words.phrases import command
from engine import GAMES
from tests.marked_language import Marked, broken, installed, marked
from tests.said import shown

ADAPTER = Path(__file__).resolve().parents[2] / "bot" / "discord"
# How Babel finds the commands' words (besides the keywords of every message): a name
# with its context first, a description as it is.
KEYWORDS = {"named": ((1, "c"), 2), "locale_str": None}


@pytest.fixture
async def bot(store: Stores, core: Core) -> AsyncIterator[SolitaireBot]:
    made = SolitaireBot(Config(token="unused", database_path=store.db.path), core)
    for cog in (GameCommands, StatsCommands, TogetherCommands):
        await made.add_cog(cog(core))
    await made.tree.set_translator(CatalogTranslator())
    synced: list[Any] = []

    async def fake_sync(*, guild: discord.abc.Snowflake | None = None) -> list[Any]:
        synced.append(guild)
        return []

    made.tree.sync = fake_sync  # type: ignore[method-assign]
    yield made


@pytest.fixture
def german() -> Iterator[None]:
    with installed(marked("de")):
        yield


def parts(payload: list[dict[str, Any]]) -> Iterator[tuple[str, dict[str, Any]]]:
    """Every command, option and choice of a payload, with what it is."""
    for cmd in payload:
        yield "command", cmd
        for option in cmd.get("options", []):
            yield "option", option
            for choice in option.get("choices", []):
                yield "choice", choice


def german_of(localizations: dict[str, str] | None) -> dict[str, str]:
    """The German entry of a part's localizations: the shipped catalogs add their own."""
    return {code: text for code, text in (localizations or {}).items() if code == "de"}


async def test_every_command_option_and_choice_is_synced_in_the_language(
    bot: SolitaireBot, german: None
) -> None:
    payload = await bot.commands_payload()
    assert len(payload) == 19
    for kind, part in parts(payload):
        if kind == "choice":
            proper_name = part["name"] in GAMES.values()  # a game's name: the same everywhere
            wanted = {} if proper_name else {"de": f"«{part['name']}»"}
            assert german_of(part.get("name_localizations")) == wanted, part
            continue
        assert german_of(part["name_localizations"]) == {"de": part["name"] + "ß"}, part
        assert german_of(part["description_localizations"]) == {
            "de": f"«{part['description']}»"}, part


async def test_a_reply_names_a_command_as_the_player_sees_it(
    bot: SolitaireBot, german: None
) -> None:
    synced = {c["name"]: c for c in await bot.commands_payload()}
    with speaking("de"):
        assert shown(command("new", "trefoil")) == "`/newß trefoil`"
        assert shown(command("daily-board")) == (
            f"`/{synced['daily-board']['name_localizations']['de']}`")


async def test_a_translation_discord_would_refuse_is_not_sent(
    bot: SolitaireBot, caplog: pytest.LogCaptureFixture
) -> None:
    with installed(broken("de")), caplog.at_level(logging.WARNING):
        payload = await bot.commands_payload()
    for kind, part in parts(payload):
        assert not german_of(part.get("description_localizations")), "too long: English shown"
        if kind == "command":
            assert not german_of(part["name_localizations"]), "capitals and a space"
            options = part.get("options", [])
            if len(options) > 1:
                assert not any(german_of(o.get("name_localizations")) for o in options), (
                    "named alike")
            elif options:
                assert german_of(options[0]["name_localizations"]) == {"de": "wert"}, (
                    "alone: kept")
        if kind == "choice":
            assert not german_of(part.get("name_localizations")), (
                "a choice's name over 100 characters")
    assert "the de translation of 'new' is not a name Discord takes" in caplog.text


async def test_the_shipped_catalogs_keep_discords_rules(
    bot: SolitaireBot, caplog: pytest.LogCaptureFixture
) -> None:
    """Whatever catalogs exist: no translation of a command's words is dropped, and no two
    commands have one name in a language."""
    with caplog.at_level(logging.WARNING, logger="bot.discord.translator"):
        payload = await bot.commands_payload()
    assert caplog.records == [], "a translation that Discord would refuse"
    for language in set(LANGUAGES) - {ENGLISH}:
        names = [c.get("name_localizations", {}).get(language, c["name"]) for c in payload]
        assert len(set(names)) == len(names), language
    for kind, part in parts(payload):
        for text in part.get("name_localizations", {}).values():
            assert is_text(text) if kind == "choice" else is_name(text), (part["name"], text)
        for text in part.get("description_localizations", {}).values():
            assert is_text(text)


def test_discords_rules_for_names() -> None:
    assert is_name("neu") and is_name("tägliche-rangliste") and is_name("nouvelle_partie")
    assert not is_name("Neu") and not is_name("neues spiel") and not is_name("neu!")
    assert not is_name("") and not is_name("x" * 33) and is_name("x" * 32)
    assert is_text("x" * 100) and not is_text("x" * 101) and not is_text("")


async def test_a_changed_translation_syncs_again(bot: SolitaireBot) -> None:
    assert await bot.sync_commands() is True
    with installed(marked("de")):
        assert await bot.sync_commands() is True, "German names are new"
        assert await bot.sync_commands() is False

    class Reworded(Marked):
        def gettext(self, message: str) -> str:
            return super().gettext(message.replace("solitaire", "patience"))

    with installed(Words("de", Reworded(), Locale.parse("en_US"))):
        assert await bot.sync_commands() is True, "one description reworded"


def test_the_commands_words_are_found_by_the_catalogs_extraction(bot: SolitaireBot) -> None:
    """Each name in its context (a command's in "command", where ``phrases.command`` looks
    it up too), each description as it is."""
    found = {
        (context, message)
        for source in ADAPTER.glob("*.py")
        for _line, message, _comments, context in extract_from_file(
            "python", source, keywords=KEYWORDS
        )
    }
    wanted: set[tuple[str | None, str]] = set()
    for cmd in bot.tree.get_commands():
        assert isinstance(cmd, Command)
        wanted |= {("command", cmd.name), (None, cmd.description)}
        for parameter in cmd.parameters:
            wanted |= {("option", parameter.display_name), (None, parameter.description)}
            wanted |= {("choice", c.name) for c in parameter.choices
                       if c.name not in GAMES.values()}
    assert len(wanted) > 60
    assert wanted <= found, wanted - found


async def test_every_command_and_option_is_named_in_every_language(bot: SolitaireBot) -> None:
    """French /stats was synced without a French name (its translation was the English
    word, which is left out): every name now has its own in each shipped language."""
    payload = await bot.commands_payload()
    others = set(LANGUAGES) - {ENGLISH}
    for kind, part in parts(payload):
        if kind == "choice" and part["name"] in GAMES.values():
            continue  # a game's name is the same everywhere
        named = set(part.get("name_localizations") or {})
        assert others <= named, (kind, part["name"], sorted(others - named))


async def test_a_command_name_keeps_its_languages_accents(bot: SolitaireBot) -> None:
    """One rule for every language, as Discord allows: German kept auto_züge while French
    wrote /regles and portee."""
    payload = await bot.commands_payload()
    french = {part["name"]: part["name_localizations"]["fr"]
              for kind, part in parts(payload) if kind != "choice"}
    assert french["rules"] == "règles" and french["settings"] == "réglages"
    assert french["challenge"] == "défi" and french["scope"] == "portée"
    assert french["period"] == "période" and french["private_boards"] == "plateaux_privés"
    german = {part["name"]: part["name_localizations"]["de"]
              for kind, part in parts(payload) if kind != "choice"}
    assert german["auto_moves"] == "auto_züge"
