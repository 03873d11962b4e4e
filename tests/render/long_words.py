"""A pseudo-language whose every word is about 40% longer than the English one, its vowels
accented (so the font's accents are drawn, above the capitals and all), with German rank
letters and French numbers: what the pictures must fit."""

from __future__ import annotations

import math
import re
from typing import Any

from render import PictureWords

ACCENTED = str.maketrans("aeiouAEIOUcC", "áéîöüÁÉÎÖÜçÇ")
GERMAN_RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "B", "D", "K")


def stretched(text: str) -> str:
    """``text`` (a message, its placeholders such as ``{count}`` left as they are) 40% longer
    or a little more, each word of two letters or more lengthened by a share of it, its
    vowels accented: "moves" -> "mövésmövé"."""
    parts = re.split(r"(\{[^}]*\})", text)
    said = [part for part in parts if not part.startswith("{")]
    letters = sum(len(w) for part in said for w in re.findall(r"[A-Za-z]{2,}", part))
    share = math.ceil(0.4 * sum(map(len, said))) / max(letters, 1)

    def longer(word: re.Match[str]) -> str:
        extra = math.ceil(len(word[0]) * share)
        return (word[0] + (word[0] * 3)[:extra]).translate(ACCENTED)

    return "".join(part if part.startswith("{") else re.sub(r"[A-Za-z]{2,}", longer, part)
                   for part in parts)


def _number(value: int) -> str:
    return f"{value:,}".replace(",", "\u202f")  # as French groups digits


def _text(message: str, /, **facts: Any) -> str:
    return stretched(message).format(**facts)


def _plural(singular: str, plural: str, count: int, /, **facts: Any) -> str:
    return stretched(singular if count == 1 else plural).format(count=_number(count), **facts)


def _word(context: str, message: str) -> str:
    return stretched(message)


def _percent(fraction: float) -> str:
    return f"{fraction:.0%}".replace("%", "\u202f%")


LONG = PictureWords(text=_text, plural=_plural, word=_word,
                    rank=lambda rank: GERMAN_RANKS[rank - 1], percent=_percent)
