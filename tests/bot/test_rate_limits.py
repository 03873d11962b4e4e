"""A channel's messages older than an hour take a few edits every few seconds (Discord's error
30046): ``OldMessages`` keeps this process's part of them, channel by channel."""

from __future__ import annotations

from bot.discord.rate_limits import (
    DISCORD_EPOCH_S,
    OLD_EDITS,
    OLD_EDITS_PER_S,
    OLD_MESSAGE_S,
    OldMessages,
)

NOW = 1_800_000_000.0  # Unix seconds


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def message_made(seconds_ago: float, n: int = 0) -> int:
    """The id Discord gives a message made ``seconds_ago``."""
    return (int((NOW - seconds_ago - DISCORD_EPOCH_S) * 1000) << 22) + n


OLD = [message_made(2 * 3600, n) for n in range(5)]
YOUNG = message_made(60)


def test_a_message_is_old_an_hour_after_its_id_says_it_was_made() -> None:
    edits = OldMessages(wall=lambda: NOW)
    assert edits.is_old(OLD[0]) and not edits.is_old(YOUNG)
    assert not edits.is_old(message_made(OLD_MESSAGE_S - 1))


def test_a_channel_takes_three_edits_of_old_messages_then_waits_for_the_first_to_age_out() -> None:
    clock = Clock()
    edits = OldMessages(clock=clock, wall=lambda: NOW)
    for message in OLD[:OLD_EDITS]:
        assert edits.wait_s(1, message) == 0
        edits.took(1, message)
    assert edits.wait_s(1, OLD[3]) == OLD_EDITS_PER_S
    assert edits.wait_s(2, OLD[3]) == 0, "another channel's are its own"
    assert edits.wait_s(1, YOUNG) == 0, "a young message is edited as ever"
    clock.now += OLD_EDITS_PER_S
    assert edits.wait_s(1, OLD[3]) == 0


def test_each_process_of_a_fleet_takes_its_share_and_at_least_one() -> None:
    assert OldMessages(0.5).per_window == 1 and OldMessages(1 / 3).per_window == 1
    assert OldMessages(1.0).per_window == OLD_EDITS


def test_the_first_edit_discord_takes_goes_first_the_others_wait() -> None:
    clock = Clock()
    edits = OldMessages(0.5, clock=clock, wall=lambda: NOW)
    edits.took(1, OLD[0])
    assert edits.first_taken([(OLD[1], 1), (YOUNG, 1), (OLD[2], 2)]) == (YOUNG, 0.0)
    assert edits.first_taken([(OLD[1], 1)]) == (None, OLD_EDITS_PER_S)
    assert edits.first_taken([]) == (None, None)
