"""The page's words are its own (issue 44): what the server says reaches the page as
pieces, never as Discord's Markdown; a command the page can do is its own button, a deal to
share has a copy button, and no menu the page lacks is named."""

from __future__ import annotations

import json
import re
from typing import Any

from tests.said import read

from .conftest import Web

ALICE = 271828182845904523
DISCORD_MARKS = re.compile(r"\*\*|`|<@|<t:|-# |```|menu|/(new|move|rules|daily|show)\b")


def pieces(said: Any) -> list[dict[str, Any]]:
    """Every piece of what was said, nested ones too."""
    found: list[dict[str, Any]] = []
    for line in said or []:
        stack = list(line)
        while stack:
            piece = stack.pop()
            found.append(piece)
            stack += piece.get("parts", [])
    return found


async def test_a_new_deal_shares_its_command_to_copy_and_a_refusal_names_no_menu(
    web: Web
) -> None:
    session = await web.dev_session(ALICE)
    new = await web.call("api/new", {"game": "clover-leaf", "deal": 987776}, session=session)
    text = new["board"]["text"]
    assert {"t": "strong", "parts": [{"t": "text", "text": "Clover Leaf"}]} in pieces(text)
    assert {"t": "copy", "text": "/new clover-leaf 987776"} in pieces(text)
    board = new["board"]
    illegal = next(f"{s} {d}" for s in range(1, 17) for d in range(1, 17)
                   if s != d and f"{s} {d}" not in board["moves"])
    refused = await web.call("api/act", {"action": "move", "move": illegal,
                                         "seen": board["ref"]}, session=session)
    words = read(refused["note"])
    assert "Legal now:" in words and not DISCORD_MARKS.search(words), words
    assert [p for p in pieces(refused["note"]) if p["t"] == "typed"]  # the legal moves
    for said in (text, refused["note"]):
        plain = [p["text"] for p in pieces(said) if p["t"] == "text"]
        assert not any(DISCORD_MARKS.search(t) for t in plain), plain


async def test_a_command_the_page_can_do_is_its_button_in_the_sentence(web: Web) -> None:
    signed = await web.call("api/dev/signin", {"user": str(ALICE), "locale": "de"})
    start = pieces(signed["start"])
    assert {"t": "button", "action": "new", "label": "Neues Spiel"} in start, start
    assert {"t": "button", "action": "daily", "label": "Tagesspiel"} in start, start
    assert not DISCORD_MARKS.search(json.dumps(signed["start"], ensure_ascii=False))
    session = signed["session"]
    rules = await web.call("api/rules", {"game": "trefoil"}, session=session)
    assert "Trefoil" in read(rules["message"]["text"])
    await web.call("api/rules", {"game": "no-such-game"}, session=session, status=400)
