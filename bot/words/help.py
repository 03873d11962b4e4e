"""What a player reads beyond a board: each game's rules in short, and the bot's help.

The rules themselves live with each game in ``engine/rules.py`` (and in docs/RULES.md,
made from them); here they get Discord's Markdown. The console strips it.
"""

from __future__ import annotations

from engine import GAMES, BadSetup, check_setup
from engine.odds import odds_text
from engine.rulebook import example_move

from .phrases import code, refused


def rules_text(game_id: str) -> str:
    """The rules of one game, with how to type a move in it."""
    try:
        rules = check_setup(game_id)
    except BadSetup as err:
        return refused(err)
    src, dst, foundation = example_move(rules)
    word = rules.pile_word
    lines = [f"**{rules.name}** — {rules.intro}."]
    lines += [f"• {point}" for point in rules.summary]
    lines += ["", f"**Odds**: {odds_text(rules.id)}"]
    lines += [
        "",
        f"**Moves**: {code(f'/move {src} {dst}')} puts {word} {src}'s top card on {word} {dst}; "
        f"{code(f'/move {src} f{foundation}')} (or {code(f'{src} f')}) sends it to a "
        f"foundation; {code(f'/move {src}')} plays its only legal move. Or pick a move from "
        "the menu under the board.",
    ]
    return "\n".join(lines)


HELP_TEXT = (
    "**Solitaire** — five patience games, every card face up, one saved game per player.\n"
    "`/new game [deal] [winnable] [draw]` — deal a game (a deal number replays a shared deal; "
    "`winnable:True`: one the solver has won; `draw:True`: Trefoil's draw house rule)\n"
    "`/move from [to]` — `7 3`, `7 f2`, `7 f`, `7`; `from` lists the legal moves\n"
    "`/undo`, `/redo`, `/redeal` — take back, replay; shuffle and deal again\n"
    "`/hint` — the solver's next move, and whether it is part of a winning line; it plans "
    "with the redeals' shuffles too, which undo would show you anyway\n"
    "`/show`, `/resign` — post your board again; give up (asks first, counts as a loss)\n"
    "`/rules game` — how a game is played\n"
    "`/settings [private_boards] [four_colour] [auto_moves]` — boards only you see, the "
    "four-colour deck, safe moves by themselves (a card no card left could go on goes up)\n"
    "\n"
    "**Records**\n"
    "`/stats [user] [game] [scope]` — wins, streaks and bests: this server's, or all servers' "
    "(yours, shown to you alone)\n"
    "`/leaderboard [game] [period]` — this server's top ten and your place, ranked by the low "
    "end of the 95% Wilson interval on win rate\n"
    "`/daily game`, `/daily-board game [day]` — today's deal (UTC), the same for everyone, "
    "your first try scored; a day's winners here, fewest moves first\n"
    "Wins with hints are *assisted*: played, not won, on boards and in streaks.\n"
    "`/forget-me` — delete all your data (asks first); `/reset-server-stats` — Manage Server: "
    "clear this server's results\n"
    "\n"
    "**Buttons**: Undo, Redo, To foundations (every card that can go up; Undo takes them back "
    "one by one), Redeal, Hint, Auto-finish (once every card left can go straight up) and the "
    "move menu (past 25 moves: pick a pile, then its move). Only the game's player can press "
    "them. The board says when the solver proves no win is possible. A new game over an "
    "unfinished one asks first and counts the old one as abandoned; leaving a stuck one, "
    "lost.\n"
    f"Games: {', '.join(GAMES.values())}."
)
