"""A player's and a server's data deleted on request: `/forget-me` and `/reset-server-stats`,
each asked first. The one home of data deletion: the store deletes the rows, and what this
process keeps of the player in memory goes with them."""

from __future__ import annotations

from collections.abc import Callable

from ..replies import Ask, Message, Player, Question, Reply, refusal
from ..store import Stores
from ..words.phrases import plural
from .daily import utc_day

FORGET_YES, FORGET_NO = "Delete everything", "Keep my records"
RESET_YES, RESET_NO = "Delete this server's results", "Cancel"


class DataRights:
    def __init__(
        self, stores: Stores, drop: Callable[[int], None], clock: Callable[[], float]
    ) -> None:
        self.stores = stores
        self._drop = drop  # drops what this process keeps of a player
        self._clock = clock

    def forget_question(self, player: Player) -> Reply:
        text = (
            "Delete **everything** this bot keeps about you — your current game, every "
            "result, your settings, in every server (statistics, leaderboards, daily boards "
            "and streaks)? This cannot be undone. Today's daily attempts stay counted until "
            "the day ends (UTC), so that none can be played again for a score."
        )
        question = Question(Ask.FORGET, player.user_id, FORGET_YES, FORGET_NO)
        return Reply(message=Message(text, private=True, question=question))

    async def forget(self, player: Player) -> Reply:
        today = utc_day(self._clock()).isoformat()
        games, results = await self.stores.forget_player(player.user_id, today=today)
        self._drop(player.user_id)  # now, here; the other processes hear it too
        game_words = "your current game and " if games else ""
        if self.stores.db.erases_at_once:
            how = "They are overwritten in the bot's database at once."
        else:
            how = ("They are gone from everything the bot shows at once; the database server "
                   "clears their last bytes from its files at its routine maintenance.")
        text = (
            f"Done: deleted {game_words}{plural(results, 'result')}, your settings and your "
            f"daily attempts, in every server. {how} Today's daily attempts are forgotten when "
            "the day ends (UTC). Boards already posted stay in their channels, like any "
            "message. `/new` starts afresh."
        )
        return Reply(message=Message(text, private=True))

    async def reset_question(self, player: Player, can_manage_server: bool) -> Reply:
        refused = _reset_refusal(player, can_manage_server)
        if refused:
            return refused
        assert player.guild_id is not None
        count = await self.stores.results.count(player.guild_id)
        text = (
            f"Delete all **{count}** result{'' if count == 1 else 's'} of this server? Its "
            "statistics, leaderboards and daily boards start again from nothing; games being "
            "played are kept and count when they finish. This cannot be undone."
        )
        question = Question(Ask.RESET, player.user_id, RESET_YES, RESET_NO)
        return Reply(message=Message(text, private=True, question=question))

    async def reset(self, player: Player, can_manage_server: bool) -> Reply:
        refused = _reset_refusal(player, can_manage_server)
        if refused:
            return refused
        assert player.guild_id is not None
        count = await self.stores.results.reset_guild(player.guild_id)
        text = (
            f"Done: deleted {plural(count, 'result')} of this server. Its statistics "
            "start again from nothing."
        )
        return Reply(message=Message(text, private=True))


def _reset_refusal(player: Player, can_manage_server: bool) -> Reply | None:
    if player.guild_id is None:
        return refusal("Resetting statistics works in a server, for that server.")
    if not can_manage_server:
        return refusal(
            "Only members with the **Manage Server** permission can reset this server's "
            "statistics. `/forget-me` deletes your own records."
        )
    return None
