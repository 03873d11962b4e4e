"""What a board's picture is told besides its game and its words, in one value: how the
player likes the cards drawn, and what the banner (and the alt text) says of the game."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class PictureOptions:
    four_colour: bool = False  # clubs green and diamonds blue
    no_win: bool = False  # the solver proved that no win is possible from here
    lost_as_dealt: bool = False  # ... from the deal itself: no word of undo
    assisted: bool = False  # a win with hints
    resigned: bool = False  # the player gave the game up (said over stuck or no win)


PLAIN = PictureOptions()  # red and black cards, and nothing said of the game
