"""The engine's phrases (refusals, the odds) and the rules and help, in the language spoken
now: every template from its catalog, cards and figures as that language writes them."""

from __future__ import annotations

import gettext
import re
from collections.abc import Iterator

import pytest
from babel import Locale

from bot.words.help import help_text, records_help, rules_text
from bot.words.language import Words, install, speaking
from bot.words.phrases import played, refused
from engine import GAMES, IllegalMove
from tests.engine.positions import position
from tests.said import shown

GERMAN_RANKS = {"J": "B", "Q": "D"}


class Shouting(gettext.NullTranslations):
    """A stand-in catalog: every message upper-cased outside its placeholders and its
    ``<b>``/``<i>`` marks (a translation keeps both as they are), and German rank letters,
    with German numbers."""

    def gettext(self, message: str) -> str:
        return re.sub(r"\{\w*\}|</?[bi]>|[^{<]+|[{<]",
                      lambda m: m[0] if m[0].startswith(("{", "<")) else m[0].upper(), message)

    def pgettext(self, context: str, message: str) -> str:
        return GERMAN_RANKS.get(message, message) if context == "card rank" else message


@pytest.fixture(autouse=True)
def shouting() -> Iterator[None]:
    install(Words("x-shout", Shouting(), Locale.parse("de")))
    with speaking("x-shout"):
        yield


def test_a_refusal_is_worded_in_the_language_spoken_now() -> None:
    with pytest.raises(IllegalMove) as refusal:
        position("trefoil", {1: "QC", 2: "4H"}).play("1 2")
    assert shown(refused(refusal.value)) == (
        "D♣ CAN'T GO ON 4♥: IN TREFOIL A CARD GOES ON THE NEXT HIGHER CARD OF ITS OWN SUIT."
    )
    with pytest.raises(IllegalMove) as refusal:
        position("trefoil", {1: "9C"}).play("1 fx")
    assert shown(refused(refusal.value)).startswith("`x` IN `1 fx` IS NOT A FOUNDATION LIKE `f2`. ")


def test_a_move_played_names_its_card_as_the_language_prints_it() -> None:
    game = position("trefoil", {1: "QC"}, {1: "AC 2C 3C 4C 5C 6C 7C 8C 9C 10C JC"})
    move = game.play("1 f1")
    assert shown(played(game, move)) == "`1 f1` (D♣)"


def test_the_rules_and_their_odds_are_in_the_language_spoken_now() -> None:
    text = shown(rules_text("trefoil"))
    assert text.startswith("**Trefoil** — ONE DECK, EVERY CARD FACE UP.\n• THE FOUR ACES START")
    spaced = text.replace("\xa0", " ").replace("\u202f", " ")  # Babel's data picks the space
    assert ("**ODDS**: WITH PERFECT PLAY, EVERY SHUFFLE KNOWN, 100 % OF DEALS CAN BE WON "
            "(DEALS 1–10.000). A PLAYER WHO NEVER UNDOES A REDEAL WINS ABOUT 21,0 % "
            "(95 % INTERVAL 19,3–22,8 %).") in spaced
    assert "`/move 7 3` PUTS PILE 7'S TOP CARD ON PILE 3" in text
    assert "`/move 1 5` PUTS STACK 1'S TOP CARD ON STACK 5" in shown(rules_text("corner-stones"))


def test_the_help_is_in_the_language_spoken_now() -> None:
    for part in (help_text(), records_help()):
        words = re.sub(r"`[^`]*`", "", shown(part))  # what a player types stays as typed
        for name in GAMES.values():  # and so do the games' names
            words = words.replace(name, "")
        assert words == words.upper()
