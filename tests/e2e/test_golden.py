"""A golden record of what Discord players read: one scripted session through every slash
command, every button under a board, the move menu and its pile picks, every question,
refusals, a won daily deal, a stuck game, a board the solver proves lost and a challenge
played to its end, in English and in other languages. Each message the bot posts or edits
is written as text (``golden.py``) and the whole is compared with
``golden/discord_session.txt``: any change of wording, of a control, of what is private or
whom a message notifies fails the test with a diff.

Record it again, when a change is meant, with
``GOLDEN_UPDATE=1 .venv/bin/python -m pytest tests/e2e/test_golden.py``.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from bot.store.challenges import DAY_S
from engine import DRAW, PILE, REDEAL, Game, Move

from ..bot.daily_lines import NOV_22, NOV_22_DEAL, NOV_22_WIN, NOV_23_DEAL, NOV_23_WIN
from .fake_discord import FakeDiscord, Reply
from .golden import Session, StepClock, compare, deterministic_solver, watch_verdict_checks
from .harness import bot_in_process
from .play import Mirror, board_of, move_options

WINNABLE_CORNER_STONES = 4  # proven winnable: the pool's one Corner Stones deal
STUCK_CLOVER_LEAF = 162  # stuck after two moves (test_finish.py)
LOST_AFTER_TWO_REDEALS = 2  # Trefoil 2, redealt twice: proven lost (test_solver.py)
BOARD_ACTIONS = {"Undo": "undo", "Redo": "redo", "To foundations": "found", "Redeal": "redeal",
                 "Hint": "hint", "Auto-finish": "finish"}  # in the buttons' custom_ids


@pytest.fixture
def clock() -> StepClock:
    """Noon (UTC) on the day whose daily Trefoil deal the tests can win."""
    return StepClock(datetime(NOV_22.year, NOV_22.month, NOV_22.day, 12, tzinfo=UTC).timestamp())


@pytest.fixture
async def bot(
    fake: FakeDiscord, database: Path, clock: StepClock, monkeypatch: pytest.MonkeyPatch
) -> AsyncIterator[Any]:
    """The bot on the session's clock and a solver that answers alike on every run, its
    pool of winnable deals holding one Trefoil deal (for the challenge) and one Corner
    Stones deal (for ``/new winnable``)."""
    executor = deterministic_solver(monkeypatch)
    watch_verdict_checks(monkeypatch)
    try:
        async with bot_in_process(fake, database, clock=clock) as running:
            assert await running.core.stores.meta.try_lead(lambda: None)
            pool = running.core.stores.pool
            await pool.add("trefoil", NOV_23_DEAL, clock(), target=10)
            await pool.add("corner-stones", WINNABLE_CORNER_STONES, clock(), target=10)
            yield running
    finally:
        executor.shutdown(wait=True, cancel_futures=True)


def _frees_a_safe_move(game: Game, move: Move) -> bool:
    after = game.copy()
    after.play(move)
    return bool(after.safe_foundation_moves())


def _commands(fake: FakeDiscord) -> str:
    """The slash commands as synced: what Discord's command picker shows, in each language."""
    lines = ["=== the slash commands, as synced"]

    def localised(item: dict[str, Any], indent: str) -> None:
        for key in ("name_localizations", "description_localizations"):
            for locale, words in sorted((item.get(key) or {}).items()):
                lines.append(f"{indent}  {key.split('_')[0]} [{locale}]: {words}")

    for name, command in sorted(fake.commands[None].items()):
        extra = {k: command.get(k) for k in ("contexts", "integration_types",
                                             "default_member_permissions", "dm_permission")}
        lines.append(f"/{name}: {command.get('description', '')} {extra}")
        localised(command, "")
        for option in command.get("options", []):
            flags = [w for w, on in (("required", option.get("required")),
                                     ("autocomplete", option.get("autocomplete"))) if on]
            lines.append(f"  {option['name']} (type {option['type']}{', ' if flags else ''}"
                         f"{', '.join(flags)}): {option.get('description', '')}")
            localised(option, "  ")
            for choice in option.get("choices", []):
                lines.append(f"    choice {choice['value']!r}: {choice['name']}")
                localised(choice, "    ")
    return "\n".join(lines)


async def test_every_message_of_a_session_reads_as_recorded(
    fake: FakeDiscord, bot: Any, clock: StepClock
) -> None:
    s = Session(fake, bot, clock)
    s.blocks.append(_commands(fake))
    alice, bob, carol, dana, erin, olga = (
        fake.users[n] for n in ("alice", "bob", "carol", "dana", "erin", "olga"))
    fake.set_locale(bob, "de")
    fake.set_locale(erin, "fr")

    def command(who: Any, name: str, options: dict[str, Any] | None = None,
                **where: Any) -> Callable[[], Awaitable[Reply]]:
        return lambda: fake.command(who, name, options or {}, **where)

    def press(who: Any, message: Any, label: str) -> Callable[[], Awaitable[Reply]]:
        """A board's button by its English label, whatever language it is labelled in;
        any other button by its label."""
        action = BOARD_ACTIONS.get(label)
        if action is None:
            return lambda: fake.press(who, message, label=label)
        ids = fake.message(message).state().custom_ids
        custom_id = next(i for i in ids if i.startswith(f"sol:{action}:"))
        return lambda: fake.press(who, message, custom_id)

    def pick(who: Any, message: Any, value: str) -> Callable[[], Awaitable[Reply]]:
        return lambda: fake.select(who, message, values=[value])

    async def play(who: Any, moves: list[str]) -> Reply:
        """Moves that lead to what is recorded, each by /move, unrecorded."""
        reply = None
        for move in moves:
            reply = await s.step(f"/move {move} by {who.name}",
                                 command(who, "move", move_options(move)), record=False)
        assert isinstance(reply, Reply)
        return reply

    # -- before any game ------------------------------------------------------------------
    await s.step("/help by alice", command(alice, "help"))
    await s.step("/help by bob (German)", command(bob, "help"))
    for game_id in ("clover-leaf", "four-leaf-clovers", "super-flower-garden", "trefoil",
                    "corner-stones"):
        await s.step(f"/rules {game_id} by alice", command(alice, "rules", {"game": game_id}))
    await s.step("/rules trefoil by erin (French), in a DM",
                 command(erin, "rules", {"game": "trefoil"}, guild=None))
    for name in ("move", "undo", "redo", "redeal", "hint", "show", "resign"):
        options = {"from": "7", "to": "3"} if name == "move" else {}
        await s.step(f"/{name} by carol, who has no game", command(carol, name, options))
    await s.step("/replay by carol, who has no game", command(carol, "replay"))
    await s.step("/stats by carol, who has played nothing", command(carol, "stats"))
    await s.step("/leaderboard by carol, before any game", command(carol, "leaderboard"))

    # -- each game dealt, and played by commands ------------------------------------------
    mirror = Mirror("clover-leaf", 4)
    await s.step("/new clover-leaf 4 by alice",
                 command(alice, "new", {"game": "clover-leaf", "deal": 4}))
    await s.step("autocomplete /move from '' by alice",
                 lambda: fake.autocomplete(alice, "move", focused="from", value=""))
    await s.step("autocomplete /move from '1' by alice",
                 lambda: fake.autocomplete(alice, "move", focused="from", value="1"))
    first = mirror.first_move(kind=PILE)
    await s.step(f"autocomplete /move to '' after from {first.split()[0]} by alice",
                 lambda: fake.autocomplete(alice, "move", focused="to", value="",
                                           options={"from": first.split()[0]}))
    await s.step(f"/move {first} by alice", command(alice, "move", move_options(first)))
    mirror.play(first)
    legal = {str(m) for m in mirror.game.legal_moves()}
    illegal = next(f"{a} {b}" for a in range(1, 17) for b in range(1, 17)
                   if a != b and f"{a} {b}" not in legal)
    await s.step(f"/move {illegal} (illegal) by alice",
                 command(alice, "move", move_options(illegal)))
    await s.step("/move 99 3 (no such pile) by alice",
                 command(alice, "move", {"from": "99", "to": "3"}))
    await s.step("/move 1 f9 (no such foundation) by alice",
                 command(alice, "move", {"from": "1", "to": "f9"}))
    await s.step("/move 'the ace' 'home' (words) by alice",
                 command(alice, "move", {"from": "the ace", "to": "home"}))
    await s.step("/move with 60 characters (unchecked) by alice",
                 lambda: fake.command_unchecked(alice, "move", {"from": "9" * 60}))
    await s.step("/undo by alice", command(alice, "undo"))
    await s.step("/undo by alice, nothing left to undo", command(alice, "undo"))
    await s.step("/redo by alice", command(alice, "redo"))
    await s.step("/redo by alice, nothing left to redo", command(alice, "redo"))
    await s.step("/redeal by alice (Clover Leaf has none)", command(alice, "redeal"))
    await s.step("/show by alice", command(alice, "show"))
    await s.step("/show by alice again at once (cooldown)", command(alice, "show"), wait_s=1)
    await s.step("/hint by alice", command(alice, "hint"))
    await s.step("/hint by alice again at once: the line it proved, so no search and no "
                 "cooldown", command(alice, "hint"), wait_s=1)
    await s.step("/move 8 13 by alice, off the hinted line",
                 command(alice, "move", {"from": "8", "to": "13"}), wait_s=1)
    await s.step("/hint by alice at once, off the line (cooldown)", command(alice, "hint"),
                 wait_s=1)

    # -- a new game over an unfinished one: the question ----------------------------------
    asked = await s.step("/new trefoil 2 by alice, over her game under way",
                         command(alice, "new", {"game": "trefoil", "deal": 2}))
    await s.step("Start new game pressed by carol (not hers)",
                 press(carol, asked, "Start new game"))
    await s.step("Keep playing by alice", press(alice, asked, "Keep playing"))
    asked = await s.step("/new four-leaf-clovers 2 by alice, over her game again",
                         command(alice, "new", {"game": "four-leaf-clovers", "deal": 2}))
    board = await s.step("Start new game by alice", press(alice, asked, "Start new game"))

    # -- buttons and the move menu (more moves than a menu holds: pile picks) ------------
    mirror = Mirror("four-leaf-clovers", 2)
    move = mirror.first_move(kind=PILE)
    assert move not in board_of(board).select.values, "more moves than a menu holds"
    await s.step(f"menu: pick {move.split()[0]} by alice",
                 pick(alice, board, f"pick {move.split()[0]}"))
    await s.step(f"menu: {move} by alice", pick(alice, board, move))
    await s.step("Undo pressed by bob (not his board)", press(bob, board, "Undo"))
    await s.step("menu pick by carol (not her board)",
                 pick(carol, board, board_of(fake.message(board).state()).select.values[0]))
    await s.step("Undo button by alice", press(alice, board, "Undo"))
    await s.step("Redo button by alice", press(alice, board, "Redo"))
    await s.step("To foundations button by alice", press(alice, board, "To foundations"))
    await s.step("Hint button by alice", press(alice, board, "Hint"))
    # A board in another channel, left behind by a move here: out of date, not collapsed
    # (a player has one live board per channel).
    chat = fake.guild.channels[1]
    behind = await s.step("/show by alice in #chat",
                          command(alice, "show", channel=chat))
    moved = Mirror("four-leaf-clovers", 2)
    moved.game = (await bot.core.stores.games.load(alice.id)).game
    await s.step("/move by alice in #games",
                 command(alice, "move", move_options(moved.first_move())))
    await s.step("Undo pressed by alice on her out-of-date board in #chat",
                 press(alice, behind, "Undo"))

    # -- each of the other games, by buttons ----------------------------------------------
    boards = {}
    for who, game_id, deal in ((carol, "super-flower-garden", 5), (dana, "corner-stones", 1)):
        board = boards[who.name] = await s.step(
            f"/new {game_id} {deal} by {who.name}",
            command(who, "new", {"game": game_id, "deal": deal}))
        await s.step(f"Hint button by {who.name}", press(who, board, "Hint"))
        mirror = Mirror(game_id, deal)
        move = mirror.first_move(kind=PILE)
        if move not in board_of(fake.message(board).state()).select.values:
            await s.step(f"menu: pick {move.split()[0]} by {who.name}",
                         pick(who, board, f"pick {move.split()[0]}"))
        await s.step(f"menu: {move} by {who.name}", pick(who, board, move))
        if mirror.game.rules.redeals:
            await s.step(f"Redeal button by {who.name}", press(who, board, "Redeal"))
        else:
            await s.step(f"To foundations button by {who.name}",
                         press(who, board, "To foundations"))
    await s.step("/redeal by carol", command(carol, "redeal"))

    # -- Trefoil with the draw rule, and the solver's "no win is possible" ---------------
    board = await s.step("/new trefoil 2 draw:True by bob (German)",
                         command(bob, "new", {"game": "trefoil", "deal": 2, "draw": True}))
    await s.step("Redeal button by bob", press(bob, board, "Redeal"))
    await s.step("Redeal button by bob, the last redeal", press(bob, board, "Redeal"))
    mirror = Mirror("trefoil", 2)
    mirror.game = (await bot.core.stores.games.load(bob.id)).game
    draw = next(str(m) for m in mirror.game.legal_moves() if m.kind == DRAW)
    await s.step(f"/move {draw} by bob", command(bob, "move", move_options(draw)))
    await s.step("/hint by bob", command(bob, "hint"))
    board = await s.step(f"/new trefoil {LOST_AFTER_TWO_REDEALS} by erin (French), in a DM",
                         command(erin, "new", {"game": "trefoil", "deal": LOST_AFTER_TWO_REDEALS},
                                 guild=None))
    await s.step("Redeal button by erin", press(erin, board, "Redeal"))
    await s.step("Redeal button by erin: proven lost, the board amended",
                 press(erin, board, "Redeal"))
    await s.step("Hint button by erin", press(erin, board, "Hint"))

    # -- a stuck game ----------------------------------------------------------------------
    await s.step(f"/new clover-leaf {STUCK_CLOVER_LEAF} by olga",
                 command(olga, "new", {"game": "clover-leaf", "deal": STUCK_CLOVER_LEAF}))
    mirror = Mirror("clover-leaf", STUCK_CLOVER_LEAF)
    while not mirror.finished:
        move = mirror.first_move()
        stuck = await s.step(f"/move {move} by olga", command(olga, "move", move_options(move)))
        mirror.play(move)
    await s.step("Hint button by olga on her stuck game", press(olga, stuck, "Hint"))
    await s.step("/undo by olga", command(olga, "undo"))
    await s.step("/redo by olga: stuck again", command(olga, "redo"))
    await s.step("/new trefoil 3 by olga: the stuck game recorded as lost",
                 command(olga, "new", {"game": "trefoil", "deal": 3}))

    # -- resigning ------------------------------------------------------------------------
    asked = await s.step("/resign by carol", command(carol, "resign"))
    await s.step("Resign pressed by alice (not her question)", press(alice, asked, "Resign"))
    await s.step("Keep playing by carol", press(carol, asked, "Keep playing"))
    asked = await s.step("/resign by carol again", command(carol, "resign"))
    await s.step("Resign by carol", press(carol, asked, "Resign"))

    # -- deals on request: random, winnable, refused ---------------------------------------
    await s.step("/new corner-stones by carol (a random deal)",
                 command(carol, "new", {"game": "corner-stones"}))
    asked = await s.step("/new corner-stones winnable:True by carol, over the untouched deal",
                         command(carol, "new", {"game": "corner-stones", "winnable": True}))
    board = await s.step("Start new game by carol", press(carol, asked, "Start new game"))
    await s.step("/new trefoil 3 winnable:True by carol (both)",
                 command(carol, "new", {"game": "trefoil", "deal": 3, "winnable": True}))
    await s.step("/new clover-leaf 4 draw:True by carol (not Trefoil)",
                 command(carol, "new", {"game": "clover-leaf", "deal": 4, "draw": True}))
    await s.step("/new corner-stones winnable:True by carol again: the pool is empty",
                 command(carol, "new", {"game": "corner-stones", "winnable": True}))
    await s.step("/new corner-stones 4 by carol: the very deal she has",
                 command(carol, "new", {"game": "corner-stones", "deal": WINNABLE_CORNER_STONES}))
    await s.step("menu: the first move by carol",
                 pick(carol, board, board_of(fake.message(board).state()).select.values[0]))
    asked = await s.step("/new trefoil 3 by carol, over her game under way",
                         command(carol, "new", {"game": "trefoil", "deal": 3}))
    await s.step("Start new game by carol", press(carol, asked, "Start new game"))

    # -- settings ---------------------------------------------------------------------------
    await s.step("/settings by dana", command(dana, "settings"))
    await s.step("/settings private_boards:True by dana",
                 command(dana, "settings", {"private_boards": True}))
    await s.step("Undo by dana on her public board, now that boards are private",
                 press(dana, boards["dana"], "Undo"))
    await s.step("/show by dana, privately", command(dana, "show"))
    await s.step("/settings private_boards:False four_colour:False by dana",
                 command(dana, "settings", {"private_boards": False, "four_colour": False}))
    await s.step("/show by dana in red and black", command(dana, "show"))
    await s.step("/settings four_colour:True auto_moves:True by dana",
                 command(dana, "settings", {"four_colour": True, "auto_moves": True}))
    asked = await s.step("/new trefoil 5 by dana, over her game under way",
                         command(dana, "new", {"game": "trefoil", "deal": 5}))
    await s.step("Start new game by dana: safe moves played with the deal",
                 press(dana, asked, "Start new game"))
    game = (await bot.core.stores.games.load(dana.id)).game
    freeing = next(str(m) for m in game.legal_moves() if m.kind != REDEAL
                   and _frees_a_safe_move(game, m))
    await s.step(f"/move {freeing} by dana, a safe move following by itself",
                 command(dana, "move", move_options(freeing)))
    await s.step("/settings auto_moves:False by dana",
                 command(dana, "settings", {"auto_moves": False}))

    # -- the daily deal, won ----------------------------------------------------------------
    asked = await s.step("/daily trefoil by alice, over her game under way",
                         command(alice, "daily", {"game": "trefoil"}))
    daily = await s.step("Start new game by alice", press(alice, asked, "Start new game"))
    await s.step("Undo pressed by alice on her board in #chat, of the game replaced",
                 press(alice, behind, "Undo"))
    mirror = Mirror("trefoil", NOV_22_DEAL)
    board = daily
    for move in NOV_22_WIN:
        if mirror.foundation_moves_win():
            break
        board = await play(alice, [move])
        mirror.play(move)
    await s.step("Auto-finish by alice: the daily deal won", press(alice, board, "Auto-finish"))
    await s.step("/move 1 2 by alice, her game won", command(alice, "move", {"from": "1", "to": "2"}))
    await s.step("/show by alice, her game won", command(alice, "show"))

    # -- the daily deals of the other games -------------------------------------------------
    for game_id in ("clover-leaf", "four-leaf-clovers", "super-flower-garden", "corner-stones"):
        await s.step(f"/daily {game_id} by carol", command(carol, "daily", {"game": game_id}))
    daily_board = {"game": "trefoil"}
    await s.step("/daily-board trefoil by dana", command(dana, "daily-board", daily_board))
    await s.step("/daily-board trefoil by dana again at once (cooldown)",
                 command(dana, "daily-board", daily_board), wait_s=1)
    for day in ("yesterday", NOV_22.isoformat(), "soon"):
        await s.step(f"/daily-board trefoil {day} by dana",
                     command(dana, "daily-board", {"game": "trefoil", "day": day}))
    await s.step("/daily-board clover-leaf by dana",
                 command(dana, "daily-board", {"game": "clover-leaf"}))
    await s.step("/daily-board trefoil by bob (German)", command(bob, "daily-board", daily_board))

    # -- replays ----------------------------------------------------------------------------
    await s.step("/replay by alice: her daily deal", command(alice, "replay"))
    await s.step("/replay by alice again at once (cooldown)", command(alice, "replay"), wait_s=1)
    await s.step("/replay user:alice by dana, who may still play the daily deal",
                 command(dana, "replay", {"user": "alice"}))
    await s.step("/replay user:carol by alice", command(alice, "replay", {"user": "carol"}))
    await s.step("/replay user:olga by bob (German)", command(bob, "replay", {"user": "olga"}))
    await s.step("/replay user:bob by alice, who has finished nothing",
                 command(alice, "replay", {"user": "bob"}))
    await s.step("/daily trefoil by alice again: not scored",
                 command(alice, "daily", {"game": "trefoil"}))

    # -- statistics -------------------------------------------------------------------------
    await s.step("/stats by alice", command(alice, "stats"))
    await s.step("/stats by alice again at once (cooldown)", command(alice, "stats"), wait_s=1)
    await s.step("/stats user:alice game:trefoil by bob (German)",
                 command(bob, "stats", {"user": "alice", "game": "trefoil"}))
    await s.step("/stats scope:all by carol",
                 command(carol, "stats", {"scope": "all"}))
    await s.step("/stats user:olga by carol", command(carol, "stats", {"user": "olga"}))
    await s.step("/leaderboard by dana", command(dana, "leaderboard"))
    await s.step("/leaderboard by dana again at once (cooldown)", command(dana, "leaderboard"),
                 wait_s=1)
    for period in ("week", "month", "all"):
        await s.step(f"/leaderboard period:{period} by alice",
                     command(alice, "leaderboard", {"period": period}))
    await s.step("/leaderboard game:trefoil by bob (German)",
                 command(bob, "leaderboard", {"game": "trefoil"}))

    # -- a challenge played to its end ------------------------------------------------------
    await s.step("/challenge alice by alice (herself)",
                 command(alice, "challenge", {"user": "alice", "game": "trefoil"}))
    await s.step("/challenge the bot by alice", lambda: fake.command_unchecked(
        alice, "challenge", {"user": str(fake.bot_user.id), "game": "trefoil"},
        resolved={"users": {str(fake.bot_user.id): fake.bot_user.payload()}}))
    challenge = await s.step("/challenge bob trefoil by alice",
                             command(alice, "challenge", {"user": "bob", "game": "trefoil"}))
    await s.step("/challenge carol by alice again at once (cooldown)",
                 command(alice, "challenge", {"user": "carol", "game": "trefoil"}), wait_s=1)
    await s.step("/challenge bob by alice again: one under way",
                 command(alice, "challenge", {"user": "bob", "game": "clover-leaf"}))
    accept = next(i for i in challenge.custom_ids if ":accept:" in i)
    play_id = accept.replace(":accept:", ":play:")  # the button it shows once accepted
    await s.step("Play pressed by alice before it is accepted",
                 lambda: fake.press_unchecked(alice, challenge, play_id))
    await s.step("Accept pressed by carol (not for her)", press(carol, challenge, "Accept"))
    await s.step("Accept by bob (German)", lambda: fake.press(bob, challenge, accept))
    await s.step("Play pressed by carol (not her challenge)", press(carol, challenge, "Play"))
    asked = await s.step("Play by alice, over her untouched game",
                         press(alice, challenge, "Play"))
    await s.step("Start new game by alice", press(alice, asked, "Start new game"))
    asked = await s.step("Play by bob, over his game under way",
                         press(bob, challenge, "Play"))
    yes = next(i for i in asked.custom_ids if i.startswith("sol:new:yes:"))
    await s.step("Start new game by bob", lambda: fake.press(bob, asked, yes))
    asked = await s.step("/resign by alice", command(alice, "resign"))
    await s.step("Resign by alice: her side of the challenge", press(alice, asked, "Resign"))
    await play(bob, NOV_23_WIN[:-1])
    await s.step(f"/move {NOV_23_WIN[-1]} by bob: won, and the challenge with it",
                 command(bob, "move", move_options(NOV_23_WIN[-1])))
    await s.step("Play pressed by bob on the challenge over, as shown before",
                 lambda: fake.press_unchecked(bob, challenge, play_id))
    await s.step("/stats by bob (German)", command(bob, "stats"))
    declined = await s.step("/challenge dana clover-leaf by carol",
                            command(carol, "challenge", {"user": "dana", "game": "clover-leaf"}))
    await s.step("Decline by dana", press(dana, declined, "Decline"))
    await s.step("/challenge dana trefoil by olga",
                 command(olga, "challenge", {"user": "dana", "game": "trefoil"}))
    olga_asks = fake.channel_messages()[-1]
    await s.step("Accept by dana: a winnable deal proven on the spot",
                 press(dana, olga_asks, "Accept"))

    # -- elsewhere: another server, a direct message, a user install ----------------------
    await s.step("/leaderboard by erin in Other Server",
                 command(erin, "leaderboard", guild=fake.other_guild))
    await s.step("/stats by alice in Other Server",
                 command(alice, "stats", guild=fake.other_guild))
    await s.step("/show by erin in her DM", command(erin, "show", guild=None))
    await s.step("/show by alice where only she installed the bot",
                 command(alice, "show", context="user_install_guild"))

    # -- deleting: a player's data, a server's statistics ------------------------------------
    asked = await s.step("/forget-me by olga", command(olga, "forget-me"))
    await s.step("No by olga", press(olga, asked, asked.buttons[1].label or ""))
    asked = await s.step("/forget-me by olga again", command(olga, "forget-me"))
    await s.step("Yes by olga", press(olga, asked, asked.buttons[0].label or ""))
    await s.step("/reset-server-stats by alice (no Manage Server)",
                 command(alice, "reset-server-stats"))
    asked = await s.step("/reset-server-stats by dana", command(dana, "reset-server-stats"))
    await s.step("No by dana", press(dana, asked, asked.buttons[1].label or ""))
    asked = await s.step("/reset-server-stats by dana again", command(dana, "reset-server-stats"))
    await s.step("Yes by dana", press(dana, asked, asked.buttons[0].label or ""))
    await s.step("/leaderboard by dana, the server's statistics cleared",
                 command(dana, "leaderboard"))

    # -- a day later --------------------------------------------------------------------------
    late = await s.step("/challenge carol trefoil by dana",
                        command(dana, "challenge", {"user": "carol", "game": "trefoil"}))
    await s.step("Accept by carol a day later", press(carol, late, "Accept"), wait_s=DAY_S + 1)
    await s.step("/daily-board trefoil yesterday by alice, the next day",
                 command(alice, "daily-board", {"game": "trefoil", "day": "yesterday"}))

    s.blocks.append("=== (end)")
    compare("discord_session.txt", s.record())
