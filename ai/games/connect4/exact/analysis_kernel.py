"""The analysis of every column (``analysis``), compiled: the same steps as
``analysis._analyse_reference``, its readable twin, in one call of machine code.

Why compiled: from 9 to 11 stones a column takes a few dozen nodes, or none (its child is in
the book), and the analysis was mostly Python around the searches: the rules' checks, the
book's probes, a null-window loop per column (``FastSolver.solve_bitboard``) with its
checks and result objects: ~85 µs at 11 stones where the searches took none, ~150 µs at
9-10 stones for ~30 µs of search (bench/bench_analysis.py). Here the whole loop is a few
microseconds beyond its nodes. The tests compare the two twins column by column, node for
node (``tests/test_analysis.py``).

The budget is the analysis's: ``ctx[ST_MAX_NODES]`` counts every node of every search of
the analysis, ``deadline`` (seconds of ``time.perf_counter``, inf for none) is read at each
search's first node and every ``CLOCK_EVERY`` nodes, as ``FastSolver`` does; the first
search that runs out stops the analysis (the columns left keep the interval known).
"""
from __future__ import annotations

import math

import numba
import numpy as np

from . import solver_kernel as K
from .solver_kernel import KERNEL
from ..bits_kernel import popcount, wins

#: Where a column's score came from: ``analysis.ColumnScore.source``, by code.
SOURCES = ("", "rules", "table", "book", "search")
SRC_NONE, SRC_RULES, SRC_TABLE, SRC_BOOK, SRC_SEARCH = range(5)
NO_SCORE = -128
INVALID = -2                    # ``columns``' answer for a position that is not one
#: The rows of the ``cols`` array: per column its lower and upper bound, source, nodes,
#: whether it is done (its score or interval is final: found, searched, or out of budget),
#: and one stone past the book its least score from the book (for its child, negated).
LOWER, UPPER, SOURCE, NODES, DONE, BOUND = range(6)
ROWS = 6


@numba.njit(**KERNEL)
def probe(cur, mask, nb, lo, hi, guess, ctx, deadline):
    """``FastSolver.solve_bitboard(mtd=True)``'s null-window loop, compiled: the score of a
    position (its side to move cannot win at once) narrowed from [lo, hi]; the first probes
    ask whether it is above ``guess``, then above ``guess - 1`` (``guess`` outside [lo, hi):
    Pons' order from the start). Returns (lo, hi, best column or -1, complete). The nodes
    are counted on in ``ctx`` (which holds the addresses of the solver's arrays); the clock
    is read at the first node when ``deadline`` is finite."""
    ctx[K.ST_NEXT_CLOCK] = ctx[K.ST_NODES] + 1 if deadline < math.inf else K.NO_LIMIT
    has_guess = True
    best = -1
    # each probe after the first asks about the bound the last one returned (MTD(f):
    # ``solve_bitboard(mtd=True)``; past the book too, where the analysis's first probes start
    # from the book's bound or the best score: 3.5% fewer nodes at 12-20 stones)
    last = 0                                 # the last probe: 1 failed high, -1 low
    while lo < hi:
        if has_guess and lo <= guess < hi:
            med = guess                      # is the score above the guess? then at it?
            if guess - 1 >= lo:
                guess -= 1
            else:
                has_guess = False
        elif last != 0:
            has_guess = False
            med = hi - 1 if last < 0 else lo     # is it the bound?
        else:
            has_guess = False
            med = lo + (hi - lo) // 2        # Pons' probe order
            if med <= 0 and -((-lo) // 2) < med:
                med = -((-lo) // 2)
            elif med >= 0 and hi // 2 > med:
                med = hi // 2
        r, col = K.root(cur, mask, nb, med, med + 1, ctx, deadline)
        if ctx[K.ST_ABORTED]:
            ctx[K.ST_NODES] -= 1             # the node that stopped: not explored
            return lo, hi, best, False
        if r <= med:
            hi = r
            last = -1
        else:
            lo = r
            last = 1
            if col >= 0:
                best = col
    return lo, hi, best, True


@numba.njit(**KERNEL)
def default_move(cur, mask, ctx):
    """The column ``solver_fast._default_move`` names when no search proved one: the safe
    move making the most winning cells, centre first among equals; else a blocking move;
    else the first playable one."""
    w, h, bottom, board = ctx[K.GEO_W], ctx[K.GEO_H], ctx[K.GEO_BOTTOM], ctx[K.GEO_BOARD]
    possible = (mask + bottom) & board
    opp_wins = wins(cur ^ mask, h) & (board ^ mask)
    forced = possible & opp_wins
    safe = possible
    if forced:
        safe = 0 if forced & (forced - 1) else forced
    safe &= ~(opp_wins >> 1)
    best, best_key = -1, -1
    for i in range(w):
        c = ctx[K.GEO_ORDER + i]
        m = safe & ctx[K.GEO_ORDER + w + c]
        if m:
            key = popcount(wins(cur | m, h) & (board ^ (mask | m))) * 16 + (w - 1 - i)
            if key > best_key:
                best, best_key = c, key
    if best >= 0:
        return best
    for i in range(w):
        c = ctx[K.GEO_ORDER + i]
        if forced & ctx[K.GEO_ORDER + w + c]:
            return c
    for i in range(w):
        c = ctx[K.GEO_ORDER + i]
        if possible & ctx[K.GEO_ORDER + w + c]:
            return c
    return -1


@numba.njit(**KERNEL)
def book_parents_bound(cur, mask, ctx):
    """The least score a position one stone past the book can have (its side to move:
    ``cur``), from the book's scores of the positions the last move could have come from:
    each such parent P (the last mover's stone on top of a column taken away, the last mover
    to move) has this position among its children, so score(P) >= -score(this), and this
    position scores at least -score(P). NO_SCORE when no parent is in the book."""
    w, h, bottom = ctx[K.GEO_W], ctx[K.GEO_H], ctx[K.GEO_BOTTOM]
    last = cur ^ mask
    bound = NO_SCORE
    for c in range(w):
        colmask = ctx[K.GEO_ORDER + w + c]
        stones = mask & colmask
        if stones == 0:
            continue
        top = (stones + (bottom & colmask)) >> 1        # the column's top stone
        if last & top == 0:
            continue
        s = K.book_score(last ^ top, mask ^ top, ctx)
        if s != -128 and -s > bound:
            bound = -s
    return bound


@numba.njit(**KERNEL)
def four(stones, h):
    """Whether ``stones`` hold four in a row (``bitboard.alignment``)."""
    for d in (1, h + 1, h, h + 2):
        m = stones & (stones >> d)
        if m & (m >> 2 * d):
            return True
    return False


@numba.njit(**KERNEL)
def mirror(x, w, h):
    """The bitboard ``x`` seen in a mirror: column c becomes column w - 1 - c."""
    h1 = h + 1
    col = (1 << h1) - 1
    out = 0
    for c in range(w):
        out |= ((x >> (c * h1)) & col) << ((w - 1 - c) * h1)
    return out


@numba.njit(**KERNEL)
def columns(cur, mask, nb, cols, prefilled, parent_stored, best_only, then_seconds,
            max_nodes, deadline, ctx):
    """Every column's score of the position (``analysis._analyse_reference``, step for step).

    ``cols`` (ROWS x width): per column LOWER, UPPER, SOURCE, NODES, DONE, BOUND; filled
    here, zeroed first unless ``prefilled`` (the caller then set the columns the table of
    solved positions knows: bounds, SRC_TABLE, DONE 1; zeros elsewhere).
    ``parent_stored``: the position's own stored score, or NO_SCORE. ``then_seconds``:
    seconds for the other columns once the best is known (inf: no limit). ``max_nodes``:
    the whole analysis's node budget (NO_LIMIT: none).

    Returns (best column or -1, score or NO_SCORE, the clock when the best was known or -1
    when no search followed it, whether every column is exact, the nodes searched).
    """
    w, h, bottom = ctx[K.GEO_W], ctx[K.GEO_H], ctx[K.GEO_BOTTOM]
    board, area, book_ply = ctx[K.GEO_BOARD], ctx[K.GEO_CELLS], ctx[K.GEO_BOOK_PLY]
    if (mask & ~board or cur & ~mask or (mask + bottom) & mask or popcount(mask) != nb
            or popcount(cur) != nb // 2 or four(cur, h) or four(cur ^ mask, h) or nb >= area):
        # not a position of a game going on (``Solver._validate`` says why)
        return INVALID, NO_SCORE, -1.0, False, 0
    if not prefilled:
        cols[:] = 0
    ctx[K.ST_BASE:] = 0
    ctx[K.ST_MAX_NODES] = max_nodes
    possible = (mask + bottom) & board
    opp = cur ^ mask
    empty = board ^ mask
    wins_now = wins(cur, h) & empty & possible
    opp_wins = wins(opp, h) & empty
    forced = possible & opp_wins
    safe = possible
    if forced:
        safe = 0 if forced & (forced - 1) else forced
    safe &= ~(opp_wins >> 1)
    win_score = (area + 1 - nb) // 2
    lost = -((area - nb) // 2)
    n_children = 0
    n_found = 0
    top_found = -1000
    for c in range(w):
        m = possible & ctx[K.GEO_ORDER + w + c]
        if m == 0:
            continue
        n_children += 1
        if wins_now & m:
            cols[LOWER, c], cols[UPPER, c], cols[SOURCE, c] = win_score, win_score, SRC_RULES
        elif wins_now == 0 and not safe & m:
            # the opponent then wins at once (or it had two threats): a known score
            cols[LOWER, c], cols[UPPER, c], cols[SOURCE, c] = lost, lost, SRC_RULES
        elif nb + 1 == area:
            # the last cell, no four: a draw (no search: the solver takes no full board)
            cols[LOWER, c], cols[UPPER, c], cols[SOURCE, c] = 0, 0, SRC_RULES
        elif not cols[DONE, c] and nb + 1 == book_ply:
            s = K.book_score(opp, mask | m, ctx)
            if s != -128:
                cols[LOWER, c], cols[UPPER, c], cols[SOURCE, c] = -s, -s, SRC_BOOK
        if cols[SOURCE, c] != SRC_NONE:
            cols[DONE, c] = 1
            n_found += 1
            if cols[LOWER, c] > top_found:
                top_found = cols[LOWER, c]

    # The best move first: the position's own score and a column that reaches it.
    score = NO_SCORE
    best = -1
    best_clock = -1.0
    parent_upper = win_score
    stopped = False
    # the position itself in the book (one look-up; the book's "absent" is NO_SCORE too)
    booked = K.book_score(cur, mask, ctx) if nb == book_ply else NO_SCORE
    if n_found == n_children:
        score = top_found
    elif parent_stored != NO_SCORE:
        score = parent_stored
    elif booked != NO_SCORE:
        score = booked
    elif wins_now:
        score = win_score
    else:
        before = ctx[K.ST_NODES]
        lo, guess = lost, NO_SCORE
        if nb == book_ply + 1:
            # one stone past the book: its parents in the book bound its score from below
            # (often exactly: the probes start there)
            guess = book_parents_bound(cur, mask, ctx)
            lo = max(lo, guess)
        lo, hi, col, complete = probe(cur, mask, nb, lo, win_score, guess, ctx, deadline)
        if complete:
            score = lo
            if col < 0 and lo <= -((area - 2 - nb) // 2):
                # no probe named a move, and the score is the least any safe move has
                col = default_move(cur, mask, ctx)
            # (else the score is the bound the search started from: the columns' searches
            # find a move reaching it)
            if col >= 0 and not cols[DONE, col]:
                cols[LOWER, col], cols[UPPER, col], cols[SOURCE, col] = lo, lo, SRC_SEARCH
                cols[NODES, col], cols[DONE, col] = ctx[K.ST_NODES] - before, 1
        else:
            parent_upper = hi               # no column scores more than the position
            stopped = True
    if score != NO_SCORE:
        for i in range(w):
            c = ctx[K.GEO_ORDER + i]
            if cols[DONE, c] and cols[LOWER, c] == score:
                best = c
                break
    # The clock is read when the best is known only if a search follows (``then_seconds``
    # counts from there, and the best's time is the analysis's otherwise): read from machine
    # code it costs ~1 µs warm, ~10 µs when other work has evicted the caches, which is the
    # whole analysis at 11 stones.
    pending = best >= 0

    # Then every other column, knowing none scores more than the best.
    top = score if score != NO_SCORE else parent_upper
    symmetric = mirror(mask, w, h) == mask and mirror(cur, w, h) == cur
    # One stone past the book, each column's least score (for its child: -top, or better from
    # the book's other parents); the columns that may reach the best score are searched
    # first (phase 0), then the others: the best move comes sooner.
    phases = 1
    if nb == book_ply:
        phases = 2
        for c in range(w):
            m = possible & ctx[K.GEO_ORDER + w + c]
            if m and not cols[DONE, c]:
                cols[BOUND, c] = max(-top, book_parents_bound(opp, mask | m, ctx))
    for k in range(phases * w):
        c = ctx[K.GEO_ORDER + k % w]
        m = possible & ctx[K.GEO_ORDER + w + c]
        if m == 0 or cols[DONE, c]:
            continue
        if phases == 2 and (k < w) != (cols[BOUND, c] == -top):
            continue
        if best_only and best >= 0:
            break
        twin = w - 1 - c
        # a position that is its own mirror image: column c scores as its twin (the
        # centre-first order meets one of each pair first)
        if symmetric and twin != c and cols[DONE, twin] \
                and cols[LOWER, twin] == cols[UPPER, twin]:
            cols[DONE, c] = 1
            cols[LOWER, c], cols[UPPER, c] = cols[LOWER, twin], cols[UPPER, twin]
            cols[SOURCE, c], cols[NODES, c] = cols[SOURCE, twin], 0
            if best < 0 and score != NO_SCORE and cols[LOWER, c] == score:
                best, pending = c, True
            continue
        cols[DONE, c] = 1
        if stopped or ctx[K.ST_NODES] >= ctx[K.ST_MAX_NODES]:
            cols[LOWER, c], cols[UPPER, c], cols[SOURCE, c], cols[NODES, c] = lost, top, \
                SRC_NONE, 0
            continue
        child_mask = mask | m
        child_opp_wins = wins(opp, h) & (board ^ child_mask) & ((child_mask + bottom) & board)
        if child_opp_wins:
            # the child's mover wins at once (the mover could win and did not: no rule
            # marked this column)
            s = (area - nb) // 2
            cols[LOWER, c], cols[UPPER, c], cols[SOURCE, c], cols[NODES, c] = -s, -s, \
                SRC_SEARCH, 0
            continue
        if pending:
            pending = False
            best_clock = K._clock()
            if then_seconds < math.inf:
                deadline = min(deadline, best_clock + then_seconds)
        before = ctx[K.ST_NODES]
        # the probes start from the column's least score: the best's (the most common
        # answer), or one stone past the book the tightest bound from the book's other
        # parents, which is often the score (ply 12: ~27% fewer nodes)
        least = cols[BOUND, c] if phases == 2 else -top
        lo_c = max(-((area - nb - 1) // 2), least)
        hi_c = (area - nb) // 2
        lo_c, hi_c, col, complete = probe(opp, child_mask, nb + 1, lo_c, hi_c, least, ctx,
                                          deadline)
        if complete:
            hi_c = lo_c
        else:
            stopped = True
        cols[LOWER, c] = -hi_c
        cols[UPPER, c] = min(-lo_c, top)
        cols[SOURCE, c] = SRC_SEARCH if complete else SRC_NONE
        cols[NODES, c] = ctx[K.ST_NODES] - before
        if best < 0 and score != NO_SCORE and complete and -hi_c == score:
            best, pending = c, True          # the stored score's move

    # The end (``analysis._finish``): the columns best_only left, bounded by the best; the
    # score once every column is known; a column proven to reach it (none when the budget
    # ran out first: the score came from the book or the table). DONE ends 1 for every open
    # column, 0 for a full one.
    complete = True
    top_score = -1000
    for c in range(w):
        if possible & ctx[K.GEO_ORDER + w + c] == 0:
            cols[DONE, c] = 0
            continue
        if not cols[DONE, c]:
            cols[LOWER, c], cols[UPPER, c], cols[SOURCE, c], cols[NODES, c] = lost, top, \
                SRC_NONE, 0
            cols[DONE, c] = 1
        if cols[LOWER, c] != cols[UPPER, c]:
            complete = False
        elif cols[LOWER, c] > top_score:
            top_score = cols[LOWER, c]
    if score == NO_SCORE and complete:
        score = top_score
    if best < 0 and score != NO_SCORE:
        for i in range(w):
            c = ctx[K.GEO_ORDER + i]
            if possible & ctx[K.GEO_ORDER + w + c] and cols[LOWER, c] == score \
                    and cols[UPPER, c] == score:
                best, best_clock = c, -1.0
                break
    if pending:
        best_clock = -1.0                    # no search after it: the analysis's time
    return best, score, best_clock, complete, ctx[K.ST_NODES]
