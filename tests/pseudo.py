"""The tests' pseudo-language ``en-XA``: every message of the template in English with its
vowels accented, each line between « and » and 40% longer than the English, so that a test
sees whether a text was translated (English has no accents), whether a language with
longer words still fits Discord's limits and the pictures, and whether a line was cut
short (its » is missing).

Only the words are stretched: what a reply needs intact is kept as it is, the catalog's
emphasis marks (``<b>…</b>``, ``<i>…</i>``: the sentence keeps its ``Strong`` and ``Em``
parts), facts (``{moves}``), text in backticks, mentions, and a line that is only those
(``<b>{game}</b>``, a fact alone). Slash command and option names stay valid names; rank
letters stay one or two characters.
"""

from __future__ import annotations

import gettext
import io
import math
import re
from functools import cache

from babel import Locale
from babel.messages.catalog import Catalog
from babel.messages.mofile import write_mo

from bot.discord.limits import NAME_LIMIT
from bot.words.language import DOMAIN, Words
from engine import GAMES
from tools.catalog import NAME_CONTEXTS, TEMPLATE, read

PSEUDO = "en-XA"
STRETCH = 0.4
OPEN, CLOSE = "«", "»"
ACCENTED = str.maketrans("aeiouyAEIOUYcCnN", "áéíóúýÁÉÍÓÚÝçÇñÑ")
FILLER = " lórém ípsúm dólór sít ámét"
# Kept as they are: emphasis marks, facts, escaped braces, text in backticks, anything else
# in angle brackets (a mention, a timestamp), links, emoji by name.
KEPT = re.compile(r"</?[bi]>|\{\{|\}\}|\{[^{}]*\}|`[^`]*`|<[^<>]*>|https?://\S+|:\w+:")
NAMES = {word for name in GAMES.values() for word in name.split()}  # proper names
# Markdown that must begin its line: a heading, subtext, a quote, an item.
LINE_START = re.compile(r"\s*(?:#{1,3} |-# |> |[-*] |\d+\. )?")


def stretch(text: str, context: str | None = None) -> str:
    """``text`` as the pseudo-language says it."""
    if context == "card rank":
        return text.translate(ACCENTED)
    if context in NAME_CONTEXTS:
        padding = FILLER.replace(" ", "") * 2
        longer = text.translate(ACCENTED) + padding[: math.ceil(len(text) * STRETCH)]
        return longer[:NAME_LIMIT]
    return "".join(_stretch_line(line) for line in _lines(text))


def _lines(text: str) -> list[list[tuple[str, bool]]]:
    """``text`` cut into lines at each line break outside the kept spans, each line a list
    of (piece, kept); the line break ends its line."""
    lines: list[list[tuple[str, bool]]] = [[]]
    at = 0
    for kept in KEPT.finditer(text):
        _add_free(lines, text[at : kept.start()])
        lines[-1].append((kept[0], True))
        at = kept.end()
    _add_free(lines, text[at:])
    return lines


def _add_free(lines: list[list[tuple[str, bool]]], free: str) -> None:
    first, *more = free.split("\n")
    lines[-1].append((first, False))
    for piece in more:
        lines[-1].append(("\n", True))
        lines.append([(piece, False)])


def _stretch_line(line: list[tuple[str, bool]]) -> str:
    end = "\n" if line and line[-1] == ("\n", True) else ""
    pieces = line[:-1] if end else line
    original = "".join(piece for piece, _kept in pieces)
    if not any(c.isalpha() for piece, kept in pieces if not kept for c in piece):
        return original + end  # nothing of its own to translate: a fence, a fact alone
    said = "".join(piece if kept else piece.translate(ACCENTED) for piece, kept in pieces)
    start = LINE_START.match(said)
    assert start is not None
    head, rest = said[: start.end()], said[start.end() :]
    return f"{head}{OPEN}{rest}{_padding(len(original))}{CLOSE}{end}"


def _padding(length: int) -> str:
    size = math.ceil(length * STRETCH)
    return (FILLER * (size // len(FILLER) + 1))[:size]


def pseudo_catalog() -> Catalog:
    """The template with every message stretched: the pseudo-language's catalog."""
    template = read(TEMPLATE)
    catalog = Catalog(locale="en", domain=DOMAIN)
    for message in template:
        if not message.id:
            continue
        if isinstance(message.id, tuple | list):
            string: str | tuple[str, ...] = tuple(stretch(form, message.context)
                                                  for form in message.id)
        else:
            string = stretch(message.id, message.context)
        catalog.add(message.id, string, context=message.context)
    return catalog


@cache
def pseudo_words() -> Words:
    """The pseudo-language's words, spoken with ``speaking("en-XA")`` once
    ``bot.words.language.install``-ed (the ``pseudo`` fixture does both)."""
    compiled = io.BytesIO()
    write_mo(compiled, pseudo_catalog())
    compiled.seek(0)
    return Words(PSEUDO, gettext.GNUTranslations(compiled), Locale.parse("en"))


def stretched_share(text: str) -> float:
    """The share of the words of ``text`` (a reply's words as Discord shows them,
    ``tests.said.shown``, or a label) that the pseudo-language said: English left in a
    reply, a sentence or a fact filled in, has no accent. What is never translated is left
    out: text in backticks (commands, what a player typed, a line to share), anything in
    angle brackets (mentions, timestamps), the games' names and card codes (``QH``); a
    text with no words gives 1.0."""
    kept = re.sub(r"`[^`]*`|<[^<>]*>|\b[AJQK][CDHS]\b", " ", text)
    words = [word for word in re.findall(r"[^\W\d_]{2,}", kept) if word not in NAMES]
    said = sum(not word.isascii() for word in words)
    return said / len(words) if words else 1.0
