"""``python -m benchmarks.engine_speed``: random-playout and undo speed per game (one core)."""

from __future__ import annotations

import argparse
import random
import time

from engine import GAMES, new_game


def playout_speed(game_id: str, seconds: float) -> tuple[float, float]:
    """(legal-move generation + play per second, undo per second)."""
    rng = random.Random(1)
    moves = undos = 0
    move_time = undo_time = 0.0
    deal = 1
    while move_time + undo_time < seconds:
        game = new_game(game_id, deal)
        deal += 1
        start = time.perf_counter()
        for _ in range(300):
            legal = game.legal_moves()
            if not legal:
                break
            game.push(rng.choice(legal))
            moves += 1
        middle = time.perf_counter()
        while game.moves_made:
            game.pop()
            undos += 1
        end = time.perf_counter()
        move_time += middle - start
        undo_time += end - middle
    return moves / move_time, undos / undo_time


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.engine_speed",
                                     description=__doc__)
    parser.add_argument("--seconds", type=float, default=2.0, help="time per game")
    args = parser.parse_args()
    print(f"{'game':<22}{'moves/s (gen+play)':>20}{'undos/s':>14}")
    for game_id in GAMES:
        moves, undos = playout_speed(game_id, args.seconds)
        print(f"{game_id:<22}{moves:>20,.0f}{undos:>14,.0f}")


if __name__ == "__main__":
    main()
