"""The log's two formats, ``LOG_FORMAT``: lines of text (``text``, the default) or one JSON
object a line (``json``), for a collector that reads fields rather than sentences.

Either way, belt and braces: no secret (the token, the Activity's secrets, the database's
password) reaches a line, whoever logs it: message, traceback, fields and all. The JSON
object is redacted before it is written, value by value, so a secret JSON would escape
(a quote or a backslash in a password) is found as it is, and the line stays valid JSON.
"""

from __future__ import annotations

import json
import logging
import math
from collections.abc import Iterable, Mapping
from datetime import UTC, datetime
from typing import Any

from ..config import Config

TEXT_FORMAT = "%(asctime)s %(levelname)-8s %(name)s: %(message)s"
# What every record carries: anything else on a record is a field its call passed
# (``extra=``). The attributes of a blank record, whatever this Python adds to them, and
# the two ``Formatter.format`` sets.
RECORD_ATTRIBUTES = frozenset(vars(logging.LogRecord("", 0, "", 0, "", (), None))) | {
    "message", "asctime"}
NESTED = 4  # how deep a field's dictionaries and lists are written; below, as text


def redact(text: str, secrets: Iterable[str]) -> str:
    """``text`` with every secret in it replaced by ``[secret]`` (``secrets`` longest
    first, so that one inside another goes whole)."""
    for secret in secrets:
        text = text.replace(secret, "[secret]")
    return text


def longest_first(secrets: Iterable[str]) -> tuple[str, ...]:
    return tuple(sorted(secrets, key=len, reverse=True))


class TextLines(logging.Formatter):
    """``2025-01-31 12:00:00 INFO     bot.discord.client: ...``, local time, redacted."""

    def __init__(self, secrets: Iterable[str]) -> None:
        super().__init__(TEXT_FORMAT, "%Y-%m-%d %H:%M:%S")
        self.secrets = longest_first(secrets)

    def format(self, record: logging.LogRecord) -> str:
        return redact(super().format(record), self.secrets)


class JsonLines(logging.Formatter):
    """One JSON object a record, on one line: ``time`` (ISO 8601, UTC), ``level``,
    ``logger``, ``message``, ``exception`` (its traceback) and ``stack`` when the record has
    them, then each field its call passed with ``extra=``, by its own name (one named like
    the fields before it is written with ``_`` after its name: it can hide none of them)."""

    def __init__(self, secrets: Iterable[str]) -> None:
        super().__init__()
        self.secrets = longest_first(secrets)

    def format(self, record: logging.LogRecord) -> str:
        entry: dict[str, Any] = {
            "time": datetime.fromtimestamp(record.created, UTC).isoformat(
                timespec="milliseconds").replace("+00:00", "Z"),
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
        }
        if record.exc_info:
            entry["exception"] = self.formatException(record.exc_info)
        if record.stack_info:
            entry["stack"] = self.formatStack(record.stack_info)
        for key, value in vars(record).items():
            if key not in RECORD_ATTRIBUTES:
                entry[f"{key}_" if key in entry else key] = value
        return json.dumps(self._redacted(entry, NESTED))

    def _redacted(self, value: Any, depth: int) -> Any:
        """``value`` as JSON can hold it, every secret in it redacted: text, numbers (a
        secret of digits), names and values of dictionaries, items of lists; anything else
        (and what lies deeper than ``depth``) as its text."""
        if value is None or isinstance(value, bool):
            return value
        if isinstance(value, int | float) and math.isfinite(value):
            text = str(value)
            redacted = redact(text, self.secrets)
            return value if redacted == text else redacted
        if depth > 0 and isinstance(value, Mapping):
            return {self._redacted(str(k), 0): self._redacted(v, depth - 1)
                    for k, v in value.items()}
        if depth > 0 and isinstance(value, list | tuple | set | frozenset):
            return [self._redacted(item, depth - 1) for item in value]
        return redact(value if isinstance(value, str) else str(value), self.secrets)


def setup_logging(config: Config) -> None:
    """Every record to standard error, at ``LOG_LEVEL`` and in ``LOG_FORMAT``."""
    handler = logging.StreamHandler()
    lines = JsonLines if config.log_format == "json" else TextLines
    handler.setFormatter(lines(config.secrets))
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(config.log_level_number)
