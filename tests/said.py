"""What players read of the core's words: the tests of the core read its replies as the
Discord adapter renders them (``bot.discord.markdown``, ``shown``), and the page's tests
read its pieces as the page lays them out (``read``)."""

from __future__ import annotations

from typing import Any

from bot.discord.markdown import markdown
from bot.replies.text import Text


def shown(text: Text | str | None) -> str:
    """``text`` as a Discord message writes it ("" for None; a plain string as it is)."""
    if text is None:
        return ""
    return markdown(text) if isinstance(text, Text) else text


def read(said: list[list[dict[str, Any]]] | None) -> str:
    """The words of what the server said, as the page lays them out: each line's pieces'
    text (a button by its label), lines apart."""

    def piece(p: dict[str, Any]) -> str:
        if "parts" in p:
            return "".join(piece(q) for q in p["parts"])
        return str(p.get("text") or p.get("label") or "")

    return "\n".join("".join(piece(p) for p in line) for line in said or [])
