"""``/replay``: refusals that come before any drawing (a game without moves to show), and
what its caption and alt text say of the game."""

from __future__ import annotations

from bot.core import Core
from bot.flows.actions import CONFIRMED
from bot.replies import Action
from bot.store import Stores
from engine import new_game
from tests.said import shown

from .conftest import ALICE
from .presenting import answer
from .test_game_flow import TREFOIL_27_WIN


async def test_a_game_not_moved_in_yet_is_not_the_one_replayed(core: Core) -> None:
    await answer(core.new_game, ALICE, "trefoil", 3)
    refused = await answer(core.replay, ALICE)
    assert refused.refused and "no game to replay" in shown(refused.text), shown(refused.text)


async def test_a_game_resigned_before_its_first_move_says_it_ended_so(core: Core) -> None:
    """Not "no move yet": that game is over, and will never have one. (It is the one found:
    the player's last finished game, once the game in play has no move.)"""
    await answer(core.new_game, ALICE, "trefoil", 3)
    await answer(core.act, ALICE, Action.RESIGN, CONFIRMED)
    refused = await answer(core.replay, ALICE)
    assert refused.refused and "ended before its first move" in shown(refused.text), shown(refused.text)


async def test_a_replays_alt_text_says_the_game_the_deal_the_result_and_the_moves(
    core: Core,
) -> None:
    await answer(core.new_game, ALICE, "trefoil", 42)
    for move in ("5 f3", "3 10"):
        await answer(core.act, ALICE, Action.MOVE, move)
    reply = await answer(core.replay, ALICE)
    assert reply.message is not None and reply.message.image is not None
    # The game in play is the player's already: no offer to deal it to them.
    assert "deals it to you" not in shown(reply.message.text)
    assert reply.message.alt_text == (
        "A replay of Trefoil, deal 42, a frame a move from the deal: still being played after "
        "2 moves. Moves: 5 f3, 3 10."
    )


async def test_a_long_replays_moves_fit_discords_1024_characters(core: Core) -> None:
    await answer(core.new_game, ALICE, "corner-stones", 1)
    game = new_game("corner-stones", 1)
    for _ in range(150):
        move = str(game.legal_moves()[-1])
        game.play(move)
        await answer(core.act, ALICE, Action.MOVE, move)
    reply = await answer(core.replay, ALICE)
    assert reply.message is not None
    alt = reply.message.alt_text
    assert len(alt) <= 1024 and "Moves: " in alt
    assert alt.endswith("more.") and " … and " in alt, alt[-80:]
    listed = alt.split("Moves: ")[1].split(" … and ")[0].split(", ")
    more = int(alt.split(" … and ")[1].split(" ")[0])
    assert listed == [str(m) for m in game.history[: len(listed)]]
    assert len(listed) + more == game.moves_made == 150


async def test_a_finished_games_replay_offers_its_deal(core: Core) -> None:
    await answer(core.new_game, ALICE, "trefoil", 42)
    await answer(core.act, ALICE, Action.MOVE, "5 f3")
    await answer(core.act, ALICE, Action.RESIGN, CONFIRMED)
    reply = await answer(core.replay, ALICE)
    assert reply.message is not None and "`/new trefoil 42` deals it to you." in shown(reply.message.text)


async def test_a_game_won_with_hints_is_replayed_as_won_with_hints(
    core: Core, store: Stores
) -> None:
    """As its board and a challenge's result say it: a 269-move game won with hints was
    captioned "won, 269 moves"."""
    await answer(core.new_game, ALICE, "trefoil", 27)
    for move in TREFOIL_27_WIN[:-1]:
        await answer(core.act, ALICE, Action.MOVE, move)
    saved = await store.games.load(ALICE.user_id)
    assert saved is not None
    await store.games.count_hint(saved.id)  # as the Hint button does
    await answer(core.act, ALICE, Action.MOVE, TREFOIL_27_WIN[-1])
    reply = await answer(core.replay, ALICE)
    assert reply.message is not None
    assert "deal 27: won with hints, 58 moves." in shown(reply.message.text), shown(reply.message.text)
    assert "won with hints after 58 moves" in (reply.message.alt_text or "")
