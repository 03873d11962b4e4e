"""The operator's port: each answer counted by where it came from and how it ended, with
its time; Discord's invalid requests counted as Discord counts them; the database's
outages; the queues; and /metrics, /healthz and /readyz served as Prometheus and an
orchestrator read them."""

from __future__ import annotations

import asyncio
import logging
import random
from collections.abc import AsyncIterator
from pathlib import Path

import aiohttp
import pytest
from prometheus_client import REGISTRY, generate_latest
from prometheus_client.parser import text_string_to_metric_families

from bot.config import ConfigError, load_config
from bot.core import Core
from bot.ops.metrics import INVALID_WARN, InvalidRequests
from bot.ops.serve import OpsServer
from bot.replies import Action
from bot.store import Stores
from bot.store.database import Outage
from tests.bot.conftest import ALICE, Clock, PositionPicture
from tests.bot.presenting import answer


def sample(name: str, **labels: str) -> float:
    return REGISTRY.get_sample_value(name, labels) or 0.0


@pytest.fixture
async def core(tmp_path: Path) -> AsyncIterator[Core]:
    stores = await Stores.open(tmp_path / "solitaire.db")
    made = Core(stores, renderer=PositionPicture(), clock=Clock(), deals=random.Random(5))
    yield made
    await made.close()


async def test_each_answer_is_counted_by_source_kind_and_how_it_ended(
    core: Core, monkeypatch: pytest.MonkeyPatch
) -> None:
    def count(kind: str, outcome: str) -> float:
        return sample("solitaire_answers_total", source="console", kind=kind, outcome=outcome)

    def timed(kind: str) -> float:
        return sample("solitaire_answer_seconds_count", source="console", kind=kind)

    before = {(k, o): count(k, o) for k in ("new", "move", "undo")
              for o in ("played", "refused", "apologised")}
    timed_before = timed("move")
    await answer(core.new_game, ALICE, "trefoil", 27)
    assert not (await answer(core.act, ALICE, Action.MOVE, "7 f1")).refused
    assert (await answer(core.act, ALICE, Action.MOVE, "99 3")).refused  # no such pile

    async def broken(*args: object, **kwargs: object) -> None:
        raise RuntimeError("the disk is on fire")

    monkeypatch.setattr(core.stores.games, "save", broken)
    assert (await answer(core.act, ALICE, Action.UNDO)).refused  # an apology
    assert count("new", "played") == before["new", "played"] + 1
    assert count("move", "played") == before["move", "played"] + 1
    assert count("move", "refused") == before["move", "refused"] + 1
    assert count("undo", "apologised") == before["undo", "apologised"] + 1
    assert timed("move") == timed_before + 2, "both moves timed"


def test_invalid_requests_are_counted_as_discord_counts_them_and_warned_of_at_half(
    caplog: pytest.LogCaptureFixture,
) -> None:
    now = [0.0]
    invalid = InvalidRequests(clock=lambda: now[0])
    for status, scope in ((200, None), (404, None), (429, "shared"), (401, None),
                          (403, None), (429, "user"), (429, "global")):
        invalid.heard(status, scope)
    assert invalid.count == 4, "401, 403 and 429s but the shared scope's"
    now[0] = 601.0
    assert invalid.count == 0, "ten minutes on, none of them counts"
    with caplog.at_level(logging.WARNING, logger="bot.ops.metrics"):
        for _ in range(INVALID_WARN + 10):
            invalid.heard(429, "user")
    warnings = [r for r in caplog.records if "invalid requests" in r.getMessage()]
    assert len(warnings) == 1 and "bans the bot" in warnings[0].getMessage()


def test_an_outage_is_counted_once_and_reachability_follows_it() -> None:
    outages = sample("solitaire_store_outages_total")
    outage = Outage("test")
    assert sample("solitaire_store_reachable") == 1
    outage.failed(OSError("gone"))
    outage.failed(OSError("still gone"))
    assert sample("solitaire_store_outages_total") == outages + 1
    assert sample("solitaire_store_reachable") == 0
    outage.succeeded()
    assert sample("solitaire_store_reachable") == 1


async def test_the_port_serves_metrics_liveness_and_readiness(core: Core) -> None:
    missing: list[str | None] = ["the database does not answer"]

    async def ready() -> str | None:
        return missing[0]

    server = OpsServer(ready, "127.0.0.1", 0)
    await server.start()
    base = f"http://127.0.0.1:{server.port}"
    try:
        await answer(core.new_game, ALICE, "trefoil", 27)
        async with aiohttp.ClientSession() as web:
            async with web.get(f"{base}/healthz") as alive:
                assert alive.status == 200
            async with web.get(f"{base}/readyz") as not_ready:
                assert not_ready.status == 503
                assert "the database does not answer" in await not_ready.text()
            missing[0] = None
            async with web.get(f"{base}/readyz") as is_ready:
                assert is_ready.status == 200
            async with web.get(f"{base}/metrics") as scraped:
                assert scraped.status == 200
                assert scraped.headers["Content-Type"].startswith("text/plain")
                families = {f.name: f for f in text_string_to_metric_families(
                    await scraped.text())}
    finally:
        await server.close()
    for name in ("solitaire_answers", "solitaire_answer_seconds", "solitaire_queue_waiting",
                 "solitaire_discord_invalid_requests", "solitaire_store_reachable",
                 "process_resident_memory_bytes", "process_cpu_seconds"):
        assert name in families, name
    queues = {s.labels["queue"] for s in families["solitaire_queue_waiting"].samples}
    assert {"verdicts", "pictures", "replays"} <= queues
    for family in families.values():  # no player's id or words in any label
        for metric in family.samples:
            assert str(ALICE.user_id) not in " ".join(metric.labels.values())


async def test_the_core_says_whether_its_database_answers(core: Core) -> None:
    assert await core.store_answers()
    await core.stores.close()
    assert not await core.store_answers()


def test_metrics_port_is_a_port_or_nothing() -> None:
    assert load_config({"METRICS_PORT": "9100"}).metrics_port == 9100
    assert load_config({}).metrics_port is None
    for bad in ("0", "70000", "nine"):
        with pytest.raises(ConfigError, match="METRICS_PORT"):
            load_config({"METRICS_PORT": bad})


def test_the_tasks_gauge_reads_the_running_loop_and_nothing_outside_one() -> None:
    def tasks() -> list[float]:
        families = text_string_to_metric_families(generate_latest(REGISTRY).decode())
        return [s.value for f in families if f.name == "solitaire_event_loop_tasks"
                for s in f.samples]

    assert tasks() == [], "no loop runs here: no value, and no failure"

    async def inside() -> list[float]:
        others = [asyncio.create_task(asyncio.sleep(1)) for _ in range(3)]
        try:
            return tasks()
        finally:
            for other in others:
                other.cancel()

    assert asyncio.run(inside()) == [4], "this one and the three it started"
