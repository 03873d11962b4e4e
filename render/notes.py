"""The rules in a line or two, printed on each board so a newcomer can play from it."""

from __future__ import annotations

NOTES: dict[str, str] = {
    "clover-leaf": (
        "Only the last card of a column moves. It goes on a card of its own suit one rank "
        "higher or lower (A and K don't touch), or up to its foundation: f1, f2 build up from A, "
        "f3, f4 down from K. An emptied column stays empty."
    ),
    "four-leaf-clovers": (
        "Only the last card of a column moves. It goes on any card one rank higher or lower, "
        "whatever the suit; K and A touch. f1 starts with any A and builds up whatever the "
        "suit, K then A again, until it holds all 52 cards. An emptied column stays empty."
    ),
    "super-flower-garden": (
        "Only the last card of a column moves. It goes on any card exactly one rank higher, "
        "whatever the suit, or up to its foundation (by suit, A to K). An emptied column stays "
        "empty. Redeal gathers every column and deals them again in threes."
    ),
    "trefoil": (
        "Only the last card of a column moves. It goes on the next higher card of its own "
        "suit, or up to its foundation (by suit, A to K). An emptied column stays empty. "
        "Redeal gathers every column and deals them again in threes."
    ),
    "corner-stones": (
        "Only a stack's right-most card moves: onto any card one rank higher or lower, whatever "
        "the suit; K and A touch. A side stack (S1-S8) feeds only the foundations in its own row; "
        "a corner stone (C1-C4) feeds any, and an empty one takes any card."
    ),
}


def move_help(game_id: str) -> str:
    """How to type a move, with a foundation the game has."""
    if game_id == "corner-stones":
        return "Move: 3 7 puts stack 3's card on stack 7; 3 f1 puts it on f1."
    foundation = "f1" if game_id == "four-leaf-clovers" else "f2"
    return f"Move: 7 3 puts pile 7's card on pile 3; 7 {foundation} puts it on {foundation}."
