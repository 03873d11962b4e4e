"""`/move` autocompletes: `from` offers legal moves (at most 25, foundation moves first) and
`to` the destinations of the chosen pile; a chosen suggestion plays as typed."""

from __future__ import annotations

from typing import Any

from engine import FOUNDATION, REDEAL

from .fake_discord import FakeDiscord
from .play import MENU_LIMIT, Mirror, move_options


async def test_from_offers_legal_moves_foundation_first(fake: FakeDiscord, bot: Any) -> None:
    alice = fake.users["alice"]
    mirror = Mirror("corner-stones", 1)  # more legal moves than a list holds
    await fake.command(alice, "new", {"game": "corner-stones", "deal": 1})
    legal = [str(m) for m in mirror.game.legal_moves()]
    assert len(legal) > MENU_LIMIT

    reply = await fake.autocomplete(alice, "move", focused="from", value="")
    values = reply.choice_values
    assert 0 < len(values) <= MENU_LIMIT
    assert set(values) <= set(legal), "only legal moves are suggested"
    home = [str(m) for m in mirror.game.legal_moves() if m.kind == FOUNDATION]
    assert values[: len(home)] == home, "foundation moves come first"
    assert all(c["name"] for c in reply.choices)

    narrowed = await fake.autocomplete(alice, "move", focused="from", value="3")
    from_three = [v for v in legal if v.split()[0] == "3"]
    assert from_three and narrowed.choice_values == from_three[:MENU_LIMIT], "pile 3's moves"

    chosen = values[-1]
    played = await fake.command(alice, "move", {"from": chosen})  # the suggestion, as sent
    mirror.play(chosen)
    mirror.check_board(played, alice.id)


async def test_to_offers_the_destinations_of_the_pile(fake: FakeDiscord, bot: Any) -> None:
    bob = fake.users["bob"]
    mirror = Mirror("four-leaf-clovers", 2)
    await fake.command(bob, "new", {"game": "four-leaf-clovers", "deal": 2})
    move = next(m for m in mirror.game.legal_moves() if m.kind != REDEAL)
    source = str(move).split()[0]
    expected = [
        str(m).split()[1]
        for m in mirror.game.legal_moves()
        if m.kind != REDEAL and str(m).split()[0] == source
    ]
    reply = await fake.autocomplete(bob, "move", focused="to", value="", options={"from": source})
    assert sorted(reply.choice_values) == sorted(expected[:MENU_LIMIT])
    target = reply.choice_values[0]
    played = await fake.command(bob, "move", {"from": source, "to": target})
    mirror.play(f"{source} {target}")
    mirror.check_board(played, bob.id)


async def test_suggestions_need_a_game(fake: FakeDiscord, bot: Any) -> None:
    reply = await fake.autocomplete("dana", "move", focused="from", value="")
    assert reply.choices == ()
    await fake.command("dana", "new", {"game": "trefoil", "deal": 2})
    mirror = Mirror("trefoil", 2)
    reply = await fake.autocomplete("dana", "move", focused="from", value="")
    expected = [str(m) for m in mirror.game.legal_moves()][:MENU_LIMIT]
    assert reply.choice_values == expected
    # A move typed by hand in the suggested form plays too.
    text = mirror.first_move()
    mirror.play(text)
    played = await fake.command("dana", "move", move_options(text))
    mirror.check_board(played, fake.users["dana"].id)
