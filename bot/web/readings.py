"""What the page needs as data where a reply carries it only in words: a hint's step (to
light its card and where it goes) and the player's settings (to tick its boxes).

Each is read from the reply's own ``Text`` by its structure, against the very phrases that
made it (the hint's move is the ``Typed`` part ``bot/words/hints.py`` sets apart; a button
to press, the ``Strong`` label of that button; a setting, the line ``flows/settings.py``
writes for it on or off), never by matching English words, so it holds in every language.
A reply that one day carries these as data makes this module unneeded.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

from ..flows.settings import WORDS, _setting_line
from ..replies import BUTTON_LABELS, Action, Message
from ..replies.text import Em, Part, Small, Strong, Text, Typed
from ..words.language import label
from ..words.typed import as_english

# A move as the engine reads it: "7 3", "7 f2", "redeal", "draw QH".
MOVE = re.compile(r"\d{1,2} f?\d{1,2}|redeal|draw (?:10|[2-9AJQK])[CDHS]")
# The buttons a hint may say to press.
PRESSED = (Action.AUTO_FINISH, Action.TO_FOUNDATIONS)


def _parts(text: Text) -> Iterator[Part]:
    """Every part of ``text``, those inside emphasis and small print too, in order."""
    for part in text:
        yield part
        if isinstance(part, Strong | Em | Small):
            yield from _parts(part.text)


def _plain(text: Text) -> str:
    return "".join(p for p in _parts(text) if isinstance(p, str))


def hint_json(note: Text | None) -> dict[str, Any] | None:
    """A hint's step as the page plays it: ``{"move": "7 3"}`` (as ``Board.moves`` has it),
    or ``{"action": "found"}`` for a button to press; None where the note names neither (a
    refused hint, a game over)."""
    if note is None:
        return None
    buttons = {label(BUTTON_LABELS[a]): a for a in PRESSED}
    for part in _parts(note):
        if isinstance(part, Strong) and _plain(part.text) in buttons:
            return {"action": buttons[_plain(part.text)].value}
        if isinstance(part, Typed):
            move = as_english(part.text)
            if MOVE.fullmatch(move):
                return {"move": move}
    return None


def settings_json(message: Message | None) -> list[dict[str, Any]] | None:
    """The player's settings, as the settings message lists them: each one's name (the
    command's option), its words, and whether it is on; None for any other message."""
    if message is None:
        return None
    lines = message.text.lines()
    found = []
    for name, words in WORDS.items():
        on = _setting_line(name, True) in lines
        if not on and _setting_line(name, False) not in lines:
            return None
        found.append({"name": name, "label": label(words), "on": on})
    return found
