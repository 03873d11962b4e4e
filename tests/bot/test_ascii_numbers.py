"""A number a player's text carries (a question's arguments, a button's) is ASCII digits and
nothing else: ``str.isdigit`` also takes "²", which ``int`` refuses, and "١٢٣" (Arabic-Indic),
which ``int`` reads as 123. Either is refused as out of date, with no failure logged."""

from __future__ import annotations

import io
import logging
from pathlib import Path

import pytest

from bot.console import run_console
from bot.core import Core
from bot.replies import Action, Ask, DealRequest, Question, is_digits
from tests.said import shown

from .conftest import ALICE
from .presenting import answer

NOT_ASCII = ["²", "١", "١٢٣", "٣"]


def test_only_ascii_digits_are_digits() -> None:
    assert is_digits("0123456789")
    assert not any(is_digits(text) for text in [*NOT_ASCII, "", "1²", "٣1", "-1", "1.5"])


@pytest.mark.parametrize("digits", NOT_ASCII)
def test_a_deal_or_challenge_in_other_digits_is_no_request(digits: str) -> None:
    assert DealRequest.from_tokens(("trefoil", "3")) == DealRequest("trefoil", 3)
    assert DealRequest.from_tokens(("trefoil", digits)) is None
    assert DealRequest.from_tokens(("trefoil", "3", f"c{digits}")) is None


@pytest.mark.parametrize("digits", NOT_ASCII)
async def test_a_question_answered_with_other_digits_is_out_of_date(
    core: Core, caplog: pytest.LogCaptureFixture, digits: str
) -> None:
    board = (await answer(core.new_game, ALICE, "trefoil", 3)).board
    assert board is not None and board.table is not None
    moved = (await answer(core.act, ALICE, Action.MOVE, str(board.table.moves[0]))).board
    assert moved is not None and moved.ref != board.ref
    questions = [Question(Ask.NEW_GAME, ALICE.user_id, "", "", (digits, "trefoil", "1")),
                 Question(Ask.NEW_GAME, ALICE.user_id, "", "", (str(moved.ref.game_row), "trefoil",
                                                                  digits)),
                 Question(Ask.RESIGN, ALICE.user_id, "", "", (digits, str(moved.ref.revision))),
                 Question(Ask.RESIGN, ALICE.user_id, "", "", (str(moved.ref.game_row), digits))]
    for question in questions:
        reply = await answer(core.answer_question, ALICE, question, True)
        assert reply.refused and "out of date" in shown(reply.note), reply
    showed = (await answer(core.act, ALICE, Action.SHOW)).board
    assert showed is not None and showed.ref == moved.ref, "nothing was played"
    assert [r for r in caplog.records if r.levelno >= logging.ERROR] == []


async def test_a_deal_typed_in_the_console_in_other_digits_deals_nothing(tmp_path: Path) -> None:
    out = io.StringIO()
    lines = "/new trefoil ١٢\n/new trefoil 12\n"
    assert await run_console(tmp_path / "s.db", tmp_path / "b", stdin=io.StringIO(lines),
                             stdout=out) == 0
    text = out.getvalue()
    assert "I don't understand ١٢" in text, text
    assert text.count("New game: Trefoil, deal 12.") == 1, "dealt by /new trefoil 12 alone"
