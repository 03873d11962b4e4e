"""How often each game can be won: the figures the solver measured, kept in one place.

``/rules`` tells them, and the tables in README.md and engine/solver/ODDS.md are made
from them (tests/engine/test_odds.py keeps all three equal). The commands that measured
them, how long they ran and what stays undecided are in ODDS.md.

Two kinds, for two kinds of player:

- *perfect play*: every redeal's shuffle known (a player sees it by redealing and
  undoing), which is what ``engine.solver.solve`` answers; "lost" is proven;
- *blind*: a player who never undoes a redeal, playing the policy stated in
  engine/solver/blind.py, with its 95% Wilson interval (redeal games only).
"""

from __future__ import annotations

from dataclasses import dataclass

from .rules import GAMES
from .words import Figure, Phrase


@dataclass(frozen=True)
class PerfectPlay:
    deals: int  # deals 1 to this
    won: int
    lost: int

    @property
    def undecided(self) -> int:
        return self.deals - self.won - self.lost


@dataclass(frozen=True)
class Blind:
    games: int  # deals 1 to this
    won: int
    low: float  # 95% Wilson interval, as shares
    high: float


PERFECT_PLAY: dict[str, PerfectPlay] = {
    "clover-leaf": PerfectPlay(5000, 1046, 3949),
    "four-leaf-clovers": PerfectPlay(10000, 6850, 3134),
    "super-flower-garden": PerfectPlay(10000, 9991, 0),
    "trefoil": PerfectPlay(10000, 10000, 0),
    "corner-stones": PerfectPlay(10000, 9992, 7),
}

BLIND: dict[str, Blind] = {
    "trefoil": Blind(2000, 420, 0.193, 0.228),
    "super-flower-garden": Blind(2000, 998, 0.477, 0.521),
}


def percent(part: int, whole: int) -> str:
    """``part`` of ``whole`` as the tables write it: ``20.9%``, ``0.09%``, ``100%``."""
    return str(_share(part, whole))


def odds_text(game_id: str) -> tuple[Phrase, ...]:
    """One or two sentences for /rules, as phrases the bot words in a player's language."""
    perfect = PERFECT_PLAY[game_id]
    won, deals = _share(perfect.won, perfect.deals), Figure(perfect.deals)
    undecided = _share(perfect.undecided, perfect.deals)
    if game_id not in BLIND:
        if perfect.undecided:
            return (Phrase(
                "With perfect play, {won} of deals can be won (deals 1–{deals}, {undecided} "
                "not yet decided).", won=won, deals=deals, undecided=undecided,
            ),)
        return (Phrase("With perfect play, {won} of deals can be won (deals 1–{deals}).",
                       won=won, deals=deals),)
    if perfect.undecided:
        sentence = Phrase(
            "With perfect play, every shuffle known, {won} of deals can be won (deals "
            "1–{deals}, {undecided} not yet decided).", won=won, deals=deals, undecided=undecided,
        )
    else:
        sentence = Phrase(
            "With perfect play, every shuffle known, {won} of deals can be won (deals "
            "1–{deals}).", won=won, deals=deals,
        )
    blind = BLIND[game_id]
    return sentence, Phrase(
        "A player who never undoes a redeal wins about {won} ({confidence} interval "
        "{low}–{high}).", won=_share(blind.won, blind.games),
        confidence=Figure(0.95, percent=True), low=Figure(100 * blind.low, 1),
        high=Figure(blind.high, 1, percent=True),
    )


def _share(part: int, whole: int) -> Figure:
    """``part`` of ``whole``, with one decimal (two below 0.1%, none for 0% and 100%)."""
    share = 100 * part / whole
    places = 0 if share in (0, 100) else 2 if share < 0.1 else 1
    return Figure(part / whole, places, percent=True)


def perfect_play_table() -> str:
    """The Markdown table of README.md and ODDS.md."""
    lines = ["| Game | Deals | Won | Lost (proven) | Undecided |", "|---|---|---|---|---|"]
    for game_id, name in GAMES.items():
        p = PERFECT_PLAY[game_id]
        lines.append(
            f"| {name} | 1–{p.deals:,} | {p.won:,} ({percent(p.won, p.deals)}) | "
            f"{p.lost:,} ({percent(p.lost, p.deals)}) | "
            f"{p.undecided:,} ({percent(p.undecided, p.deals)}) |"
        )
    return "\n".join(lines)


def blind_table() -> str:
    lines = ["| Game | Games | Won | 95% interval |", "|---|---|---|---|"]
    for game_id, b in BLIND.items():
        lines.append(
            f"| {GAMES[game_id]} | {b.games:,} | {b.won:,} ({percent(b.won, b.games)}) | "
            f"{100 * b.low:.1f}–{100 * b.high:.1f}% |"
        )
    return "\n".join(lines)


__all__ = ["BLIND", "PERFECT_PLAY", "blind_table", "odds_text", "perfect_play_table"]
