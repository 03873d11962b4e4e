"""A language of the tests, for the adapters before any catalog is written: English, with
every word that went through a catalog marked, so a test sees what was translated and can
take the marks off to compare with English.

* a sentence (``_``, ``n_``, a choice's or description's words) comes between « and »;
* a command's or option's name gets a ß (``newß``): still a name Discord takes;
* card ranks stay as they are, and numbers and dates are written as in English.
"""

from __future__ import annotations

import gettext
from collections.abc import Iterator
from contextlib import contextmanager

from babel import Locale

from bot.words import language
from bot.words.language import Words, install

NAMES = ("command", "option")  # the contexts of names, which Discord checks


class Marked(gettext.NullTranslations):
    def gettext(self, message: str) -> str:
        return f"«{message}»"

    def ngettext(self, msgid1: str, msgid2: str, n: int) -> str:
        return f"«{msgid1 if n == 1 else msgid2}»"

    def pgettext(self, context: str, message: str) -> str:
        if context in NAMES:
            return f"{message}ß"
        return message if context == "card rank" else f"«{message}»"


class Broken(gettext.NullTranslations):
    """A careless translator: names with capitals and spaces, descriptions too long, and
    every option of a command named alike."""

    def gettext(self, message: str) -> str:
        return message + " (ausführlich erklärt)" * 10

    def pgettext(self, context: str, message: str) -> str:
        return {"command": f"Neu {message}", "option": "wert"}.get(context, message)


def marked(code: str = "de") -> Words:
    return Words(code, Marked(), Locale.parse("en_US"))


def broken(code: str = "de") -> Words:
    return Words(code, Broken(), Locale.parse("en_US"))


def unmarked(text: str) -> str:
    """The English that ``text`` (in the marked language) was made from."""
    return text.replace("«", "").replace("»", "").replace("ß", "")


@contextmanager
def installed(words: Words) -> Iterator[Words]:
    """Speak ``words`` for its code (``de``) inside the block, whatever catalog ships."""
    install(words)
    try:
        yield words
    finally:
        language._installed.pop(words.code, None)
        language.words_for.cache_clear()
