"""The bot's configuration: from the environment, or from a `.env` file where it starts.

A variable set in the environment wins over the same name in `.env`, which python-dotenv
reads as every other tool does (quotes, `export`, `# comments` after a value).
`.env.example` documents every setting. The token and the database URL are kept out of
`repr()` so they can never reach a log.
"""

from __future__ import annotations

import ipaddress
import logging
import math
import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import unquote, urlsplit

from dotenv.parser import parse_stream

from .store.postgres import describe, is_postgres_url

DEFAULT_DATABASE_PATH = "data/solitaire.db"
Network = ipaddress.IPv4Network | ipaddress.IPv6Network
LOG_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL")
LOG_FORMATS = ("text", "json")  # lines for people; one JSON object a line (bot/logs/)
# The shortest WEB_SECRET taken: every player holds a session signed with it, and a key much
# shorter than a random 32 characters falls out of one by trying (then any session is forged).
WEB_SECRET_MIN = 32
MAKE_A_SECRET = 'python3 -c "import secrets; print(secrets.token_urlsafe(32))"'


class ConfigError(ValueError):
    """A setting has a value the bot cannot use; the message says which and why."""


@dataclass(frozen=True)
class Config:
    token: str | None = field(default=None, repr=False)
    database_path: Path = Path(DEFAULT_DATABASE_PATH)
    database_url: str | None = field(default=None, repr=False)  # PostgreSQL; holds a password
    dev_guild_id: int | None = None
    log_level: str = "INFO"
    log_format: str = "text"  # one of LOG_FORMATS
    shard_count: int | None = None  # None: as many shards as Discord recommends
    shard_ids: tuple[int, ...] | None = None  # the shards this process serves; None: all
    # Processes that draw the pictures (default_render_processes); 0: threads of this one.
    render_processes: int = 0
    # The Activity's page (bot/web): where it is served, the key its sessions are signed
    # with (None: a new one each start), the application's OAuth2 client.
    web_host: str = "127.0.0.1"
    web_port: int = 8080
    web_secret: str | None = field(default=None, repr=False)
    # The proxies in front of the page whose X-Forwarded-For is believed (limits.py); none:
    # the header is ignored, and sign-ins are limited by no address.
    web_trusted_proxies: tuple[Network, ...] = ()
    client_id: str | None = None
    client_secret: str | None = field(default=None, repr=False)
    # The operator's port (bot/ops): /metrics, /healthz, /readyz; None: not served.
    metrics_host: str = "127.0.0.1"
    metrics_port: int | None = None

    @property
    def log_level_number(self) -> int:
        return int(getattr(logging, self.log_level))

    @property
    def activity(self) -> bool:
        """Whether the Activity is set up: Discord's sign-in for its page (OAuth2)."""
        return self.client_id is not None and self.client_secret is not None

    @property
    def database(self) -> Path | str:
        """What ``Stores.open`` opens: the PostgreSQL URL if set, else the SQLite file."""
        return self.database_url or self.database_path

    @property
    def secrets(self) -> tuple[str, ...]:
        """What must never be printed: the token, the Activity's secrets, and the database's
        password in every form asyncpg takes it (in the URL's authority, as ``?password=``, in
        ``PGPASSWORD``)."""
        found = [self.token, os.environ.get("PGPASSWORD"), self.web_secret, self.client_secret]
        if self.database_url is not None:
            parts = urlsplit(self.database_url)
            found.append(parts.password)  # as written, and as meant (%40 is @)
            found.append(unquote(parts.password or ""))
            for key, value in (p.partition("=")[::2] for p in parts.query.split("&")):
                if key == "password":
                    found += [value, unquote(value)]
        return tuple(sorted({s for s in found if s}))

    @property
    def database_name(self) -> str:
        """The database for messages and logs: never a password."""
        if self.database_url is None:
            return str(self.database_path)
        return describe(self.database_url)


def read_env_file(path: Path) -> dict[str, str]:
    """The settings of a `.env` file (none if it is missing), as python-dotenv reads
    them, without expanding ``$`` (a token or password may hold one). A line it cannot
    read is named, rather than skipped with a warning."""
    values: dict[str, str] = {}
    try:
        stream = path.open(encoding="utf-8")
    except FileNotFoundError:
        return values
    with stream:
        for binding in parse_stream(stream):
            if binding.error:  # its text starts with the blank lines before it
                text = binding.original.string
                line = binding.original.line + len(text) - len(text.lstrip("\n"))
                raise ConfigError(f"{path}, line {line}: expected KEY=value")
            if binding.key is not None:
                values[binding.key] = binding.value or ""
    return values


def load_config(
    environ: Mapping[str, str] | None = None, env_file: Path | None = Path(".env")
) -> Config:
    """The configuration from ``env_file`` overlaid with ``environ`` (default: the process
    environment)."""
    values = read_env_file(env_file) if env_file is not None else {}
    values.update(os.environ if environ is None else environ)

    token = values.get("DISCORD_TOKEN", "").strip() or None
    database_path = Path(values.get("DATABASE_PATH", "").strip() or DEFAULT_DATABASE_PATH)

    guild_text = values.get("DEV_GUILD_ID", "").strip()
    dev_guild_id: int | None = None
    if guild_text:
        if not guild_text.isdigit():
            raise ConfigError(
                f"DEV_GUILD_ID must be a server id (digits only), not {guild_text!r}. "
                "In Discord: Settings > Advanced > Developer Mode, then right-click the server "
                "> Copy Server ID. Leave it empty to sync commands globally."
            )
        dev_guild_id = int(guild_text)

    database_url = values.get("DATABASE_URL", "").strip() or None
    if database_url is not None and not is_postgres_url(database_url):
        raise ConfigError(
            "DATABASE_URL must be a PostgreSQL URL (postgresql://user:password@host/db); "
            "leave it empty to use the SQLite file at DATABASE_PATH."
        )
    shard_count, shard_ids = _shards(values)

    processes_text = values.get("RENDER_PROCESSES", "").strip()
    if processes_text and not processes_text.isdigit():
        raise ConfigError(
            f"RENDER_PROCESSES must be a whole number of processes (0: draw in threads of the "
            f"bot's own process), not {processes_text!r}."
        )
    render_processes = int(processes_text) if processes_text else default_render_processes()

    port_text = values.get("WEB_PORT", "").strip() or "8080"
    if not port_text.isdigit() or not 0 < int(port_text) < 65536:
        raise ConfigError(f"WEB_PORT must be a port number from 1 to 65535, not {port_text!r}.")
    metrics_text = values.get("METRICS_PORT", "").strip()
    if metrics_text and (not metrics_text.isdigit() or not 0 < int(metrics_text) < 65536):
        raise ConfigError(f"METRICS_PORT must be a port number from 1 to 65535 (or empty: no "
                          f"metrics served), not {metrics_text!r}.")
    client_id = values.get("DISCORD_CLIENT_ID", "").strip() or None
    if client_id is not None and not client_id.isdigit():
        raise ConfigError(f"DISCORD_CLIENT_ID must be the application's id (digits only), not "
                          f"{client_id!r}: Developer Portal > your application > OAuth2.")

    web_secret = values.get("WEB_SECRET", "").strip() or None
    if web_secret is not None and len(web_secret) < WEB_SECRET_MIN:
        raise ConfigError(
            f"WEB_SECRET is too short to be a key ({len(web_secret)} of at least "
            f"{WEB_SECRET_MIN} characters): one player's session is enough to find a key that "
            f"short, and then to sign a session as anyone. Give it {WEB_SECRET_MIN} or more "
            f"random characters, the same in every web process (or leave it empty for a new "
            f"key each start); make one with: {MAKE_A_SECRET}"
        )

    proxies_text = values.get("WEB_TRUSTED_PROXIES", "").strip()
    try:
        web_trusted_proxies = tuple(ipaddress.ip_network(part.strip(), strict=False)
                                    for part in proxies_text.split(",") if part.strip())
    except ValueError:
        raise ConfigError(
            f"WEB_TRUSTED_PROXIES must list the addresses or networks of the proxies in front "
            f"of the page, with commas (like 127.0.0.1,10.0.0.0/8), not {proxies_text!r}."
        ) from None

    log_level = values.get("LOG_LEVEL", "").strip().upper() or "INFO"
    if log_level not in LOG_LEVELS:
        raise ConfigError(f"LOG_LEVEL must be one of {', '.join(LOG_LEVELS)}, not {log_level!r}")
    format_text = values.get("LOG_FORMAT", "").strip()
    log_format = format_text.lower() or "text"
    if log_format not in LOG_FORMATS:
        raise ConfigError(f"LOG_FORMAT must be text (lines for people, the default) or json "
                          f"(one JSON object a line, for a log collector), not {format_text!r}")

    return Config(
        token=token,
        database_path=database_path,
        database_url=database_url,
        dev_guild_id=dev_guild_id,
        log_level=log_level,
        log_format=log_format,
        shard_count=shard_count,
        shard_ids=shard_ids,
        render_processes=render_processes,
        web_host=values.get("WEB_HOST", "").strip() or "127.0.0.1",
        web_port=int(port_text),
        web_secret=web_secret,
        web_trusted_proxies=web_trusted_proxies,
        client_id=client_id,
        client_secret=values.get("DISCORD_CLIENT_SECRET", "").strip() or None,
        metrics_host=values.get("METRICS_HOST", "").strip() or "127.0.0.1",
        metrics_port=int(metrics_text) if metrics_text else None,
    )


def default_render_processes(cpus: int | None = None) -> int:
    """Drawing processes by default: one per usable CPU (``cpus``, else ``usable_cpus``) but
    the one the bot's own process keeps busy under load, and at least one. Measured with
    ``tests.e2e.bench_bot`` on two cores: one drawing process costs about a tenth less CPU a
    board than two (the same one draws every board, its caches warm), at the same p99."""
    return max(1, (usable_cpus() if cpus is None else cpus) - 1)


def usable_cpus(cgroup: Path = Path("/sys/fs/cgroup/cpu.max")) -> int:
    """The CPUs this process may use: those it may run on (a container's cpuset, taskset),
    at most its CPU quota (a container's --cpus, cgroup v2's ``cpu.max``), at least one."""
    try:
        cpus = len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        cpus = os.cpu_count() or 1
    try:
        quota, period = cgroup.read_text(encoding="ascii").split()[:2]
        if quota != "max":
            cpus = min(cpus, math.ceil(int(quota) / int(period)))
    except (OSError, ValueError):
        pass  # no quota to read: the affinity stands
    return max(1, cpus)


def _shards(values: Mapping[str, str]) -> tuple[int | None, tuple[int, ...] | None]:
    """SHARD_COUNT and SHARD_IDS: both or neither, ids below the count."""
    count_text = values.get("SHARD_COUNT", "").strip()
    ids_text = values.get("SHARD_IDS", "").strip()
    if not count_text and not ids_text:
        return None, None
    if not count_text.isdigit() or int(count_text) < 1:
        raise ConfigError(
            f"SHARD_COUNT must be a whole number of shards from 1, not {count_text!r} "
            "(with SHARD_IDS, the shards this process serves)."
        )
    count = int(count_text)
    if not ids_text:
        return count, tuple(range(count))
    words = [w.strip() for w in ids_text.split(",")]
    if not all(w.isdigit() and int(w) < count for w in words):
        raise ConfigError(
            f"SHARD_IDS must list shard numbers from 0 to {count - 1} with commas, like 0,2; "
            f"not {ids_text!r}."
        )
    return count, tuple(sorted({int(w) for w in words}))
