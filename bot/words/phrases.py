"""Phrases the core's replies share, in Discord's Markdown (the console strips it).

The engine words its refusals in plain text with the facts kept apart; here they get
Discord's backticks around what a player types. Anything a player reads that more than one
module says is written here once.
"""

from __future__ import annotations

from engine import DRAW, Game, Move, RuleError
from engine.text import plural

__all__ = [
    "APOLOGY",
    "NO_GAME",
    "SORRY",
    "code",
    "format_seconds",
    "medal",
    "mention",
    "played",
    "plural",
    "refused",
]

NO_GAME = "You have no game yet. Start one with `/new` — for example `/new trefoil`."
# The core's apology: what failed wrote nothing.
APOLOGY = (
    "Sorry — something went wrong on my side and nothing was changed. Your saved game is as "
    "it was; please try again, or `/show` to see it."
)
# The adapters' apology: answering failed, and what the core did is not known there.
SORRY = "Sorry — something went wrong while answering. `/show` posts your current board."
ECHO_LIMIT = 40  # a player's text is echoed back at most this long


def code(text: str) -> str:
    """Text a player types, set apart: ``7 f2`` -> `` `7 f2` `` (cut short if long)."""
    text = text.replace("`", "'")
    if len(text) > ECHO_LIMIT:
        text = text[: ECHO_LIMIT - 1] + "…"
    return f"`{text}`"


def refused(err: RuleError) -> str:
    """An engine refusal, worded for Discord."""
    return err.worded(code)


def played(game: Game, move: Move) -> str:
    """A move just played, with the card it moved: `` `7 f2` (9♣) ``."""
    card = game.placed_card(move)
    shown = code(str(move))
    return f"{shown} ({card.label})" if card is not None and move.kind != DRAW else shown


def format_seconds(seconds: float) -> str:
    """``75`` -> ``1:15``; ``3725`` -> ``1:02:05``."""
    whole = round(seconds)
    hours, rest = divmod(whole, 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours}:{minutes:02}:{secs:02}" if hours else f"{minutes}:{secs:02}"


def mention(user_id: int) -> str:
    """A player named in a reply; the bot allows no mentions, so nobody is pinged."""
    return f"<@{user_id}>"


def medal(rank: int) -> str:
    """A place on a board: a medal for the first three."""
    return {1: "🥇", 2: "🥈", 3: "🥉"}.get(rank, f"{rank}.")
