"""The exact Connect-4 solver at compiled speed: ``solver``'s algorithm (Pons' null-window
negamax) with its inner loop compiled by numba (``solver_kernel``), a fixed-size table, and
the opening book at 12 stones (``opening_book``).

One difference in the probes: below the book's ply, after the first null-window probe each next
one asks about the bound the last one returned (MTD(f)) instead of halving the interval as
Pons does; the fail-soft search returns bounds that the book's exact scores make tight there.

``FastSolver`` has ``solver.Solver``'s interface and returns the same ``SolveResult``; the
pure-Python ``Solver`` stays the readable reference that the tests compare it with, position
by position, on Pascal Pons' published sets. Board sizes whose bitboard does not fit the
kernel's 64-bit integers and 32-bit partial keys (``fits``: ``width * (height + 1) <= 55``,
every size up to 7x6 and 8x6, 6x7, 5x8...) are solved by the reference instead.

The first call of a process compiles nothing when numba's cache holds the machine code
(``numba_cache``); otherwise compiling takes a few seconds: ``warm_up()`` pays it at a
worker's start, not on a player's request, and says how long it took.
"""
from __future__ import annotations

import math
import mmap
import time

import numpy as np

from . import solver_kernel as K
from ..bitboard import non_losing, winning_cells
from .solver import SolveResult, Solver, _check_budgets, parse_moves

__all__ = ["FastSolver", "fits", "warm_up", "DEFAULT_TABLE_SLOTS"]

#: Slots of the table: a prime near 2**23, as Pons' (5 bytes each: ~42 MB).
DEFAULT_TABLE_SLOTS = 8_388_593
MAX_BITS = 32 + 23          # partial keys stay unique while keys are below slots * 2**32


def fits(width: int, height: int, slots: int = DEFAULT_TABLE_SLOTS) -> bool:
    """Whether the compiled kernel can solve this board size (else the reference does)."""
    return width * (height + 1) <= min(62, 32 + int(math.log2(slots)))


class FastSolver(Solver):
    """An exact solver for one board size, with its table kept between calls, compiled.

    Args:
        width, height: board size, 4 to 9 each.
        book: an ``opening_book.OpeningBook`` probed at its ply (7x6 only), or None.
        table_slots: slots of the transposition table (a prime is best).

    Not to be shared by threads that search at the same time (one per worker thread).
    """

    def __init__(self, width: int = 7, height: int = 6, *, book=None,
                 table_slots: int = DEFAULT_TABLE_SLOTS) -> None:
        super().__init__(width, height)
        self.book = book if (width, height) == (7, 6) else None
        self.compiled = fits(width, height, table_slots)
        g = self._g
        self.book_hits = 0
        if not self.compiled:
            return
        geo = [width, height, g.bottom, g.board, g.cells,
               self.book.ply if self.book is not None else -1, *g.order, *g.colmask]
        self._ctx = np.zeros(K.CTX_SIZE, dtype=np.int64)
        self._ctx[:len(geo)] = geo
        lanes = [g.colmask[c] for c in g.order][:K.LANES]
        self._ctx[K.GEO_LANES:K.GEO_LANES + len(lanes)] = lanes
        self._tt_keys = _mapped_zeros(table_slots, np.uint32)
        self._tt_vals = _mapped_zeros(table_slots, np.int8)
        if self.book is not None:
            self._book, book_slots = self.book.table, self.book.slots
        else:
            self._book, book_slots = np.zeros(K.BOOK_RECORD, dtype=np.uint8), 1   # one, empty
        self._work = np.zeros((g.cells + 1, K.WORK_ROW), dtype=np.int64)
        # the kernel's recursion reaches these arrays through their addresses in ctx
        # (solver_kernel's docstring says why): this object keeps them alive as long as ctx
        arrays = (self._work, self._tt_keys, self._tt_vals, self._book)
        assert all(a.flags.c_contiguous for a in arrays)
        self._ctx[[K.AT_WORK, K.AT_TT_KEYS, K.AT_TT_VALS, K.TT_SLOTS, K.AT_BOOK,
                   K.BOOK_SLOTS]] = (
            self._work.ctypes.data, self._tt_keys.ctypes.data, self._tt_vals.ctypes.data,
            table_slots, self._book.ctypes.data, book_slots)

    def reset(self) -> None:
        """Forget every stored bound."""
        super().reset()
        if self.compiled:
            self._tt_vals[:] = K.EMPTY

    def book_score(self, current: int, mask: int) -> int | None:
        """The book's score of a position of its ply (side to move), or None: the compiled
        probe the search uses (~1 µs; ``OpeningBook.score``, its readable twin, ~15 µs)."""
        if self.book is None or mask.bit_count() != self.book.ply:
            return None
        s = K.book_probe(current, mask, self.width, self.height, self._book,
                         int(self._ctx[K.BOOK_SLOTS]))
        return None if s == -128 else int(s)

    @property
    def table_size(self) -> int:
        return int(np.count_nonzero(self._tt_vals)) if self.compiled else super().table_size

    def solve_bitboard(self, current: int, mask: int, moves_played: int, *, weak: bool = False,
                       max_nodes: int | None = None, time_limit: float | None = None,
                       known: tuple[int, int] | None = None,
                       guess: int | None = None, check: bool = True,
                       mtd: bool | None = None) -> SolveResult:
        """Solve a position given as bitboards; see ``solver.solve_bitboard``.

        ``known``: an interval ``(lower, upper)`` the score is already known to lie in (the
        analysis knows that no column beats the best one): the null-window probes start
        from it. A wrong interval gives a wrong score.

        ``guess``: a likely score; the first probes ask whether the score is above it, then
        above the one below, before the usual order takes over (only the number of probes
        changes, never the score).

        ``mtd``: after the first probe, ask about the bound the last one returned (MTD(f))
        rather than halve the interval (Pons' order). None: below the book's ply only, where
        the book's exact scores make those bounds tight.

        ``check=False``: the position is known to be a valid one, not over (the analysis's
        columns): not checked again (a few microseconds, which count at 10-12 stones, where
        a column takes a few dozen nodes)."""
        if not self.compiled:
            return super().solve_bitboard(current, mask, moves_played, weak=weak,
                                          max_nodes=max_nodes, time_limit=time_limit)
        start = time.perf_counter()
        g = self._g
        if check:
            self._validate(current, mask, moves_played)
            _check_budgets(max_nodes, time_limit)
        AREA, CM, ORDER = g.cells, g.colmask, g.order
        nb = moves_played
        possible = (mask + g.bottom) & g.board
        my_wins = winning_cells(current, mask, g) & possible
        if my_wins:                      # a win at once: the search assumes there is none
            col = next(c for c in ORDER if my_wins & CM[c])
            s = 1 if weak else (AREA + 1 - nb) // 2
            return SolveResult(s, col, 0, time.perf_counter() - start, True, s, s)

        state = self._ctx
        state[K.ST_BASE:] = 0
        state[K.ST_MAX_NODES] = K.NO_LIMIT if max_nodes is None else max_nodes
        state[K.ST_NEXT_CLOCK] = 1 if time_limit is not None else K.NO_LIMIT
        deadline = math.inf if time_limit is None else start + time_limit

        lo, hi = -((AREA - nb) // 2), (AREA + 1 - nb) // 2
        if weak:
            lo, hi = -1, 1
        if known is not None:
            lo, hi = max(lo, known[0]), min(hi, known[1])
        best = None
        complete = True
        # Below the book's ply the search's bounds come from the book's exact scores, tight:
        # after the first probe, each next one asks about the bound just returned (MTD(f),
        # as BitBully: 10-20% fewer nodes at 0-10 stones than Pons' halving, which stays
        # best beyond the book, where the bounds are looser; bench/nodes_by_ply.py).
        # The analysis asks for MTD(f) past the book as well (``mtd=True``): its first probes
        # start from the book's bound or the best score, and it needs 3.5% fewer nodes at
        # 12-20 stones so (bench/bench_analysis.py).
        last = None
        if mtd is None:
            mtd = self.book is not None and nb < self.book.ply
        while lo < hi:
            if guess is not None and lo <= guess < hi:
                med = guess                      # is the score above the guess? then at it?
                guess = guess - 1 if guess - 1 >= lo else None
            elif mtd and last is not None:
                med = hi - 1 if last == "low" else lo    # is it the bound? (MTD(f))
            else:
                guess = None
                med = lo + (hi - lo) // 2        # Pons' probe order, as the reference (solver)
                if med <= 0 and -((-lo) // 2) < med:
                    med = -((-lo) // 2)
                elif med >= 0 and hi // 2 > med:
                    med = hi // 2
            r, col = K.root(current, mask, nb, med, med + 1, state, deadline)
            if state[K.ST_ABORTED]:
                complete = False
                break
            if r <= med:
                hi = r
                last = "low"
            else:
                lo = r
                last = "high"
                best = col if col >= 0 else best
        nodes = int(state[K.ST_NODES]) - (0 if complete else 1)   # the aborting node: unexplored
        self.book_hits = int(state[K.ST_BOOK_HITS])
        if best is None:
            opp_wins = winning_cells(current ^ mask, mask, g)
            best = _default_move(g, current, mask, non_losing(possible, opp_wins),
                                 possible & opp_wins, possible)
        if weak:
            lo, hi = max(-1, min(1, lo)), max(-1, min(1, hi))
        if complete:
            hi = lo
        return SolveResult(lo, best, nodes, time.perf_counter() - start, complete, lo, hi)


def _mapped_zeros(n: int, dtype) -> np.ndarray:
    """An array of ``n`` zeros in memory of its own, mapped from the system (not malloc's):
    the system gives its pages, zeroed, as they are first touched, and takes them all back
    when the array is dropped. (From malloc, a table freed by one thread stayed in that
    thread's arena: a process kept ~580 MB after 40 replies at once, with only one solver
    left, instead of ~300 MB.)"""
    size = max(1, n * np.dtype(dtype).itemsize)
    return np.frombuffer(mmap.mmap(-1, size, flags=mmap.MAP_PRIVATE), dtype=dtype, count=n)


def _default_move(g, current, mask, safe, forced, possible):
    """The move to name when no search proved one: the reference's first in its order (most
    new winning cells, centre first), a blocking move when every move loses."""
    best_key, best_col = None, None
    for c in g.order:
        m = safe & g.colmask[c]
        if m:
            k = (winning_cells(current | m, mask | m, g).bit_count(), g.priority[c])
            if best_key is None or k > best_key:
                best_key, best_col = k, c
    if best_col is not None:
        return best_col
    best_col = next((c for c in g.order if forced & g.colmask[c]), None)
    if best_col is None:
        best_col = next(c for c in g.order if possible & g.colmask[c])
    return best_col


def warm_up() -> float:
    """Compile (or load from numba's cache) the kernel by solving a small position; returns the
    seconds it took. Call it once per process before the first request."""
    start = time.perf_counter()
    s = FastSolver(7, 6, table_slots=262_139)   # the smallest kind the kernel takes on 7x6
    assert s.compiled
    s.solve("2252576253462244111563365343671351441")   # Pons' L3_R1, a few dozen nodes
    s.solve("", max_nodes=1000)                          # a budget stopping it
    # and a time limit: its clock check (object mode) is compiled on first use, which cost
    # the first timed solve of each worker ~100 ms (issue 24)
    s.solve("", time_limit=10.0, max_nodes=100)      # the clock is read at the first node
    # and the book's probe called from Python (the analysis's columns at 11 stones)
    # (an empty book: one empty record)
    K.book_probe(0, 0, 7, 6, np.zeros(K.BOOK_RECORD, dtype=np.uint8), 1)
    return time.perf_counter() - start

