"""The console's side of the core's ``Presenter``: replies printed as terminal text, each
board drawn in characters (``board_text``); a board's picture is written to a folder only
when asked (``write_picture``), a message's (a stats card, a replay) always, each path
printed.

What the core says is printed in the console's own words (``words.plain``): a mention of
the console's player reads "you". The last board and question shown are kept: the labels
typed next act on them.
"""

from __future__ import annotations

from pathlib import Path
from typing import TextIO

from ..replies import Board, LostBoard, Message, Player, Question, Reply, Update
from ..replies.text import Text
from ..words.language import _
from ..words.menu import menu_of
from ..words.phrases import command
from ..words.typed import as_typed
from .board_text import board_text, wants_colour
from .pictures import PictureFolder
from .words import CONSOLE_USER_ID, plain

CONSOLE_PLAYER = Player(user_id=CONSOLE_USER_ID, guild_id=None)
SCREENFUL = 25  # moves listed under a board at most; past it, a pile, then its moves


class Screen:
    """What the console shows; ``Console`` reads what is typed."""

    source = "console"
    awaits_verdict = True  # a board's verdict is said before the next prompt
    refreshes_boards = False  # a terminal's boards are in no channel, nor are others'
    shows_pictures = True  # kept, and a board's written to a folder when asked
    amends_within: float | None = None  # the verdict is awaited: never late

    def __init__(self, boards: Path, out: TextIO, *, colour: bool | None = None) -> None:
        self.boards = boards
        self.out = out
        self.colour = wants_colour(out) if colour is None else colour  # ANSI escapes
        self.pictures = PictureFolder(boards)
        self.board: Board | None = None  # the last board shown: buttons and menu act on it
        self.question: Question | None = None  # a yes/no question waiting for a label
        self.shown = Reply()  # the last reply shown

    def say(self, text: Text | str) -> None:
        shown = plain(text, colour=self.colour) if isinstance(text, Text) else text
        print(shown, file=self.out, flush=True)

    async def show(self, reply: Reply) -> None:
        self.shown = reply
        if reply.board is not None:
            self.board = reply.board
            self._show_board(reply.board)
        if reply.message is not None:
            self._show_message(reply.message)
        if reply.note is not None:
            self.say(reply.note)

    async def wait(self, text: Text) -> None:
        self.say(text)

    async def amend(self, amended: LostBoard) -> None:
        """The solver proved the board just shown lost: say so in a line (its drawing,
        just above, is the same position), and keep its picture with the banner."""
        self.say(amended.text.lines()[-1])
        if self.board is not None:
            self.board = self.board.lost(amended)

    def write_picture(self) -> None:
        """The last board's picture, written to the folder (once, however often asked),
        and where."""
        board = self.board
        if board is None or not board.png:
            self.say(_("There is no board to draw yet: {show} shows your game's, {new} deals "
                       "one.", show=command("show"), new=command("new")))
            return
        self.say(self._picture_line(board.png, board.filename))

    async def collapse(self, channel_id: int, message_id: int) -> None:
        """Never asked: a terminal has no channel, so no board of it is posted in one."""

    async def refresh(self, channel_id: int, message_id: int, board: Board) -> None:
        """Never asked (``refreshes_boards``)."""

    async def update(self, update: Update) -> None:
        """Never asked: the console has no challenges, whose messages are updated."""

    def forget_pictures(self) -> int:
        """Delete every picture this console wrote (after /forget-me); how many."""
        return self.pictures.forget()

    def _show_message(self, message: Message) -> None:
        """Text, its picture saved like a board's, its question's two labels."""
        lines: list[Text | str] = [message.text]
        if message.image is not None:
            lines.append(self._picture_line(message.image, message.filename))
        self.question = message.question
        if message.question is not None:
            lines.append(f"  [{message.question.yes}]  [{message.question.no}]")
        self.say(Text("\n").join(lines))

    def _picture_line(self, png: bytes, filename: str) -> Text:
        """Where a picture was written (see ``PictureFolder.save``)."""
        return _("Picture: {path}", path=self.pictures.save(png, filename))

    def _show_board(self, board: Board) -> None:
        controls = board.controls
        buttons = Text("  ").join(
            f"[{b.label}]" if b.enabled else _("({button}: greyed out)", button=b.label)
            for b in controls.buttons
        )
        lines: list[Text | str] = [board.text]
        if board.table is not None:
            lines += ["", board_text(board.table, colour=self.colour), ""]
        lines.append(_("Buttons: {buttons}", buttons=buttons))
        menu, placeholder = menu_of(controls, SCREENFUL)
        if menu:
            lines.append(_("Menu — {placeholder}:", placeholder=placeholder))
            lines += [f"  {as_typed(o.value):<8} {o.label.partition(' · ')[2] or o.label}"
                      for o in menu]
        else:
            lines.append(_("Menu: {placeholder}", placeholder=placeholder))
        self.say(Text("\n").join(lines))
