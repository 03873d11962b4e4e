"""Every kind of cooldown has its limit, and is named as the command a player knows."""

from bot.flows.cooldowns import EVERY_S, Cooldown


def test_every_kind_of_cooldown_has_its_limit() -> None:
    assert set(EVERY_S) == set(Cooldown)
    assert all(every > 0 for every in EVERY_S.values())
    assert Cooldown.DAILY_BOARD == "daily-board", "the English name of the command it limits"
