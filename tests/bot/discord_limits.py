"""Discord's limits on what a reply holds, checked on the core's replies. The Discord adapter
cuts whatever is over a limit, so a reply over one reaches the player cut short: a test
asserts that none is, in English and in the 40%-longer pseudo-language. A reply's words are
measured as Discord shows them (``tests.said.shown``: its markdown, mentions and commands
written out), the form whose length Discord limits."""

from __future__ import annotations

from bot.replies import MenuOption, Reply
from tests.said import shown

CONTENT = 2_000  # a message's text
BUTTON_LABEL = 80
OPTION_LABEL = 100  # a select menu's option, an autocomplete choice
PLACEHOLDER = 150  # a select menu's placeholder (also the one option of an empty menu)
ALT_TEXT = 1_024  # an attachment's description


def over_limits(reply: Reply) -> list[str]:
    """Each text of ``reply`` that Discord would not take whole (a message's words as its
    markdown), with its length and limit; none: it fits."""
    found: list[tuple[str, str, int]] = []
    if reply.board:
        board = reply.board
        found += [("board text", shown(board.text), CONTENT),
                  ("board alt text", board.alt_text, ALT_TEXT)]
        found += [("button", b.label, BUTTON_LABEL) for b in board.controls.buttons]
        placeholder_limit = PLACEHOLDER if board.controls.menu else OPTION_LABEL
        found.append(("menu placeholder", board.controls.menu_placeholder, placeholder_limit))
        found += [("menu option", o.label, OPTION_LABEL) for o in board.controls.menu]
    if reply.message:
        message = reply.message
        found += [("message", shown(message.text), CONTENT),
                  ("alt text", message.alt_text, ALT_TEXT)]
        if message.question:
            found += [("button", message.question.yes, BUTTON_LABEL),
                      ("button", message.question.no, BUTTON_LABEL)]
    if reply.note:
        found.append(("note", shown(reply.note), CONTENT))
    found += [("update", shown(update.text), CONTENT) for update in reply.updates]
    return [f"{what} of {len(text)} characters (at most {limit}): {text[:80]!r}…"
            for what, text, limit in found if len(text) > limit]


def choices_over_limits(choices: list[MenuOption]) -> list[str]:
    """The autocomplete choices Discord would not take whole."""
    return [f"choice of {len(o.label)} characters (at most {OPTION_LABEL}): {o.label!r}"
            for o in choices if len(o.label) > OPTION_LABEL]
