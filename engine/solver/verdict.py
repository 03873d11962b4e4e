"""What a search says of a position: the solver's verdict.

A ``StrEnum``: a verdict crosses the pipe to the bot's processes and is logged and written
as JSON, and reads as its word (``"won"``) everywhere. Plain Python beside the compiled
search (setup.py), which returns it.
"""

from __future__ import annotations

from enum import StrEnum


class Verdict(StrEnum):
    """``solve`` answers one of the first three (``Solution.status``)."""

    WON = "won"  # a line to the win is known
    LOST = "lost"  # proven: no sequence of legal moves wins
    UNKNOWN = "unknown"  # out of time or positions first; a larger budget may still decide
    # Within one deal only (``Search(within_deal=True)``, never from ``solve``): every line
    # of the deal seen and none wins inside it (``best_line`` puts the most cards up).
    EXHAUSTED = "exhausted"
    # ``Search.run(until=...)`` only: stopped at its position count; ``run()`` goes on.
    PAUSED = "paused"
