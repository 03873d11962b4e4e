"""How the page's server refuses, and what every answer carries.

Every refusal is a JSON error saying why, whatever refused it: a handler (``BadRequest``,
aiohttp's ``HTTPUnauthorized``), aiohttp's router (404, 405) or its body limit (413), a
limit (``limits.TryLater``: 429 or 503, with ``Retry-After``, held a moment); an unexpected
failure is logged once and answered 500 the same way. Every answer, refusals included,
carries the page's Content-Security-Policy, ``nosniff`` and ``no-referrer`` (``secure``, run
as each answer is prepared), and ``/api/*``'s, which carry a player's data,
``Cache-Control: no-store``. In dev mode, where anyone signs in as anyone, the server answers
only a request whose ``Host`` and ``Origin`` (if any) are loopback's: a page a developer visits
cannot reach it by a name of its own pointed at 127.0.0.1 (DNS rebinding).
"""

from __future__ import annotations

import asyncio
import ipaddress
import logging
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING
from urllib.parse import urlsplit

from aiohttp import web

from . import limits
from .limits import TryLater

if TYPE_CHECKING:
    from aiohttp.typedefs import Middleware

log = logging.getLogger(__name__)

# (img-src: players' avatars are Discord's CDN's; connect-src: the page's own server, and
# Discord's API, where a win shared is uploaded)
CSP = ("default-src 'self'; script-src 'self'; style-src 'self'; "
       "img-src 'self' data: https://cdn.discordapp.com; "
       "connect-src 'self' https://discord.com; base-uri 'none'; form-action 'none'; "
       "frame-ancestors 'self' https://discord.com https://*.discord.com "
       "https://*.discordsays.com")
SECURITY_HEADERS = {"Content-Security-Policy": CSP, "X-Content-Type-Options": "nosniff",
                    "Referrer-Policy": "no-referrer"}
KEPT_HEADERS = ("Allow", "Retry-After", "WWW-Authenticate")  # of a refusal aiohttp made

Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]


class BadRequest(Exception):
    """A request the page never sends: answered 400 with what was wrong."""


def refused(status: int, why: str, headers: dict[str, str] | None = None) -> web.Response:
    return web.json_response({"error": why}, status=status, headers=headers)


def refusing(*, dev: bool) -> Middleware:
    """The middleware that turns every refusal into ``refused``; with ``dev``, it refuses
    first whatever is not asked of loopback."""

    @web.middleware
    async def refuse(request: web.Request, handler: Handler) -> web.StreamResponse:
        try:
            if dev:
                not_loopback = _not_loopback(request)
                if not_loopback is not None:
                    return refused(403, not_loopback)
            return await handler(request)
        except BadRequest as err:
            return refused(400, str(err))
        except TryLater as err:
            await asyncio.sleep(min(err.retry_after_s, limits.HOLD_S))  # (limits.py: why)
            return refused(err.status, str(err), {"Retry-After": str(err.retry_after)})
        except web.HTTPException as err:
            if err.status < 400:
                raise
            kept = {name: err.headers[name] for name in KEPT_HEADERS if name in err.headers}
            answer = refused(err.status, err.text or err.reason, kept)
            if err.status == web.HTTPRequestTimeout.status_code:
                answer.force_close()  # the rest of its body would be read as a request
            return answer
        except Exception:
            log.exception("the page's server failed on %s %s", request.method, request.path)
            return refused(500, "The server failed on this request; it has been logged.")

    return refuse


async def secure(request: web.Request, response: web.StreamResponse) -> None:
    """Every answer's headers (``on_response_prepare``: refusals too)."""
    response.headers.update(SECURITY_HEADERS)
    if request.path.startswith("/api/"):
        response.headers["Cache-Control"] = "no-store"


def _not_loopback(request: web.Request) -> str | None:
    """Why dev mode does not answer ``request`` (None: it does)."""
    host = request.headers.get("Host", "")
    if not _loopback_url(f"//{host}"):
        return f"dev mode answers loopback only (127.0.0.1, ::1, localhost), not the host {host!r}"
    origin = request.headers.get("Origin")
    if origin is not None and not _loopback_url(origin, schemes=("http", "https")):
        return f"dev mode answers pages on loopback only, not one from {origin!r}"
    return None


def _loopback_url(url: str, schemes: tuple[str, ...] = ("",)) -> bool:
    try:
        parts = urlsplit(url)
        parts.port  # noqa: B018 (a port that is no number raises ValueError)
    except ValueError:
        return False
    return parts.scheme in schemes and is_loopback(parts.hostname or "")


def is_loopback(host: str) -> bool:
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return host == "localhost"
