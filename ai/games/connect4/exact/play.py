"""Connect-4's perfect play: the exact analysis's best move (``analysis``
with ``best_only``: the position solved once, Pons' way; the opening book where it knows).
Pons' score counts the winner's stones, so its best move wins fastest and loses slowest.

The same link, the same reply: the analysis is ``fresh``, the solver starting from an empty
table and the table of solved positions not read, so that a position gets the same move
whatever the worker did before (a warm table would change which of several moves of equal
score is named, and, within a node budget, whether the value is proven at all).

Bounded like every level: when the budget runs out before the value is proven (a large
board), the ``fallback`` level's move is played and the result says ``complete=False``.

``exact_within``: the hard and expert levels' first try, the solver within a count of nodes
from an empty table (``ai.levels``).
"""
from __future__ import annotations

import collections
import time

from ai.course.scores import MAX_SCORE, SearchResult, SearchStats

from . import opening_book
from .analysis import analyse_position
from .solver_fast import FastSolver

ALGORITHM = "exact"     # as ai.perfect names it


def pons_to_value(score: int, plies: int, cells: int) -> int:
    """Pons' score (side to move, ``plies`` stones on the board) on the app's scale: a win
    ``p`` plies ahead is ``MAX_SCORE - p``, a loss ``-(MAX_SCORE - p)``, a draw 0."""
    if score > 0:
        k = (cells + 1 - plies) // 2 - score + 1      # the mover's k-th move wins
        return MAX_SCORE - (2 * k - 1)
    if score < 0:
        k = (cells - plies) // 2 + score + 1          # the opponent's k-th move wins
        return -(MAX_SCORE - 2 * k)
    return 0


def exact_play(game, state, *, time_limit: float | None = 1.0, max_nodes: int | None = None,
               fallback=None) -> SearchResult:
    """The perfect move in ``state`` (``Connect4.exact_play``; see the module's text).

    Returns:
        a ``SearchResult`` without tree: the move, its value on the app's scale
        (``pons_to_value``), ``complete=False`` when the budget ran out first.
    """
    if game.is_terminal(state):
        return SearchResult(None, 0, (), SearchStats(), ALGORITHM, None)
    start = time.perf_counter()
    a = analyse_position(state.current, state.mask, state.moves, game.width, game.height,
                         time_limit=time_limit, max_nodes=max_nodes, best_only=True, fresh=True)
    stats = SearchStats(nodes=a.nodes, elapsed=time.perf_counter() - start)
    if a.best_move is not None and a.score is not None:
        value = pons_to_value(a.score, state.moves, game.cells)
        return SearchResult(a.best_move, value, (a.best_move,), stats, ALGORITHM, None,
                            root_values={a.best_move: value})
    if fallback is not None:
        r = fallback.play(game, state)
        stats.nodes += r.stats.nodes
        stats.elapsed = time.perf_counter() - start
        return SearchResult(r.move, r.value, r.pv, stats, ALGORITHM, None, complete=False)
    move = next(c for c in game.center_order if c in game.actions(state))
    return SearchResult(move, 0, (move,), stats, ALGORITHM, None, complete=False)


# -- the exact solver within a count of nodes (the hard and expert levels' first try) -----------

# Solvers with a small table (~0.7 MB), lent to one budgeted solve at a time and emptied before
# each: a budgeted solve proves the same positions whatever the worker solved before.
_BUDGET_SLOTS = 131_101          # the first prime above 2**17: 7x6 keys fit the kernel (fits)
_idle: dict[tuple, collections.deque] = collections.defaultdict(collections.deque)


def exact_within(game, state, max_nodes: int) -> SearchResult | None:
    """The exact solver's move in ``state`` if it proves the value within ``max_nodes`` nodes
    (the opening book counts as proof), else None (``Connect4.exact_within``). From an empty
    table every time, without the table of solved positions and without a clock: the same
    position always gives the same answer, on any machine, whatever was solved before."""
    if game.is_terminal(state):
        return None
    size = (game.width, game.height)
    try:
        solver = _idle[size].pop()
    except IndexError:
        solver = FastSolver(*size, book=opening_book.shared(), table_slots=_BUDGET_SLOTS)
    try:
        solver.reset()
        start = time.perf_counter()
        r = solver.solve_bitboard(state.current, state.mask, state.moves, max_nodes=max_nodes)
    finally:
        _idle[size].append(solver)
    if not r.complete:
        return None
    value = pons_to_value(r.score, state.moves, game.cells)
    stats = SearchStats(nodes=r.nodes, elapsed=time.perf_counter() - start)
    return SearchResult(r.best_move, value, (r.best_move,), stats, ALGORITHM, None,
                        root_values={r.best_move: value})
