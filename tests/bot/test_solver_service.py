"""The solver in the bot: hints, Auto-finish, "no win is possible" and winnable deals."""

from __future__ import annotations

import asyncio
import dataclasses
import json
import random
from collections.abc import AsyncIterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest

from bot.core import Core
from bot.discord.send import InteractionReplies
from bot.discord.tidy import TOKEN_LIFETIME_S, TOKEN_MARGIN_S
from bot.flows.actions import CONFIRMED
from bot.flows.boards import no_win
from bot.flows.cooldowns import EVERY_S, Cooldown
from bot.flows.game import GameFlow
from bot.flows.verdicts import Pace
from bot.replies import Action, Board, BoardRef, LostBoard, Reply
from bot.store import SavedGame, Stores
from bot.workers import solver as solver_worker
from bot.workers.child import forked
from bot.workers.solver import SolverWorker
from engine import new_game
from engine.solver import Verdict, solve
from engine.solver.lines import PLANS
from tests.bot.reference import all_results
from tests.said import shown

from .conftest import ALICE, BOB, Clock, PositionPicture, as_the_core_calls, picture_of

SHOW_S = EVERY_S[Cooldown.SHOW]

@pytest.fixture
async def flow(store: Stores, clock: Clock, picture: PositionPicture) -> AsyncIterator[GameFlow]:
    """A flow whose solver runs in a thread: the same searches, without a process start;
    /show as often as a test likes."""
    EVERY_S[Cooldown.SHOW] = 0.0
    core = Core(
        store, renderer=picture, clock=clock, deals=random.Random(5),
        solver=SolverWorker(ThreadPoolExecutor(max_workers=1)),
    )
    yield as_the_core_calls(core.game)
    await core.close()
    EVERY_S[Cooldown.SHOW] = SHOW_S


async def follow(flow: GameFlow, note: str, seen: BoardRef | None = None) -> Reply:
    """Do what a hint says: press Auto-finish or To foundations, or play its move."""
    if "press **Auto-finish**" in note:
        return await flow.act(ALICE, Action.AUTO_FINISH, seen=seen)
    if "press **To foundations**" in note:
        return await flow.act(ALICE, Action.TO_FOUNDATIONS, seen=seen)
    return await flow.act(ALICE, Action.MOVE, note.split("`")[1], seen=seen)


async def test_hint_names_a_legal_step_and_counts_without_staling_the_board(
    flow: GameFlow, store: Stores
) -> None:
    started = await flow.new_game(ALICE, "trefoil", 42)
    assert started.board is not None
    reply = await flow.act(ALICE, Action.HINT, seen=started.board.ref)
    assert reply.board is None and reply.note is not None and not reply.refused
    note = shown(reply.note)
    assert note.startswith("Hint: `5 f3` — 2♥ up to its foundation f3.")
    assert "This deal can't be won without a redeal" in note
    assert "% of shuffles." in note and "moves left" not in note
    saved = await store.games.load(ALICE.user_id)
    assert saved is not None and saved.hints == 1
    assert BoardRef(saved.id, saved.revision) == started.board.ref  # buttons still work
    played = await follow(flow, note, seen=started.board.ref)
    assert played.board is not None and not played.refused


async def test_a_hint_before_a_redeal_plans_without_its_shuffle(flow: GameFlow) -> None:
    await flow.new_game(ALICE, "trefoil", 1)
    reply = await flow.act(ALICE, Action.HINT)
    assert reply.note is not None
    # Perfect play wins Trefoil 1 through its shuffles; a player cannot see them.
    assert "winning line" not in shown(reply.note) and "% of shuffles." in shown(reply.note)


async def test_following_the_hints_of_a_winnable_deal_wins_and_ends_with_a_press(
    flow: GameFlow, store: Stores, clock: Clock
) -> None:
    await store.meta.try_lead(lambda: None)
    # A pool deal won in its first deal: a hint cannot see beyond a redeal.
    await store.pool.add("super-flower-garden", 34, clock(), target=10)
    started = await flow.new_game(ALICE, "super-flower-garden", winnable=True)
    assert started.board is not None and "deal 34" in shown(started.board.text)
    seen = set()
    notes = []
    for _ in range(200):
        saved = await store.games.load(ALICE.user_id)
        assert saved is not None
        if saved.game.is_won:
            break
        assert saved.game.key() not in seen, "a hint led back to an earlier position"
        seen.add(saved.game.key())
        hint = await flow.act(ALICE, Action.HINT)  # on the line the first proved: no cooldown
        note = shown(hint.note)
        assert hint.note is not None and ("winning line" in note
                                          or "the game is won" in note), note
        notes.append(note)
        played = await follow(flow, note)
        assert played.board is not None, shown(played.note)
    saved = await store.games.load(ALICE.user_id)
    assert saved is not None and saved.game.is_won and saved.status == "won"
    assert "press **Auto-finish**" in notes[-1], "an expert ends with one press"
    left = [int(n.split(" moves left")[0].rsplit(" ", 1)[1]) for n in notes
            if " moves left" in n]
    assert left == sorted(left, reverse=True), "the moves left only ever go down"


async def test_a_won_game_with_a_hint_is_recorded_with_it(flow: GameFlow, store: Stores) -> None:
    await flow.new_game(ALICE, "trefoil", 1)
    await flow.act(ALICE, Action.HINT)
    for move in solve(new_game("trefoil", 1), positions=1_000_000).moves:
        await flow.act(ALICE, Action.MOVE, move)
    [result] = await all_results(store)
    assert (result.outcome, result.hints, result.assisted) == ("won", 1, True)


async def test_hint_is_refused_on_a_stuck_or_finished_game(flow: GameFlow) -> None:
    reply = await flow.act(ALICE, Action.HINT)
    assert reply.refused and "no game" in shown(reply.note).lower()
    await flow.new_game(ALICE, "trefoil", 1)
    await flow.act(ALICE, Action.RESIGN, CONFIRMED)
    reply = await flow.act(ALICE, Action.HINT)
    assert reply.refused and "is over" in shown(reply.note)


async def test_auto_finish_only_when_the_rest_plays_itself(flow: GameFlow, store: Stores) -> None:
    line = solve(new_game("trefoil", 1), positions=1_000_000).moves
    mirror = new_game("trefoil", 1)
    await flow.new_game(ALICE, "trefoil", 1)
    refused = await flow.act(ALICE, Action.AUTO_FINISH)
    assert refused.refused and "straight to the foundations" in shown(refused.note)
    for move in line:
        if mirror.finishes_itself():
            break
        mirror.play(move)
        reply = await flow.act(ALICE, Action.MOVE, move)
        assert reply.board is not None
        assert reply.board.controls.enabled(Action.AUTO_FINISH) == mirror.finishes_itself()
    assert reply.board is not None and reply.board.controls.enabled(Action.AUTO_FINISH)
    done = await flow.act(ALICE, Action.AUTO_FINISH)
    assert done.board is not None and "Auto-finished" in shown(done.board.text)
    assert done.board.finished
    [result] = await all_results(store)
    assert result.outcome == "won" and not result.assisted


def lost_here() -> str:
    """The line a board gets once no win is possible from a position the player moved to."""
    moved = new_game("trefoil", 2)
    moved.play("redeal")
    return shown(no_win(moved))


async def test_a_deal_lost_from_the_start_says_so_without_offering_undo(flow: GameFlow) -> None:
    """Clover Leaf 5 is lost as dealt: no undo can help, so neither the line nor the
    picture offers one, before a move of the player's own or after it."""
    showed = await flow.new_game(ALICE, "clover-leaf", 5)
    assert showed.board is not None
    amended = await amended_of(flow, showed.board)
    assert amended is not None
    assert shown(amended.text).endswith(LOST_AS_DEALT)
    assert json.loads(amended.png)["lost_as_dealt"], "the picture says so too"
    moved = await flow.act(ALICE, Action.MOVE, "1")
    assert moved.board is not None and shown(moved.board.text).endswith(LOST_AS_DEALT)
    assert "undo" not in shown(moved.board.text).lower()
    assert (await picture_of(flow, moved.board))["lost_as_dealt"]


LOST_AS_DEALT = "**No win is possible from this deal** — `/new` deals another."
# Clover Leaf 7 is lost as dealt; these moves leave it stuck (the issue's own).
INTO_STUCK = ["9 2", "9 f3", "11 f3", "9 7", "1 16", "1 f1", "11 5", "11 f4"]


async def test_in_a_deal_lost_as_dealt_nothing_speaks_of_undo(flow: GameFlow) -> None:
    showed = await flow.new_game(ALICE, "clover-leaf", 7)
    assert showed.board is not None and await amended_of(flow, showed.board) is not None
    for move in INTO_STUCK:
        moved = await flow.act(ALICE, Action.MOVE, move)
        assert moved.board is not None and "undo" not in shown(moved.board.text).lower(), move
        assert (await picture_of(flow, moved.board))["lost_as_dealt"]
    assert moved.board is not None
    assert "**Stuck**: no move is left, and no win was possible from this deal" in shown(
        moved.board.text)
    hint = await flow.act(ALICE, Action.HINT)
    assert hint.note is not None and shown(hint.note).startswith(LOST_AS_DEALT)
    assert "undo" not in shown(hint.note).lower()
    undone = await flow.act(ALICE, Action.UNDO)  # the deal is lost: so is every position
    assert undone.board is not None and shown(undone.board.text).endswith(LOST_AS_DEALT)


async def test_a_stuck_game_whose_deal_is_lost_is_told_so_after_the_check(
    flow: GameFlow,
) -> None:
    """The first board's check was overtaken by the moves: the stuck board says to undo
    until the solver finds the deal itself lost, then it is amended."""
    await flow.new_game(ALICE, "clover-leaf", 7)
    for move in INTO_STUCK:
        moved = await flow.act(ALICE, Action.MOVE, move)
    assert moved.board is not None and "Undo to try another way" in shown(moved.board.text)
    amended = await amended_of(flow, moved.board)
    assert amended is not None and "Undo" not in shown(amended.text)
    assert "no win was possible from this deal" in shown(amended.text)
    assert json.loads(amended.png)["lost_as_dealt"]


async def test_a_lost_position_of_a_winnable_deal_still_offers_undo(flow: GameFlow) -> None:
    await play_into_a_lost_position(flow)  # Trefoil 2 is won with perfect play
    showed = await flow.act(ALICE, Action.SHOW)
    assert showed.board is not None
    amended = await amended_of(flow, showed.board)
    assert amended is not None and shown(amended.text).endswith(lost_here())
    assert not json.loads(amended.png)["lost_as_dealt"]


async def play_into_a_lost_position(flow: GameFlow) -> BoardRef:
    """Trefoil deal 2 redealt twice at once is proven lost, with moves still to play."""
    await flow.new_game(ALICE, "trefoil", 2)
    await flow.act(ALICE, Action.REDEAL)
    reply = await flow.act(ALICE, Action.REDEAL)
    assert reply.board is not None and "**Stuck**" not in shown(reply.board.text)
    return reply.board.ref


async def test_a_proven_loss_is_added_to_the_board(flow: GameFlow) -> None:
    await play_into_a_lost_position(flow)
    showed = await flow.act(ALICE, Action.SHOW)
    assert showed.board is not None and lost_here() not in shown(showed.board.text)
    amended = await amended_of(flow, showed.board)
    assert amended is not None
    assert shown(amended.text) == f"{shown(showed.board.text)}\n{lost_here()}"
    assert json.loads(amended.png)["no_win"], "the picture says so too"
    again = await flow.act(ALICE, Action.SHOW)
    assert again.board is not None and shown(again.board.text).endswith(lost_here())  # remembered
    undone = await flow.act(ALICE, Action.UNDO)
    assert undone.board is not None and lost_here() not in shown(undone.board.text)


async def test_a_move_from_a_lost_position_says_so_at_once(flow: GameFlow, store: Stores) -> None:
    await play_into_a_lost_position(flow)
    showed = await flow.act(ALICE, Action.SHOW)
    assert showed.board is not None and await amended_of(flow, showed.board) is not None
    saved = await store.games.load(ALICE.user_id)
    assert saved is not None and saved.proven_lost
    move = str(saved.game.legal_moves()[0])
    moved = await flow.act(ALICE, Action.MOVE, move)
    assert moved.board is not None and shown(moved.board.text).endswith(lost_here())
    assert moved.board.proven_lost and (await picture_of(flow, moved.board))["no_win"]
    stored = await store.games.load(ALICE.user_id)
    assert stored is not None and stored.proven_lost, "remembered for the new position"
    assert await amended_of(flow, moved.board) is None, "nothing left to search"
    flow.verdicts.request_verdict(moved.board, _never_delivered)
    assert flow.verdicts.waiting == 0
    undone = await flow.act(ALICE, Action.UNDO)  # back where the proof was made: unknown again
    assert undone.board is not None and lost_here() not in shown(undone.board.text)
    assert not undone.board.proven_lost and not (await picture_of(flow, undone.board))["no_win"]
    redone = await flow.act(ALICE, Action.REDO)
    assert redone.board is not None and lost_here() not in shown(redone.board.text), (
        "not known from there")


async def amended_of(flow: GameFlow, board: Board) -> LostBoard | None:
    """``board`` as the core amends it once the solver proves it lost; None if it does not."""
    lost = await flow.verdicts.verdict(board)
    return None if lost is None else await flow.amended(board, lost)


async def _never_delivered(amended: object) -> None:
    raise AssertionError("no check was to run")


async def test_a_late_verdict_never_covers_a_newer_board(flow: GameFlow) -> None:
    await play_into_a_lost_position(flow)
    showed = await flow.act(ALICE, Action.SHOW)
    assert showed.board is not None
    await flow.act(ALICE, Action.UNDO)  # the game moves on before the verdict comes
    assert await amended_of(flow, showed.board) is None


async def test_no_verdict_on_a_winnable_board(flow: GameFlow) -> None:
    started = await flow.new_game(ALICE, "trefoil", 1)
    assert started.board is not None
    assert await amended_of(flow, started.board) is None


async def test_winnable_deals_come_from_the_pool_and_are_proven(flow: GameFlow, store: Stores) -> None:
    added = await flow.deals.fill_pool(target=2, games=["trefoil"])
    assert added == 2 and await store.pool.count("trefoil") == 2
    assert await store.pool.count("clover-leaf") == 0
    reply = await flow.new_game(ALICE, "trefoil", winnable=True)
    assert reply.board is not None
    saved = await store.games.load(ALICE.user_id)
    assert saved is not None
    assert solve(saved.game, positions=1_000_000).status == "won"
    assert await store.pool.count("trefoil") == 1


async def test_an_empty_pool_is_filled_on_the_spot(flow: GameFlow, store: Stores) -> None:
    reply = await flow.new_game(ALICE, "trefoil", winnable=True)
    assert reply.board is not None
    saved = await store.games.load(ALICE.user_id)
    assert saved is not None and solve(saved.game, positions=1_000_000).status == "won"


async def test_winnable_and_a_deal_number_together_are_refused(flow: GameFlow, store: Stores) -> None:
    reply = await flow.new_game(ALICE, "trefoil", 7, winnable=True)
    assert reply.refused and "either a deal number or" in shown(reply.note)
    assert await store.games.load(ALICE.user_id) is None


KILLED_BOT = """
import asyncio, os, signal
from bot.workers import solver as solver_worker
from bot.workers.solver import SolverWorker
from tests.bot.conftest import Clock
from bot.workers.child import forked
from engine import new_game

async def main():
    solver = SolverWorker()
    await solver.verdict(new_game("trefoil", 1))
    print(solver._workers.pids()[0], flush=True)  # the worker's pid
    os.kill(os.getpid(), signal.SIGKILL)

asyncio.run(main())
"""


def test_the_solver_process_leaves_when_the_bot_is_killed() -> None:
    import os
    import subprocess
    import sys
    import time

    done = subprocess.run([sys.executable, "-c", KILLED_BOT], capture_output=True, text=True,
                          timeout=60)
    worker = int(done.stdout.split()[0])
    for _ in range(50):
        try:
            os.kill(worker, 0)
        except ProcessLookupError:
            return
        time.sleep(0.1)
    os.kill(worker, 9)
    raise AssertionError("the solver's worker outlived the killed bot")


# -- fair use: the verdict queue and cooldowns ----------------------------------------------


async def test_a_second_hint_within_the_cooldown_is_refused_with_the_wait(
    flow: GameFlow, clock: Clock
) -> None:
    await flow.new_game(ALICE, "trefoil", 1)
    first = await flow.act(ALICE, Action.HINT)
    assert not first.refused
    clock.advance(2)
    second = await flow.act(ALICE, Action.HINT)
    assert second.refused and "ask again in 3 s" in shown(second.note)
    clock.advance(3)
    assert not (await flow.act(ALICE, Action.HINT)).refused


async def test_a_hint_on_the_line_the_last_proved_is_free_and_one_off_it_waits(
    flow: GameFlow, store: Stores, clock: Clock
) -> None:
    """Asked again where it was given, or after its step, a hint follows the line the
    last one proved: no search, no cooldown. After a move off the line, the next hint
    searches, within the cooldown."""
    await store.pool.add("super-flower-garden", 34, clock(), target=10)
    await flow.new_game(ALICE, "super-flower-garden", winnable=True)
    first = await flow.act(ALICE, Action.HINT)
    assert first.note is not None and "winning line" in shown(first.note)
    again = await flow.act(ALICE, Action.HINT)
    assert not again.refused and again.note is not None
    assert shown(again.note) == shown(first.note)
    saved = await store.games.load(ALICE.user_id)
    assert saved is not None and saved.hints == 2, "each counts: a win after it is assisted"
    hinted = shown(first.note).split("`")[1]
    off = next(str(m) for m in saved.game.legal_moves() if str(m) != hinted)
    assert not (await flow.act(ALICE, Action.MOVE, off)).refused
    refused = await flow.act(ALICE, Action.HINT)
    assert refused.refused and "ask again in 5 s" in shown(refused.note)
    clock.advance(5)
    searched = await flow.act(ALICE, Action.HINT)
    assert not searched.refused and searched.note is not None


async def test_winnable_deals_have_a_cooldown_per_player(
    flow: GameFlow, store: Stores, clock: Clock
) -> None:
    await store.pool.add("trefoil", 1, clock(), target=10)
    await store.pool.add("trefoil", 5, clock(), target=10)
    first = await flow.new_game(ALICE, "trefoil", winnable=True)
    assert first.board is not None
    await flow.act(ALICE, Action.RESIGN, CONFIRMED)
    again = await flow.new_game(ALICE, "trefoil", winnable=True)
    assert again.refused and "Ask again in 30 s" in shown(again.note)
    assert await store.pool.count("trefoil") == 1, "a refusal takes no deal"


async def test_verdict_checks_keep_one_per_player_and_a_bounded_queue(
    stepped: GameFlow, monkeypatch: pytest.MonkeyPatch
) -> None:
    import bot.flows.verdicts as service_module

    flow, service = stepped, stepped.verdicts  # its checks wait for the test: just queue
    monkeypatch.setattr(service_module, "VERDICT_QUEUE", 3)

    async def deliver(lost: SavedGame) -> None:
        raise AssertionError("nothing is proven lost here")

    boards = []
    for player in (ALICE, BOB):
        reply = await flow.new_game(player, "trefoil", 1)
        assert reply.board is not None
        boards.append(reply.board)
        service.request_verdict(reply.board, deliver)
    moved = await flow.act(ALICE, Action.MOVE, "4 f2")
    assert moved.board is not None
    service.request_verdict(moved.board, deliver)
    assert service.waiting == 2  # Alice's newer board replaced her older check
    assert service._pending[ALICE.user_id].ref == moved.board.ref
    for user_id in (901, 902, 903):
        fake_board = dataclasses.replace(boards[1], owner_id=user_id)
        service.request_verdict(fake_board, deliver)
    assert service.waiting == 3  # bounded: the oldest went first
    assert ALICE.user_id not in service._pending and BOB.user_id not in service._pending


async def test_verdict_checks_take_a_quarter_of_a_core_and_only_look_quickly_when_many_wait(
    store: Stores, clock: Clock, picture: PositionPicture, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A check rests three times as long as it ran; with ``LONG_QUEUE`` checks waiting, each
    is a quick look (no search forked); as the queue shortens, full searches again. The
    checks' clock and rest are the service's own (``Pace``): the test gives it both."""
    import bot.flows.verdicts as service_module

    budgets: list[float] = []
    now = [1000.0]
    slept: list[float] = []

    async def verdict(game: Any, budget_s: float) -> Verdict:
        budgets.append(budget_s)
        now[0] += 0.2  # each search "takes" 0.2 s of the checks' clock
        return Verdict.UNKNOWN

    async def sleep(seconds: float) -> None:
        slept.append(round(seconds, 6))
        now[0] += seconds

    core = Core(store, renderer=picture, clock=clock, deals=random.Random(5),
                pace=Pace(monotonic=lambda: now[0], rest=sleep, background=False))
    try:
        flow, service = core.game, core.verdicts
        monkeypatch.setattr(service.worker, "verdict", verdict)
        monkeypatch.setattr(service_module, "LONG_QUEUE", 3)

        async def deliver(lost: SavedGame) -> None:
            raise AssertionError("nothing is proven lost here")

        for player in [dataclasses.replace(ALICE, user_id=800 + i) for i in range(5)]:
            reply = await flow.new_game(player, "trefoil", 1)
            assert reply.board is not None
            service.request_verdict(reply.board, deliver)
        await service.run_waiting_checks()
    finally:
        await core.close()
    quick, full = solver_worker.QUICK_S, solver_worker.VERDICT_BUDGET_S
    # 5, 4 and 3 waiting with it: quick looks; then 2 and 1: full searches
    assert budgets == [quick, quick, quick, full, full]
    assert slept == [0.6] * 4, "each rest is three times the 0.2 s its check ran"


def _lost_for_all(service: Any, monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Every position the service's solver looks at is lost: the deals it looked at, in
    order, each once (a check looks again at its deal, to tell a lost deal)."""
    looked_at: list[int] = []

    async def verdict(game: Any, budget_s: float = 0.0) -> Verdict:
        if game.deal_number not in looked_at:
            looked_at.append(game.deal_number)
        return Verdict.LOST

    monkeypatch.setattr(service.worker, "verdict", verdict)
    return looked_at


async def test_a_check_that_waited_past_discords_edit_window_is_dropped(
    stepped: GameFlow, clock: Clock, monkeypatch: pytest.MonkeyPatch
) -> None:
    flow, service = stepped, stepped.verdicts
    looked_at = _lost_for_all(service, monkeypatch)
    delivered: list[SavedGame] = []

    async def deliver(lost: SavedGame) -> None:
        delivered.append(lost)

    old = await flow.new_game(ALICE, "trefoil", 1)
    fresh = await flow.new_game(BOB, "trefoil", 2)
    assert old.board is not None and fresh.board is not None
    within = InteractionReplies.amends_within  # as a Discord interaction asks
    service.request_verdict(old.board, deliver, within=within)
    clock.advance(15 * 60)
    service.request_verdict(fresh.board, deliver, within=within)
    await service.run_waiting_checks()
    assert looked_at == [2], "Alice's check came too late to amend her board: never looked at"
    assert [lost.user_id for lost in delivered] == [BOB.user_id]


async def test_a_check_whose_turn_comes_after_its_window_is_dropped_unlooked_at(
    stepped: GameFlow, clock: Clock, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``within``: the seconds in which the presenter can still amend the message; a check
    whose turn comes later is dropped before the solver looks, one still in its window is
    looked at, and one asked with no window (None) is delivered however late its turn."""
    flow, service = stepped, stepped.verdicts
    looked_at = _lost_for_all(service, monkeypatch)
    delivered: list[SavedGame] = []

    async def deliver(lost: SavedGame) -> None:
        delivered.append(lost)

    CAROL = dataclasses.replace(ALICE, user_id=333)
    late = await flow.new_game(ALICE, "trefoil", 1)
    open_still = await flow.new_game(BOB, "trefoil", 2)
    any_time = await flow.new_game(CAROL, "trefoil", 3)
    assert late.board is not None and open_still.board is not None
    assert any_time.board is not None
    service.request_verdict(late.board, deliver, within=60.0)
    service.request_verdict(open_still.board, deliver, within=120.0)
    service.request_verdict(any_time.board, deliver, within=None)
    clock.advance(61)
    await service.run_waiting_checks()
    assert looked_at == [2, 3], "the late check is never looked at"
    assert [lost.user_id for lost in delivered] == [BOB.user_id, CAROL.user_id]
    assert service.waiting == 0


def test_a_discord_interaction_amends_within_its_tokens_life_less_its_margin() -> None:
    """A Discord interaction's token edits its messages for 15 minutes; an amendment uses it
    only while a minute of that is left (``bot.discord.tidy``): 14 minutes."""
    assert InteractionReplies.amends_within == 14 * 60
    assert InteractionReplies.amends_within == TOKEN_LIFETIME_S - TOKEN_MARGIN_S


async def test_a_solver_process_that_dies_is_replaced(caplog: pytest.LogCaptureFixture) -> None:
    import os
    import signal

    solver = SolverWorker()
    try:
        assert await solver.verdict(new_game("trefoil", 1)) == "won"
        workers = solver._workers
        assert workers is not None
        killed = workers.pids()
        for pid in killed:
            os.kill(pid, signal.SIGKILL)
        await asyncio.sleep(0.5)
        assert await solver.verdict(new_game("trefoil", 1)) == "won"
        assert workers.pids() and not set(workers.pids()) & set(killed)
        assert "a solver process died" in caplog.text
    finally:
        solver.close()


async def test_a_long_verdict_is_searched_in_a_copy_and_comes_back() -> None:
    solver = SolverWorker()
    try:
        # Clover Leaf 633 is proven lost only after much more than QUICK_S of search: the
        # verdict comes from a forked copy of the solver's process, which is still the same.
        assert await solver.verdict(new_game("clover-leaf", 633), budget_s=5.0) == "lost"
        workers = solver._workers
        assert workers is not None
        first = workers.pids()
        assert await solver.verdict(new_game("clover-leaf", 364), budget_s=5.0) == "lost"
        assert await solver.is_winnable("trefoil", 1, budget_s=5.0)
        assert workers.pids() == first
    finally:
        solver.close()


async def test_a_solver_process_killed_mid_search_is_replaced_at_once(
    caplog: pytest.LogCaptureFixture,
) -> None:
    import os
    import signal

    solver = SolverWorker()
    try:
        assert await solver.verdict(new_game("trefoil", 1)) == "won"
        workers = solver._workers
        assert workers is not None
        [pid] = workers.pids()
        # Clover Leaf 203 stays undecided for seconds: the search runs in a forked copy,
        # which must not keep the dead process's answers open until it ends.
        search = asyncio.ensure_future(solver.verdict(new_game("clover-leaf", 203), budget_s=5.0))
        await asyncio.sleep(0.5)
        os.kill(pid, signal.SIGKILL)
        for _ in range(20):
            await asyncio.sleep(0.1)
            if "a solver process died" in caplog.text:
                break
        assert "a solver process died" in caplog.text
        assert workers.pids() and pid not in workers.pids()
        search.cancel()
    finally:
        solver.close()


def test_a_long_hint_is_searched_in_a_copy_and_its_winning_line_is_followed_here(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    copies: list[object] = []

    def counted(work: Any, *args: Any) -> Any:
        copies.append(work)
        return forked(work, *args)

    monkeypatch.setattr(solver_worker, "QUICK_S", 0.0)  # every search goes to a copy
    monkeypatch.setattr(solver_worker, "forked", counted)
    PLANS.clear()
    game = new_game("four-leaf-clovers", 9)  # a win takes the solver tens of ms to find
    first = solver_worker._hint_work(game.to_dict(), 5.0, True)
    assert first.winning and first.move is not None and len(copies) == 1
    game.play(first.move)
    # The copy that planned the line is gone, and no time is left to search (1 ms finds
    # no win from here): the hint comes from the line remembered in this process.
    second = solver_worker._hint_work(game.to_dict(), 0.001, True)
    assert second.winning and len(copies) == 1
    PLANS.clear()


async def test_a_hint_on_a_lost_game_says_so_and_how_far_to_undo(
    flow: GameFlow, clock: Clock
) -> None:
    await flow.new_game(ALICE, "clover-leaf", 4)
    # Won by the first 12 moves and on; then 13 14 loses (proven) and 4 f1 keeps it lost.
    moves = "5 f3,11 f2,6 16,2 6,2 f3,1 9,12 1,12 f1,8 f1,13 f1,2 f1,4 12,13 14,4 f1"
    for move in moves.split(","):
        played = await flow.act(ALICE, Action.MOVE, move)
    assert played.board is not None
    reply = await flow.act(ALICE, Action.HINT, seen=played.board.ref)
    note = shown(reply.note)
    assert reply.note is not None and note.startswith("**No win is possible from here.**")
    assert "Undo 2 moves to reach a position that can still be won" in note
    undos = int(note.split("Undo ")[1].split(" move")[0])
    for _ in range(undos):
        await flow.act(ALICE, Action.UNDO)
    clock.advance(5)  # past the hint cooldown
    again = await flow.act(ALICE, Action.HINT)
    assert again.note is not None and ("winning line" in shown(again.note)
                                       or "press **" in shown(again.note))


async def test_a_lost_game_after_its_last_redeal_never_counts_undos_past_it(
    flow: GameFlow,
) -> None:
    """Before the last redeal, whether a position can be won hangs on a shuffle the player
    cannot know: the hint counts no undos back there."""
    ref = await play_into_a_lost_position(flow)  # Trefoil 2, redealt twice: proven lost
    reply = await flow.act(ALICE, Action.HINT, seen=ref)
    note = shown(reply.note)
    assert reply.note is not None and note.startswith("**No win is possible from here.**")
    assert "to reach a position that can still be won" not in note
    assert "Undo a few moves and try another way" in note
