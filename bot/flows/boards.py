"""What a board shows: its text, its buttons and its move menu, from a saved game.

Pure: the picture is only described here (a ``Drawing``), and drawn where it is shown.
Every rule comes from the engine (legal moves, ``finishes_itself``); this module only
decides what to show and how to say it, in the language spoken now.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable

from engine import CARDS, DRAW, FOUNDATION, PILE, REDEAL, Game, Move
from engine.lru import LRU

from ..replies import (
    BUTTON_LABELS,
    Action,
    Board,
    BoardRef,
    Button,
    Controls,
    Drawing,
    MenuOption,
    PileMoves,
    Table,
)
from ..replies.text import Part, Small, Strong, Text
from ..store import ABANDONED, LOST, PLAYING, RESIGNED, WON, SavedGame
from ..words.language import _, current, label, n_
from ..words.phrases import code, command, for_piles, foundation, option, shared_command
from ..words.typed import as_typed
from .actions import undo_stops

PICK = Action.PICK.value  # a menu value "pick 7": show pile 7's moves
# Menu options already worded, by what their words depend on: a board's menu has ten or so,
# and the same moves of the same cards come up again and again, for every player.
_OPTIONS: LRU[tuple[object, ...], MenuOption] = LRU(4096)


def compose(
    saved: SavedGame,
    summary: Text,
    drawing: Drawing,
    *,
    proven_lost: bool = False,
    focus: int | None = None,
    private: bool = False,
    four_colour: bool = True,
    seconds_played: float | None = None,
) -> Board:
    """The board of ``saved``: headline, what just happened, how it ended or that no win
    is possible, and the controls (the move menu narrowed to pile ``focus``, 0-based, if
    given). ``seconds_played``: the time its result would count now (by default, as
    saved)."""
    game = saved.game
    finished = saved.is_finished
    lines: list[Text] = [headline(game)]
    if saved.daily is not None:  # a scored daily attempt: say so on every board of it
        lines[0] += " · " + _("📅 daily {day}, proven winnable", day=saved.daily)
    if summary:
        lines.append(summary)
    end = ending(saved)
    if end:
        lines.append(end)
    elif proven_lost:
        lines.append(no_win(game, lost_as_dealt=saved.lost_as_dealt, undo=not undo_stops(saved)))
    return Board(
        owner_id=saved.user_id,
        ref=BoardRef(saved.id, saved.revision),
        text=Text("\n").join(lines),
        drawing=drawing,
        filename=f"{game.game_id}-{game.deal_number}-{game.moves_made}.png",
        controls=controls(game, finished, focus, undo=not undo_stops(saved)),
        finished=finished,
        private=private,
        proven_lost=proven_lost and not finished,
        lost_as_dealt=saved.lost_as_dealt and not finished,
        language=current().code,
        table=Table(game.game_id, tuple(map(tuple, game.tableau)),
                    tuple(map(tuple, game.foundations)),
                    () if finished else tuple(game.legal_moves()), game.redeals_left,
                    four_colour, saved.hints,
                    saved.seconds_played if seconds_played is None else seconds_played),
    )


def no_win(game: Game, *, lost_as_dealt: bool = False, undo: bool = True) -> Text:
    """That no win is possible: from the deal itself when it is proven lost, or while the
    player has no move of their own to undo (safe moves that came with the deal are no way
    out): then no undo can help, and none is spoken of. Else from here (``undo``: the
    player may undo from here; in a scored game not past its last redeal)."""
    if game.lost_as_dealt(lost_as_dealt):
        return _("<b>No win is possible from this deal</b> — {new} deals another.",
                 new=command("new"))
    if not undo:
        return _("<b>No win is possible from here</b>, and in a scored game undo stops at the "
                 "last redeal.")
    return _("<b>No win is possible from here</b> — undo or start again.")


def with_no_win(text: Text, saved: SavedGame) -> Text:
    """A board's text once the solver has proven that no win is possible from ``saved``'s
    position (and ``saved`` says whether from its deal too). A board that said so already,
    or that it is stuck, told the player to undo: where the deal is lost, no undo helps."""
    game = saved.game
    if game.is_stuck:
        said = ending(dataclasses.replace(saved, proven_lost_at=None))
        return _replaced(text, said, ending(saved)) or text
    undo = not undo_stops(saved)
    said = no_win(game, lost_as_dealt=saved.lost_as_dealt, undo=undo)
    replaced = _replaced(text, no_win(game, undo=undo), said)
    if replaced is not None:
        return replaced
    return text + "\n" + said


def _replaced(text: Text, old: Text, new: Text) -> Text | None:
    """``text`` with each ``old`` in it made ``new``, as ``str.replace`` would, by parts
    (words letter by letter, every other part whole); None if ``old`` is not in it."""
    atoms, wanted = _atoms(text), _atoms(old)
    if not wanted:
        return None
    found = False
    made: list[Part | Text] = []
    at = 0
    while at < len(atoms):
        if atoms[at:at + len(wanted)] == wanted:
            made.append(new)
            at += len(wanted)
            found = True
        else:
            made.append(atoms[at])
            at += 1
    return Text(*made) if found else None


def _atoms(text: Iterable[Part]) -> list[Part]:
    """``text``'s parts, its words cut into letters."""
    return [atom for part in text for atom in (part if isinstance(part, str) else (part,))]


def controls(
    game: Game, finished: bool, focus: int | None = None, *, undo: bool = True
) -> Controls:
    """A board's buttons and move menu; ``undo``: whether undo may go back from here."""
    moves = [] if finished else [m for m in game.legal_moves() if m.kind != REDEAL]
    menu, placeholder = move_menu(game, moves)
    if finished:
        placeholder = label("The game is over")
    elif not moves:
        placeholder = for_piles(game.rules, label("No move left on the piles"),
                                label("No move left on the stacks"))
    goes_up = any(m.kind == FOUNDATION for m in moves)
    enabled = {
        Action.UNDO: not finished and game.can_undo and undo,
        Action.REDO: not finished and game.can_redo,
        Action.TO_FOUNDATIONS: goes_up,
        Action.REDEAL: not finished and game.redeals_left > 0,
        Action.HINT: not finished,  # a stuck game too: how far to undo
        Action.AUTO_FINISH: goes_up and game.finishes_itself(),  # a trial only if one goes up
    }
    buttons = tuple(Button(a, label(words), enabled[a]) for a, words in BUTTON_LABELS.items())
    return Controls(buttons=buttons, menu=menu, menu_placeholder=placeholder,
                    piles=piles_moved(game, moves), focus=focus,
                    stacks=game.rules.pile_word == "stack")


def move_menu(game: Game, moves: list[Move]) -> tuple[tuple[MenuOption, ...], str]:
    """The move menu and what it says: every move (a place shows as many as its menu
    holds, and the rest by their piles: ``piles_moved``)."""
    options = tuple(move_option(game, m) for m in moves)
    return options, current().plural("Play a move ({count} legal)",
                                     "Play a move ({count} legal)", len(moves))


def piles_moved(game: Game, moves: list[Move]) -> tuple[PileMoves, ...]:
    """The piles the moves off a pile leave from, in order, each with its top card and
    how many moves leave it."""
    by_pile: dict[int, int] = {}
    for move in moves:
        if move.kind != FOUNDATION:
            pile = game.source_pile(move)
            by_pile[pile] = by_pile.get(pile, 0) + 1
    words = current()
    return tuple(PileMoves(pile, game.pile_name(pile), words.card(game.tableau[pile][-1]), count)
                 for pile, count in sorted(by_pile.items()))


def no_pile_to_pick(game: Game, pile: str) -> Text | None:
    """Why ``pile``, a pick's number, is none of ``game``'s piles; None if it is one."""
    last = game.rules.tableau_size
    if pile.isascii() and pile.isdigit() and 1 <= int(pile) <= last:
        return None
    facts = {"pile": code(pile), "last": last}
    return for_piles(game.rules,
                     _("There is no pile {pile} to pick: piles are 1 to {last}.", **facts),
                     _("There is no stack {pile} to pick: stacks are 1 to {last}.", **facts))


def move_option(game: Game, move: Move) -> MenuOption:
    """A legal move in the menu: the move as typed, and its label (kept, and given again
    for the same move of the same cards in the same words)."""
    if move.kind == REDEAL:
        cards: object = game.redeals_left
    elif move.kind == DRAW:
        cards = None
    else:  # the card that moves, and the one it goes on (if it goes on a pile's)
        target = game.tableau[move.dst] if move.kind == PILE else None
        cards = (game.tableau[move.src][-1], target[-1] if target else None)
    pile = None if move.kind == FOUNDATION else game.source_pile(move)
    key = (current(), game.game_id, move, cards, pile)
    option = _OPTIONS.get(key)
    if option is None:
        option = _OPTIONS[key] = MenuOption(str(move), move_label(game, move), pile)
    return option


def move_label(game: Game, move: Move) -> str:
    """A legal move in words, before it is played: what a player types for it, then what
    it does: ``7 → 3 · 9♣ on 10♣``, ``7 → f2 · 9♣ to ♣ A↑``, ``Redeal (2 left)`` (plain
    words: a menu's option and an autocomplete's choice show them)."""
    words = current()
    if move.kind == REDEAL:
        return words.plural("Redeal ({count} left)", "Redeal ({count} left)",
                            game.redeals_left)
    if move.kind == DRAW:
        card = words.card(CARDS[move.card])
        return for_piles(
            game.rules,
            label("Draw: bring {card} to the top of its pile (once)", card=card),
            label("Draw: bring {card} to the top of its stack (once)", card=card),
        )
    card = words.card(game.tableau[move.src][-1])
    src = game.pile_name(move.src)
    if move.kind == FOUNDATION:
        spec = game.rules.foundations[move.dst]
        said = label("{card} to {foundation}", card=card, foundation=foundation(spec))
        return f"{src} → f{move.dst + 1} · {said}"
    target = game.tableau[move.dst]
    if target:
        said = label("{card} on {top}", card=card, top=words.card(target[-1]))
    else:
        said = for_piles(game.rules, label("{card} to the empty pile", card=card),
                         label("{card} to the empty stack", card=card))
    return f"{src} → {game.pile_name(move.dst)} · {said}"


def menu_choice(value: str) -> tuple[Action, str]:
    """What choosing a menu value does: ``pick 7`` shows pile 7's moves, ``pick`` every
    pile's again, anything else plays that move."""
    word, _, rest = value.partition(" ")
    if word == PICK:
        return Action.PICK, rest.strip()
    return Action.MOVE, value


def start_text(
    game: Game, replacing: SavedGame | None, *, winnable: bool, daily: Text | None,
    went_up: list[Move],
) -> Text:
    """What a board says when its game is dealt: what became of the game it replaced, the
    deal and how to share it, whether it is proven winnable or the daily deal, the game in
    a line, and the cards that went up by themselves."""
    lines: list[Text] = []
    if replacing is not None and replacing.status in (ABANDONED, LOST):
        left = {"game": replacing.game.name}
        lines.append(_("Your {game} game was recorded as abandoned.", **left)
                     if replacing.status == ABANDONED
                     else _("Your {game} game was recorded as lost.", **left))
    draw = [option("draw", "True")] if game.draw_rule else []
    facts = {"game": game.name, "deal": game.deal_number,
             "share": shared_command("new", game.game_id, str(game.deal_number), *draw)}
    lines.append(
        _("New game: <b>{game}</b>, deal {deal}, which the solver has proven can be won. "
          "Share it: {share}.", **facts) if winnable
        else _("New game: <b>{game}</b>, deal {deal}. Share it: {share}.", **facts)
    )
    if daily is not None:
        lines.append(daily)
    if game.draw_rule:
        lines.append(_(
            "House rule: after the last redeal you may once bring one buried card to the top "
            "of its pile ({draw}, or from the menu).", draw=command("move", as_typed("draw QH")),
        ))
    note = _("{note} {rules} tells the rest.", note=_(game.rules.note),
             rules=command("rules", game.game_id))
    lines.append(Text(Small(note)))  # small print
    if went_up:
        lines.append(went_up_line(went_up))
    return Text("\n").join(lines)


def went_up_line(moves: list[Move]) -> Text:
    """The cards that went up by themselves after a move (as typed)."""
    return _("Went up by themselves (safe): {moves}.",
             moves=Text(", ").join(code(str(m)) for m in moves))


def headline(game: Game) -> Text:
    """The board's status line: the game, its deal, how far it has got."""
    parts = [Text(Strong(Text(game.name))), _("deal {deal}", deal=game.deal_number),
             n_("{count} move", "{count} moves", game.moves_made)]
    if game.rules.redeals:
        parts.append(n_("{count} redeal left", "{count} redeals left", game.redeals_left)
                     if game.redeals_left else _("no redeals left"))  # as the picture says
    parts.append(n_("{home}/{count} card home", "{home}/{count} cards home",
                    game.rules.card_count, home=game.cards_on_foundations))
    return Text(" · ").join(parts)


def ending(saved: SavedGame) -> Text:
    """How the game ended (or that it is stuck); empty while it goes on."""
    game = saved.game
    moves = game.moves_made
    if saved.status == WON and saved.hints:
        said = n_("🏆 <b>Won with hints</b> in {count} move — it counts as assisted, not as a "
                  "win, in statistics.",
                  "🏆 <b>Won with hints</b> in {count} moves — it counts as assisted, not as a "
                  "win, in statistics.", moves)
    elif saved.status == WON:
        said = n_("🏆 <b>Won</b> in {count} move!", "🏆 <b>Won</b> in {count} moves!", moves)
    elif saved.status == PLAYING and game.is_stuck and game.lost_as_dealt(saved.lost_as_dealt):
        return _("<b>Stuck</b>: no move is left, and no win was possible from this deal — {new} "
                 "deals another (leaving a stuck game counts as a loss).", new=command("new"))
    elif saved.status == PLAYING and game.is_stuck and undo_stops(saved):
        return _("<b>Stuck</b>: no move is left, and in a scored game undo stops at the last "
                 "redeal — {new} deals another (leaving a stuck game counts as a loss).",
                 new=command("new"))
    elif saved.status == PLAYING and game.is_stuck:
        return _("<b>Stuck</b>: no move is left. Undo to try another way, or {new} to deal again "
                 "(leaving a stuck game counts as a loss).", new=command("new"))
    elif saved.status == LOST:
        said = _("<b>Lost</b>: the game was left stuck.")
    elif saved.status == RESIGNED:
        said = _("<b>Resigned.</b>")
    else:
        return Text()
    return said + " " + replay(game)


def replay(game: Game) -> Text:
    return _("{replay} replays this deal, {new} deals another.",
             replay=command("new", game.game_id, str(game.deal_number)), new=command("new"))


def over(saved: SavedGame) -> Text:
    """Why a finished game takes no more moves, and how to play again."""
    name = saved.game.name
    if saved.status == WON:
        said = _("This {game} game is over (won).", game=name)
    elif saved.status == RESIGNED:
        said = _("This {game} game is over (resigned).", game=name)
    else:
        said = _("This {game} game is over (stuck: no move left).", game=name)
    again = _("Start another with {new}; {replay} replays this deal.", new=command("new"),
              replay=command("new", saved.game.game_id, str(saved.game.deal_number)))
    return said + " " + again


def move_options(game: Game, typed: str = "") -> list[MenuOption]:
    """Legal moves matching what the player has typed so far (for `/move from`)."""
    wanted = " ".join(typed.lower().split())
    options = [move_option(game, move) for move in game.legal_moves()]
    if wanted[:1].isdigit():  # a pile number: the moves from it
        options = [o for o in options if o.value.startswith(wanted)]
    elif wanted:  # a card ("9♣"), a foundation ("f2") or "redeal"
        options = [o for o in options if o.value.startswith(wanted) or wanted in o.label.lower()]
    return options


def destination_options(game: Game, source: str, typed: str = "") -> list[MenuOption]:
    """Where the top card of pile ``source`` (its number or name) may go (for `/move to`),
    as ``3`` or ``f2``."""
    source = source.strip()
    names = [name.lower() for name in game.rules.pile_names or ()]
    if source.lower() in names:  # Corner Stones' C1 ... S8, as its picture shows them
        source = str(names.index(source.lower()) + 1)
    if not (source.isascii() and source.isdigit()):
        return []
    src = int(source) - 1
    wanted = typed.strip().lower()
    options = []
    for move in game.legal_moves():
        if move.kind not in (PILE, FOUNDATION) or move.src != src:
            continue
        value = str(move).split()[1]
        if value.startswith(wanted):
            options.append(MenuOption(value, move_label(game, move)))
    return options
