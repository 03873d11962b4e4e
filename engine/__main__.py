"""``python -m engine show GAME --deal N``, ``python -m engine play GAME --deal N`` and
``python -m engine rules`` (the rules document, docs/RULES.md).

A deal in a terminal, in plain English: every pile with the number a player types. The
bot words its boards in the player's language (``bot/flows/boards.py``); this is for
trying the engine alone, without the bot.
"""

from __future__ import annotations

import argparse
import sys
from typing import TextIO

from . import GAMES, MAX_DEAL, IllegalMove, new_game
from .game import Game
from .rulebook import document

PLAY_HELP = """Type a move as in Discord's /move: 7 3 (pile 7 onto pile 3), 7 f2 or 7 f
(to a foundation), 7 (its only legal move), redeal.
Also: moves (list legal moves), undo, redo, show, help, quit."""


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m engine", description="Play patience in a terminal."
    )
    sub = parser.add_subparsers(dest="command", required=True)
    sub.add_parser("rules", help="print the rules of every game (docs/RULES.md)")
    for name, what in (("show", "print a deal's layout"), ("play", "play a deal")):
        p = sub.add_parser(name, help=what)
        p.add_argument("game", choices=list(GAMES))
        p.add_argument("--deal", type=int, default=1, help=f"deal number, 1 to {MAX_DEAL}")
        p.add_argument("--draw", action="store_true", help="Trefoil's 'and a Draw' house rule")
    args = parser.parse_args(argv)
    if args.command == "rules":
        sys.stdout.write(document())
        return 0
    try:
        game = new_game(args.game, args.deal, draw=args.draw)
    except ValueError as err:
        parser.error(str(err))
    if args.command == "show":
        print(layout_text(game))
        return 0
    return play(game, sys.stdin, sys.stdout)


def play(game: Game, stdin: TextIO, stdout: TextIO) -> int:
    """A read-move-print loop; returns 0 when the game ends or the player quits."""

    def say(text: str) -> None:
        print(text, file=stdout, flush=True)

    say(layout_text(game))
    say("\n" + PLAY_HELP)
    while True:
        stdout.write("\nmove> ")
        stdout.flush()
        line = stdin.readline()
        if not line:
            say("")
            return 0
        text = line.strip().lower()
        if not text:
            continue
        if text in ("quit", "q", "exit"):
            return 0
        if text in ("help", "?"):
            say(PLAY_HELP)
            continue
        if text == "moves":
            say("Legal moves: " + (", ".join(map(str, game.legal_moves())) or "none"))
            continue
        if text == "show":
            say(layout_text(game))
            continue
        try:
            if text == "undo":
                say(f"Undid {game.undo()}.")
            elif text == "redo":
                say(f"Redid {game.redo()}.")
            else:
                say(f"Played {game.play(text)}.")
        except IllegalMove as err:
            say(str(err))
            continue
        say(layout_text(game))
        if game.is_won:
            say(f"\nYou won in {game.moves_made} moves!")
            return 0
        if game.is_stuck:
            say("\nNo legal move is left: the game is lost. undo to try another way, or quit.")


def _plural(count: int, word: str) -> str:
    return f"{count} {word}" if count == 1 else f"{count} {word}s"


def _status_line(game: Game) -> str:
    parts = [f"{game.name} — deal {game.deal_number}", _plural(game.moves_made, "move")]
    if game.rules.redeals:
        parts.append(f"{_plural(game.redeals_left, 'redeal')} left")
    if game.draw_rule:
        parts.append("draw used" if game.draw_used else "draw unused")
    if game.is_won:
        parts.append("WON!")
    elif game.is_stuck:
        parts.append("stuck: no legal move left")
    return " — ".join(parts)


def _foundation_text(game: Game, f: int) -> str:
    spec = game.rules.foundations[f]
    pile = game.foundations[f]
    top = pile[-1].label if pile else "--"
    return f"f{f + 1} {spec.label} [{top}] {len(pile)}/{spec.size}"


def layout_text(game: Game) -> str:
    """Header, foundations, then one line per pile (bottom card first, top card last)."""
    lines = [_status_line(game), ""]
    feeds = game.rules.feeds
    if feeds is None:
        lines.append("Foundations: " + "   ".join(
            _foundation_text(game, f) for f in range(len(game.foundations))))
    lines.append("Piles (bottom ... top):")
    for i, pile in enumerate(game.tableau):
        name = game.pile_name(i)
        cards = " ".join(c.label for c in pile) if pile else "(empty)"
        line = f"{name:>8}: {cards}"
        if feeds is not None and len(feeds[i]) < len(game.foundations):
            line += "   -> " + ", ".join(_foundation_text(game, f) for f in sorted(feeds[i]))
        lines.append(line)
    if feeds is not None:
        every = set(range(len(game.foundations)))
        anywhere = ", ".join(game.pile_name(p) for p, fed in enumerate(feeds) if fed == every)
        lines.append(f"Piles {anywhere} feed every foundation.")
    if game.rules.refillable:
        refill = ", ".join(game.pile_name(p) for p in sorted(game.rules.refillable))
        lines.append(f"Emptied, piles {refill} take the top card of any pile.")
    return "\n".join(lines)


if __name__ == "__main__":
    sys.exit(main())
