"""What an attacker sends the page's server, before signing in and after: answered with what
was wrong (a 400 and a JSON error), never a 500, no ERROR logged, nothing played or changed.
Numbers and ids are ASCII digits only: ``str.isdigit`` also takes "²", which ``int`` refuses,
and "١٢٣" (Arabic-Indic), which ``int`` reads as 123."""

from __future__ import annotations

import logging
import sys
from typing import Any

import pytest

from tests.e2e.fake_discord import FakeDiscord

from .conftest import Web

ALICE = 314_159_265_358_979_323
NOT_ASCII_DIGITS = ["²", "١٢٣", "١٢٣٤٥٦٧٨٩٠١٢٣٤٥٦٧"]


def no_error_logged(caplog: pytest.LogCaptureFixture) -> None:
    errors = [r for r in caplog.records if r.levelno >= logging.ERROR]
    assert errors == [], [r.getMessage() for r in errors]


async def dealt(web: Web) -> tuple[str, dict[str, Any]]:
    session = await web.dev_session(ALICE)
    board = (await web.call("api/new", {"game": "trefoil", "deal": 1}, session=session))["board"]
    return session, board


async def test_a_session_that_is_not_ascii_is_refused_with_why(
    web: Web, caplog: pytest.LogCaptureFixture
) -> None:
    session, board = await dealt(web)
    data, _, _mac = session.partition(".")
    for forged in (f"{data}.é", "é", f"{data}." + "١" * 43):
        reply = await web.call("api/board", session=forged, status=400)
        assert "session" in reply["error"]
    assert (await web.call("api/board", session=session))["board"]["ref"] == board["ref"]
    no_error_logged(caplog)


@pytest.mark.parametrize("user", NOT_ASCII_DIGITS)
async def test_a_dev_user_in_digits_that_are_not_ascii_is_no_user(
    web: Web, caplog: pytest.LogCaptureFixture, user: str
) -> None:
    reply = await web.call("api/dev/signin", {"user": user}, status=400)
    assert "dev_user must be a user id" in reply["error"]
    no_error_logged(caplog)


@pytest.mark.parametrize("guild", NOT_ASCII_DIGITS)
async def test_a_server_in_digits_that_are_not_ascii_is_refused_before_discord_is_asked(
    discord_web: Web, fake: FakeDiscord, caplog: pytest.LogCaptureFixture, guild: str
) -> None:
    code = fake.authorize("alice")
    reply = await discord_web.call("api/signin", {"code": code, "guild": guild}, status=400)
    assert "guild must be a server's id" in reply["error"]
    assert code in fake.oauth_codes, "the code was not spent"
    await discord_web.call("api/dev/signin", {"user": str(ALICE)}, status=404)
    no_error_logged(caplog)


@pytest.mark.parametrize("seen", [["²", "1"], ["1", "²"], ["١", "١"], "².1", "١.١", [True, 1]])
async def test_a_board_seen_in_digits_that_are_not_ascii_plays_nothing(
    web: Web, caplog: pytest.LogCaptureFixture, seen: Any
) -> None:
    session, board = await dealt(web)
    move = board["moves"][0]
    reply = await web.call("api/act", {"action": "move", "move": move, "seen": seen},
                           session=session, status=400)
    assert "seen must be a board's" in reply["error"]
    have = seen if isinstance(seen, str) else ".".join(map(str, seen))
    reply = await web.call(f"api/board?have={have}", session=session, status=400)
    assert "seen must be a board's" in reply["error"]
    assert (await web.call("api/board", session=session))["board"]["ref"] == board["ref"]
    no_error_logged(caplog)


@pytest.mark.parametrize("args", [["²", "trefoil", "1"], ["١", "trefoil", "1"],
                                  ["1", "trefoil", "²"], ["1", "trefoil", "1", "c²"]])
async def test_an_answer_with_digits_that_are_not_ascii_changes_nothing(
    web: Web, caplog: pytest.LogCaptureFixture, args: list[str]
) -> None:
    session, board = await dealt(web)
    await web.call("api/act", {"action": "move", "move": board["moves"][0], "seen": board["ref"]},
                   session=session)
    before = (await web.call("api/board", session=session))["board"]
    for ask in ("new", "resign"):
        reply = await web.call("api/answer", {"ask": ask, "args": args, "yes": True},
                               session=session, status=400)
        assert "args must be" in reply["error"]
    assert (await web.call("api/board", session=session))["board"]["ref"] == before["ref"]
    no_error_logged(caplog)


@pytest.mark.parametrize("recursion_limit", [1000, 20000])
async def test_json_nested_too_deep_is_refused_with_why(
    web: Web, caplog: pytest.LogCaptureFixture, recursion_limit: int
) -> None:
    # Whatever recursion limit the process runs with (other code may raise it), the depth
    # is refused before the parser meets it.
    session, board = await dealt(web)
    was = sys.getrecursionlimit()
    sys.setrecursionlimit(recursion_limit)
    try:
        for deep in ("[" * 1500 + "]" * 1500, '{"a":' * 9 + "1" + "}" * 9):
            for path in ("api/act", "api/dev/signin"):
                async with web.http.post(web.url + path, data=deep, headers={
                        "Authorization": f"Bearer {session}"}) as response:
                    assert response.status == 400
                    assert "nested" in (await response.json())["error"]
    finally:
        sys.setrecursionlimit(was)
    assert (await web.call("api/board", session=session))["board"]["ref"] == board["ref"]
    no_error_logged(caplog)


async def test_a_deal_that_is_true_is_no_deal(web: Web) -> None:
    session, _board = await dealt(web)
    reply = await web.call("api/new", {"game": "trefoil", "deal": True}, session=session,
                           status=400)
    assert "deal must be a number" in reply["error"]
