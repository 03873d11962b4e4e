"""Every word the pictures show, in one place, worded in the language of the player.

render/ knows no catalog and no language spoken now (those are the bot's): a picture is
drawn with the ``PictureWords`` it is handed, built from the functions of the player's
language (``bot/workers/pictures.py`` builds them); without one, English. Each word here
is a catalog message written as the bot's own are (``self._("Deal {number}", number=7)``,
``self.n_(...)``, ``self.p_(...)``), so that Babel's extraction finds them under the same
keywords: whole sentences, facts as named placeholders, ``{count}`` in a plural.

Layouts leave room for words about 40% longer than these English ones (a test draws every
picture with each word stretched so): a line that would not fit shrinks, or the next
shorter form of a banner is drawn.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from engine import Card
from engine.cards import RANK_NAMES, SUIT_SYMBOLS

Text = Callable[..., str]  # text(message, /, **facts): the message translated, facts filled in
Plural = Callable[..., str]  # plural(singular, plural, count, /, **facts), {count} filled in
Word = Callable[[str, str], str]  # word(context, message)
Rank = Callable[[int], str]  # rank(12) -> "Q": the rank as the language's cards print it
Percent = Callable[[float], str]  # percent(0.42) -> "42%"


def english_text(message: str, /, **facts: Any) -> str:
    return message.format(**facts) if facts else message


def english_plural(singular: str, plural: str, count: int, /, **facts: Any) -> str:
    """As the bot's English: ``{count}`` written with its thousands grouped."""
    return (singular if count == 1 else plural).format(count=f"{count:,}", **facts)


def english_word(context: str, message: str) -> str:
    return message


def english_rank(rank: int) -> str:
    return RANK_NAMES[rank - 1]


def english_percent(fraction: float) -> str:
    return f"{fraction:.0%}"


class PictureWords:
    """The words of one language for the pictures: each method words one thing, through
    the language's ``text`` (a sentence), ``plural`` (a sentence with a count), ``word``
    (a word with a context), ``rank`` (a rank letter) and ``percent``."""

    def __init__(
        self,
        text: Text = english_text,
        plural: Plural = english_plural,
        word: Word = english_word,
        rank: Rank = english_rank,
        percent: Percent = english_percent,
    ) -> None:
        # Named as the bot's functions are, so that Babel's extraction finds the messages.
        self._ = text
        self.n_ = plural
        self.p_ = word
        self.percent = percent
        # The rank letters as this language's cards print them (``D`` for a German queen):
        # what card faces are drawn with, and cached by.
        self.ranks: tuple[str, ...] = tuple(rank(r) for r in range(1, 14))

    def rank(self, rank: int) -> str:
        """A rank (1 to 13) as this language's cards print it."""
        return self.ranks[rank - 1]

    def card(self, card: Card) -> str:
        """``Q♥``; German ``D♥``."""
        return self.ranks[card.rank - 1] + SUIT_SYMBOLS[card.suit]

    # -- the board's title --------------------------------------------------------------

    def deal(self, number: int) -> str:
        return self._("Deal {number}", number=number)

    def moves(self, count: int) -> str:
        return self.n_("{count} move", "{count} moves", count)

    def redeals_left(self, count: int) -> str:
        if count == 0:
            return self._("no redeals left")
        return self.n_("{count} redeal left", "{count} redeals left", count)

    # Trefoil's draw house rule: available (not used yet), used, or on and not yet
    # available (redeals remain)
    def draw_available(self) -> str:
        return self._("draw available")

    def draw_used(self) -> str:
        return self._("draw used")

    def draw_rule(self) -> str:
        return self._("draw rule")

    def last_move(self, source: str, target: str) -> str:
        """``source``, ``target``: what a player types for them (``7``, ``f2``)."""
        return self._("Last move: {source} → {target}", source=source, target=target)

    def last_move_redeal(self) -> str:
        return self._("Last move: redeal")

    def last_move_draw(self, card: Card) -> str:
        return self._("Last move: draw {card}", card=self.card(card))

    # -- foundations --------------------------------------------------------------------

    def next_any(self, rank: int) -> str:
        """Four Leaf Clovers' one foundation: the rank it takes next, of any suit."""
        return self._("next: any {rank}", rank=self.rank(rank))

    def start_any_ace(self) -> str:
        """The same foundation while empty."""
        return self._("any {rank}↑", rank=self.rank(1))

    # -- banners: each the longest first; the first that fits is drawn -------------------

    def won(self, moves: int) -> tuple[str, ...]:
        return (self.n_("You won in {count} move! Every card is home.",
                        "You won in {count} moves! Every card is home.", moves),
                self.n_("You won in {count} move!", "You won in {count} moves!", moves),
                self._("Won!"))

    def won_with_hints(self, moves: int) -> tuple[str, ...]:
        return (self.n_("Won with hints in {count} move: every card is home.",
                        "Won with hints in {count} moves: every card is home.", moves),
                self.n_("Won with hints in {count} move", "Won with hints in {count} moves",
                        moves),
                self._("Won with hints"))

    def resigned(self, moves: int) -> tuple[str, ...]:
        return (self.n_("Resigned after {count} move.", "Resigned after {count} moves.", moves),
                self._("Resigned"))

    def stuck(self, dealt: bool = False) -> tuple[str, ...]:
        """``dealt``: no undo can help (the deal itself is lost)."""
        if dealt:
            return (self._("Stuck: no move left, and no win was possible from this deal."),
                    self._("Stuck: no move left"), self._("Stuck"))
        return (self._("Stuck: no move left. Undo or start again."),
                self._("Stuck: no move left"), self._("Stuck"))

    def no_win(self, dealt: bool = False) -> tuple[str, ...]:
        """``dealt``: from the deal itself, which no undo can help."""
        if dealt:
            return (self._("No win is possible from this deal. Deal another."),
                    self._("No win is possible from this deal"), self._("No win possible"))
        return (self._("No win is possible from here. Undo or start again."),
                self._("No win is possible from here"), self._("No win possible"))

    # -- the stats card -----------------------------------------------------------------

    def no_games(self) -> str:
        return self._("No finished games yet.")

    def stats_count(self, won: int, played: int, assisted: int) -> str:
        """A game's wins on the card: without a hint, out of those played; then with hints."""
        if not played:
            return self._("not played")
        if won and assisted:
            return self._("{won}/{played} won · {percent} · {assisted} with hints", won=won,
                          played=played, percent=self.percent(won / played), assisted=assisted)
        if won:
            return self._("{won}/{played} won · {percent}", won=won, played=played,
                          percent=self.percent(won / played))
        if assisted:
            return self._("{won}/{played} won · {assisted} with hints", won=won, played=played,
                          assisted=assisted)
        return self._("{won}/{played} won", won=won, played=played)

    def stats_count_words(self, won: int, played: int, assisted: int) -> str:
        """The same, for the card's alt text."""
        if not played:
            return self._("not played")
        percent = self.percent(won / played)
        if assisted:
            return self._("{won} of {played} won ({percent}), {assisted} more won with hints",
                          won=won, played=played, percent=percent, assisted=assisted)
        return self._("{won} of {played} won ({percent})", won=won, played=played,
                      percent=percent)

    # -- alt texts: the pictures in words, for a screen reader (plain text, no Markdown) --

    def rank_name(self, rank: int) -> str:
        """``queen``, ``7``: a rank as a screen reader should say it."""
        if rank == 1:
            return self.p_("card", "ace")
        if rank == 11:
            return self.p_("card", "jack")
        if rank == 12:
            return self.p_("card", "queen")
        if rank == 13:
            return self.p_("card", "king")
        return str(rank)

    def suit_name(self, suit: int) -> str:
        if suit == 0:
            return self.p_("card", "clubs")
        if suit == 1:
            return self.p_("card", "diamonds")
        if suit == 2:
            return self.p_("card", "hearts")
        return self.p_("card", "spades")

    def card_words(self, card: Card) -> str:
        """``queen of hearts``."""
        return self._("{rank} of {suit}", rank=self.rank_name(card.rank),
                      suit=self.suit_name(card.suit))

    def alt_header(self, name: str, deal: int, draw_rule: bool, moves: int,
                   redeals: int | None) -> str:
        """The game, its deal and where it stands (``redeals``: None where there are none),
        as a list: ``Trefoil, deal 42, draw rule, 12 moves, 1 redeal left.``"""
        said = [name, self._("deal {number}", number=deal)]
        if draw_rule:
            said.append(self.draw_rule())
        said.append(self.moves(moves))
        if redeals is not None:
            said.append(self.redeals_left(redeals))
        return ", ".join(said) + "."

    def alt_won(self) -> str:
        return self._("Won, every card is home.")

    def alt_won_with_hints(self) -> str:
        return self._("Won with hints.")

    def alt_resigned(self) -> str:
        return self._("Resigned.")

    def alt_stuck(self, dealt: bool = False) -> str:
        if dealt:
            return self._("Stuck, no move left; no win was possible from this deal.")
        return self._("Stuck, no move left.")

    def alt_no_win(self, dealt: bool = False) -> str:
        if dealt:
            return self._("No win is possible from this deal.")
        return self._("No win is possible from here.")

    def alt_foundations(self, foundations: str) -> str:
        """``foundations``: each ``f1: ace of clubs, up, 1 of 13``, joined by ``; ``."""
        return self._("Foundations: {foundations}.", foundations=foundations)

    def alt_foundation(self, top: Card | None, up: bool, count: int, size: int,
                       suit: int | None, base_rank: int) -> str:
        """A foundation: its top card and how far it has got, or what it takes while empty."""
        if top is not None:
            card = self.card_words(top)
            if up:
                return self._("{card}, up, {count} of {size}", card=card, count=count, size=size)
            return self._("{card}, down, {count} of {size}", card=card, count=count, size=size)
        rank = self.rank_name(base_rank)
        if suit is None:
            if up:
                return self._("empty, any suit up from {rank}", rank=rank)
            return self._("empty, any suit down from {rank}", rank=rank)
        if up:
            return self._("empty, {suit} up from {rank}", suit=self.suit_name(suit), rank=rank)
        return self._("empty, {suit} down from {rank}", suit=self.suit_name(suit), rank=rank)

    # The engine's word for a tableau pile: "pile", or Corner Stones' "stack".

    def alt_card_codes(self, stacks: bool) -> str:
        """How a pile's cards are listed: by the codes a player types (``QH``, ``10C``:
        English, as typed), which fit every card of Corner Stones' 104 within Discord's
        1,024 characters (words would not)."""
        if stacks:
            return self._("Cards by rank and suit letter (C clubs, D diamonds, H hearts, "
                          "S spades), each stack from bottom to top.")
        return self._("Cards by rank and suit letter (C clubs, D diamonds, H hearts, "
                      "S spades), each pile from bottom to top.")

    def alt_card_codes_short(self, stacks: bool) -> str:
        """The same in short, where the whole would not fit (Corner Stones' longest, in a
        language 40% longer than English)."""
        if stacks:
            return self._("Cards by their codes (QH, 10C), each stack from bottom to top.")
        return self._("Cards by their codes (QH, 10C), each pile from bottom to top.")

    def alt_piles(self, stacks: bool, piles: str) -> str:
        """``piles``: each ``3: 7H QS`` (or ``3: empty``), joined by ``; ``."""
        if stacks:
            return self._("Stacks: {piles}.", piles=piles)
        return self._("Piles: {piles}.", piles=piles)

    def alt_all_empty(self, stacks: bool) -> str:
        if stacks:
            return self._("Stacks: all empty.")
        return self._("Piles: all empty.")

    def alt_empty(self) -> str:
        """An empty pile, in the list of piles."""
        return self._("empty")


ENGLISH = PictureWords()
