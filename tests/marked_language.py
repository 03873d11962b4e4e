"""A language of the tests, for the adapters before any catalog is written: English, with
every word that went through a catalog marked, so a test sees what was translated and can
take the marks off to compare with English.

* a sentence (``_``, ``n_``, a label's, a choice's or a description's words) comes between
  « and », its emphasis marks (``<b>…</b>``) inside, where ``_`` still finds them;
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


class Wrapping(gettext.NullTranslations):
    """A catalog of the tests: each sentence between the ``sentence`` marks, each word said
    in a context between the ``word`` marks; a command's or option's name followed by
    ``name_mark`` if one is given; card ranks as ``ranks`` maps them (None: as words)."""

    def __init__(
        self, sentence: tuple[str, str] = ("«", "»"), word: tuple[str, str] = ("«", "»"), *,
        name_mark: str | None = None, ranks: dict[str, str] | None = None,
    ) -> None:
        super().__init__()
        self.sentence, self.word, self.name_mark, self.ranks = sentence, word, name_mark, ranks

    def gettext(self, message: str) -> str:
        return f"{self.sentence[0]}{message}{self.sentence[1]}"

    def ngettext(self, msgid1: str, msgid2: str, n: int) -> str:
        return f"{self.sentence[0]}{msgid1 if n == 1 else msgid2}{self.sentence[1]}"

    def pgettext(self, context: str, message: str) -> str:
        if self.name_mark is not None and context in NAMES:
            return f"{message}{self.name_mark}"
        if self.ranks is not None and context == "card rank":
            return self.ranks.get(message, message)
        return f"{self.word[0]}{message}{self.word[1]}"


class Marked(Wrapping):
    """The marked language: « » around sentences and words, ß after names, ranks kept."""

    def __init__(self) -> None:
        super().__init__(name_mark="ß", ranks={})


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
