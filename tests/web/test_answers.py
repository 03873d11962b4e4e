"""Every answer of the page's server carries its security headers, refusals too, and a
player's data is never kept by a cache; a dev server answers loopback alone (no page a
developer visits can reach it by a name of its own: DNS rebinding)."""

from __future__ import annotations

from typing import Any

import pytest

from .conftest import Web

ALICE = 314_159_265_358_979_323
SECURITY = ("Content-Security-Policy", "X-Content-Type-Options", "Referrer-Policy")


async def answer(web: Web, method: str, path: str, **kwargs: Any) -> tuple[int, Any, Any]:
    async with web.http.request(method, web.url + path, **kwargs) as response:
        body = (await response.json() if response.content_type == "application/json"
                else await response.text())
        return response.status, response.headers, body


@pytest.mark.parametrize(("method", "path", "kwargs", "status"), [
    ("GET", "api/board", {}, 401),
    ("GET", "api/board", {"headers": {"Authorization": "Bearer nonsense"}}, 401),
    ("GET", "nowhere", {}, 404),
    ("GET", "api/nothing", {}, 404),
    ("POST", "api/signin", {"json": {"code": "x"}}, 404),  # no Discord sign-in set up here
    ("GET", "api/act", {}, 405),
    ("DELETE", "", {}, 405),
    ("POST", "api/dev/signin", {"data": b"{" + b" " * 5000 + b"}"}, 413),
    ("POST", "api/act", {"data": b"{" + b" " * 5000 + b"}"}, 401),  # who asks comes first
    ("POST", "api/dev/signin", {"data": b"[1"}, 400),
])
async def test_a_refusal_carries_the_security_headers_and_says_why(
    web: Web, method: str, path: str, kwargs: dict[str, Any], status: int
) -> None:
    got, headers, body = await answer(web, method, path, **kwargs)
    assert got == status, body
    for name in SECURITY:
        assert name in headers, (name, status)
    assert headers["X-Content-Type-Options"] == "nosniff"
    if path.startswith("api/"):
        assert headers["Cache-Control"] == "no-store"
        assert isinstance(body, dict) and body["error"], body


async def test_a_players_data_is_never_kept_by_a_cache(web: Web) -> None:
    session = await web.dev_session(ALICE)
    await web.call("api/new", {"game": "trefoil", "deal": 1}, session=session)
    for method, path in (("GET", "api/board"), ("POST", "api/dev/signin")):
        body = {"user": str(ALICE)} if method == "POST" else None
        _, headers, _ = await answer(web, method, path, json=body,
                                     headers={"Authorization": f"Bearer {session}"})
        assert headers["Cache-Control"] == "no-store", path
        assert all(name in headers for name in SECURITY)
    _, page, _ = await answer(web, "GET", "")
    assert page["Cache-Control"] == "no-cache", "the page itself is checked each time"


@pytest.mark.parametrize("host", ["evil.example", "evil.example:8080", "127.0.0.1.nip.io",
                                  "localhost.evil.example", "10.0.0.1"])
async def test_a_dev_server_refuses_a_host_that_is_not_loopback(web: Web, host: str) -> None:
    for method, path, body in (("GET", "", None), ("POST", "api/dev/signin",
                                                   {"user": str(ALICE)})):
        status, headers, refused = await answer(web, method, path, json=body,
                                                headers={"Host": host})
        assert status == 403, (host, path, refused)
        assert "loopback" in (refused["error"] if isinstance(refused, dict) else refused)
        assert "Content-Security-Policy" in headers


@pytest.mark.parametrize("origin", ["https://evil.example", "null", "http://127.0.0.1.evil.example",
                                    "file://"])
async def test_a_dev_server_refuses_an_origin_that_is_not_loopback(web: Web, origin: str) -> None:
    status, _, refused = await answer(web, "POST", "api/dev/signin", json={"user": str(ALICE)},
                                      headers={"Origin": origin})
    assert status == 403 and "loopback" in refused["error"], refused


@pytest.mark.parametrize(("host", "origin"), [
    ("127.0.0.1", None), ("localhost:8080", "http://localhost:8080"),
    ("127.0.0.1:8080", "http://127.0.0.1:8080"), ("[::1]:8080", "http://[::1]:8080"),
])
async def test_a_dev_server_answers_loopback_by_address_or_name(
    web: Web, host: str, origin: str | None
) -> None:
    headers = {"Host": host} | ({"Origin": origin} if origin else {})
    status, _, signed = await answer(web, "POST", "api/dev/signin", json={"user": str(ALICE)},
                                     headers=headers)
    assert status == 200 and signed["session"], signed


async def test_without_dev_mode_any_host_is_answered(discord_web: Web) -> None:
    """Behind Discord's proxy the host is the operator's own; only dev mode knows its own."""
    status, _, _ = await answer(discord_web, "GET", "", headers={"Host": "play.example.org"})
    assert status == 200
