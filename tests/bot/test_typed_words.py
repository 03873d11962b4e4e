"""A move's words in the player's language: ``mischen``, ``ziehen DH`` play as ``redeal``
and ``draw QH`` (the English works too), the move menu's ``pick`` is theirs, and what the
bot says of a move uses their words."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from bot.core import Core
from bot.replies import Action
from bot.words.hints import hint_words
from bot.words.language import _, speaking
from bot.words.typed import as_english, as_typed
from bot.workers.solver import HintAnswer
from engine import RULES, new_game
from tests.said import shown

from .conftest import ALICE
from .presenting import answer
from .test_console import play

GERMAN_ALICE = replace(ALICE, language="de")
FRENCH_ALICE = replace(ALICE, language="fr")


def test_the_words_of_a_move_read_both_ways() -> None:
    with speaking("de"):
        assert as_english("mischen") == as_english("Mischen") == "redeal"
        assert as_english("ziehen DH") == "draw QH" == as_english("draw QH")
        assert as_english("ziehen BC") == "draw JC"
        assert as_english("wählen 7") == "pick 7"
        assert as_english("7 f1") == "7 f1"
        assert as_typed("draw QH") == "ziehen DH" and as_typed("redeal") == "mischen"
        assert as_typed("7 f1") == "7 f1"
    with speaking("fr"):
        assert as_english("tirer VS") == "draw JS" and as_typed("draw KH") == "tirer RH"
    with speaking("en-US"):
        assert as_english("redeal") == "redeal" and as_typed("draw QH") == "draw QH"


async def test_a_german_player_redeals_and_draws_in_german(core: Core) -> None:
    await answer(core.new_game, GERMAN_ALICE, "trefoil", 27, draw=True)
    for _redeal in range(2):
        mixed = await answer(core.act, GERMAN_ALICE, Action.MOVE, "mischen")
        assert mixed.board is not None and not mixed.refused, shown(mixed.text)
        assert "`mischen`" in shown(mixed.board.text)
    drawn = await answer(core.act, GERMAN_ALICE, Action.MOVE, "ziehen DH")
    assert drawn.board is not None and not drawn.refused, shown(drawn.text)
    assert "`ziehen DH`" in shown(drawn.board.text)
    again = await answer(core.act, ALICE, Action.UNDO)
    assert again.board is not None and "`draw QH`" in shown(again.board.text)  # in English


async def test_no_redeal_left_is_said_as_the_picture_says_it(core: Core) -> None:
    await answer(core.new_game, FRENCH_ALICE, "trefoil", 27)
    await answer(core.act, FRENCH_ALICE, Action.MOVE, "redonner")
    done = await answer(core.act, FRENCH_ALICE, Action.MOVE, "redonner")
    assert done.board is not None
    assert "plus de redonne" in shown(done.board.text) and "reste 0" not in shown(done.board.text)


async def test_the_consoles_menu_picks_a_pile_in_the_players_words(tmp_path: Path) -> None:
    """Corner Stones' opening has more moves than a menu holds: its piles are picked."""
    db, boards = tmp_path / "s.db", tmp_path / "boards"
    text = await play(db, boards, "/neu corner-stones 1", "wählen 1", locale="de")
    assert "  wählen 1 " in text and "  pick 1" not in text
    assert "Züge von Stapel 1 (C1)" in text


def test_german_says_which_is_on_a_winning_line_and_deals_in_threes() -> None:
    """'Er liegt auf einem Lösungsweg': who is Er? And cards dealt 'zu dritt' are dealt by
    three people: they are dealt 'zu je drei'."""
    with speaking("de"):
        said = hint_words(new_game("trefoil", 42), HintAnswer("5 f3", True, False, moves_left=9))
        assert "Dieser Zug liegt auf einem Lösungsweg: noch 9 Züge." in shown(said)
        rules = " ".join(shown(_(line)) for line in RULES["trefoil"].summary)
        assert "zu je drei" in rules and "zu dritt" not in rules
