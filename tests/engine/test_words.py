"""The engine hands over templates with facts: every one reaches the bot's catalog, and an
interface can word every part of a refusal in its own language."""

from __future__ import annotations

import ast
import re
from pathlib import Path
from typing import Any

import pytest
from babel.messages.extract import extract_from_dir

from engine import (
    GAMES,
    RULES,
    BadSetup,
    Card,
    IllegalMove,
    Reason,
    RuleError,
    check_setup,
    new_game,
)
from engine import errors as errors_module
from engine.odds import odds_text
from engine.words import Phrase

from .positions import position

ROOT = Path(__file__).resolve().parents[2]
# The keywords Babel extracts the engine's templates by, as errors.py writes them down.
KEYWORDS = next(
    line.split() for line in (errors_module.__doc__ or "").splitlines()
    if line.startswith("    IllegalMove")
)
FRENCH_RANKS = {1: "As", 11: "V", 12: "D", 13: "R"}


def french_rank(rank: int) -> str:
    return FRENCH_RANKS.get(rank, str(rank))


def french_card(card: Card) -> str:
    return french_rank(card.rank) + "♣♦♥♠"[card.suit]


def shout(template: str) -> str:
    """A stand-in translation: the template upper-cased, its placeholders kept."""
    return re.sub(r"\{\w*\}|[^{]+", lambda m: m[0] if m[0].startswith("{") else m[0].upper(),
                  template)


def refusal(game_id: str, piles: dict[int, str], text: str) -> IllegalMove:
    with pytest.raises(IllegalMove) as refused:
        position(game_id, piles).play(text)
    return refused.value


def templates(phrase: Phrase) -> set[str]:
    """Every template in a phrase, nested ones too."""
    found = {phrase.template}
    for value in phrase.facts.values():
        for item in value if isinstance(value, tuple | list) else (value,):
            if isinstance(item, Phrase):
                found |= templates(item)
    return found


def plain_facts(phrase: Phrase) -> list[str]:
    """The facts that are plain text (not typed, not a phrase), nested ones too."""
    found = []
    for value in phrase.facts.values():
        for item in value if isinstance(value, tuple | list) else (value,):
            if isinstance(item, Phrase):
                found += plain_facts(item)
            elif type(item) is str:
                found.append(item)
    return found


@pytest.mark.parametrize(
    ("game_id", "piles", "text", "worded"),
    [
        ("clover-leaf", {1: "JC"}, "1 f",
         "V♣ DOESN'T FIT ANY FOUNDATION NOW: F1 (♦ As↑) TAKES 2♦ NEXT; F2 (♥ As↑) TAKES 2♥ "
         "NEXT; F3 (♣ R↓) TAKES D♣ NEXT; F4 (♠ R↓) TAKES D♠ NEXT."),
        ("four-leaf-clovers", {1: "2S"}, "1 f",
         "2♠ DOESN'T FIT ANY FOUNDATION NOW: F1 (ANY As↑) TAKES ANY As TO START NEXT."),
        ("trefoil", {1: "9C", 2: "4H"}, "1 2",
         "9♣ CAN'T GO ON 4♥: IN TREFOIL A CARD GOES ON THE NEXT HIGHER CARD OF ITS OWN SUIT."),
        ("corner-stones", {3: "2D"}, "3 f3",
         "2♦ FITS F3, BUT STACK 3 (S1) FEEDS ONLY f1 AND f2. STACKS 1 (C1), 2 (C2), 11 (C3), "
         "12 (C4) FEED ANY FOUNDATION."),
        ("trefoil", {1: "9C"}, "1 fx",
         "`x` IN `1 fx` IS NOT A FOUNDATION LIKE `f2`. A MOVE LOOKS LIKE `7 3` (PILE 7 ONTO "
         "PILE 3), `7 f2` OR `7 f` (TO A FOUNDATION), `7` (ITS ONLY LEGAL MOVE) OR `redeal`."),
    ],
)
def test_worded_reaches_every_nested_template_card_and_rank(
    game_id: str, piles: dict[int, str], text: str, worded: str
) -> None:
    err = refusal(game_id, piles, text)
    asked: list[str] = []

    def translate(template: str) -> str:
        asked.append(template)
        return shout(template)

    said = err.worded(lambda typed: f"`{typed}`", translate=translate, card=french_card,
                      rank=french_rank)
    assert said == worded
    assert set(asked) == templates(err.phrase)


def test_a_refusal_is_plain_english_without_hooks() -> None:
    err = refusal("clover-leaf", {1: "JC"}, "1 f")
    assert str(err) == err.worded() == str(err.phrase) == (
        "J♣ doesn't fit any foundation now: f1 (♦ A↑) takes 2♦ next; f2 (♥ A↑) takes 2♥ next; "
        "f3 (♣ K↓) takes Q♣ next; f4 (♠ K↓) takes Q♠ next."
    )
    with pytest.raises(BadSetup) as refused:
        check_setup("clover-leaf", 3, draw=True)
    assert str(refused.value) == "The draw house rule belongs to Trefoil only."


def test_the_odds_are_phrases_with_figures() -> None:
    said = " ".join(s.worded(translate=shout, figure=lambda f: f"<{f.value:g}>")
                    for s in odds_text("trefoil"))
    assert said == ("WITH PERFECT PLAY, EVERY SHUFFLE KNOWN, <1> OF DEALS CAN BE WON (DEALS "
                    "1–<10000>). A PLAYER WHO NEVER UNDOES A REDEAL WINS ABOUT <0.21> (<0.95> "
                    "INTERVAL <19.3>–<0.228>).")


# -- every template reaches the catalog ----------------------------------------------------


def _callee(call: ast.Call) -> str | None:
    func = call.func
    return func.id if isinstance(func, ast.Name) else getattr(func, "attr", None)


@pytest.mark.parametrize("package", ["engine", "render", "bot"])
def test_every_template_is_one_literal_string(package: str) -> None:
    """Babel reads a template only when it is written out whole: no ``+``, no f-string, no
    variable. words.py and errors.py pass templates through, so they are left out."""
    passing_through = {ROOT / "engine" / "words.py", ROOT / "engine" / "errors.py"}
    wrong = []
    for path in sorted((ROOT / package).rglob("*.py")):
        if path in passing_through:
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and _callee(node) in KEYWORDS:
                first = node.args[0] if node.args else None
                if not (isinstance(first, ast.Constant) and isinstance(first.value, str)):
                    wrong.append(f"{path.relative_to(ROOT)}:{node.lineno}")
    assert not wrong, f"templates that are not one literal string: {wrong}"


@pytest.fixture(scope="module")
def refusals() -> list[RuleError]:
    """Refusals of every kind the engine raises: every pile to every place and odd texts
    on a few deals of each game, undo and redo at the start, the positions that the
    other refusals need, and bad setups."""
    found: list[RuleError] = []
    odd = ["", "x" * 50, "hello", "7 3 4", "f1 3", "7 fx", "x 3", "1 f9", "1 99", "draw",
           "draw ZZ", "draw QH", "redeal"]
    for game_id in GAMES:
        for deal in (1, 2):
            game = new_game(game_id, deal, draw=RULES[game_id].has_draw_option)
            count = game.rules.tableau_size
            texts = [f"{a} {b}" for a in range(1, count + 1) for b in range(1, count + 1)]
            texts += [f"{a} f{f}" for a in range(1, count + 1) for f in range(1, 9)]
            texts += [f"{a} f" for a in range(1, count + 1)] + [str(a) for a in range(1, 3)]
            for text in [*texts, *odd]:
                try:
                    game.resolve(text)
                except IllegalMove as err:
                    found.append(err)
            for step in (game.undo, game.redo):
                try:
                    step()
                except IllegalMove as err:
                    found.append(err)
    clubs = {1: "AC 2C 3C 4C 5C 6C", 2: "KC QC JC 10C 9C 8C"}
    for game, text in [
        (position("trefoil", {1: "2S"}, redeals_left=0, draw=True), "2 1"),  # empty-pile
        (position("trefoil", {1: "2S"}, redeals_left=0, draw=True), "1 2"),  # never-refilled
        (position("trefoil", {1: "2S"}, redeals_left=0, draw=True), "redeal"),
        (position("trefoil", {1: "2S"}, redeals_left=0, draw=True), "draw 2S"),
        (position("trefoil", {1: "2S"}, redeals_left=0, draw=True), "draw 3S"),
        (position("trefoil", {1: "2S"}, redeals_left=0), "draw 2S"),  # draw-off
        (position("corner-stones", {1: "5C"}), "1 2"),  # changes-nothing
        (position("corner-stones", {1: "7C"}, clubs), "1 f"),  # several-foundations
        (position("trefoil", {}), "1 2"),  # game-won: every card is up
    ]:
        try:
            game.resolve(text)
        except IllegalMove as err:
            found.append(err)
    used = position("trefoil", {1: "2S 3S"}, redeals_left=0, draw=True)
    used.draw_used = True
    try:
        used.resolve("draw 2S")
    except IllegalMove as err:
        found.append(err)
    for args, draw in ((("hearts",), False), (("trefoil", 0), False),
                       (("clover-leaf", 5), True)):
        try:
            check_setup(*args, draw=draw)
        except BadSetup as err:
            found.append(err)
    return found


@pytest.fixture(scope="module")
def extracted() -> set[str]:
    """The messages Babel finds in engine/ with the keywords errors.py lists."""
    keywords: dict[str, Any] = dict.fromkeys(KEYWORDS)
    return {message for _path, _line, message, _comments, _context
            in extract_from_dir(ROOT / "engine", keywords=keywords)}


def _reasons_raised(folder: Path) -> set[Reason]:
    """The reasons the code under ``folder`` refuses for, as it names them."""
    raised = set()
    for path in folder.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (isinstance(node, ast.Call) and _callee(node) in ("IllegalMove", "BadSetup")
                    and len(node.args) > 1 and isinstance(node.args[1], ast.Attribute)):
                raised.add(Reason[node.args[1].attr])
    return raised


def test_every_refusal_template_is_extracted(
    refusals: list[RuleError], extracted: set[str]
) -> None:
    raised = {folder: _reasons_raised(ROOT / folder) for folder in ("engine", "bot")}
    assert raised["engine"] | raised["bot"] == set(Reason) - {Reason.REFUSED}, (
        "every reason is one a refusal gives")
    assert raised["engine"] <= {err.reason for err in refusals}  # the sweep reaches every kind
    for err in refusals:
        assert templates(err.phrase) <= extracted, err.template


def test_refusals_pass_no_english_words_as_facts(refusals: list[RuleError]) -> None:
    """Plain text facts are names, numbers and signs: a game's name, a pile's (``1 (C1)``),
    a foundation's (``f2``), a suit."""
    names = set(GAMES.values())
    for err in refusals:
        for fact in plain_facts(err.phrase):
            assert fact in names or re.fullmatch(r"[\dCSf (),♣♦♥♠]+", fact), (err.template, fact)


def test_the_rules_a_player_reads_and_the_odds_are_extracted(extracted: set[str]) -> None:
    for rules in RULES.values():
        for text in (rules.intro, rules.note, *rules.summary):
            assert text in extracted, text
        for spec in rules.foundations:
            assert spec.phrase.template in extracted
        for sentence in odds_text(rules.id):
            assert templates(sentence) <= extracted
