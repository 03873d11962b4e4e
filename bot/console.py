"""`python -m bot --console`: the bot in a terminal, for trying it without a Discord token.

The same flow and the same SQLite store as on Discord. Type the slash commands
(`/new trefoil 42`, `/move 7 3`), press a button by typing its label (`Undo`,
`To foundations`), or pick from the move menu by typing the move (`7 f1`). Each board's
picture is written to a folder (numbered in order: `001-trefoil-42-0.png`) and its path
printed. Any other line that looks like a move (`8 f2`, `redeal`) is played as `/move`.

The records commands work here too, on the console player's own games: `/stats [game]`,
`/leaderboard [game] [week|month|all]`, `/daily trefoil`, `/daily-board trefoil [day]`,
`/forget-me` (answered by typing a button label).
"""

from __future__ import annotations

import asyncio
import re
import sys
from pathlib import Path
from typing import TextIO

from engine import GAMES

from .flow import KEEP_LABEL, START_LABEL, Action, Board, Flow, NewGameOffer, Player, Reply
from .guide import HELP_TEXT, rules_text
from .standings import PERIODS
from .stats_flow import Answer, Person, Question, StatsFlow
from .store import Store

CONSOLE_PLAYER = Player(user_id=1, guild_id=None)  # Discord ids are far larger: no clash
CONSOLE_PERSON = Person(CONSOLE_PLAYER.user_id, "You")

GREETING = (
    "Solitaire in the console. Start with `/new trefoil` (games: "
    + ", ".join(GAMES)
    + "), then `/move 7 3`, a button label such as `Undo`, or a move from the menu. "
    "`/help` for everything, `/quit` to leave."
)

_SIMPLE = {
    "undo": Action.UNDO,
    "redo": Action.REDO,
    "redeal": Action.REDEAL,
    "show": Action.SHOW,
    "resign": Action.RESIGN,
    "hint": Action.HINT,
}


def plain(text: str) -> str:
    """Discord Markdown to terminal text; a mention of the console player reads "you"."""
    text = text.replace("**", "").replace("`", "").replace("\n-# ", "\n")
    return re.sub(
        r"<@(\d+)>",
        lambda m: "you" if int(m[1]) == CONSOLE_PLAYER.user_id else f"player {m[1]}",
        text,
    )


def game_id_from(words: list[str]) -> str:
    """`trefoil`, `Clover Leaf`, `four-leaf-clovers` -> a game id (unknown ones pass through)."""
    wanted = "-".join(w.lower() for w in words)
    for game_id, name in GAMES.items():
        if wanted in (game_id, name.lower().replace(" ", "-")):
            return game_id
    return wanted


class Console:
    def __init__(
        self, flow: Flow, boards: Path, out: TextIO, player: Player = CONSOLE_PLAYER
    ) -> None:
        self.flow = flow
        self.stats = StatsFlow(flow)
        self.question: Question | None = None  # a yes/no question waiting for a label
        self.boards = boards
        self.out = out
        self.player = player
        self.board: Board | None = None  # the last board shown: buttons and menu act on it
        self.offer: NewGameOffer | None = None
        self.pictures = _last_picture_number(boards)

    def say(self, text: str) -> None:
        print(plain(text), file=self.out, flush=True)

    async def handle(self, line: str) -> bool:
        """Act on one line of input; False when the player wants to leave."""
        line = line.strip()
        if not line:
            return True
        if line.startswith("/"):
            return await self._command(line[1:].split())
        reply = await self._press(line)
        if reply is None and re.match(r"\d|redeal\b", line.lower()):
            reply = await self.flow.act(self.player, Action.MOVE, line)  # as if typed /move
        if reply is None:
            self.say(
                f"I don't understand `{line}`. Type a command (`/help`), a button label "
                "shown under the board, or a move from its menu (like `7 f1`)."
            )
        else:
            self.show(reply)
        return True

    async def _command(self, words: list[str]) -> bool:
        if not words:
            self.say("Type a command after the slash, like `/new trefoil` or `/help`.")
            return True
        name, args = words[0].lower(), [_unlabel(w) for w in words[1:]]
        player = self.player
        if name in ("quit", "exit"):
            return False
        if name == "help":
            self.say(HELP_TEXT)
        elif name == "rules":
            game_id = game_id_from(args)
            if game_id in GAMES:
                self.say(rules_text(game_id))
            else:
                self.say(f"Which game? `/rules trefoil` — the games are: {', '.join(GAMES)}.")
        elif name == "new":
            deal: int | None = None
            flags = {a.lower().removesuffix(":true") for a in args}
            winnable, draw = "winnable" in flags, "draw" in flags
            args = [a for a in args if a.lower().removesuffix(":true") not in ("winnable", "draw")]
            if args and args[-1].isdigit():
                deal = int(args.pop())
            elif args and re.fullmatch(r"-?\d+", args[-1]):
                self.say("A deal number is a whole number from 1; leave it out for a random one.")
                return True
            if not args:
                self.say(f"Which game? `/new trefoil 42` — the games are: {', '.join(GAMES)}.")
                return True
            self.show(
                await self.flow.new_game(
                    player, game_id_from(args), deal, winnable=winnable, draw=draw
                )
            )
        elif name == "move":
            self.show(await self.flow.act(player, Action.MOVE, " ".join(args)))
        elif name in _SIMPLE:
            self.show(await self.flow.act(player, _SIMPLE[name]))
        elif name == "stats":
            self.answer(await self.stats.stats(player, CONSOLE_PERSON, _game_or_none(args)))
        elif name == "leaderboard":
            period = args.pop() if args and args[-1].lower() in PERIODS else "all"
            self.answer(await self.stats.leaderboard(player, _game_or_none(args), period.lower()))
        elif name == "daily":
            if not args:
                self.say(f"Which game? `/daily trefoil` — the games are: {', '.join(GAMES)}.")
                return True
            self.show(await self.stats.daily(player, game_id_from(args)))
        elif name == "daily-board":
            day = args.pop() if args and re.match(r"\d|today$|yesterday$", args[-1]) else None
            if not args:
                self.say("Which game? `/daily-board trefoil [2026-11-22]`.")
                return True
            self.answer(await self.stats.daily_board(player, game_id_from(args), day))
        elif name == "forget-me":
            self.answer(self.stats.forget_question(player))
        else:
            self.say(f"There is no command `/{name}`. `/help` lists them.")
        return True

    async def _press(self, text: str) -> Reply | None:
        """A button by its label, or a move from the menu of the last board."""
        wanted = " ".join(text.lower().split())
        question, self.question = self.question, None
        if question is not None and wanted == question.yes.lower():
            return await self._settle(await self.stats.forget(self.player))
        if question is not None and wanted == question.no.lower():
            return await self._settle(Answer(text="Nothing was deleted."))
        self.question = question
        offer = self.offer
        if offer is not None and wanted == START_LABEL.lower():
            return await self.flow.confirm_new(
                self.player, offer.replacing, offer.game_id, offer.deal, draw=offer.draw
            )
        if offer is not None and wanted == KEEP_LABEL.lower():
            return await self.flow.act(self.player, Action.SHOW)
        board = self.board
        if board is None:
            return None
        for button in board.controls.buttons:
            if wanted == button.label.lower():
                if not button.enabled:
                    return Reply(note=f"{button.label} is greyed out on this board.", refused=True)
                return await self.flow.act(self.player, button.action, seen=board.ref)
        for option in board.controls.menu:
            if wanted == option.value:
                return await self.flow.act(self.player, Action.MOVE, option.value, seen=board.ref)
        return None

    async def _settle(self, answer: Answer) -> Reply:
        """A question's answer, shown; the console's forget-me has no board to return."""
        self.answer(answer)
        return Reply()

    def answer(self, answer: Answer) -> None:
        """A records answer: its text, its picture saved like a board's, its question."""
        lines = [answer.text]
        if answer.png is not None:
            self.boards.mkdir(parents=True, exist_ok=True)
            self.pictures += 1
            path = self.boards / f"{self.pictures:03}-{answer.filename}"
            path.write_bytes(answer.png)
            lines.append(f"Picture: {path}")
        if answer.question is not None:
            self.question = answer.question
            lines.append(f"  [{answer.question.yes}]  [{answer.question.no}]")
        self.say("\n".join(lines))

    async def look_for_a_win(self) -> None:
        """As on Discord: the solver looks at the board just shown; a proven loss is said."""
        board = self.board
        if board is not None:

            async def amend(text: str) -> None:
                self.say(text.splitlines()[-1])

            await self.flow.verdict(board, amend)

    def show(self, reply: Reply) -> None:
        if reply.board is not None:
            self.board, self.offer = reply.board, None
            self._show_board(reply.board)
        if reply.offer is not None:
            self.offer = reply.offer
            self.say(f"{reply.offer.text}\n  [{START_LABEL}]  [{KEEP_LABEL}]")
        if reply.note is not None:
            self.say(reply.note)

    def _show_board(self, board: Board) -> None:
        self.boards.mkdir(parents=True, exist_ok=True)
        self.pictures += 1
        path = self.boards / f"{self.pictures:03}-{board.filename}"
        path.write_bytes(board.png)
        controls = board.controls
        buttons = "  ".join(
            f"[{b.label}]" if b.enabled else f"({b.label}: greyed out)" for b in controls.buttons
        )
        lines = [board.text, f"Picture: {path}", f"Buttons: {buttons}"]
        if controls.menu:
            moves = ", ".join(o.value for o in controls.menu)
            lines.append(f"Menu — {controls.menu_placeholder}: {moves}")
        else:
            lines.append(f"Menu: {controls.menu_placeholder}")
        self.say("\n".join(lines))


def _last_picture_number(boards: Path) -> int:
    """Number on from earlier sessions' pictures instead of overwriting them."""
    numbers = [int(m[1]) for p in boards.glob("*.png") if (m := re.match(r"(\d+)-", p.name))]
    return max(numbers, default=0)


def _unlabel(word: str) -> str:
    """Accept Discord's `option:value` style too: `game:trefoil` -> `trefoil`."""
    head, sep, tail = word.partition(":")
    options = ("game", "deal", "from", "to", "period", "day")
    return tail if sep and head.lower() in options else word


def _game_or_none(words: list[str]) -> str | None:
    return game_id_from(words) if words else None


async def run_console(
    database_path: Path,
    boards: Path,
    *,
    stdin: TextIO | None = None,
    stdout: TextIO | None = None,
) -> int:
    """Read lines until end of input or `/quit`; 0 when done."""
    source = stdin or sys.stdin
    out = stdout or sys.stdout
    interactive = source.isatty()
    store = await Store.open(database_path)
    flow: Flow | None = None
    try:
        flow = Flow(store)
        console = Console(flow, boards, out)
        console.say(GREETING)
        loop = asyncio.get_running_loop()
        while True:
            if interactive:
                print("> ", end="", file=out, flush=True)
            line = await loop.run_in_executor(None, source.readline)
            if not line:
                break
            if not interactive:
                print(f"> {line.rstrip()}", file=out)
            if not await console.handle(line):
                break
            await console.look_for_a_win()
    finally:
        if flow is not None:
            flow.close()
        await store.close()
    return 0
