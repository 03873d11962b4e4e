"""What a player reads beyond a board: each game's rules in short, and the bot's help.

The rules themselves live with each game in ``engine/rules.py`` (and in docs/RULES.md,
made from them), in English and marked for the catalog; here they are translated and get
Discord's Markdown. The console strips it.
"""

from __future__ import annotations

from engine import GAMES, BadSetup, check_setup
from engine.odds import odds_text
from engine.rulebook import example_move

from .language import _
from .phrases import code, command, refused, spoken


def rules_text(game_id: str) -> str:
    """The rules of one game, with how to type a move in it."""
    try:
        rules = check_setup(game_id)
    except BadSetup as err:
        return refused(err)
    src, dst, foundation = example_move(rules)
    lines = [_("**{game}** — {intro}.", game=rules.name, intro=_(rules.intro))]
    lines += [f"• {_(point)}" for point in rules.summary]
    odds = " ".join(spoken(sentence) for sentence in odds_text(rules.id))
    lines += ["", _("**Odds**: {odds}", odds=odds)]
    facts = {
        "src": src,
        "dst": dst,
        "to_pile": command("move", f"{src} {dst}"),
        "to_foundation": command("move", f"{src} f{foundation}"),
        "short": code(f"{src} f"),
        "only": command("move", str(src)),
    }
    if rules.pile_word == "stack":
        moves = _(
            "**Moves**: {to_pile} puts stack {src}'s top card on stack {dst}; {to_foundation} "
            "(or {short}) sends it to a foundation; {only} plays its only legal move. Or pick "
            "a move from the menu under the board.", **facts,
        )
    else:
        moves = _(
            "**Moves**: {to_pile} puts pile {src}'s top card on pile {dst}; {to_foundation} "
            "(or {short}) sends it to a foundation; {only} plays its only legal move. Or pick "
            "a move from the menu under the board.", **facts,
        )
    lines += ["", moves]
    return "\n".join(lines)


HELP_TEXT = (
    "**Solitaire** — five patience games, every card face up, one saved game per player.\n"
    "`/new game [deal] [winnable] [draw]` — deal a game (a deal number replays a shared deal; "
    "`winnable:True`: one the solver has won; `draw:True`: Trefoil's draw house rule)\n"
    "`/move from [to]` — `7 3`, `7 f2`, `7 f`, `7`; `from` lists the legal moves\n"
    "`/undo`, `/redo`, `/redeal` — take back, replay; shuffle and deal again\n"
    "`/hint` — the solver's next step, and how many moves its winning line has left\n"
    "`/show`, `/resign` — post your board again; give up (asks first, counts as a loss)\n"
    "`/rules game` — how a game is played\n"
    "`/settings` — boards only you see, the four-colour deck, safe moves by themselves\n"
    "\n"
    "**Records**\n"
    "`/stats [user] [game] [scope]` — wins, streaks and bests, here or everywhere (yours, "
    "to you alone)\n"
    "`/leaderboard [game] [period]` — this server's top ten and your place, ranked fairly "
    "(the low end of the 95% Wilson interval on win rate)\n"
    "`/daily game`, `/daily-board game [day]` — the day's deal (UTC), proven winnable, your "
    "first try scored; a day's winners here\n"
    "Wins with hints are *assisted*: played, not won, on boards and in streaks.\n"
    "`/challenge user game` — the same winnable deal for you both; the better result wins\n"
    "`/replay [user]` — a game move by move, as an animation for the channel\n"
    "`/forget-me` — delete your data; `/reset-server-stats` — clear this server's results "
    "(Manage Server)\n"
    "\n"
    "**Buttons**: Undo, Redo, To foundations, Redeal, Hint, Auto-finish (once every card "
    "left can go straight up) and a menu of legal moves (past 25: a pile, then its move). "
    "Leaving an unfinished game asks first and counts it as abandoned (one never moved in "
    "counts for nothing); a stuck one, lost.\n"
    f"Games: {', '.join(GAMES.values())}."
)
