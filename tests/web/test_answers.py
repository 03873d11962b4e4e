"""Every answer of the page's server carries its security headers, refusals too, and a
player's data is never kept by a cache."""

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
    ("POST", "api/act", {"data": b"{" + b" " * 5000 + b"}"}, 413),
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
