"""How much the page's server answers any one client: token buckets, and whose address a
request comes from.

- **Per player** (``PER_PLAYER``): every ``/api/*`` request after sign-in and each socket
  opened, all of a player's sessions together. The page asks one thing at a time; a quick
  hand drops a few cards a second. Past the bucket: 429 with ``Retry-After``.
- **Sign-ins per address** (``SIGN_INS_PER_ADDRESS``): by the address the player's requests
  come from (``client_address``). Inside Discord every request reaches the server through
  Discord's proxy (and most often the operator's own reverse proxy before it), so the peer's
  address is a proxy's, shared by every player: ``X-Forwarded-For`` is believed only from a
  peer listed in ``WEB_TRUSTED_PROXIES``, and without that setting no limit by address is
  kept at all (one player would use up everyone's share).
- **Held refusals**: a 429 (or 503) is answered after up to ``HOLD_S``, so that a client that
  never waits costs the server a request a second per connection, not thousands.
- **Sign-ins reaching Discord** (``SIGN_INS_TO_DISCORD``): every code exchanged at Discord's
  ``/oauth2/token``, for everyone together (``signin.py``), well within what a host may send
  Discord before it is refused or banned; and a 429 of Discord's there is honoured.

Each bucket keeps at most ``KEYS`` players or addresses, the least recently seen forgotten
first (a forgotten one starts again with a full bucket).
"""

from __future__ import annotations

import ipaddress
import math
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from engine.lru import LRU

from ..config import Network

KEYS = 10_000  # players or addresses kept per bucket: about 1 MB at most


@dataclass(frozen=True)
class Rate:
    """``burst`` at once, then ``per_s`` a second."""

    per_s: float
    burst: int


PER_PLAYER = Rate(per_s=10, burst=40)
SIGN_INS_PER_ADDRESS = Rate(per_s=1 / 6, burst=10)  # a household's players opening it a few times
SIGN_INS_TO_DISCORD = Rate(per_s=5, burst=20)  # 300 sign-ins a minute, from every address
# A request past its share is answered after this long (or its Retry-After, if sooner): a
# client asking again at once, one request at a time on each connection, then gets about one
# answer a second a connection. Answered at once, the 429s alone took one flooding client
# 5,000-8,700 answers a second, most of a core (benchmarks.web_flood; docs/SPEED.md).
HOLD_S = 1.0


class TryLater(Exception):
    """Too much asked for now: answered ``status`` (429: this client's share is used up;
    503: everyone's) with ``Retry-After``."""

    def __init__(self, why: str, retry_after_s: float, status: int = 429) -> None:
        super().__init__(why)
        self.retry_after_s = retry_after_s
        self.status = status

    @property
    def retry_after(self) -> int:
        """Whole seconds, as ``Retry-After`` says them: at least one."""
        return max(1, math.ceil(self.retry_after_s))


class Buckets:
    """A token bucket per key (``rate``), for at most ``keys`` keys."""

    def __init__(self, rate: Rate, *, keys: int = KEYS,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.rate = rate
        self._clock = clock
        self._buckets: LRU[object, tuple[float, float]] = LRU(keys)  # key -> tokens, when

    def take(self, key: object) -> float:
        """0 if ``key`` may go now (and it took its token), else the seconds until it may."""
        now = self._clock()
        tokens, then = self._buckets.get(key) or (float(self.rate.burst), now)
        tokens = min(float(self.rate.burst), tokens + (now - then) * self.rate.per_s)
        if tokens >= 1:
            self._buckets[key] = (tokens - 1, now)
            return 0.0
        self._buckets[key] = (tokens, now)
        return (1 - tokens) / self.rate.per_s if self.rate.per_s > 0 else math.inf

    def __len__(self) -> int:
        return len(self._buckets)


def client_address(peer: str | None, forwarded: Iterable[str],
                   trusted: tuple[Network, ...]) -> str | None:
    """Whose address a request is, to limit it by: None without trusted proxies (then every
    request came from a proxy's address, which tells players apart from none). Else the
    peer's, or, while the address reached is a trusted proxy's, the one it forwarded before
    it (``forwarded``: the ``X-Forwarded-For`` headers, each a list with commas, its last
    entry the one the nearest proxy added)."""
    if not trusted:
        return None
    hops = [hop.strip() for header in forwarded for hop in header.split(",")]
    address = _address(peer)
    while address is not None and hops and any(address in net for net in trusted):
        earlier = _address(hops.pop())
        if earlier is None:  # not an address: the proxy's own is the last one known
            break
        address = earlier
    return None if address is None else str(address)


def _address(text: str | None) -> ipaddress.IPv4Address | ipaddress.IPv6Address | None:
    try:
        return ipaddress.ip_address(text or "")
    except ValueError:
        return None
