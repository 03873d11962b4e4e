"""A restart: the bot process dies, a new one starts on the same database file, and the game
goes on — from the buttons of a board the old process posted.

The bot runs through its normal entry point in real processes here (``launch_bot``). The
first one is killed with SIGKILL, as a crash would: every move it answered must already be
on disk.
"""

from __future__ import annotations

import signal
from pathlib import Path

from engine import PILE

from .fake_discord import FakeDiscord
from .harness import BotProcess
from .play import Mirror, move_options


async def test_restart_resumes_the_game_and_old_buttons_work(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    database = tmp_path / "data" / "solitaire.db"
    database.parent.mkdir()
    alice = fake.users["alice"]
    mirror = Mirror("super-flower-garden", 5)

    first = BotProcess(fake, database, tmp_path, name="first")
    await first.start()
    try:
        assert fake.find_command("move") is not None, "commands were synced at the first start"
        syncs = len(fake.command_writes)
        reply = await fake.command(alice, "new", {"game": "super-flower-garden", "deal": 5})
        board_id = reply.message_id
        for _ in range(2):
            text = mirror.first_move(kind=PILE)
            reply = await fake.select(alice, board_id, values=[text])
            mirror.play(text)
            mirror.check_board(reply, alice.id)
        text = mirror.first_move()  # typed in her other server: the first board stays live
        reply = await fake.command(alice, "move", move_options(text), guild=fake.other_guild)
        mirror.play(text)
        mirror.check_board(reply, alice.id)
    finally:
        await first.stop(sig=signal.SIGKILL)

    second = BotProcess(fake, database, tmp_path, name="second")
    await second.start()
    try:
        assert len(fake.command_writes) == syncs, "unchanged commands are not synced again"
        # The first board is out of date (a /move came after it): pressing it refreshes it
        # to the saved position, which proves the new process knows the game.
        interaction = fake.start_component(alice, board_id, label="Undo")
        await fake.send_interaction(interaction)
        reply = await interaction.reply()
        assert reply.message_id == board_id
        mirror.check_board(reply, alice.id)
        [note] = await interaction.wait_followups(1)
        assert note.ephemeral and "out of date" in note.text
        # Now current again, the old message's controls play.
        reply = await fake.press(alice, board_id, label="Undo")
        mirror.game.undo()
        mirror.check_board(reply, alice.id)
        text = mirror.menu_values()[-1]
        reply = await fake.select(alice, board_id, values=[text])
        mirror.play(text)
        mirror.check_board(reply, alice.id)
        mirror.check_board(await fake.command(alice, "show"), alice.id)
    finally:
        code = await second.stop(sig=signal.SIGTERM)
    assert code == 0, f"SIGTERM stops the bot cleanly:\n{second.log()}"

    for process in (first, second):
        log = process.log()
        assert fake.token not in log, "the token never reaches a log line"
        assert "Traceback" not in log and " ERROR " not in log, log
