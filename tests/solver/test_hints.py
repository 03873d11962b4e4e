"""Hints that follow through: from a position the solver calls won, playing the hinted
move again and again wins, never coming back to a position, remembered plan or not.
(Where a redeal is still to come, a hint cannot see its shuffle: the positions here are
won in the deal on the table, or come after the last redeal; test_sampled_hints.py has
the rest.)"""

from dataclasses import replace

import pytest

from engine import GAMES, REDEAL, Game, new_game
from engine.solver import followed, hint, sampled, solve
from engine.solver.lines import PLANS, Plans
from engine.solver.model import model_for, move_text

# Positions per search: each search here decides within 4,000 (measured), so the hints
# are the same on every machine, compiled or not.
POSITIONS = 20_000

# Deals the solver wins within a few hundred positions (measured), per game; those of
# the redeal games are won in their first deal, without a redeal.
QUICK_WINS = {
    "clover-leaf": (4, 281633),
    "corner-stones": (4, 7),
    "four-leaf-clovers": (4, 6),
    "super-flower-garden": (4, 34),
    "trefoil": (49, 130),
}

# Positions where hints used to alternate between two lines: a move and its reverse.
LOOPED = {
    "clover-leaf 281633": ("clover-leaf", 281633, ""),
    "corner-stones 5": (
        "corner-stones", 5, "4 1,2 6,2 f1,7 3,2 11,7 2,2 f8,2 6,3 9,4 8,4 11,8 2"
    ),
}


def game_at(game_id: str, deal: int, moves: str = "") -> Game:
    game = new_game(game_id, deal)
    for text in filter(None, moves.split(",")):
        game.play(text)
    return game


def after_the_last_redeal(game_id: str, deal: int) -> Game:
    """The deal played along the solver's winning line up to its last redeal: nothing is
    hidden from there on."""
    game = new_game(game_id, deal)
    line = solve(game, positions=POSITIONS).moves
    last = max(i for i, move in enumerate(line) if move == "redeal")
    for move in line[: last + 1]:
        game.play(move)
    assert not game.redeals_left
    return game


def forget() -> None:
    """Every plan forgotten, as in a worker started again."""
    PLANS.clear()
    sampled.UNDER_WAY.clear()


def follow_hints(game: Game, *, remembered: bool = True, limit: int = 600) -> int:
    """Play hint after hint until the game is won; the number of moves it took.
    ``remembered=False`` forgets every plan before each hint (a restarted worker)."""
    visited = {game.key()}
    for played in range(limit):
        if game.is_won:
            return played
        if not remembered:
            forget()
        advice = hint(game, positions=POSITIONS)
        assert advice.winning and advice.move is not None, (played, advice.note)
        game.play(advice.move)
        assert game.key() not in visited, f"back at a position after {advice.move}"
        visited.add(game.key())
    raise AssertionError(f"not won after {limit} hinted moves")


@pytest.mark.parametrize(
    ("game_id", "deal"), [(g, d) for g in sorted(GAMES) for d in QUICK_WINS[g]]
)
def test_following_the_hints_from_the_deal_wins(game_id: str, deal: int) -> None:
    solution = solve(new_game(game_id, deal), positions=POSITIONS)
    assert solution.status == "won"
    PLANS.clear()
    moves = follow_hints(new_game(game_id, deal))
    assert moves <= len(solution.moves) + 20  # about the solver's own line


@pytest.mark.parametrize("name", sorted(LOOPED))
def test_hints_that_used_to_loop_now_win(name: str) -> None:
    game_id, deal, moves = LOOPED[name]
    PLANS.clear()
    follow_hints(game_at(game_id, deal, moves))


@pytest.mark.parametrize(("game_id", "deal"), [("clover-leaf", 281633), ("trefoil", 130)])
def test_hints_win_without_a_remembered_plan(game_id: str, deal: int) -> None:
    """With every plan forgotten before each hint, each new plan keeps away from the
    positions already played, so it never leads back."""
    follow_hints(new_game(game_id, deal), remembered=False)


def test_a_fresh_plan_from_an_old_line_does_not_undo_the_last_move() -> None:
    game_id, deal, moves = LOOPED["corner-stones 5"]
    game = game_at(game_id, deal, moves)
    for _ in range(3):
        PLANS.clear()
        before = game.key()
        game.play(hint(game, positions=POSITIONS).move or "")
        PLANS.clear()
        advice = hint(game, positions=POSITIONS)
        game.play(advice.move or "")
        assert game.key() != before
        game.undo()


def test_leaving_the_plan_gets_a_new_one_that_wins() -> None:
    game = new_game("four-leaf-clovers", 6)
    PLANS.clear()
    first = hint(game, positions=POSITIONS).move
    off_plan = next(str(m) for m in game.legal_moves() if str(m) != first)
    game.play(off_plan)
    assert solve(game, positions=POSITIONS).status == "won"  # still winnable off the plan
    follow_hints(game)


@pytest.mark.parametrize(
    ("game_id", "deal"), [("super-flower-garden", 586511), ("trefoil", 5), ("trefoil", 42)]
)
def test_after_the_last_redeal_of_a_won_line_the_hints_win(game_id: str, deal: int) -> None:
    game = after_the_last_redeal(game_id, deal)
    PLANS.clear()
    advice = hint(game, positions=POSITIONS)
    assert advice.winning and "This move is part of a winning line." in advice.note
    follow_hints(game)


def test_hint_notes_are_plain_text() -> None:
    PLANS.clear()
    notes = set()
    for game_id in sorted(GAMES):
        for deal in (1, 2):
            game = new_game(game_id, deal)
            for _ in range(3):
                advice = hint(game, positions=300)  # some undecided: every kind of note
                notes.add(advice.note)
                if advice.move is None:
                    break
                game.play(advice.move)
    assert len(notes) >= 5
    for note in notes:
        assert "`" not in note and "**" not in note and "_" not in note, note


def test_remembered_plans_never_exceed_their_bound() -> None:
    plans = Plans(limit=50)
    model = model_for("trefoil")
    for deal in range(1, 4):
        game = new_game("trefoil", deal)
        replay = game.copy()
        line = [replay.play(text).raw for text in solve(game, positions=POSITIONS).moves]
        assert len(line) > 50
        plans.remember(model, model.position(game), line, deal, False)  # type: ignore[arg-type]
        assert len(plans.positions) == 50
        # A line longer than the bound keeps its last positions: its start is gone.
        assert plans.next_step(model, model.position(game), deal, False) is None
        assert plans.next_step(model, model.position(replay), deal, False) is None  # won


def test_a_remembered_line_gives_back_each_of_its_moves_redeals_included() -> None:
    plans = Plans()
    game = new_game("super-flower-garden", 1)
    model = model_for("super-flower-garden")
    solution = solve(game, positions=POSITIONS)
    assert solution.status == "won"
    replay = game.copy()
    line = [replay.play(text).raw for text in solution.moves]
    assert (REDEAL, -1, -1) in line, "the line redeals"
    plans.remember(model, model.position(game), line, 1, False)  # type: ignore[arg-type]
    walk = game.copy()
    while not walk.is_won:
        step = plans.next_step(model, model.position(walk), 1, False)
        assert step is not None
        assert step.moves_left == len(line) - walk.moves_made  # counts down to the win
        walk.play(move_text(step.move))


@pytest.mark.parametrize("game_id", sorted(QUICK_WINS))
def test_followed_gives_the_hint_on_a_remembered_line_and_nothing_off_it(game_id: str) -> None:
    """``followed`` answers, with no search, exactly what ``hint`` would on a line a hint
    proved, step after step; where no line is remembered (a fresh worker, or a move off
    the line), it has no answer, and a hint would search."""
    forget()
    deal = QUICK_WINS[game_id][1]
    game = new_game(game_id, deal)
    assert followed(game) is None, "nothing remembered yet"
    first = hint(game, positions=POSITIONS)
    assert first.winning and first.positions > 0
    assert followed(game) == replace(first, positions=0, line=())
    assert first.move is not None
    game.play(first.move)
    step = followed(game)
    assert step is not None and step == hint(game, positions=POSITIONS)
    off = [m for m in game.legal_moves() if step.move != str(m)]
    assert off, "the position has another move"
    elsewhere = game.copy()
    elsewhere.play(str(off[0]))
    assert followed(elsewhere) is None, "off the line, a hint would search"
    forget()
    assert followed(game) is None, "a worker started again remembers no line"
