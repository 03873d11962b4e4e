"""Board pictures: every game in every state, their size, determinism and the last move."""

from __future__ import annotations

import io
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from PIL import Image, ImageChops

from benchmarks.render_speed import positions as bench_positions
from engine import FOUNDATION, GAMES, MAX_DEAL, PILE, RULES, Game, Move, new_game, parse_card
from render import PictureOptions, layout, render_png
from render.board import banner_texts, board_layout, render_image
from render.cards import CARD_H, CARD_W, card_mask, card_sprite
from render.layout import MARGIN, Box, Layout, tight_step
from render.palette import FELT, GOLD, NO_WIN, RESIGNED, STUCK, WON
from render.sprites import badge, least_size

from . import positions

REDEAL_GAMES = [g for g in GAMES if RULES[g].redeals]
STATES: dict[str, Callable[[str], Game]] = {
    "start": positions.start,
    "mid-game": positions.mid_game,
    "won": positions.won,
    "stuck": positions.stuck,
}


def decode(png: bytes) -> Image.Image:
    image = Image.open(io.BytesIO(png))
    image.load()
    return image


def cases() -> list[tuple[str, str]]:
    out = [(g, s) for g in GAMES for s in STATES]
    return out + [(g, "after a redeal") for g in REDEAL_GAMES]


def arranged(game: Game) -> Layout:
    """The layout a frame of this position is drawn in (a banner only when it is over)."""
    return board_layout(game, banner=game.is_won or game.is_stuck)[0]


def drawn_bottom(image: Image.Image) -> int:
    """One past the lowest row of pixels that is not plain felt."""
    rgb = image.convert("RGB")
    felt = Image.new("RGB", rgb.size, FELT)
    box = ImageChops.difference(rgb, felt).getbbox()
    assert box is not None
    return box[3]


def assert_ends_at_its_cards(image: Image.Image) -> None:
    """The last row of cards (or their outlines) ends a margin above the picture's bottom;
    only the last move's gold frame, 4 px round a card, may reach into the margin."""
    assert image.height - MARGIN <= drawn_bottom(image) <= image.height - MARGIN + 4


@pytest.mark.parametrize(("game_id", "state"), cases())
def test_every_game_renders_in_every_state_and_ends_where_its_cards_do(
    game_id: str, state: str
) -> None:
    game = positions.after_redeal(game_id) if state == "after a redeal" else STATES[state](game_id)
    image = decode(render_png(game, last_move=game.last_move))
    lay = arranged(game)
    assert image.format == "PNG"
    assert image.size == (lay.width, lay.height) and lay.height <= layout(game_id).height
    assert_ends_at_its_cards(image)  # no empty felt below the piles
    assert 360 <= image.width <= 600  # about 400 px on a phone: cards at 2/3 size or more
    # Corner Stones' three rows of stacks (corners, side stacks, corners) make it the
    # tallest: a little over twice its width in the middle of a game.
    assert 0.45 <= image.width / image.height <= 2


@pytest.mark.parametrize("game_id", GAMES)
def test_picture_grows_with_its_longest_pile_and_no_further(game_id: str) -> None:
    short = decode(render_png(positions.long_piles(game_id, [3] * 4)))
    longer = decode(render_png(positions.long_piles(game_id, [3, 3, 3, 12])))
    assert short.height < longer.height <= layout(game_id).height
    assert_ends_at_its_cards(longer)


@pytest.mark.parametrize("game_id", GAMES)
def test_picture_shows_cards_only_where_the_tableau_has_them(game_id: str) -> None:
    """White card faces fill the piles that hold cards, and no other pile."""
    game = positions.stuck(game_id)
    lay = arranged(game)
    image = render_image(game).convert("RGB")
    for slot, pile in zip(lay.piles, game.tableau, strict=True):
        a = slot.area
        crop = image.crop((a.x, a.y, a.right, a.bottom))
        white = sum(n for n, colour in crop.getcolors(1 << 20) or [] if min(colour) > 240)
        assert (white > 2000) == bool(pile), slot.index


@pytest.mark.parametrize("game_id", GAMES)
def test_same_position_gives_the_same_bytes(game_id: str) -> None:
    game = positions.mid_game(game_id)
    again = Game.from_dict(game.to_dict())
    first = render_png(game, last_move=game.last_move)
    assert render_png(again, last_move=again.last_move) == first
    assert render_png(game, last_move=str(game.last_move)) == first


def test_same_bytes_in_a_fresh_process() -> None:
    """No cache, hash seed or drawing order leaks into the picture."""
    script = (
        "import sys, engine, render\n"
        "g = engine.new_game('corner-stones', 9)\n"
        "m = g.play(g.legal_moves()[0])\n"
        "sys.stdout.buffer.write(render.render_png(g, last_move=m))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, check=True,
        cwd=Path(__file__).resolve().parents[2], env={"PYTHONHASHSEED": "123", "PYTHONPATH": "."},
    ).stdout
    game = new_game("corner-stones", 9)
    move = game.play(game.legal_moves()[0])
    assert out == render_png(game, last_move=move)


def test_four_colour_deck_paints_clubs_green_and_diamonds_blue() -> None:
    game = positions.start("trefoil")
    two = render_image(game).convert("RGB")
    four = render_image(game, options=PictureOptions(four_colour=True)).convert("RGB")
    assert two.size == four.size
    colours = {colour for _, colour in four.getcolors(1 << 20) or []}
    assert (0, 122, 44) in colours and (24, 78, 206) in colours
    assert (0, 122, 44) not in {colour for _, colour in two.getcolors(1 << 20) or []}


def _diff_outside(a: Image.Image, b: Image.Image, allowed: list[Box]) -> tuple[int, ...] | None:
    """The bounding box of pixels that differ outside the allowed boxes."""
    a, b = a.convert("RGB"), b.convert("RGB")
    for box in allowed:
        patch = a.crop((box.x, box.y, box.right, box.bottom))
        b.paste(patch, (box.x, box.y))
    return ImageChops.difference(a, b).getbbox()


def _changed(a: Image.Image, b: Image.Image, box: Box) -> bool:
    crop = (box.x, box.y, box.right, box.bottom)
    return ImageChops.difference(a.convert("RGB").crop(crop), b.convert("RGB").crop(crop)).getbbox() is not None


def _grown(box: Box, by: int = 6) -> Box:
    return Box(box.x - by, box.y - by, box.w + 2 * by, box.h + 2 * by)


@pytest.mark.parametrize("game_id", GAMES)
@pytest.mark.parametrize("kind", [PILE, FOUNDATION])
def test_last_move_lights_up_exactly_its_two_piles(game_id: str, kind: int) -> None:
    game = positions.mid_game(game_id, moves=3)
    moves = [m for m in game.legal_moves() if m.kind == kind]
    if not moves:  # a few openings have no foundation move: play on until one turns up
        game = next(g for g in (positions.mid_game(game_id, n, seed) for n in range(1, 40)
                                for seed in range(5))
                    if any(m.kind == kind for m in g.legal_moves()))
        moves = [m for m in game.legal_moves() if m.kind == kind]
    move = game.play(moves[0])
    plain = render_image(game)
    lit = render_image(game, last_move=move)
    lay = arranged(game)
    source = lay.piles[move.src]
    if kind == PILE:
        target_label, target_area = lay.piles[move.dst].label, lay.piles[move.dst].area
    else:
        target_label, target_area = lay.foundations[move.dst].label, lay.foundations[move.dst].card
    assert _changed(plain, lit, source.label)
    assert _changed(plain, lit, target_label)
    assert _changed(plain, lit, _grown(target_area))
    assert not _changed(plain, lit, source.area)  # the card left on top there did not move
    allowed = [_grown(source.label), _grown(target_label), _grown(target_area), lay.title]
    assert _diff_outside(plain, lit, allowed) is None


def test_the_highlight_frames_the_card_that_moved_not_the_one_left_behind() -> None:
    """Four Leaf Clovers deal 1, move 45 of its hints: 8♣ goes from pile 4 onto pile 8,
    leaving 3♦ on top of pile 4. 8♣ is framed in gold; 3♦ is drawn as it always is."""
    game = new_game("four-leaf-clovers", 1)
    game.tableau[3] = [parse_card("3H"), parse_card("3D"), parse_card("8C")]
    game.tableau[7] = [parse_card("10S"), parse_card("9C")]
    move = game.play("4 8")
    image = render_image(game, last_move=move).convert("RGB")
    _, fans = board_layout(game, banner=False)
    three, eight = fans[3].top, fans[7].top
    assert three is not None and eight is not None
    assert _card_drawn_whole(image, int(parse_card("3D")), three)
    assert _card_drawn_whole(image, int(parse_card("8C")), eight)

    def gold_round(spot: tuple[int, int]) -> int:
        x, y = spot
        ring = image.crop((x - 4, y - 4, x + CARD_W + 4, y + CARD_H + 4))
        return sum(n for n, c in ring.getcolors(1 << 16) or [] if c == GOLD)

    assert gold_round(eight) > 2 * (CARD_W + CARD_H) * 3
    assert gold_round(three) == 0


def test_redeal_lights_no_pile_but_says_so() -> None:
    game = positions.mid_game("trefoil", moves=4)
    move = game.play("redeal")
    plain = render_image(game)
    lit = render_image(game, last_move=move)
    lay = arranged(game)
    assert _changed(plain, lit, lay.title)
    assert _diff_outside(plain, lit, [lay.title]) is None


def test_a_move_that_is_not_on_this_board_is_refused() -> None:
    game = positions.start("trefoil")
    with pytest.raises(ValueError, match="no pile 17"):
        render_png(game, last_move="17 3")
    with pytest.raises(ValueError, match="no foundation f5"):
        render_png(game, last_move=Move(FOUNDATION, 0, 4))
    with pytest.raises(ValueError, match="where the card went"):
        render_png(game, last_move="7 f")
    with pytest.raises(ValueError):
        render_png(game, last_move="seven")


def test_won_and_stuck_boards_carry_a_banner() -> None:
    """The banner's colour fills a bar under the title; an ordinary board has none."""
    lay = layout("clover-leaf")

    def banner_pixels(game: Game, colour: tuple[int, int, int]) -> int:
        image = render_image(game).convert("RGB")
        box = lay.banner
        crop = image.crop((box.x, box.y, box.right, box.bottom))
        return sum(n for n, c in crop.getcolors(1 << 20) or [] if c == colour)

    won_colour, stuck_colour = (32, 120, 200), (176, 36, 36)
    assert banner_pixels(positions.won("clover-leaf"), won_colour) > 5000
    assert banner_pixels(positions.stuck("clover-leaf"), stuck_colour) > 5000
    assert banner_pixels(positions.mid_game("clover-leaf"), won_colour) == 0
    assert banner_pixels(positions.mid_game("clover-leaf"), stuck_colour) == 0


@pytest.mark.parametrize("game_id", GAMES)
def test_a_won_board_says_so_once_and_every_pile_number_stays_in_sight(game_id: str) -> None:
    """The win is said in the banner only: no second notice over the emptied piles, whose
    numbers and places are drawn as on any board."""
    game = positions.won(game_id)
    image = render_image(game).convert("RGB")
    lay = arranged(game)
    outside = image.copy()
    outside.paste(FELT, (lay.banner.x, lay.banner.y, lay.banner.right, lay.banner.bottom))
    assert _banner_colour_pixels(image, lay.banner, WON) > 3000
    assert _banner_colour_pixels(outside, Box(0, 0, lay.width, lay.height), WON) == 0
    for slot in lay.piles:
        box = slot.label
        drawn = image.crop((box.x, box.y, box.right, box.bottom))
        label = badge(str(slot.index + 1), box.w, box.h, slot.name,
                      least=least_size(lay.width)).convert("RGB")
        # (the background's palette mapping may pick a neighbouring blend at an edge)
        off = ImageChops.difference(drawn, label).point(lambda v: 255 if v > 40 else 0)
        assert off.getbbox() is None, slot.index


@pytest.mark.parametrize("game_id", GAMES)
def test_pictures_stay_small(game_id: str) -> None:
    """50 KB at most, as the README promises; the longest piles are the worst case."""
    lengths = {"corner-stones": [30] * 3, "four-leaf-clovers": [28, 20]}.get(game_id, [15, 15, 15])
    game = positions.long_piles(game_id, lengths)
    for g in (game, positions.mid_game(game_id, moves=60)):
        assert len(render_png(g, last_move=g.last_move)) <= 50 * 1024


@pytest.mark.parametrize("lengths", [[8] * 12, [96], [30, 30, 30], [48, 48], [0, 0, 31, 31, 31],
                                     [20, 20, 20, 20], [40, 0, 40], [0] * 12])
def test_a_corner_stones_picture_stays_within_its_shape_and_50_kb(lengths: list[int]) -> None:
    """The deal, the longest stacks, and everything gone: 9:16 to 2:1, 50 KB at most, in
    either deck, a banner or none."""
    game = positions.long_piles("corner-stones", lengths)
    for four_colour, no_win in ((True, False), (False, True)):
        png = render_png(game, last_move=game.last_move, options=PictureOptions(four_colour=four_colour, no_win=no_win))
        image = decode(png)
        assert 9 / 16 <= image.width / image.height <= 2, image.size
        assert len(png) <= 50 * 1024, len(png)


def _banner_colour_pixels(image: Image.Image, box: Box, colour: tuple[int, int, int]) -> int:
    crop = image.convert("RGB").crop((box.x, box.y, box.right, box.bottom))
    return sum(n for n, c in crop.getcolors(1 << 20) or [] if c == colour)


@pytest.mark.parametrize("game_id", GAMES)
def test_no_win_possible_shows_on_a_board_still_in_play(game_id: str) -> None:
    game = positions.mid_game(game_id)
    box = layout(game_id).banner
    assert _banner_colour_pixels(render_image(game, options=PictureOptions(no_win=True)), box, NO_WIN) > 3000
    assert _banner_colour_pixels(render_image(game), box, NO_WIN) == 0
    # A stuck board says it is stuck, whatever the solver says.
    stuck = render_image(positions.stuck(game_id), options=PictureOptions(no_win=True))
    assert _banner_colour_pixels(stuck, box, NO_WIN) == 0
    assert _banner_colour_pixels(stuck, box, STUCK) > 3000


def test_where_no_undo_can_help_the_banner_never_speaks_of_undo() -> None:
    """A deal proven lost (or a board with no move of the player's to undo) says so from
    the deal; a lost position the player moved to says "undo or start again"."""
    dealt = new_game("clover-leaf", 7)
    moved = positions.mid_game("clover-leaf")
    assert moved.own_moves
    assert banner_texts(dealt, options=PictureOptions(no_win=True)) == (
        ("No win is possible from this deal. Deal another.",
         "No win is possible from this deal", "No win possible"), NO_WIN)
    assert banner_texts(moved, options=PictureOptions(no_win=True, lost_as_dealt=True)) == banner_texts(
        dealt, options=PictureOptions(no_win=True))
    assert banner_texts(moved, options=PictureOptions(lost_as_dealt=True)) == banner_texts(dealt, options=PictureOptions(no_win=True))
    [undo, *_], _ = banner_texts(moved, options=PictureOptions(no_win=True)) or ((), NO_WIN)
    assert undo == "No win is possible from here. Undo or start again."
    stuck = positions.stuck("clover-leaf")  # set up, not played: nothing to undo
    said = banner_texts(stuck)
    assert said is not None
    assert said[0][0] == "Stuck: no move left, and no win was possible from this deal."
    for texts in (banner_texts(dealt, options=PictureOptions(no_win=True)), banner_texts(stuck)):
        assert texts is not None and not any("ndo" in t for t in texts[0])


@pytest.mark.parametrize("game_id", GAMES)
def test_a_resigned_board_carries_its_banner(game_id: str) -> None:
    """Resigned says so in its own colour, over what a stuck or lost board would say."""
    box = layout(game_id).banner
    playing = positions.mid_game(game_id)
    assert _banner_colour_pixels(render_image(playing, options=PictureOptions(resigned=True)), box, RESIGNED) > 3000
    assert _banner_colour_pixels(render_image(playing), box, RESIGNED) == 0
    for game in (positions.stuck(game_id), playing):
        gave_up = render_image(game, options=PictureOptions(no_win=True, resigned=True))
        assert _banner_colour_pixels(gave_up, box, RESIGNED) > 3000
        assert _banner_colour_pixels(gave_up, box, STUCK) == 0
        assert _banner_colour_pixels(gave_up, box, NO_WIN) == 0
    texts = banner_texts(playing, options=PictureOptions(resigned=True))
    assert texts is not None and texts[0][-1] == "Resigned"


@pytest.mark.parametrize("game_id", GAMES)
def test_a_win_with_hints_says_so(game_id: str) -> None:
    game = positions.won(game_id)
    plain, helped = render_image(game), render_image(game, options=PictureOptions(assisted=True))
    assert _banner_colour_pixels(helped, layout(game_id).banner, WON) > 3000
    assert ImageChops.difference(plain.convert("RGB"), helped.convert("RGB")).getbbox()
    assert banner_texts(game, options=PictureOptions(no_win=False, assisted=True))[0][-1] == "Won with hints"
    assert render_png(game, options=PictureOptions(assisted=False)) == render_png(game)


def _card_drawn_whole(image: Image.Image, code: int, spot: tuple[int, int]) -> bool:
    """Every pixel inside the card's outline is the card sprite's: drawn, and nothing over it."""
    x, y = spot
    drawn = image.crop((x, y, x + CARD_W, y + CARD_H)).convert("RGB")
    sprite = card_sprite(code, False).convert("RGB")
    mask = card_mask()
    diff = ImageChops.difference(drawn, sprite)
    return ImageChops.multiply(diff, mask.convert("RGB")).getbbox() is None


def _index_drawn(image: Image.Image, code: int, spot: tuple[int, int]) -> bool:
    """The strip of the card that shows under the next one (its rank and suit) is drawn
    as the card's sprite has it."""
    x, y = spot
    strip = (0, 0, CARD_W, tight_step())
    drawn = image.crop((x, y, x + CARD_W, y + tight_step())).convert("RGB")
    sprite = card_sprite(code, False).convert("RGB").crop(strip)
    mask = card_mask().crop(strip).convert("RGB")
    return ImageChops.multiply(ImageChops.difference(drawn, sprite), mask).getbbox() is None


@pytest.mark.parametrize(("game_id", "lengths"), [
    ("four-leaf-clovers", [46, 6]),
    ("four-leaf-clovers", [52]),
    ("corner-stones", [24, 30, 20, 22]),
    ("corner-stones", [96]),
    ("trefoil", [15, 15]),
])
def test_every_card_of_a_long_pile_shows_its_index_and_the_top_card_is_whole(
    game_id: str, lengths: list[int]
) -> None:
    """No card is hidden, however long the pile: each one's rank and suit are in sight,
    the top card whole, and all of it inside the picture."""
    game = positions.long_piles(game_id, lengths)
    image = render_image(game)
    lay, fans = board_layout(game, banner=game.is_stuck)
    dx = (image.width - lay.width) // 2  # Corner Stones: felt at the sides of a tall board
    for pile, slot, spread in zip(game.tableau, lay.piles, fans, strict=True):
        if not pile:
            continue
        assert len(spread.cards) == len(pile)
        for place, x, y in spread.cards:
            x += dx
            assert 0 <= x <= image.width - CARD_W and 0 <= y <= image.height - CARD_H
            assert _index_drawn(image, int(pile[place]), (x, y)), (slot.index, place)
        assert spread.top is not None
        top = (spread.top[0] + dx, spread.top[1])
        assert _card_drawn_whole(image, int(pile[-1]), top)
    assert_ends_at_its_cards(image)


@pytest.mark.parametrize("game_id", GAMES)
def test_the_longest_status_stays_in_the_title(game_id: str) -> None:
    """The largest deal number, the draw rule and a last move: nothing spills out of the title."""
    game = new_game(game_id, 42, draw=game_id == "trefoil")
    move = game.play(game.legal_moves()[0])
    longest = Game.from_dict(game.to_dict())
    longest.deal_number = MAX_DEAL
    longest.redeals_left = 0
    short, long = render_image(game, last_move=move), render_image(longest, last_move=move)
    title = layout(game_id).title
    assert _changed(short, long, title)
    assert _diff_outside(short, long, [title]) is None


@pytest.mark.parametrize("game_id", GAMES)
def test_the_banner_makes_its_room_only_when_shown(game_id: str) -> None:
    game = positions.mid_game(game_id)
    plain, warned = render_image(game), render_image(game, options=PictureOptions(no_win=True))
    assert plain.width == warned.width
    grown = 0 if game_id == "corner-stones" else layout(game_id).banner.h + 4
    if board_layout(game, banner=True)[0].at_ease == board_layout(game, banner=False)[0].at_ease:
        assert warned.height - plain.height == grown
    else:  # the banner's band makes the picture too tall for its piles at ease: tight
        assert warned.height - plain.height < grown
    assert_ends_at_its_cards(plain)


@pytest.mark.parametrize("game_id", GAMES)
def test_random_play_boards_end_at_their_cards_with_every_top_card_whole(game_id: str) -> None:
    """Positions as the benchmark plays them (long stacks included): nothing is cut off,
    nothing is left empty below, and every pile's top card is drawn whole and last."""
    for game in bench_positions(game_id, 12, seed=3):
        image = render_image(game, last_move=game.last_move)
        lay, fans = board_layout(game, banner=game.is_won or game.is_stuck)
        assert image.size == (lay.width, lay.height)
        assert_ends_at_its_cards(image)
        for pile, spread in zip(game.tableau, fans, strict=True):
            if pile and spread.top is not None:
                assert _card_drawn_whole(image, int(pile[-1]), spread.top)


@pytest.mark.parametrize("game_id", GAMES)
def test_every_foundations_top_card_is_drawn_whole(game_id: str) -> None:
    """Its progress line under it leaves the card's bottom edge alone."""
    for game in (positions.mid_game(game_id), positions.won(game_id)):
        image = render_image(game)
        lay = arranged(game)
        for fslot, pile in zip(lay.foundations, game.foundations, strict=True):
            if pile:
                assert _card_drawn_whole(image, int(pile[-1]), (fslot.card.x, fslot.card.y))
