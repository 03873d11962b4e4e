"""Phrases the core's replies share, as ``Text``: each adapter shows their parts its way.

The engine words its refusals in plain text with the facts kept apart; here what a player
types becomes a ``Typed`` part. Anything a player reads that more than one module says is
written here once.
"""

from __future__ import annotations

import unicodedata
from typing import TypeVar

from engine import DRAW, Card, FoundationSpec, Game, Move, Phrase, RuleError, Rules
from engine.words import Figure, Rank
from engine.words import Typed as TypedFact

from ..replies.text import Command, Moment, Person, Text, Typed
from ..replies.text import fill as text_fill
from .language import _, current, p_
from .typed import as_typed

Worded = TypeVar("Worded", str, Text)

__all__ = [
    "apology",
    "changed_meanwhile",
    "code",
    "command",
    "for_piles",
    "format_seconds",
    "foundation",
    "medal",
    "mention",
    "no_game",
    "option",
    "played",
    "refused",
    "saved_not_shown",
    "shared_command",
    "shown_as_typed",
    "sorry",
    "spoken",
    "typed_command",
    "unreachable",
    "unreachable_in_doubt",
]


def no_game() -> Text:
    return _("You have no game yet. Start one with {new} — for example {new_trefoil}.",
             new=command("new"), new_trefoil=command("new", "trefoil"))


def apology() -> Text:
    """The core's apology: what failed wrote nothing."""
    return _("Sorry — something went wrong on my side and nothing was changed. Your saved "
             "game is as it was; please try again, or {show} to see it.", show=command("show"))


def changed_meanwhile() -> Text:
    """A change another process made first: nothing of this one was played."""
    return _("Your game changed while that was being played, so it was not applied. {show} "
             "shows the current position.", show=command("show"))


# What the core says when its database cannot be reached, or when a change was saved but
# showing it failed: each tells the truth about what became of the player's action.


def unreachable() -> Text:
    return _("The game store is unreachable for a moment; nothing was played — try again "
             "shortly.")


def restarting() -> Text:
    return _("The bot is restarting, so nothing was done: try again in a moment.")


def unreachable_in_doubt() -> Text:
    return _("The game store became unreachable while that was being saved, so it may or "
             "may not have been kept. Try {show} in a moment: it shows where your game is.",
             show=command("show"))


def saved_not_shown() -> Text:
    return _("That was done and saved, but something went wrong while showing it. {show} "
             "posts your current board.", show=command("show"))


def sorry() -> Text:
    """The adapters' apology: answering failed, and what the core did is not known there."""
    return _("Sorry — something went wrong while answering. {show} posts your current board.",
             show=command("show"))


ECHO_LIMIT = 40  # a player's text is echoed back at most this long


def shown_as_typed(text: str) -> str:
    """What a player typed, fit to show: without the characters that are not seen but act
    (controls such as NUL, bidirectional overrides such as U+202E, zero-width and other
    format characters, unassigned ones); a line break or tab becomes a space."""
    return "".join(" " if c.isspace() else c for c in text
                   if c.isspace() or unicodedata.category(c) not in _UNSEEN)


_UNSEEN = frozenset(("Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"))


def code(text: str) -> Text:
    """Text a player types, set apart (Discord: in backticks), cut short if long: it may
    be what they typed, echoed back; without what would act unseen (``shown_as_typed``)."""
    text = shown_as_typed(text)
    if len(text) > ECHO_LIMIT:
        text = text[: ECHO_LIMIT - 1] + "…"
    return Text(Typed(text))


def command(name: str, *args: str) -> Text:
    """A command to suggest, by its English name: ``command("new", "trefoil")``. Each
    place words it (Discord: `` `/new trefoil` ``, German `` `/neu trefoil` ``). Whole,
    however long its words: the bot writes it, for the player to type (an echo of the
    player's own text goes through ``code``)."""
    return Text(Command(name, args, current().code))


def typed_command(name: str, *args: str) -> str:
    """A command as it is typed, in the language spoken now: ``/new trefoil``, German
    ``/neu trefoil`` (Discord's chat and the console's prompt take it so)."""
    return " ".join(["/" + p_("command", name), *args])


def shared_command(name: str, *args: str) -> Text:
    """A command for others to type, such as the deal a player shares: ``command``'s, to
    copy rather than to press."""
    return Text(Command(name, args, current().code, shared=True))


def option(name: str, value: str) -> str:
    """A command's option as the player types it, by its English name, in the language
    spoken now: ``option("draw", "True")`` -> ``draw:True``."""
    return f"{p_('option', name)}:{value}"


def refused(err: RuleError) -> Text:
    """An engine refusal, in the language spoken now."""
    return spoken(err.phrase)


def spoken(phrase: Phrase) -> Text:
    """A phrase of the engine's (a refusal, the odds) in the language spoken now: each
    template from its catalog, cards and figures as it writes them, typed text as parts."""
    words = current()

    def fill(phrase: Phrase) -> Text:
        template = words.catalog.gettext(phrase.template)
        return text_fill(template, {k: show(v) for k, v in phrase.facts.items()}
                         if phrase.facts else None)

    def show(value: object) -> Text | str:
        if isinstance(value, Phrase):
            return fill(value)
        if isinstance(value, tuple | list):
            return Text(", ").join(show(v) for v in value)
        if isinstance(value, TypedFact):
            return code(str(value))
        return phrase_word(value)

    return fill(phrase)


def phrase_word(value: object) -> str:
    """A fact of an engine's phrase that is not typed text, as this language writes it."""
    if isinstance(value, Figure):
        return _figure(value)
    if isinstance(value, Card):
        return current().card(value)
    if isinstance(value, Rank):
        return current().rank(int(value))
    return str(value)


def _figure(figure: Figure) -> str:
    words = current()
    if figure.percent:
        return words.percent(figure.value, figure.places)
    return words.number(figure.value, figure.places)


def played(game: Game, move: Move) -> Text:
    """A move just played, with the card it moved: `` `7 f2` (9♣) ``."""
    card = game.placed_card(move)
    shown = code(as_typed(str(move)))
    if card is None or move.kind == DRAW:
        return shown
    return shown + f" ({current().card(card)})"


def for_piles(rules: Rules, pile: Worded, stack: Worded) -> Worded:
    """The sentence ``pile`` or ``stack``, whichever is worded with the game's own word for
    a tableau pile (Corner Stones' stacks): each is a whole sentence of its own, so that a
    translation can fit its word's gender and case."""
    return stack if rules.pile_word == "stack" else pile


def foundation(spec: FoundationSpec) -> str:
    """A foundation by its suit, base card and direction, as this language's cards print
    it: ``♣ A↑``, ``♦ K↓``; one that takes any suit: ``any A↑`` (plain words: a menu's
    label shows them too)."""
    words = current()
    return spec.phrase.worded(str, translate=words.catalog.gettext, card=words.card,
                              rank=words.rank, figure=_figure)


def format_seconds(seconds: float) -> str:
    """``75`` -> ``1:15``; ``3725`` -> ``1:02:05``."""
    whole = round(seconds)
    hours, rest = divmod(whole, 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours}:{minutes:02}:{secs:02}" if hours else f"{minutes}:{secs:02}"


def mention(user_id: int) -> Text:
    """A player named in a reply (Discord: a mention that pings nobody)."""
    return Text(Person(user_id))


def moment(when: float) -> Text:
    """A moment (Unix seconds), which each reader sees in their own time zone."""
    return Text(Moment(int(when)))


def medal(rank: int) -> str:
    """A place on a board: a medal for the first three."""
    return {1: "🥇", 2: "🥈", 3: "🥉"}.get(rank, f"{rank}.")


DAY_TYPED_LIMIT = 16  # the most characters /daily-board takes for a day (2026-11-22: 10)


def typed_days() -> dict[str, int]:
    """The words a player may type for a day, lower case, with how many days back each is:
    ``today`` and ``yesterday`` in English and in the language spoken."""
    return {
        "today": 0, "yesterday": 1,
        p_("a day typed in /daily-board", "today").lower(): 0,
        p_("a day typed in /daily-board", "yesterday").lower(): 1,
    }
