"""Scored games: the daily deal's scored attempt and a challenge's game. What a request to
deal becomes when its deal is one of them, however it was asked for (``/new`` with the
deal's number, the page, a question's buttons), so that a scored deal is never played
first as a free game, nor with a house rule (RULES.md: "A house rule never plays a scored
game").

- Today's daily deal with Trefoil's draw rule is refused while it would be the player's
  scored attempt; once that attempt is made, it is a replay, unscored, like any other.
- While a challenge is live, a side's game on its deal is their game of the challenge
  (with a house rule, refused): the deal is shown at Accept, and a side who could play it
  first as a free game, hints and all, would then win it "without hints".
"""

from __future__ import annotations

import dataclasses

from ..replies import DealRequest, Player, Refused
from ..words.language import _
from ..words.phrases import command, option
from .challenges import Challenges
from .daily import DailyDeals


async def scored_request(
    player: Player, request: DealRequest, daily: DailyDeals, challenges: Challenges
) -> DealRequest:
    """``request`` as the player may have it dealt: as asked, or as their game of a live
    challenge on its deal; a house rule on a scored deal is refused."""
    if request.deal is None or request.challenge is not None:
        return request  # a deal from the pool, or a challenge's own: decided elsewhere
    if request.draw:
        today = await daily.todays_if_daily(request.game_id, request.deal)
        if today is not None and not await daily.has_attempt(player.user_id,
                                                             request.game_id, today):
            raise Refused(_(
                "That is today's daily deal, and your attempt at it is scored: a house rule "
                "never plays a scored game. {daily} deals it as it is; once your scored "
                "attempt is made, {replay} replays it with the draw, unscored.",
                daily=command("daily", request.game_id),
                replay=command("new", request.game_id, str(request.deal),
                              option("draw", "True")),
            ))
    for challenge in await challenges.live_on(request.game_id, request.deal):
        side = challenge.side_of(player.user_id)
        if side is None or side.outcome is not None:
            continue
        if request.draw:
            raise Refused(_(
                "That is the deal of your challenge, still to play: your game of it is your "
                "game of the challenge, and a house rule never plays a scored game. Deal it "
                "without the draw, or with the challenge's ▶ Play."
            ))
        return dataclasses.replace(request, challenge=challenge.id)
    return request
