"""The page is told "no game yet" by the reply itself (``Reply.no_game``, set where the core
refuses for want of a game), never by matching the sentence that says so."""

from __future__ import annotations

from bot.replies import Reply
from bot.replies.text import Text
from bot.web.view import reply_json
from bot.words.phrases import no_game

from .conftest import Web

ALICE = 314_159_265_358_979_323


def test_the_page_reads_the_replys_own_word_not_its_sentence() -> None:
    assert reply_json(Reply(note=Text("—"), refused=True, no_game=True), ALICE)["noGame"]
    assert not reply_json(Reply(note=no_game(), refused=True), ALICE)["noGame"]  # words say nothing


async def test_a_player_with_no_game_is_told_so_in_any_language(web: Web) -> None:
    for locale in ("en-US", "fr", "de"):
        session = await web.dev_session(ALICE, locale)
        for path, body in (("api/board", None), ("api/act", {"action": "undo"})):
            reply = await web.call(path, body, session=session)
            assert reply["refused"] and reply["noGame"] and reply["board"] is None, (
                locale, path, reply)
