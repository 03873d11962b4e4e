"""`python -m bot` (or `solitaire-bot`): run the Discord bot, or `--console` to play offline,
or `--web` to serve the Activity's page alone (`--web --dev`: on loopback, outside Discord),
or `--backup FILE` to copy the SQLite database while the bot runs."""

from __future__ import annotations

import argparse
import asyncio
import gc
import logging
import sqlite3
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from .config import Config, ConfigError, load_config
from .logs.formats import redact, setup_logging
from .store import StoreError
from .store.backup import BackupRefused, back_up

if TYPE_CHECKING:  # the adapters are imported when they run: the console needs no discord
    from .core import Core
    from .discord.client import PageStarter
    from .discord.edits import BoardEdits
    from .discord.rest import ActivityInstances, GuildMembers
    from .web.running import Serving

NO_TOKEN = """\
No Discord token: set DISCORD_TOKEN in the environment or in a .env file (see .env.example).

To get a token: open https://discord.com/developers/applications, create an application,
open its Bot page and press Reset Token. Invite the bot to a server with OAuth2 > URL
Generator, scopes "bot" and "applications.commands".

To try the bot without a token, play in this terminal:  {python} -m bot --console
"""


# Python's cycle collector runs after every 700 new objects by default; a move makes reference
# cycles that only it frees (discord.py's views and their items, aiohttp's responses, asyncio's
# tasks). Timed with a `gc.callbacks` probe over `python -m tests.e2e.bench_bot` (100 players x
# 30 moves), the default collections cost the bot's process 1.1-1.2 s over the run, about a
# sixth of its CPU. Collecting the youngest objects every 5,000 new ones, and the older
# generations about as often as before in new objects (`python -m tests.e2e.bench_memory`
# finds the same memory per player), costs 0.5-0.7 s. Larger batches cost less still, but
# keep more garbage waiting: 10,000 with the older generations as by default held about 2 MB
# more, above bench_memory's 5 KB a player over 2,000 players.
COLLECTOR_THRESHOLDS = (5_000, 7, 1)  # young objects; young collections; middle collections


def tune_collector() -> None:
    """Collect reference cycles in bigger batches (``COLLECTOR_THRESHOLDS``)."""
    gc.set_threshold(*COLLECTOR_THRESHOLDS)


def this_python() -> str:
    """The interpreter running the bot, as a path the player can paste here: relative when
    it lies under the working folder (`.venv/bin/python`), absolute otherwise."""
    path = Path(sys.executable)
    try:
        return str(path.relative_to(Path.cwd()))
    except ValueError:
        return str(path)


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="python -m bot", description="Five solitaire games on Discord."
    )
    parser.add_argument(
        "--console", action="store_true", help="play in this terminal, no Discord token needed"
    )
    parser.add_argument(
        "--web", action="store_true", help="serve the Activity's page alone (a fleet's web "
        "process, beside its shard processes), on WEB_HOST:WEB_PORT"
    )
    parser.add_argument(
        "--dev", action="store_true", help="with --web: serve the page on loopback outside "
        "Discord, signed in as the user its URL names (/?dev_user=<id>)"
    )
    parser.add_argument(
        "--sync", action="store_true", help="sync slash commands even if they look unchanged"
    )
    parser.add_argument(
        "--boards", type=Path, metavar="DIR", help="console: folder for the board pictures "
        "(default: 'boards' beside the database)"
    )
    parser.add_argument(
        "--locale", metavar="LANGUAGE", help="console: the language to play in, as Discord "
        "names it: de, fr, es-ES or pt-BR (default: English)"
    )
    parser.add_argument(
        "--backup", type=Path, metavar="FILE", help="copy the SQLite database to the new file "
        "FILE, consistent while the bot runs and writes (PostgreSQL: says how with pg_dump)"
    )
    parser.add_argument(
        "--env-file", type=Path, default=Path(".env"), help="settings file (default: .env)"
    )
    args = parser.parse_args(argv)
    if args.backup is not None and (args.console or args.web or args.dev or args.sync):
        parser.error("--backup runs alone: python -m bot --backup FILE")
    return args


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    try:
        config = load_config(env_file=args.env_file)
    except ConfigError as err:
        print(f"Settings error: {err}", file=sys.stderr)
        return 2
    setup_logging(config)

    if args.backup is not None:
        return backup(config, args.backup)
    if args.dev and not args.web:
        print("--dev goes with --web: python -m bot --web --dev", file=sys.stderr)
        return 2
    if not args.console and not args.web and not config.token:
        print(NO_TOKEN.format(python=this_python()), file=sys.stderr)
        return 2
    try:
        return run(args, config)
    except (StoreError, OSError, sqlite3.Error) as err:
        print(redact(f"Cannot use the database {config.database_name}: {err}",
                     config.secrets), file=sys.stderr)
        return 2


def backup(config: Config, target: Path) -> int:
    """``--backup FILE``: the database copied to FILE, or why not."""
    try:
        made = back_up(config.database, target)
    except BackupRefused as refused:
        print(redact(str(refused), config.secrets), file=sys.stderr)
        return 2
    except (OSError, sqlite3.Error) as err:
        print(redact(f"Cannot back up {config.database_name}: {err}", config.secrets),
              file=sys.stderr)
        return 2
    print(f"Backed up {config.database_name} to {made.path} ({made.size / 1e6:.1f} MB, "
          f"schema version {made.schema_version}, integrity checked).")
    return 0


def run(args: argparse.Namespace, config: Config) -> int:
    tune_collector()
    if args.console:
        from .console import run_console

        boards = args.boards or config.database_path.parent / "boards"
        try:
            return asyncio.run(run_console(config.database, boards, locale=args.locale))
        except KeyboardInterrupt:  # Ctrl-C: every move is saved already
            print("\nBye — your game is saved.", file=sys.stderr)
            return 0

    if args.web:
        from .web.running import run_web

        if config.token and not args.dev:  # moves show on boards; games count in servers
            from .discord.rest import logged_in

            return asyncio.run(run_web(config, dev=False, bot=lambda: logged_in(config)))
        return asyncio.run(run_web(config, dev=args.dev))

    from .discord.client import serve

    return serve(config, force_sync=args.sync, page=_page_in_this_process(config))


def _page_in_this_process(config: Config) -> PageStarter | None:
    """The small bot's one command starts everything: the Activity's page too, in the bot's
    process and over its core, where the Activity is set up. A fleet's shard processes
    leave the page to its own process (--web)."""
    if not config.activity:
        logging.getLogger(__name__).info(
            "the Activity's page is off: set DISCORD_CLIENT_ID and DISCORD_CLIENT_SECRET")
        return None
    if config.shard_ids is not None:
        return None
    from .web.running import start_web

    async def start(core: Core, boards: BoardEdits, members: GuildMembers,
                    instances: ActivityInstances) -> Serving:
        return await start_web(core, config, channels=boards, members=members,
                               instances=instances)

    return start


if __name__ == "__main__":
    sys.exit(main())
