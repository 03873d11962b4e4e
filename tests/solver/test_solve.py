"""solve() and hint(): winning lines replay, lost means lost, hints are legal moves."""

import pickle
import random

import pytest

from engine import GAMES, RULES, Card, Game, Move, new_game, parse_card
from engine.solver import Verdict, hint, solve

# Positions per search: every search here decides within 2,000 (measured), so the
# verdicts are the same on every machine, compiled or not.
POSITIONS = 20_000


def cards(text: str) -> list[Card]:
    return [parse_card(code) for code in text.split()]


def position(game_id: str, tableau: list[str], heights: list[int], *, redeals_left: int = 0):
    """A game set to a constructed position: piles as card codes, foundation heights."""
    game = new_game(game_id, 1)
    specs = RULES[game_id].foundations
    game.foundations = []
    for spec, height in zip(specs, heights, strict=True):
        pile: list[Card] = []
        while len(pile) < height:
            pile.append(spec.next_cards(pile)[0])
        game.foundations.append(pile)
    game.tableau = [cards(p) for p in tableau]
    game.tableau += [[] for _ in range(RULES[game_id].tableau_size - len(game.tableau))]
    game.redeals_left = redeals_left
    return game


def snapshot(game: Game):
    return (
        game.to_dict(),
        game.key(),
        [list(p) for p in game.tableau],
        [list(f) for f in game.foundations],
        game.redeals_left,
    )


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_every_winning_line_replays_to_a_win_on_a_fresh_game(game_id: str) -> None:
    wins = 0
    for deal in range(1, 9):
        solution = solve(new_game(game_id, deal), positions=POSITIONS)
        assert solution.status in ("won", "lost", "unknown")
        if solution.status != "won":
            assert solution.moves == []
            continue
        wins += 1
        fresh = new_game(game_id, deal)
        for text in solution.moves:
            fresh.play(text)
        assert fresh.is_won
    assert wins > 0


def test_a_winning_line_from_the_middle_of_a_game_replays_from_there() -> None:
    game = new_game("trefoil", 3)
    for text in ("6 13", "6 11", "6 f2", "redeal"):
        game.play(text)
    solution = solve(game, positions=POSITIONS)
    assert solution.status == "won"
    for text in solution.moves:
        game.play(text)
    assert game.is_won


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_the_solver_never_changes_the_game_it_is_given(game_id: str) -> None:
    game = new_game(game_id, 2)
    rng = random.Random(2)
    for _ in range(6):
        game.play(rng.choice(game.legal_moves()))
    game.undo()  # leave something to redo, too
    before = snapshot(game)
    # Seconds on purpose (the bot's budget): however far a search gets, and wherever the
    # clock stops it, the game must come back unchanged.
    solve(game, budget_s=0.2)
    hint(game, budget_s=0.2)
    assert snapshot(game) == before


def test_trefoil_king_over_a_lower_card_of_its_suit_with_no_redeal_is_lost() -> None:
    # K♥ can go only to the foundation, which needs 5♥ first; 5♥ is under it.
    game = position("trefoil", ["5H KH", "QH JH 10H 9H 8H 7H 6H", "4H"], [13, 13, 3, 13])
    assert solve(game, positions=POSITIONS).status == "lost"
    advice = hint(game, positions=POSITIONS)
    assert advice.lost and not advice.winning
    assert "No win is possible" in advice.note


def test_with_redeals_left_the_same_position_depends_on_the_shuffles() -> None:
    """Redeals shuffle the 10 cards again, as fixed by the deal number: some deals win,
    some are lost even through every redeal; brute force through the engine agrees."""
    from tests.solver.test_exhaustive import engine_can_win

    verdicts = set()
    for deal in range(1, 6):
        game = position(
            "trefoil", ["5H KH", "QH JH 10H 9H 8H 7H 6H", "4H"], [13, 13, 3, 13], redeals_left=2
        )
        game.deal_number = deal
        solution = solve(game, positions=POSITIONS)
        assert solution.status == ("won" if engine_can_win(game.copy(), set()) else "lost")
        verdicts.add(solution.status)
        if solution.status == "won":
            assert "redeal" in solution.moves
            for text in solution.moves:
                game.play(text)
            assert game.is_won
    assert verdicts == {"won", "lost"}


def test_the_same_trefoil_position_with_its_last_card_order_fixed_is_won() -> None:
    game = position("trefoil", ["KH 5H", "QH JH 10H 9H 8H 7H 6H", "4H"], [13, 13, 3, 13])
    solution = solve(game, positions=POSITIONS)
    assert solution.status == "won"
    for text in solution.moves:
        game.play(text)
    assert game.is_won


def test_trefoil_cards_blocking_each_other_across_piles_are_lost() -> None:
    # 9♠ can only go onto 10♠ (2♠ under it blocks its foundation), and then it sits on
    # 10♠ over 8♠: 8♠ can never come out. Not moving 9♠ leaves 2♠ under it forever.
    game = position(
        "trefoil", ["2S 9S", "8S 10S", "KS QS JS 7S 6S 5S 4S 3S"], [13, 13, 13, 1]
    )
    assert solve(game, positions=POSITIONS).status == "lost"


def test_clover_leaf_card_between_its_neighbours_in_one_pile_is_lost() -> None:
    # 4♦ on top can go up only after 3♦, or onto 3♦ / 5♦: both are under it.
    game = position(
        "clover-leaf", ["5D 3D 4D", "KD QD JD 10D 9D 8D 7D 6D"], [2, 13, 13, 13]
    )
    assert solve(game, positions=POSITIONS).status == "lost"
    winnable = position(
        "clover-leaf", ["5D 4D 3D", "KD QD JD 10D 9D 8D 7D 6D"], [2, 13, 13, 13]
    )
    assert solve(winnable, positions=POSITIONS).status == "won"


def test_super_flower_garden_king_over_its_own_suit_with_no_redeal_is_lost() -> None:
    game = position(
        "super-flower-garden", ["5S KS", "QS JS 10S 9S 8S 7S 6S", "4S 3S 2S AS"], [13, 13, 13, 0]
    )
    assert solve(game, positions=POSITIONS).status == "lost"


def test_four_leaf_clovers_king_over_the_last_queen_is_lost() -> None:
    # 50 cards up: the foundation wants a Queen, then the last King, which is over it.
    game = position("four-leaf-clovers", ["QC KC"], [50])
    assert solve(game, positions=POSITIONS).status == "lost"
    assert solve(position("four-leaf-clovers", ["KC QC"], [50]), positions=POSITIONS).status == "won"


def test_four_leaf_clovers_deal_with_no_king_at_the_bottom_of_a_pile_is_lost() -> None:
    # The last card up is a King, which can never have been moved onto a card: it must
    # lie at the bottom of a pile. Deal 2 has no King at the bottom of any pile.
    game = new_game("four-leaf-clovers", 2)
    assert all(pile[0].rank != 13 for pile in game.tableau)
    assert solve(game, positions=POSITIONS).status == "lost"
    assert hint(game, positions=POSITIONS).lost


def test_corner_stones_side_stack_card_with_no_way_to_its_row_is_lost() -> None:
    # 5♣ in S7 feeds only the ♠ foundations; every corner holds a ♣ card waiting for it,
    # and no top card is a rank away from another: 5♣ never reaches a ♣ foundation.
    heights = [4, 13, 13, 13, 13, 13, 13, 13]  # f1 ♣ A↑ holds A-4 and wants 5♣
    tableau = ["7C", "9C", "", "", "", "", "", "", "6C 8C 10C QC 5C", "", "JC", "KC"]
    assert solve(position("corner-stones", tableau, heights), positions=POSITIONS).status == "lost"
    # With corner C2 empty (9♣ at the bottom of S7 instead) it plays out.
    tableau[1], tableau[8] = "", "9C 6C 8C 10C QC 5C"
    game = position("corner-stones", tableau, heights)
    solution = solve(game, positions=POSITIONS)
    assert solution.status == "won"
    for text in solution.moves:
        game.play(text)
    assert game.is_won


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_a_hint_is_always_a_legal_move(game_id: str) -> None:
    rng = random.Random(game_id)
    for deal in range(1, 5):
        game = new_game(game_id, deal)
        for _ in range(rng.randrange(0, 20)):
            moves = game.legal_moves()
            if not moves:
                break
            game.play(rng.choice(moves))
        # Seconds on purpose (the bot's budget): whatever the search had time to find,
        # the hint must be a legal move with a note.
        advice = hint(game, budget_s=0.2)
        if advice.move is None:  # nothing to play, or nothing that puts more cards up
            assert game.is_won or game.is_stuck or advice.lost
            continue
        assert advice.move in {str(m) for m in game.legal_moves()}
        assert advice.note
        if advice.winning:
            assert not advice.lost
            game.play(advice.move)


def test_a_winning_hint_says_so_and_following_hints_wins() -> None:
    game = new_game("clover-leaf", 4)
    for _ in range(200):
        if game.is_won:
            break
        advice = hint(game, positions=POSITIONS)
        assert advice.winning, advice.note
        assert "This move is part of a winning line." in advice.note
        game.play(advice.move)
    assert game.is_won


def test_hint_on_a_won_or_stuck_game_has_no_move() -> None:
    stuck = position("four-leaf-clovers", ["QC KC"], [50])
    stuck.foundations[0].append(stuck.tableau[0].pop(0))  # the Queen goes up: K over nothing
    stuck.tableau = [[parse_card("2C")], [parse_card("9C")]] + [[] for _ in range(11)]
    advice = hint(stuck, positions=POSITIONS)
    assert advice.move is None and advice.lost


def test_with_no_win_in_any_shuffle_a_redeal_hint_clears_the_most_in_this_deal() -> None:
    tableau = ["2H 9C 3D", "KS 4C 2D", "5H 7S 8D"]  # the rest of the deck is gone: lost
    said = set()
    for deal in (1, 2, 3):
        game = position("trefoil", tableau, [1, 1, 1, 1], redeals_left=2)
        game.deal_number = deal
        advice = hint(game, positions=POSITIONS)
        assert not advice.lost and not advice.winning  # lost, but no hint may look ahead
        assert advice.move == "2 f2"  # 2♦ up: the only card this deal can clear
        assert advice.shuffles_won == 0 and advice.cards_up == 6
        said.add(advice.note)
    assert said == {
        "No win in this deal without a redeal, and its shuffle can't be known: this move "
        "heads for 6 of 52 cards up, then a redeal, which wins in 0 of 128 sampled shuffles."
    }


def test_redeal_hint_says_redeal_when_nothing_more_clears_in_this_deal() -> None:
    game = position("trefoil", ["2H 9C 3D", "KS 4C 7D", "5H 7S 8D"], [1, 1, 1, 1], redeals_left=1)
    advice = hint(game, positions=POSITIONS)
    assert advice.move == "redeal"
    assert advice.note == "No win in this deal: redealing now wins in 0 of 128 sampled shuffles."


def test_a_redeal_game_hint_never_counts_on_the_next_shuffle() -> None:
    """The shuffles are fixed by the deal number, but a player cannot see them: the same
    position under five deal numbers, of which some win through their shuffles and some
    do not, gets one hint."""
    outcomes, hints = set(), set()
    for deal in range(1, 6):
        game = position(
            "trefoil", ["5H KH", "QH JH 10H 9H 8H 7H 6H", "4H"], [13, 13, 3, 13], redeals_left=2
        )
        game.deal_number = deal
        outcomes.add(solve(game, positions=POSITIONS).status)
        advice = hint(game, positions=POSITIONS)
        hints.add((advice.move, advice.note, advice.winning))
    assert outcomes == {"won", "lost"}
    [(_move, note, winning)] = hints
    assert not winning and "sampled shuffles" in note


def test_redeal_hint_wins_within_the_deal_when_it_can() -> None:
    game = position(
        "trefoil", ["KH QH JH 10H 9H 8H 7H 6H 5H 2H 3H", "4H"], [13, 13, 1, 13], redeals_left=2
    )
    advice = hint(game, positions=POSITIONS)
    assert advice.winning and advice.move == "1 2"  # 3♥ onto 4♥ frees 2♥


def test_a_line_with_a_detour_is_shortened_to_the_same_end() -> None:
    from engine.solver.lines import shorten
    from engine.solver.model import model_for

    model = model_for("corner-stones")
    game = new_game("corner-stones", 3)
    start = model.position(game)
    rng = random.Random(3)
    line = []
    detours = 0
    for _ in range(40):
        moves = game.legal_moves()
        move = rng.choice(moves)
        before = game.key()
        game.play(move)
        line.append(move.raw)
        back = next((m for m in game.legal_moves() if _returns_to(game, m, before)), None)
        if back is not None and detours < 3:  # a move there and straight back
            game.play(back)
            line.append(back.raw)
            detours += 1
    assert detours == 3
    end = model.position(game)
    short = shorten(model, start, line, 3, draw_rule=False)
    assert len(short) <= len(line) - 2 * detours
    replay = new_game("corner-stones", 3)
    for move in short:
        replay.play(str(Move.from_raw(move)))
    assert model.position(replay) == end


def _returns_to(game: Game, move: Move, key: object) -> bool:
    game.push(move)
    same = game.key() == key
    game.pop()
    return same


def test_a_verdict_is_one_of_the_solvers_own_and_crosses_a_pipe_as_itself() -> None:
    """Won, lost or unknown: ``Verdict`` members (strings too, for logs and JSON), the same
    after pickling to and from the solver's process."""
    verdicts = [solve(new_game("clover-leaf", deal), positions=budget).status
                for deal, budget in ((74, 1_000_000), (136, 1_000_000), (74, 10))]
    assert verdicts == [Verdict.WON, Verdict.LOST, Verdict.UNKNOWN]
    assert all(type(pickle.loads(pickle.dumps(v))) is Verdict for v in verdicts)
