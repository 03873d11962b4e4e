"""``python -m tools.solver stats GAME --deals 1-1000 --budget 2``: winnability figures.

``stats all --markdown`` runs every game and adds the table for the README. Also
``solve GAME --deal N`` (print a winning line), ``hint GAME --deal N
[--moves "7 3,5 f2"]`` and ``blind GAME --games 2000``: the odds of a player who never
undoes a redeal (the policy is in ``engine/solver/blind.py``); ``hinted GAME --games
300``: the odds of a player who follows every hint (``tools/solver/hinted.py``).
``hintlines GAME --count 100``: how many moves following the hints takes, before and
after lines were tidied (``tools/solver/hintlines.py``). ``daily [GAME] --day
2026-11-25 --days 30 [--secret S]``: the daily deals, proven winnable, under a database's
secret (``engine/solver/daily.py``).
Every command takes ``--positions N`` instead of seconds: the same answers on every
machine. Run from a checkout: the maintainers' tool, not installed with the bot.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from datetime import UTC, date, datetime, timedelta

from engine import GAMES, RULES, new_game
from engine.solver import hint, solve
from engine.solver.daily import DAILY_POSITIONS, DailyDeal, find_daily_deal

from . import hintlines
from .blind_odds import BlindGame, blind_odds
from .hinted import HINT_POSITIONS, hinted_odds
from .stats import DealResult, PerDeal, markdown_table, run

POSITIONS_HELP = "positions per {} instead of seconds: the same answers on every machine"


def _deal_range(text: str) -> range:
    first, _, last = text.partition("-")
    try:
        start = int(first)
        end = int(last) if last else start
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a deal range like 1-1000") from None
    if start < 1 or end < start:
        raise argparse.ArgumentTypeError(f"{text!r} is not a deal range like 1-1000")
    return range(start, end + 1)


def _day(text: str) -> date:
    try:
        return date.fromisoformat(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a day like 2026-11-25") from None


def daily_deals(game_ids: list[str], first: date, days: int, secret: str = "") -> None:
    """Print each day's deal of each game under ``secret``, then how often a day kept its
    first candidate (with no secret: the deal it had before deals were proven) and how
    long finding one took."""
    found: dict[str, list[tuple[DailyDeal, float]]] = {g: [] for g in game_ids}
    for n in range(days):
        day = first + timedelta(days=n)
        for game_id in game_ids:
            started = time.perf_counter()
            deal = find_daily_deal(game_id, day, secret=secret)
            seconds = time.perf_counter() - started
            found[game_id].append((deal, seconds))
            print(f"{day} {game_id}: deal {deal.deal} (candidate {deal.candidate}, "
                  f"{deal.positions:,} positions, {1000 * seconds:.1f} ms)", flush=True)
    if days > 1:
        print()
        for game_id, results in found.items():
            kept = sum(1 for deal, _ in results if deal.candidate == 0)
            times = [seconds for _, seconds in results]
            print(f"{game_id}: first candidate kept on {kept} of {days} days; "
                  f"{DAILY_POSITIONS[game_id]:,} positions a candidate; time a day: median "
                  f"{1000 * statistics.median(times):.1f} ms, worst {1000 * max(times):.1f} ms")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tools.solver", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)
    stats = sub.add_parser("stats", help="solve a range of deals; print won/lost/unknown and times")
    stats.add_argument("game", choices=[*sorted(GAMES), "all"])
    stats.add_argument("--deals", type=_deal_range, default=range(1, 1001))
    stats.add_argument("--markdown", action="store_true", help="also print a markdown table")
    stats.add_argument("--budget", type=float, default=2.0, help="seconds per deal")
    stats.add_argument("--positions", type=int, help=POSITIONS_HELP.format("deal"))
    stats.add_argument("--jobs", type=int, default=1, help="processes (each solve uses one core)")
    stats.add_argument(
        "--retry", type=float, metavar="SECONDS",
        help="solve the deals left undecided again with this many seconds each",
    )
    stats.add_argument(
        "--retry-positions", type=int, metavar="N",
        help="solve the deals left undecided again with this many positions each",
    )
    stats.add_argument("-v", "--verbose", action="store_true", help="one line per deal")
    blind = sub.add_parser("blind", help="odds for a player who never undoes a redeal")
    blind.add_argument("game", choices=sorted(g for g in GAMES if RULES[g].redeals))
    blind.add_argument("--games", type=int, default=2000, help="deals 1 to this")
    blind.add_argument("--budget", type=float, default=1.0, help="seconds per search")
    blind.add_argument("--positions", type=int, help=POSITIONS_HELP.format("search"))
    blind.add_argument("--jobs", type=int, default=1, help="processes")
    blind.add_argument("-v", "--verbose", action="store_true", help="one line per game")
    hinted = sub.add_parser("hinted", help="odds for a player who follows every hint")
    hinted.add_argument("game", choices=sorted(g for g in GAMES if RULES[g].redeals))
    hinted.add_argument("--games", type=int, default=300, help="deals 1 to this")
    hinted.add_argument("--positions", type=int, default=HINT_POSITIONS,
                        help="positions per hint after the last redeal")
    hinted.add_argument("--jobs", type=int, default=1, help="processes")
    hinted.add_argument("-v", "--verbose", action="store_true", help="one line per game")
    lines = sub.add_parser("hintlines", help="moves to the win following the hints, before/after")
    lines.add_argument("game", choices=[*sorted(GAMES), "all"])
    lines.add_argument("--count", type=int, default=100, help="winnable deals, from deal 1")
    lines.add_argument("--positions", type=int, default=100_000, help="positions per search")
    lines.add_argument("--jobs", type=int, default=1, help="processes")
    lines.add_argument("--markdown", action="store_true", help="also print a markdown table")
    lines.add_argument("-v", "--verbose", action="store_true", help="one line per deal")
    daily = sub.add_parser("daily", help="the daily deals of a day, proven winnable")
    daily.add_argument("game", nargs="?", default="all", choices=[*sorted(GAMES), "all"])
    daily.add_argument("--day", type=_day, help="the first day (UTC; default today)")
    daily.add_argument("--days", type=int, default=1, help="days from that one")
    daily.add_argument("--secret", default="",
                       help="a database's daily secret (meta.daily_secret; default: none)")
    for name in ("solve", "hint"):
        one = sub.add_parser(name, help=f"{name} one position")
        one.add_argument("game", choices=sorted(GAMES))
        one.add_argument("--deal", type=int, required=True)
        one.add_argument("--moves", default="", help='moves to play first: "7 3,5 f2"')
        one.add_argument("--budget", type=float, default=2.0 if name == "solve" else 1.0)
        one.add_argument("--positions", type=int, help=POSITIONS_HELP.format("search"))
    args = parser.parse_args(argv)

    if args.command == "stats":
        def show(result: DealResult) -> None:
            if args.verbose:
                print(
                    f"deal {result.deal}: {result.status} in {1000 * result.seconds:.1f} ms, "
                    f"{result.positions} positions, {result.moves} moves",
                    flush=True,
                )

        games = list(GAMES) if args.game == "all" else [args.game]
        budget = PerDeal(args.budget, args.positions)
        retry = None
        if args.retry is not None or args.retry_positions is not None:
            retry = PerDeal(args.retry or 0.0, args.retry_positions)
        summaries = []
        for game_id in games:
            summary = run(
                game_id, args.deals, budget, jobs=args.jobs, progress=show, retry=retry
            )
            print(summary.text(), flush=True)
            summaries.append(summary)
        if args.markdown:
            print()
            print(markdown_table(summaries))
        return 0

    if args.command in ("blind", "hinted"):
        def shown(result: BlindGame) -> None:
            if args.verbose:
                print(f"deal {result.deal}: {'won' if result.won else 'lost'}, "
                      f"{result.cards_up} up", flush=True)

        deals = range(1, args.games + 1)
        if args.command == "blind":
            odds = blind_odds(args.game, deals, args.budget, positions=args.positions,
                              jobs=args.jobs, progress=shown)
        else:
            odds = hinted_odds(args.game, deals, positions=args.positions, jobs=args.jobs,
                               progress=shown)
        print(odds.text())
        return 0

    if args.command == "daily":
        first = args.day or datetime.now(UTC).date()
        daily_deals(list(GAMES) if args.game == "all" else [args.game], first, args.days,
                    args.secret)
        return 0

    if args.command == "hintlines":
        def followed(line: hintlines.HintedLine) -> None:
            if args.verbose:
                print(f"deal {line.deal}: {line.before} moves before, {line.moves} after "
                      f"in {line.hints} hints", flush=True)

        results = {}
        for game_id in list(GAMES) if args.game == "all" else [args.game]:
            results[game_id] = hintlines.run(
                game_id, args.count, args.positions, jobs=args.jobs, progress=followed
            )
            print(hintlines.text(game_id, results[game_id], args.positions), flush=True)
        if args.markdown:
            print()
            print(hintlines.markdown_table(results))
        return 0

    game = new_game(args.game, args.deal)
    for text in filter(None, (t.strip() for t in args.moves.split(","))):
        game.play(text)
    if args.command == "solve":
        solution = solve(game, budget_s=args.budget, positions=args.positions)
        print(
            f"{solution.status} after {solution.positions} positions "
            f"in {1000 * solution.seconds:.1f} ms; best {solution.cards_up} cards up"
        )
        if solution.moves:
            print(", ".join(solution.moves))
    else:
        advice = hint(game, budget_s=args.budget, positions=args.positions)
        print(f"{advice.move}: {advice.note}")
        sampled = (None if advice.shuffles is None
                   else f"{advice.shuffles_won} of {advice.shuffles}")
        facts = {"action": advice.action, "moves left": advice.moves_left,
                 "undo to win": advice.undo_to_win, "shuffles won": sampled}
        known = [f"{name}: {value}" for name, value in facts.items() if value is not None]
        if known:
            print("; ".join(known))
    return 0


if __name__ == "__main__":
    sys.exit(main())
