"""How a Connect-4 position's Zobrist key is made (seed 004): one random 64-bit number per
player and cell, the key their XOR over the stones, updated by one XOR per move. Plain data for
the table page and the step-by-step table."""
from __future__ import annotations

from dataclasses import dataclass

@dataclass(frozen=True)
class ZobristTerm:
    col: int            # 0-indexed
    row: int            # 0 at the bottom
    player: int         # 0 yellow (J0), 1 red (J1)
    number: int         # the random 64-bit number of this player on this cell


def zobrist_terms(game: Connect4, state) -> list[ZobristTerm]:
    """One random number per stone: the key is their XOR (``state.key``, updated by one XOR
    per move; a test checks the two agree)."""
    terms = []
    for col in range(game.width):
        for row in range(game.height):
            player = game.cell(state, col, row)
            if player is not None:
                terms.append(ZobristTerm(col, row, player,
                                         game.zobrist[player][col * game.h1 + row]))
    return terms


@dataclass(frozen=True)
class ZobristStep:
    """One move's change of the key: ``after = before XOR number``, ``number`` being the
    random number of the player who moves on the cell the stone falls to."""
    before: int
    number: int
    after: int
    col: int            # 0-indexed
    row: int            # 0 at the bottom
    player: int         # 0 yellow (J0), 1 red (J1)


def zobrist_step(game: Connect4, state, move) -> ZobristStep:
    """How playing ``move`` in ``state`` changes the position's key (``Connect4.result``
    does this XOR; the step shows it)."""
    after = game.result(state, move)
    index = (after.mask ^ state.mask).bit_length() - 1     # the bit of the new stone
    player = game.to_move(state)
    return ZobristStep(state.key, game.zobrist[player][index], after.key,
                       index // game.h1, index % game.h1, player)
