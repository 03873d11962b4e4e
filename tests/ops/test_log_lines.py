"""``LOG_FORMAT=json``: one JSON object a line, with the record's fields and its call's, and no
secret anywhere in it; a format the bot does not write is refused at start."""

from __future__ import annotations

import json
import logging
import subprocess
import sys
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from bot.__main__ import main
from bot.config import ConfigError, load_config
from bot.logs.formats import JsonLines, setup_logging

ROOT = Path(__file__).resolve().parents[2]
TOKEN = "MTIzNDU2.secret-token-value"
# A password JSON writes otherwise than it is: a quote and a backslash are escaped there.
PASSWORD = 'pa"ss\\word'
SECRETS = (TOKEN, PASSWORD)


def record(message: str, *args: object, level: int = logging.INFO, exc_info: Any = None,
           extra: dict[str, object] | None = None) -> logging.LogRecord:
    """The record ``logger.log(level, message, *args, exc_info=..., extra=...)`` makes."""
    return logging.getLogger("bot.test").makeRecord(
        "bot.test", level, __file__, 1, message, args, exc_info, extra=extra)


def line_of(made: logging.LogRecord) -> dict[str, Any]:
    line = JsonLines(SECRETS).format(made)
    assert "\n" not in line
    for secret in SECRETS:
        assert secret not in line and json.dumps(secret)[1:-1] not in line
    parsed = json.loads(line)
    assert isinstance(parsed, dict)
    return parsed


def test_a_record_is_one_json_object_with_its_time_level_logger_and_message() -> None:
    made = record("%d boards collapsed", 12, level=logging.WARNING)
    entry = line_of(made)
    assert entry == {"time": entry["time"], "level": "WARNING", "logger": "bot.test",
                     "message": "12 boards collapsed"}
    assert entry["time"].endswith("Z")
    written = datetime.fromisoformat(entry["time"])
    assert written.utcoffset() == timedelta(0)
    assert abs(written - datetime.fromtimestamp(made.created, UTC)) < timedelta(milliseconds=1)


def test_the_fields_a_call_passes_are_the_objects_own() -> None:
    entry = line_of(record("a 429", extra={
        "route": "PATCH /channels/1/messages/2", "shard": 0, "took": 0.25, "scope": None,
        "shards": (0, 2), "limits": {"bucket": 5}}))
    assert entry["route"] == "PATCH /channels/1/messages/2" and entry["shard"] == 0
    assert entry["took"] == 0.25 and entry["scope"] is None
    assert entry["shards"] == [0, 2] and entry["limits"] == {"bucket": 5}


def test_a_field_named_like_the_records_own_hides_none_of_them() -> None:
    entry = line_of(record("moved", level=logging.ERROR, extra={"level": "fine"}))
    assert entry["level"] == "ERROR" and entry["level_"] == "fine"


def test_an_exception_is_written_whole_in_its_field() -> None:
    try:
        raise RuntimeError("the store went away")
    except RuntimeError:
        entry = line_of(record("a move failed", exc_info=sys.exc_info()))
    assert entry["message"] == "a move failed"
    assert entry["exception"].startswith("Traceback (most recent call last):")
    assert entry["exception"].endswith("RuntimeError: the store went away")


def test_no_secret_reaches_a_line_in_the_message_the_traceback_or_a_field() -> None:
    try:
        raise ConnectionError(f"login with {TOKEN} refused; password {PASSWORD}")
    except ConnectionError:
        entry = line_of(record("connecting with %s as %s", TOKEN, PASSWORD,
                               exc_info=sys.exc_info(), extra={
                                   "url": f"postgresql://bot:{PASSWORD}@db",
                                   "tried": [{"token": TOKEN}], TOKEN: 1}))
    assert entry["message"] == "connecting with [secret] as [secret]"
    assert entry["exception"].endswith("ConnectionError: login with [secret] refused; "
                                       "password [secret]")
    assert entry["url"] == "postgresql://bot:[secret]@db"
    assert entry["tried"] == [{"token": "[secret]"}] and entry["[secret]"] == 1


def test_a_number_that_spells_a_secret_is_redacted_too() -> None:
    line = JsonLines(("31337",)).format(record("ok", extra={"port": 31337, "moves": 12}))
    assert json.loads(line)["port"] == "[secret]" and json.loads(line)["moves"] == 12


@pytest.fixture
def root_logger() -> Iterator[logging.Logger]:
    """The root logger, as it was once the test has set it up its way."""
    root = logging.getLogger()
    handlers, level = root.handlers[:], root.level
    yield root
    root.handlers[:] = handlers
    root.setLevel(level)


def test_log_format_json_sets_every_line_so_with_the_settings_secrets(
    root_logger: logging.Logger, capsys: pytest.CaptureFixture[str],
) -> None:
    setup_logging(load_config({"LOG_FORMAT": "JSON", "DISCORD_TOKEN": TOKEN}, None))
    logging.getLogger("bot.discord.client").warning("logged in with %s", TOKEN,
                                                    extra={"shards": [0]})
    logging.getLogger("discord.gateway").info("shard 0 connected")
    lines = capsys.readouterr().err.splitlines()
    assert [json.loads(line)["message"] for line in lines] == [
        "logged in with [secret]", "shard 0 connected"]
    assert json.loads(lines[0])["shards"] == [0] and TOKEN not in lines[0]


def test_text_stays_the_default() -> None:
    assert load_config({}, None).log_format == "text"
    assert load_config({"LOG_FORMAT": " Text "}, None).log_format == "text"


def test_a_log_format_the_bot_does_not_write_is_refused_at_start(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
) -> None:
    with pytest.raises(ConfigError, match=r"LOG_FORMAT must be text .* or json .*, not 'xml'"):
        load_config({"LOG_FORMAT": "xml"}, None)
    monkeypatch.setenv("LOG_FORMAT", "logfmt")
    assert main(["--console", "--env-file", str(tmp_path / "none.env")]) == 2
    assert "Settings error: LOG_FORMAT must be text" in capsys.readouterr().err


def test_the_console_logs_nothing_but_json_lines(tmp_path: Path) -> None:
    """Every line the whole program writes to its log, its libraries' too, at DEBUG."""
    played = subprocess.run(
        [sys.executable, "-m", "bot", "--console", "--env-file", "none"], cwd=tmp_path,
        input="/new trefoil 42\n/move 5 f3\n", capture_output=True, text=True, check=True,
        env={"PYTHONPATH": str(ROOT), "LOG_FORMAT": "json", "LOG_LEVEL": "DEBUG",
             "DISCORD_TOKEN": TOKEN, "DATABASE_PATH": str(tmp_path / "solitaire.db")},
    )
    lines = played.stderr.splitlines()
    assert lines and "5 f3" in played.stdout
    for line in lines:
        entry = json.loads(line)
        assert {"time", "level", "logger", "message"} <= entry.keys()
    assert TOKEN not in played.stderr
