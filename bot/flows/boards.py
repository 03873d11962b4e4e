"""What a board shows: its text, its buttons and its move menu, from a saved game.

Pure: the picture is drawn elsewhere (``workers/pictures.py``) and handed in. Every rule comes
from the engine (legal moves, ``finishes_itself``, ``describe``); this module only decides
what to show and how to say it.
"""

from __future__ import annotations

from engine import FOUNDATION, PILE, REDEAL, Game, Move

from ..replies import (
    BUTTON_LABELS,
    MENU_LIMIT,
    Action,
    Board,
    BoardRef,
    Button,
    Controls,
    MenuOption,
)
from ..store import ABANDONED, LOST, PLAYING, RESIGNED, WON, SavedGame
from ..words.language import current
from ..words.phrases import code, plural
from ..workers.pictures import Picture

NO_WIN = "**No win is possible from here** — undo or start again."
PICK = Action.PICK.value  # a menu value "pick 7": show pile 7's moves


def compose(
    saved: SavedGame,
    summary: str,
    picture: Picture,
    *,
    proven_lost: bool = False,
    focus: int | None = None,
    private: bool = False,
) -> Board:
    """The board of ``saved``: headline, what just happened, how it ended or that no win
    is possible, and the controls (the move menu narrowed to pile ``focus``, 0-based, if
    given)."""
    game = saved.game
    finished = saved.is_finished
    lines = [headline(game)]
    if summary:
        lines.append(summary)
    end = ending(saved)
    if end:
        lines.append(end)
    elif proven_lost:
        lines.append(NO_WIN)
    return Board(
        owner_id=saved.user_id,
        ref=BoardRef(saved.id, saved.revision),
        text="\n".join(lines),
        png=picture.png,
        alt_text=picture.alt_text,
        filename=f"{game.game_id}-{game.deal}-{game.moves_made}.png",
        controls=controls(game, finished, focus),
        finished=finished,
        private=private,
        proven_lost=proven_lost and not finished,
        language=current().code,
    )


def with_no_win(text: str) -> str:
    """A board's text once the solver has proven that no win is possible from it."""
    return f"{text}\n{NO_WIN}"


def controls(game: Game, finished: bool, focus: int | None = None) -> Controls:
    moves = [] if finished else [m for m in game.legal_moves() if m.kind != REDEAL]
    menu, placeholder = move_menu(game, moves, focus)
    if finished:
        placeholder = "The game is over"
    elif not moves:
        placeholder = "No move left on the piles"
    goes_up = any(m.kind == FOUNDATION for m in moves)
    enabled = {
        Action.UNDO: not finished and game.can_undo,
        Action.REDO: not finished and game.can_redo,
        Action.TO_FOUNDATIONS: goes_up,
        Action.REDEAL: not finished and game.redeals_left > 0,
        Action.HINT: not finished,  # a stuck game too: how far to undo
        Action.AUTO_FINISH: goes_up and game.finishes_itself(),  # a trial only if one goes up
    }
    buttons = tuple(Button(a, label, enabled[a]) for a, label in BUTTON_LABELS.items())
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
            options = [MenuOption(str(m), game.describe(m)) for m in mine[: MENU_LIMIT - 1]]
            options.append(MenuOption(PICK, "← Back to every pile's moves"))
            name = game.pile_name(focus)
            return tuple(options), f"Moves from {game.rules.pile_word} {name} ({len(mine)})"
    if len(moves) <= MENU_LIMIT:
        options = [MenuOption(str(m), game.describe(m)) for m in moves]
        return tuple(options), f"Play a move ({len(moves)} legal)"
    options = [MenuOption(str(m), game.describe(m)) for m in moves if m.kind == FOUNDATION]
    by_pile: dict[int, int] = {}
    for move in moves:
        if move.kind != FOUNDATION:
            pile = game.source_pile(move)
            by_pile[pile] = by_pile.get(pile, 0) + 1
    for pile, count in sorted(by_pile.items()):
        top = game.tableau[pile][-1].label
        label = f"{game.pile_name(pile)} · {top}: {plural(count, 'move')} →"
        options.append(MenuOption(f"{PICK} {pile + 1}", label))
    return tuple(options[:MENU_LIMIT]), f"Play a move, or pick a pile ({len(moves)} legal)"


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
        lines.append(f"Your {replacing.game.name} game was recorded as {replacing.status}.")
    share = f"/new {game.game_id} {game.deal}" + (" draw:True" if game.draw_rule else "")
    first = f"New game: **{game.name}**, deal {game.deal}"
    if winnable:
        first += ", which the solver has proven can be won"
    lines.append(f"{first}. Share it: {code(share)}.")
    if daily is not None:
        lines.append(daily)
    if game.draw_rule:
        lines.append(
            "House rule: after the last redeal you may once bring one buried card to the top "
            "of its pile (`/move draw QH`, or from the menu)."
        )
    lines.append(f"-# {game.rules.note} {code(f'/rules {game.game_id}')} tells the rest.")
    if went_up:
        lines.append(f"Went up by themselves (safe): {', '.join(code(str(m)) for m in went_up)}.")
    return "\n".join(lines)


def headline(game: Game) -> str:
    parts = [f"**{game.name}**", f"deal {game.deal}", plural(game.moves_made, "move")]
    if game.rules.redeals:
        parts.append(f"{plural(game.redeals_left, 'redeal')} left")
    parts.append(f"{game.cards_on_foundations}/{game.rules.card_count} cards home")
    return " · ".join(parts)


def ending(saved: SavedGame) -> str:
    """How the game ended (or that it is stuck); empty while it goes on."""
    game = saved.game
    replay = (
        f"{code(f'/new {game.game_id} {game.deal}')} replays this deal, `/new` deals another."
    )
    if saved.status == WON and saved.hints:
        return (
            f"🏆 **Won with hints** in {game.moves_made} moves — it counts as assisted, not as "
            f"a win, in statistics. {replay}"
        )
    if saved.status == WON:
        return f"🏆 **Won** in {game.moves_made} moves! {replay}"
    if saved.status == PLAYING and game.is_stuck:
        return (
            "**Stuck**: no move is left. Undo to try another way, or `/new` to deal again "
            "(leaving a stuck game counts as a loss)."
        )
    if saved.status == LOST:
        return f"**Lost**: the game was left stuck. {replay}"
    if saved.status == RESIGNED:
        return f"**Resigned.** {replay}"
    return ""


def outcome(status: str) -> str:
    """A finished game's status in a few words."""
    return {WON: "won", LOST: "stuck: no move left", RESIGNED: "resigned"}.get(status, status)


def move_options(game: Game, typed: str = "") -> list[MenuOption]:
    """Legal moves matching what the player has typed so far (for `/move from`)."""
    wanted = " ".join(typed.lower().split())
    options = [MenuOption(str(move), game.describe(move)) for move in game.legal_moves()]
    if wanted[:1].isdigit():  # a pile number: the moves from it
        options = [o for o in options if o.value.startswith(wanted)]
    elif wanted:  # a card ("9♣"), a foundation ("f2") or "redeal"
        options = [o for o in options if o.value.startswith(wanted) or wanted in o.label.lower()]
    return options[:MENU_LIMIT]


def destination_options(game: Game, source: str, typed: str = "") -> list[MenuOption]:
    """Where the top card of pile ``source`` may go (for `/move to`), as ``3`` or ``f2``."""
    source = source.strip()
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
            options.append(MenuOption(value, game.describe(move)))
    return options[:MENU_LIMIT]
