"""Each of the five games, played through Discord: by slash commands, and by the buttons and
the move menu under the board. After every step the board must show the position the test's
own engine copy is in: picture, status line, enabled buttons, and the menu of legal moves.
"""

from __future__ import annotations

import re
from typing import Any

import pytest

from engine import FOUNDATION, PILE, RULES

from .fake_discord import FakeDiscord
from .play import Mirror, board_of, check_png, move_options

# A deal per game whose opening has pile moves and a foundation move (Four Leaf Clovers
# deal 2 and Corner Stones deal 1 have more legal moves than a menu holds).
DEALS = {
    "clover-leaf": 2,
    "four-leaf-clovers": 2,
    "super-flower-garden": 5,
    "trefoil": 2,
    "corner-stones": 1,
}
GAME_IDS = list(DEALS)


def _next_move(mirror: Mirror, kind: int) -> str:
    """A legal move of this kind if there is one, else any legal move."""
    try:
        return mirror.first_move(kind=kind)
    except StopIteration:
        return mirror.first_move()


@pytest.mark.parametrize("game_id", GAME_IDS)
async def test_play_with_slash_commands(fake: FakeDiscord, bot: Any, game_id: str) -> None:
    alice = fake.users["alice"]
    deal = DEALS[game_id]
    mirror = Mirror(game_id, deal)

    reply = await fake.command(alice, "new", {"game": game_id, "deal": deal})
    assert reply.kind == "message"
    assert f"/new {game_id} {deal}" in reply.text, "the deal can be shared"
    mirror.check_board(reply, alice.id)
    boards = {reply.message_id}

    for kind in (PILE, FOUNDATION, PILE):
        text = _next_move(mirror, kind)
        reply = await fake.command(alice, "move", move_options(text))
        assert reply.kind == "message", f"/move {text} posts the board"
        mirror.play(text)
        mirror.check_board(reply, alice.id)
        boards.add(reply.message_id)

    reply = await fake.command(alice, "undo")
    mirror.game.undo()
    mirror.check_board(reply, alice.id)
    reply = await fake.command(alice, "redo")
    mirror.game.redo()
    mirror.check_board(reply, alice.id)
    if RULES[game_id].redeals:
        reply = await fake.command(alice, "redeal")
        mirror.play("redeal")
        mirror.check_board(reply, alice.id)
    reply = await fake.command(alice, "show")
    mirror.check_board(reply, alice.id)
    boards.add(reply.message_id)
    assert len(boards) == 5, "every command posts its own board message"


@pytest.mark.parametrize("game_id", GAME_IDS)
async def test_play_with_buttons_and_menu(fake: FakeDiscord, bot: Any, game_id: str) -> None:
    bob = fake.users["bob"]
    deal = DEALS[game_id]
    mirror = Mirror(game_id, deal)
    reply = await fake.command(bob, "new", {"game": game_id, "deal": deal})
    board_id = reply.message_id
    pictures = {reply.attachments[0].id}

    async def step(reply: Any, mirror_action: Any) -> Any:
        assert reply.kind == "update" and reply.message_id == board_id, "edited in place"
        mirror_action()
        mirror.check_board(reply, bob.id)
        assert reply.attachments[0].id not in pictures, "a fresh picture on every change"
        pictures.add(reply.attachments[0].id)
        return reply

    for kind in (FOUNDATION, PILE):
        text = _next_move(mirror, kind)
        if text not in board_of(reply).select.values:  # more moves than a menu: two taps
            pick = f"pick {text.split()[0]}"
            reply = await fake.select(bob, board_id, values=[pick])
            assert reply.kind == "update" and reply.message_id == board_id
            assert text in board_of(reply).select.values, "the pile's moves, one tap away"
        reply = await step(
            await fake.select(bob, board_id, values=[text]), lambda t=text: mirror.play(t)
        )
    reply = await step(await fake.press(bob, board_id, label="Undo"), mirror.game.undo)
    reply = await step(await fake.press(bob, board_id, label="Redo"), mirror.game.redo)
    if RULES[game_id].redeals:
        reply = await step(
            await fake.press(bob, board_id, label="Redeal"), lambda: mirror.play("redeal")
        )
    if not mirror.foundation_moves():
        return
    home_before = mirror.game.cards_on_foundations
    reply = await fake.press(bob, board_id, label="To foundations")
    assert reply.kind == "update" and reply.message_id == board_id
    board = board_of(reply)
    check_png(board.pngs[0])
    assert board.button("To foundations").disabled, "nothing more can go up"
    assert not board.button("Undo").disabled
    moved = [v for v in board.select.values if " f" in v] if not board.select.disabled else []
    assert moved == [], f"foundation moves left after To foundations: {moved}"
    counted = re.search(rf"(\d+)/{mirror.game.rules.card_count}\b", board.text)
    assert counted is not None, f"the status counts the cards home: {board.text}"
    assert int(counted.group(1)) > home_before, "cards went up"


async def test_a_random_deal_can_be_shared(fake: FakeDiscord, bot: Any) -> None:
    """/new without a deal names the deal; another player dealing it gets the same board."""
    first = await fake.command("carol", "new", {"game": "corner-stones"})
    shared = re.search(r"/new corner-stones (\d+)", first.text)
    assert shared is not None, first.text
    deal = int(shared.group(1))
    second = await fake.command("dana", "new", {"game": "corner-stones", "deal": deal})
    assert second.pngs == first.pngs, "the same deal draws the same picture"
    Mirror("corner-stones", deal).check_board(second, fake.users["dana"].id)
