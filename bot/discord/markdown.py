"""The core's ``Text`` in Discord's words: Markdown, mentions, timestamps, slash commands,
within Discord's limit for a message (``fit``: every message's content goes through it).

Everything a Discord message says goes through ``markdown``: bold in asterisks, what a
player types in backticks, a member as ``<@id>`` (the bot allows no mentions, so nobody is
pinged), a moment as ``<t:…:f>`` (each reader's own time zone), small print after ``-# ``,
a line to share in a code block, and a command as the player types it, by its name in the
language of the sentence it is in (as Discord shows it to readers of that language).
"""

from __future__ import annotations

import logging

from bot.replies.text import (
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
from bot.words.language import label, speaking
from bot.words.phrases import typed_command

from .limits import CONTENT_LIMIT, cut

log = logging.getLogger(__name__)


def markdown(text: Text) -> str:
    """``text`` as a Discord message writes it."""
    return "".join(_part(part) for part in text)


def _part(part: Part) -> str:
    if isinstance(part, str):
        return part
    if isinstance(part, Strong):
        return f"**{markdown(part.text)}**"
    if isinstance(part, Em):
        return f"*{markdown(part.text)}*"
    if isinstance(part, Typed):
        return "`" + part.text.replace("`", "'") + "`"
    if isinstance(part, Command):
        with speaking(part.language):
            return "`" + typed_command(part.name, *part.args).replace("`", "'") + "`"
    if isinstance(part, Person):
        return f"<@{part.user_id}>"
    if isinstance(part, Moment):
        return f"<t:{part.when}:f>"
    if isinstance(part, Small):
        return "-# " + markdown(part.text)
    if isinstance(part, Share):
        return f"```\n{part.line}\n```"
    if isinstance(part, OrMenu):
        with speaking(part.language):
            return label(" — or pick one from the menu under your board")
    raise TypeError(f"no Discord words for {part!r}")


def fit(said: Text | str) -> str:
    """What the core said, in Discord's words (``markdown``), within its limit for a
    message. The core keeps within it (echoed input is cut short where it is worded); this
    is the last guard, and says so in the log."""
    text = markdown(said) if isinstance(said, Text) else said
    if len(text) <= CONTENT_LIMIT:
        return text
    log.warning("a reply of %d characters was cut to Discord's %d", len(text), CONTENT_LIMIT)
    return cut(text, CONTENT_LIMIT)
