"""The same game in German and in English, through Discord: the same moves and the same
state, in other words.

German is the tests' marked language (``tests/marked_language.py``), which shows what was
translated and whose marks come off to give the English back, word for word; and, once it
is written, the real German catalog, which must give other words than English.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from engine import FOUNDATION, PILE
from tests.marked_language import installed, marked, unmarked

from .conftest import SkippingClock
from .fake_discord import FakeDiscord, MessageState, Reply
from .harness import bot_in_process
from .play import Mirror, board_of, move_options

Translation = Callable[[str], str] | None  # back to English, where the marks allow it


@pytest.fixture(params=["marked", "catalog"])
def german(request: pytest.FixtureRequest) -> Iterator[Translation]:
    if request.param == "marked":
        with installed(marked("de")):
            yield unmarked
    else:
        yield None


@pytest.fixture
async def bot(
    fake: FakeDiscord, database: Path, clock: SkippingClock, german: Translation
) -> AsyncIterator[Any]:
    """The bot, started once German is spoken: it syncs its commands in German too."""
    async with bot_in_process(fake, database, clock=clock) as running:
        yield running


def _anyone(text: str, fake: FakeDiscord) -> str:
    """``text`` with the players named alike (each side's board names its own)."""
    for user in fake.users.values():
        text = text.replace(str(user.id), "<player>")
    return text


def said_alike(english: str, german: str, back: Translation, fake: FakeDiscord) -> None:
    """The German says what the English says, in other words where it was translated."""
    english, german = _anyone(english, fake), _anyone(german, fake)
    if back is not None:
        assert back(german) == english
    else:  # the real catalog: other words
        assert german != english


def same_board(english: Reply | MessageState, german: Reply | MessageState, back: Translation,
               fake: FakeDiscord) -> None:
    """Two boards of one position: the same moves offered and the same buttons enabled,
    each saying so in its language."""
    en, de = board_of(english), board_of(german)
    assert de.select.values == en.select.values
    assert de.select.disabled == en.select.disabled
    assert [_action(b.custom_id) for b in de.buttons] == [_action(b.custom_id) for b in en.buttons]
    assert [b.disabled for b in de.buttons] == [b.disabled for b in en.buttons]
    said_alike(en.text, de.text, back, fake)
    if back is not None:  # one label may be the same word in both languages
        for en_words, de_words in [
            *zip(en.select.option_labels, de.select.option_labels, strict=True),
            (en.select.placeholder or "", de.select.placeholder or ""),
            *((a.label or "", b.label or "") for a, b in zip(en.buttons, de.buttons, strict=True)),
            *zip(en.alt_texts, de.alt_texts, strict=True),
        ]:
            assert back(de_words or "") == (en_words or "")


def _action(custom_id: str | None) -> str:
    return (custom_id or "").split(":")[1]


async def test_the_commands_are_synced_in_german(
    fake: FakeDiscord, bot: Any, german: Translation
) -> None:
    for command in fake.commands[None].values():
        assert "de" in command["description_localizations"], command["name"]
        assert "de" in command["name_localizations"], command["name"]
        if german is not None:
            assert command["name_localizations"]["de"] == command["name"] + "ß"
            for option in command.get("options", []):
                assert option["name_localizations"]["de"] == option["name"] + "ß"


async def test_the_same_game_in_german_and_english(
    fake: FakeDiscord, bot: Any, german: Translation
) -> None:
    alice, bob = fake.users["alice"], fake.users["bob"]
    fake.set_locale(bob, "de")
    mirror = Mirror("trefoil", 2)

    boards: list[Any] = [None, None]  # each player's board: a command posts a new one

    async def both(play: Callable[[Any, Any], Any]) -> None:
        english, deutsch = await play(alice, boards[0]), await play(bob, boards[1])
        same_board(english, deutsch, german, fake)
        boards[:] = [english.message_id, deutsch.message_id]

    await both(lambda who, _board: fake.command(who, "new", {"game": "trefoil", "deal": 2}))
    move = mirror.first_move(kind=PILE)
    await both(lambda who, _board: fake.command(who, "move", move_options(move)))
    mirror.play(move)
    up = mirror.first_move(kind=FOUNDATION)
    await both(lambda who, board: fake.select(who, board, values=[up]))
    mirror.play(up)
    for action in ("undo", "redo"):
        await both(lambda who, board, action=action: fake.press(
            who, board, _custom_id(fake, board, action)))
    await both(lambda who, _board: fake.command(who, "show"))

    saved = [await bot.core.stores.games.load(who.id) for who in (alice, bob)]
    assert saved[0].game.to_dict() == saved[1].game.to_dict() == mirror.game.to_dict()

    # What the adapter says itself is in the player's language too, naming the commands
    # as the player's Discord shows them.
    new_in_german = fake.commands[None]["new"]["name_localizations"].get("de", "new")
    strangers = [await fake.press(alice, boards[1], _custom_id(fake, boards[1], "undo")),
                 await fake.press(bob, boards[0], _custom_id(fake, boards[0], "undo"))]
    assert f"`/{new_in_german}`" in strangers[1].text
    said_alike(strangers[0].text, strangers[1].text, german, fake)
    refused = [await fake.command_unchecked(who, "new", {"game": 5}) for who in (alice, bob)]
    said_alike(refused[0].text, refused[1].text, german, fake)


def _custom_id(fake: FakeDiscord, message_id: int, action: str) -> str:
    """The button of ``action`` on a board, whatever its label says."""
    ids = fake.message(message_id).state().custom_ids
    return next(i for i in ids if _action(i) == action)
