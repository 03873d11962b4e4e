"""A game a player asked to be dealt — a deal, or a proven-winnable one; Trefoil's draw
rule; the challenge it is played for — and how a question's buttons carry it (short
tokens of letters, digits and dashes: ``7:trefoil:42:draw:c12``)."""

from __future__ import annotations

from dataclasses import dataclass

WINNABLE = "winnable"  # the deal token of a proven-winnable deal, chosen on yes
DRAW = "draw"
CHALLENGE = "c"  # the prefix of a challenge's id


@dataclass(frozen=True)
class Wanted:
    game_id: str
    deal: int | None  # None: a proven-winnable deal, taken only when it is dealt
    draw: bool = False
    challenge: int | None = None

    def tokens(self) -> tuple[str, ...]:
        """Its buttons' arguments, after the game it would replace."""
        tokens = [self.game_id, WINNABLE if self.deal is None else str(self.deal)]
        if self.draw:
            tokens.append(DRAW)
        if self.challenge is not None:
            tokens.append(f"{CHALLENGE}{self.challenge}")
        return tuple(tokens)

    @classmethod
    def from_tokens(cls, tokens: tuple[str, ...]) -> Wanted | None:
        """What ``tokens`` carried, or None if they are not what ``tokens()`` makes."""
        if len(tokens) < 2 or not (tokens[1].isdigit() or tokens[1] == WINNABLE):
            return None
        challenge = None
        for extra in tokens[2:]:
            if extra.startswith(CHALLENGE) and extra[1:].isdigit():
                challenge = int(extra[1:])
            elif extra != DRAW:
                return None
        deal = None if tokens[1] == WINNABLE else int(tokens[1])
        return cls(tokens[0], deal, DRAW in tokens[2:], challenge)
