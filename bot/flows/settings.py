"""Each player's settings: private boards, the four-colour deck, safe moves by themselves.

Kept in the database (``store/settings.py``) and, between moves, in a bounded memory of
the most recent players, so a move reads none. A change made by any bot process
is a notice to every process, which drops what it kept (``forget``); a read under way
when a notice comes is not kept.

Nothing is kept where a change may go untold: on SQLite a notice reaches only the process
that made the change, and the page's process or the console may share the file, so there
every read is a point read of the file (on the event loop); on PostgreSQL every process
hears of each change.
"""

from __future__ import annotations

from engine.lru import LRU

from ..replies import Message, Player, Reply
from ..replies.text import Text
from ..store.settings import Settings, SettingsStore
from ..words.language import N_, _
from ..words.phrases import code, option
from .outcomes import saving

KEPT = 500  # players whose settings are kept in memory between moves (the active ones)
# Each setting as the player reads it (translated where shown).
WORDS = {
    "private_boards": N_("Private boards (only you see your board)"),
    "four_colour": N_("Four-colour deck (♣ green, ♦ blue, ♥ red, ♠ black)"),
    "auto_moves": N_("Safe moves by themselves"),
}


class PlayerSettings:
    def __init__(self, store: SettingsStore) -> None:
        self.store = store
        self._kept: LRU[int, Settings] = LRU(KEPT)
        self._dropped = 0  # how many times something kept was dropped

    async def of(self, user_id: int) -> Settings:
        """A player's settings, every one of them, true now: from memory only where every
        process hears of each change (PostgreSQL)."""
        settings = self._kept.get(user_id)
        if settings is None:
            dropped = self._dropped
            settings = await self.store.get(user_id)
            if self.store.changes_told and dropped == self._dropped:  # no notice came meanwhile
                self._kept[user_id] = settings
        return settings

    async def as_stored(self, user_id: int) -> Settings:
        """A player's settings read from the database, never from memory: for what another
        process may have changed a moment ago and must not be missed (whether a player's
        games may be shown to others)."""
        return await self.store.get(user_id)

    async def private(self, user_id: int) -> bool:
        """Whether the player's boards are private, true now."""
        return (await self.of(user_id)).private_boards

    def forget(self, user_id: int | None) -> None:
        """Drop what is kept of a player's settings (None: of everyone); the database
        has the truth."""
        self._dropped += 1
        if user_id is None:
            self._kept.clear()
        else:
            self._kept.pop(user_id)

    async def change(self, player: Player, **changes: bool) -> Reply:
        """Change some settings (none: just show them); every setting as it now is."""
        if changes:
            async with saving():  # gone on its way: it may be saved
                settings = await self.store.change(player.user_id, **changes)
            self.forget(player.user_id)  # the next read has it, whatever came meanwhile
        else:
            settings = await self.of(player.user_id)
        lines = [_("⚙️ <b>Your settings</b> — saved.") if changes
                 else _("⚙️ <b>Your settings</b>")]
        lines += [_setting_line(name, on) for name, on in settings.items()]
        lines.append(_(
            "Safe moves: with them on, after each of your moves every card that can go up and "
            "that no card left in the piles could ever be placed on goes to its foundation by "
            "itself (each is its own move, so Undo takes it back)."
        ))
        return Reply(message=Message(Text("\n").join(lines), private=True), settings=settings)


def _setting_line(name: str, on: bool) -> Text:
    """A setting, whether it is on, and how to turn it either way (typed as the command
    takes it, in any language)."""
    facts = {"setting": _(WORDS[name]), "on": code(option(name, "True")),
             "off": code(option(name, "False"))}
    if on:
        return _("• {setting}: <b>on</b> ({on} or {off})", **facts)
    return _("• {setting}: <b>off</b> ({on} or {off})", **facts)
