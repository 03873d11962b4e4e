"""`python -m bot --console`: the bot in a terminal, for trying it without a Discord token.

The same flow and the same SQLite store as on Discord. Type the slash commands
(`/new trefoil 42`, `/move 7 3`), press a button by typing its label (`Undo`,
`To foundations`), or pick from the move menu by typing the move (`7 f1`). Each board is
drawn in characters (``board_text``); `/picture` writes the last one's picture to a folder
(numbered in order: `001-trefoil-42-0.png`) and prints its path. Any other line that looks
like a move (`8 f2`, `redeal`) is played as `/move`.

The records commands work here too, on the console player's own games: `/stats [game]`,
`/leaderboard [game] [week|month|all]`, `/daily trefoil`, `/daily-board trefoil [day]`,
`/forget-me` (answered by typing a button label).

`--locale de` plays in German: everything is said in it, and the commands, options and
labels are typed as a German Discord shows them (`/neu`, `Rückgängig`), or in English
(`/new`, `Undo`): a player's typed words work in their language and in English.
"""

from __future__ import annotations

import asyncio
import dataclasses
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
from ..replies import (
    BUTTON_LABELS,
    Action,
    Ask,
    Member,
    Player,
    Refused,
)
from ..replies.player_actions import TYPED_ALONE
from ..replies.text import Text
from ..store import Settings
from ..words.language import (
    ENGLISH,
    LANGUAGES,
    _,
    current,
    label,
    language_of,
    n_,
    p_,
    pN_,
    speaking,
)
from ..words.menu import menu_of
from ..words.phrases import code, command, option, typed_days
from ..words.typed import as_english, as_typed
from .screen import CONSOLE_PLAYER, SCREENFUL, Screen

# The commands that act on the game alone, each named as its action is (/undo, /show).
ACTION_COMMANDS = {a.value: a for a in TYPED_ALONE}
# The slash commands the console takes, by their English names.
COMMANDS = (
    "new", "move", *ACTION_COMMANDS, "rules", "settings", "help", "stats", "leaderboard",
    "daily", "daily-board", "forget-me", "reset-server-stats", "challenge", "replay",
)
QUIT = ("quit", "exit")  # the console's own: no Discord command, the same in every language
# The console's own command, typed in the language spoken or in English like Discord's.
PICTURE = pN_("command", "picture")  # the last board's picture, written to a file
# The options typed as `option:value`, by their English names.
OPTIONS = ("game", "deal", "from", "to", "period", "day")


def greeting() -> Text:
    return _(
        "Solitaire in the console. Start with {new} (games: {games}), then {move}, a button "
        "label such as {undo}, or a move from the menu. {help} for everything, {quit} to leave.",
        new=command("new", "trefoil"), games=", ".join(GAMES), move=command("move", "7", "3"),
        undo=code(label(BUTTON_LABELS[Action.UNDO])), help=command("help"), quit=code("/quit"),
    )


def console_help() -> Text:
    """After the help: the commands only the console has."""
    return _("In the console, {picture} writes the last board's picture to a file and says "
             "where; {quit} leaves.", picture=command(PICTURE), quit=code("/quit"))


def english(kind: str, typed: str, names: tuple[str, ...] | list[str]) -> str:
    """The English name of what ``typed`` names among ``names`` (commands or options, as
    ``kind`` says), typed in English or in the language spoken now, with its accents or
    without (a keyboard may lack them: /regles is /règles); else ``typed``."""
    typed = typed.lower()
    for name in names:
        if typed in (name, p_(kind, name).lower()) or _bare(typed) == _bare(p_(kind, name)):
            return name
    return typed


def _bare(word: str) -> str:
    """``word`` without its accents: ``règles`` -> ``regles``, ``auto_züge`` -> ``auto_zuge``."""
    spelled = unicodedata.normalize("NFKD", word.lower())
    return "".join(ch for ch in spelled if not unicodedata.combining(ch))


# Commands that take nothing after them here either (the console has one player: no
# member to name): words after them are refused, not ignored (/undo 5 took back one move).
ALONE = frozenset({"help", "forget-me", "replay", "challenge", "reset-server-stats", PICTURE})


def _console_person() -> Member:  # named on their record's picture, in the language spoken
    return Member(CONSOLE_PLAYER.user_id, p_("the console's player, named on a picture", "You"))


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


class Console(Screen):
    """Each line typed, one call of the core, which shows its reply on this ``Screen``."""

    def __init__(
        self, core: Core, boards: Path, out: TextIO, player: Player = CONSOLE_PLAYER, *,
        colour: bool | None = None,
    ) -> None:
        super().__init__(boards, out, colour=colour)
        self.core = core
        self.player = player

    def greet(self) -> None:
        with speaking(self.player.language):
            self.say(greeting())

    async def handle(self, line: str) -> bool:
        """Act on one line of input, in the player's language; False when the player wants
        to leave. Full-width letters and digits read as their plain forms, in deals and
        moves alike."""
        with speaking(self.player.language):
            return await self._handle(line)

    async def _handle(self, line: str) -> bool:
        line = unicodedata.normalize("NFKC", line).strip()
        if not line:
            return True
        if line.startswith("/"):
            return await self._command(line[1:].split())
        if await self._press(line):
            return True
        # A move as if typed after /move: a pile's number or name (Corner Stones' C1, S5), a word.
        if re.match(r"\d|[cs]\d|(redeal|draw)\b", as_english(line).lower()):
            await self.core.act(self.player, Action.MOVE, line, presenter=self)
        elif line.lower() in QUIT:  # as a terminal's player types it, the slash forgotten
            return False
        else:
            self.say(_(
                "I don't understand {line}. Type a command ({help}), a button label shown "
                "under the board, or a move from its menu (like {move}).",
                line=code(line), help=command("help"), move=code("7 f1"),
            ))
        return True

    # One branch a command, most of them one call of the core: kept over ``cmd.Cmd``, measured
    # against it (issue 36). Its parseline cuts names at "-" and accented letters (daily-board,
    # règles), an empty line repeats the last command (a second /move 7 3), its loop blocks on
    # input() where the core is async, and ~19 do_ methods with their overrides come out
    # longer than this chain; only tab completion, English names only, would be gained.
    async def _command(self, words: list[str]) -> bool:
        if not words:
            self.say(_("Type a command after the slash, like {new} or {help}.",
                       new=command("new", "trefoil"), help=command("help")))
            return True
        typed, args = words[0], [_unlabel(w) for w in words[1:]]
        name = english("command", typed, (*COMMANDS, PICTURE))
        player = self.player
        if name in QUIT:
            return False
        if args and (name in ACTION_COMMANDS or name in ALONE):
            self.say(_("{command} takes nothing after it ({words}): nothing was done. Type it "
                       "alone.", command=command(name), words=code(" ".join(args))))
            return True
        if name == "help":
            await self.core.help(player, presenter=self)
            self.say(console_help())
        elif name == PICTURE:
            self.write_picture()
        elif name == "rules":
            game = self._game(args, command("rules", "trefoil"))
            if game is not None:
                await self.core.rules(player, game, presenter=self)
        elif name == "new":
            await self._new(args)
        elif name == "move":
            await self.core.act(player, Action.MOVE, " ".join(args), presenter=self)
        elif name in ACTION_COMMANDS:
            await self.core.act(player, ACTION_COMMANDS[name], presenter=self)
        elif name == "stats":
            await self._stats(args)
        elif name == "leaderboard":
            await self._leaderboard(args)
        elif name == "daily":
            game = self._game(args, command("daily", "trefoil"))
            if game is not None:
                await self.core.daily(player, game, presenter=self)
        elif name == "daily-board":
            await self._daily_board(args)
        elif name == "forget-me":
            await self.core.forget_question(player, presenter=self)
        elif name == "settings":
            await self._settings(args)
        elif name == "replay":
            await self.core.replay(player, presenter=self)
        elif name == "challenge":
            self.say(_("Challenges are between members of a Discord server; the console has "
                       "one player. {new} deals you a game.", new=command("new")))
        elif name == "reset-server-stats":  # refused here, with why: the console is no server
            await self.core.reset_question(player, can_manage_server=False, presenter=self)
        else:
            self.say(_("There is no command {command}. {help} lists them.",
                       command=code(f"/{name}"), help=command("help")))
        return True

    async def _new(self, args: list[str]) -> None:
        """``/new [game] [deal] [winnable] [draw]``, the options as words or as Discord's."""
        player = self.player
        deal: int | None = None
        flags = [english("option", a.lower().removesuffix(":true"), ["winnable", "draw"])
                 for a in args]
        winnable, draw = "winnable" in flags, "draw" in flags
        args = [a for a, flag in zip(args, flags, strict=True)
                if flag not in ("winnable", "draw")]
        named, rest = split_game(args)
        if named is not None and rest and re.fullmatch(r"[+-]?[0-9]+", rest[0]):
            deal = int(rest[0])  # out of range is refused by the flow, as on Discord
            args = args[: len(args) - len(rest)] + rest[1:]
        game = self._game(args, command("new", "trefoil", "42"))
        if game is not None:
            await self.core.new_game(player, game, deal, winnable=winnable, draw=draw,
                                     presenter=self)

    async def _stats(self, args: list[str]) -> None:
        player = self.player
        if args and args[0].startswith(("@", "<@")):
            self.say(_("The console has one player, you: {stats} shows your record.",
                       stats=command("stats", f"[{p_('option', 'game')}]")))
        elif not args or (game := self._game(args, command("stats", "trefoil"))) is not None:
            await self.core.stats(player, _console_person(), game if args else None, presenter=self)

    async def _leaderboard(self, args: list[str]) -> None:
        player = self.player
        period = args.pop() if args and args[-1].lower() in PERIODS else "all"
        example = command("leaderboard", "trefoil", "week")
        if not args or (game := self._game(args, example)) is not None:
            await self.core.leaderboard(player, game if args else None, period.lower(),
                                        presenter=self)

    async def _daily_board(self, args: list[str]) -> None:
        player = self.player
        last, today = (args or [""])[-1].lower(), datetime.now(UTC).date().isoformat()
        day = args.pop() if last[:1].isdigit() or last in typed_days() else None
        game = self._game(args, command("daily-board", "trefoil", today))
        if game is not None:
            await self.core.daily_board(player, game, day, presenter=self)

    async def _settings(self, args: list[str]) -> None:
        """``/settings name:true ...``: each name one of the settings, each value true or
        false; anything else is refused with an example, and nothing changed."""
        player = self.player
        changes: dict[str, bool] = {}
        example = command("settings", option("four_colour", "True"),
                          option("auto_moves", "False"))
        for word in args:
            typed, _colon, value = word.partition(":")
            key = english("option", SETTING_NAMES.get(typed.lower(), typed),
                          list(Settings.names()))
            if key not in Settings.names():
                settings = ", ".join(p_("option", s) for s in Settings.names())
                self.say(_("There is no setting {name}: the settings are {settings}, like "
                           "{example}.", name=code(typed), settings=settings,
                           example=example))
                return
            if value.lower() not in ("true", "false"):
                self.say(_("Settings look like {example}.", example=example))
                return
            changes[key] = value.lower() == "true"
        await self.core.change_settings(player, presenter=self, **changes)

    def _game(self, words: list[str], example: Text) -> str | None:
        """The game the words name, alone; else say what would work (``example``, a
        command as ``command`` writes it), and None."""
        game, rest = split_game(words)
        games = ", ".join(GAMES)
        if not words:
            self.say(_("Which game? {example} — the games are: {games}.", example=example,
                       games=games))
        elif game is None:
            self.say(_("There is no game called {name}: the games are {games}, like "
                       "{example}.", name=code(" ".join(words)), games=games, example=example))
        elif rest:
            self.say(_("I don't understand {words} after the game's name; it goes like "
                       "{example}.", words=code(" ".join(rest)), example=example))
            return None
        return game

    async def _press(self, text: str) -> bool:
        """A button by its label, or a move from the menu of the last board: whether the
        text was one."""
        wanted = " ".join(text.lower().split())
        question = self.question
        if question is not None and (_labels(wanted, question.yes)
                                     or _labels(wanted, question.no)):
            self.question = None
            yes = _labels(wanted, question.yes)
            await self.core.answer_question(self.player, question, yes, presenter=self)
            if yes and question.ask is Ask.FORGET and not self.shown.refused:
                self.board = None
                count = self.forget_pictures()
                self.say(n_("Deleted {count} board picture from {folder}.",
                            "Deleted {count} board pictures from {folder}.", count,
                            folder=self.boards))
            return True
        board = self.board
        if board is None:  # no board shown yet this session: the labels act on the saved game
            action = next((a for a, english_label in BUTTON_LABELS.items()
                           if _labels(wanted, label(english_label))), None)
            if action is not None:
                await self.core.act(self.player, action, presenter=self)
            return action is not None
        for button in board.controls.buttons:
            if _labels(wanted, button.label):
                if not button.enabled:
                    await self.show(Refused(_("{button} is greyed out on this board.",
                                              button=button.label)).reply)
                else:
                    await self.core.act(self.player, button.action, seen=board.ref, presenter=self)
                return True
        shown, _placeholder = menu_of(board.controls, SCREENFUL)  # its picks, and every move
        for choice in (*shown, *board.controls.menu):
            if wanted in (choice.value, as_typed(choice.value).lower()):
                await self.core.choose(self.player, choice.value, seen=board.ref, presenter=self)
                return True
        return False


def _labels(typed: str, label: str) -> bool:
    """Whether ``typed`` (lower case) is ``label``, shown in the language spoken, as shown
    or in English: "Start new game" is the German console's "Neues Spiel"."""
    return typed in current().english(label)


def _unlabel(word: str) -> str:
    """Accept Discord's `option:value` style too, the option named in English or in the
    language spoken: `game:trefoil` -> `trefoil`."""
    head, sep, tail = word.partition(":")
    return tail if sep and english("option", head, OPTIONS) in OPTIONS else word


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
    locale: str | None = None,
) -> int:
    """Read lines until end of input or `/quit`; 0 when done. ``locale``: the player's
    language, as Discord names it (``de``, ``pt-BR``); English if None."""
    source = stdin or sys.stdin
    out = stdout or sys.stdout
    interactive = source.isatty()
    core = await Core.open(database, cooldowns=False)  # one player: no one else to wait for
    try:
        language = language_of(locale) if locale else ENGLISH
        player = dataclasses.replace(CONSOLE_PLAYER, language=language)
        console = Console(core, boards, out, player)
        if locale and language == ENGLISH and locale.split("-")[0].lower() != "en":
            console.say(_("There is no {locale} here: playing in English. The languages are "
                          "{languages}.", locale=code(locale),
                          languages=Text(", ").join(code(c) for c in LANGUAGES)))
        console.greet()
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
    finally:
        await core.close()
    return 0
