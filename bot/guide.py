"""What a player reads: each game's rules in short, and the bot's help.

The rules follow ../shared/RULES.md (the authority); this is the same content in a few
lines a player reads before a first game. Plain Markdown, for Discord and the console.
"""

from __future__ import annotations

from engine import GAMES

MOVE_TEXT = (
    "**Moves**: `/move 7 3` puts pile 7's top card on pile 3; `/move 7 f2` (or `7 f`) sends it "
    "to a foundation; `/move 7` plays its only legal move. Or pick a move from the menu under "
    "the board."
)

RULES_TEXT: dict[str, str] = {
    "clover-leaf": (
        "**Clover Leaf** — one deck, every card face up.\n"
        "• The foundations start with A♦ and A♥ (f1, f2: build **up** by suit to K) and K♣ and "
        "K♠ (f3, f4: build **down** by suit to A).\n"
        "• The other 48 cards lie in 16 piles of 3. Only a pile's top card moves.\n"
        "• On the piles a card goes on a card of **its own suit** one rank **higher or lower** "
        "(A and K are not neighbours). An emptied pile stays empty.\n"
        "• No redeals. You win when all 52 cards are on the foundations."
    ),
    "four-leaf-clovers": (
        "**Four Leaf Clovers** — one deck in 13 piles of 4, every card face up.\n"
        "• One foundation, f1: it starts with any Ace and builds **up regardless of suit**, "
        "K going round to A, until it holds all 52 cards.\n"
        "• On the piles a card goes on any card one rank **higher or lower**, any suit; "
        "A and K are neighbours. An emptied pile stays empty.\n"
        "• No redeals."
    ),
    "super-flower-garden": (
        "**Super Flower Garden** — one deck: 17 piles of 3 and one of 1, every card face up.\n"
        "• Four empty foundations, f1 ♣, f2 ♦, f3 ♥, f4 ♠, each built **up by suit from A "
        "to K**.\n"
        "• On the piles a card goes on any card exactly one rank **higher** (any suit). "
        "An emptied pile stays empty.\n"
        "• **Two redeals**, whenever you like: the pile cards are gathered, shuffled and dealt "
        "again in threes (`/redeal` or the Redeal button). Timing them is the skill."
    ),
    "trefoil": (
        "**Trefoil** — one deck, every card face up.\n"
        "• The four Aces start on the foundations (f1 ♣, f2 ♦, f3 ♥, f4 ♠), each built **up "
        "by suit** to K.\n"
        "• The other 48 cards lie in 16 piles of 3. On the piles a card goes on the next "
        "**higher card of its own suit** (9♣ on 10♣). An emptied pile stays empty.\n"
        "• **Two redeals**, whenever you like: the pile cards are gathered, shuffled and dealt "
        "again in threes (`/redeal` or the Redeal button)."
    ),
    "corner-stones": (
        "**Corner Stones** — two decks (104 cards), every card face up.\n"
        "• Eight foundations, two per row: f1, f3, f5, f7 start with an Ace and build **up** "
        "by suit; f2, f4, f6, f8 start with a King and build **down** by suit.\n"
        "• Twelve stacks of 8: the corner stones C1, C2, C3, C4 (piles 1, 2, 11, 12) and the "
        "side stacks S1–S8 (piles 3–10), two beside each row of foundations.\n"
        "• A side stack feeds only the two foundations of its own row; a corner stone feeds "
        "any foundation.\n"
        "• Between stacks a card goes on any card one rank **higher or lower**, any suit; "
        "A and K are neighbours. An emptied side stack stays empty; an emptied corner stone "
        "takes any top card.\n"
        "• No redeals."
    ),
}


def rules_text(game_id: str) -> str:
    """The rules of one game, with how to type a move."""
    return f"{RULES_TEXT[game_id]}\n\n{MOVE_TEXT}"


HELP_TEXT = (
    "**Solitaire** — five patience games, every card face up, one saved game per player.\n"
    "\n"
    "`/new game [deal] [winnable] [draw]` — deal a game (a deal number replays a shared deal; "
    "`winnable:True`: one the solver can win; `draw:True`: Trefoil's draw house rule)\n"
    "`/move from [to]` — play a move: `7 3`, `7 f2`, `7 f`, `7`; `from` lists the legal moves\n"
    "`/undo`, `/redo` — take back or replay a move\n"
    "`/redeal` — gather, shuffle and deal again (Trefoil, Super Flower Garden)\n"
    "`/hint` — the solver's next move, and whether it is part of a winning line\n"
    "`/show` — post your board again\n"
    "`/resign` — give up this game (it counts as a loss)\n"
    "`/rules game` — how a game is played\n"
    "\n"
    "**Records**\n"
    "`/stats [user] [game] [scope]` — wins, streaks and bests, as a picture: this server's, "
    "or all servers' (your own, shown to you alone)\n"
    "`/leaderboard [game] [period]` — this server's top ten and your place, ranked by the low "
    "end of the 95% Wilson interval on win rate: one lucky win doesn't top many steady ones\n"
    "`/daily game` — today's deal (UTC), the same for everyone: your first try is scored, "
    "later ones are replays; win on following days for a daily streak\n"
    "`/daily-board game [day]` — a day's winners here, fewest moves first\n"
    "Wins with hints are *assisted*: played, not won, on boards and in streaks.\n"
    "`/forget-me` — delete all your data (asks first); `/reset-server-stats` — Manage Server: "
    "clear this server's results\n"
    "\n"
    "**Buttons**: Undo, Redo, To foundations (every card that can go up, again and again; "
    "each card is its own move, so Undo takes them back one at a time), Redeal, Hint, "
    "Auto-finish (once every card left can go straight up) and a menu of legal moves. Only "
    "the player whose game it is can press them.\n"
    "A won game is over and counted. Stuck, you may undo; a new game then counts it lost. "
    "The board says when the solver proves no win is possible. A new game over an "
    "unfinished one asks first and counts the old one as abandoned.\n"
    f"\nGames: {', '.join(GAMES.values())}."
)
