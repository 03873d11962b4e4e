"""The layout as plain text, for terminals: every pile with the number a player types."""

from __future__ import annotations

from .game import Game


def plural(count: int, word: str) -> str:
    """``plural(1, "move")`` -> ``1 move``; ``plural(3, "move")`` -> ``3 moves``."""
    return f"{count} {word}" if count == 1 else f"{count} {word}s"


def status_line(game: Game) -> str:
    parts = [f"{game.name} — deal {game.deal}", plural(game.moves_made, "move")]
    if game.rules.redeals:
        parts.append(f"{plural(game.redeals_left, 'redeal')} left")
    if game.draw_rule:
        parts.append("draw used" if game.draw_used else "draw unused")
    if game.is_won:
        parts.append("WON!")
    elif game.is_stuck:
        parts.append("stuck: no legal move left")
    return " — ".join(parts)


def foundation_text(game: Game, f: int) -> str:
    spec = game.rules.foundations[f]
    pile = game.foundations[f]
    top = pile[-1].label if pile else "--"
    return f"f{f + 1} {spec.label} [{top}] {len(pile)}/{spec.size}"


def layout_text(game: Game) -> str:
    """Header, foundations, then one line per pile (bottom card first, top card last)."""
    lines = [status_line(game), ""]
    feeds = game.rules.feeds
    if feeds is None:
        lines.append("Foundations: " + "   ".join(
            foundation_text(game, f) for f in range(len(game.foundations))))
    lines.append("Piles (bottom ... top):")
    for i, pile in enumerate(game.tableau):
        name = game.pile_name(i)
        cards = " ".join(c.label for c in pile) if pile else "(empty)"
        line = f"{name:>8}: {cards}"
        if feeds is not None and len(feeds[i]) < len(game.foundations):
            line += "   -> " + ", ".join(foundation_text(game, f) for f in sorted(feeds[i]))
        lines.append(line)
    if feeds is not None:
        every = set(range(len(game.foundations)))
        anywhere = ", ".join(game.pile_name(p) for p, fed in enumerate(feeds) if fed == every)
        lines.append(f"Piles {anywhere} feed every foundation.")
    if game.rules.refillable:
        refill = ", ".join(game.pile_name(p) for p in sorted(game.rules.refillable))
        lines.append(f"Emptied, piles {refill} take the top card of any pile.")
    return "\n".join(lines)
