"""Discord's limits, each written once: the Discord adapter fits what the core says within
them (the core says what it has: every move, the whole sentence).

The interaction token's lifetime is ``tidy.TOKEN_LIFETIME_S``, with the edits it paces.
"""

from __future__ import annotations

CONTENT_LIMIT = 2000  # the most characters in a message
MENU_LIMIT = 25  # the most options in a select menu or an autocomplete
OPTION_LIMIT = 100  # the longest label of an option in a menu or an autocomplete
PLACEHOLDER_LIMIT = 150  # the longest placeholder of a select menu
BUTTONS_PER_ROW = 5  # a row of components holds five buttons, or one menu
NAME_LIMIT = 32  # the longest slash command or option name
TEXT_LIMIT = 100  # the longest description of one, or name of a choice
ALT_TEXT_LIMIT = 1024  # the longest description of an attachment


def cut(text: str, limit: int) -> str:
    """``text`` within ``limit`` characters: whole if it fits, else cut with "…"."""
    return text if len(text) <= limit else text[: limit - 1] + "…"


def is_name(text: str) -> bool:
    """Whether Discord takes ``text`` as a command's or option's name: 1 to 32 letters,
    digits, ``-`` or ``_``, none of them a capital."""
    return (0 < len(text) <= NAME_LIMIT and text == text.lower()
            and all(c.isalnum() or c in "-_" for c in text))


def is_text(text: str) -> bool:
    """Whether Discord takes ``text`` as a description or a choice's name."""
    return 0 < len(text) <= TEXT_LIMIT
