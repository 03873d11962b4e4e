"""Games played to their end through Discord: a Trefoil won by the move menu alone, a Clover
Leaf that gets stuck. A won board says so, offers no control, and refuses further play; a
stuck board offers Undo, and leaving it for a new game records a loss.
"""

from __future__ import annotations

from typing import Any

from engine import REDEAL

from .fake_discord import FakeDiscord, Reply
from .play import MENU_LIMIT, Mirror, board_of, move_options

# Greedy play (the first menu move that reaches a new position, Redeal when the menu is
# empty) wins this deal in under a hundred moves.
WINNING_TREFOIL = 53
# This Clover Leaf deal is stuck after two moves.
STUCK_CLOVER_LEAF = 162


def _greedy_pick(mirror: Mirror, seen: set[Any]) -> str | None:
    game = mirror.game
    for move in [m for m in game.legal_moves() if m.kind != REDEAL][:MENU_LIMIT]:
        game.push(move)
        key = game.key()
        game.pop()
        if key not in seen:
            return str(move)
    return None


def _check_over(reply: Reply) -> None:
    board = board_of(reply)
    assert all(b.disabled for b in board.buttons), "a finished game has no control left"
    assert board.select.disabled, "nor a move menu"


async def test_trefoil_won_with_the_move_menu(fake: FakeDiscord, bot: Any) -> None:
    carol = fake.users["carol"]
    mirror = Mirror("trefoil", WINNING_TREFOIL)
    reply = await fake.command(carol, "new", {"game": "trefoil", "deal": WINNING_TREFOIL})
    board_id = reply.message_id
    seen = {mirror.game.key()}
    for _ in range(150):
        if mirror.game.is_won:
            break
        pick = _greedy_pick(mirror, seen)
        if pick is not None:
            reply = await fake.select(carol, board_id, values=[pick])
            mirror.play(pick)
        else:
            assert mirror.game.redeals_left > 0, "the chosen deal got stuck; pick another"
            reply = await fake.press(carol, board_id, label="Redeal")
            mirror.play("redeal")
        seen.add(mirror.game.key())
        assert reply.kind == "update" and reply.message_id == board_id
        mirror.check_board(reply, carol.id)
    assert mirror.game.is_won
    assert "won" in reply.text.lower(), reply.text
    _check_over(reply)

    refused = await fake.command(carol, "move", {"from": "1", "to": "2"})
    assert refused.ephemeral and "/new" in refused.text
    shown = await fake.command(carol, "show")
    mirror.check_board(shown, carol.id)
    _check_over(shown)
    again = await fake.command(carol, "new", {"game": "clover-leaf", "deal": 1})
    assert not again.ephemeral and again.pngs, "a new game starts without a question"


async def test_clover_leaf_stuck_with_slash_commands(fake: FakeDiscord, bot: Any) -> None:
    dana = fake.users["dana"]
    mirror = Mirror("clover-leaf", STUCK_CLOVER_LEAF)
    reply = await fake.command(dana, "new", {"game": "clover-leaf", "deal": STUCK_CLOVER_LEAF})
    while not mirror.finished:
        text = mirror.first_move()
        reply = await fake.command(dana, "move", move_options(text))
        mirror.play(text)
        mirror.check_board(reply, dana.id)
    assert mirror.game.is_stuck and not mirror.game.is_won
    assert "stuck" in reply.text.lower(), reply.text
    stuck = board_of(reply)
    assert [b.label for b in stuck.buttons if not b.disabled] == ["Undo", "Hint"]
    # Whether the deal itself is lost is the solver's to prove, within a budget a loaded
    # machine can miss (then the hint truly says "from here"): proven here first, with
    # time to spare, as a quiet machine proves it within the hint's budget. It is kept.
    saved = await bot.core.stores.games.load(dana.id)
    assert saved is not None
    assert await bot.core.verdicts.deal_lost(saved.game, budget_s=60.0)
    hint = await fake.press(dana, stuck, label="Hint")
    # The deal itself is lost: no undo can help, and the hint speaks of none.
    assert hint.ephemeral and hint.text.startswith("**No win is possible from this deal**")
    assert "undo" not in hint.text.lower()
    undo = await fake.command(dana, "undo")
    assert not undo.ephemeral and undo.pngs, "a stuck game can still be taken back"
    assert "stuck" not in undo.text.lower()
    redo = await fake.command(dana, "redo")
    assert "stuck" in redo.text.lower()
    again = await fake.command(dana, "new", {"game": "trefoil", "deal": 3})
    assert not again.ephemeral and "recorded as lost" in again.text


async def test_resign_ends_the_game_and_a_new_one_needs_no_question(
    fake: FakeDiscord, bot: Any
) -> None:
    alice = fake.users["alice"]
    mirror = Mirror("four-leaf-clovers", 2)
    await fake.command(alice, "new", {"game": "four-leaf-clovers", "deal": 2})
    text = mirror.first_move()
    await fake.command(alice, "move", move_options(text))
    mirror.play(text)
    asked = await fake.command(alice, "resign")
    assert "Resign this **Four Leaf Clovers** game" in asked.text and "counts as a loss" in asked.text
    kept = await fake.press(alice, asked, label="Keep playing")  # no: the board, unchanged
    mirror.check_board(kept, alice.id)
    asked = await fake.command(alice, "resign")
    resigned = await fake.press(alice, asked, label="Resign")
    assert not resigned.ephemeral and "resign" in resigned.text.lower(), resigned.text
    assert resigned.text.lower().count("resigned") == 1, "said once"
    _check_over(resigned)
    fresh = await fake.command(alice, "new", {"game": "trefoil", "deal": 2})
    Mirror("trefoil", 2).check_board(fresh, alice.id)
