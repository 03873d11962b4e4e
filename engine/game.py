"""One mechanism for all five games: piles, foundations, moves, undo and redo."""

from __future__ import annotations

from functools import cache
from typing import Any

from .cards import CARDS, Card, full_deck
from .errors import BadSetup, IllegalMove, Reason
from .move_checks import draw_rule_owners, resolve_move
from .moves import DRAW, FOUNDATION, PILE, REDEAL, REDEAL_MOVE, Move, parse
from .rules import RULES, Rules
from .shuffle import shuffled
from .words import Typed

FORMAT_VERSION = 1
MAX_DEAL = 2**31 - 1


def new_game(game_id: str, deal: int, *, draw: bool = False) -> Game:
    """Deal ``game_id`` number ``deal``; ``draw`` turns on Trefoil's "and a Draw" house rule.

    Raises BadSetup (a ValueError) saying why when there is no such game or deal."""
    return Game(check_setup(game_id, deal, draw=draw), deal, draw=draw)


def check_setup(game_id: str, deal: int | None = None, *, draw: bool = False) -> Rules:
    """The rules of ``game_id`` if it can be dealt as asked (``deal`` None: any deal);
    BadSetup saying why not otherwise. Interfaces check here before anything else."""
    rules = RULES.get(game_id)
    if rules is None:
        raise BadSetup(
            "There is no game called {game}. The games are: {games}.", Reason.UNKNOWN_GAME,
            game=Typed(game_id[:40]), games=tuple(Typed(g) for g in RULES),
        )
    if deal is not None and (
        isinstance(deal, bool) or not isinstance(deal, int) or not 1 <= deal <= MAX_DEAL
    ):
        raise BadSetup(
            "A deal number is a whole number from 1 to {top}; leave it out for a random deal.",
            Reason.BAD_DEAL, top=MAX_DEAL,
        )
    if draw and not rules.has_draw_option:
        raise BadSetup("The draw house rule belongs to {owners} only.", Reason.NO_DRAW_RULE,
                       owners=draw_rule_owners())
    return rules


def _packed(piles: list[list[Card]]) -> list[bytes]:
    return [bytes(pile) for pile in piles]


def _unpacked(piles: list[bytes]) -> list[list[Card]]:
    return [[CARDS[c] for c in pile] for pile in piles]


class Game:
    """A game in play. ``tableau[i]``/``foundations[i]`` are lists of cards, bottom to top."""

    def __init__(self, rules: Rules, deal: int, *, draw: bool = False) -> None:
        self.rules = rules
        self.deal_number = deal
        self.draw_rule = draw
        self.draw_used = False
        self.redeals_left = rules.redeals
        self.foundations: list[list[Card]] = [
            [spec.base_cards()[0]] if spec.prefilled else [] for spec in rules.foundations
        ]
        deck = full_deck(rules.decks)
        for base in rules.prefilled_cards():
            deck.remove(base)
        self.tableau: list[list[Card]] = _deal_piles(
            shuffled(deck, rules.id, deal, 0), rules.deal_sizes
        )
        self._history: list[tuple[Move, Any]] = []
        self._redo: list[Move] = []
        # The first moves came with the deal (``play_safe_moves_with_deal``).
        self.moves_with_deal = 0
        # The legal moves of the position, worked out once; None until then, and again
        # after every push and pop (code that sets a field by hand sets it to None too).
        self._moves: list[Move] | None = None

    # -- what a player sees ---------------------------------------------------------

    @property
    def game_id(self) -> str:
        return self.rules.id

    @property
    def name(self) -> str:
        return self.rules.name

    @property
    def moves_made(self) -> int:
        return len(self._history)

    @property
    def own_moves(self) -> int:
        """The moves the player made, past those that came with the deal (``moves_with_deal``,
        safe moves undoing which never helps)."""
        return len(self._history) - self.moves_with_deal

    @property
    def history(self) -> list[Move]:
        return [move for move, _ in self._history]

    @property
    def last_move(self) -> Move | None:
        return self._history[-1][0] if self._history else None

    @property
    def can_undo(self) -> bool:
        return bool(self._history)

    @property
    def can_redo(self) -> bool:
        return bool(self._redo)

    @property
    def cards_on_foundations(self) -> int:
        return sum(len(f) for f in self.foundations)

    @property
    def is_won(self) -> bool:
        return not any(self.tableau)

    @property
    def is_stuck(self) -> bool:
        return not self.is_won and not self._has_move()

    def lost_as_dealt(self, deal_lost: bool = False) -> bool:
        """Of a position that cannot be won (stuck, or proven lost): whether its deal cannot
        either, so that no undo can help. ``deal_lost``: the solver proved it so. With no
        move of the player's own on the board (only the safe moves that came with the
        deal), the position is the deal's own: lost here is lost as dealt."""
        return deal_lost or not self.own_moves

    @property
    def draw_available(self) -> bool:
        return self.draw_rule and not self.draw_used and self.redeals_left == 0

    def pile_name(self, pile: int) -> str:
        """What a player types for a 0-based pile (``Rules.pile_name``)."""
        return self.rules.pile_name(pile)

    # -- legal moves ----------------------------------------------------------------

    def foundation_wants(self) -> dict[Card, list[int]]:
        """Each card a foundation takes now -> the foundations that take it."""
        wants: dict[Card, list[int]] = {}
        specs = self.rules.foundations
        for f, (spec, pile) in enumerate(zip(specs, self.foundations, strict=True)):
            for c in spec.next_cards(pile):
                wants.setdefault(c, []).append(f)
        return wants

    def legal_moves(self) -> list[Move]:
        """Every legal move: foundation moves first, then pile moves, redeal, draws (worked
        out once a position: a board asks several times)."""
        if self._moves is None:
            self._moves = self._legal_moves()
        return list(self._moves)

    def _legal_moves(self) -> list[Move]:
        if self.is_won:
            return []
        rules = self.rules
        tableau = self.tableau
        wants = self.foundation_wants()
        piles_by_top: dict[Card, list[int]] = {}
        empty_refillable = []
        for i, pile in enumerate(tableau):
            if pile:
                piles_by_top.setdefault(pile[-1], []).append(i)
            elif i in rules.refillable:
                empty_refillable.append(i)
        to_foundation: list[Move] = []
        to_pile: list[Move] = []
        for src, pile in enumerate(tableau):
            if not pile:
                continue
            top = pile[-1]
            for f in wants.get(top, ()):
                if rules.may_feed(src, f):
                    to_foundation.append(Move(FOUNDATION, src, f))
            for target in rules.tops_for[top]:
                for dst in piles_by_top.get(target, ()):
                    if dst != src:
                        to_pile.append(Move(PILE, src, dst))
            if empty_refillable and not (src in rules.refillable and len(pile) == 1):
                to_pile.extend(Move(PILE, src, dst) for dst in empty_refillable)
        to_pile.sort()
        moves = to_foundation + to_pile
        if self.redeals_left:
            moves.append(REDEAL_MOVE)
        if self.draw_available:
            moves.extend(
                Move(DRAW, card=int(c)) for pile in tableau for c in pile[:-1]
            )
        return moves

    def _has_move(self) -> bool:
        return bool(self.redeals_left or self.draw_available or self.legal_moves())

    def play_to_foundations(self) -> list[Move]:
        """Play every card that can go to a foundation, again and again; the moves played.

        Each card is its own move in the history, so undo takes them back one by one.
        """
        played: list[Move] = []
        while (move := self._first_foundation_move()) is not None:
            self.play(move)
            played.append(move)
        return played

    def _first_foundation_move(self) -> Move | None:
        """The first foundation move of ``legal_moves``, without making the others."""
        wants = self.foundation_wants()
        for src, pile in enumerate(self.tableau):
            if pile:
                for f in wants.get(pile[-1], ()):
                    if self.rules.may_feed(src, f):
                        return Move(FOUNDATION, src, f)
        return None

    def safe_foundation_moves(self) -> list[Move]:
        """Foundation moves that can never cost the game: the card going up is one no card
        left in the piles could ever be placed on (every card that builds on it is on a
        foundation already), so keeping it in the piles could never help."""
        on_piles = {c for pile in self.tableau for c in pile}
        builds_on = self.rules.builds_on
        return [
            m for m in self.legal_moves()
            if m.kind == FOUNDATION
            and not any(builds_on(c, self.tableau[m.src][-1]) for c in on_piles)
        ]

    def play_safe_moves(self) -> list[Move]:
        """Play safe foundation moves (``safe_foundation_moves``) until none is left; each is
        its own move in the history."""
        played: list[Move] = []
        while moves := self.safe_foundation_moves():
            self.play(moves[0])
            played.append(moves[0])
        return played

    def play_safe_moves_with_deal(self) -> list[Move]:
        """``play_safe_moves`` as part of dealing (for a player who has safe moves go up by
        themselves): they are the deal's own (``moves_with_deal``), so a player who leaves the
        game then has not moved in it. Only on a game as dealt."""
        if self._history:
            raise ValueError("only a game as dealt plays safe moves as part of its deal")
        played = self.play_safe_moves()
        self.moves_with_deal = len(played)
        return played

    def finishes_itself(self) -> bool:
        """Whether foundation moves alone win from here: nothing is left to decide."""
        if self.is_won:
            return False
        played = 0  # tried on this game and taken back: a copy would copy the history too
        try:
            while (move := self._first_foundation_move()) is not None:
                self.push(move)
                played += 1
            return played > 0 and self.is_won
        finally:
            for _ in range(played):
                self.pop()

    # -- where a move takes its card from, and which card it places -----------------

    def source_pile(self, move: Move) -> int:
        """The pile (0-based) a pile, foundation or draw move takes its card from."""
        if move.kind == DRAW:
            drawn = CARDS[move.card]
            return next(i for i, pile in enumerate(self.tableau) if drawn in pile)
        return move.src

    def placed_card(self, move: Move) -> Card | None:
        """The card ``move`` put in place, right after it was played (None for a redeal)."""
        if move.kind == PILE:
            return self.tableau[move.dst][-1]
        if move.kind == FOUNDATION:
            return self.foundations[move.dst][-1]
        if move.kind == DRAW:
            return CARDS[move.card]
        return None

    # -- playing --------------------------------------------------------------------

    def resolve(self, move: Move | str) -> Move:
        """The legal Move meant by ``move`` (a Move or a player's text), or IllegalMove
        saying why there is none (move_checks.py)."""
        return resolve_move(self, move)

    def play(self, move: Move | str) -> Move:
        """Play a legal move (a Move or a player's text); returns the move as played.

        Raises IllegalMove, leaving the game unchanged, when it is not legal.
        """
        resolved = self.resolve(move)
        self.push(resolved)
        if self._redo and self._redo[-1] == resolved:
            self._redo.pop()  # playing the move that redo would play keeps the redo line
        else:
            self._redo.clear()
        return resolved

    def undo(self) -> Move:
        if not self._history:
            raise IllegalMove("Nothing to undo: no move has been made yet.", Reason.NOTHING_TO_UNDO)
        move = self.pop()
        self._redo.append(move)
        return move

    def redo(self) -> Move:
        if not self._redo:
            raise IllegalMove("Nothing to redo.", Reason.NOTHING_TO_REDO)
        move = self._redo[-1]
        self.push(self.resolve(move))
        self._redo.pop()
        return move

    def push(self, move: Move) -> None:
        """Apply a move known to be legal, without checks (the solver's hot path)."""
        kind = move.kind
        extra: Any = None
        if kind == PILE:
            self.tableau[move.dst].append(self.tableau[move.src].pop())
        elif kind == FOUNDATION:
            self.foundations[move.dst].append(self.tableau[move.src].pop())
        elif kind == REDEAL:
            extra = self.tableau
            self.tableau = self._redealt()
            self.redeals_left -= 1
        else:
            drawn = CARDS[move.card]
            src = next(i for i, pile in enumerate(self.tableau) if drawn in pile)
            pile = self.tableau[src]
            extra = (src, pile.index(drawn))
            pile.append(pile.pop(extra[1]))
            self.draw_used = True
        self._history.append((move, extra))
        self._moves = None

    def pop(self) -> Move:
        """Take back the last move (no redo bookkeeping)."""
        move, extra = self._history.pop()
        kind = move.kind
        if kind == PILE:
            self.tableau[move.src].append(self.tableau[move.dst].pop())
        elif kind == FOUNDATION:
            self.tableau[move.src].append(self.foundations[move.dst].pop())
        elif kind == REDEAL:
            # A copy: the snapshot may be shared with copies of this game (``copy``).
            self.tableau = [list(p) for p in extra]
            self.redeals_left += 1
        else:
            src, index = extra
            pile = self.tableau[src]
            pile.insert(index, pile.pop())
            self.draw_used = False
        # Undoing into the deal's own moves: those left are the deal's, anything after the
        # player's (a move redone included).
        self.moves_with_deal = min(self.moves_with_deal, len(self._history))
        self._moves = None
        return move

    def _redealt(self) -> list[list[Card]]:
        """Gather pile 1 bottom to top, then pile 2, ...; shuffle; deal in threes."""
        rules = self.rules
        cards = [c for pile in self.tableau for c in pile]
        round_ = rules.redeals - self.redeals_left + 1
        cards = shuffled(cards, rules.id, self.deal_number, round_)
        size = rules.redeal_pile_size
        sizes = [size] * (len(cards) // size) + ([len(cards) % size] if len(cards) % size else [])
        sizes += [0] * (rules.tableau_size - len(sizes))
        return _deal_piles(cards, tuple(sizes))

    def key(self) -> tuple[Any, ...]:
        """A cheap hashable form of the position (foundations are fixed by their heights)."""
        return (
            tuple(map(tuple, self.tableau)),
            tuple(map(len, self.foundations)),
            self.redeals_left,
            self.draw_used,
        )

    def copy(self) -> Game:
        """The same position and history, independent of this game."""
        other = Game.__new__(Game)
        other.__dict__.update(self.__dict__)
        other.tableau = [list(p) for p in self.tableau]
        other.foundations = [list(f) for f in self.foundations]
        # The history's entries are never changed once made (undoing a redeal puts a copy
        # of its snapshot back in play, see ``pop``), so copies share them.
        other._history = list(self._history)
        other._redo = list(self._redo)
        return other

    def __getstate__(self) -> dict[str, Any]:
        """Pickled as plain bytes and tuples (a card is a small int, a move three), several
        times quicker than card by card and move by move: a game travels to the drawing
        and solver processes at every move."""
        state = self.__dict__.copy()
        state["tableau"] = _packed(self.tableau)
        state["foundations"] = _packed(self.foundations)
        state["_history"] = [
            (move.raw, _packed(extra) if move.kind == REDEAL else extra)
            for move, extra in self._history
        ]
        state["_redo"] = [move.raw for move in self._redo]
        state["_moves"] = None  # worked out again where it goes
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        state["tableau"] = _unpacked(state["tableau"])
        state["foundations"] = _unpacked(state["foundations"])
        state["_history"] = [
            (Move.from_raw(move), _unpacked(extra) if move[0] == REDEAL else extra)
            for move, extra in state["_history"]
        ]
        state["_redo"] = [Move.from_raw(move) for move in state["_redo"]]
        self.__dict__.update(state)

    # -- saving ---------------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        """Compact, JSON-safe; ``from_dict`` rebuilds it exactly, undo and redo included."""
        data: dict[str, Any] = {
            "format": FORMAT_VERSION,
            "game": self.rules.id,
            "deal": self.deal_number,
            "moves": " ".join(_compact(m) for m, _ in self._history),
            "redo": " ".join(_compact(m) for m in self._redo),
        }
        if self.draw_rule:
            data["draw"] = True
        if self.moves_with_deal:
            data["dealt"] = self.moves_with_deal
        return data

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Game:
        """Rebuild a saved game; ValueError if the data is not a game this engine saved."""
        try:
            version = data["format"]
            if version != FORMAT_VERSION:
                raise ValueError(f"saved game format {version!r} is not supported")
            game = new_game(data["game"], data["deal"], draw=bool(data.get("draw", False)))
            for text in data["moves"].split():
                game.play(_expand(text))
            game._redo = [game_move_from_compact(t) for t in data["redo"].split()]
            game.moves_with_deal = min(int(data.get("dealt", 0)), game.moves_made)
        except (KeyError, TypeError, AttributeError) as err:
            raise ValueError(f"not a saved game: {err!r}") from None
        return game

    def __repr__(self) -> str:
        return f"<Game {self.rules.id} deal {self.deal_number}, {self.moves_made} moves>"


def _deal_piles(cards: list[Card], sizes: tuple[int, ...]) -> list[list[Card]]:
    piles = []
    start = 0
    for size in sizes:
        piles.append(cards[start : start + size])
        start += size
    return piles


@cache  # a few hundred moves in all, and a save writes every move of its game again
def _compact(move: Move) -> str:
    """A move's text without spaces, for the saved form: ``7-3``, ``7-f2``, ``redeal``."""
    return str(move).replace(" ", "-")


def _expand(text: str) -> str:
    return text.replace("-", " ")


def game_move_from_compact(text: str) -> Move:
    parsed = parse(_expand(text))
    if parsed.kind == REDEAL:
        return REDEAL_MOVE
    if parsed.kind != DRAW and parsed.dst is None:
        raise ValueError(f"saved move {text!r} is not explicit")
    return Move(parsed.kind, parsed.src, -1 if parsed.dst is None else parsed.dst, parsed.card)
