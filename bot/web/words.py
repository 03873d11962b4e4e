"""The core's ``Text`` in the page's words: lines of pieces its script lays out.

The page has its own controls, so a command the core suggests becomes the page's button
that does it ("New deal", "Undo"), which the player can press right there; a line to share
(a deal's command for others to type in Discord) gets a copy button; a command the page
has no button for is named as Discord's, where it is typed. No Markdown reaches the page:
each piece says what it is.

A piece is a JSON object with ``t`` its kind: ``text`` (``text``), ``strong`` and ``em``
(``parts``), ``typed`` (``text``: a move or what the player typed), ``button``
(``action``, ``label``, and for a deal ``game`` and ``deal``), ``copy`` (``text``),
``moment`` (``when``, Unix seconds: shown in the reader's time zone), ``small``
(``parts``).
"""

from __future__ import annotations

from typing import Any

from engine import GAMES

from ..replies import BUTTON_LABELS
from ..replies.player_actions import TOOL_BAR, TYPED_ALONE
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
from ..words.language import N_, label, p_
from ..words.phrases import typed_command

Piece = dict[str, Any]

# The commands the page has a button for, with the button's words (``PAGE_WORDS``'s and
# the board's, so the label in a sentence is the label on the button).
NEW_DEAL, DAILY_DEAL = N_("New deal"), N_("Daily deal")
# Translators: the web page's buttons in a sentence: the rules of a game, the board anew.
RULES, SHOW = N_("Rules"), N_("Show the board")
# The actions' commands typed alone (/undo, /hint) whose button is in the page's tool bar.
_TOOLS = {a.value: a for a in TYPED_ALONE if a in TOOL_BAR}
# Translators: the web page, for a command it has no button for: {command} is its name as
# typed in Discord's chat, such as /rules.
ELSEWHERE = N_("{command} in Discord's chat")


def said(text: Text, player_id: int) -> list[list[Piece]]:
    """``text`` as the page shows it: its lines, each a list of pieces (empty lines left
    out); ``player_id``: who reads it, named "you"."""
    lines = [_pieces(line, player_id) for line in text.lines()]
    return [line for line in lines if any(p["t"] != "text" or p["text"].strip() for p in line)]


def _pieces(text: Text, player_id: int) -> list[Piece]:
    pieces: list[Piece] = []
    for part in text:
        piece = _piece(part, player_id)
        if piece is None:
            continue
        if piece["t"] == "text" and pieces and pieces[-1]["t"] == "text":
            pieces[-1] = {"t": "text", "text": pieces[-1]["text"] + piece["text"]}
        else:
            pieces.append(piece)
    return pieces


def _piece(part: Part, player_id: int) -> Piece | None:
    if isinstance(part, str):
        return {"t": "text", "text": part}
    if isinstance(part, Strong):
        return {"t": "strong", "parts": _pieces(part.text, player_id)}
    if isinstance(part, Em):
        return {"t": "em", "parts": _pieces(part.text, player_id)}
    if isinstance(part, Small):
        return {"t": "small", "parts": _pieces(part.text, player_id)}
    if isinstance(part, Typed):
        return {"t": "typed", "text": part.text}
    if isinstance(part, Command):
        return _command(part)
    if isinstance(part, Person):
        return {"t": "text", "text": p_("a mention of the page's player", "you")
                if part.user_id == player_id else label("another player")}
    if isinstance(part, Moment):
        return {"t": "moment", "when": part.when}
    if isinstance(part, Share):
        return {"t": "copy", "text": part.line}
    if isinstance(part, OrMenu):
        return None  # the page has no menu of moves: its legal moves are dragged
    raise TypeError(f"no page words for {part!r}")


def _command(command: Command) -> Piece:
    """The page's button for ``command``, or its name where it is typed."""
    name, args = command.name, command.args
    typed = typed_command(name, *args)
    if command.shared:  # for others, in Discord's chat: given to copy
        return {"t": "copy", "text": typed}
    if name == "new" and (not args or args[0] in GAMES):
        piece: Piece = {"t": "button", "action": "new", "label": label(NEW_DEAL)}
        if args:
            piece["game"] = args[0]
        if len(args) > 1 and args[1].isascii() and args[1].isdigit():
            piece["deal"] = int(args[1])
        return piece
    if name == "daily" and (not args or args[0] in GAMES):
        piece = {"t": "button", "action": "daily", "label": label(DAILY_DEAL)}
        if args:
            piece["game"] = args[0]
        return piece
    if name == "rules" and args and args[0] in GAMES:
        return {"t": "button", "action": "rules", "label": label(RULES), "game": args[0]}
    if name == "show" and not args:
        return {"t": "button", "action": "show", "label": label(SHOW)}
    if name in _TOOLS and not args:
        action = _TOOLS[name]
        return {"t": "button", "action": action.value, "label": label(BUTTON_LABELS[action])}
    if name == "move" and args:
        return {"t": "typed", "text": " ".join(args)}
    return {"t": "text", "text": label(ELSEWHERE, command=typed)}
