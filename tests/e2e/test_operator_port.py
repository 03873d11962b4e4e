"""The operator's port of a real bot process, scraped while it plays against the fake
Discord, on each backend: /readyz once its shards are connected and its database answers,
not while PostgreSQL is away (the outage counted once); /metrics counting the moves it
answers, the gateway's latency and Discord's 429s, with no player in any label; the page's
process serving the same port, counting what its players do."""

from __future__ import annotations

import asyncio
import json
import re
import sys
from pathlib import Path
from typing import Any

import aiohttp
import pytest
from discord.http import Route
from prometheus_client import REGISTRY
from prometheus_client.parser import text_string_to_metric_families

from bot.ops.metrics import INVALID_REQUESTS
from tests.pg_server import PostgresServer

from .fake_discord import FakeDiscord
from .harness import BotProcess
from .play import Mirror, move_options
from .rate_limits import RateLimits
from .test_web_process import free_port, page_process, signed_in, start_serving

ROOT = Path(__file__).resolve().parents[2]


def compose_services() -> dict[str, str]:
    """compose.yaml's services, each its block of text."""
    text = (ROOT / "compose.yaml").read_text()
    body = text.split("\nservices:\n", 1)[1].split("\nvolumes:\n", 1)[0]
    blocks = re.split(r"^  ([\w-]+):.*$", body, flags=re.M)
    return dict(zip(blocks[1::2], blocks[2::2], strict=True))


def readiness_check(port: int) -> list[str]:
    """The bot services' health check as compose.yaml runs it, asking ``port``."""
    line = next(line for line in compose_services()["shard-0"].splitlines()
                if line.strip().startswith("test:"))
    command = json.loads(line.split("test:", 1)[1])
    assert command[:2] == ["CMD", "python"]
    return [sys.executable, *[part.replace(":9100/", f":{port}/") for part in command[2:]]]


def test_every_service_in_compose_has_a_health_check() -> None:
    services = compose_services()
    assert {"db", "shard-0", "shard-1", "page", "prometheus"} <= set(services)
    for name, block in services.items():
        assert "healthcheck:" in block, name


@pytest.fixture
def database(any_database: Path | str) -> Path | str:
    return any_database


Samples = dict[str, list[tuple[dict[str, str], float]]]  # a scrape's, by the sample's name


async def scrape(port: int) -> Samples:
    """Every sample of ``/metrics``, by the sample's name."""
    async with aiohttp.ClientSession() as web, web.get(f"http://127.0.0.1:{port}/metrics") as got:
        assert got.status == 200
        text = await got.text()
    samples: Samples = {}
    for family in text_string_to_metric_families(text):
        for sample in family.samples:
            samples.setdefault(sample.name, []).append((sample.labels, sample.value))
    return samples


async def status(port: int, path: str) -> tuple[int, str]:
    async with aiohttp.ClientSession() as web, web.get(f"http://127.0.0.1:{port}{path}") as got:
        return got.status, await got.text()


async def page_call(http: aiohttp.ClientSession, url: str, signed: dict[str, str],
                    body: dict[str, Any]) -> dict[str, Any]:
    """The board a page's request is answered with."""
    async with http.post(url, headers=signed, json=body) as r:
        assert r.status == 200, await r.text()
        board: dict[str, Any] = (await r.json())["board"]
    return board


RUNBOOK = (ROOT / "docs" / "OPERATING.md").read_text()


def alert_rules() -> dict[str, str]:
    """deploy/alerts.yml's alerts, each its expression (each on one line, as it says)."""
    text = (ROOT / "deploy" / "alerts.yml").read_text()
    found = re.findall(r"^\s*- alert: (\w+)\n\s*expr: (.+)$", text, flags=re.M)
    assert len(found) == text.count("- alert:"), "every rule's expr follows its name"
    return dict(found)


def assert_documented(samples: Samples) -> None:
    """Every metric of the bot's that a process serves is in the runbook's table."""
    for name in samples:
        if name.startswith("solitaire_"):
            family = re.sub(r"_(bucket|count|sum|created)$", "", name)
            assert f"`{family}" in RUNBOOK, f"{name} is not in docs/OPERATING.md"


def test_the_alerts_are_the_runbooks_and_ask_of_metrics_the_bot_serves() -> None:
    rules = alert_rules()
    assert len(rules) >= 5
    for alert, expression in rules.items():
        assert f"| `{alert}` | `{expression}`" in RUNBOOK, f"the runbook explains {alert}"
    prometheus = (ROOT / "deploy" / "prometheus.yml").read_text()
    assert "- alerts.yml" in prometheus and "job_name: solitaire\n" in prometheus
    assert "./deploy/alerts.yml:/etc/prometheus/alerts.yml:ro" in compose_services()["prometheus"]


LABELS = {"source", "kind", "outcome", "scope", "queue", "shard", "pool", "state", "le"}  # each of few values


def assert_no_player_in_labels(samples: Samples, fake: FakeDiscord) -> None:
    """No label of the bot's metrics but those of a few values known in advance, and none
    holding a player's, a server's or a channel's id or name."""
    secret = {str(user.id) for user in fake.users.values()} | set(fake.users)
    for guild in fake.guilds:
        secret |= {str(guild.id), guild.name, *(str(c.id) for c in guild.channels)}
    for name, found in samples.items():
        for labels, _ in found:
            if name.startswith("solitaire_"):
                assert set(labels) <= LABELS, (name, labels)
            assert not {value for value in labels.values() if value in secret}, (name, labels)


def bot_process(fake: FakeDiscord, database: Path | str, workdir: Path, port: int) -> BotProcess:
    url = {"DATABASE_URL": database} if isinstance(database, str) else {}
    return BotProcess(fake, workdir / "unused.db" if isinstance(database, str) else database,
                      workdir, env={"METRICS_PORT": str(port), **url})


async def test_a_shard_process_is_ready_counts_its_moves_and_its_latency(
    database: Path | str, tmp_path: Path
) -> None:
    fake = await FakeDiscord().start()
    port = free_port()
    bot = bot_process(fake, database, tmp_path, port)
    try:
        await bot.start()
        # ready once its shard has said READY and the store answers
        assert await until_status(port, "/readyz", 200) == "ready\n"
        assert (await status(port, "/healthz"))[0] == 200
        alice = fake.users["alice"]
        mirror = Mirror("trefoil", 5)
        await fake.command(alice, "new", {"game": "trefoil", "deal": 5})
        for _ in range(3):
            move = mirror.first_move()
            reply = await fake.command(alice, "move", move_options(move))
            mirror.play(move)
            mirror.check_board(reply, alice.id)
        await fake.command(alice, "move", {"from": "99", "to": "3"})  # refused
        samples = await scrape(port)
        answers = {(labels["source"], labels["kind"], labels["outcome"]): value
                   for labels, value in samples["solitaire_answers_total"]}
        assert answers[("discord", "move", "played")] == 3
        assert answers[("discord", "move", "refused")] == 1
        assert answers[("discord", "new", "played")] == 1
        timed = {labels["kind"]: value
                 for labels, value in samples["solitaire_answer_seconds_count"]}
        assert timed["move"] == 4
        latency = samples["solitaire_gateway_latency_seconds"]
        assert [labels["shard"] for labels, _ in latency] == ["0"]
        assert all(value >= 0 for _, value in latency)
        assert samples["solitaire_store_reachable"] == [({}, 1.0)]
        assert samples["process_resident_memory_bytes"][0][1] > 0
        assert samples["solitaire_event_loop_tasks"][0][1] > 0
        connections = {tuple(labels.values()): value
                       for labels, value in samples.get("solitaire_store_connections", [])}
        if isinstance(database, str):  # PostgreSQL's pools: a move's writer came back idle
            assert set(connections) == {(pool, state) for pool in ("writers", "readers")
                                        for state in ("in_use", "idle")}, connections
            assert connections["writers", "idle"] >= 1, connections
        else:
            assert connections == {}, "SQLite has no pool"
        assert_no_player_in_labels(samples, fake)
        assert_documented(samples)
        for expression in alert_rules().values():  # what each alert asks of is served
            for name in re.findall(r"solitaire_\w+", expression):
                assert name in samples, name
    finally:
        assert await bot.stop() == 0
        await fake.close()


async def test_the_page_process_serves_the_same_port(
    database: Path | str, tmp_path: Path
) -> None:
    fake = await FakeDiscord().start()
    web_port, ops_port = free_port(), free_port()
    alice = fake.users["alice"]
    page = page_process(fake, database, tmp_path, web_port)
    page.extra_env["METRICS_PORT"] = str(ops_port)
    try:
        await start_serving(page, web_port)
        assert await until_status(ops_port, "/readyz", 200) == "ready\n"
        async with aiohttp.ClientSession() as http:  # a player plays on the page meanwhile
            api = f"http://127.0.0.1:{web_port}/api/"
            signed = {"Authorization": f"Bearer {await signed_in(http, fake, alice, api)}"}
            socket = await http.ws_connect(api + "live")
            await socket.send_json({"session": signed["Authorization"][7:], "have": None,
                                    "page": "page-alice-0123", "lost": False,
                                    "fourColour": False})
            board = await page_call(http, api + "new", signed, {"game": "trefoil", "deal": 5})
            for move in (board["moves"][0], "99 3"):  # played, then refused: no such pile
                await page_call(http, api + "act", signed,
                                {"action": "move", "move": move, "seen": board["ref"]})
            await socket.receive_json(timeout=5)  # the board, pushed: the socket is served
            samples = await scrape(ops_port)
            await socket.close()
        answers = {(labels["source"], labels["kind"], labels["outcome"]): value
                   for labels, value in samples["solitaire_answers_total"]}
        assert answers[("page", "new", "played")] == 1
        assert answers[("page", "move", "played")] == 1
        assert answers[("page", "move", "refused")] == 1
        assert not [key for key in answers if key[0] != "page"], answers
        assert samples["solitaire_page_sockets"] == [({}, 1.0)]
        assert_no_player_in_labels(samples, fake)
        assert_documented(samples)
        assert samples["solitaire_store_reachable"] == [({}, 1.0)]
        assert {labels["queue"] for labels, _ in samples["solitaire_queue_waiting"]} == {
            "verdicts", "pictures", "replays", "channel_edits"}, "it edits boards in channels"
        check = await asyncio.create_subprocess_exec(*readiness_check(ops_port))
        assert await check.wait() == 0, "compose's health check passes"
    finally:
        await page.stop()
        await fake.close()
    check = await asyncio.create_subprocess_exec(
        *readiness_check(ops_port), stderr=asyncio.subprocess.DEVNULL)
    assert await check.wait() != 0, "and fails once the process is gone"


@pytest.mark.problems_expected  # 429s on purpose
async def test_discords_429s_and_invalid_requests_are_counted_as_the_bot_hears_them(
    fake: FakeDiscord, bot: Any
) -> None:
    """Through the bot's own HTTP session: past Discord's global limit, each 429 is counted
    under its scope and among the invalid requests, and discord.py's retry then succeeds."""

    def limited(scope: str) -> float:
        return REGISTRY.get_sample_value("solitaire_discord_rate_limited_total",
                                         {"scope": scope}) or 0.0

    # (the process's own counts: other tests in it may have counted 429s before)
    before = {scope: limited(scope) for scope in ("global", "user", "unknown")}
    invalid_before = INVALID_REQUESTS.count
    fake.rate_limiter.limits = RateLimits(global_per_s=2)
    for _ in range(3):
        me = await bot.http.request(Route("GET", "/users/@me"))
        assert me["id"] == str(fake.bot_user.id)
    sent = [limit for limit in fake.rate_limited if limit.scope == "global"]
    assert sent, "the fake answered a 429"
    assert limited("global") == before["global"] + len(sent)
    assert limited("user") == before["user"] and limited("unknown") == before["unknown"]
    assert INVALID_REQUESTS.count == invalid_before + len(sent)


async def test_readiness_and_the_store_gauges_follow_a_database_outage(
    own_pg_server: PostgresServer, tmp_path: Path
) -> None:
    """While PostgreSQL is away the shard process stays alive but not ready, and counts the
    outage; once it is back, ready again."""
    fake = await FakeDiscord().start()
    port = free_port()
    bot = bot_process(fake, own_pg_server.url(), tmp_path, port)
    try:
        await bot.start()
        assert await until_status(port, "/readyz", 200) == "ready\n"
        await fake.command("alice", "new", {"game": "trefoil", "deal": 5})
        own_pg_server.pause()
        down = await fake.command("alice", "show")
        assert down.ephemeral and "unreachable for a moment" in down.text, down.text
        assert await until_status(port, "/readyz", 503) == (
            "not ready: the database does not answer\n")
        assert (await status(port, "/healthz"))[0] == 200, "alive all the while"
        samples = await scrape(port)
        assert samples["solitaire_store_reachable"] == [({}, 0.0)]
        assert samples["solitaire_store_outages_total"] == [({}, 1.0)]
        own_pg_server.resume()
        assert await until_status(port, "/readyz", 200) == "ready\n"
        shown = await fake.command("alice", "show")
        assert not shown.ephemeral or "unreachable" not in shown.text, shown.text
        samples = await scrape(port)
        assert samples["solitaire_store_reachable"] == [({}, 1.0)]
        assert samples["solitaire_store_outages_total"] == [({}, 1.0)], "one outage, counted once"
    finally:
        assert await bot.stop() == 0
        await fake.close()


async def until_status(port: int, path: str, wanted: int, within_s: float = 20.0) -> str:
    """What ``path`` says once it answers ``wanted``; fails after ``within_s``."""
    deadline = asyncio.get_running_loop().time() + within_s
    while True:
        code, text = await status(port, path)
        if code == wanted:
            return text
        assert asyncio.get_running_loop().time() < deadline, (path, code, text)
        await asyncio.sleep(0.1)
