"""A player's side of a game: the test's own engine copy of the position, and what a board
message must show for it.

The test plays like a person who keeps the game in their head: it knows the game and deal
it asked for and the moves it made, so it can tell what the bot's board must offer next.
"""

from __future__ import annotations

import io
from dataclasses import dataclass, field

from PIL import Image

import engine
from engine import DRAW, FOUNDATION, REDEAL, Game

from .fake_discord import MessageState, Reply, is_png

MENU_LIMIT = 25  # Discord's most options in a select menu


def move_options(move_text: str) -> dict[str, str]:
    """The /move options for a move text: ``"7 3"`` -> from 7 to 3; ``"redeal"`` -> from."""
    parts = move_text.split()
    if len(parts) == 2:
        return {"from": parts[0], "to": parts[1]}
    return {"from": move_text}


def check_png(blob: bytes) -> Image.Image:
    """A picture Discord would show: a real PNG of a plausible size for a card layout."""
    assert is_png(blob), "the attachment is not a PNG"
    assert 2_000 < len(blob) < 8 * 1024 * 1024, f"a {len(blob)}-byte picture is implausible"
    Image.open(io.BytesIO(blob)).verify()
    image = Image.open(io.BytesIO(blob))
    image.load()
    width, height = image.size
    assert 360 <= width <= 4096 and 250 <= height <= 4096, f"picture of {width}x{height}"
    return image


def board_of(reply: Reply | MessageState) -> MessageState:
    state = reply.message if isinstance(reply, Reply) else reply
    assert state is not None
    return state


@dataclass
class Mirror:
    """The test's own copy of a game, kept in step with what it asks the bot to do."""

    game_id: str
    deal: int
    game: Game = field(init=False)

    def __post_init__(self) -> None:
        self.game = engine.new_game(self.game_id, self.deal)

    @property
    def finished(self) -> bool:
        return self.game.is_won or self.game.is_stuck

    def menu_values(self) -> list[str]:
        """The move menu a board must carry: legal moves but redeal, foundation moves first;
        when they are more than a menu holds, the foundation moves and then "pick N" for
        each pile with other moves (whose choice lists that pile's moves)."""
        moves = [m for m in self.game.legal_moves() if m.kind != REDEAL]
        if len(moves) <= MENU_LIMIT:
            return [str(m) for m in moves]
        values = [str(m) for m in moves if m.kind == FOUNDATION]
        piles = set()
        for move in moves:
            if move.kind == FOUNDATION:
                continue
            if move.kind == DRAW:
                piles.add(next(i for i, p in enumerate(self.game.tableau) if move.card in p))
            else:
                piles.add(move.src)
        return values + [f"pick {p + 1}" for p in sorted(piles)]

    def foundation_moves_win(self) -> bool:
        """Whether foundation moves alone would win from here (Auto-finish's condition)."""
        trial = self.game.copy()
        while not trial.is_won:
            up = [m for m in trial.legal_moves() if m.kind == FOUNDATION]
            if not up:
                return False
            trial.play(up[0])
        return not self.game.is_won

    def foundation_moves(self) -> list[str]:
        return [str(m) for m in self.game.legal_moves() if m.kind == FOUNDATION]

    def first_move(self, *, kind: int | None = None) -> str:
        return next(
            str(m)
            for m in self.game.legal_moves()
            if m.kind != REDEAL and (kind is None or m.kind == kind)
        )

    def play(self, text: str) -> None:
        self.game.play(text)

    def check_board(self, reply: Reply | MessageState, owner_id: int) -> MessageState:
        """The board shows this position: picture, status line, buttons and move menu."""
        board = board_of(reply)
        game = self.game
        assert not board.ephemeral, "a board is public"
        assert len(board.pngs) == 1, f"a board carries one picture, not {len(board.pngs)}"
        check_png(board.pngs[0])
        assert game.name in board.text and f"deal {self.deal}" in board.text, board.text
        assert f"{game.moves_made} move" in board.text, board.text
        playing = not game.is_won  # a stuck game still offers Undo and Hint
        enabled = {b.label: not b.disabled for b in board.buttons}
        assert enabled == {
            "Undo": playing and game.can_undo,
            "Redo": playing and game.can_redo,
            "To foundations": playing and bool(self.foundation_moves()),
            "Redeal": playing and game.redeals_left > 0,
            "Hint": playing,  # a stuck game too: how far to undo
            "Auto-finish": playing and self.foundation_moves_win(),
        }, f"buttons {enabled} for {game.moves_made} moves, {game.redeals_left} redeals left"
        menu = board.select
        if playing and self.menu_values():
            assert not menu.disabled
            assert menu.values == self.menu_values()
            assert all(1 <= len(label) <= 100 for label in menu.option_labels)
        else:
            assert menu.disabled, "an empty move menu is disabled"
        assert all(str(owner_id) in cid for cid in board.custom_ids), board.custom_ids
        return board
