"""Playing a game speaks the player's language: every word of a board, its buttons and move
menu, a refusal, a question or a hint comes from the catalog, and what a player types
(moves, commands' arguments, game ids) stays as typed.

The language here is a pseudo-language whose catalog brackets every sentence it is asked
for (``⟦…⟧``, and ``‹…›`` for a short word with a context), so a word that reaches the
player without passing through the catalog shows up as letters outside the brackets.
"""

from __future__ import annotations

import gettext
import random
import re
from collections.abc import AsyncIterator, Iterator
from concurrent.futures import ThreadPoolExecutor

import pytest
from babel import Locale

from bot.core import Core
from bot.discord.limits import MENU_LIMIT, OPTION_LIMIT
from bot.discord.views import board_view
from bot.flows.actions import CONFIRMED
from bot.flows.boards import PICK, controls, move_label, move_option, no_win
from bot.flows.game import GameFlow
from bot.replies import (
    BUTTON_LABELS,
    Action,
    Board,
    BoardRef,
    LostBoard,
    MenuOption,
    Reply,
)
from bot.replies.text import Text
from bot.store import SavedGame, Stores
from bot.words.hints import hint_words
from bot.words.language import Words, speaking
from bot.words.menu import menu_of
from bot.workers.solver import HintAnswer, SolverWorker
from engine import FOUNDATION, GAMES, REDEAL, new_game
from tests.engine.positions import position
from tests.marked_language import Wrapping, installed
from tests.said import shown

from .conftest import ALICE, BOB, Clock, PositionPicture, as_the_core_calls

PSEUDO = "xx"


# Every sentence bracketed (its {placeholders} kept for the facts), every word in angles.
BRACKETED = Wrapping(("⟦", "⟧"), ("‹", "›"))


@pytest.fixture(autouse=True)
def pseudo() -> Iterator[None]:
    with installed(Words(PSEUDO, BRACKETED, Locale.parse("en"))), speaking(PSEUDO):
        yield


@pytest.fixture
async def flow(store: Stores, clock: Clock, picture: PositionPicture) -> AsyncIterator[GameFlow]:
    """A flow whose solver runs in a thread: the same searches, without a process start."""
    core = Core(store, renderer=picture, clock=clock, deals=random.Random(5),
                solver=SolverWorker(ThreadPoolExecutor(max_workers=1)))
    yield as_the_core_calls(core.game)
    await core.close()


TYPED = re.compile(r"`[^`]*`")  # what a player types, set apart: never translated


def bare_words(text: Text | str | None) -> list[str]:
    """The words of ``text`` (as Discord shows it) that did not come from the catalog: what
    is left once every bracketed sentence (facts and all), every typed text and the games'
    names are gone."""
    left = shown(text)
    while True:
        inner = re.sub(r"⟦[^⟦⟧]*⟧|‹[^‹›]*›", "", left)
        if inner == left:
            break
        left = inner
    left = TYPED.sub("", left)
    for name in GAMES.values():
        left = left.replace(name, "")
    return re.findall(r"[A-Za-z]{2,}", left)


def through_catalog(text: Text | str | None) -> bool:
    return bool(shown(text)) and not bare_words(text)


def whole_sentence(text: Text | str | None) -> bool:
    said = shown(text)
    return said.startswith("⟦") and said.endswith("⟧")


def assert_controls_are_worded(board: Board) -> None:
    controls = board.controls
    assert [b.label for b in controls.buttons] == [f"⟦{label}⟧" for label in BUTTON_LABELS.values()]
    assert whole_sentence(controls.menu_placeholder), controls.menu_placeholder
    with speaking(board.language):
        menu, placeholder = menu_of(controls, MENU_LIMIT)  # as Discord shows it
    assert whole_sentence(placeholder), placeholder
    for option in (*controls.menu, *menu):
        typed, _sep, said = option.label.partition(" · ")
        if option.value.startswith(PICK):
            assert whole_sentence(option.label), option
            continue
        assert typed == option.value.replace(" ", " → "), option  # the move, as it is typed
        assert whole_sentence(said), option


def board_of(reply: Reply) -> Board:
    assert reply.board is not None, reply
    return reply.board


async def test_a_new_board_and_a_move_are_worded_through_the_catalog(flow: GameFlow) -> None:
    board = board_of(await flow.new_game(ALICE, "trefoil", 27, draw=True))
    assert through_catalog(board.text), bare_words(board.text)
    assert "`/‹new› trefoil 27 ‹draw›:True`" in shown(board.text), "the share line as typed"
    assert "`/‹rules› trefoil`" in shown(board.text)
    assert_controls_are_worded(board)
    assert {o.value for o in board.controls.menu} >= {"7 f1", "8 f2"}, "moves stay as typed"
    moved = board_of(await flow.act(ALICE, Action.MOVE, "7 f1"))
    assert through_catalog(moved.text), bare_words(moved.text)
    assert "`7 f1` (‹2›♣)" in shown(moved.text), "the card in this language's letters"
    assert_controls_are_worded(moved)


async def test_a_finished_board_and_the_refusal_after_it_are_worded(flow: GameFlow) -> None:
    await flow.new_game(ALICE, "trefoil", 27)
    question = (await flow.act(ALICE, Action.RESIGN)).message
    assert question is not None and question.question is not None
    assert through_catalog(question.text), bare_words(question.text)
    assert (question.question.yes, question.question.no) == ("⟦Resign⟧", "⟦Keep playing⟧")
    resigned = board_of(await flow.act(ALICE, Action.RESIGN, CONFIRMED))
    assert through_catalog(resigned.text) and resigned.finished
    assert_controls_are_worded(resigned)
    refused = await flow.act(ALICE, Action.UNDO)
    assert refused.refused and through_catalog(refused.note), shown(refused.note)


async def test_refusals_and_questions_are_worded_through_the_catalog(flow: GameFlow) -> None:
    no_game = await flow.act(BOB, Action.SHOW)
    assert no_game.refused and whole_sentence(no_game.note), shown(no_game.note)
    both = await flow.new_game(ALICE, "trefoil", 7, winnable=True)
    assert both.refused and through_catalog(both.note), shown(both.note)
    assert "`‹winnable›:True`" in shown(both.note)
    await flow.new_game(ALICE, "trefoil", 27)
    await flow.act(ALICE, Action.MOVE, "7 f1")
    wrong = await flow.act(ALICE, Action.MOVE, "1 1")
    legal = shown(wrong.note).split("\n")[-1]  # after the engine's own refusal
    assert wrong.refused and whole_sentence(legal) and "`8 f2`" in legal, shown(wrong.note)
    no_pile = await flow.act(ALICE, Action.PICK, "99")
    assert no_pile.refused and through_catalog(no_pile.note), shown(no_pile.note)
    over = (await flow.new_game(ALICE, "clover-leaf", 3)).message
    assert over is not None and over.question is not None
    assert through_catalog(over.text), bare_words(over.text)
    assert (over.question.yes, over.question.no) == ("⟦Start new game⟧", "⟦Keep playing⟧")


def test_a_long_menu_picks_piles_in_words_and_names_stacks_as_stacks() -> None:
    game = new_game("corner-stones", 1)
    moves = [m for m in game.legal_moves() if m.kind != REDEAL]
    menu, placeholder = menu_of(controls(game, False), MENU_LIMIT)
    picks = [o for o in menu if o.value.startswith(PICK)]
    assert picks and all(whole_sentence(o.label) for o in picks)
    assert whole_sentence(placeholder) and "stack" in placeholder
    narrowed, placeholder = menu_of(controls(game, False, game.source_pile(moves[-1])), MENU_LIMIT)
    assert "stack" in placeholder and "pile" not in placeholder
    assert whole_sentence(narrowed[-1].label)  # back to every pile's moves


def test_a_menu_label_in_english_names_the_card_and_where_it_goes() -> None:
    with speaking(None):
        game = position("trefoil", {1: "9C", 2: "10C", 3: "2C"}, redeals_left=2)
        assert move_label(game, game.resolve("1 2")) == "1 → 2 · 9♣ on 10♣"
        assert move_label(game, game.resolve("3 f1")) == "3 → f1 · 2♣ to ♣ A↑"
        assert move_label(game, game.resolve("redeal")) == "Redeal (2 left)"
        drawn = position("trefoil", {1: "5H 9C"}, redeals_left=0, draw=True)
        assert (move_label(drawn, drawn.resolve("draw 5H"))
                == "Draw: bring 5♥ to the top of its pile (once)")
        stones = position("corner-stones", {1: "", 3: "5C"})
        assert move_label(stones, stones.resolve("3 1")) == "3 (S1) → 1 (C1) · 5♣ to the empty stack"


@pytest.mark.parametrize("language", [None, "de", PSEUDO])
def test_menu_options_kept_from_earlier_boards_read_as_worded_afresh(
    language: str | None,
) -> None:
    """``move_option`` keeps options already worded: along random games of every game (draws
    and redeals included), each option it gives is the move's label worded now."""
    rng = random.Random(f"options/{language}")
    with speaking(language):
        for game_id in GAMES:
            for _deal in range(3):
                game = new_game(game_id, rng.randrange(1, 10_000), draw=game_id == "trefoil")
                for _step in range(60):
                    moves = game.legal_moves()
                    if not moves:
                        break
                    for move in moves:
                        pile = None if move.kind == FOUNDATION else game.source_pile(move)
                        assert move_option(game, move) == MenuOption(
                            str(move), move_label(game, move), pile), (game_id, move)
                    game.play(rng.choice(moves))


def test_a_long_translation_is_cut_to_fit_a_menu() -> None:
    class Long(gettext.NullTranslations):
        def gettext(self, message: str) -> str:
            return message + " " + "x" * 120

    with installed(Words("xx-long", Long(), Locale.parse("en"))), speaking("xx-long"):
        game = new_game("trefoil", 27)
        board = Board(owner_id=1, ref=BoardRef(1, 0), text=Text(), filename="board.png",
                      controls=controls(game, False), finished=False, language="xx-long")
        menu = board_view(board).to_components()[-1]["components"][0]
    assert all(len(o.label) > OPTION_LIMIT for o in board.controls.menu)  # all said here
    labels = [o["label"] for o in menu["options"]]  # and fitted by Discord's adapter
    assert labels and all(len(x) == OPTION_LIMIT and x.endswith("…") for x in labels)


def test_hints_are_worded_with_this_languages_cards_and_piles() -> None:
    game = new_game("corner-stones", 1)
    move = next(m for m in game.legal_moves() if m.kind != REDEAL)
    facts = [
        HintAnswer(str(move), winning=True, lost=False, moves_left=40),
        HintAnswer(str(move), winning=True, lost=False, action="to-foundations", moves_left=9),
        HintAnswer(None, winning=True, lost=False, action="auto-finish"),
        HintAnswer(str(move), winning=False, lost=True, undo_to_win=3, cards_up=20),
        HintAnswer(str(move), winning=False, lost=False, cards_up=20),
    ]
    for found in facts:
        words = hint_words(game, found)
        assert through_catalog(words), (found, bare_words(words))
        assert "pile" not in shown(words), "Corner Stones has stacks"
    said = shown(hint_words(game, facts[0]))
    assert f"`{move}`" in said and "‹" in said, "the move as typed, the cards in letters"


def test_a_hint_before_a_redeal_is_worded_from_the_catalog() -> None:
    game = new_game("trefoil", 42)
    facts = [
        HintAnswer("5 f3", False, False, cards_up=11, shuffles=128, shuffles_won=28),
        HintAnswer("redeal", False, False, cards_up=4, shuffles=128, shuffles_won=0),
        HintAnswer("5 f3", False, False, cards_up=11, shuffles=32, shuffles_won=32),
    ]
    for found in facts:
        words = hint_words(game, found)
        assert through_catalog(words), (found, bare_words(words))


def test_a_hint_before_a_redeal_says_how_often_its_plan_wins() -> None:
    with speaking("en"):
        game = new_game("trefoil", 42)
        step = hint_words(game, HintAnswer("5 f3", False, False, cards_up=11, shuffles=128,
                                           shuffles_won=28))
        redeal = hint_words(game, HintAnswer("redeal", False, False, cards_up=4, shuffles=128,
                                             shuffles_won=0))
        every = hint_words(game, HintAnswer("redeal", False, False, cards_up=4, shuffles=32,
                                            shuffles_won=32))
    assert shown(step) == (
        "Hint: `5 f3` — 2♥ up to its foundation f3. This deal can't be won without a redeal, "
        "and no one can know its shuffle: play on to 11 of 52 cards up, then redeal. That "
        "wins in about 20% of shuffles."
    )
    assert shown(redeal) == (
        "Hint: `redeal` — gather the piles and deal them again (2 left). This deal can't be "
        "won without a redeal, and no one can know its shuffle. That wins in none of the 128 "
        "shuffles tried."
    )
    assert shown(every).endswith("That wins in all 32 shuffles tried.")
    assert "redeal — redeal" not in shown(redeal)


async def test_a_proven_loss_is_told_in_the_language_of_the_board(stepped: GameFlow) -> None:
    flow = stepped
    await flow.new_game(ALICE, "trefoil", 2)
    await flow.act(ALICE, Action.REDEAL)
    board = board_of(await flow.act(ALICE, Action.REDEAL))  # proven lost, moves still left
    delivered: list[LostBoard] = []

    async def deliver(lost: SavedGame) -> None:
        delivered.append(await flow.amended(board, lost))

    flow.verdicts.request_verdict(board, deliver)  # queued, run below
    with speaking(None):  # the check runs later, in no player's call
        await flow.verdicts.run_waiting_checks()
    redealt = new_game("trefoil", 2)
    redealt.play("redeal")  # moves of the player's own: "from here", in the board's words
    assert [shown(a.text) for a in delivered] == [f"{shown(board.text)}\n{shown(no_win(redealt))}"]
    assert shown(delivered[0].text).endswith("⟧")
