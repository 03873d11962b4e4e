"""Cross-check: on small endgames, the solver's verdict equals a brute-force search that
uses nothing but the engine (legal_moves, push, pop, is_won). This tests every pruning
— safe moves, dead positions, position keys — against the rules themselves."""

import random
import sys

import pytest

from engine import GAMES, RULES, Card, Game, Rules, new_game
from engine.solver import solve


def endgame(
    game_id: str,
    rng: random.Random,
    cards_left: int,
    *,
    draw: bool = False,
    rules: Rules | None = None,
) -> Game:
    """Complete foundations, then ``cards_left`` cards taken back and dealt at random.
    ``rules``: play by these (an edited rule set) instead of the game's own."""
    rules = rules or RULES[game_id]
    game = new_game(game_id, rng.randrange(1, 10_000), draw=draw)
    game.rules = rules
    foundations: list[list[Card]] = []
    for spec in rules.foundations:
        pile: list[Card] = list(spec.base_cards()[:1]) if spec.prefilled else []
        while len(pile) < spec.size:
            pile.append(spec.next_cards(pile)[0])
        foundations.append(pile)
    loose: list[Card] = []
    while len(loose) < cards_left:
        f = rng.randrange(len(foundations))
        if len(foundations[f]) > (1 if rules.foundations[f].prefilled else 0):
            loose.append(foundations[f].pop())
    rng.shuffle(loose)
    tableau: list[list[Card]] = [[] for _ in range(rules.tableau_size)]
    used = rng.sample(range(rules.tableau_size), k=min(rules.tableau_size, rng.randrange(2, 6)))
    for pile in rules.refillable:  # Corner Stones: corners taken first, or nothing blocks
        tableau[pile].append(loose.pop())
    for card in loose:
        tableau[rng.choice(used)].append(card)
    game.foundations = foundations
    game.tableau = tableau
    game.redeals_left = rng.choice((0, 0, 1)) if rules.redeals else 0
    return game


def engine_can_win(game: Game, seen: set) -> bool:
    if game.is_won:
        return True
    key = game.key()
    if key in seen:
        return False
    seen.add(key)
    for move in game.legal_moves():
        game.push(move)
        won = engine_can_win(game, seen)
        game.pop()
        if won:
            return True
    return False


SIZES = {"corner-stones": (6, 12)}
# Positions per solve: every endgame here is decided within 1,100 (measured), so the
# verdicts compared with brute force are the solver's complete ones on every machine.
POSITIONS = 20_000


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_solver_verdict_matches_brute_force_on_small_endgames(game_id: str) -> None:
    sys.setrecursionlimit(10_000)
    rng = random.Random(game_id)
    verdicts = {"won": 0, "lost": 0}
    for case in range(60):
        draw = game_id == "trefoil" and case % 3 == 0
        game = endgame(game_id, rng, rng.randrange(*SIZES.get(game_id, (3, 9))), draw=draw)
        expected = "won" if engine_can_win(game.copy(), set()) else "lost"
        solution = solve(game, positions=POSITIONS)
        assert solution.status == expected, (case, game.tableau, game.foundations)
        verdicts[expected] += 1
        if expected == "won":
            replay = game.copy()
            for text in solution.moves:
                replay.play(text)
            assert replay.is_won
    assert verdicts["won"] > 5, verdicts
    if game_id != "corner-stones":  # its endgames always play out: see test_solve for one lost
        assert verdicts["lost"] > 5, verdicts


def engine_most_up(game: Game, seen: set) -> int:
    """The most cards any line from here puts on the foundations (brute force)."""
    key = game.key()
    if key in seen:
        return 0
    seen.add(key)
    best = game.cards_on_foundations
    for move in game.legal_moves():
        game.push(move)
        best = max(best, engine_most_up(game, seen))
        game.pop()
    return best


@pytest.mark.parametrize("game_id", ["clover-leaf", "trefoil", "super-flower-garden"])
def test_the_bound_on_cards_up_is_never_below_what_play_reaches(game_id: str) -> None:
    from engine.solver.model import model_for
    from engine.solver.prune import most_cards_up

    sys.setrecursionlimit(10_000)
    model = model_for(game_id)
    rng = random.Random(f"bound/{game_id}")
    tight = 0
    for _ in range(60):
        game = endgame(game_id, rng, rng.randrange(3, 10))
        game.redeals_left = 0
        reached = engine_most_up(game.copy(), set())
        bound = most_cards_up(model, model.position(game))
        assert bound >= reached, (game.tableau, game.foundations)
        tight += bound == reached
    assert tight > 30  # and it is mostly exact on small endgames


def test_four_leaf_clovers_verdicts_before_the_last_cycle_match_brute_force() -> None:
    """Endgames with two Kings or more left: "no King at the bottom of a pile" proves
    losses here before the last cycle; brute force must agree with every verdict."""
    from engine.solver.model import model_for
    from engine.solver.prune import last_card_buried

    sys.setrecursionlimit(10_000)
    model = model_for("four-leaf-clovers")
    rng = random.Random("four-leaf-clovers/kings")
    verdicts = {"won": 0, "lost": 0}
    by_kings = 0
    for case in range(60):
        game = endgame("four-leaf-clovers", rng, rng.randrange(14, 19))
        expected = "won" if engine_can_win(game.copy(), set()) else "lost"
        assert solve(game, positions=POSITIONS).status == expected, (case, game.tableau)
        verdicts[expected] += 1
        by_kings += last_card_buried(model, model.position(game))
    assert verdicts["won"] >= 3 and verdicts["lost"] >= 10, verdicts
    assert by_kings >= 10  # the rule itself was put to the test
