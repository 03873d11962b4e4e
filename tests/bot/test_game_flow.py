"""The game flow against a real SQLite file: what each action saves and what it answers."""

from __future__ import annotations

import asyncio
import json
import random
from pathlib import Path

import pytest

from bot.core import Core
from bot.discord.limits import MENU_LIMIT
from bot.flows.actions import CONFIRMED
from bot.flows.choices import Choices
from bot.flows.game import GameFlow
from bot.replies import Action, BoardRef, DealRequest, Player, Reply
from bot.store import Stores
from bot.words.language import ENGLISH, LANGUAGES, speaking
from bot.words.language import _ as in_language_spoken
from bot.words.menu import menu_of
from bot.words.phrases import apology, no_game, saved_not_shown
from engine import FOUNDATION, new_game
from tests.bot.reference import all_results
from tests.said import shown

from .conftest import ALICE, BOB, Clock, PositionPicture, offer_of, picture_of
from .presenting import Answering, answer

# A winning line for Trefoil deal 27, found once by random play; deals never change.
TREFOIL_27_WIN = [
    "7 f1", "8 f2", "5 f2", "11 f2", "11 f3", "13 f4", "14 f2", "6 f2", "16 f2", "4 f2", "8 f2",
    "9 13", "9 f3", "5 f3", "9 f2", "11 f3", "6 f3", "15 7", "2 12", "14 6", "14 1", "redeal",
    "4 f1", "11 f2", "8 2", "8 f2", "4 f2", "5 11", "redeal", "4 f3", "6 f3", "4 f3", "6 f1",
    "8 f4", "4 f4", "5 f4", "5 f3", "2 f3", "5 f1", "3 f1", "9 f1", "6 f1", "9 3", "9 f4",
    "7 f4", "1 f4", "1 f1", "7 f3", "2 f3", "8 f1", "7 f1", "8 f4", "2 f4", "1 f4", "3 f4",
    "3 f4", "3 f1", "10 f1",
]


async def start(flow: GameFlow, player: Player = ALICE, game: str = "trefoil", deal: int = 27) -> Reply:
    reply = await flow.new_game(player, game, deal)
    assert reply.board is not None, reply
    return reply


async def stored_state(store: Stores, player: Player = ALICE) -> tuple[object, ...]:
    saved = await store.games.load(player.user_id)
    assert saved is not None
    return (saved.id, saved.revision, saved.status, json.dumps(saved.game.to_dict()))


async def test_new_game_posts_a_board_with_the_deal_number(flow: GameFlow, store: Stores) -> None:
    reply = await start(flow, deal=42)
    board = reply.board
    assert board is not None and reply.note is None
    words = shown(board.text)
    assert "Trefoil" in words and "deal 42" in words and "/new trefoil 42" in words
    assert board.owner_id == ALICE.user_id
    saved = await store.games.load(ALICE.user_id)
    assert saved is not None
    assert board.ref == BoardRef(saved.id, 0)
    assert (saved.game.game_id, saved.game.deal_number, saved.guild_id) == ("trefoil", 42, 900)
    showing = await picture_of(flow, board)
    assert showing["tableau"] == [list(map(str, p)) for p in saved.game.tableau]


async def test_new_game_without_a_deal_picks_one_and_says_which(flow: GameFlow, store: Stores) -> None:
    reply = await flow.new_game(ALICE, "corner-stones")
    saved = await store.games.load(ALICE.user_id)
    assert saved is not None and reply.board is not None
    assert f"deal {saved.game.deal_number}" in shown(reply.board.text)


@pytest.mark.parametrize(
    ("game", "deal", "wrong"),
    [("hearts", None, "no game called `hearts`"), ("trefoil", 0, "from 1 to"),
     ("trefoil", 2**31, "from 1 to")],
)
async def test_new_game_refuses_unknown_games_and_deals(
    flow: GameFlow, store: Stores, game: str, deal: int | None, wrong: str
) -> None:
    reply = await flow.new_game(ALICE, game, deal)
    assert reply.refused and reply.board is None and reply.note is not None
    assert wrong in shown(reply.note)
    assert await store.games.load(ALICE.user_id) is None


async def test_a_move_is_saved_before_the_reply_and_shown(flow: GameFlow, store: Stores) -> None:
    await start(flow)
    reply = await flow.act(ALICE, Action.MOVE, "7 f1")
    assert reply.board is not None and not reply.refused
    assert "Played `7 f1`" in shown(reply.board.text) and "1 move ·" in shown(reply.board.text)
    saved = await store.games.load(ALICE.user_id)
    assert saved is not None
    assert saved.game.history[-1].kind == FOUNDATION and saved.revision == 1
    assert reply.board.ref == BoardRef(saved.id, 1)
    assert (await picture_of(flow, reply.board))["last"] == "7 f1"


async def test_a_press_on_an_old_board_is_refused_with_the_board_as_it_is_drawn(
    core: Core, flow: GameFlow
) -> None:
    """A refusal that shows the board instead (a press on an out-of-date board) is shown
    as every board is: its picture drawn, with its description."""
    started = await start(flow)
    await flow.act(ALICE, Action.MOVE, "7 f1")
    assert started.board is not None
    reply = await answer(core.act, ALICE, Action.UNDO, seen=started.board.ref)
    assert reply.refused and reply.note is not None and "out of date" in shown(reply.note)
    assert reply.board is not None and reply.board.png and reply.board.alt_text
    assert (await picture_of(flow, reply.board))["last"] == "7 f1"


@pytest.mark.parametrize(
    ("action", "arg", "says"),
    [
        (Action.MOVE, "7 3", "can't go on"),
        (Action.MOVE, "99 3", "There is no pile 99"),
        (Action.MOVE, "seven to three", "not a pile number"),
        (Action.MOVE, "f1 3", "never leave a foundation"),
        (Action.UNDO, None, "Nothing to undo"),
        (Action.REDO, None, "Nothing to redo"),
    ],
)
async def test_refusals_explain_and_leave_the_saved_game_unchanged(
    flow: GameFlow, store: Stores, action: Action, arg: str | None, says: str
) -> None:
    await start(flow)
    before = await stored_state(store)
    reply = await flow.act(ALICE, action, arg)
    assert reply.refused and reply.board is None and reply.note is not None
    assert says in shown(reply.note)
    assert await stored_state(store) == before


async def test_a_refused_move_lists_moves_that_would_work(flow: GameFlow) -> None:
    await start(flow)
    reply = await flow.act(ALICE, Action.MOVE, "7 3")
    assert reply.note is not None and "Legal now: `7 f1`" in shown(reply.note)


async def test_corner_stones_takes_the_names_its_picture_shows_and_says_stack(
    flow: GameFlow, store: Stores
) -> None:
    """/move C1 S2 was refused: the names on the picture and in the rules are moves too."""
    await start(flow, game="corner-stones", deal=1)
    moved = await flow.act(ALICE, Action.MOVE, "C1 S2")  # the same as 1 4
    assert moved.board is not None and not moved.refused, shown(moved.note)
    saved = await store.games.load(ALICE.user_id)
    assert saved is not None and [str(m) for m in saved.game.history] == ["1 4"]
    refused = await flow.act(ALICE, Action.MOVE, "13 1")
    assert refused.refused and refused.note is not None
    assert "stack 13" in shown(refused.note) and "pile" not in shown(refused.note)
    assert [o.value for o in await Choices(flow.games).destinations(ALICE, "C1")] == [
        o.value for o in await Choices(flow.games).destinations(ALICE, "1")]


async def test_acting_without_a_game_says_how_to_start_one(flow: GameFlow) -> None:
    for action in (Action.MOVE, Action.UNDO, Action.SHOW, Action.RESIGN):
        reply = await flow.act(BOB, action, "1 2")
        assert reply.refused and reply.note == no_game()


async def test_undo_and_redo_round_trip_and_count_undos(flow: GameFlow, store: Stores) -> None:
    await start(flow)
    await flow.act(ALICE, Action.MOVE, "7 f1")
    undone = await flow.act(ALICE, Action.UNDO)
    assert undone.board is not None and "Took back `7 f1`" in shown(undone.board.text)
    assert undone.board.controls.enabled(Action.REDO) and not undone.board.controls.enabled(Action.UNDO)
    redone = await flow.act(ALICE, Action.REDO)
    assert redone.board is not None and redone.board.controls.enabled(Action.UNDO)
    saved = await store.games.load(ALICE.user_id)
    assert saved is not None and saved.undos == 1 and saved.game.moves_made == 1


async def test_to_foundations_plays_every_card_that_can_go_up(flow: GameFlow, store: Stores) -> None:
    await start(flow)
    reply = await flow.act(ALICE, Action.TO_FOUNDATIONS)
    assert reply.board is not None
    saved = await store.games.load(ALICE.user_id)
    assert saved is not None
    played = saved.game.moves_made
    assert played >= 2 and all(m.kind == FOUNDATION for m in saved.game.history)
    assert not any(m.kind == FOUNDATION for m in saved.game.legal_moves())
    assert f"{played} cards to the foundations" in shown(reply.board.text)
    assert saved.revision == 1  # one action, saved once
    # Each card is its own move: one Undo takes back one card.
    await flow.act(ALICE, Action.UNDO)
    saved = await store.games.load(ALICE.user_id)
    assert saved is not None and saved.game.moves_made == played - 1
    again = await flow.act(ALICE, Action.TO_FOUNDATIONS)
    assert again.board is not None and "1 card to the foundations" in shown(again.board.text)
    nothing = await flow.act(ALICE, Action.TO_FOUNDATIONS)
    assert nothing.refused and shown(nothing.note) == "No card can go to a foundation now."


async def test_redeal_is_enabled_only_while_redeals_are_left(flow: GameFlow) -> None:
    reply = await start(flow)
    assert reply.board is not None and reply.board.controls.enabled(Action.REDEAL)
    for left in (1, 0):
        reply = await flow.act(ALICE, Action.REDEAL)
        assert reply.board is not None and f"({left} left)" in shown(reply.board.text)
    assert reply.board is not None and not reply.board.controls.enabled(Action.REDEAL)
    refused = await flow.act(ALICE, Action.REDEAL)
    assert refused.refused and refused.note is not None
    assert "No redeals left" in shown(refused.note)
    no_redeals = await flow.new_game(BOB, "clover-leaf", 1)
    assert no_redeals.board is not None and not no_redeals.board.controls.enabled(Action.REDEAL)


async def test_the_board_offers_every_move_and_discords_menu_holds_25_foundation_first(
    flow: GameFlow,
) -> None:
    reply = await start(flow, game="corner-stones", deal=1)
    board = reply.board
    assert board is not None
    game = new_game("corner-stones", 1)
    legal = [str(m) for m in game.legal_moves()]
    assert [o.value for o in board.controls.menu] == legal  # the core says what it has
    options, placeholder = menu_of(board.controls, MENU_LIMIT)  # Discord fits it
    values = [o.value for o in options]
    assert len(legal) > MENU_LIMIT  # this deal has more moves than a menu holds
    assert len(values) <= MENU_LIMIT
    up = [m for m in legal if " f" in m]
    assert values[: len(up)] == up  # foundation moves first, one tap each
    assert all(v.startswith("pick ") for v in values[len(up):])
    assert f"{len(legal)} legal" in placeholder and f"{len(legal)} legal" in (
        board.controls.menu_placeholder)
    trefoil = (await start(flow, BOB)).board
    assert trefoil is not None and trefoil.controls.enabled(Action.REDEAL)
    assert "redeal" not in [o.value for o in trefoil.controls.menu]  # it has its own button


async def test_every_legal_move_is_two_taps_away_when_they_do_not_fit(flow: GameFlow) -> None:
    reply = await start(flow, game="corner-stones", deal=1)
    assert reply.board is not None
    legal = {str(m) for m in new_game("corner-stones", 1).legal_moves()}
    shown_first, _placeholder = menu_of(reply.board.controls, MENU_LIMIT)
    reachable = {o.value for o in shown_first if not o.value.startswith("pick")}
    for option in shown_first:
        if option.value.startswith("pick "):
            pile = option.value.split()[1]
            picked = await flow.act(ALICE, Action.PICK, pile, seen=reply.board.ref)
            assert picked.board is not None and not picked.refused
            assert picked.board.ref == reply.board.ref  # a view, not a move
            menu, _placeholder = menu_of(picked.board.controls, MENU_LIMIT)
            assert len(menu) <= MENU_LIMIT and menu[-1].value == "pick"  # and back again
            assert all(o.value.startswith(f"{pile} ") for o in menu[:-1])
            reachable |= {o.value for o in menu[:-1]}
    assert reachable == legal
    back = await flow.act(ALICE, Action.PICK, "", seen=reply.board.ref)
    assert back.board is not None and menu_of(back.board.controls, MENU_LIMIT) == menu_of(
        reply.board.controls, MENU_LIMIT)
    nowhere = await flow.act(ALICE, Action.PICK, "99", seen=reply.board.ref)
    assert nowhere.refused and "There is no stack `99` to pick" in shown(nowhere.note)


async def test_a_menu_label_names_the_cards(flow: GameFlow) -> None:
    reply = await start(flow)
    assert reply.board is not None
    first = reply.board.controls.menu[0]
    assert first.value == "7 f1" and first.label.startswith("7 → f1 · ") and "♣ A↑" in first.label


async def test_autocomplete_filters_legal_moves_by_what_was_typed(flow: GameFlow) -> None:
    await start(flow)
    everything = await Choices(flow.games).moves(ALICE, "")
    assert [o.value for o in everything] == [  # all of them: Discord shows the first 25
        str(m) for m in new_game("trefoil", 27).legal_moves()
    ]
    from_seven = await Choices(flow.games).moves(ALICE, "7")
    assert from_seven and all(o.value.startswith("7 ") for o in from_seven)
    assert [o.value for o in await Choices(flow.games).moves(ALICE, "redeal")] == ["redeal"]
    assert await Choices(flow.games).moves(BOB, "") == []
    presenter = await Choices(flow.games).destinations(ALICE, "7")
    assert [o.value for o in presenter] == [o.value.split()[1] for o in from_seven]
    assert await Choices(flow.games).destinations(ALICE, "7 f1") == []


async def test_a_press_on_an_old_board_plays_nothing_and_refreshes(flow: GameFlow, store: Stores) -> None:
    first = await start(flow)
    assert first.board is not None
    await flow.act(ALICE, Action.MOVE, "7 f1", seen=first.board.ref)
    before = await stored_state(store)
    stale = await flow.act(ALICE, Action.MOVE, "8 f2", seen=first.board.ref)
    assert stale.refused and stale.note is not None and "out of date" in shown(stale.note)
    assert stale.board is not None and stale.board.ref.revision == 1
    assert await stored_state(store) == before


async def test_undo_then_move_makes_the_old_board_stale_though_the_move_count_matches(
    flow: GameFlow,
) -> None:
    await start(flow)
    one = await flow.act(ALICE, Action.MOVE, "7 f1")
    await flow.act(ALICE, Action.UNDO)
    await flow.act(ALICE, Action.MOVE, "8 f2")
    assert one.board is not None
    stale = await flow.act(ALICE, Action.UNDO, seen=one.board.ref)
    assert stale.refused and stale.board is not None
    assert "8 f2" in (await picture_of(flow, stale.board))["last"]


async def test_a_press_on_a_replaced_games_board_refreshes_to_the_current_game(flow: GameFlow) -> None:
    old = await start(flow, deal=5)
    offer = offer_of(await flow.new_game(ALICE, "clover-leaf", 8))
    assert offer is not None
    await flow.confirm_new(ALICE, offer.replacing, offer.request)
    assert old.board is not None
    stale = await flow.act(ALICE, Action.UNDO, seen=old.board.ref)
    assert stale.note is not None and "ended or been replaced" in shown(stale.note)
    assert stale.board is not None and "Clover Leaf" in shown(stale.board.text)


async def test_new_over_an_unfinished_game_asks_and_confirming_abandons_it(
    flow: GameFlow, store: Stores
) -> None:
    await start(flow)
    await flow.act(ALICE, Action.MOVE, "7 f1")
    before = await stored_state(store)
    asked = await flow.new_game(ALICE, "clover-leaf", 8)
    offer = offer_of(asked)
    assert offer is not None and asked.board is None
    assert "unfinished **Trefoil** game (deal 27, 1 move)" in shown(offer.text)
    assert "Clover Leaf** deal 8" in shown(offer.text)
    assert await stored_state(store) == before  # asking changes nothing
    assert await all_results(store) == []
    yes = await flow.confirm_new(ALICE, offer.replacing, DealRequest("clover-leaf", 8))
    assert yes.board is not None and "Clover Leaf" in shown(yes.board.text)
    [result] = await all_results(store, user_id=ALICE.user_id)
    assert (result.outcome, result.game_id, result.deal, result.moves) == (
        "abandoned", "trefoil", 27, 1
    )
    again = await flow.confirm_new(ALICE, offer.replacing, DealRequest("clover-leaf", 8))
    assert again.note is not None
    assert "since replaced" in shown(again.note)  # an old offer is inert
    assert len(await all_results(store)) == 1


async def test_new_over_a_finished_game_needs_no_question(flow: GameFlow, store: Stores) -> None:
    await start(flow)
    await flow.act(ALICE, Action.RESIGN, CONFIRMED)
    reply = await flow.new_game(ALICE, "trefoil", 3)
    assert reply.board is not None and offer_of(reply) is None
    assert [r.outcome for r in await all_results(store)] == ["resigned"]


async def test_winning_records_the_result_once_and_ends_the_game(
    flow: GameFlow, store: Stores, clock: Clock
) -> None:
    await start(flow)
    for text in TREFOIL_27_WIN[:-1]:
        clock.advance(10)
        reply = await flow.act(ALICE, Action.MOVE, text)
        assert reply.board is not None, (text, shown(reply.note))
    assert await all_results(store) == []
    clock.advance(10)
    won = await flow.act(ALICE, Action.MOVE, TREFOIL_27_WIN[-1])
    assert won.board is not None and won.board.finished
    assert "**Won** in 58 moves" in shown(won.board.text)
    controls = won.board.controls
    assert [b.label for b in controls.buttons] == [
        "Undo", "Redo", "To foundations", "Redeal", "Hint", "Auto-finish"
    ]
    assert not any(b.enabled for b in controls.buttons)
    assert controls.menu == ()
    [result] = await all_results(store)
    assert (result.outcome, result.moves, result.redeals_used, result.seconds) == (
        "won", 58, 2, 580.0
    )
    after = await flow.act(ALICE, Action.UNDO)
    assert after.refused and after.note is not None and "is over (won)" in shown(after.note)
    showing = await flow.act(ALICE, Action.SHOW)
    assert showing.board is not None and "**Won**" in shown(showing.board.text)
    assert len(await all_results(store)) == 1


async def test_stuck_game_can_be_undone_and_counts_as_lost_when_left(
    flow: GameFlow, store: Stores
) -> None:
    await start(flow, game="clover-leaf", deal=11)
    rng = random.Random(3)
    for _ in range(200):
        saved = await store.games.load(ALICE.user_id)
        assert saved is not None
        if saved.game.is_stuck:
            break
        move = rng.choice(saved.game.legal_moves())
        reply = await flow.act(ALICE, Action.MOVE, str(move))
    assert reply.board is not None and "**Stuck**" in shown(reply.board.text)
    assert reply.board.controls.enabled(Action.UNDO)
    assert await all_results(store) == []  # not over yet: the player may undo
    undone = await flow.act(ALICE, Action.UNDO)
    assert undone.board is not None and "**Stuck**" not in shown(undone.board.text)
    redone = await flow.act(ALICE, Action.REDO)
    assert redone.board is not None and "**Stuck**" in shown(redone.board.text)
    fresh = await flow.new_game(ALICE, "trefoil", 5)  # no question: a stuck game is over
    assert offer_of(fresh) is None and fresh.board is not None
    assert "recorded as lost" in shown(fresh.board.text)
    [result] = await all_results(store)
    assert result.outcome == "lost"


async def test_resigning_records_it_and_keeps_the_board_viewable(flow: GameFlow, store: Stores) -> None:
    await start(flow)
    reply = await flow.act(ALICE, Action.RESIGN, CONFIRMED)
    assert reply.board is not None and "**Resigned.**" in shown(reply.board.text)
    assert (await picture_of(flow, reply.board))["resigned"], "the picture says so too"
    assert [r.outcome for r in await all_results(store)] == ["resigned"]
    showing = await flow.act(ALICE, Action.SHOW)
    assert showing.board is not None and showing.board.finished


async def test_seconds_played_skip_long_pauses(flow: GameFlow, store: Stores, clock: Clock) -> None:
    await start(flow)
    clock.advance(40)
    await flow.act(ALICE, Action.MOVE, "7 f1")
    clock.advance(3 * 3600)  # lunch: counts as the idle cap, not three hours
    await flow.act(ALICE, Action.MOVE, "8 f2")
    saved = await store.games.load(ALICE.user_id)
    assert saved is not None and saved.seconds_played == 40 + 300


async def test_a_board_says_the_time_and_hints_its_result_would_count_now(
    flow: GameFlow, clock: Clock
) -> None:
    """The table a board carries has the seconds played as its result would count them if
    it changed now (a pause up to the idle cap, none once it is over) and the hints asked."""
    await start(flow)
    clock.advance(40)
    moved = await flow.act(ALICE, Action.MOVE, "7 f1")
    assert moved.board and moved.board.table
    assert (moved.board.table.seconds_played, moved.board.table.hints) == (40, 0)
    hinted = await flow.act(ALICE, Action.HINT)
    assert hinted.hint is not None and (hinted.hint.move or hinted.hint.action)
    clock.advance(25)
    shown = await flow.act(ALICE, Action.SHOW)
    assert shown.board and shown.board.table
    assert (shown.board.table.seconds_played, shown.board.table.hints) == (65, 1)
    clock.advance(3 * 3600)
    shown = await flow.act(ALICE, Action.SHOW)
    assert shown.board and shown.board.table and shown.board.table.seconds_played == 40 + 300
    await flow.act(ALICE, Action.RESIGN, CONFIRMED)
    clock.advance(100)
    over = await flow.act(ALICE, Action.SHOW)
    assert over.board and over.board.table and over.board.table.seconds_played == 40 + 300


async def test_two_concurrent_moves_of_one_player_are_both_applied(
    flow: GameFlow, store: Stores
) -> None:
    await start(flow)
    a, b = await asyncio.gather(
        flow.act(ALICE, Action.MOVE, "7 f1"), flow.act(ALICE, Action.MOVE, "8 f2")
    )
    assert a.board is not None and b.board is not None
    saved = await store.games.load(ALICE.user_id)
    assert saved is not None
    assert sorted(map(str, saved.game.history)) == ["7 f1", "8 f2"]
    assert saved.revision == 2
    assert {a.board.ref.revision, b.board.ref.revision} == {1, 2}


async def test_many_concurrent_presses_never_lose_a_move(flow: GameFlow, store: Stores) -> None:
    await start(flow)
    presses = [Action.TO_FOUNDATIONS, Action.UNDO, Action.UNDO] * 3
    replies = await asyncio.gather(*(flow.act(ALICE, action) for action in presses))
    applied = [r for r in replies if not r.refused]
    saved = await store.games.load(ALICE.user_id)
    assert saved is not None
    assert saved.revision == len(applied)  # every applied press was saved, none overwritten
    revisions = sorted(r.board.ref.revision for r in applied if r.board is not None)
    assert revisions == list(range(1, len(applied) + 1))
    # Replaying the stored history from the deal reproduces the stored position exactly.
    replay = new_game("trefoil", 27)
    for move in saved.game.history:
        replay.play(move)
    assert replay.tableau == saved.game.tableau


async def test_players_do_not_share_games(flow: GameFlow, store: Stores) -> None:
    await start(flow, ALICE, deal=27)
    await start(flow, BOB, game="clover-leaf", deal=2)
    await flow.act(ALICE, Action.MOVE, "7 f1")
    bob = await store.games.load(BOB.user_id)
    assert bob is not None and bob.game.game_id == "clover-leaf" and bob.game.moves_made == 0


async def test_an_unexpected_failure_apologises_and_changes_nothing(
    core: Core, flow: GameFlow, store: Stores, monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
) -> None:
    await start(flow)
    before = await stored_state(store)

    async def failing(*args: object, **kwargs: object) -> None:
        raise RuntimeError("settings failed")

    monkeypatch.setattr(flow.settings, "of", failing)  # read before the move is saved
    reply = await answer(core.act, ALICE, Action.MOVE, "7 f1")
    assert reply.refused and reply.note == apology() and reply.board is None
    assert await stored_state(store) == before
    assert "'move 7 f1' failed for user 111 in guild 900" in caplog.text
    assert "settings failed" in caplog.text
    monkeypatch.undo()
    assert (await flow.act(ALICE, Action.MOVE, "7 f1")).board is not None


async def test_a_picture_that_fails_after_the_move_was_saved_says_it_was_saved(
    core: Core, flow: GameFlow, store: Stores, picture: PositionPicture,
    caplog: pytest.LogCaptureFixture,
) -> None:
    """The picture is drawn where it is shown, after the move is saved: a failure there
    must not tell the player that nothing changed."""
    await start(flow)
    picture.fail = True
    reply = await answer(core.act, ALICE, Action.MOVE, "7 f1")
    assert reply.refused and reply.note == saved_not_shown() and reply.board is None
    saved = await store.games.load(ALICE.user_id)
    assert saved is not None and saved.game.moves_made == 1, "the move is kept"
    assert "picture failed" in caplog.text


async def test_the_flow_draws_with_the_real_renderer(db_path: Path, clock: Clock) -> None:
    flow = Answering(await Core.open(db_path, clock=clock))  # default renderer: render.render_png
    try:
        reply = await flow.new_game(ALICE, "super-flower-garden", 4)
        moved = await flow.act(ALICE, Action.REDEAL)
    finally:
        await flow.close()
    assert reply.board is not None and moved.board is not None
    assert reply.board.png.startswith(b"\x89PNG\r\n\x1a\n")
    assert moved.board.png.startswith(b"\x89PNG\r\n\x1a\n") and moved.board.png != reply.board.png
    assert moved.board.filename == "super-flower-garden-4-1.png"


async def test_a_worker_process_draws_the_same_picture_as_a_thread(
    db_path: Path, clock: Clock
) -> None:
    drawn: list[bytes] = []
    for processes in (1, 0):  # the bot's way (a process per core), then threads
        flow = Answering(await Core.open(db_path, clock=clock, render_processes=processes))
        try:
            reply = await flow.act(ALICE, Action.SHOW) if drawn else await flow.new_game(
                ALICE, "corner-stones", 8
            )
            assert reply.board is not None
            drawn.append(reply.board.png)
        finally:
            await flow.close()
    assert drawn[0].startswith(b"\x89PNG\r\n\x1a\n") and drawn[0] == drawn[1]


async def test_a_drawing_process_that_dies_is_replaced(
    db_path: Path, clock: Clock, caplog: pytest.LogCaptureFixture
) -> None:
    import os
    import signal

    flow = Answering(await Core.open(db_path, clock=clock, render_processes=1))
    try:
        assert (await flow.new_game(ALICE, "trefoil", 3)).board is not None
        workers = flow.pictures._workers
        assert workers is not None
        killed = workers.pids()
        for pid in killed:
            os.kill(pid, signal.SIGKILL)
        await asyncio.sleep(0.5)
        again = await flow.act(ALICE, Action.SHOW)
        assert again.board is not None and again.board.png.startswith(b"\x89PNG")
        assert workers.pids() and not set(workers.pids()) & set(killed)
        assert "a drawing process died" in caplog.text
    finally:
        await flow.close()


async def test_trefoil_with_the_draw_house_rule(flow: GameFlow, store: Stores) -> None:
    reply = await flow.new_game(ALICE, "trefoil", 4, draw=True)
    assert reply.board is not None and "House rule" in shown(reply.board.text)
    assert "`/new trefoil 4 draw:True`" in shown(reply.board.text)
    await flow.act(ALICE, Action.REDEAL)
    after = await flow.act(ALICE, Action.REDEAL)
    assert after.board is not None
    saved = await store.games.load(ALICE.user_id)
    assert saved is not None
    buried = saved.game.tableau[0][0]
    options = await Choices(flow.games).moves(ALICE, "draw")
    assert f"draw {buried}" in [o.value for o in options]
    assert all(o.label.startswith("Draw: bring") for o in options)
    drawn = await flow.act(ALICE, Action.MOVE, f"draw {buried}")
    assert drawn.board is not None
    saved = await store.games.load(ALICE.user_id)
    assert saved is not None and saved.game.tableau[0][-1] == buried and saved.game.draw_used
    again = await flow.act(ALICE, Action.MOVE, f"draw {saved.game.tableau[1][0]}")
    assert again.refused and "used" in shown(again.note)


async def test_a_draw_without_the_house_rule_says_how_to_deal_with_it(flow: GameFlow) -> None:
    await flow.new_game(ALICE, "trefoil", 4)
    refused = await flow.act(ALICE, Action.MOVE, "draw QH")
    assert refused.refused and "house rule is off" in shown(refused.note)
    assert "`/new trefoil 4 draw:True` deals this one with it" in shown(refused.note)
    await flow.new_game(BOB, "clover-leaf", 3)
    elsewhere = await flow.act(BOB, Action.MOVE, "draw QH")
    assert elsewhere.refused and "belongs to Trefoil only" in shown(elsewhere.note)
    assert "draw:True" not in shown(elsewhere.note), "a game without the rule is not told to"


async def test_the_draw_house_rule_is_trefoils_only(flow: GameFlow, store: Stores) -> None:
    reply = await flow.new_game(ALICE, "clover-leaf", 4, draw=True)
    assert reply.refused and "Trefoil" in shown(reply.note)
    assert await store.games.load(ALICE.user_id) is None


async def test_a_confirmed_new_game_keeps_the_draw_rule(flow: GameFlow, store: Stores) -> None:
    await flow.new_game(ALICE, "clover-leaf", 4)
    asked = await flow.new_game(ALICE, "trefoil", 9, draw=True)
    offer = offer_of(asked)
    assert offer is not None and offer.draw
    await flow.confirm_new(ALICE, offer.replacing, offer.request)
    saved = await store.games.load(ALICE.user_id)
    assert saved is not None and saved.game.draw_rule and saved.game.deal_number == 9


async def test_a_win_after_a_hint_says_it_was_assisted(flow: GameFlow, store: Stores) -> None:
    await start(flow)
    for text in TREFOIL_27_WIN[:-1]:
        await flow.act(ALICE, Action.MOVE, text)
    saved = await store.games.load(ALICE.user_id)
    assert saved is not None
    await store.games.count_hint(saved.id)  # as the Hint button does
    won = await flow.act(ALICE, Action.MOVE, TREFOIL_27_WIN[-1])
    assert won.board is not None and "**Won with hints** in 58 moves" in shown(won.board.text)
    assert "**Won** in" not in shown(won.board.text)


async def test_leaving_an_untouched_game_counts_as_no_game(flow: GameFlow, store: Stores) -> None:
    await start(flow)
    asked = offer_of(await flow.new_game(ALICE, "clover-leaf", 8))
    assert asked is not None  # still asked: the deal would be lost
    fresh = await flow.confirm_new(ALICE, asked.replacing, DealRequest("clover-leaf", 8))
    assert fresh.board is not None and "recorded as" not in shown(fresh.board.text)
    assert await all_results(store) == []
    first = str(new_game("clover-leaf", 8).legal_moves()[0])
    moved = await flow.act(ALICE, Action.MOVE, first)
    assert moved.board is not None
    touched = offer_of(await flow.new_game(ALICE, "trefoil", 8))
    assert touched is not None
    await flow.confirm_new(ALICE, touched.replacing, DealRequest("trefoil", 8))
    assert [r.outcome for r in await all_results(store)] == ["abandoned"]


async def test_safe_moves_go_up_by_themselves_when_the_player_wants(
    flow: GameFlow, store: Stores
) -> None:
    await start(flow)  # Trefoil 27: 7 f1 (2♣) then 8 f2 are legal at once
    showing = await flow.settings.change(ALICE)
    assert showing.message is not None and "**off**" in shown(showing.message.text)
    await flow.settings.change(ALICE, auto_moves=True)
    reply = await flow.act(ALICE, Action.MOVE, "7 f1")
    assert reply.board is not None
    assert "Went up by themselves (safe):" in shown(reply.board.text)
    saved = await store.games.load(ALICE.user_id)
    assert saved is not None and saved.game.moves_made > 1
    assert saved.game.safe_foundation_moves() == [], "every safe card went up"
    undone = await flow.act(ALICE, Action.UNDO)  # an undo is not undone again
    assert undone.board is not None and "by themselves" not in shown(undone.board.text)
    after = await store.games.load(ALICE.user_id)
    assert after is not None and after.game.moves_made == saved.game.moves_made - 1


async def test_replacing_a_game_never_moved_in_says_it_counts_for_nothing(
    flow: GameFlow, store: Stores
) -> None:
    await start(flow)
    asked = offer_of(await flow.new_game(ALICE, "clover-leaf", 8))
    assert asked is not None
    words = shown(asked.text)
    assert "you have not moved in yet" in words and "counts for nothing" in words
    assert "abandoned" not in shown(asked.text)
    await flow.confirm_new(ALICE, asked.replacing, DealRequest("clover-leaf", 8))
    assert await all_results(store) == [], "and it does count for nothing"


async def test_asking_for_the_very_deal_not_moved_in_shows_it_instead_of_asking(
    flow: GameFlow, store: Stores
) -> None:
    first = await start(flow)  # Trefoil 27
    assert first.board is not None
    again = await flow.new_game(ALICE, "trefoil", 27)
    assert offer_of(again) is None and again.board is not None
    assert again.note is not None and "You already have this deal" in shown(again.note)
    assert again.board.ref == first.board.ref, "the same game row, at the same revision"
    # Anything that would change, and the question comes back.
    assert offer_of(await flow.new_game(ALICE, "trefoil", 28)) is not None
    assert offer_of(await flow.new_game(ALICE, "clover-leaf", 27)) is not None
    assert offer_of(await flow.new_game(ALICE, "trefoil", 27, draw=True)) is not None
    await flow.act(ALICE, Action.HINT)  # a hint asked: still this very game, hint and all
    showing = await flow.new_game(ALICE, "trefoil", 27)
    assert offer_of(showing) is None and showing.board is not None
    saved = await store.games.load(ALICE.user_id)
    assert saved is not None and saved.hints == 1, "asking for it again clears no hint"


async def test_the_very_deal_after_a_move_still_asks(flow: GameFlow) -> None:
    await start(flow)
    await flow.act(ALICE, Action.MOVE, "7 f1")
    await flow.act(ALICE, Action.UNDO)  # back at the start, but moved in: asks
    asked = offer_of(await flow.new_game(ALICE, "trefoil", 28))
    assert asked is not None  # and says why "0 moves" is not "never moved in"
    assert "whose moves you have all taken back: it was moved in" in shown(asked.text)
    assert "counts as abandoned" in shown(asked.text)
    asked = offer_of(await flow.new_game(ALICE, "trefoil", 27))
    assert asked is not None and "abandoned" in shown(asked.text)


async def test_safe_moves_that_came_with_the_deal_are_not_the_players(
    flow: GameFlow, store: Stores
) -> None:
    """With safe moves going up by themselves, a new deal starts with moves made: leaving it
    untouched still counts for nothing, and asking for it again shows it."""
    await flow.settings.change(ALICE, auto_moves=True)
    first = await start(flow)  # Trefoil 27: eleven safe moves go up as it is dealt
    assert first.board is not None and "Went up by themselves" in shown(first.board.text)
    again = await flow.new_game(ALICE, "trefoil", 27)
    assert offer_of(again) is None and again.board is not None
    asked = offer_of(await flow.new_game(ALICE, "clover-leaf", 8))
    assert asked is not None
    assert "not moved in yet" in shown(asked.text), shown(asked.text)
    await flow.confirm_new(ALICE, asked.replacing, DealRequest("clover-leaf", 8))
    assert await all_results(store) == [], "the deal's own moves make no game played"
    await flow.act(ALICE, Action.MOVE, str((await store.games.load(ALICE.user_id))
                                             .game.legal_moves()[0]))  # type: ignore[union-attr]
    asked = offer_of(await flow.new_game(ALICE, "trefoil", 27))
    assert asked is not None and "abandoned" in shown(asked.text), \
        "a move of their own is a game"


async def test_replacing_a_scored_daily_says_what_becomes_of_the_attempt(
    flow: GameFlow, clock: Clock
) -> None:
    from bot.flows.daily import utc_day
    from engine.solver.daily import winnable_daily_deal as daily_deal

    deal = daily_deal("trefoil", utc_day(clock()))
    await flow.new_game(ALICE, "trefoil", deal)
    asked = offer_of(await flow.new_game(ALICE, "clover-leaf", 8))
    assert asked is not None and "scored attempt at the daily deal" in shown(asked.text)
    assert "stays used up" in shown(asked.text), "untouched, the day's attempt is still spent"
    move = str((await flow.games.load(ALICE.user_id)).game.legal_moves()[0])  # type: ignore[union-attr]
    await flow.act(ALICE, Action.MOVE, move)
    asked = offer_of(await flow.new_game(ALICE, "clover-leaf", 8))
    assert asked is not None and "on that day's board as not won" in shown(asked.text)


@pytest.mark.parametrize("language", list(LANGUAGES))
async def test_leaving_an_untouched_daily_says_one_truth_once_in_every_language(
    flow: GameFlow, language: str
) -> None:
    """An untouched scored daily, left for another game, records no result and still uses
    the day's attempt up: the question says both in one sentence, and never that leaving
    it counts for nothing."""
    await flow.daily(ALICE, "trefoil")
    saved = await flow.games.load(ALICE.user_id)
    assert saved is not None and saved.daily is not None and saved.untouched
    with speaking(language):
        asked = offer_of(await flow.new_game(ALICE, "clover-leaf", 8))
        nothing = in_language_spoken("Leaving it counts for nothing.")
        spent = in_language_spoken(
            "Leaving it records no result, but it is your scored attempt at the daily deal "
            "of {day}, so that attempt stays used up.", day=saved.daily)
    assert asked is not None
    words = shown(asked.text)
    assert shown(nothing) not in words, words
    assert words.count(shown(spent)) == 1 and words.count(saved.daily) == 1, words
    if language != ENGLISH:
        assert "stays used up" not in shown(asked.text), "said in the player's language"


async def test_a_winnable_deal_over_an_unfinished_game_is_taken_only_on_yes(
    flow: GameFlow, store: Stores, clock: Clock
) -> None:
    assert await store.meta.try_lead(lambda: None)  # the pool is the leader's to fill
    for deal in (101, 102):
        await store.pool.add("trefoil", deal, clock(), target=10)
    await start(flow)
    await flow.act(ALICE, Action.MOVE, "7 f1")
    asked = offer_of(await flow.new_game(ALICE, "trefoil", winnable=True))
    assert asked is not None and asked.deal is None
    assert "a proven-winnable **Trefoil** deal" in shown(asked.text)
    assert await store.pool.count("trefoil") == 2, "asking takes no deal"
    kept = await flow.show(ALICE)  # "Keep playing"
    assert kept.board is not None and "deal 27" in shown(kept.board.text)
    assert await store.pool.count("trefoil") == 2, "keeping throws no deal away"
    yes = await flow.confirm_new(ALICE, asked.replacing, DealRequest("trefoil", None))
    assert yes.board is not None and "deal 101" in shown(yes.board.text)
    assert "proven can be won" in shown(yes.board.text)
    assert await store.pool.count("trefoil") == 1


async def test_safe_moves_go_up_at_the_deal_when_they_are_on(
    flow: GameFlow, store: Stores
) -> None:
    await flow.settings.change(ALICE, auto_moves=True)
    reply = await flow.new_game(ALICE, "trefoil", 42)
    assert reply.board is not None
    assert "Went up by themselves (safe): `5 f" in shown(reply.board.text)
    saved = await store.games.load(ALICE.user_id)
    assert saved is not None and saved.game.moves_made >= 1 and saved.revision == 0
    undone = await flow.act(ALICE, Action.UNDO)
    assert undone.board is not None, "a safe move at the deal is taken back like any other"


async def test_undoing_a_redeal_marks_a_free_game_assisted_as_a_hint_does(
    any_core: Core,
) -> None:
    """Undone and redealt, a shuffle falls the same way: having seen it is help."""
    flow, store = any_core.game, any_core.stores
    await start(flow)
    await flow.act(ALICE, Action.MOVE, "7 f1")
    await flow.act(ALICE, Action.REDEAL)
    undone = await flow.act(ALICE, Action.UNDO)
    assert undone.board is not None and "Took back `redeal`" in shown(undone.board.text)
    assert "now counts as assisted, as after a hint" in shown(undone.board.text), \
        shown(undone.board.text)
    saved = await store.games.load(ALICE.user_id)
    assert saved is not None and saved.hints == 1 and saved.game.redeals_left == 2
    plain = await flow.act(ALICE, Action.UNDO)  # a move undone is no help
    assert plain.board is not None and "assisted" not in shown(plain.board.text)
    await flow.act(ALICE, Action.RESIGN, CONFIRMED)
    [result] = await all_results(store, user_id=ALICE.user_id)
    assert (result.hints, result.undos) == (1, 2)


async def test_once_closing_begins_a_request_is_refused_untouched(
    core: Core, flow: GameFlow, store: Stores
) -> None:
    """What a player began is answered; what comes once the core is closing (its pictures
    and database about to go) is refused, saying so, and changes nothing."""
    await start(flow)
    before = await stored_state(store)
    await core.finish_answers()
    reply = await answer(core.act, ALICE, Action.MOVE, "7 f1")
    assert reply.refused and reply.board is None and reply.note is not None
    assert "restarting, so nothing was done" in shown(reply.note)
    assert await stored_state(store) == before
