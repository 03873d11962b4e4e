"""What a board shows: its text, its buttons and its move menu, from a saved game.

Pure: the picture is only described here (a ``Drawing``), and drawn where it is shown.
Every rule comes from the engine (legal moves, ``finishes_itself``); this module only
decides what to show and how to say it, in the language spoken now.
"""

from __future__ import annotations

import dataclasses

from engine import CARDS, DRAW, FOUNDATION, PILE, REDEAL, Game, Move
from engine.lru import LRU

from ..replies import (
    BUTTON_LABELS,
    MENU_LIMIT,
    OPTION_LIMIT,
    Action,
    Board,
    BoardRef,
    Button,
    Controls,
    Drawing,
    MenuOption,
    Table,
)
from ..store import ABANDONED, LOST, PLAYING, RESIGNED, WON, SavedGame
from ..words.language import _, current, n_
from ..words.phrases import code, command, for_piles, foundation, option
from ..words.typed import as_typed
from .actions import undo_stops

PICK = Action.PICK.value  # a menu value "pick 7": show pile 7's moves
# Menu options already worded, by what their words depend on: a board's menu has ten or so,
# and the same moves of the same cards come up again and again, for every player.
_OPTIONS: LRU[tuple[object, ...], MenuOption] = LRU(4096)


def compose(
    saved: SavedGame,
    summary: str,
    drawing: Drawing,
    *,
    proven_lost: bool = False,
    focus: int | None = None,
    private: bool = False,
    four_colour: bool = True,
) -> Board:
    """The board of ``saved``: headline, what just happened, how it ended or that no win
    is possible, and the controls (the move menu narrowed to pile ``focus``, 0-based, if
    given)."""
    game = saved.game
    finished = saved.is_finished
    lines = [headline(game)]
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
        text="\n".join(lines),
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
                    four_colour),
    )


def no_win(game: Game, *, lost_as_dealt: bool = False, undo: bool = True) -> str:
    """That no win is possible: from the deal itself when it is proven lost, or while the
    player has no move of their own to undo (safe moves that came with the deal are no way
    out): then no undo can help, and none is spoken of. Else from here (``undo``: the
    player may undo from here; in a scored game not past its last redeal)."""
    if lost_as_dealt or not game.own_moves:
        return _("**No win is possible from this deal** — {new} deals another.",
                 new=command("new"))
    if not undo:
        return _("**No win is possible from here**, and in a scored game undo stops at the "
                 "last redeal.")
    return _("**No win is possible from here** — undo or start again.")


def with_no_win(text: str, saved: SavedGame) -> str:
    """A board's text once the solver has proven that no win is possible from ``saved``'s
    position (and ``saved`` says whether from its deal too). A board that said so already,
    or that it is stuck, told the player to undo: where the deal is lost, no undo helps."""
    game = saved.game
    if game.is_stuck:
        return text.replace(ending(dataclasses.replace(saved, proven_lost_at=None)),
                            ending(saved))
    undo = not undo_stops(saved)
    said = no_win(game, lost_as_dealt=saved.lost_as_dealt, undo=undo)
    before = no_win(game, undo=undo)
    if before in text:
        return text.replace(before, said)
    return f"{text}\n{said}"


def controls(
    game: Game, finished: bool, focus: int | None = None, *, undo: bool = True
) -> Controls:
    """A board's buttons and move menu; ``undo``: whether undo may go back from here."""
    moves = [] if finished else [m for m in game.legal_moves() if m.kind != REDEAL]
    menu, placeholder = move_menu(game, moves, focus)
    if finished:
        placeholder = _("The game is over")
    elif not moves:
        placeholder = for_piles(game.rules, _("No move left on the piles"),
                                _("No move left on the stacks"))
    goes_up = any(m.kind == FOUNDATION for m in moves)
    enabled = {
        Action.UNDO: not finished and game.can_undo and undo,
        Action.REDO: not finished and game.can_redo,
        Action.TO_FOUNDATIONS: goes_up,
        Action.REDEAL: not finished and game.redeals_left > 0,
        Action.HINT: not finished,  # a stuck game too: how far to undo
        Action.AUTO_FINISH: goes_up and game.finishes_itself(),  # a trial only if one goes up
    }
    buttons = tuple(Button(a, _(label), enabled[a]) for a, label in BUTTON_LABELS.items())
    return Controls(buttons=buttons, menu=menu, menu_placeholder=placeholder)


def move_menu(
    game: Game, moves: list[Move], focus: int | None = None
) -> tuple[tuple[MenuOption, ...], str]:
    """The move menu and its placeholder: every move when they fit in one menu; else every
    foundation move, then one entry per pile with other moves ("pick 7") whose choice shows
    that pile's moves — so any legal move is two taps away at most."""
    if focus is not None:
        mine = [m for m in moves if game.source_pile(m) == focus]
        if mine:
            options = [move_option(game, m) for m in mine[: MENU_LIMIT - 1]]
            back = for_piles(game.rules, _("← Back to every pile's moves"),
                             _("← Back to every stack's moves"))
            options.append(MenuOption(PICK, fit(back)))
            facts = {"name": game.pile_name(focus)}
            return tuple(options), for_piles(
                game.rules,
                n_("Moves from pile {name} ({count})", "Moves from pile {name} ({count})",
                   len(mine), **facts),
                n_("Moves from stack {name} ({count})", "Moves from stack {name} ({count})",
                   len(mine), **facts),
            )
    if len(moves) <= MENU_LIMIT:
        options = [move_option(game, m) for m in moves]
        return tuple(options), n_("Play a move ({count} legal)", "Play a move ({count} legal)",
                                  len(moves))
    options = [move_option(game, m) for m in moves if m.kind == FOUNDATION]
    by_pile: dict[int, int] = {}
    for move in moves:
        if move.kind != FOUNDATION:
            pile = game.source_pile(move)
            by_pile[pile] = by_pile.get(pile, 0) + 1
    for pile, count in sorted(by_pile.items()):
        label = n_("{name} · {card}: {count} move →", "{name} · {card}: {count} moves →", count,
                   name=game.pile_name(pile), card=current().card(game.tableau[pile][-1]))
        options.append(MenuOption(f"{PICK} {pile + 1}", fit(label)))
    placeholder = for_piles(
        game.rules,
        n_("Play a move, or pick a pile ({count} legal)",
           "Play a move, or pick a pile ({count} legal)", len(moves)),
        n_("Play a move, or pick a stack ({count} legal)",
           "Play a move, or pick a stack ({count} legal)", len(moves)),
    )
    return tuple(options[:MENU_LIMIT]), placeholder


def no_pile_to_pick(game: Game, pile: str) -> str | None:
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
    key = (current(), game.game_id, move, cards)
    option = _OPTIONS.get(key)
    if option is None:
        option = _OPTIONS[key] = MenuOption(str(move), fit(move_label(game, move)))
    return option


def move_label(game: Game, move: Move) -> str:
    """A legal move in words, before it is played: what a player types for it, then what
    it does: ``7 → 3 · 9♣ on 10♣``, ``7 → f2 · 9♣ to ♣ A↑``, ``Redeal (2 left)``."""
    words = current()
    if move.kind == REDEAL:
        return n_("Redeal ({count} left)", "Redeal ({count} left)", game.redeals_left)
    if move.kind == DRAW:
        card = words.card(CARDS[move.card])
        return for_piles(
            game.rules,
            _("Draw: bring {card} to the top of its pile (once)", card=card),
            _("Draw: bring {card} to the top of its stack (once)", card=card),
        )
    card = words.card(game.tableau[move.src][-1])
    src = game.pile_name(move.src)
    if move.kind == FOUNDATION:
        spec = game.rules.foundations[move.dst]
        said = _("{card} to {foundation}", card=card, foundation=foundation(spec))
        return f"{src} → f{move.dst + 1} · {said}"
    target = game.tableau[move.dst]
    if target:
        said = _("{card} on {top}", card=card, top=words.card(target[-1]))
    else:
        said = for_piles(game.rules, _("{card} to the empty pile", card=card),
                         _("{card} to the empty stack", card=card))
    return f"{src} → {game.pile_name(move.dst)} · {said}"


def fit(label: str) -> str:
    """A label cut to what Discord takes in a menu, marked as cut."""
    return label if len(label) <= OPTION_LIMIT else label[: OPTION_LIMIT - 1] + "…"


def menu_choice(value: str) -> tuple[Action, str]:
    """What choosing a menu value does: ``pick 7`` shows pile 7's moves, ``pick`` every
    pile's again, anything else plays that move."""
    word, _, rest = value.partition(" ")
    if word == PICK:
        return Action.PICK, rest.strip()
    return Action.MOVE, value


def start_text(
    game: Game, replacing: SavedGame | None, *, winnable: bool, daily: str | None,
    went_up: list[Move],
) -> str:
    """What a board says when its game is dealt: what became of the game it replaced, the
    deal and how to share it, whether it is proven winnable or the daily deal, the game in
    a line, and the cards that went up by themselves."""
    lines = []
    if replacing is not None and replacing.status in (ABANDONED, LOST):
        left = {"game": replacing.game.name}
        lines.append(_("Your {game} game was recorded as abandoned.", **left)
                     if replacing.status == ABANDONED
                     else _("Your {game} game was recorded as lost.", **left))
    draw = [option("draw", "True")] if game.draw_rule else []
    facts = {"game": game.name, "deal": game.deal_number,
             "share": command("new", game.game_id, str(game.deal_number), *draw)}
    lines.append(
        _("New game: **{game}**, deal {deal}, which the solver has proven can be won. "
          "Share it: {share}.", **facts) if winnable
        else _("New game: **{game}**, deal {deal}. Share it: {share}.", **facts)
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
    lines.append(f"-# {note}")  # Discord's small print
    if went_up:
        lines.append(went_up_line(went_up))
    return "\n".join(lines)


def went_up_line(moves: list[Move]) -> str:
    """The cards that went up by themselves after a move (as typed)."""
    return _("Went up by themselves (safe): {moves}.",
             moves=", ".join(code(str(m)) for m in moves))


def headline(game: Game) -> str:
    """The board's status line: the game, its deal, how far it has got."""
    parts = [f"**{game.name}**", _("deal {deal}", deal=game.deal_number),
             n_("{count} move", "{count} moves", game.moves_made)]
    if game.rules.redeals:
        parts.append(n_("{count} redeal left", "{count} redeals left", game.redeals_left)
                     if game.redeals_left else _("no redeals left"))  # as the picture says
    parts.append(n_("{home}/{count} card home", "{home}/{count} cards home",
                    game.rules.card_count, home=game.cards_on_foundations))
    return " · ".join(parts)


def ending(saved: SavedGame) -> str:
    """How the game ended (or that it is stuck); empty while it goes on."""
    game = saved.game
    moves = game.moves_made
    if saved.status == WON and saved.hints:
        said = n_("🏆 **Won with hints** in {count} move — it counts as assisted, not as a "
                  "win, in statistics.",
                  "🏆 **Won with hints** in {count} moves — it counts as assisted, not as a "
                  "win, in statistics.", moves)
    elif saved.status == WON:
        said = n_("🏆 **Won** in {count} move!", "🏆 **Won** in {count} moves!", moves)
    elif saved.status == PLAYING and game.is_stuck and (saved.lost_as_dealt
                                                        or not game.own_moves):
        return _("**Stuck**: no move is left, and no win was possible from this deal — {new} "
                 "deals another (leaving a stuck game counts as a loss).", new=command("new"))
    elif saved.status == PLAYING and game.is_stuck and undo_stops(saved):
        return _("**Stuck**: no move is left, and in a scored game undo stops at the last "
                 "redeal — {new} deals another (leaving a stuck game counts as a loss).",
                 new=command("new"))
    elif saved.status == PLAYING and game.is_stuck:
        return _("**Stuck**: no move is left. Undo to try another way, or {new} to deal again "
                 "(leaving a stuck game counts as a loss).", new=command("new"))
    elif saved.status == LOST:
        said = _("**Lost**: the game was left stuck.")
    elif saved.status == RESIGNED:
        said = _("**Resigned.**")
    else:
        return ""
    return f"{said} {replay(game)}"


def replay(game: Game) -> str:
    return _("{replay} replays this deal, {new} deals another.",
             replay=command("new", game.game_id, str(game.deal_number)), new=command("new"))


def over(saved: SavedGame) -> str:
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
    return f"{said} {again}"


def move_options(game: Game, typed: str = "") -> list[MenuOption]:
    """Legal moves matching what the player has typed so far (for `/move from`)."""
    wanted = " ".join(typed.lower().split())
    options = [move_option(game, move) for move in game.legal_moves()]
    if wanted[:1].isdigit():  # a pile number: the moves from it
        options = [o for o in options if o.value.startswith(wanted)]
    elif wanted:  # a card ("9♣"), a foundation ("f2") or "redeal"
        options = [o for o in options if o.value.startswith(wanted) or wanted in o.label.lower()]
    return options[:MENU_LIMIT]


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
            options.append(MenuOption(value, fit(move_label(game, move))))
    return options[:MENU_LIMIT]
