"""Each player's settings: private boards, the four-colour deck, safe moves by themselves."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from .database import Connection, Database, Notice


@dataclass(frozen=True)
class Settings:
    """A player's settings, each as it is until they change it."""

    private_boards: bool = False  # boards only the player sees
    # The four-colour deck: no game here builds by colour, three go by suit, and a phone
    # shows a board about 400 px wide, where a green club and a black spade differ at a
    # glance and two black shapes do not.
    four_colour: bool = True
    auto_moves: bool = False  # cards that can safely go up go up by themselves

    @staticmethod
    def names() -> tuple[str, ...]:
        """Each setting's name (its column, the command's option), in their order."""
        return tuple(field.name for field in dataclasses.fields(Settings))

    def items(self) -> list[tuple[str, bool]]:
        """Each setting's name and value, in their order."""
        return [(name, getattr(self, name)) for name in self.names()]


DEFAULT_SETTINGS = Settings()


class SettingsStore:
    def __init__(self, db: Database) -> None:
        self._db = db

    @property
    def changes_told(self) -> bool:
        """Whether every process hears of each change (``Database.notices_everywhere``)."""
        return self._db.notices_everywhere

    async def get(self, user_id: int) -> Settings:
        """The player's settings."""
        async with self._db.writer() as conn:
            return await _settings(conn, user_id)

    async def change(self, user_id: int, **values: bool) -> Settings:
        """Change some of the player's settings; all of them as they now are. Raises
        ValueError, changing nothing, for a name not in ``Settings.names()`` or a value
        that is not a bool."""
        for name, value in values.items():
            if name not in Settings.names():
                raise ValueError(f"no setting called {name!r}; the settings are "
                                 f"{', '.join(Settings.names())}")
            if not isinstance(value, bool):
                raise ValueError(f"setting {name} is true or false, not {value!r}")
        names = Settings.names()
        async with self._db.transaction() as conn:
            settings = dataclasses.replace(await _settings(conn, user_id), **values)
            await conn.execute(
                f"INSERT INTO player_settings (user_id, {', '.join(names)}) "
                f"VALUES ($1, {', '.join(f'${i}' for i in range(2, len(names) + 2))}) "
                "ON CONFLICT (user_id) DO UPDATE SET "
                + ", ".join(f"{n} = excluded.{n}" for n in names),
                user_id, *(getattr(settings, n) for n in names),
            )
            await conn.notify(Notice.SETTINGS, user_id)  # others drop what they keep
        return settings


async def _settings(conn: Connection, user_id: int) -> Settings:
    """The player's row as their settings: the one place a row becomes them."""
    row = await conn.fetchrow("SELECT * FROM player_settings WHERE user_id = $1", user_id)
    if row is None:
        return DEFAULT_SETTINGS
    return Settings(**{name: bool(row[name]) for name in Settings.names()})
