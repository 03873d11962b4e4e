"""Settings from the environment, or from a `.env` file beside where the bot starts.

A variable set in the environment wins over the same name in `.env`. `.env.example`
documents every setting. The token is kept out of `repr()` so it can never reach a log.
"""

from __future__ import annotations

import logging
import os
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

DEFAULT_DATABASE_PATH = "data/solitaire.db"
LOG_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL")


class SettingsError(ValueError):
    """A setting has a value the bot cannot use; the message says which and why."""


@dataclass(frozen=True)
class Settings:
    token: str | None = field(default=None, repr=False)
    database_path: Path = Path(DEFAULT_DATABASE_PATH)
    database_url: str | None = field(default=None, repr=False)  # PostgreSQL; holds a password
    dev_guild_id: int | None = None
    log_level: str = "INFO"
    shard_count: int | None = None  # None: as many shards as Discord recommends
    shard_ids: tuple[int, ...] | None = None  # the shards this process serves; None: all
    # Processes that draw the pictures (load_settings: one per core); 0: threads of this one.
    render_processes: int = 0

    @property
    def log_level_number(self) -> int:
        return int(getattr(logging, self.log_level))

    @property
    def database(self) -> Path | str:
        """What ``Store.open`` opens: the PostgreSQL URL if set, else the SQLite file."""
        return self.database_url or self.database_path

    @property
    def database_name(self) -> str:
        """The database for messages and logs: never a password."""
        if self.database_url is None:
            return str(self.database_path)
        return re.sub(r"//[^@/]*@", "//", self.database_url)


def read_env_file(path: Path) -> dict[str, str]:
    """`KEY=value` lines; blank lines and `#` comments skipped, one level of quotes removed."""
    values: dict[str, str] = {}
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return values
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        if line.startswith("export "):
            line = line[len("export ") :].lstrip()
        key, sep, value = line.partition("=")
        if not sep or not key.strip():
            raise SettingsError(f"{path}, line {number}: expected KEY=value")
        value = value.strip()
        if len(value) >= 2 and value[0] == value[-1] and value[0] in "'\"":
            value = value[1:-1]
        values[key.strip()] = value
    return values


def load_settings(
    environ: Mapping[str, str] | None = None, env_file: Path | None = Path(".env")
) -> Settings:
    """Settings from ``env_file`` overlaid with ``environ`` (default: the process environment)."""
    values = read_env_file(env_file) if env_file is not None else {}
    values.update(os.environ if environ is None else environ)

    token = values.get("DISCORD_TOKEN", "").strip() or None
    database_path = Path(values.get("DATABASE_PATH", "").strip() or DEFAULT_DATABASE_PATH)

    guild_text = values.get("DEV_GUILD_ID", "").strip()
    dev_guild_id: int | None = None
    if guild_text:
        if not guild_text.isdigit():
            raise SettingsError(
                f"DEV_GUILD_ID must be a server id (digits only), not {guild_text!r}. "
                "In Discord: Settings > Advanced > Developer Mode, then right-click the server "
                "> Copy Server ID. Leave it empty to sync commands globally."
            )
        dev_guild_id = int(guild_text)

    database_url = values.get("DATABASE_URL", "").strip() or None
    if database_url is not None and not database_url.startswith(("postgresql://", "postgres://")):
        raise SettingsError(
            "DATABASE_URL must be a PostgreSQL URL (postgresql://user:password@host/db); "
            "leave it empty to use the SQLite file at DATABASE_PATH."
        )
    shard_count, shard_ids = _shards(values)

    processes_text = values.get("RENDER_PROCESSES", "").strip()
    if processes_text and not processes_text.isdigit():
        raise SettingsError(
            f"RENDER_PROCESSES must be a whole number of processes (0: draw in threads of the "
            f"bot's own process), not {processes_text!r}."
        )
    render_processes = int(processes_text) if processes_text else os.cpu_count() or 1

    log_level = values.get("LOG_LEVEL", "").strip().upper() or "INFO"
    if log_level not in LOG_LEVELS:
        raise SettingsError(f"LOG_LEVEL must be one of {', '.join(LOG_LEVELS)}, not {log_level!r}")

    return Settings(
        token=token,
        database_path=database_path,
        database_url=database_url,
        dev_guild_id=dev_guild_id,
        log_level=log_level,
        shard_count=shard_count,
        shard_ids=shard_ids,
        render_processes=render_processes,
    )


def _shards(values: Mapping[str, str]) -> tuple[int | None, tuple[int, ...] | None]:
    """SHARD_COUNT and SHARD_IDS: both or neither, ids below the count."""
    count_text = values.get("SHARD_COUNT", "").strip()
    ids_text = values.get("SHARD_IDS", "").strip()
    if not count_text and not ids_text:
        return None, None
    if not count_text.isdigit() or int(count_text) < 1:
        raise SettingsError(
            f"SHARD_COUNT must be a whole number of shards from 1, not {count_text!r} "
            "(with SHARD_IDS, the shards this process serves)."
        )
    count = int(count_text)
    if not ids_text:
        return count, tuple(range(count))
    words = [w.strip() for w in ids_text.split(",")]
    if not all(w.isdigit() and int(w) < count for w in words):
        raise SettingsError(
            f"SHARD_IDS must list shard numbers from 0 to {count - 1} with commas, like 0,2; "
            f"not {ids_text!r}."
        )
    return count, tuple(sorted({int(w) for w in words}))
