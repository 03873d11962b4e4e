"""The web adapter's side of the core's ``Presenter``: what one request's call of the core
shows, kept, then written as the JSON the page draws.

A board goes to the page as data (``Table``): every pile and foundation with its cards, each
card named in the player's language ("Queen of hearts"), each pile and foundation labelled
as the commands name them ("pile 7", "foundation 2") and named as hints and refusals name
it ("7", Corner Stones' "3 (S1)", "f2"), where each sits on the page's grid (the game's own
arrangement, and any the page may fold it into for a wide window: ``grids``), the legal
moves, and the board's buttons the page's tool bar has (``TOOL_BAR``), which the page makes
its tool bar of. The page lays out the cards itself; the picture the core drew goes to the
player's boards in channels (``ChannelBoards``), never to the page. A hint's step goes as
data too (``Reply.hint``), so the page can light its card and where it goes, and so do the
player's settings (``Reply.settings``), so it can tick their boxes.
"""

from __future__ import annotations

from dataclasses import replace
from functools import cache
from typing import Any, Protocol

from engine import CARDS, RULES, Card, Rules

from ..flows.settings import WORDS as SETTING_WORDS
from ..presenter import Posted
from ..replies import Board, Button, HintStep, LostBoard, Message, Player, Reply, Update
from ..replies.player_actions import TOOL_BAR
from ..replies.text import Text
from ..store.settings import Settings
from ..words.language import N_, _, current, label, words_for
from ..words.phrases import command, for_piles, foundation
from ..workers.pictures import picture_words
from .grids import grids
from .words import DAILY_DEAL, NEW_DEAL, Piece, said

# The page's own words, besides those the board brings.
PAGE_WORDS = {
    # Translators: the web page's heading while there is no game on its table yet: the
    # name of the card games it plays.
    "title": N_("Solitaire"),
    # Translators: the web page (the Activity): buttons that deal a game.
    "newDeal": NEW_DEAL,
    "daily": DAILY_DEAL,
    "game": N_("Game"),
    "signedOut": N_("Your session has ended: open the Activity again."),
    "offline": N_("The server cannot be reached: nothing was played. Try again shortly."),
    # Translators: the web page: the button beside a line to share, and what it says once
    # the line is copied.
    "copy": N_("Copy"),
    "copied": N_("Copied"),
    # Translators: the web page: the button that opens the other ways to deal (its words
    # are said to a screen reader, and shown when the pointer rests on it), and in it a
    # proven-winnable deal and a deal by its number.
    "deals": N_("More deals"),
    "winnable": N_("Winnable deal"),
    "dealNumber": N_("Deal number"),
    # Translators: the web page: the button beside the deal number's box that deals it.
    "dealIt": N_("Deal"),
    # Translators: the web page: the button that opens the player's settings, the heading
    # over them, and the button that closes a box of the page.
    "settings": N_("Settings"),
    "close": N_("Close"),
    # Translators: the web page: the clock beside the board's headline (for a screen
    # reader), and in a won game's celebration the time it took and the hints asked.
    "timePlayed": N_("Time played"),
    "time": N_("Time"),
    "hints": N_("Hints"),
    # Translators: the web page's own setting (kept in the browser): cards moving from where
    # they were to where they land; and why it is off where the device asks for less motion.
    "motion": N_("Cards glide into place"),
    "reducedMotion": N_("Off: this device asks for reduced motion."),
    # Translators: the web page, at an Activity's table: the list of everyone there (each
    # shown as "name · 12/52", their cards home, then their moves), what the page's own
    # player's item says when the pointer rests on it, what a player with no game yet shows
    # in place of their cards home, and what the page says when Discord does not list the
    # player at the table they opened.
    "players": N_("Players"),
    "you": N_("You"),
    "noGameYet": N_("no game yet"),
    "notSeated": N_("Discord does not list you at this Activity's table: you play on your own."),
    # Translators: the web page, at an Activity's table: what another player's item says
    # when the pointer rests on it (pressing it shows their game, moving as they play), or
    # the item of a player whose boards are private; the line above a table watched
    # ({name}: whose), the button back to the player's own game, and what the page says
    # when the table watched can no longer be (its player left, or made it private).
    "watch": N_("Watch their game"),
    "privateBoards": N_("Their boards are private: only their progress is shown."),
    "watching": N_("Watching {name}"),
    "backToMine": N_("Back to my game"),
    "watchEnded": N_("That game can no longer be watched: back to yours."),
    # Translators: what Discord shows of the player while they play in the Activity (their
    # rich presence): the game and its cards home ({game}, {home}, {cards}: its name and
    # two numbers), then whether they play alone or at a table with others; the button
    # that opens Discord's invite to the Activity, and what the page says when Discord
    # cannot open it (in a DM, or without the permission to invite).
    "presence": N_("{game} · {home}/{cards} home"),
    "presenceAlone": N_("Playing alone"),
    "presenceTable": N_("Playing at a table"),
    "invite": N_("Invite"),
    "inviteFailed": N_("Discord could not open an invite here."),
    # Translators: the web page, inside Discord, under a game just won: the button that
    # shares the game's replay in a chat (Discord's "moment"), and what the page says when
    # Discord cannot share it there.
    "share": N_("Share"),
    "shareFailed": N_("Discord could not share this game here."),
    # Translators: the web page, at an Activity's table: the button that starts a race of
    # the game picked above (everyone there is asked to join; all who do are dealt one
    # deal at the same moment), the button that joins one, and the line over a race:
    # counting down ({name}: who started it, {game}, {seconds}), joined, under way ({time}:
    # how long is left, as 12:34), and over.
    "race": N_("Race"),
    "joinRace": N_("Join race"),
    "raceStarts": N_("{name} starts a {game} race: join within {seconds} s."),
    "raceJoined": N_("You are in the {game} race: the deal comes in {seconds} s."),
    "raceRunning": N_("{game} race · {time} left"),
    "raceOver": N_("{game} race over"),
    # Translators: the web page: how a race ended, under its racers, and how each racer's
    # game stands beside their name ({moves}: their moves, as "87 moves"; {time}: as 3:12).
    "raceWins": N_("{name} wins the race!"),
    "raceTie": N_("A tie: the best won alike, in the same moves and time."),
    "raceNobody": N_("Nobody won this one."),
    "racerWon": N_("won, {moves}, {time}"),
    "racerWonHints": N_("won with hints, {moves}, {time}"),
    "racerLost": N_("stuck"),
    "racerResigned": N_("resigned"),
    "racerLeft": N_("left the game"),
    "racerPlaying": N_("playing"),
    "racerUnfinished": N_("did not finish in time"),
}
# The page counts a player's moves in the board's own words, in the two forms it picks
# between by the language's rule (the browser's: "one", else the other), "{count}" kept.
MOVES = ("{count} move", "{count} moves")
# Translators: the web page, to a player with no game yet; {new} and {daily} are the labels
# of the two buttons beside the game's name.
START = N_("You have no game yet: pick one above, then press {new} or {daily}.")


class ChannelBoards(Protocol):
    """Discord's side of a move made on the page, given by whoever starts the server with a
    way to reach Discord (the bot's process, or ``python -m bot --web`` with the bot's
    token): the player's live board messages in channels, the messages a reply brings up
    to date (a challenge's), and a race's result, posted in its channel."""

    async def refresh(self, channel_id: int, message_id: int, board: Board) -> None: ...

    async def update(self, update: Update) -> None: ...

    async def post(self, channel_id: int, text: Text) -> None: ...


class WebReplies:
    """The ``Presenter`` of one request: it keeps what the core shows; the player's boards
    in channels follow through ``channels`` (None: Discord out of reach, as in dev mode)."""

    # The verdict comes when it comes: the reply is not kept waiting for the solver, and the
    # page learns a later "no win is possible" when it next asks (``Core.board``).
    source = "page"
    awaits_verdict = False
    shows_pictures = False  # the page lays out the cards itself: a picture only for channels
    amends_within: float | None = None  # the page asks again, and learns the verdict then

    def __init__(self, player: Player, channels: ChannelBoards | None = None) -> None:
        self.player = player
        self.channels = channels
        self.refreshes_boards = channels is not None
        self.reply = Reply()
        self.waits: list[Text] = []

    async def show(self, reply: Reply) -> Posted | None:
        self.reply = reply
        return None  # the page posts no message

    async def wait(self, text: Text) -> None:
        self.waits.append(text)

    async def amend(self, amended: LostBoard) -> None:
        board = self.reply.board
        if board is not None:  # (the answer has gone, unless the verdict came first)
            self.reply = replace(self.reply, board=board.lost(amended))

    async def collapse(self, channel_id: int, message_id: int) -> None:
        """Never asked: the page posts no board in a channel."""

    async def refresh(self, channel_id: int, message_id: int, board: Board) -> None:
        if self.channels is not None:
            await self.channels.refresh(channel_id, message_id, board)

    async def update(self, update: Update) -> None:
        if self.channels is not None:
            await self.channels.update(update)

    def shown(self) -> dict[str, Any]:
        """What was shown, as the page's JSON (in the language spoken now)."""
        return reply_json(self.reply, self.player.user_id)


def reply_json(reply: Reply, player_id: int) -> dict[str, Any]:
    """The reply for the page, in the language spoken, its words as the page's pieces
    (``words.said``). The refusal that says there is no game yet names the command that
    deals one, which the page has its own buttons for: it says so in its own words. A
    hint's step and the settings go as data besides their words."""
    return {
        "hint": None if reply.hint is None else hint_json(reply.hint),
        "settings": None if reply.settings is None else settings_json(reply.settings),
        "board": None if reply.board is None else board_json(reply.board, player_id),
        "message": None if reply.message is None else message_json(reply.message, player_id),
        "note": None if reply.note is None else said(reply.note, player_id),
        "refused": reply.refused,
        "noGame": reply.no_game,
    }


def hint_json(step: HintStep) -> dict[str, Any]:
    """A hint's step as the page plays it: ``{"move": "7 3"}`` (as ``Board.moves`` has
    it), or ``{"action": "found"}`` for a button to press."""
    if step.action is not None:
        return {"action": step.action.value}
    return {"move": step.move}


def settings_json(settings: Settings) -> list[dict[str, Any]]:
    """Each setting: its name (the command's option), its words, and whether it is on."""
    return [{"name": name, "label": label(SETTING_WORDS[name]), "on": on}
            for name, on in settings.items()]


def message_json(message: Message, player_id: int) -> dict[str, Any]:
    question = message.question
    return {"text": said(message.text, player_id), "question": None if question is None else {
        "ask": question.ask.value, "args": list(question.args), "yes": question.yes,
        "no": question.no}}


def board_json(board: Board, player_id: int) -> dict[str, Any]:
    table = board.table
    assert table is not None, "a board made by the game flow carries its table"
    rules = RULES[table.game_id]
    names = card_names(current().code)
    piles = [{"label": pile_label(rules, i), "name": rules.pile_name(i),
              "cards": [_card(c, names) for c in cards]}
             for i, cards in enumerate(table.tableau)]
    foundations = [{"label": label("foundation {number}", number=f + 1),
                    "base": foundation(spec),
                    "count": len(cards), "size": spec.size,
                    "name": f"f{f + 1}", "cards": [_card(c, names) for c in cards]}
                   for f, (spec, cards) in enumerate(zip(rules.foundations, table.foundations,
                                                         strict=True))]
    return {
        "ref": [board.ref.game_row, board.ref.revision],
        "game": table.game_id,
        "text": said(board.text, player_id),
        "finished": board.finished,
        "lost": board.proven_lost,
        "fourColour": table.four_colour,
        "piles": piles,
        "foundations": foundations,
        "moves": [str(m) for m in table.moves],
        "buttons": [{"action": b.action.value, "label": b.label, "enabled": b.enabled}
                    for b in _tool_bar(board.controls.buttons)],
        "grids": grids(table.game_id),
        "played": {"seconds": round(table.seconds_played, 1), "hints": table.hints},
    }


def _tool_bar(buttons: tuple[Button, ...]) -> list[Button]:
    """The board's buttons that the page's tool bar has, in its order."""
    return sorted((b for b in buttons if b.action in TOOL_BAR),
                  key=lambda b: TOOL_BAR.index(b.action))


def _card(card: Card, names: tuple[str, ...]) -> dict[str, Any]:
    return {"code": str(card), "rank": current().rank(card.rank), "suit": card.suit,
            "name": names[card]}


@cache
def card_names(language: str) -> tuple[str, ...]:
    """Every card as a screen reader says it, in ``language``: ``Queen of hearts``."""
    words = picture_words(language)
    said = [words.card_words(card) for card in CARDS]
    return tuple(s[:1].upper() + s[1:] for s in said)


def pile_label(rules: Rules, pile: int) -> str:
    """A pile's accessible name, as the commands name it: ``pile 7``, ``stack 3 (S1)``."""
    name = rules.pile_name(pile)
    return for_piles(rules, label("pile {name}", name=name), label("stack {name}", name=name))


def page_words(language: str) -> dict[str, str]:
    """The page's own words in ``language``."""
    words = words_for(language)
    return {**{key: words.text(text) for key, text in PAGE_WORDS.items()},
            "moveOne": words.catalog.ngettext(*MOVES, 1),
            "moveOther": words.catalog.ngettext(*MOVES, 2)}


def page_start(player_id: int) -> list[list[Piece]]:
    """What the page says to a player with no game yet, in the language spoken now: its
    two buttons that deal are named, and work, in the sentence too."""
    return said(_(START, new=command("new"), daily=command("daily")), player_id)
