"""What each process counts for its operator, in Prometheus's text format: every metric the
bot serves is declared here, once (``docs/OPERATING.md`` says what each means and what to do
when it moves).

Names and labels follow Prometheus's conventions (``solitaire_`` first, base units, counters
ending in ``_total``), and every label has a few values known in advance: no player's id,
name or words is ever one. The process's own memory and CPU come from prometheus-client's
process collector (``process_resident_memory_bytes``, ``process_cpu_seconds_total``).

The parts of the bot that own a queue or a connection report it as the metrics are read
(``watch``): a gauge is never left to say what was true a while ago.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections import deque
from collections.abc import Callable, Iterable, Iterator

from prometheus_client import REGISTRY, Counter, Gauge, Histogram
from prometheus_client.core import GaugeMetricFamily, Metric
from prometheus_client.registry import Collector

log = logging.getLogger(__name__)

# Where a request came from: the presenter that showed its answer.
SOURCES = ("discord", "console", "page")
# How an answer ended: done, refused (the player is told why), or an apology (a failure).
PLAYED, REFUSED, APOLOGISED = "played", "refused", "apologised"

ANSWERS = Counter(
    "solitaire_answers", "Requests answered, by where they came from, the command or "
    "action, and how they ended", ("source", "kind", "outcome"))
ANSWER_SECONDS = Histogram(
    "solitaire_answer_seconds", "From a request reaching the core to its answer shown",
    ("source", "kind"),
    buckets=(0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0))
RATE_LIMITED = Counter(
    "solitaire_discord_rate_limited", "Discord's answers of 429, by their scope",
    ("scope",))
STORE_OUTAGES = Counter(
    "solitaire_store_outages", "Times the database became unreachable")
STORE_REACHABLE = Gauge(
    "solitaire_store_reachable", "1 while the database answers, 0 during an outage")

# Discord bans a bot's address for an hour after 10,000 invalid requests (401, 403, and 429
# but those of the shared scope) in 10 minutes.
INVALID_WINDOW_S = 600.0
INVALID_BAN = 10_000
INVALID_WARN = INVALID_BAN // 2


class InvalidRequests:
    """Discord's invalid requests of the last ``INVALID_WINDOW_S``, as it counts them; a
    warning in the log when they reach half of the ban, once each time."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self._clock = clock
        self._at: deque[float] = deque()
        self._warned = False

    def heard(self, status: int, scope: str | None) -> None:
        """One of Discord's answers: counted if it is an invalid request."""
        if status not in (401, 403, 429) or (status == 429 and scope == "shared"):
            return
        self._at.append(self._clock())
        count = self.count
        if count >= INVALID_WARN and not self._warned:
            self._warned = True
            log.warning("Discord has answered %d invalid requests (401, 403, 429) in the last "
                        "%d minutes: at %d it bans the bot for an hour", count,
                        INVALID_WINDOW_S // 60, INVALID_BAN)
        elif count < INVALID_WARN // 2:
            self._warned = False

    @property
    def count(self) -> int:
        since = self._clock() - INVALID_WINDOW_S
        while self._at and self._at[0] < since:
            self._at.popleft()
        return len(self._at)


INVALID_REQUESTS = InvalidRequests()

Rows = Iterable[tuple[tuple[str, ...], float]]  # a labelled gauge's values: (labels, value)


class _Watched(Collector):
    """Gauges read from the parts that own them, as the metrics are collected."""

    def __init__(self) -> None:
        self._queues: dict[str, Callable[[], int]] = {}
        self._latencies: Callable[[], Iterable[tuple[int, float]]] | None = None
        self._gauges: dict[str, tuple[str, tuple[str, ...], Callable[[], Rows]]] = {}

    def queue(self, name: str, waiting: Callable[[], int]) -> None:
        """Report queue ``name``'s waiting work as ``waiting()`` says when read."""
        self._queues[name] = waiting

    def gauge(self, name: str, documentation: str, now: Callable[[], int]) -> None:
        """Report gauge ``name`` as ``now()`` says when read (the part that owns it: its
        latest registration)."""
        self.labelled(name, documentation, (), lambda: [((), now())])

    def labelled(self, name: str, documentation: str, labels: tuple[str, ...],
                 now: Callable[[], Rows]) -> None:
        """Report gauge ``name``, one value for each of its ``labels``' values, as ``now()``
        says when read: (label values, value) rows."""
        self._gauges[name] = (documentation, labels, now)

    def latencies(self, latencies: Callable[[], Iterable[tuple[int, float]]]) -> None:
        """Report each shard's gateway latency, (shard, seconds) pairs, when read."""
        self._latencies = latencies

    def collect(self) -> Iterator[Metric]:
        queues = GaugeMetricFamily("solitaire_queue_waiting", "Work waiting its turn, by queue",
                                   labels=("queue",))
        for name, waiting in sorted(self._queues.items()):
            queues.add_metric((name,), waiting())
        yield queues
        invalid = GaugeMetricFamily(
            "solitaire_discord_invalid_requests",
            "Discord's invalid requests (401, 403, 429) in the last 10 minutes: it bans the "
            "bot at 10,000")
        invalid.add_metric((), INVALID_REQUESTS.count)
        yield invalid
        for name, (documentation, labels, rows) in sorted(self._gauges.items()):
            gauge = GaugeMetricFamily(name, documentation, labels=labels)
            for values, value in rows():
                gauge.add_metric(values, value)
            yield gauge
        tasks = GaugeMetricFamily("solitaire_event_loop_tasks",
                                  "The asyncio tasks alive in the process's event loop")
        with contextlib.suppress(RuntimeError):  # (none when read outside of it)
            tasks.add_metric((), len(asyncio.all_tasks()))
        yield tasks
        latency = GaugeMetricFamily("solitaire_gateway_latency_seconds",
                                    "Each shard's gateway heartbeat latency", labels=("shard",))
        for shard, seconds in (self._latencies() if self._latencies else ()):
            latency.add_metric((str(shard),), seconds)
        yield latency


WATCHED = _Watched()
REGISTRY.register(WATCHED)


def answered(source: str, kind: str, outcome: str, seconds: float) -> None:
    """One request answered (``source``: one of ``SOURCES``)."""
    ANSWERS.labels(source, kind, outcome).inc()
    ANSWER_SECONDS.labels(source, kind).observe(seconds)
