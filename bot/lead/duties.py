"""What the leader does (``Leadership`` decides who leads): sync the adapter's commands when
they changed, keep the winnable pool filled and the coming daily deals found, forget stale
cooldowns and past daily attempts, and close the challenges whose day is over (and the
races nobody was left to end)."""

from __future__ import annotations

import asyncio
import hashlib
import json
import logging
from collections.abc import Awaitable, Callable

from ..flows.challenges import Challenges
from ..flows.cooldowns import Cooldowns
from ..flows.daily import DailyDeals, to_next_day
from ..flows.data_rights import DataRights
from ..flows.deals import Deals
from ..flows.races import Races
from ..presenter import Channels
from ..store.database import StoreUnavailable
from ..store.meta import MetaStore
from .lease import Leadership

log = logging.getLogger(__name__)

PRUNE_EVERY_S = 600.0  # the leader forgets stale cooldowns this often (and after midnight)
CHALLENGES_EVERY_S = 300.0  # and closes the challenges whose day is over this often


class Leading:
    """The leader's work over the core's flows; ``Core.lead`` and ``Core.sync_commands``
    are its face."""

    def __init__(self, meta: MetaStore, *, deals: Deals, daily_deals: DailyDeals,
                 challenges: Challenges, races: Races, cooldowns: Cooldowns,
                 data_rights: DataRights, clock: Callable[[], float]) -> None:
        self.meta = meta
        self.deals = deals
        self.daily_deals = daily_deals
        self.challenges = challenges
        self.races = races
        self.cooldowns = cooldowns
        self.data_rights = data_rights
        self.clock = clock
        self.leadership = Leadership(meta)

    async def lead(self, on_lead: Callable[[], Awaitable[None]], channels: Channels) -> bool:
        """Compete for the lead, now and for as long as the core is open (see
        ``Core.lead``). Whether this process leads now."""

        async def close_challenges() -> None:
            while True:
                await asyncio.sleep(CHALLENGES_EVERY_S)
                try:
                    for update in await self.challenges.close_due():
                        await channels.update(update)
                    await self.races.close_left_behind()
                except StoreUnavailable:
                    pass  # the outage is in the log already
                except Exception:
                    log.exception("closing the challenges whose day is over, and the races "
                                  "left behind, failed")

        return await self.leadership.start(
            on_lead, [self.deals.keep_pool_filled, self.daily_deals.keep_ahead,
                      self._prune, close_challenges],
        )

    async def stop(self) -> None:
        await self.leadership.stop()

    async def sync_commands(
        self, scope: str, payload: object, sync: Callable[[], Awaitable[object]], *,
        force: bool = False,
    ) -> bool:
        """Call ``sync`` if the commands' ``payload`` changed since the last sync of
        ``scope``, or if ``force``; whether it was called (see ``Core.sync_commands``)."""
        digest = hashlib.sha256(
            json.dumps(payload, sort_keys=True, ensure_ascii=False).encode()
        ).hexdigest()
        key = f"commands_hash:{scope}"
        if not force and await self.meta.get(key) == digest:
            log.info("slash commands unchanged since the last sync; not syncing")
            return False
        await sync()
        await self.meta.set(key, digest)
        return True

    async def _prune(self) -> None:
        """The leader forgets, now and then and just after each UTC midnight, the cooldowns
        no limit remembers any more and the daily attempts of days that have ended."""
        while True:
            await asyncio.sleep(prune_wait(self.clock()))
            try:
                await self.cooldowns.prune()
                await self.data_rights.forget_past_days()
            except StoreUnavailable:
                pass  # the outage is in the log already
            except Exception:
                log.exception("pruning the cooldowns and past daily attempts failed")


def prune_wait(now: float) -> float:
    """How long the leader waits from ``now`` (Unix seconds) to its next prune: ten minutes,
    or to a second past the next UTC midnight if that comes sooner."""
    return min(PRUNE_EVERY_S, to_next_day(now) + 1.0)
