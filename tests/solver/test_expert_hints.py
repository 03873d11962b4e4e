"""Hints like an expert's: one action where one action does it, the moves a line has
left, and on a game that can't be won, the truth and no loop."""

import itertools

import pytest

from engine import GAMES, Game, new_game
from engine.solver import AUTO_FINISH, TO_FOUNDATIONS, hint, solve
from engine.solver.lines import PLANS

POSITIONS = 20_000  # every search here decides within a few thousand (measured)

WON_DEALS = {  # deals the solver wins quickly (the redeal games' in their first deal)
    "clover-leaf": (4, 281633),
    "corner-stones": (4, 7),
    "four-leaf-clovers": (4, 6),
    "super-flower-garden": (4, 34),
    "trefoil": (49, 130),
}


def after_the_last_redeal(game_id: str, deal: int) -> Game:
    """The deal played along the solver's winning line up to its last redeal: from there
    on nothing is hidden, and a hint plans a win as for any other game."""
    game = new_game(game_id, deal)
    line = solve(game, positions=POSITIONS).moves
    last = max(i for i, move in enumerate(line) if move == "redeal")
    for move in line[: last + 1]:
        game.play(move)
    return game


def game_at(game_id: str, deal: int, moves: str = "") -> Game:
    game = new_game(game_id, deal)
    for text in filter(None, moves.split(",")):
        game.play(text)
    return game


def follow(game: Game, limit: int = 600) -> list[tuple[int, str | None, int]]:
    """Follow the hints to the win, an action as one step (as its button plays it):
    (moves made, action, moves left) at each hint. No position may come twice."""
    seen = {game.key()}
    steps = []
    for _ in range(limit):
        if game.is_won:
            return steps
        advice = hint(game, positions=POSITIONS)
        assert advice.winning and advice.move is not None, advice.note
        assert advice.moves_left is not None
        steps.append((game.moves_made, advice.action, advice.moves_left))
        before = game.moves_made
        if advice.action is None:
            game.play(advice.move)
        else:
            played = game.play_to_foundations()
            assert str(played[0]) == advice.move
            assert len(played) >= 2 or advice.action == AUTO_FINISH
        assert game.moves_made - before <= advice.moves_left
        assert game.key() not in seen, "back at a position"
        seen.add(game.key())
    raise AssertionError(f"not won after {limit} hints")


@pytest.mark.parametrize(("game_id", "deal"), [(g, d) for g in sorted(GAMES) for d in WON_DEALS[g]])
def test_following_the_hints_wins_without_coming_back_and_counts_down(
    game_id: str, deal: int
) -> None:
    PLANS.clear()
    game = new_game(game_id, deal)
    steps = follow(game)
    # moves_left counts the single moves to the win, exactly.
    assert steps[0][2] == game.moves_made
    for (made, _, left), (later, _, left_later) in itertools.pairwise(steps):
        assert left_later == left - (later - made)
    assert steps[-1][1] == AUTO_FINISH


def test_trefoil_42_says_auto_finish_as_soon_as_the_cards_finish_themselves() -> None:
    """Its hints once named single foundation moves for 27 moves after the game could
    finish itself."""
    PLANS.clear()
    game = after_the_last_redeal("trefoil", 42)
    start = game.moves_made
    while not game.finishes_itself():
        advice = hint(game, positions=POSITIONS)
        assert advice.action != AUTO_FINISH
        game.play(advice.move or "")
    assert game.moves_made - start <= 25  # measured: 25, with 29 cards left
    advice = hint(game, positions=POSITIONS)
    assert advice.action == AUTO_FINISH and advice.winning
    left = sum(len(p) for p in game.tableau)
    assert advice.moves_left == left
    assert "Auto-finish" in advice.note


def test_to_foundations_is_the_step_when_the_line_sends_every_card_up() -> None:
    PLANS.clear()
    game = after_the_last_redeal("trefoil", 42)
    for _ in range(100):
        advice = hint(game, positions=POSITIONS)
        if advice.action == TO_FOUNDATIONS:
            break
        game.play(advice.move or "")
    else:
        raise AssertionError("no To foundations step")
    left = advice.moves_left or 0
    probe = game.copy()
    played = probe.play_to_foundations()
    assert len(played) >= 2 and str(played[0]) == advice.move
    after = hint(probe, positions=POSITIONS)
    assert after.winning and after.moves_left == left - len(played)
    # Playing only the first of its moves stays on the line too.
    game.play(advice.move or "")
    assert hint(game, positions=0).winning  # remembered: no search needed


def test_a_game_proven_lost_says_so_and_its_hints_never_loop() -> None:
    """Clover Leaf 7 is lost from the deal; from its 13th hint on, hints used to
    alternate 5 9 and 9 5 for ever."""
    PLANS.clear()
    game = new_game("clover-leaf", 7)
    assert solve(game, positions=POSITIONS).status == "lost"
    seen = {game.key()}
    for _ in range(200):
        advice = hint(game, positions=POSITIONS)
        assert advice.lost and not advice.winning and advice.undo_to_win is None
        if advice.move is None:
            break
        up = game.cards_on_foundations
        game.play(advice.move)
        assert game.key() not in seen, "a hint led back"
        seen.add(game.key())
        assert game.cards_on_foundations >= up
    else:
        raise AssertionError("hints went on for 200 moves")
    assert game.is_stuck or "no move puts more cards" in advice.note


# Clover Leaf 4 is won by the first 12 moves below and on; then "13 14" loses (proven),
# and "4 f1" keeps it lost.
WINNABLE = "5 f3,11 f2,6 16,2 6,2 f3,1 9,12 1,12 f1,8 f1,13 f1,2 f1,4 12"


@pytest.mark.parametrize("remembered", [True, False])
def test_a_lost_position_says_how_far_to_undo(remembered: bool) -> None:
    game = game_at("clover-leaf", 4, WINNABLE)
    assert solve(game, positions=POSITIONS).status == "won"
    PLANS.clear()
    if remembered:
        hint(game, positions=POSITIONS)  # the winning line from here, remembered
    game.play("13 14")
    game.play("4 f1")
    assert solve(game, positions=POSITIONS).status == "lost"
    advice = hint(game, positions=POSITIONS)
    assert advice.lost and advice.undo_to_win == 2
    assert "undo 2 moves" in advice.note
    game.undo()
    game.undo()
    again = hint(game, positions=0)  # the winning line found back there was remembered
    assert again.winning


def test_a_stuck_game_says_how_far_to_undo() -> None:
    game = game_at("clover-leaf", 4, WINNABLE)
    PLANS.clear()
    game.play("13 14")
    seen = {game.key()}
    while not game.is_stuck:
        game.play(next(m for m in game.legal_moves() if _after(game, m) not in seen))
        seen.add(game.key())
    advice = hint(game, positions=POSITIONS)
    assert advice.move is None and advice.lost
    assert advice.undo_to_win == game.moves_made - len(WINNABLE.split(","))


def _after(game: Game, move: object) -> object:
    probe = game.copy()
    probe.play(move)  # type: ignore[arg-type]
    return probe.key()
