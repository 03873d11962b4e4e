"""The configuration from the environment and .env, and the token kept out of logs."""

from __future__ import annotations

import logging
import os
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

from bot.config import (
    DEFAULT_DATABASE_PATH,
    ConfigError,
    default_render_processes,
    load_config,
    read_env_file,
    usable_cpus,
)
from bot.logs.formats import TextLines, redact

TOKEN = "MTIzNDU2.secret-token-value"


def test_defaults_without_any_setting(tmp_path: Path) -> None:
    settings = load_config({}, tmp_path / "missing.env")
    assert settings.token is None
    assert settings.database_path == Path(DEFAULT_DATABASE_PATH)
    assert settings.dev_guild_id is None and settings.log_level == "INFO"
    assert settings.render_processes == default_render_processes()


def test_drawing_processes_leave_the_bot_a_cpu_by_default() -> None:
    assert [default_render_processes(cpus) for cpus in (1, 2, 4, 16)] == [1, 1, 3, 15]
    assert default_render_processes() == max(1, usable_cpus() - 1)


def test_render_processes_zero_draws_in_threads_of_the_bot() -> None:
    assert load_config({"RENDER_PROCESSES": "0"}, None).render_processes == 0
    assert load_config({"RENDER_PROCESSES": " 3 "}, None).render_processes == 3


def test_env_file_is_read_and_the_environment_wins(tmp_path: Path) -> None:
    env = tmp_path / ".env"
    env.write_text(
        "# comment\n\nDISCORD_TOKEN='from-file'\nexport DATABASE_PATH=/srv/s.db\n"
        'DEV_GUILD_ID="1234"\nLOG_LEVEL=debug\n'
    )
    from_file = load_config({}, env)
    assert from_file.token == "from-file" and from_file.database_path == Path("/srv/s.db")
    assert from_file.dev_guild_id == 1234 and from_file.log_level == "DEBUG"
    assert from_file.log_level_number == logging.DEBUG
    overridden = load_config({"DISCORD_TOKEN": "from-env", "DEV_GUILD_ID": ""}, env)
    assert overridden.token == "from-env" and overridden.dev_guild_id is None


@pytest.mark.parametrize(
    ("values", "says"),
    [({"DEV_GUILD_ID": "my-server"}, "Copy Server ID"), ({"LOG_LEVEL": "loud"}, "LOG_LEVEL"),
     ({"RENDER_PROCESSES": "two"}, "RENDER_PROCESSES")],
)
def test_bad_settings_say_what_would_work(tmp_path: Path, values: dict[str, str], says: str) -> None:
    with pytest.raises(ConfigError, match=says):
        load_config(values, None)


def test_env_file_values_read_as_every_tool_reads_them(tmp_path: Path) -> None:
    env = tmp_path / ".env"
    env.write_text(
        "DISCORD_TOKEN=abc # my bot\n"
        'LOG_LEVEL="debug"  # quiet\n'
        "export DATABASE_PATH='/srv/with # hash.db'\n"
        "RENDER_PROCESSES=2\t# two cores\n"
    )
    config = load_config({}, env)
    assert config.token == "abc", "a comment after a value is no part of it"
    assert config.log_level == "DEBUG", "quotes and a comment after them"
    assert config.database_path == Path("/srv/with # hash.db"), "inside quotes, # is kept"
    assert config.render_processes == 2


def test_a_dollar_in_a_value_is_kept_as_it_is(tmp_path: Path) -> None:
    env = tmp_path / ".env"
    env.write_text("DISCORD_TOKEN=ab$cd${HOME}\n")
    assert load_config({}, env).token == "ab$cd${HOME}"


def test_a_malformed_env_file_line_is_named(tmp_path: Path) -> None:
    env = tmp_path / ".env"
    env.write_text("DISCORD_TOKEN=x\nthis is not a setting\n")
    with pytest.raises(ConfigError, match="line 2"):
        read_env_file(env)


def test_the_token_is_not_in_the_settings_repr() -> None:
    settings = load_config({"DISCORD_TOKEN": TOKEN}, None)
    assert TOKEN not in repr(settings) and TOKEN not in str(settings)


def test_a_log_line_carrying_the_token_is_redacted() -> None:
    record = logging.LogRecord("x", logging.INFO, __file__, 1, "login with %s failed", (TOKEN,), None)
    assert TextLines((TOKEN,)).format(record).endswith("x: login with [secret] failed")


def test_a_traceback_carrying_a_secret_is_redacted_too() -> None:
    try:
        raise RuntimeError(f"could not log in with {TOKEN}")
    except RuntimeError:
        record = logging.LogRecord("x", logging.ERROR, __file__, 1, "failed", (), sys.exc_info())
    line = TextLines((TOKEN,)).format(record)
    assert "RuntimeError: could not log in with [secret]" in line and TOKEN not in line


@pytest.mark.parametrize(
    ("url", "pgpassword"),
    [
        ("postgresql://bot:s3cretA%40x@db:5432/sol", None),  # in the authority
        ("postgresql://bot@db/sol?sslmode=disable&password=s3cretA%40x", None),  # as an option
        ("postgresql://bot@db/sol", "s3cretA@x"),  # in the environment, as libpq reads it
    ],
)
def test_the_database_password_is_a_secret_in_every_form(
    url: str, pgpassword: str | None, monkeypatch: pytest.MonkeyPatch
) -> None:
    if pgpassword is None:
        monkeypatch.delenv("PGPASSWORD", raising=False)
    else:
        monkeypatch.setenv("PGPASSWORD", pgpassword)
    config = load_config({"DATABASE_URL": url}, env_file=None)
    assert "s3cretA" not in config.database_name and "s3cretA" not in repr(config)
    assert "s3cretA@x" in config.secrets
    line = f"connecting with {url} as s3cretA@x"
    assert "s3cretA" not in redact(line, config.secrets)


def test_database_url_selects_postgresql_and_hides_its_password() -> None:
    settings = load_config({"DATABASE_URL": "postgresql://bot:s3cret@db:5432/sol"}, env_file=None)
    assert settings.database == "postgresql://bot:s3cret@db:5432/sol"
    assert settings.database_name == "postgresql://db:5432/sol"
    assert "s3cret" not in repr(settings)
    plain = load_config({}, env_file=None)
    assert plain.database == Path(DEFAULT_DATABASE_PATH) and plain.database_url is None
    with pytest.raises(ConfigError, match="PostgreSQL URL"):
        load_config({"DATABASE_URL": "mysql://x"}, env_file=None)


@pytest.mark.parametrize(
    ("count", "ids", "expected"),
    [("", "", (None, None)), ("2", "0", (2, (0,))), ("4", "2,0", (4, (0, 2))), ("3", "", (3, (0, 1, 2)))],
)
def test_shards_this_process_serves(count: str, ids: str, expected: tuple[object, object]) -> None:
    settings = load_config({"SHARD_COUNT": count, "SHARD_IDS": ids}, env_file=None)
    assert (settings.shard_count, settings.shard_ids) == expected


@pytest.mark.parametrize(("count", "ids"), [("0", ""), ("x", "0"), ("2", "2"), ("2", "a"), ("", "1")])
def test_bad_shard_settings_are_refused_with_the_rule(count: str, ids: str) -> None:
    with pytest.raises(ConfigError, match="SHARD"):
        load_config({"SHARD_COUNT": count, "SHARD_IDS": ids}, env_file=None)


@pytest.mark.parametrize(
    ("cpu_max", "expected"),
    [("max 100000\n", None), ("100000 100000\n", 1), ("150000 100000\n", 2),
     ("50000 100000\n", 1), ("garbage", None)],
)
def test_drawing_processes_follow_the_cpus_this_process_may_use(
    tmp_path: Path, cpu_max: str, expected: int | None
) -> None:

    cgroup = tmp_path / "cpu.max"
    cgroup.write_text(cpu_max)
    affinity = len(os.sched_getaffinity(0))
    wanted = affinity if expected is None else min(affinity, expected)
    assert usable_cpus(cgroup) == wanted
    assert usable_cpus(tmp_path / "missing") == affinity


def test_the_bot_collects_reference_cycles_in_bigger_batches(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import argparse
    import gc

    import bot.discord.client
    from bot.__main__ import COLLECTOR_THRESHOLDS, run

    before = gc.get_threshold()
    seen: list[tuple[int, int, int]] = []

    def serve(config: object, *, force_sync: bool = False, page: object = None) -> int:
        seen.append(gc.get_threshold())
        return 0

    monkeypatch.setattr(bot.discord.client, "serve", serve)
    try:
        args = argparse.Namespace(console=False, web=False, dev=False, sync=False)
        assert run(args, load_config({}, env_file=None)) == 0
    finally:
        gc.set_threshold(*before)
    assert seen == [COLLECTOR_THRESHOLDS] and before[0] < COLLECTOR_THRESHOLDS[0]


def test_the_activitys_page_runs_in_the_small_bots_process_only() -> None:
    """Set up, the page is served by the bot's own process; a fleet's shard processes
    leave it to the fleet's --web process (two of them on one host would share a port)."""
    from bot.__main__ import _page_in_this_process

    activity = {"DISCORD_CLIENT_ID": "123", "DISCORD_CLIENT_SECRET": "s"}
    assert _page_in_this_process(load_config({}, env_file=None)) is None
    assert callable(_page_in_this_process(load_config(activity, env_file=None)))
    sharded = {**activity, "SHARD_COUNT": "2", "SHARD_IDS": "0"}
    assert _page_in_this_process(load_config(sharded, env_file=None)) is None


def test_a_web_secret_too_short_to_be_a_key_is_refused_with_how_to_make_one(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """One session token gives away a short key, and with it a session for anyone."""
    from bot.__main__ import main

    with pytest.raises(ConfigError, match="WEB_SECRET is too short") as refused:
        load_config({"WEB_SECRET": "a"}, None)
    made = subprocess.run(shlex.split(str(refused.value).split("make one with: ")[1]),
                          capture_output=True, text=True, check=True).stdout.strip()
    assert load_config({"WEB_SECRET": made}, None).web_secret == made
    assert load_config({"WEB_SECRET": " "}, None).web_secret is None  # a new key each start
    (tmp_path / ".env").write_text("WEB_SECRET=a\n")
    monkeypatch.delenv("WEB_SECRET", raising=False)
    assert main(["--web", "--dev", "--env-file", str(tmp_path / ".env")]) == 2
    assert "WEB_SECRET is too short" in capsys.readouterr().err


def test_trusted_proxies_are_addresses_or_networks_and_none_by_default() -> None:
    import ipaddress

    assert load_config({}, None).web_trusted_proxies == ()
    proxies = load_config({"WEB_TRUSTED_PROXIES": "127.0.0.1, 10.0.0.0/8,::1"}, None)
    assert proxies.web_trusted_proxies == tuple(
        ipaddress.ip_network(n) for n in ("127.0.0.1/32", "10.0.0.0/8", "::1/128"))
    with pytest.raises(ConfigError, match="WEB_TRUSTED_PROXIES must list"):
        load_config({"WEB_TRUSTED_PROXIES": "discord"}, None)
