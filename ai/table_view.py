"""The transposition table made visible (seed 004's "AlphaBeta avec mémoire"): how a
Connect-4 position's Zobrist key is made, and what a search left in its table.

Plain data for a page: no Flask here.
"""
from __future__ import annotations

from dataclasses import dataclass

from .connect4 import Connect4
from .scores import EXACT, LOWER, UPPER
from .search import TranspositionTable, alphabeta_tt

BOUNDS = {EXACT: "exact", LOWER: "lower", UPPER: "upper"}


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
class Entry:
    move: object        # the move from the searched position (None: the position itself)
    key: int
    depth: int          # the depth left when it was stored
    bound: str          # "exact", "lower" (value >= it), "upper" (value <= it)
    value: float        # from the side to move at that position
    best: object        # the best move it found there, or None


def searched_table(game, state, depth: int, heuristic, max_nodes: int):
    """Alpha-beta with a fresh table to ``depth`` (the course's algorithm), and the table's
    entries for the position and each of its children."""
    table = TranspositionTable()
    result = alphabeta_tt(game, state, depth, heuristic=heuristic, table=table,
                          max_nodes=max_nodes)
    entries = []
    for move in [None] + list(game.actions(state)):
        position = state if move is None else game.result(state, move)
        e = table.data.get(game.key(position))
        if e is not None:
            entries.append(Entry(move, game.key(position), e[0], BOUNDS[e[1]], e[2], e[3]))
    return result, len(table), entries
