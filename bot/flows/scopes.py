"""What the statistics commands share: which results a board may show where it is asked
for, and the refusals of a game that does not exist and of a bot named as a player (which
challenges and replays share too).

Privacy: everything shown in a server comes from that server's results only; outside a
server (DMs, the console) a player sees only their own games played outside servers.
"""

from __future__ import annotations

from engine import BadSetup, check_setup

from ..replies import Member, Player, Refused
from ..replies.text import Text
from ..store.results import Scope
from ..words.language import _
from ..words.phrases import mention, refused


def board_scope(
    viewer: Player, *, game: str | None = None, since: float | None = None,
    daily: str | None = None,
) -> Scope:
    """The results a board shown to ``viewer`` where they are may count."""
    if viewer.guild_id is None:
        return Scope(user_id=viewer.user_id, outside_servers=True, game=game, since=since,
                     daily=daily)
    return Scope(guild_id=viewer.guild_id, game=game, since=since, daily=daily)


def check_game(game: str | None) -> None:
    """Refuse a game that does not exist (None: no game named, nothing to refuse)."""
    if game is None:
        return
    try:
        check_setup(game)
    except BadSetup as err:
        raise Refused(refused(err)) from None


def check_person(person: Member) -> None:
    """Refuse a bot named where a player is wanted."""
    if person.bot:
        raise Refused(_("{player} is a bot; bots don't play solitaire.",
                       player=mention(person.user_id)))


def only_you_outside_servers(heading: Text) -> Text:
    """A board's heading where it is asked for outside a server (see ``board_scope``)."""
    return _("{heading} (outside a server the board has only you)", heading=heading)
