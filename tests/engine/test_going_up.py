"""Which card a move takes and places, "every card that can go up", safe moves, and
"foundation moves alone win"."""

from __future__ import annotations

from engine import PILE, Game, Move, new_game

from .positions import position


def test_placed_card_is_the_card_a_move_put_in_place() -> None:
    game = position("trefoil", {1: "9C", 2: "10C"})
    move = game.play("1 2")
    assert game.placed_card(move) is not None and game.placed_card(move).label == "9♣"


def test_play_to_foundations_plays_every_card_that_can_go_up_one_move_each() -> None:
    game = position("trefoil", {1: "3C 2C", 2: "2D"})
    played = game.play_to_foundations()
    assert [str(m) for m in played] == ["1 f1", "1 f1", "2 f2"]
    assert game.moves_made == 3
    game.undo()
    assert game.moves_made == 2  # undo takes them back one by one


def test_finishes_itself_only_when_foundation_moves_alone_win() -> None:
    game = position("trefoil", {1: "3C 2C", 2: "2D"})
    before = game.key()
    assert game.finishes_itself()
    assert game.key() == before  # it only looks
    stuck_behind = position("trefoil", {1: "2C 3C", 2: "2D"})  # 3C covers 2C
    assert not stuck_behind.finishes_itself()
    assert not new_game("trefoil", 27).finishes_itself()


def test_a_card_is_safe_to_send_up_when_nothing_left_could_go_on_it() -> None:
    # Trefoil builds down in suit: 3♣ takes only 2♣, already up, so 3♣ may go up safely.
    game = position("trefoil", {1: "3C 9D", 2: "2C"})
    assert [str(m) for m in game.safe_foundation_moves()] == ["2 f1"]
    played = game.play_safe_moves()
    assert [str(m) for m in played] == ["2 f1"]  # 9♦ covers 3♣; 2♦ is not on f2 yet


def test_a_card_something_could_still_go_on_is_not_safe() -> None:
    # Clover Leaf builds up or down in suit: 2♦ could still take 3♦ from the piles.
    game = position("clover-leaf", {1: "2D", 2: "3D"})
    assert [str(m) for m in game.legal_moves() if " f" in str(m)] == ["1 f1"]
    assert game.safe_foundation_moves() == []


def test_a_draw_comes_from_the_pile_holding_its_card() -> None:
    game = position("trefoil", {1: "5C 9D", 2: "QH 3S"}, redeals_left=0, draw=True)
    draw = game.resolve("draw QH")
    assert game.source_pile(draw) == 1
    assert game.source_pile(Move(PILE, 0, 1)) == 0


def test_finishes_itself_and_going_up_agree_with_the_legal_moves_along_many_games() -> None:
    """The shortcuts (the first foundation move alone; a trial on the game itself, taken
    back) answer as the plain definitions do, and leave the game exactly as it was: along
    random games, and along winning lines, whose ends finish by themselves."""
    import random

    from engine import FOUNDATION, GAMES
    from engine.solver import solve

    def check(game: Game) -> bool:
        up = [m for m in game.legal_moves() if m.kind == FOUNDATION]
        assert game._first_foundation_move() == (up[0] if up else None)
        trial = game.copy()
        trial.play_to_foundations()
        before = (game.key(), game.history, game.can_redo)
        finishes = game.finishes_itself()
        assert finishes == (bool(up) and trial.is_won)
        assert (game.key(), game.history, game.can_redo) == before
        return finishes

    rng = random.Random(11)
    finished = 0
    for game_id in GAMES:
        for deal in range(1, 6):
            game = new_game(game_id, deal)
            for _ in range(rng.randrange(40, 160)):
                check(game)
                moves = game.legal_moves()
                if not moves:
                    break
                game.play(rng.choice(moves))
            # positions: a line found alike on every machine (each within 1,600, measured)
            line = solve(new_game(game_id, deal), positions=20_000).moves
            game = new_game(game_id, deal)
            for move in line:
                finished += check(game)
                game.play(move)
    assert finished > 10
