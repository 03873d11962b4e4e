"""The JSON the page's server sends is declared once, in the page's schema
(``bot/web/page/schema/page.schema.json``, from which the page's types are generated), and
every answer the server really gives holds to it: signing in (through Discord and in dev
mode), the board (a game, none yet, nothing new), a new deal and the daily one, a move
accepted and one refused, the rules, a question and its answer; and every kind of piece the
server's words are made of."""

from __future__ import annotations

import json
from typing import Any

import jsonschema
import pytest

from bot.replies.text import Command, Em, Moment, Person, Share, Small, Strong, Text, Typed
from bot.web.server import STATIC
from bot.web.words import said
from bot.words.language import speaking
from tests.e2e.fake_discord import FakeDiscord

from .conftest import Web

SCHEMA = json.loads((STATIC.parent / "page" / "schema" / "page.schema.json").read_text("utf-8"))
ALICE = 314_159_265_358_979_323


def check(kind: str, answer: Any) -> None:
    """``answer`` is what the schema calls ``kind`` (one of its definitions), or the test
    fails with every way it is not."""
    validator = jsonschema.Draft7Validator(
        {"$ref": f"#/definitions/{kind}", "definitions": SCHEMA["definitions"]})
    errors = [f"{'/'.join(map(str, e.absolute_path)) or '(top)'}: {e.message}"
              for e in validator.iter_errors(answer)]
    assert not errors, f"not a {kind} as page.schema.json declares it:\n" + "\n".join(errors)


def test_the_schema_is_json_schema_and_refuses_what_the_page_does_not_read() -> None:
    jsonschema.Draft7Validator.check_schema(SCHEMA)
    reply = {"board": None, "message": None, "note": [[{"t": "text", "text": "No."}]],
             "refused": True, "noGame": False, "hint": None, "settings": None}
    check("ReplyData", reply)
    for wrong in ({**reply, "note": [[{"t": "bold", "text": "No."}]]},
                  {k: v for k, v in reply.items() if k != "refused"},
                  {**reply, "extra": 1}, {"same": False}):
        assert not jsonschema.Draft7Validator(SCHEMA).is_valid(wrong), wrong


async def test_signing_in_answers_as_the_schema_says(discord_web: Web, fake: FakeDiscord,
                                                     web: Web) -> None:
    check("SignedIn", await discord_web.call("api/signin", {"code": fake.authorize("alice")}))
    check("SignedIn", await web.call("api/dev/signin", {"user": str(ALICE), "locale": "fr"}))


async def test_every_answer_of_play_holds_to_the_schema(web: Web) -> None:
    session = await web.dev_session(ALICE)

    async def answer(path: str, body: dict[str, Any] | None = None) -> Any:
        reply = await web.call(path, body, session=session)
        check("ReplyData", reply)
        return reply

    none = await answer("api/board")
    assert none["noGame"] and none["board"] is None
    board = (await answer("api/new", {"game": "trefoil", "deal": 1}))["board"]
    have = ".".join(map(str, board["ref"]))
    check("Unchanged", await web.call(f"api/board?have={have}", session=session))
    illegal = next(f"{s} {d}" for s in range(1, 17) for d in range(1, 17)
                   if s != d and f"{s} {d}" not in board["moves"])
    refused = await answer("api/act", {"action": "move", "move": illegal, "seen": board["ref"]})
    assert refused["refused"] and refused["note"]
    moved = await answer("api/act", {"action": "move", "move": board["moves"][0],
                                     "seen": board["ref"]})
    assert not moved["refused"] and moved["board"]["ref"] != board["ref"]
    for action in ("undo", "redo"):
        await answer("api/act", {"action": action})
    hinted = await answer("api/act", {"action": "hint"})
    assert hinted["hint"] is not None, hinted
    again = await answer("api/act", {"action": "hint"})  # within the hints' cooldown
    assert again["refused"] and again["hint"] is None
    shown = await answer("api/settings", {})
    assert [s["name"] for s in shown["settings"]] == ["private_boards", "four_colour", "auto_moves"]
    changed = await answer("api/settings", {"auto_moves": True})
    assert {s["name"]: s["on"] for s in changed["settings"]}["auto_moves"] is True
    await answer("api/board")
    await answer("api/rules", {"game": "corner-stones"})
    asked = await answer("api/new", {"game": "clover-leaf", "deal": 5})
    question = asked["message"]["question"]
    assert question is not None
    await answer("api/answer", {"ask": question["ask"], "args": question["args"], "yes": True})
    await answer("api/daily", {"game": "corner-stones"})  # the grid with its corners
    await answer("api/new", {"game": "trefoil", "winnable": True})


def test_every_kind_of_piece_the_words_make_is_the_schemas() -> None:
    text = Text("Plain, ", Strong(Text("strong")), Em(Text("em")), Typed("3 7"),
                Command("new", ("trefoil", "12")), Command("undo"), Command("stats"),
                Command("new", ("trefoil", "12"), shared=True), Share("/new trefoil 3"),
                Moment(1_700_000_000), Person(ALICE), Person(1), "\n",
                Small(Text("small print")))
    with speaking("en-US"):
        pieces = said(text, ALICE)
    check("Said", pieces)
    kinds = {p["t"] for line in pieces for p in line}
    assert kinds == {"text", "strong", "em", "typed", "button", "copy", "moment", "small"}


@pytest.mark.parametrize("kind", ["SignedIn", "ReplyData", "Unchanged"])
def test_each_answer_is_one_the_page_knows(kind: str) -> None:
    assert {"$ref": f"#/definitions/{kind}"} in SCHEMA["anyOf"]  # (so its type is generated)
