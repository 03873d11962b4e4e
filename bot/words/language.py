"""The player's language: which one a reply is worded in, and the words of each.

A reply is worded in the language of whoever it is for: the core speaks a player's language
(``speaking``) around each call it answers, and a message shared in a channel (a
leaderboard, a challenge) speaks the server's. What is worded then comes from the current
language's catalog:

* ``_("You won in {moves} moves!", moves=12)``: a sentence, its facts filled in after it
  is translated, so a translation may put them anywhere;
* ``n_("{count} move", "{count} moves", n)``: the form the language uses for ``n``;
* ``p_("card rank", "Q")``: a word that means something else elsewhere (a rank letter);
* ``N_("Undo")``: marks a constant for the catalog; it is translated where it is shown
  (``pN_`` the same in a context).

The English sentences are the catalog's keys. Each language's catalog is
``locales/<language>/LC_MESSAGES/solitaire.po`` beside this module, compiled when the
language is first spoken (no build step: ``pip install .`` is all it takes). The README
tells how a contributor adds a language.
"""

from __future__ import annotations

import gettext
import io
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from copy import copy
from dataclasses import dataclass
from datetime import date
from functools import cache, cached_property
from pathlib import Path
from typing import Any

from babel import Locale
from babel.dates import format_date
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from babel.numbers import NumberPattern, format_decimal, format_percent

from engine import Card
from engine.cards import SUIT_SYMBOLS

from ..replies.text import Text, fill

ENGLISH = "en-US"
# Discord's locale codes of the languages a player can have, with their own names.
LANGUAGES: dict[str, str] = {
    ENGLISH: "English",
    "de": "Deutsch",
    "fr": "Français",
    "es-ES": "Español",
    "pt-BR": "Português do Brasil",
}
# Any variant of a language is spoken as the one we have: es-419 as es-ES, pt as pt-BR.
_BY_MAIN_LANGUAGE = {code.split("-")[0].lower(): code for code in LANGUAGES}
DOMAIN = "solitaire"
LOCALES = Path(__file__).with_name("locales")


def pN_(context: str, message: str) -> str:
    """``message`` in ``context`` marked for the catalog, not translated here (the
    contextual ``N_``)."""
    return message


# Each letter a catalog message, as a language's cards may print others (German B D K A,
# French V D R A); the digits are the same everywhere.
RANKS = (pN_("card rank", "A"), "2", "3", "4", "5", "6", "7", "8", "9", "10",
         pN_("card rank", "J"), pN_("card rank", "Q"), pN_("card rank", "K"))


def language_of(locale: object) -> str:
    """The language to speak to someone whose Discord (or terminal) locale is ``locale``:
    ``de``, ``de-AT`` -> ``de``; ``es-419`` -> ``es-ES``; ``pt`` -> ``pt-BR``; anything
    else (English, a language not in, nothing) -> English. A language installed with
    ``install`` is spoken by its exact code."""
    text = str(locale or "").strip().replace("_", "-")
    if text in _installed:
        return text
    main = text.split("-")[0].lower()
    return _BY_MAIN_LANGUAGE.get(main, ENGLISH)


@dataclass(frozen=True, eq=False)
class Words:
    """One language's words: its catalog, and how it writes numbers and dates. Each is
    itself alone (compared and hashed by identity: a quick key for what is worded in it)."""

    code: str
    catalog: gettext.NullTranslations
    locale: Locale

    def text(self, message: str, /, **facts: Any) -> str:
        translated = self.catalog.gettext(message)
        return translated.format(**facts) if facts else translated

    def plural(self, singular: str, plural: str, count: int, /, **facts: Any) -> str:
        translated = self.catalog.ngettext(singular, plural, count)
        return translated.format(count=self.number(count), **facts)

    def word(self, context: str, message: str) -> str:
        return self.catalog.pgettext(context, message)

    def english(self, shown: str) -> frozenset[str]:
        """What ``shown``, a label in this language, says in English, lower case (itself
        among them): a player may type a label shown to them in English too."""
        return self._english.get(shown.lower(), frozenset()) | {shown.lower()}

    @cached_property
    def _english(self) -> dict[str, frozenset[str]]:
        """Each translation, lower case, and the English messages it translates."""
        english: dict[str, set[str]] = {}
        messages: dict[object, str] = getattr(self.catalog, "_catalog", {})
        for message, translated in messages.items():
            if isinstance(message, str) and message and "\x04" not in message:  # no context
                english.setdefault(translated.lower(), set()).add(message.lower())
        return {shown: frozenset(found) for shown, found in english.items()}

    def number(self, value: int | float, places: int | None = None) -> str:
        """``12345`` -> ``12,345`` (English), ``12.345`` (German): counts, never ids;
        ``places``: exactly so many decimals (``19.30``)."""
        if places is None and type(value) is int and 0 <= value < 1000:
            return str(value)  # no grouping below a thousand, and every language offered
            # writes Western digits: the answer Babel would give, without its work (a
            # picture words several numbers, at every move)
        pattern = _places(self.locale.decimal_formats[None], places)
        return format_decimal(value, format=pattern, locale=self.locale)

    def percent(self, fraction: float, places: int | None = None) -> str:
        """``0.42`` -> ``42%`` (English), ``42 %`` (German, French); ``places``: exactly so
        many decimals (``42.0%``)."""
        pattern = _places(self.locale.percent_formats[None], places)
        return format_percent(fraction, format=pattern, locale=self.locale)

    def day(self, day: date) -> str:
        """A calendar day as the language writes it: ``Nov 25, 2026``, ``25.11.2026``."""
        return format_date(day, format="medium", locale=self.locale)

    def rank(self, rank: int) -> str:
        """A rank as this language's cards print it: ``Q``; German ``D`` (Dame)."""
        return self.word("card rank", RANKS[rank - 1])

    def card(self, card: Card) -> str:
        """A card as this language's cards print it: ``Q♥``; German ``D♥``; French ``D♥``."""
        return self.rank(card.rank) + SUIT_SYMBOLS[card.suit]


def _places(pattern: NumberPattern, places: int | None) -> NumberPattern:
    """The language's own number pattern, with exactly ``places`` decimals (None: as is)."""
    if places is None:
        return pattern
    fixed = copy(pattern)
    fixed.frac_prec = (places, places)
    return fixed


_installed: dict[str, Words] = {}


@cache
def words_for(language: str) -> Words:
    """The words of ``language`` (a code of ``LANGUAGES``, or one ``install``-ed); English
    for any other, and for a language whose catalog is not written yet."""
    if language in _installed:
        return _installed[language]
    if language not in LANGUAGES or language == ENGLISH or not po_path(language).exists():
        return Words(ENGLISH, gettext.NullTranslations(), Locale.parse("en_US"))
    return Words(language, compile_catalog(po_path(language)), Locale.parse(language, sep="-"))


def po_path(language: str, locales: Path = LOCALES) -> Path:
    """Where ``language``'s catalog is: Discord's ``pt-BR`` is gettext's ``pt_BR``."""
    return locales / language.replace("-", "_") / "LC_MESSAGES" / f"{DOMAIN}.po"


def compile_catalog(path: Path) -> gettext.GNUTranslations:
    """A ``.po`` file compiled in memory, as ``msgfmt`` would (fuzzy entries left out)."""
    with path.open("rb") as source:
        catalog = read_po(source)
    compiled = io.BytesIO()
    write_mo(compiled, catalog)
    compiled.seek(0)
    return gettext.GNUTranslations(compiled)


def install(words: Words) -> None:
    """Make ``words`` a language that can be spoken, by its code: for a language not
    shipped, such as the tests' pseudo-language that stretches every sentence."""
    _installed[words.code] = words
    words_for.cache_clear()


def uninstall(code: str) -> None:
    """Forget a language ``install`` made (the tests' pseudo-language, after a test)."""
    _installed.pop(code, None)
    words_for.cache_clear()


# -- the language spoken now --------------------------------------------------------------

_speaking: ContextVar[Words | None] = ContextVar("speaking", default=None)


def current() -> Words:
    """The words of the language spoken now (English when none was chosen)."""
    return _speaking.get() or words_for(ENGLISH)


@contextmanager
def speaking(language: str | None) -> Iterator[Words]:
    """Speak ``language`` (a Discord locale; None: English) inside the block: in this
    task, and in the tasks it starts."""
    token = _speaking.set(words_for(language_of(language)))
    try:
        yield current()
    finally:
        _speaking.reset(token)


def _(message: str, /, **facts: Any) -> Text:
    """``message`` in the language spoken now, with ``facts`` filled in: its parts
    (``text.fill``)."""
    return fill(current().catalog.gettext(message), facts)


def n_(singular: str, plural: str, count: int, /, **facts: Any) -> Text:
    """The form for ``count`` in the language spoken now; ``{count}`` is filled in."""
    words = current()
    return fill(words.catalog.ngettext(singular, plural, count),
                {"count": words.number(count), **facts})


def label(message: str, /, **facts: Any) -> str:
    """``message`` in the language spoken now as plain words: a button's or option's
    label, a menu's placeholder, a file's name (no parts: a control shows text alone)."""
    return current().text(message, **facts)


def p_(context: str, message: str) -> str:
    """``message`` as meant in ``context``, in the language spoken now."""
    return current().word(context, message)


def N_(message: str) -> str:
    """Marks ``message`` for the catalog; it is translated where it is shown (``_``)."""
    return message
