"""Start the real bot, unmodified, against the fake Discord: ``python -m tests.e2e.launch_bot``.

Only two class attributes of discord.py change, read from the environment:
``FAKE_DISCORD_API`` becomes ``discord.http.Route.BASE`` and ``FAKE_DISCORD_GATEWAY`` becomes
``discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY``; and, for the Activity's page
(``--web``), whose sign-in asks Discord's OAuth2 outside discord.py and has no setting for
where, ``FAKE_DISCORD_API`` becomes the module constant ``bot.web.signin.DISCORD_API`` too.
Everything else (``DISCORD_TOKEN``,
``DATABASE_PATH``, ``DEV_GUILD_ID``, ``LOG_LEVEL``, command-line arguments) goes to the bot's
normal entry point, ``bot.__main__.main``, exactly as ``python -m bot`` would.
"""

from __future__ import annotations

import os
import sys

import discord.gateway
import discord.http
import yarl

import bot.web.signin


def point_discord_at_fake() -> None:
    discord.http.Route.BASE = os.environ["FAKE_DISCORD_API"]
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(os.environ["FAKE_DISCORD_GATEWAY"])
    bot.web.signin.DISCORD_API = os.environ["FAKE_DISCORD_API"]


def main() -> int | None:
    point_discord_at_fake()
    from bot.__main__ import main as bot_main

    sys.argv[0] = "bot"
    return bot_main()


if __name__ == "__main__":
    sys.exit(main())
