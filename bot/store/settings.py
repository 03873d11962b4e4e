"""Each player's settings: private boards, the four-colour deck, safe moves by themselves."""

from __future__ import annotations

from .database import Connection, Database, Notice

# Each player's settings and their value until they change it.
DEFAULT_SETTINGS: dict[str, bool] = {
    "private_boards": False,  # boards only the player sees
    # The four-colour deck: no game here builds by colour, three go by suit, and a phone
    # shows a board about 400 px wide, where a green club and a black spade differ at a
    # glance and two black shapes do not.
    "four_colour": True,
    "auto_moves": False,  # cards that can safely go up go up by themselves
}


class SettingsStore:
    def __init__(self, db: Database) -> None:
        self._db = db

    @property
    def changes_told(self) -> bool:
        """Whether every process hears of each change (``Database.notices_everywhere``)."""
        return self._db.notices_everywhere

    async def get(self, user_id: int) -> dict[str, bool]:
        """The player's settings, every one of ``DEFAULT_SETTINGS``."""
        async with self._db.writer() as conn:
            return await _settings(conn, user_id)

    async def change(self, user_id: int, **values: bool) -> dict[str, bool]:
        """Change some of the player's settings; all of them as they now are. Raises
        ValueError, changing nothing, for a name not in ``DEFAULT_SETTINGS`` or a value
        that is not a bool."""
        for name, value in values.items():
            if name not in DEFAULT_SETTINGS:
                raise ValueError(f"no setting called {name!r}; the settings are "
                                 f"{', '.join(DEFAULT_SETTINGS)}")
            if not isinstance(value, bool):
                raise ValueError(f"setting {name} is true or false, not {value!r}")
        names = list(DEFAULT_SETTINGS)
        async with self._db.transaction() as conn:
            settings = await _settings(conn, user_id) | values
            await conn.execute(
                f"INSERT INTO player_settings (user_id, {', '.join(names)}) "
                f"VALUES ($1, {', '.join(f'${i}' for i in range(2, len(names) + 2))}) "
                "ON CONFLICT (user_id) DO UPDATE SET "
                + ", ".join(f"{n} = excluded.{n}" for n in names),
                user_id, *(settings[n] for n in names),
            )
            await conn.notify(Notice.SETTINGS, user_id)  # others drop what they keep
        return settings


async def _settings(conn: Connection, user_id: int) -> dict[str, bool]:
    row = await conn.fetchrow("SELECT * FROM player_settings WHERE user_id = $1", user_id)
    if row is None:
        return dict(DEFAULT_SETTINGS)
    return {name: bool(row[name]) for name in DEFAULT_SETTINGS}
