"""The exact score of every column of a Connect-4 position: what the hints, the perfect level
and ``python -m ai analyse`` show.

Scores are Pons' (``solver``), from the side to move: playing this column leads, with
perfect play on both sides, to a draw (0), a win with the mover's ``22 - s``-th stone (``s >
0`` on 7x6), or a loss (``s < 0``). Each column's score comes from the first of these that
knows it:

1. ``rules``: the column wins at once, lets the opponent win at once, or fills the board;
2. ``table``: the persistent table of solved positions (``solved_store``), shared by the
   server's workers and the command line;
3. ``book``: the opening book, for the positions of 12 stones (``opening_book``);
4. ``search``: the compiled solver (``solver_fast``), which probes the book at 12 stones.

**The best move first.** The position itself is solved first (one null-window search, Pons'
way): that gives its score and a column that reaches it, which is the first answer (the perfect
level needs nothing more: ``best_only``). Every other column is then solved knowing it cannot
score more than the best (a narrower window), centre first, its first null-window probes
asking whether it reaches the best score, then the one below (most columns score one of
those two: 6-9% fewer nodes at plies 12-14 than Pons' probe order, bench/bench_analysis.py).
A position that is its own mirror image (the empty board, "4", "44"...) has each pair of
mirror columns searched once.

**One stone past the book** (13 stones on 7x6) a position's other parents are in the book: a
parent P (the last mover's top stone of a column taken away) has the position among its
children, so the position scores at least ``-score(P)`` (``book_parents_bound``). At 12
stones each column's probes start from the tightest of those bounds, which is the column's
score half the time (Pons' 13-stone positions: 150 of 309), and the columns that may reach
the best score are searched first; at 13 stones the position's own search starts from it.
Ply 12 needed ~27% fewer nodes in all, and ~23% fewer before the best move is known
(bench/bench_analysis.py).

**Compiled** (``analysis_kernel.columns``): the whole loop in one call of machine code when
the solver is compiled (every board up to 7x6, 8x6...); ``_analyse_reference`` is its
readable twin, step for step and node for node (the tests compare them), and analyses the
boards the kernel does not take.

**The same link, the same reply** (``fresh``, what the perfect level asks): the solver's table
emptied first and the table of solved positions not read, so that the answer, within a node
budget too, does not depend on what the process analysed before.

**Bounded.** ``time_limit`` and ``max_nodes`` cover the whole analysis; ``then_time_limit``
bounds, in addition, the time spent on the other columns once the best move is known (the
hints answer the best move at once and the rest in a second request when that runs out).
When they run out, a column not solved keeps the interval proven so far (``lower <= score <=
upper``), never a guess. Every exact score found is added to the table.
"""
from __future__ import annotations

import math
import os
import threading
import time
from contextlib import contextmanager
from typing import NamedTuple

import numpy as np

from . import analysis_kernel as AK
from . import opening_book
from . import solver_kernel as K
from .analysis_kernel import SOURCES
from ..bitboard import geometry, non_losing, winning_cells
from .solved_store import SolvedStore, default_path
from .solver import parse_moves
from .solver_fast import FastSolver
from .solver_fast import warm_up as compile_solver

DEFAULT_TIME_LIMIT = 3.0      # seconds: the web's hints and the command line's default


class ColumnScore(NamedTuple):
    """One column: its exact score when known, else the interval proven. (Named tuples, this
    and :class:`Analysis`: immutable, and made in a fraction of a frozen dataclass's time,
    which counted at 11 stones, where an analysis takes ~20 µs.)"""

    column: int               # 0-indexed
    lower: int
    upper: int
    source: str               # "rules", "table", "book", "search", or "" when not solved
    nodes: int = 0

    @property
    def exact(self) -> bool:
        return self.lower == self.upper

    @property
    def score(self) -> int | None:
        return self.lower if self.exact else None


class Analysis(NamedTuple):
    """Every column of a position (None for a full one), and how the answer was found."""

    moves: str
    width: int
    height: int
    plies: int
    columns: tuple            # ColumnScore | None, one per column
    best_move: int | None     # 0-indexed column reaching the position's score (None: unknown)
    score: int | None         # the position's exact score, when known
    nodes: int
    elapsed: float            # seconds, the whole analysis
    best_elapsed: float       # seconds until the best move was known
    complete: bool            # every open column has its exact score

    @property
    def scores(self) -> list[int | None]:
        """One value per column: its exact score, None for a full or unsolved column."""
        return [None if c is None else c.score for c in self.columns]

    def as_dict(self) -> dict:
        return {"moves": self.moves, "width": self.width, "height": self.height,
                "scores": self.scores,
                "intervals": [None if c is None else [c.lower, c.upper] for c in self.columns],
                "sources": [None if c is None else c.source for c in self.columns],
                "best_move": None if self.best_move is None else self.best_move + 1,
                "score": self.score, "complete": self.complete, "nodes": self.nodes,
                "elapsed_ms": round(self.elapsed * 1000, 3),
                "best_ms": round(self.best_elapsed * 1000, 3)}


# -- the solvers and the table of one process ---------------------------------------------------

# Solvers, each with its ~10 MB table, lent to one analysis at a time: a process makes as many
# as it runs analyses at once (the server's admission lanes bound that), and keeps at most
# ``IDLE_SOLVERS`` of them when they are given back (the most recently used: its table the
# warmest); the others are dropped, their tables freed, so that a burst of concurrent
# analyses does not leave a worker 40 tables larger for the rest of its life.
IDLE_SOLVERS = 1
_idle: list[FastSolver] = []
_idle_lock = threading.Lock()
_stores: dict[str, SolvedStore] = {}


#: Slots of an analysis's table: a prime near 2**21 (~10 MB), a quarter of the solver's
#: default (``solver_fast.DEFAULT_TABLE_SLOTS``, Pons' size, for the long solves of the
#: command line). The analysis's searches (at most ~10 M nodes, past the book) need 2-3% more
#: nodes with it than with the larger table, but take ~20% less time: a table that fits in
#: the processor's cache (32 MB here, shared) misses it less (bench/bench_analysis.py).
ANALYSIS_TABLE_SLOTS = K.SLOTS_7X6     # (the search is compiled for it: solver_kernel)


def table_slots() -> int:
    """``SOLVER_TABLE_SLOTS`` (a prime is best), else ``ANALYSIS_TABLE_SLOTS``."""
    return int(os.environ.get("SOLVER_TABLE_SLOTS", ANALYSIS_TABLE_SLOTS))


def _borrow(width: int, height: int, use_book: bool) -> FastSolver:
    with _idle_lock:
        for i in range(len(_idle) - 1, -1, -1):
            if _idle[i].pool_key == (width, height, use_book):
                return _idle.pop(i)
    book = opening_book.shared() if use_book else None
    s = FastSolver(width, height, book=book, table_slots=table_slots())
    s.pool_key = (width, height, use_book)
    s.columns = np.zeros((AK.ROWS, width), dtype=np.int64)    # analysis_kernel.columns' array
    return s


def _give_back(s: FastSolver, use_book: bool = True) -> None:
    with _idle_lock:
        _idle.append(s)
        del _idle[:-IDLE_SOLVERS or len(_idle)]


@contextmanager
def solver_for(width: int, height: int, use_book: bool = True):
    """A solver of this process's (``FastSolver``, the opening book's when ``use_book``),
    lent for the ``with`` block: the review's score of one position."""
    s = _borrow(width, height, use_book)
    try:
        yield s
    finally:
        _give_back(s, use_book)


def idle_solvers() -> int:
    """How many solvers (and their tables) this process keeps between analyses."""
    return len(_idle)


def store_at(path: str | None) -> SolvedStore | None:
    """The store at ``path`` (one object per path in a process), None for no store."""
    if not path:
        return None
    if path not in _stores:
        _stores[path] = SolvedStore(path)
    return _stores[path]


_chosen: list[str | None] = []      # use_store's path, when a program chose one


def use_store(path: str | None) -> None:
    """Make ``path`` the default table of solved positions of this process (the web app
    passes its instance folder's); None, "" or "off": no table."""
    _chosen[:] = [None if path in (None, "", "off") else path]


def default_store() -> SolvedStore | None:
    """The table chosen by ``use_store``, else ``solved_store.default_path()``'s."""
    return store_at(_chosen[0] if _chosen else default_path())


# -- the analysis -----------------------------------------------------------------------------

def _mirror(x: int, g) -> int:
    out = 0
    for c in range(g.width):
        out |= ((x >> (c * g.h1)) & ((1 << g.height) - 1)) << ((g.width - 1 - c) * g.h1)
    return out


def table_key(current: int, mask: int, g) -> int:
    """The key of a position in the table: the smaller of its own and its mirror image's."""
    return min(current + mask, _mirror(current, g) + _mirror(mask, g))


class _Budget:
    def __init__(self, deadline, max_nodes):
        self.deadline = deadline
        self.nodes_left = max_nodes

    def left(self) -> tuple[float | None, int | None]:
        t = None if self.deadline is None else max(0.0, self.deadline - time.perf_counter())
        return t, self.nodes_left

    def narrow(self, seconds: float | None) -> None:
        """No more than ``seconds`` from now (None: no change)."""
        if seconds is not None:
            until = time.perf_counter() + seconds
            self.deadline = until if self.deadline is None else min(self.deadline, until)

    def spend(self, nodes: int) -> None:
        if self.nodes_left is not None:
            self.nodes_left = max(0, self.nodes_left - nodes)


def analyse(moves: str = "", width: int = 7, height: int = 6, *, time_limit: float | None =
            DEFAULT_TIME_LIMIT, max_nodes: int | None = None, best_only: bool = False,
            store: SolvedStore | None | str = "default", use_book: bool = True,
            then_time_limit: float | None = None, fresh: bool = False) -> Analysis:
    """Every column's exact score in the position after ``moves``.

    Args:
        moves: 1-indexed columns played from the empty board (``""`` or ``"-"``: empty board).
        width, height: board size, 4 to 9 each (the book serves 7x6 only).
        time_limit, max_nodes: budgets of the whole analysis (None: none).
        best_only: stop once the best move and the position's score are known.
        then_time_limit: seconds for the other columns once the best move is known (None:
            what is left of ``time_limit``).
        store: a ``SolvedStore``, None for none, or "default" for ``default_store()``.
        use_book: probe the opening book (7x6).
        fresh: the same answer whatever this process analysed before (a preset level's
            reply: the same link, the same reply): the solver starts from an empty table and
            the table of solved positions is not read (what it learns is still written).
            Without it a warm table changes only the time, and which of several columns of
            equal score is named best; within a budget, also how far the analysis gets.

    Returns:
        An :class:`Analysis`.

    Raises:
        ValueError: a bad move string or board size, or a game already over.
    """
    start = time.perf_counter()
    moves = "" if moves.strip() == "-" else moves.strip()
    current, mask, nb = parse_moves(moves, width, height)
    return analyse_position(current, mask, nb, width, height, time_limit=time_limit,
                            max_nodes=max_nodes, best_only=best_only, store=store,
                            use_book=use_book, moves=moves, start=start,
                            then_time_limit=then_time_limit, fresh=fresh)


def analyse_position(current: int, mask: int, plies: int, width: int = 7, height: int = 6, *,
                     time_limit: float | None = DEFAULT_TIME_LIMIT, max_nodes: int | None = None,
                     best_only: bool = False, store: SolvedStore | None | str = "default",
                     use_book: bool = True, moves: str = "", start: float | None = None,
                     then_time_limit: float | None = None, fresh: bool = False) -> Analysis:
    """:func:`analyse` for a position given as Pons' bitboards (``current``: the side to move;
    ``ai.games.connect4.rules.C4State`` has them)."""
    # (plain values down to the kernel, few steps of Python: at 9-11 stones an analysis is
    # ~30 µs when another process has flushed the caches, and each step costs then)
    start = time.perf_counter() if start is None else start
    if isinstance(store, str):          # "default"
        store = default_store()
    deadline = None if time_limit is None else start + time_limit
    solver = _borrow(width, height, use_book)
    try:
        if not (solver.compiled and type(current) is int and type(mask) is int
                and type(plies) is int and 0 <= current < _FITS and 0 <= mask < _FITS):
            solver._validate(current, mask, plies)     # (else the kernel checks the position)
        if fresh:
            solver.reset()              # ~0.1 ms: the table's values only
        run = _analyse_compiled if solver.compiled else _analyse_reference
        return run(solver, moves, current, mask, plies, deadline, max_nodes, best_only, store,
                   start, then_time_limit, read_store=not fresh)
    finally:
        _give_back(solver, use_book)


_geometries = {(7, 6): geometry(7, 6)}


def _geometry(width: int, height: int):
    """The board's constants (``bitboard.geometry``), made once a size."""
    g = _geometries.get((width, height))
    if g is None:
        g = _geometries[width, height] = geometry(width, height)
    return g


_new = tuple.__new__
_FITS = 1 << 62                         # bitboards the kernel takes


def _analyse_compiled(solver, moves, current, mask, nb, deadline, max_nodes, best_only, store,
                      start, then_time_limit=None, read_store=True) -> Analysis:
    """The analysis in one compiled call (``analysis_kernel.columns``), the steps of
    :func:`_analyse_reference`; only the table of solved positions is read and written here."""
    # (lean on purpose: at 9-11 stones the analysis is ~20 µs, and each step of Python or
    # numpy costs ~10 µs when other work has evicted the caches: the kernel zeroes its arrays;
    # without a table of solved positions, no geometry, no dictionaries)
    cols = solver.columns
    prefilled, parent_stored = False, AK.NO_SCORE
    if store is not None:
        g = _geometry(solver.width, solver.height)
        stored = {}
        possible, opponent = (mask + g.bottom) & g.board, current ^ mask
        keys = {c: table_key(opponent, mask | (possible & g.colmask[c]), g)
                for c in g.order if possible & g.colmask[c]}
        parent_key = table_key(current, mask, g)
        if read_store:
            stored = store.get_many(g.width, g.height, [*keys.values(), parent_key])
        cols.fill(0)
        for c, k in keys.items():
            if k in stored:
                cols[:, c] = (-stored[k], -stored[k], AK.SRC_TABLE, 0, 1, 0)
        prefilled, parent_stored = bool(stored), stored.get(parent_key, AK.NO_SCORE)
    best, score, best_clock, complete, nodes = AK.columns(
        current, mask, nb, cols, prefilled, parent_stored, best_only,
        math.inf if then_time_limit is None else then_time_limit,
        K.NO_LIMIT if max_nodes is None else max_nodes,
        math.inf if deadline is None else deadline, solver._ctx)
    if best == AK.INVALID:
        solver._validate(current, mask, nb)         # says what is wrong with the position
        raise ValueError("not a position")
    lower, upper, source, col_nodes, open_col, _ = cols.tolist()
    # (the named tuples made by tuple.__new__, in C: their own constructors run Python code,
    # ~1 µs each when the caches are cold, and there are eight; a loop, not a list
    # comprehension, which in this Python is a function of its own: ply 11 cold, 30-34 µs
    # against 28-31 µs, interleaved)
    width = solver.width
    columns = []
    for c in range(width):
        columns.append(_new(ColumnScore, (c, lower[c], upper[c], SOURCES[source[c]],
                                          col_nodes[c])) if open_col[c] else None)
    columns = tuple(columns)
    score = None if score == AK.NO_SCORE else score
    if store is not None:
        _learn(store, g, columns, keys, parent_key, stored, score)
    elapsed = time.perf_counter() - start
    return _new(Analysis, (moves, width, solver.height, nb, columns, None if best < 0 else best,
                           score, nodes, elapsed,
                           elapsed if best_clock < 0 else best_clock - start, complete))


def _analyse_reference(solver, moves, current, mask, nb, deadline, max_nodes, best_only, store,
                       start, then_time_limit=None, read_store=True) -> Analysis:
    """The analysis step by step in Python: the readable twin of ``analysis_kernel.columns``
    (the tests compare them), and the analysis of the board sizes the kernel does not take."""
    g = _geometry(solver.width, solver.height)
    budget = _Budget(deadline, max_nodes)
    AREA = g.cells
    possible = (mask + g.bottom) & g.board
    opponent = current ^ mask
    # Children: the column, its move bit, and the child position (the opponent to move).
    children = {c: possible & g.colmask[c] for c in g.order if possible & g.colmask[c]}
    found: dict[int, ColumnScore] = {}
    nodes = 0
    wins_now = winning_cells(current, mask, g) & possible
    for c, m in children.items():
        if wins_now & m:
            s = (AREA + 1 - nb) // 2
            found[c] = ColumnScore(c, s, s, "rules")
    if nb + 1 == AREA:
        for c in children:
            if c not in found:          # the last cell, no four: a draw (no search: the
                found[c] = ColumnScore(c, 0, 0, "rules")     # solver takes no full board)
    safe = non_losing(possible, winning_cells(opponent, mask, g))
    if not wins_now:
        for c, m in children.items():
            if not safe & m:
                # The opponent then wins at once (or it had two threats): a known score.
                lost = -((AREA - nb) // 2)
                found[c] = ColumnScore(c, lost, lost, "rules")
    keys = ({c: table_key(opponent, mask | m, g) for c, m in children.items() if c not in found}
            if store is not None else {})
    parent_key = table_key(current, mask, g) if store is not None else None
    stored = (store.get_many(g.width, g.height, [*keys.values(), parent_key])
              if store and read_store else {})
    for c, k in keys.items():
        if k in stored:
            found[c] = ColumnScore(c, -stored[k], -stored[k], "table")
    book = solver.book
    if book is not None and nb + 1 == book.ply:
        for c, m in children.items():
            if c not in found:
                s = solver.book_score(opponent, mask | m)
                if s is not None:
                    found[c] = ColumnScore(c, -s, -s, "book")

    # The best move first: the position's own score and a column that reaches it.
    best = score = None
    best_elapsed = None
    parent_upper = (AREA + 1 - nb) // 2
    exact_now = [f for f in found.values() if f.exact]
    if len(exact_now) == len(children):
        score = max(f.score for f in exact_now)
    elif parent_key in stored:
        score = stored[parent_key]
    elif (booked := solver.book_score(current, mask)
          if book is not None and nb == book.ply else None) is not None:
        # The position itself is in the book: its score at once (one look-up); the columns
        # then each need one search, the first that reaches it being the best move.
        score = booked
    elif wins_now:
        score = (AREA + 1 - nb) // 2
    else:
        t, n = budget.left()
        # one stone past the book: its parents in the book bound its score from below
        bound = (book_parents_bound(solver, current, mask, g)
                 if book is not None and nb == book.ply + 1 else None)
        r = solver.solve_bitboard(current, mask, nb, time_limit=t, max_nodes=n, check=False,
                                  known=None if bound is None else (bound, AREA), guess=bound,
                                  mtd=True)
        budget.spend(r.nodes)
        nodes += r.nodes
        # the move named is proven to reach the score unless the score is the bound the
        # search started from and above the least score of any safe move (then no probe
        # named a move: the columns' searches find it)
        named = bound is None or r.score != bound or bound <= -((AREA - 2 - nb) // 2)
        if r.complete:
            score = r.score
            if named and r.best_move not in found:
                found[r.best_move] = ColumnScore(r.best_move, r.score, r.score, "search", r.nodes)
        else:
            parent_upper = r.upper          # no column scores more than the position
    if score is not None:
        best = next((c for c in g.order if c in found and found[c].lower == score), None)
        best_elapsed = time.perf_counter() - start
    if best is not None:
        budget.narrow(then_time_limit)

    # Then every other column, knowing none scores more than the best.
    top = score if score is not None else parent_upper
    # A position that is its own mirror image (the empty board, "4", "44"...): column c and
    # column width-1-c score the same; the centre-first order meets one of each pair first.
    symmetric = _mirror(mask, g) == mask and _mirror(current, g) == current
    # One stone past the book, each column's least score (for its child, the least: -top, or
    # better from the book's other parents); the columns that may reach the best score are
    # searched first: the best move comes sooner (ply 12: a quarter fewer nodes before it).
    least = {c: -top for c in children}
    order = list(children)
    if book is not None and nb == book.ply:
        for c, m in children.items():
            if c not in found:
                bound = book_parents_bound(solver, opponent, mask | m, g)
                least[c] = least[c] if bound is None else max(least[c], bound)
        order = [c for c in order if least[c] == -top] + [c for c in order if least[c] != -top]
    for c in order:
        m = children[c]
        if c in found:
            continue
        if best_only and best is not None:
            break
        twin = found.get(g.width - 1 - c) if symmetric else None
        if twin is not None and twin.exact:
            found[c] = ColumnScore(c, twin.lower, twin.upper, twin.source)
            if best is None and score is not None and twin.lower == score:
                best, best_elapsed = c, time.perf_counter() - start
                budget.narrow(then_time_limit)
            continue
        child = (opponent, mask | m, nb + 1)
        t, n = budget.left()
        if (t is not None and t <= 0) or n == 0:
            found[c] = ColumnScore(c, -((AREA - nb) // 2), top, "")
            continue
        # the first probes ask whether the column reaches the best score (or, one stone past
        # the book, the bound its other parents give): the most common answer, settled in
        # one probe instead of Pons' four or five
        r = solver.solve_bitboard(*child, time_limit=t, max_nodes=n, known=(least[c], AREA),
                                  guess=least[c], check=False, mtd=True)
        budget.spend(r.nodes)
        nodes += r.nodes
        lower, upper = -r.upper, -r.lower
        found[c] = ColumnScore(c, lower, min(upper, top), "search" if r.complete else "", r.nodes)
        if best is None and score is not None and r.complete and lower == score:
            best, best_elapsed = c, time.perf_counter() - start   # the stored score's move
            budget.narrow(then_time_limit)
    for c in children:
        if c not in found:              # best_only: not searched, only bounded by the best
            found[c] = ColumnScore(c, -((AREA - nb) // 2), top, "")
    return _finish(g, moves, nb, found, children, best, score, best_elapsed, nodes, store,
                   keys, parent_key, stored, start)


def book_parents_bound(solver, current: int, mask: int, g) -> int | None:
    """The least score a position one stone past the book can have (``current``: its side
    to move), from the book's scores of the positions its last move could have come from:
    each such parent P (the last mover's top stone of a column taken away) has this position
    among its children, so score(P) >= -score(this). None when no parent is in the book.
    (``analysis_kernel.book_parents_bound`` is its compiled twin.)"""
    last = current ^ mask
    bound = None
    for c in range(g.width):
        stones = mask & g.colmask[c]
        top = (stones + g.column_bottom[c]) >> 1        # the column's top stone
        if stones and last & top:
            s = solver.book_score(last ^ top, mask ^ top)
            if s is not None and (bound is None or -s > bound):
                bound = -s
    return bound


def _learn(store, g, columns, keys, parent_key, stored, score) -> None:
    """Every exact score the analysis found, written to the table of solved positions."""
    new = {keys[x.column]: -x.score for x in columns if x is not None and x.exact
           and x.column in keys and x.source in ("search", "book")}
    if score is not None and parent_key not in stored:
        new[parent_key] = score
    store.put_many(g.width, g.height, new)


def _finish(g, moves, nb, found, children, best, score, best_elapsed, nodes, store, keys,
            parent_key, stored, start) -> Analysis:
    """The analysis from its columns: the position's score and best move when every column is
    known, and what was learnt written to the table of solved positions."""
    columns = tuple(found.get(c) if c in children else None for c in range(g.width))
    open_cols = [x for x in columns if x is not None]
    complete = all(x.exact for x in open_cols) and len(open_cols) == len(children)
    if score is None and complete:
        score = max(x.score for x in open_cols)
    if best is None and score is not None:
        # a column proven to reach the score; none when the budget ran out first (the score
        # came from the book or the table, the columns' searches did not finish)
        best = next((c for c in g.order if c in found and found[c].exact
                     and found[c].score == score), None)
        best_elapsed = None if best is None else time.perf_counter() - start
    if store is not None:
        _learn(store, g, columns, keys, parent_key, stored, score)
    elapsed = time.perf_counter() - start
    return Analysis(moves, g.width, g.height, nb, columns, best, score, nodes, elapsed,
                    elapsed if best_elapsed is None else best_elapsed, complete)


def warm_up() -> float:
    """Compile (or load from numba's cache) every kernel an analysis runs: the solver's
    (``solver_fast.warm_up``), then the analysis's own loop with each kind of budget it is
    given. Returns the seconds it took; once per process, before the first request."""
    start = time.perf_counter()
    compile_solver()
    for options in ({"time_limit": 10.0, "then_time_limit": 5.0}, {"max_nodes": 100},
                    {"time_limit": None, "best_only": True}):
        analyse("4453217", store=None, use_book=False, **options)
    return time.perf_counter() - start


def outcome(score: int, plies: int, cells: int = 42) -> tuple[str, int]:
    """A column's score (Pons', for the side to move in a position of ``plies`` stones on a
    board of ``cells``) in words: ``("win", k)``, the mover wins with its k-th move from now,
    this one included; ``("loss", k)``, the opponent wins with its k-th move; ``("draw", 0)``.

    A win at once scores ``(cells + 1 - plies) // 2``, and each further move of the winner
    one less (Pons' convention)."""
    if score > 0:
        return "win", (cells + 1 - plies) // 2 - score + 1
    if score < 0:
        return "loss", (cells - plies) // 2 + score + 1
    return "draw", 0
