"""The checks behind ``Game.resolve``: the legal move a player's move means, or the
refusal (an ``IllegalMove`` with its reason and facts) that says why there is none."""

from __future__ import annotations

from typing import Any, Protocol

from .cards import CARDS, Card
from .errors import IllegalMove, Reason
from .moves import DRAW, FOUNDATION, PILE, REDEAL, REDEAL_MOVE, Move, MoveKind, parse
from .rules import RULES, Rules
from .words import Phrase, Rank, Typed, joined


class GameState(Protocol):
    """What the checks read of a game (a ``Game``; named here so that game.py and this
    module need not import each other)."""

    rules: Rules
    tableau: list[list[Card]]
    foundations: list[list[Card]]
    redeals_left: int
    draw_rule: bool
    draw_used: bool

    @property
    def name(self) -> str: ...

    @property
    def is_won(self) -> bool: ...

    def pile_name(self, pile: int) -> str: ...

    def foundation_wants(self) -> dict[Card, list[int]]: ...

    def legal_moves(self) -> list[Move]: ...


def resolve_move(game: GameState, move: Move | str) -> Move:
    """The legal Move meant by ``move``, or IllegalMove saying why there is none."""
    if game.is_won:
        raise IllegalMove("This game is won: every card is on a foundation.", Reason.GAME_WON)
    parsed_kind: MoveKind
    dst: int | None
    if isinstance(move, Move):
        parsed_kind, src, dst, card = move.kind, move.src, move.dst, move.card
    else:
        stacks = game.rules.pile_word == "stack"
        parsed_kind, src, dst, card = parse(
            move, names=game.rules.pile_names, stacks=stacks
        )
    if parsed_kind == REDEAL:
        return _check_redeal(game)
    if parsed_kind == DRAW:
        return _check_draw(game, CARDS[card])
    _check_pile(game, src)
    if not game.tableau[src]:
        if _stacks(game):
            raise IllegalMove("Stack {pile} is empty: there is no card to move.",
                              Reason.EMPTY_PILE, pile=game.pile_name(src))
        raise IllegalMove("Pile {pile} is empty: there is no card to move.", Reason.EMPTY_PILE,
                          pile=game.pile_name(src))
    if parsed_kind == FOUNDATION:
        if dst is None:  # f: its own foundation
            return _to_some_foundation(game, src)
        return _check_foundation(game, src, dst)
    if dst is None:
        return _only_move(game, src)
    return _check_pile_move(game, src, dst)


def _stacks(game: GameState) -> bool:
    """Whether the game calls a tableau pile a stack (Corner Stones): its refusals say so,
    each a whole sentence, so that a translation can fit its word's gender and case."""
    return game.rules.pile_word == "stack"


def _check_pile(game: GameState, pile: int) -> None:
    count = game.rules.tableau_size
    if not 0 <= pile < count:
        facts = {"number": pile + 1, "game": game.name, "count": count}
        if _stacks(game):
            raise IllegalMove("There is no stack {number}: {game} has stacks 1 to {count}.",
                              Reason.NO_SUCH_PILE, **facts)
        raise IllegalMove("There is no pile {number}: {game} has piles 1 to {count}.",
                          Reason.NO_SUCH_PILE, **facts)


def _check_pile_move(game: GameState, src: int, dst: int) -> Move:
    _check_pile(game, dst)
    card = game.tableau[src][-1]
    if src == dst:
        if _stacks(game):
            raise IllegalMove("{card} is already on stack {pile}.", Reason.SAME_PILE,
                              card=card, pile=game.pile_name(src))
        raise IllegalMove("{card} is already on pile {pile}.", Reason.SAME_PILE,
                          card=card, pile=game.pile_name(src))
    target = game.tableau[dst]
    rules = game.rules
    if not target:
        if dst not in rules.refillable:
            if _stacks(game):
                raise IllegalMove(
                    "Stack {pile} is empty, and in {game} an emptied side stack is never "
                    "refilled.", Reason.NEVER_REFILLED, pile=game.pile_name(dst), game=game.name,
                )
            raise IllegalMove(
                "Pile {pile} is empty, and in {game} an emptied pile is never refilled.",
                Reason.NEVER_REFILLED, pile=game.pile_name(dst), game=game.name,
            )
        if src in rules.refillable and len(game.tableau[src]) == 1:  # Corner Stones' corners
            raise IllegalMove(
                "Moving {card}, the only card of stack {pile}, to another empty corner stone "
                "changes nothing: they play the same part.", Reason.CHANGES_NOTHING,
                card=card, pile=game.pile_name(src),
            )
        return Move(PILE, src, dst)
    if not rules.builds_on(card, target[-1]):
        raise IllegalMove(
            "{card} can't go on {top}: {rule}.", Reason.DOES_NOT_BUILD,
            card=card, top=target[-1], rule=rules.build_text,
        )
    return Move(PILE, src, dst)


def _check_foundation(game: GameState, src: int, f: int) -> Move:
    specs = game.rules.foundations
    if not 0 <= f < len(specs):
        if len(specs) == 1:
            raise IllegalMove("There is no foundation f{number}: {game} has f1.",
                              Reason.NO_SUCH_FOUNDATION, number=f + 1, game=game.name)
        raise IllegalMove(
            "There is no foundation f{number}: {game} has f1 to f{count}.",
            Reason.NO_SUCH_FOUNDATION, number=f + 1, game=game.name, count=len(specs),
        )
    card = game.tableau[src][-1]
    wanted = specs[f].next_cards(game.foundations[f])
    if card not in wanted:
        raise IllegalMove(
            "{card} can't go on f{number}: {needs}.", Reason.FOUNDATION_REFUSES,
            card=card, number=f + 1, needs=_foundation_needs(game, f),
        )
    if not game.rules.may_feed(src, f):
        raise _feed_refusal(game, src, f, card)
    return Move(FOUNDATION, src, f)


def _foundation_needs(game: GameState, f: int) -> Phrase:
    spec = game.rules.foundations[f]
    pile = game.foundations[f]
    wanted = spec.next_cards(pile)
    if not wanted:
        return Phrase("f{number} is complete", number=f + 1)
    facts = {"number": f + 1, "foundation": spec.phrase}
    if len(wanted) == 1:
        return Phrase("f{number} ({foundation}) takes {card} next", card=wanted[0], **facts)
    rank = Rank(wanted[0].rank)
    if pile:
        return Phrase("f{number} ({foundation}) takes any {rank} next", rank=rank, **facts)
    return Phrase("f{number} ({foundation}) takes any {rank} to start next", rank=rank, **facts)


def _feed_refusal(game: GameState, src: int, f: int, card: Card) -> IllegalMove:
    feeds = game.rules.feeds
    assert feeds is not None
    every = set(range(len(game.foundations)))
    return IllegalMove(  # Corner Stones': its own words for its stacks
        "{card} fits f{number}, but stack {pile} feeds only {own}. Stacks {anywhere} feed "
        "any foundation.", Reason.DOES_NOT_FEED,
        card=card, number=f + 1, pile=game.pile_name(src),
        own=joined("{head} and {tail}", [f"f{g + 1}" for g in sorted(feeds[src])]),
        anywhere=", ".join(game.pile_name(p) for p, fed in enumerate(feeds) if fed == every),
    )


def _to_some_foundation(game: GameState, src: int) -> Move:
    card = game.tableau[src][-1]
    fits = game.foundation_wants().get(card, [])
    allowed = [f for f in fits if game.rules.may_feed(src, f)]
    if len(allowed) == 1:
        return Move(FOUNDATION, src, allowed[0])
    if len(allowed) > 1:
        raise IllegalMove(
            "{card} fits more than one foundation: type one of {choices}.",
            Reason.SEVERAL_FOUNDATIONS, card=card,
            choices=tuple(Typed(Move(FOUNDATION, src, f)) for f in allowed),
        )
    if fits:
        raise _feed_refusal(game, src, fits[0], card)
    raise IllegalMove(
        "{card} doesn't fit any foundation now: {needs}.", Reason.FITS_NO_FOUNDATION, card=card,
        needs=joined("{head}; {tail}",
                     [_foundation_needs(game, f) for f in range(len(game.foundations))]),
    )


def _only_move(game: GameState, src: int) -> Move:
    card = game.tableau[src][-1]
    mine = [m for m in game.legal_moves() if m.kind in (PILE, FOUNDATION) and m.src == src]
    for group in ([m for m in mine if m.kind == FOUNDATION], mine):
        if len(group) == 1:
            return group[0]
        if len(group) > 1:
            raise IllegalMove(
                "{card} can go to more than one place: type one of {choices}.",
                Reason.SEVERAL_PLACES, card=card, choices=tuple(Typed(m) for m in group),
            )
    if _stacks(game):
        raise IllegalMove("{card} on stack {pile} has no legal move now.", Reason.NO_MOVE,
                          card=card, pile=game.pile_name(src))
    raise IllegalMove("{card} on pile {pile} has no legal move now.", Reason.NO_MOVE,
                      card=card, pile=game.pile_name(src))


def _check_redeal(game: GameState) -> Move:
    rules = game.rules
    if not rules.redeals:
        raise IllegalMove("{game} has no redeals.", Reason.NO_REDEALS, game=game.name)
    if not game.redeals_left:
        raise IllegalMove("No redeals left: {game} allows {count} per game.",
                          Reason.REDEALS_USED, game=game.name, count=rules.redeals)
    return REDEAL_MOVE


def draw_rule_owners() -> Any:
    """The games that have the draw house rule, in words ("Trefoil")."""
    return joined("{head} and {tail}", [r.name for r in RULES.values() if r.has_draw_option])


def _check_draw(game: GameState, card: Card) -> Move:
    if not game.rules.has_draw_option:  # not this game's to switch on at all
        raise IllegalMove("The draw house rule belongs to {owners} only.", Reason.NO_DRAW_RULE,
                          owners=draw_rule_owners())
    if not game.draw_rule:
        raise IllegalMove("The draw house rule is off for this game.", Reason.DRAW_OFF)
    if game.draw_used:
        raise IllegalMove("The draw has been used: it is allowed once per game.", Reason.DRAW_USED)
    if game.redeals_left:
        raise IllegalMove("The draw comes after the last redeal.", Reason.DRAW_TOO_EARLY)
    for src, pile in enumerate(game.tableau):
        if card in pile:
            if pile[-1] == card:
                raise IllegalMove("{card} is already on top of pile {pile}.", Reason.DRAW_ON_TOP,
                                  card=card, pile=game.pile_name(src))
            return Move(DRAW, card=int(card))
    raise IllegalMove("{card} is not in a pile.", Reason.DRAW_NOT_IN_PILE, card=card)
