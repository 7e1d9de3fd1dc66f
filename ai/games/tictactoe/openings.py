"""Tic-tac-toe's tournament openings, which its rules give the shared tournament
(``ai.teach.tournament``) through their hook ``tournament_openings``; this module never
imports the rules, which call it (it plays the cells on the position itself).

Two plies, a mark of each, as Connect-4's, so that the first moves, which a depth-limited
search always plays the same, differ between the openings. Of the 72 two-ply positions, 12
remain up to the board's 8 symmetries (each written by its first image in the order of the
moves: ``15`` for the four corners answered by the centre); the solved game (``solver``)
scores 5 of them draws: those come first, the most central first (the sum of both cells'
places in the centre-first order, ``board.CENTER_ORDER``), then by their moves. The 7 others
are wins for X, which plays them first in one game of each pair and second in the other.
A small tournament: 30 entrants at depth 4 from 2 openings is 1,740 games of at most 7 moves,
seconds for a class (``bench/bench_tournament.py --game tictactoe``).
"""
from __future__ import annotations

from functools import lru_cache

from .board import CENTER_ORDER, TicTacToeState, canonical_key
from .solver import solve

OPENING_PLIES = 2
MAX_OPENINGS = 12               # the two-ply positions up to symmetry (``candidates``)


@lru_cache(maxsize=1)
def candidates() -> tuple[tuple[str, int], ...]:
    """Every two-ply opening up to symmetry with its exact outcome for the side to move (+1
    a win, 0 a draw, -1 a loss), in the order the tournament takes them."""
    seen, out = set(), []
    for a in range(9):
        for b in range(9):
            if a == b:
                continue
            state = TicTacToeState(0, 0).play(a).play(b)
            key = canonical_key(state)
            if key in seen:
                continue
            seen.add(key)
            outcome, _ = solve(state)
            out.append((f"{a + 1}{b + 1}", outcome,        # as the links write moves
                        CENTER_ORDER.index(a) + CENTER_ORDER.index(b)))
    out.sort(key=lambda m: (abs(m[1]), m[2], m[0]))
    return tuple((m, s) for m, s, _ in out)


def openings(k: int) -> list[dict]:
    """The first ``k`` openings (``candidates``): each ``moves`` and its exact ``score``."""
    most = len(candidates())
    if isinstance(k, bool) or not isinstance(k, int) or not 1 <= k <= most:
        raise ValueError(f"the number of openings is a whole number from 1 to {most}, "
                         f"not {k!r}")
    return [{"moves": m, "score": s} for m, s in candidates()[:k]]
