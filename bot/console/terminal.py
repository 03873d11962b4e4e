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
import threading
import unicodedata
from datetime import UTC, datetime
from pathlib import Path
from typing import TextIO

from engine import GAMES

from ..core import Core
from ..flows.stats import PERIODS
from ..replies import BUTTON_LABELS, Action, Ask, Board, Message, Person, Player, Question, Reply
from ..store import DEFAULT_SETTINGS
from ..words.phrases import code, plural

CONSOLE_PLAYER = Player(user_id=1, guild_id=None)  # Discord ids are far larger: no clash
KEEP_PICTURES = 50  # the newest pictures kept in the boards folder; older ones are deleted
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
    text = text.replace("```\n", "").replace("\n```", "")  # a block: its lines as they are
    text = text.replace("**", "").replace("`", "").replace("\n-# ", "\n")
    text = re.sub(r"(?<![\w*])\*(\S(?:[^*\n]*\S)?)\*(?![\w*])", r"\1", text)  # *italic*
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


def split_game(words: list[str]) -> tuple[str | None, list[str]]:
    """A game named by the first words (`trefoil`, `Clover Leaf`), and the words after it;
    (None, the words) if they name none."""
    for end in range(len(words), 0, -1):
        game_id = game_id_from(words[:end])
        if game_id in GAMES:
            return game_id, words[end:]
    return None, words


SETTING_NAMES = {  # the settings' names as people type them, besides their own
    "private": "private_boards", "four_color": "four_colour", "colour": "four_colour",
    "color": "four_colour", "four_colours": "four_colour", "auto": "auto_moves",
}


class Console:
    def __init__(
        self, core: Core, boards: Path, out: TextIO, player: Player = CONSOLE_PLAYER
    ) -> None:
        self.core = core
        self.question: Question | None = None  # a yes/no question waiting for a label
        self.boards = boards
        self.out = out
        self.player = player
        self.board: Board | None = None  # the last board shown: buttons and menu act on it
        self.new_board = False  # whether the last line showed a board (the solver looks at it)
        self.pictures = _last_picture_number(boards)
        self._last_picture: tuple[bytes, Path] | None = None  # the last written, and where

    def say(self, text: str) -> None:
        print(plain(text), file=self.out, flush=True)

    async def handle(self, line: str) -> bool:
        """Act on one line of input; False when the player wants to leave. Full-width
        letters and digits read as their plain forms, in deals and moves alike."""
        self.new_board = False
        line = unicodedata.normalize("NFKC", line).strip()
        if not line:
            return True
        if line.startswith("/"):
            return await self._command(line[1:].split())
        reply = await self._press(line)
        if reply is None and re.match(r"\d|redeal\b", line.lower()):
            reply = await self.core.act(self.player, Action.MOVE, line)  # as if typed /move
        if reply is None:
            self.say(
                f"I don't understand {code(line)}. Type a command (`/help`), a button label "
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
            self.show(await self.core.help())
        elif name == "rules":
            game = self._game(args, "/rules trefoil")
            if game is not None:
                self.show(await self.core.rules(game))
        elif name == "new":
            deal: int | None = None
            flags = {a.lower().removesuffix(":true") for a in args}
            winnable, draw = "winnable" in flags, "draw" in flags
            args = [a for a in args if a.lower().removesuffix(":true") not in ("winnable", "draw")]
            named, rest = split_game(args)
            if named is not None and rest and re.fullmatch(r"[+-]?\d+", rest[0]):
                deal = int(rest[0])  # out of range is refused by the flow, as on Discord
                args = args[: len(args) - len(rest)] + rest[1:]
            game = self._game(args, "/new trefoil 42")
            if game is not None:
                self.show(await self.core.new_game(player, game, deal, winnable=winnable,
                                                   draw=draw))
        elif name == "move":
            self.show(await self.core.act(player, Action.MOVE, " ".join(args)))
        elif name in _SIMPLE:
            self.show(await self.core.act(player, _SIMPLE[name]))
        elif name == "stats":
            if args and args[0].startswith(("@", "<@")):
                self.say("The console has one player, you: `/stats [game]` shows your record.")
            elif not args or (game := self._game(args, "/stats trefoil")) is not None:
                self.show(await self.core.stats(player, CONSOLE_PERSON, game if args else None))
        elif name == "leaderboard":
            period = args.pop() if args and args[-1].lower() in PERIODS else "all"
            if not args or (game := self._game(args, "/leaderboard trefoil week")) is not None:
                self.show(await self.core.leaderboard(player, game if args else None,
                                                      period.lower()))
        elif name == "daily":
            game = self._game(args, "/daily trefoil")
            if game is not None:
                self.show(await self.core.daily(player, game))
        elif name == "daily-board":
            day = args.pop() if args and re.match(r"\d|today$|yesterday$", args[-1]) else None
            today = datetime.now(UTC).date().isoformat()
            game = self._game(args, f"/daily-board trefoil {today}")
            if game is not None:
                self.show(await self.core.daily_board(player, game, day))
        elif name == "forget-me":
            self.show(await self.core.forget_question(player))
        elif name == "settings":
            changes: dict[str, bool] = {}
            for word in args:
                key, _, value = word.partition(":")
                key = SETTING_NAMES.get(key.lower(), key.lower())
                if key not in DEFAULT_SETTINGS:
                    self.say(f"There is no setting {code(word.partition(':')[0])}: the settings "
                             f"are {', '.join(DEFAULT_SETTINGS)}, like "
                             "`/settings four_colour:True auto_moves:False`.")
                    return True
                if value.lower() not in ("true", "false"):
                    self.say("Settings look like `/settings four_colour:True auto_moves:False`.")
                    return True
                changes[key] = value.lower() == "true"
            self.show(await self.core.change_settings(player, **changes))
        elif name == "replay":
            self.show(await self.core.replay(player))
        elif name == "challenge":
            self.say("Challenges are between members of a Discord server; the console has "
                     "one player. `/new` deals you a game.")
        elif name == "reset-server-stats":  # refused here, with why: the console is no server
            self.show(await self.core.reset_question(player, can_manage_server=False))
        else:
            self.say(f"There is no command `/{name}`. `/help` lists them.")
        return True

    def _game(self, words: list[str], example: str) -> str | None:
        """The game the words name, alone; else say what would work, and None."""
        game, rest = split_game(words)
        if not words:
            self.say(f"Which game? {code(example)} — the games are: {', '.join(GAMES)}.")
        elif game is None:
            self.say(f"There is no game called {code(' '.join(words))}: the games are "
                     f"{', '.join(GAMES)}, like {code(example)}.")
        elif rest:
            self.say(f"I don't understand {code(' '.join(rest))} after the game's name; "
                     f"it goes like {code(example)}.")
            return None
        return game

    async def _press(self, text: str) -> Reply | None:
        """A button by its label, or a move from the menu of the last board."""
        wanted = " ".join(text.lower().split())
        question = self.question
        if question is not None and wanted in (question.yes.lower(), question.no.lower()):
            self.question = None
            yes = wanted == question.yes.lower()
            reply = await self.core.answer_question(self.player, question, yes)
            if yes and question.ask is Ask.FORGET and not reply.refused:
                self.board = None
                count = self.forget_pictures()
                self.say(f"Deleted {plural(count, 'board picture')} from {self.boards}.")
            return reply
        board = self.board
        if board is None:  # no board shown yet this session: the labels act on the saved game
            action = next((a for a, label in BUTTON_LABELS.items() if label.lower() == wanted),
                          None)
            return None if action is None else await self.core.act(self.player, action)
        for button in board.controls.buttons:
            if wanted == button.label.lower():
                if not button.enabled:
                    return Reply(note=f"{button.label} is greyed out on this board.", refused=True)
                return await self.core.act(self.player, button.action, seen=board.ref)
        for option in board.controls.menu:
            if wanted == option.value:
                return await self.core.choose(self.player, option.value, seen=board.ref)
        return None

    async def look_for_a_win(self) -> None:
        """As on Discord: the solver looks at the board just shown; a proven loss is said."""
        board = self.board
        if board is not None and self.new_board:
            amended = await self.core.verdict(board)
            if amended is not None:
                self.say(amended.text.splitlines()[-1])
                self.say(f"Picture: {self._save_picture(amended.png, amended.filename)}")

    def show(self, reply: Reply) -> None:
        if reply.board is not None:
            self.board = reply.board
            self.new_board = True
            self._show_board(reply.board)
        if reply.message is not None:
            self._show_message(reply.message)
        if reply.note is not None:
            self.say(reply.note)

    def _save_picture(self, png: bytes, filename: str) -> Path:
        """Write a picture, numbered on; only the newest ``KEEP_PICTURES`` are kept. The
        same picture again (a menu narrowed to one pile, say) is not written twice."""
        if self._last_picture is not None and self._last_picture[0] == png:
            return self._last_picture[1]
        self.boards.mkdir(parents=True, exist_ok=True)
        self.pictures += 1
        path = self.boards / f"{self.pictures:03}-{filename}"
        path.write_bytes(png)
        self._last_picture = (png, path)
        for old in _pictures(self.boards)[:-KEEP_PICTURES]:
            old.unlink(missing_ok=True)
        return path

    def forget_pictures(self) -> int:
        """Delete every picture this console wrote (after /forget-me); how many."""
        gone = _pictures(self.boards)
        for old in gone:
            old.unlink(missing_ok=True)
        self._last_picture = None
        return len(gone)

    def _show_message(self, message: Message) -> None:
        """Text, its picture saved like a board's, its question's two labels."""
        lines = [message.text]
        if message.image is not None:
            lines.append(f"Picture: {self._save_picture(message.image, message.filename)}")
        self.question = message.question
        if message.question is not None:
            lines.append(f"  [{message.question.yes}]  [{message.question.no}]")
        self.say("\n".join(lines))

    def _show_board(self, board: Board) -> None:
        path = self._save_picture(board.png, board.filename)
        controls = board.controls
        buttons = "  ".join(
            f"[{b.label}]" if b.enabled else f"({b.label}: greyed out)" for b in controls.buttons
        )
        lines = [board.text, f"Picture: {path}", f"Buttons: {buttons}"]
        if controls.menu:
            lines.append(f"Menu — {controls.menu_placeholder}:")
            lines += [f"  {o.value:<8} {o.label.partition(' · ')[2] or o.label}"
                      for o in controls.menu]
        else:
            lines.append(f"Menu: {controls.menu_placeholder}")
        self.say("\n".join(lines))


def _pictures(boards: Path) -> list[Path]:
    """The console's pictures in ``boards``, oldest first."""
    numbered = [(int(m[1]), p) for p in boards.glob("*.*")
                if p.suffix in (".png", ".gif") and (m := re.match(r"(\d+)-", p.name))]
    return [p for _, p in sorted(numbered)]


def _last_picture_number(boards: Path) -> int:
    """Number on from earlier sessions' pictures instead of overwriting them."""
    pictures = _pictures(boards)
    return int(pictures[-1].name.split("-")[0]) if pictures else 0


def _unlabel(word: str) -> str:
    """Accept Discord's `option:value` style too: `game:trefoil` -> `trefoil`."""
    head, sep, tail = word.partition(":")
    options = ("game", "deal", "from", "to", "period", "day")
    return tail if sep and head.lower() in options else word


def _lines_of(source: TextIO) -> asyncio.Queue[str]:
    """Lines typed, read by a daemon thread: unlike the loop's executor, it never keeps the
    process waiting for one more Enter after Ctrl-C. An empty string means end of input."""
    loop = asyncio.get_running_loop()
    queue: asyncio.Queue[str] = asyncio.Queue()

    def read() -> None:
        while True:
            line = source.readline()
            try:
                loop.call_soon_threadsafe(queue.put_nowait, line)
            except RuntimeError:  # the console has closed meanwhile
                return
            if not line:
                return

    threading.Thread(target=read, name="console-input", daemon=True).start()
    return queue


async def run_console(
    database: Path | str,
    boards: Path,
    *,
    stdin: TextIO | None = None,
    stdout: TextIO | None = None,
) -> int:
    """Read lines until end of input or `/quit`; 0 when done."""
    source = stdin or sys.stdin
    out = stdout or sys.stdout
    interactive = source.isatty()
    core = await Core.open(database)
    try:
        console = Console(core, boards, out)
        console.say(GREETING)
        lines = _lines_of(source)
        while True:
            if interactive:
                print("> ", end="", file=out, flush=True)
            line = await lines.get()
            if not line:
                break
            if not interactive:
                print(f"> {line.rstrip()}", file=out)
            if not await console.handle(line):
                break
            await console.look_for_a_win()
    finally:
        await core.close()
    return 0
