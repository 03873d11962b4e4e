"""When the picture is slow or fails: the player still gets an answer, never "This interaction
failed"; one player's slow picture does not hold up another's reply; a failure changes
nothing. Faults are injected into the renderer (``render.board.render_image``), never into
the bot's own code.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

import pytest

from engine import Game

from .conftest import ErrorLog
from .fake_discord import (
    DEFERRED_CHANNEL_MESSAGE,
    DEFERRED_UPDATE_MESSAGE,
    FakeDiscord,
)
from .play import Mirror, move_options


def _wrap_renderer(monkeypatch: pytest.MonkeyPatch, before: Callable[[Game], None]) -> None:
    import render.board

    real = render.board.render_image

    def render_image(game: Game, *args: Any, **kwargs: Any) -> Any:
        before(game)
        return real(game, *args, **kwargs)

    monkeypatch.setattr(render.board, "render_image", render_image)


@pytest.mark.problems_expected
async def test_a_failed_picture_says_the_move_was_saved_and_keeps_it(
    fake: FakeDiscord, bot: Any, error_log: ErrorLog, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The picture is drawn after the move is saved: a renderer that breaks then must not
    tell the player that nothing changed."""
    alice = fake.users["alice"]
    mirror = Mirror("trefoil", 2)
    board = await fake.command(alice, "new", {"game": "trefoil", "deal": 2})
    failing = {"on": True}

    def explode(game: Game) -> None:
        if failing["on"]:
            raise RuntimeError("the renderer broke")

    _wrap_renderer(monkeypatch, explode)
    move = mirror.first_move()
    reply = await fake.command(alice, "move", move_options(move))
    assert reply.ephemeral and not reply.pngs
    assert "saved" in reply.text and "/show" in reply.text, reply.text
    assert fake.messages[board.message_id].state().version == 1, "the board was not touched"

    failing["on"] = False
    mirror.play(move)
    mirror.check_board(await fake.command(alice, "show"), alice.id)  # the move was kept
    assert fake.problems == [], "the player was always answered in time"
    logged = error_log.lines()
    assert len(logged) >= 1 and all(str(alice.id) in line for line in logged), logged


async def test_a_slow_picture_is_deferred_not_failed(
    fake: FakeDiscord, bot: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    bob = fake.users["bob"]
    mirror = Mirror("super-flower-garden", 5)
    await fake.command(bob, "new", {"game": "super-flower-garden", "deal": 5})
    release = threading.Event()
    _wrap_renderer(monkeypatch, lambda game: release.wait(10))

    async def answered_after_a_defer(interaction: Any, deferral: int) -> Any:
        await fake.send_interaction(interaction)
        await fake.wait_until(
            lambda: interaction.callback_type is not None, what="the bot's deferral"
        )
        assert interaction.callback_type == deferral and not interaction.answered
        release.set()
        reply = await interaction.reply()
        release.clear()
        return reply

    text = mirror.first_move()
    command = fake.start_command(bob, "move", move_options(text))
    reply = await answered_after_a_defer(command, DEFERRED_CHANNEL_MESSAGE)
    mirror.play(text)
    mirror.check_board(reply, bob.id)

    board = reply  # the board the /move posted is the current one
    text = mirror.first_move()
    press = fake.start_component(bob, board.message_id, board.select.custom_id, values=[text])
    reply = await answered_after_a_defer(press, DEFERRED_UPDATE_MESSAGE)
    assert reply.kind == "update" and reply.message_id == board.message_id
    mirror.play(text)
    mirror.check_board(reply, bob.id)


async def test_one_players_slow_picture_does_not_hold_up_another(
    fake: FakeDiscord, bot: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    carol, dana = fake.users["carol"], fake.users["dana"]
    slow, quick = Mirror("corner-stones", 1), Mirror("clover-leaf", 2)
    await fake.command(carol, "new", {"game": "corner-stones", "deal": 1})
    await fake.command(dana, "new", {"game": "clover-leaf", "deal": 2})
    release = threading.Event()
    _wrap_renderer(
        monkeypatch, lambda game: release.wait(10) if game.game_id == "corner-stones" else None
    )

    held = fake.start_command(carol, "move", move_options(slow.first_move()))
    await fake.send_interaction(held)
    try:
        text = quick.first_move()
        reply = await fake.command(dana, "move", move_options(text))
        quick.play(text)
        quick.check_board(reply, dana.id)
        assert not held.answered, "Dana was answered while Carol's picture was still drawing"
    finally:
        release.set()
    slow.play(slow.first_move())
    slow.check_board(await held.reply(), carol.id)


async def test_play_goes_on_after_the_gateway_drops(fake: FakeDiscord, bot: Any) -> None:
    erin = fake.users["erin"]
    mirror = Mirror("four-leaf-clovers", 2)
    board = await fake.command(erin, "new", {"game": "four-leaf-clovers", "deal": 2}, guild=None)
    await fake.drop_gateway()
    await fake.wait_until(lambda: fake.resumes == 1 and fake.bot_session(), what="RESUME")
    text = mirror.first_move()
    reply = await fake.select(erin, board, values=[text])
    mirror.play(text)
    mirror.check_board(reply, erin.id)
