"""The slash commands in the player's language: Discord shows each command, option and
choice in the language of the player's client, when the commands were synced with its
``name_localizations`` and ``description_localizations``. discord.py asks a
``Translator`` for them, string by string, as it builds what it syncs.

The words come from the same catalogs as every reply. A name is looked up in its context
(``named("command", "new")``): a command's name in "command", which is also where
``words.phrases.command`` finds it, so a reply names a command as the player sees it; an
option's in "option", a choice's in "choice". A name not marked so, such as a game's
(discord.py makes every name a ``locale_str``), is a proper name: the same in every
language. A description is a plain message (``locale_str("Deal a new game")``). Babel finds
them by the keywords ``named:1c,2`` and ``locale_str``.

A translation Discord would refuse (a name with a capital or a space, too long, an option
named like another of its command) is not sent: that language shows the English one, and
the log says which.
"""

from __future__ import annotations

import logging
from typing import Any

from discord import Locale, app_commands
from discord.app_commands import TranslationContextLocation as Where
from discord.app_commands import locale_str

from ..words.language import ENGLISH, Words, language_of, words_for
from .limits import TEXT_LIMIT, is_name, is_text

log = logging.getLogger(__name__)

_NAMES = (Where.command_name, Where.group_name, Where.parameter_name)  # Discord's name rules
_DESCRIPTIONS = (Where.command_description, Where.group_description,
                 Where.parameter_description)


def named(context: str, name: str) -> locale_str:
    """The English ``name`` of a command, option or choice, for the catalog in ``context``
    ("command", "option" or "choice")."""
    return locale_str(name, context=context)


def worded(string: locale_str, words: Words) -> str:
    """``string`` in ``words``' language (its English where the catalog has none): a name
    in its context, a description as it is."""
    context = string.extras.get("context")
    return words.word(context, string.message) if context else words.text(string.message)


def localized(string: locale_str, language: str, where: Where, data: Any = None) -> str | None:
    """``string`` as ``language`` shows it where it stands (``data``: the command or
    option it is part of); None for English, for a proper name, for a message the catalog
    does not translate, and for a translation Discord would refuse."""
    if language == ENGLISH:
        return None
    if where not in _DESCRIPTIONS and "context" not in string.extras:
        return None  # a proper name
    words = words_for(language)
    text = worded(string, words)
    if text == string.message:
        return None
    problem = None
    if where in _NAMES and not is_name(text):
        problem = "not a name Discord takes (lower case, letters, digits, - or _, 1 to 32)"
    elif where not in _NAMES and not is_text(text):
        problem = f"not 1 to {TEXT_LIMIT} characters long"
    elif where is Where.parameter_name and text in _other_options(data, words):
        problem = "the name of another option of the same command"
    if problem is not None:
        log.warning("the %s translation of %r is %s: English is shown", language,
                    string.message, problem)
        return None
    return text


def _other_options(option: app_commands.Parameter, words: Words) -> set[str]:
    """The names the other options of ``option``'s command show in ``words``' language."""
    names = set()
    for other in option.command.parameters:
        if other.name == option.name:
            continue
        shown, marked = other.display_name, other.locale_name
        if marked is not None and "context" in marked.extras and is_name(worded(marked, words)):
            shown = worded(marked, words)
        names.add(shown)
    return names


class CatalogTranslator(app_commands.Translator):
    """Set on the command tree before it syncs (``SolitaireBot.setup_hook``)."""

    async def translate(
        self, string: locale_str, locale: Locale,
        context: app_commands.TranslationContextTypes,
    ) -> str | None:
        return localized(string, language_of(locale.value), context.location, context.data)
