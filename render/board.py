"""Compose a board picture: cached background, pasted card sprites, a few lines of text.

Everything that does not change during a game (felt, outlines, labels, the name) is
drawn once per game into a background (background.py). A frame copies it, pastes one
sprite per card and one per line of text, and frames the last move in gold; all in
palette mode, so a frame is a few memory copies and a quick PNG encode.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import lru_cache
from itertools import pairwise

from PIL import Image

from engine import DRAW, FOUNDATION, PILE, REDEAL, Card, FoundationSpec, Game, Move
from engine.moves import parse

from . import png
from .background import TITLE_SIZE, background, felt, fitted_background
from .cards import CARD_W, RADIUS, frame_card, paste_card, strip_core, strip_mask
from .geometry import Box, Fan, Layout, PileSlot, aspect_canvas
from .glyphs import cap_height, paint_text, text_width, wrap_parts
from .layout import arrange, layout
from .options import PLAIN, PictureOptions
from .palette import (
    FELT,
    FELT_TEXT,
    GOLD,
    NO_WIN,
    RESIGNED,
    RGB,
    STUCK,
    WON,
    to_palette,
)
from .sprites import (
    BANNER_LINE,
    SOURCE,
    TARGET,
    TEXT_SIZE,
    badge,
    banner_bar,
    banner_lines,
    card_chip,
    centred,
    fit,
    foundation_badge,
    least_size,
    line_height,
    palette_text,
    paste_line,
    put,
)
from .words import ENGLISH, PictureWords


def render_png(
    game: Game,
    *,
    last_move: Move | str | None = None,
    options: PictureOptions = PLAIN,
    words: PictureWords = ENGLISH,
) -> bytes:
    """The board of ``game`` as PNG bytes; the same arguments always give the same bytes.

    ``last_move`` (a Move or its text, such as ``"7 f2"``) is the move that led to
    this position: its source and destination are framed in gold and it is named
    under the title. ``None`` frames nothing, so a caller shows a move only when it
    means to (after an undo, ``game.last_move`` is not what the player just did).
    ``options``: the four-colour deck, and the banner's verdict: ``no_win`` (the
    solver's) puts "No win is possible from here" on a board still in play, and
    ``lost_as_dealt`` (the deal itself proven lost) says "from this deal", with no word
    of undo, as does a board with no move of the player's own to undo; ``assisted``
    marks a win as won with hints; ``resigned``, a game the player gave up (over a stuck
    or no-win one). ``words``: the language its words and card faces are drawn in.
    """
    return png.encode(render_image(game, last_move=last_move, options=options, words=words))


def render_image(
    game: Game,
    *,
    last_move: Move | str | None = None,
    options: PictureOptions = PLAIN,
    words: PictureWords = ENGLISH,
) -> Image.Image:
    """The board as a palette image (what ``render_png`` encodes)."""
    full = layout(game.game_id)
    banner = banner_texts(game, options, words)
    lay, fans = board_layout(game, banner=banner is not None)
    move = _as_move(game, last_move)
    ranks = words.ranks
    four_colour = options.four_colour
    if lay.own_background:  # its piles not where they lie at rest
        frame = fitted_background(lay, ranks).copy()
    else:
        frame = felt(full, lay, background(game.game_id, four_colour, ranks))
    # Pasting through the imaging core skips Image.paste's per-call checks: a frame pastes
    # a hundred sprites, all of the frame's own mode, their sizes known in advance.
    core = frame.im
    for pile, spread in zip(game.tableau, fans, strict=True):
        cards = spread.cards
        for (place, x, y), (_, next_x, below) in pairwise(cards):
            if next_x != x:  # the last of a sub-column (a wrapped stack): nothing over it
                paste_card(core, pile[place], (x, y), four_colour, ranks)
                continue
            # A buried card: its strip, and under the next card's rounded corners
            height = below - y + RADIUS
            core.paste(strip_core(pile[place], height, four_colour, ranks),
                       (x, y, x + CARD_W, y + height), strip_mask(height))
        if cards:
            place, x, y = cards[-1]
            paste_card(core, pile[place], (x, y), four_colour, ranks)
    least = least_size(lay.width)
    foundations = zip(lay.foundations, game.rules.foundations, game.foundations, strict=True)
    for fslot, spec, fpile in foundations:
        if fpile:
            paste_card(core, fpile[-1], (fslot.card.x, fslot.card.y), four_colour, ranks)
        info, (dx, dy) = _progress_sprite(_progress(spec, fpile, words), fslot.info.w,
                                          fslot.info.h, least)
        put(frame, info, (fslot.info.x + dx, fslot.info.y + dy))
    _title(frame, lay, game, move, four_colour, words)
    if banner is not None:
        _banner(frame, lay.banner, *banner, least)
    if move is not None:
        _highlight(frame, lay, game, move, fans)
    return _within_aspect(frame)


def _within_aspect(frame: Image.Image) -> Image.Image:
    """The board on felt wide (or tall) enough for layout.ASPECT: every position a player
    can reach fits as it is laid out (its long piles wrapped); this is for the others."""
    width, height = aspect_canvas(frame.width, frame.height)
    if (width, height) == frame.size:
        return frame
    canvas = Image.new("P", (width, height), 0)  # colour 0: the felt
    assert frame.palette is not None
    canvas.putpalette(frame.palette)
    canvas.paste(frame, ((width - frame.width) // 2, 0))
    return canvas


def board_layout(game: Game, *, banner: bool) -> tuple[Layout, tuple[Fan, ...]]:
    """Where this position's piles, cards and labels are drawn (see ``layout.arrange``)."""
    return arrange(game.game_id, game.tableau, banner=banner)


def progress_lines(text: str, box: Box, least: int) -> tuple[tuple[str, ...], int]:
    """A foundation's progress in its box: on one line at the largest size up to
    TEXT_SIZE that fits, else (Four Leaf Clovers' words, in a narrow picture) broken
    between its parts onto two lines of ``least`` size."""
    # Every count of a foundation as large as its fullest fits ("13/13"): no size jumps
    fullest = re.sub(r"\d+/(\d+)", lambda m: f"{m[1]}/{m[1]}", text)
    size = fit(fullest, TEXT_SIZE, box.w - 2, least=least)
    if text_width(text, size) + 4 <= box.w - 2:
        return (text,), size
    return wrap_parts(text, least, box.w - 6, sep=PARTS), least


@lru_cache(maxsize=256)  # "6/13": a few hundred in all
def _progress_sprite(
    text: str, width: int, height: int, least: int
) -> tuple[Image.Image, tuple[int, int]]:
    """A foundation's progress, centred in its box: the sprite, and where it goes in the
    box. The sprite's felt above its letters is left off where it would reach above the
    box and cut the bottom of the card there."""
    lines, size = progress_lines(text, Box(0, 0, width, height), least)
    if len(lines) == 1:
        info = palette_text(text, size, FELT_TEXT, FELT)
    else:  # each line's capitals as high as they are apart: a card's progress in its box
        image = Image.new("RGB", (width, height), FELT)
        step = height // len(lines)
        for n, line in enumerate(lines):
            x = (width - text_width(line, size)) // 2
            paint_text(image, line, (x, (n + 1) * step - (step - cap_height(size)) // 2),
                       size, FELT_TEXT)
        info = to_palette(image)
    x, y = centred(info, Box(0, 0, width, height))
    if y < 0:
        info, y = info.crop((0, -y, info.width, info.height)), 0
    return info, (x, y)


PARTS = "  ·  "  # between the parts of a progress line


def _progress(spec: FoundationSpec, pile: Sequence[Card], words: PictureWords = ENGLISH) -> str:
    """How far it has got (the suit is on the card, or its ghost while empty; the
    direction on its tab); when any suit will do, which rank comes next."""
    done = f"{len(pile)}/{spec.size}"
    wanted = spec.next_cards(list(pile))
    if spec.suit is None:
        if pile and wanted:
            return f"{words.next_any(wanted[0].rank)}{PARTS}{done}"
        return f"{words.start_any_ace()}{PARTS}{done}"
    return done


# -- the last move ----------------------------------------------------------------------


def _as_move(game: Game, last_move: Move | str | None) -> Move | None:
    """The move to show, checked against the game's piles; ValueError if it names none."""
    if last_move is None:
        return None
    if isinstance(last_move, Move):
        move = last_move
    else:
        parsed = parse(last_move)
        if parsed.kind in (PILE, FOUNDATION) and parsed.dst is None:
            raise ValueError(f"{last_move!r} does not say where the card went")
        move = Move(parsed.kind, parsed.src, -1 if parsed.dst is None else parsed.dst,
                    parsed.card)
    piles = len(game.tableau)
    if move.kind in (PILE, FOUNDATION) and not 0 <= move.src < piles:
        raise ValueError(f"{game.name} has no pile {move.src + 1}")
    if move.kind == PILE and not 0 <= move.dst < piles:
        raise ValueError(f"{game.name} has no pile {move.dst + 1}")
    if move.kind == FOUNDATION and not 0 <= move.dst < len(game.foundations):
        raise ValueError(f"{game.name} has no foundation f{move.dst + 1}")
    if move.kind == DRAW and not 0 <= move.card < 52:
        raise ValueError(f"{move.card} is not a card")
    return move


def _moved_card(game: Game, move: Move) -> Card | None:
    """The card the move put where it now lies (None for a redeal)."""
    if move.kind == PILE:
        pile = game.tableau[move.dst]
    elif move.kind == FOUNDATION:
        pile = game.foundations[move.dst]
    elif move.kind == DRAW:
        return Card(move.card)
    else:
        return None
    return pile[-1] if pile else None


def _drawn_pile(game: Game, move: Move) -> int | None:
    """The pile whose buried card a draw brought to the top."""
    drawn = Card(move.card)
    for i, pile in enumerate(game.tableau):
        if pile and pile[-1] == drawn:
            return i
    return None


def _highlight(
    frame: Image.Image, lay: Layout, game: Game, move: Move, fans: tuple[Fan, ...]
) -> None:
    """The card the last move put down, framed in gold with its pile's (or foundation's)
    label; the pile it came from has its label outlined, and the card now on top there
    is left as it is (it did not move)."""
    if move.kind == REDEAL:  # every pile changed: the title says so, no pile is singled out
        return
    if move.kind == DRAW:
        pile = _drawn_pile(game, move)
        if pile is not None:
            _lit_badge(frame, lay.piles[pile], TARGET)
            frame_card(frame, _top_spot(lay.piles[pile], fans[pile]), 4)
        return
    _lit_badge(frame, lay.piles[move.src], SOURCE)
    if move.kind == PILE:
        target = lay.piles[move.dst]
        _lit_badge(frame, target, TARGET)
        frame_card(frame, _top_spot(target, fans[move.dst]), 4)
    else:
        fslot = lay.foundations[move.dst]
        box = fslot.label
        step = game.rules.foundations[move.dst].step
        put(frame, foundation_badge(fslot, step, TARGET), (box.x, box.y))
        frame_card(frame, (fslot.card.x, fslot.card.y), 4)


def _top_spot(slot: PileSlot, spread: Fan) -> tuple[int, int]:
    """Where the pile's top card is, or its empty place."""
    return spread.top or (slot.area.x, slot.area.y)


def _lit_badge(frame: Image.Image, slot: PileSlot, lit: str) -> None:
    box = slot.label
    least = least_size(frame.width)
    put(frame, badge(str(slot.index + 1), box.w, box.h, slot.name, lit, least=least),
        (box.x, box.y))


# -- text -------------------------------------------------------------------------------


def _move_text(move: Move | None, words: PictureWords) -> str | None:
    if move is None:
        return None
    if move.kind == REDEAL:
        return words.last_move_redeal()
    if move.kind == DRAW:
        return words.last_move_draw(Card(move.card))
    dst = f"f{move.dst + 1}" if move.kind == FOUNDATION else str(move.dst + 1)
    return words.last_move(str(move.src + 1), dst)


def _status_lines(game: Game, width: int, size: int, words: PictureWords) -> list[str]:
    """Deal and moves on one line (two if it is too long), then redeals and the draw rule
    (on two lines too where one is too long)."""
    deal = words.deal(game.deal_number)
    moves = words.moves(game.moves_made)
    joined = f"{deal}  ·  {moves}"
    lines = [joined] if text_width(joined, size) + 4 <= width else [deal, moves]
    extras = []
    if game.rules.redeals:
        extras.append(words.redeals_left(game.redeals_left))
    if game.draw_available:
        extras.append(words.draw_available())
    elif game.draw_rule:
        extras.append(words.draw_used() if game.draw_used else words.draw_rule())
    joined = "  ·  ".join(extras)
    if extras and text_width(joined, size) + 4 <= width:
        lines.append(joined)
    else:
        lines += extras
    return lines


CHIP_ROOM = 60  # right of the last move's words: the chip of the card that moved
CHIP_H = 26  # and how tall it is (``sprites.card_chip``)


def title_lines(
    game: Game, move: Move | None, box: Box, words: PictureWords = ENGLISH, *, least: int = 12
) -> tuple[list[tuple[str, int]], int]:
    """The lines under the game's name, each with its font size, and the line height:
    the largest size from TEXT_SIZE down to ``least`` at which they all fit the title box
    (the last move's line leaves room for its card's chip). Where the last move's words do
    not fit at ``least``, the move alone is said (``7 → 3``)."""
    room = box.h - (TITLE_SIZE + 8)
    said = _move_text(move, words)
    for size in range(TEXT_SIZE, least - 1, -1):
        texts = _status_lines(game, box.w, size, words) + ([said] if said else [])
        # the chip of the moved card, centred on the last line, may reach below it
        below = max(0, (CHIP_H - line_height(size) + 1) // 2) if said else 0
        if len(texts) * line_height(size) + below <= room or size == least:
            break
    sized = [(text, fit(text, size, box.w, least=least)) for text in texts]
    if said and move is not None:
        if text_width(said, least) + 4 > box.w - CHIP_ROOM and move.kind in (PILE, FOUNDATION):
            said = str(move).replace(" ", " → ")  # the move alone, as a player types it
        sized[-1] = (said, fit(said, size, box.w - CHIP_ROOM, least=least))
    return sized, line_height(size)


def _title(
    frame: Image.Image, lay: Layout, game: Game, move: Move | None, four_colour: bool,
    words: PictureWords,
) -> None:
    """Under the game's name: deal and moves, redeals, then the last move, a line each."""
    box = lay.title
    y = box.y + TITLE_SIZE + 8
    lines, line_h = title_lines(game, move, box, words, least=least_size(lay.width))
    for n, (text, size) in enumerate(lines):
        last_move = move is not None and n == len(lines) - 1
        end = paste_line(frame, text, (box.x, y), size, GOLD if last_move else FELT_TEXT)
        moved = _moved_card(game, move) if last_move and move is not None else None
        if moved is not None and move is not None and move.kind != DRAW:
            chip = card_chip(int(moved), four_colour, words.card(moved))
            put(frame, chip, (end + 6, y + (line_h - chip.height) // 2))
        y += line_h


def banner_texts(
    game: Game, options: PictureOptions = PLAIN, words: PictureWords = ENGLISH
) -> tuple[tuple[str, ...], RGB] | None:
    """What the banner says (longest first, the first that fits is drawn) and its colour:
    how the game ended (won, resigned, stuck), or that it can no longer be won. Where no
    undo can help (the deal is lost, or no move of the player's is there to undo), no
    word of undo."""
    if game.is_won:  # said once, here: the emptied piles keep their numbers in sight
        if options.assisted:
            return words.won_with_hints(game.moves_made), WON
        return words.won(game.moves_made), WON
    if options.resigned:
        return words.resigned(game.moves_made), RESIGNED
    dealt = game.lost_as_dealt(options.lost_as_dealt)
    if game.is_stuck:
        return words.stuck(dealt), STUCK
    if options.no_win or options.lost_as_dealt:
        return words.no_win(dealt), NO_WIN
    return None


BANNER_SIZE = 17  # a banner's words at least (bold), the picture's least if larger


def banner_choice(
    box: Box, texts: tuple[str, ...], size: int = BANNER_SIZE
) -> tuple[str, ...]:
    """The lines of the longest of ``texts`` that fits the box's lines at ``size`` (the
    shortest, on one line, when none does)."""
    room = max(1, box.h // BANNER_LINE)
    return next((ls for ls in (banner_lines(t, box.w - 16, size) for t in texts)
                 if len(ls) <= room), (texts[-1],))


def _banner(
    frame: Image.Image, box: Box, texts: tuple[str, ...], ground: RGB, least: int
) -> None:
    lines = banner_choice(box, texts, max(BANNER_SIZE, least))
    put(frame, banner_bar(lines, box.w, box.h, ground, max(BANNER_SIZE, least)), (box.x, box.y))


# -- the background, drawn once per game ------------------------------------------------
