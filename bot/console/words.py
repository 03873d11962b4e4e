"""The core's ``Text`` in a terminal's words: plain lines, commands as the prompt takes
them, a member named as the console says it, a moment in the local time zone; emphasis in
bold where the terminal shows colour (``NO_COLOR`` respected: ``board_text.wants_colour``).
"""

from __future__ import annotations

from datetime import datetime

from babel.dates import format_datetime

from ..replies.text import (
    Command,
    Em,
    Moment,
    OrMenu,
    Part,
    Person,
    Share,
    Small,
    Strong,
    Text,
    Typed,
)
from ..words.language import _, current, label, p_, speaking
from ..words.phrases import typed_command

CONSOLE_USER_ID = 1  # the console's one player (Discord ids are far larger: no clash)
BOLD, NORMAL = "\x1b[1m", "\x1b[22m"


def plain(text: Text, *, colour: bool = False) -> str:
    """``text`` as the console prints it."""
    return "".join(_part(part, colour) for part in text)


def _part(part: Part, colour: bool) -> str:
    if isinstance(part, str):
        return part
    if isinstance(part, Strong):
        inner = plain(part.text, colour=colour)
        return f"{BOLD}{inner}{NORMAL}" if colour else inner
    if isinstance(part, Em):
        return plain(part.text, colour=colour)
    if isinstance(part, Typed):
        return part.text
    if isinstance(part, Command):
        with speaking(part.language):
            return typed_command(part.name, *part.args)
    if isinstance(part, Person):
        if part.user_id == CONSOLE_USER_ID:
            return p_("a mention of the console's player", "you")
        return plain(_("player {id}", id=str(part.user_id)))
    if isinstance(part, Moment):
        return format_datetime(datetime.fromtimestamp(part.when).astimezone(),
                               format="medium", locale=current().locale)
    if isinstance(part, Small):
        return plain(part.text, colour=colour)
    if isinstance(part, Share):
        return part.line
    if isinstance(part, OrMenu):
        with speaking(part.language):
            return label(" — or type one from the menu under the board")
    raise TypeError(f"no console words for {part!r}")
