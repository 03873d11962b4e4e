"""Text as structure (issue 44): the core's words are parts, and each place renders them in
its own words. Nothing outside ``bot/discord/`` writes Discord's Markdown, a mention, a
timestamp or a slash command's name."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from bot.console.words import plain
from bot.discord.markdown import markdown
from bot.replies.text import Command, OrMenu, Share, Small, Strong, Text, Typed, fill
from bot.web.words import said
from bot.words.language import _, current, n_, speaking
from bot.words.phrases import code, command, mention, moment

BOT = Path(__file__).resolve().parents[2] / "bot"
COMMANDS = ("new", "move", "undo", "redo", "redeal", "hint", "show", "resign", "rules",
            "settings", "help", "stats", "leaderboard", "daily", "daily-board", "forget-me",
            "reset-server-stats", "challenge", "replay")
# What only Discord writes: bold, code, a mention, a timestamp, small print, a code block,
# a slash command by name.
DISCORD_MARKS = re.compile(
    r"\*\*|(?<![\w*/])\*\S[^*\n]*\S\*(?![\w*])|`|<@!?\d|<@\{|<t:|^-# |\n-# |```"
    r"|(?<![\w/.])/(?:" + "|".join(COMMANDS) + r")\b")


def _strings(path: Path) -> list[tuple[int, str]]:
    """Every string literal of ``path`` but its docstrings (which may quote anything) and
    the catalog's contexts (``p_("a day typed in /daily-board", …)``: never shown)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    docstrings: set[int] = set()
    for node in ast.walk(tree):
        if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
                and node.func.id in ("p_", "pN_") and node.args):
            docstrings.add(id(node.args[0]))
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            body = node.body
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
                docstrings.add(id(body[0].value))
    return [(node.lineno, node.value) for node in ast.walk(tree)
            if isinstance(node, ast.Constant) and isinstance(node.value, str)
            and id(node) not in docstrings]


def test_nothing_outside_the_discord_adapter_writes_discords_marks() -> None:
    found = [f"{path.relative_to(BOT.parent)}:{line}: {text!r}"
             for path in sorted(BOT.rglob("*.py")) if "discord" not in path.parts
             for line, text in _strings(path) if DISCORD_MARKS.search(text)]
    assert not found, "\n".join(found)


def test_the_scan_sees_each_mark(tmp_path: Path) -> None:
    """The scan above is not blind: each mark, written in a string, is seen."""
    for mark in ("**Won**", "*assisted*", "`7 3`", "<@{id}>", "<t:{when}:f>", "-# small", "```\nx\n```",
                 "try /new trefoil", "press /daily-board"):
        source = tmp_path / "one.py"
        source.write_text(f'"""A module."""\nTEXT = {mark!r}\n', encoding="utf-8")
        assert [text for _line, text in _strings(source) if DISCORD_MARKS.search(text)], mark
    assert not DISCORD_MARKS.search("7/3 of pile 2, 1/2 won, https://x/new, 2 * 3 * 4")


# -- the model ----------------------------------------------------------------------------


def test_a_sentence_is_parsed_into_parts_after_translation() -> None:
    text = fill("New game: <b>{game}</b>, deal {deal}. {new}", {
        "game": "Trefoil", "deal": 42, "new": command("new", "trefoil")})
    assert text.parts == ("New game: ", Strong(Text("Trefoil")), ", deal 42. ",
                          Command("new", ("trefoil",)))
    assert fill("{count:,} cards", {"count": 12345}).parts == ("12,345 cards",)
    assert fill("No facts: {braces} stay").parts == ("No facts: {braces} stay",)
    assert fill("<b>unclosed {x}", {"x": "y"}).parts == ("unclosed y",)


def test_text_refuses_to_be_formatted_into_a_string() -> None:
    with pytest.raises(TypeError):
        f"{_('Undo')}"
    assert (Text("a") + code("7 3") + "b").parts == ("a", Typed("7 3"), "b")
    assert Text(", ").join(["x", code("y"), "z"]).parts == ("x, ", Typed("y"), ", z")
    assert [line.parts for line in Text("one\ntwo ", Small(Text("s"))).lines()] == [
        ("one",), ("two ", Small(Text("s")))]


# -- each place in its own words -----------------------------------------------------------


def _sample() -> Text:
    return Text(
        n_("🏆 <b>Won</b> in {count} move!", "🏆 <b>Won</b> in {count} moves!", 12), " ",
        command("new", "trefoil", "42"), "\n",
        mention(7), " ", moment(1_700_000_000), " ", code("7 f2"), OrMenu(current().code), "\n",
        Small(Text("fine print")), "\n", Share("🃏 Trefoil 2026-11-22 ✅"),
    )


def test_discord_reads_markdown_mentions_timestamps_and_its_slash_commands() -> None:
    with speaking("de"):
        shown = markdown(_sample())
    assert shown.startswith("🏆 **Gewonnen** in 12 Zügen! `/neu trefoil 42`\n")
    assert "`/neu trefoil 42`" in shown and "<@7>" in shown and "<t:1700000000:f>" in shown
    assert "`7 f2`" in shown and "\n-# fine print\n" in shown
    assert shown.endswith("```\n🃏 Trefoil 2026-11-22 ✅\n```")
    assert "Menü" in shown  # the clause that points at the menu under the board


def test_the_console_reads_plain_words_and_its_own_prompt() -> None:
    shown = plain(_sample())
    assert not re.search(r"\*\*|`|<@|<t:|-# |```", shown), shown
    assert shown.startswith("🏆 Won in 12 moves! /new trefoil 42\n")
    assert "7 f2" in shown and "fine print" in shown and "🃏 Trefoil 2026-11-22 ✅" in shown
    assert "\x1b[1mWon\x1b[22m" in plain(_sample(), colour=True)
    assert "you" in plain(mention(1)) and "77" in plain(mention(77))


def test_the_page_reads_its_own_buttons_and_a_copy_button() -> None:
    lines = said(_sample(), player_id=7)
    first = lines[0]
    assert first[:2] == [{"t": "text", "text": "🏆 "},
                         {"t": "strong", "parts": [{"t": "text", "text": "Won"}]}]
    assert {"t": "button", "action": "new", "label": "New deal", "game": "trefoil",
            "deal": 42} in first
    assert lines[1][0] == {"t": "text", "text": "you "}
    assert {"t": "moment", "when": 1_700_000_000} in lines[1]
    assert {"t": "typed", "text": "7 f2"} in lines[1]
    assert lines[2] == [{"t": "small", "parts": [{"t": "text", "text": "fine print"}]}]
    assert lines[3] == [{"t": "copy", "text": "🃏 Trefoil 2026-11-22 ✅"}]
    flat = repr(lines)
    assert "menu" not in flat and "/new" not in flat and "**" not in flat
    rules = said(command("rules", "clover-leaf"), player_id=7)
    assert rules == [[{"t": "button", "action": "rules", "label": "Rules",
                       "game": "clover-leaf"}]]


def test_a_pictures_description_fits_discords_limit_for_one() -> None:
    """Render words a description within its own length; Discord takes at least that."""
    from bot.discord.limits import ALT_TEXT_LIMIT
    from render.alt_text import LONGEST

    assert LONGEST <= ALT_TEXT_LIMIT
