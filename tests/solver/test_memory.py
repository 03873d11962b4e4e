"""Every cache the solver keeps between calls has a fixed size (the bot's solver worker
runs for days): solving many deals never grows one past its bound."""

import pytest

from engine import RULES, new_game
from engine.lru import LRU
from engine.solver import model as model_module
from engine.solver import order, plan
from engine.solver.budget import Budget


def test_redeal_shuffles_kept_never_exceed_their_bound(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(model_module, "PERMUTATIONS_KEPT", 6)
    model = model_module.Model(RULES["trefoil"])
    used = 0
    for deal in range(1, 6):
        plan.search(model, new_game("trefoil", deal), Budget(0, positions=20_000))
        assert len(model._permutations) <= 6
        used = max(used, len(model._permutations))
    assert used == 6  # the searches wanted more shuffles than the bound keeps


def test_distances_kept_never_exceed_their_bound(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(order, "_DISTANCES", LRU(10))
    model = model_module.model_for("corner-stones")
    for deal in range(1, 4):
        plan.search(model, new_game("corner-stones", deal), Budget(0, positions=20_000))
        assert len(order._DISTANCES) <= 10
    assert len(order._DISTANCES) == 10
