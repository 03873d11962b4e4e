"""The measured odds are kept once (engine/odds.py); README, ODDS.md and /rules show them."""

from pathlib import Path

import pytest

from bot.words.help import rules_text
from engine import GAMES
from engine.odds import BLIND, PERFECT_PLAY, blind_table, odds_text, perfect_play_table
from engine.rules import RULES
from tests.said import shown

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("document", ["README.md", "engine/solver/ODDS.md"])
def test_the_documents_show_the_same_tables(document: str) -> None:
    text = (ROOT / document).read_text(encoding="utf-8")
    assert perfect_play_table() in text
    assert blind_table() in text


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_every_game_has_its_odds_in_its_rules(game_id: str) -> None:
    perfect = PERFECT_PLAY[game_id]
    assert 0 <= perfect.won + perfect.lost <= perfect.deals >= 5000
    assert " ".join(map(str, odds_text(game_id))) in shown(rules_text(game_id))
    assert len(shown(rules_text(game_id))) <= 2000 / 1.4  # one Discord message, translated too


def test_the_blind_odds_are_for_exactly_the_redeal_games() -> None:
    assert set(BLIND) == {g for g in GAMES if RULES[g].redeals}
    for blind in BLIND.values():
        assert blind.games >= 2000 and blind.low < blind.won / blind.games < blind.high
