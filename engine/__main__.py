"""``python -m engine show GAME --deal N``, ``python -m engine play GAME --deal N`` and
``python -m engine rules`` (the rules document, docs/RULES.md)."""

from __future__ import annotations

import argparse
import sys
from typing import TextIO

from . import GAMES, MAX_DEAL, IllegalMove, new_game
from .game import Game
from .rulebook import document
from .text import layout_text

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


if __name__ == "__main__":
    sys.exit(main())
