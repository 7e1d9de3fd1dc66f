"""The perfect player ("parfait"): a move that keeps the game-theoretic value, the quickest win
or the slowest loss, from the first move.

- Connect-4: the exact analysis's best move (``ai.analysis`` with ``best_only``: the position
  solved once, Pons' way; the opening book where it knows). Pons' score counts the winner's
  stones, so its best move wins fastest and loses slowest. The analysis is ``fresh``: the
  solver starts from an empty table and the table of solved positions is not read, so that
  the same position gets the same move whatever the worker did before (among moves of
  equal score, which one is named depends on the table's contents; within a node budget, so
  does whether the value is proven at all).
- Nim: its theory (``ai.heuristics``' exact evaluation, one ply deep: take what leaves the
  opponent a losing count).
- Any other game: alpha-beta to the end.

Bounded like every level: when the budget runs out before the value is proven (a large
board), the ``hard`` level's move is played and the result says ``complete=False``.
"""
from __future__ import annotations

import time

from .analysis import analyse_position
from .connect4 import Connect4
from .engine import search
from .heuristics import make_heuristic
from .nim import Nim
from .scores import MAX_SCORE, SearchResult, SearchStats

ALGORITHM = "exact"


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


def perfect_play(game, state=None, *, time_limit: float = 1.0, max_nodes: int | None = None,
                 fallback=None, **_search_options) -> SearchResult:
    """The perfect move in ``state`` (the initial state if None). ``fallback``: the level whose
    move is played when the budget runs out first (a ``Level``; default none: the first
    move the analysis would try). Search options meant for the other levels (depth, record,
    heuristic...) are ignored: there is no depth, and no tree to draw."""
    state = game.initial_state() if state is None else state
    if isinstance(game, Nim):
        return search("alphabeta", game, state, 1, heuristic=make_heuristic(game, "exact"),
                      time_limit=time_limit, max_nodes=max_nodes)
    if not isinstance(game, Connect4):
        return search("alphabeta", game, state, None, time_limit=time_limit, max_nodes=max_nodes)
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
