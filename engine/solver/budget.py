"""What one answer of the solver may spend: seconds of wall-clock time, or positions.

A player waits for a hint, so the bot bounds its searches by the clock. A budget of
positions bounds them by the work done instead, and then the answer depends on nothing
else: the clock is never consulted, and a fast machine or a slow one, compiled or plain
Python, search the same positions and say the same. Tests use it, and so can anything
that must decide alike everywhere (the daily deal).

Every search of one answer draws on one budget: the passes one after another, the
searches that take turns, the shortening of a won line, a hint's plan within the deal.
Each search is given what is left (``left``) and its positions are charged as it goes
(``charge``), so a budget of positions is never overspent, not even by one.
"""

from __future__ import annotations

import copy
import math
import time

from .search import UNLIMITED


class _Tally:
    """Positions searched so far, shared by a budget and the parts kept from it."""

    def __init__(self) -> None:
        self.count = 0


class Budget:
    """``seconds`` of wall-clock time from now, or, when ``positions`` is given, that
    many positions and no clock at all."""

    def __init__(self, seconds: float, positions: int | None = None) -> None:
        if positions is not None and positions < 0:
            raise ValueError("a budget of positions is a count: 0 or more")
        self.seconds = seconds
        self.positions = positions
        self.deadline = math.inf if positions is not None else time.perf_counter() + seconds
        self._cap = UNLIMITED if positions is None else positions
        self._tally = _Tally()

    @property
    def counted(self) -> bool:
        """Whether this budget is positions (the answer is the same on every machine)."""
        return self.positions is not None

    @property
    def spent(self) -> bool:
        """Nothing is left: past the deadline, or every position searched."""
        if self.positions is None:
            return time.perf_counter() >= self.deadline
        return self._tally.count >= self._cap

    @property
    def searched(self) -> int:
        """Positions charged so far, to this budget and to any kept from the same one."""
        return self._tally.count

    def left(self) -> int:
        """Positions a search may still take (on the clock, UNLIMITED: its deadline is
        ``deadline``)."""
        return max(0, self._cap - self._tally.count)

    def charge(self, positions: int) -> None:
        """Count ``positions`` searched against this budget (and any it was kept from)."""
        self._tally.count += positions

    def keeping(self, share: float) -> Budget:
        """This budget less ``share`` of the whole, kept back for a later search: the
        deadline that much sooner, or that many fewer positions (rounded down, so the
        same on every machine). Both draw on one count of positions searched."""
        kept = copy.copy(self)  # the same tally
        kept.deadline -= self.seconds * share
        if self.positions is not None:
            kept._cap -= int(self.positions * share)
        return kept

    def rest(self, least_share: float) -> Budget:
        """What is left for a last search after the one a share was kept from. A count
        is never overspent, so positions go on as they are; on the clock, at least
        ``least_share`` of the whole, since a search may overrun its deadline a little
        and the last one must still have its time."""
        if self.positions is not None:
            return self
        return Budget(max(self.deadline - time.perf_counter(), self.seconds * least_share))
