"""``/replay`` refusals that come before any drawing: a game without moves to show."""

from __future__ import annotations

from bot.core import Core
from bot.flows.actions import CONFIRMED
from bot.replies import Action

from .conftest import ALICE


async def test_a_game_not_moved_in_yet_is_not_the_one_replayed(core: Core) -> None:
    await core.new_game(ALICE, "trefoil", 3)
    refused = await core.replay(ALICE)
    assert refused.refused and "no game to replay" in refused.text, refused.text


async def test_a_game_resigned_before_its_first_move_says_it_ended_so(core: Core) -> None:
    """Not "no move yet": that game is over, and will never have one. (It is the one found:
    the player's last finished game, once the game in play has no move.)"""
    await core.new_game(ALICE, "trefoil", 3)
    await core.act(ALICE, Action.RESIGN, CONFIRMED)
    refused = await core.replay(ALICE)
    assert refused.refused and "ended before its first move" in refused.text, refused.text
