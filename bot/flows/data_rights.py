"""A player's and a server's data deleted on request: `/forget-me` and `/reset-server-stats`,
each asked first. The one home of data deletion: the store deletes the rows, and what this
process keeps of the player in memory goes with them. Every question and answer is for the
player alone, in their language."""

from __future__ import annotations

from collections.abc import Callable

from ..replies import Ask, Message, Player, Question, Refused, Reply
from ..replies.text import Text
from ..store import Stores
from ..words.language import N_, _, label, n_
from ..words.phrases import command
from .challenges import Challenges
from .daily import utc_day
from .outcomes import saving

# The questions' buttons (translated where they are asked).
FORGET_YES, FORGET_NO = N_("Delete everything"), N_("Keep my records")
RESET_YES, RESET_NO = N_("Delete this server's results"), N_("Cancel")


class DataRights:
    def __init__(
        self, stores: Stores, drop: Callable[[int], None], clock: Callable[[], float],
        challenges: Challenges,
    ) -> None:
        self.stores = stores
        self._drop = drop  # drops what this process keeps of a player
        self._clock = clock
        self.challenges = challenges

    def forget_question(self, player: Player) -> Reply:
        text = _(
            "Delete <b>everything</b> this bot keeps about you — your current game, every "
            "result, your settings, in every server (statistics, leaderboards, daily boards "
            "and streaks)? This cannot be undone. Today's daily attempts stay counted until "
            "the day ends (UTC), so that none can be played again for a score."
        )
        question = Question(Ask.FORGET, player.user_id, label(FORGET_YES), label(FORGET_NO))
        return Reply(message=Message(text, private=True, question=question))

    async def forget(self, player: Player) -> Reply:
        today = utc_day(self._clock()).isoformat()
        async with saving():
            games, results, challenges = await self.stores.forget_player(player.user_id,
                                                                     today=today)
        self._drop(player.user_id)  # now, here; the other processes hear it too
        # The messages of their challenges, reworded without them: the ones called off,
        # and the finished ones, where the other side keeps their record.
        updates = [await self.challenges.update_after_game(i) for i in challenges]
        if games:
            done = n_("Done: deleted your current game and {count} result, your settings and "
                      "your daily attempts of past days, in every server.",
                      "Done: deleted your current game and {count} results, your settings and "
                      "your daily attempts of past days, in every server.", results)
        else:
            done = n_("Done: deleted {count} result, your settings and your daily attempts "
                      "of past days, in every server.",
                      "Done: deleted {count} results, your settings and your daily attempts "
                      "of past days, in every server.", results)
        if self.stores.db.erases_at_once:
            how = _("They are overwritten in the bot's database at once.")
        else:
            how = _("They are gone from everything the bot shows at once; the database server "
                    "clears their last bytes from its files at its routine maintenance.")
        after = _("Today's daily attempt, if you made one, is kept until the day ends (UTC), "
                  "so that it stays your one scored try today; then it is forgotten too. "
                  "Boards already posted stay in their channels, like any message. {new} "
                  "starts afresh.", new=command("new"))
        return Reply(message=Message(Text(" ").join((done, how, after)), private=True),
                     updates=tuple(u for u in updates if u is not None))

    async def forget_past_days(self) -> int:
        """The daily attempts kept to their day's end forgotten once it has ended (the
        leader's job, at each UTC midnight and now and then); how many."""
        return await self.stores.forget_past_daily_attempts(utc_day(self._clock()).isoformat())

    async def reset_question(self, player: Player, can_manage_server: bool) -> Reply:
        _check_may_reset(player, can_manage_server)
        assert player.guild_id is not None
        count = await self.stores.results.count(player.guild_id)
        text = n_(
            "Delete all <b>{count}</b> result of this server? Its statistics, leaderboards and "
            "daily boards start again from nothing; games being played are kept and count "
            "when they finish. This cannot be undone.",
            "Delete all <b>{count}</b> results of this server? Its statistics, leaderboards and "
            "daily boards start again from nothing; games being played are kept and count "
            "when they finish. This cannot be undone.", count,
        )
        question = Question(Ask.RESET, player.user_id, label(RESET_YES), label(RESET_NO))
        return Reply(message=Message(text, private=True, question=question))

    async def reset(self, player: Player, can_manage_server: bool) -> Reply:
        _check_may_reset(player, can_manage_server)
        assert player.guild_id is not None
        async with saving():
            count = await self.stores.results.reset_guild(player.guild_id)
        text = n_("Done: deleted {count} result of this server. Its statistics start again "
                  "from nothing.",
                  "Done: deleted {count} results of this server. Its statistics start again "
                  "from nothing.", count)
        return Reply(message=Message(text, private=True))


def _check_may_reset(player: Player, can_manage_server: bool) -> None:
    """Refuse a reset outside a server, or by a member who may not manage it."""
    if player.guild_id is None:
        raise Refused(_("Resetting statistics works in a server, for that server."))
    if not can_manage_server:
        raise Refused(_(
            "Only members with the <b>Manage Server</b> permission can reset this server's "
            "statistics. {forget_me} deletes your own records.", forget_me=command("forget-me")
        ))
