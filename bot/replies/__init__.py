"""The one reply model: what every call of the core answers, whatever asked.

The core (game flow, statistics) knows no Discord. It answers with a ``Reply`` and each
adapter shows it its own way — ``bot/discord/send.py`` as an interaction response,
``bot/console/`` as lines in a terminal:

* ``board``: a game's picture, text and controls. A command posts it as a new message; a
  press edits the pressed message in place.
* ``message``: any other message — text, maybe a picture (the stats card), maybe a yes/no
  ``Question`` — public or for the player alone.
* ``note``: text for the player alone (Discord: ephemeral), after the rest.
* ``updates``: messages elsewhere to bring up to date (a challenge's, when a game played
  for it ends), whichever process and channel the player is in.

Presses carry a ``BoardRef`` (game row and revision) of the board they were made on; a
press on an out-of-date board plays nothing and refreshes it instead. What a player can do
(``Action``), and what each place offers for it, is ``player_actions.py``'s table.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from enum import StrEnum

from engine import Card, Game, Move
from engine.words import N_
from render import PictureOptions

from ..store.settings import Settings
from .player_actions import BUTTON_LABELS as BUTTON_LABELS
from .player_actions import Action as Action
from .text import Text

# One past the largest id the store keeps: SQLite's INTEGER and PostgreSQL's BIGINT are
# signed 64-bit. Discord's ids are far below it; a larger one came from a modified client.
ID_LIMIT = 2**63


def is_id(number: int) -> bool:
    """Whether ``number`` can be an id the store keeps (a user's, a game row's, a
    challenge's): positive and within 63 bits."""
    return 0 < number < ID_LIMIT


def is_digits(text: str) -> bool:
    """Whether ``text`` is a number as a player's text may carry one: ASCII digits only.
    ``str.isdigit`` alone also takes "²", which ``int`` refuses, and "١٢٣", which it reads."""
    return text.isascii() and text.isdigit()


@dataclass(frozen=True)
class Player:
    """Who is acting, and where: ``guild_id`` is None in DMs and the console.

    ``language``: the locale the player uses (Discord's code, such as ``de`` or ``pt-BR``),
    which what they alone read is worded in; ``server_language``: the server's, for what
    is shared in its channels (None: the player's)."""

    user_id: int
    guild_id: int | None = None
    language: str = "en-US"
    server_language: str | None = None

    @property
    def shared_language(self) -> str:
        """The language of a message everyone in the channel reads."""
        return self.server_language or self.language


@dataclass(frozen=True)
class Member:
    """Whose record a statistic shows, whom a challenge calls on: the id, and the name to
    print on the picture. ``member``: whether the adapter knows them as a member of the
    server where they were named (Discord resolved them as one)."""

    user_id: int
    name: str
    bot: bool = False
    member: bool = False


@dataclass(frozen=True)
class BoardRef:
    """The game and revision a board shows; presses carry it to detect stale boards."""

    game_row: int
    revision: int


@dataclass(frozen=True)
class MenuOption:
    value: str  # the move's text, exactly what /move takes: "7 3", "7 f2"
    label: str  # for people: "7 → f2 · 9♣ to ♣ A↑"
    pile: int | None = None  # the pile (0-based) a move off a pile takes its card from;
    #                          None: a move to a foundation (one tap, never grouped)


@dataclass(frozen=True)
class PileMoves:
    """A pile some moves leave from, for a place whose menu cannot hold every move: it
    offers the pile instead, whose moves follow when it is picked (``Action.PICK``)."""

    pile: int  # 0-based
    name: str  # as the commands name it: "7", Corner Stones' "S3"
    top: str  # its top card, as the language prints it: "9♣"
    count: int  # the moves from it

@dataclass(frozen=True)
class Button:
    action: Action
    label: str
    enabled: bool


@dataclass(frozen=True)
class Controls:
    """The buttons under a board (enabled or not) and the move menu: every legal move
    (a place shows as many as it can hold, the rest by their piles: ``piles``), what the
    menu says above them, and the pile the player picked to see its moves (``focus``)."""

    buttons: tuple[Button, ...]
    menu: tuple[MenuOption, ...]
    menu_placeholder: str
    piles: tuple[PileMoves, ...] = ()
    focus: int | None = None  # 0-based
    stacks: bool = False  # the game calls its piles stacks (Corner Stones)

    def enabled(self, action: Action) -> bool:
        return any(b.action is action and b.enabled for b in self.buttons)


@dataclass(frozen=True)
class Table:
    """A board's position as data, for an adapter that lays the cards out itself (the web
    page): each pile and foundation bottom to top, the legal moves, and the deck the
    player likes. A snapshot: the game it was taken from plays on."""

    game_id: str
    tableau: tuple[tuple[Card, ...], ...]
    foundations: tuple[tuple[Card, ...], ...]
    moves: tuple[Move, ...]
    redeals_left: int
    four_colour: bool = True
    hints: int = 0  # the hints asked for this game so far
    seconds_played: float = 0.0  # the time played on it, as its result will count it


@dataclass(frozen=True)
class Drawing:
    """What a board's picture shows, to be drawn where a picture is shown (and only
    there): the position (the flow's own copy, played on no more), how it is drawn, and
    the language its words are in."""

    game: Game
    options: PictureOptions
    language: str


@dataclass(frozen=True)
class Board:
    """A game's board: who owns it, which revision it shows, and what to show."""

    owner_id: int
    ref: BoardRef
    text: Text
    filename: str
    controls: Controls
    finished: bool
    drawing: Drawing | None = None  # its picture, to draw (None: drawn, or never to be)
    png: bytes = b""  # the picture once drawn (``Core`` draws it for a presenter that
    #                   shows pictures, and for the boards it refreshes in channels)
    private: bool = False  # the player's setting: a board only they see
    alt_text: str = ""  # the picture in words, for screen readers
    proven_lost: bool = False  # it already says that no win is possible from here
    lost_as_dealt: bool = False  # ... and from its deal: no undo can help
    language: str = "en-US"  # the language it is worded in: so is a later amendment of it
    table: Table | None = None  # the position as data (None: a board made without one)

    def lost(self, amended: LostBoard) -> Board:
        """This board as the solver found it: no win is possible."""
        return replace(self, text=amended.text, png=amended.png, alt_text=amended.alt_text,
                       proven_lost=True)


@dataclass(frozen=True)
class LostBoard:
    """A board already shown, updated: the solver proved that no win is possible from it,
    so its text says so and its picture shows it."""

    text: Text
    png: bytes
    filename: str
    alt_text: str


class Ask(StrEnum):
    """The yes/no questions. The value goes into the buttons' custom ids."""

    NEW_GAME = "new"  # start a new game over an unfinished one?
    RESIGN = "resign"  # give up this game?
    FORGET = "forget"  # delete everything about me?
    RESET = "reset"  # delete this server's results?


@dataclass(frozen=True)
class Question:
    """A yes/no question with two buttons, for its owner alone. ``args`` is what the answer
    needs besides the owner (for a new game: the row replaced, the game, the deal, draw);
    each is a short token of letters, digits and dashes, so it fits in a custom id."""

    ask: Ask
    owner_id: int
    yes: str  # the buttons' labels
    no: str
    args: tuple[str, ...] = ()


# -- a game a player asked to be dealt -----------------------------------------------------
# A deal, or a proven-winnable one; Trefoil's draw rule; the challenge it is played for; and
# how a question's buttons carry it (short tokens of letters, digits and dashes:
# ``7:trefoil:42:draw:c12``).
WINNABLE = "winnable"  # the deal token of a proven-winnable deal, chosen on yes
DRAW = "draw"
CHALLENGE = "c"  # the prefix of a challenge's id


@dataclass(frozen=True)
class DealRequest:
    game_id: str
    deal: int | None  # None: a proven-winnable deal, taken only when it is dealt
    draw: bool = False
    challenge: int | None = None

    def tokens(self) -> tuple[str, ...]:
        """Its buttons' arguments, after the game it would replace."""
        tokens = [self.game_id, WINNABLE if self.deal is None else str(self.deal)]
        if self.draw:
            tokens.append(DRAW)
        if self.challenge is not None:
            tokens.append(f"{CHALLENGE}{self.challenge}")
        return tuple(tokens)

    @classmethod
    def from_tokens(cls, tokens: tuple[str, ...]) -> DealRequest | None:
        """What ``tokens`` carried, or None if they are not what ``tokens()`` makes."""
        if len(tokens) < 2 or not (is_digits(tokens[1]) or tokens[1] == WINNABLE):
            return None
        challenge = None
        for extra in tokens[2:]:
            if extra.startswith(CHALLENGE) and is_digits(extra[1:]):
                challenge = int(extra[1:])
                if not is_id(challenge):
                    return None
            elif extra != DRAW:
                return None
        deal = None if tokens[1] == WINNABLE else int(tokens[1])
        return cls(tokens[0], deal, DRAW in tokens[2:], challenge)


class ChallengeAction(StrEnum):
    """What a challenge's buttons do. The value goes into their custom ids."""

    ACCEPT = "accept"
    DECLINE = "decline"
    PLAY = "play"


# The buttons of a challenge's message, in English: translated where they are made.
CHALLENGE_LABELS: dict[ChallengeAction, str] = {
    # Translators: a challenge's buttons; the three labels must differ from each other.
    ChallengeAction.ACCEPT: N_("Accept"),
    ChallengeAction.DECLINE: N_("Decline"),
    ChallengeAction.PLAY: N_("Play"),
}


@dataclass(frozen=True)
class ChallengeControls:
    """The buttons under a challenge's message: which of ``ChallengeAction`` it offers. Who
    may press which is the core's to say, on the press."""

    challenge_id: int
    actions: tuple[ChallengeAction, ...]
    language: str = "en-US"  # the message's language: its buttons are labelled in it too


@dataclass(frozen=True)
class Message:
    """A message that is not a board: text, maybe a picture, maybe a question or a
    challenge's buttons. ``private``: for the player alone. Members are named by
    ``Person`` parts and never pinged."""

    text: Text
    image: bytes | None = None  # a PNG, or an animated GIF (a replay)
    filename: str = "picture.png"
    private: bool = False
    question: Question | None = None
    challenge: ChallengeControls | None = None  # where it is posted is kept (Presenter.show)
    alt_text: str = ""  # the picture in words, for screen readers
    ping: int | None = None  # a member the message calls on (a challenge's): notified


@dataclass(frozen=True)
class Update:
    """A message posted earlier, to show ``text`` and ``controls`` now."""

    channel_id: int
    message_id: int
    text: Text
    controls: ChallengeControls | None = None


@dataclass(frozen=True)
class HintStep:
    """A hint's step as data, for a place that lights it on the table: a move as the
    commands take it (``Move``'s text: "7 3", "7 f2", "redeal"), or a button to press."""

    move: str | None = None
    action: Action | None = None


@dataclass(frozen=True)
class Reply:
    board: Board | None = None
    message: Message | None = None
    note: Text | None = None
    refused: bool = False  # the request was refused or failed; ``note`` says why
    no_game: bool = False  # refused for want of a game: the player has none yet
    updates: tuple[Update, ...] = ()
    # A press whose board or message goes out as a new message, leaving the pressed one
    # as it is (a challenge's Play: the challenge stays for both players to see).
    posts: bool = False
    hint: HintStep | None = None  # a hint's step, besides its words in ``note``
    settings: Settings | None = None  # the player's settings, besides their words

    @property
    def text(self) -> Text:
        """Everything the reply says, one part after another (for logs and tests)."""
        said = [self.board.text if self.board else None, self.message.text if self.message
                else None, self.note]
        return Text("\n").join(p for p in said if p)


class Refused(Exception):
    """The one way a request is refused: raised wherever the refusal is found, however deep
    in a flow, and answered by the core (``flows.outcomes.guarded``) with ``reply``: why, for
    the player alone, and what they should see instead, if anything (their board as it
    now is, a message brought up to date). What was asked is not done (a cooldown may have
    counted the asking, as the refusal then says)."""

    def __init__(self, why: Text, *, board: Board | None = None,
                 message: Message | None = None, updates: tuple[Update, ...] = (),
                 no_game: bool = False) -> None:
        super().__init__()
        self.why = why
        self.reply = Reply(board=board, message=message, note=why, refused=True,
                           no_game=no_game, updates=updates)
