"""``python -m render trefoil --deal 42 --moves "7 3,5 f2" -o board.png``: draw one position."""

from __future__ import annotations

import argparse
import sys

from engine import GAMES, IllegalMove, Move, new_game

from .alt_text import alt_text
from .board import render_png
from .options import PictureOptions
from .words import english_plural


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m render", description="Draw a game's board as a PNG."
    )
    parser.add_argument("game", choices=sorted(GAMES), help="which game")
    parser.add_argument("--deal", type=int, default=1, help="deal number (default 1)")
    parser.add_argument(
        "--moves", default="", help='moves to play first, comma-separated: "7 3,5 f2,redeal"'
    )
    parser.add_argument("--draw", action="store_true", help="Trefoil's draw house rule on")
    parser.add_argument(
        "--four-colour", action=argparse.BooleanOptionalAction, default=True,
        help="clubs green, diamonds blue, as the bot deals by default; --no-four-colour: red "
             "and black",
    )
    parser.add_argument("--no-win", action="store_true", help='the "no win is possible" banner')
    parser.add_argument("--assisted", action="store_true", help="a win counts as won with hints")
    parser.add_argument("--resigned", action="store_true", help="the player gave the game up")
    parser.add_argument("--alt", action="store_true", help="also print the picture's alt text")
    parser.add_argument("-o", "--output", default="board.png", help="PNG file to write")
    args = parser.parse_args(argv)
    try:
        game = new_game(args.game, args.deal, draw=args.draw)
    except ValueError as err:
        parser.error(str(err))
    last: Move | None = None
    for number, text in enumerate(filter(None, (t.strip() for t in args.moves.split(","))), 1):
        try:
            last = game.play(text)
        except IllegalMove as err:
            print(f"move {number} ({text!r}): {err}", file=sys.stderr)
            return 2
    options = PictureOptions(four_colour=args.four_colour, no_win=args.no_win,
                             assisted=args.assisted, resigned=args.resigned)
    png = render_png(game, last_move=last, options=options)
    with open(args.output, "wb") as out:
        out.write(png)
    state = (" (won)" if game.is_won else " (resigned)" if args.resigned
             else " (stuck)" if game.is_stuck else "")
    moves = english_plural("{count} move", "{count} moves", game.moves_made)
    kb = len(png) // 1024
    print(f"{args.output}: {game.name} deal {game.deal_number}, {moves}{state}, {kb} KB")
    if args.alt:
        print(alt_text(game, options))
    return 0


if __name__ == "__main__":
    sys.exit(main())
