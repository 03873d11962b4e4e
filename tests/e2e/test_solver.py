"""The solver through Discord: the Hint button and /hint answer privately, a board proven
unwinnable is amended in place, and `/new winnable:True` deals a proven-winnable game."""

from __future__ import annotations

import asyncio
from typing import Any

from engine import new_game
from engine.solver import solve

from .fake_discord import FakeDiscord
from .play import board_of


async def test_hint_button_and_command_answer_privately(fake: FakeDiscord, bot: Any) -> None:
    alice = fake.users["alice"]
    board = await fake.command(alice, "new", {"game": "corner-stones", "deal": 1})
    before = fake.message(board).state()
    hint = await fake.press(alice, board, label="Hint")
    assert hint.ephemeral and "winning line" in hint.text and "moves left" in hint.text
    # Corner Stones 1 opens with cards to send up: the hint is the button that does it.
    assert hint.text.startswith("Hint: press **To foundations**")
    assert fake.message(board).state().content == before.content  # the board is untouched
    again = await fake.command(alice, "hint")  # on the line the button's hint proved
    assert again.ephemeral and again.text == hint.text, "no search, so no cooldown"
    await fake.command("bob", "new", {"game": "trefoil", "deal": 1})
    his = await fake.press("bob", await fake.command("bob", "show"), label="Hint")
    assert his.ephemeral and his.text.startswith("Hint: ") and "winning line" not in his.text
    cooling = await fake.command("bob", "hint")  # the button and /hint share one cooldown
    assert cooling.ephemeral and "One hint every 5 s: ask again in" in cooling.text
    moved = await fake.press(alice, board, label="To foundations")  # the buttons still work
    assert not moved.ephemeral and board_of(moved).pngs


async def test_a_board_proven_unwinnable_says_so(fake: FakeDiscord, bot: Any) -> None:
    bob = fake.users["bob"]
    board = await fake.command(bob, "new", {"game": "trefoil", "deal": 2})
    await fake.press(bob, board, label="Redeal")
    await fake.press(bob, board, label="Redeal")  # trefoil 2, redealt twice: proven lost
    for _ in range(100):
        if "No win is possible" in fake.message(board).state().content:
            break
        await asyncio.sleep(0.1)
    state = fake.message(board).state()
    assert "**No win is possible from here** — undo or start again." in state.content
    assert len(state.attachments) == 1, "the picture stays"


async def test_new_winnable_deals_a_game_the_solver_wins(fake: FakeDiscord, bot: Any) -> None:
    carol = fake.users["carol"]
    reply = await fake.command(carol, "new", {"game": "corner-stones", "winnable": True})
    assert not reply.ephemeral and board_of(reply).pngs
    deal = int(reply.text.split("deal ")[1].split()[0].rstrip("."))
    assert solve(new_game("corner-stones", deal), positions=1_000_000).status == "won"
    refused = await fake.command(carol, "new", {"game": "trefoil", "deal": 3, "winnable": True})
    assert refused.ephemeral and "either a deal number or" in refused.text


async def test_pictures_carry_alt_text_and_a_proven_loss_shows_on_the_picture(
    fake: FakeDiscord, bot: Any
) -> None:
    dana = fake.users["dana"]
    board = await fake.command(dana, "new", {"game": "trefoil", "deal": 2})
    [alt] = board.alt_texts
    assert alt.startswith("Trefoil, deal 2, 0 moves") and len(alt) <= 1024
    assert "Only the last card" in board.text and "`/rules trefoil`" in board.text
    await fake.press(dana, board, label="Redeal")
    await fake.press(dana, board, label="Redeal")  # proven lost, as above
    for _ in range(100):
        state = fake.message(board).state()
        if "No win is possible" in state.content:
            break
        await asyncio.sleep(0.1)
    [picture] = state.attachments
    assert "no win is possible" in (picture.description or "").lower()
