"""The compiled inner loop of Connect-4's depth-limited alpha-beta (``compiled_search``):
``fast_search``'s two node functions, node for node, compiled by numba over 64-bit integer
bitboards, with the evaluation a weighted sum of ``terms``' terms (one kernel for every
weights array: every level, and any heuristic a student composes).

Node for node means: the same nodes entered in the same order, the same counts (``nodes``,
``leaves``, ``cutoffs``, ``tt_probes``, ``tt_hits``), the same values and best moves as
``fast_search`` for the same position, depth, heuristic and table (its docstring says what a
node does and why; the comments here name its parts). So a level's reply and its node count
are the same whichever of the two ran, and the tree panel can replay with ``fast_search``,
which records, the search this kernel made (``ai.engine.with_tree``). What differs:

- the evaluation: the terms are counted from scratch at each leaf, from the bitboards, and
  summed in ``terms.TERMS``' order (the same floating-point sum as ``terms.evaluate``);
  ``fast_search`` carries its two heuristics down the tree instead;
- the table: ``fast_search`` writes into the caller's dict; here a table of ``TT_SLOTS``
  places (linear probing, the whole key kept, never a collision) that is emptied, like the
  dict, once it holds ``TT_MAX`` entries (131,072): above what a level's node budget fills (a
  search stores about one entry per four nodes: at most 19,503 for 83,467 nodes over the
  levels' 600 benchmark positions; ``hard``'s budget is 300,000 nodes). A search that fills
  it may then differ from ``fast_search`` in its node count, never in its value. 262,144
  places, 4.75 MB per thread that searches (a worker's search lanes). Emptying is a new
  *generation*: the key is stored with the generation number above its 49 bits, and a place
  of another generation is free. A new search (a new table on the Python side, other
  weights) starts a generation, so nothing is cleared between searches;
- the clock: read every ``CLOCK_EVERY`` nodes (numba's object mode takes the GIL, ~1 µs);
  ``fast_search`` reads it every 1,024 nodes. The node budget is checked where
  ``fast_search`` checks it, so a search stops at the same node;
- a budget that runs out sets ``ST_ABORTED`` and the search unwinds (numba raises nothing).

Bitboards are Pons' (``bitboard``): ``width * (height + 1) <= 49`` bits here (``fits``), so
that the generation fits above the key.
"""
from __future__ import annotations

import time
import warnings

from .exact import numba_cache  # noqa: F401  (sets NUMBA_CACHE_DIR before numba is imported)

import numba
import numpy as np

from .bits_kernel import popcount, wins

warnings.filterwarnings("ignore", message="Code running in object mode won't allow parallel",
                        category=numba.NumbaWarning)

KERNEL = dict(cache=True, nogil=True, error_model="numpy")

# geo: the constants of one board size and scoring
(G_W, G_H, G_H1, G_BOTTOM, G_BOARD, G_CELLS, G_CEN, G_ODD, G_EVEN, G_QUICK, G_MAX, G_WT,
 G_LIMIT) = range(13)
G_SHIFT = 13            # 4 window directions' shifts
G_STARTS = 17           # and where a window of each may start
G_ORDER = 21            # 9 columns centre first
G_PRI = 30              # 9 priorities (the centre highest)
G_BYPRI = 39            # 9: the column of each priority
G_COLMASK = 48          # 9 column masks
G_NGROUPS = 57          # the cell values: how many distinct, then (value, cells) pairs
G_GROUPS = 58
GEO_SIZE = G_GROUPS + 2 * 16

# st: the counters and flags of one search
(ST_NODES, ST_LEAVES, ST_CUTOFFS, ST_PROBES, ST_HITS, ST_LIMIT, ST_ABORTED, ST_USE_TABLE,
 ST_TABLE_LOW, ST_ZERO, ST_GEN, ST_COUNT, ST_NEXT_CLOCK) = range(13)
ST_SIZE = 13

N_TERMS = 9             # terms.TERMS; the weights array holds alpha after them
T_CELLS, T_ADJUSTED, T_OPEN1, T_OPEN2, T_OPEN3, T_CENTER, T_THREATS, T_IMMEDIATE, T_ODDEVEN = \
    range(N_TERMS)
EXACT, LOWER, UPPER = 0, 1, 2           # ai.course.scores
TT_BITS = 18
TT_SLOTS = 1 << TT_BITS
TT_MAX = TT_SLOTS // 2
KEY_BITS = 50           # the generation above the key's bits
CLOCK_EVERY = 1 << 14
NEG = -1e300            # below every score
WORK = 16               # per ply: up to 9 sort keys


# mem: one thread's searcher in one array (``search``'s state, reset by it at each search):
# the counters, the table, the principal variation's rows, the killers, the sort keys, the
# root's moves and values, the root's order. ``carve`` cuts it into the arrays the node
# functions take (views: nothing copied), so a search is one call with one array of state.
PLIES = 64              # plies a search may go below its root (a 7x6 board has 42 cells)
M_ST = 0
M_TT_KEY = 16
M_TT_VAL = M_TT_KEY + TT_SLOTS                  # float64
M_TT_INFO = M_TT_VAL + TT_SLOTS                 # int8, (TT_SLOTS, 3)
M_PV = M_TT_INFO + TT_SLOTS * 3 // 8            # int8, (PLIES, PLIES)
M_PVLEN = M_PV + PLIES * PLIES // 8
M_KILLERS = M_PVLEN + PLIES
M_WORK = M_KILLERS + PLIES                      # (PLIES, WORK)
M_COLS = M_WORK + PLIES * WORK                  # the root's moves in the order of their values
M_VALUES = M_COLS + 16                          # float64: their values
M_ORDER = M_VALUES + 16                         # the root's order, when the caller gives it
M_OUT = M_ORDER + 16                            # the answer: the principal variation, then
#                                                 (move, value) of the root's moves, the values
#                                                 as integers when they all are whole numbers
MEM_SIZE = M_OUT + PLIES + 2 * 16

# search's flags
F_ZERO = 1              # no heuristic: every leaf 0
F_TABLE = 2             # a table (the caller's), probed at depth >= 3
F_TABLE_LOW = 4         # and at depths 1 and 2 (fast_search's _TABLE_LOW_DEPTH: a search of 5+)
F_NEW_GEN = 8           # a new generation of the table (another table, other weights)
F_ORDER = 16            # the root's order is the caller's (mem[M_ORDER:], n_order columns)

# search's status: searched; stopped by a budget; settled at the root (a win at once, depth
# 1, a lost or full board: nothing searched below the root, nothing for the caller's table)
DONE, NODE_BUDGET, TIME_BUDGET, ROOT_ONLY = 0, 1, 2, 3


def fits(width: int, height: int) -> bool:
    """Whether this kernel runs a board of that size (its bitboards in 49 bits)."""
    return width * (height + 1) <= 49


@numba.njit(**KERNEL)
def _clock():
    with numba.objmode(t="float64"):
        t = time.perf_counter()
    return t


# -- the terms ----------------------------------------------------------------------------------

@numba.njit(inline="always", **KERNEL)
def windows(p, o, geo):
    """Windows of four held by ``p`` alone, by how many stones (1, 2, 3): ``Threats._windows``."""
    c1 = c2 = c3 = 0
    for k in range(4):
        s = geo[G_SHIFT + k]
        a, b, c, d = p, p >> s, p >> 2 * s, p >> 3 * s
        free = geo[G_STARTS + k] & ~(o | o >> s | o >> 2 * s | o >> 3 * s)
        ab, cd = a & b, c & d
        any2 = ab | cd | ((a | b) & (c | d))
        any3 = (ab & (c | d)) | (cd & (a | b))
        all4 = ab & cd
        one = (a | b | c | d) & ~any2
        c1 += popcount(one & free)
        c2 += popcount(any2 & ~any3 & free)
        c3 += popcount(any3 & ~all4 & free)
    return c1, c2, c3


@numba.njit(**KERNEL)
def squares(p, o, geo):
    """Seed 004's squares: for each stone of ``p``, in each direction, the square of the
    count of ``p``'s stones aligned with it when the line is open (``AdjustedCells.lines``)."""
    w, h, h1 = geo[G_W], geo[G_H], geo[G_H1]
    total = 0
    for c in range(w):
        for r in range(h):
            if not (p >> (c * h1 + r)) & 1:
                continue
            for k in range(4):
                dc = 1 if k != 1 else 0
                dr = 0 if k == 0 else (1 if k < 3 else -1)
                aligned, room = 0, 1
                for sign in (1, -1):
                    for i in range(1, 4):
                        x, y = c + sign * i * dc, r + sign * i * dr
                        if x < 0 or x >= w or y < 0 or y >= h:
                            break
                        bit = np.int64(1) << (x * h1 + y)
                        if o & bit:
                            break
                        room += 1
                        if p & bit:
                            aligned += 1
                if room >= 4:
                    total += aligned * aligned
    return total


@numba.njit(**KERNEL)
def evaluate(p, o, mask, first, geo, w):
    """``terms.evaluate``: the weighted terms of ``p``'s side (``first``: ``p`` is the first
    player's), mine minus theirs, summed in the terms' order, within the heuristic bound."""
    s = 0.0
    if w[T_CELLS] != 0 or w[T_ADJUSTED] != 0:
        cells = 0
        for i in range(geo[G_NGROUPS]):
            v, m = geo[G_GROUPS + 2 * i], geo[G_GROUPS + 2 * i + 1]
            cells += v * (popcount(p & m) - popcount(o & m))
        if w[T_CELLS] != 0:
            s += w[T_CELLS] * cells
        if w[T_ADJUSTED] != 0:
            s += w[T_ADJUSTED] * (w[N_TERMS] * cells + (squares(p, o, geo) - squares(o, p, geo)))
    if w[T_OPEN1] != 0 or w[T_OPEN2] != 0 or w[T_OPEN3] != 0:
        m1, m2, m3 = windows(p, o, geo)
        t1, t2, t3 = windows(o, p, geo)
        if w[T_OPEN1] != 0:
            s += w[T_OPEN1] * (m1 - t1)
        if w[T_OPEN2] != 0:
            s += w[T_OPEN2] * (m2 - t2)
        if w[T_OPEN3] != 0:
            s += w[T_OPEN3] * (m3 - t3)
    if w[T_CENTER] != 0:
        cen = geo[G_CEN]
        s += w[T_CENTER] * (popcount(p & cen) - popcount(o & cen))
    if w[T_THREATS] != 0 or w[T_IMMEDIATE] != 0 or w[T_ODDEVEN] != 0:
        board, h = geo[G_BOARD], geo[G_H]
        empty = board ^ mask
        wp = wins(p, h) & empty
        wo = wins(o, h) & empty
        if w[T_THREATS] != 0:
            s += w[T_THREATS] * (popcount(wp) - popcount(wo))
        if w[T_IMMEDIATE] != 0:
            playable = (mask + geo[G_BOTTOM]) & board
            s += w[T_IMMEDIATE] * (popcount(wp & playable) - popcount(wo & playable))
        if w[T_ODDEVEN] != 0:
            mine_rows = geo[G_ODD] if first else geo[G_EVEN]
            their_rows = geo[G_EVEN] if first else geo[G_ODD]
            s += w[T_ODDEVEN] * (popcount(wp & mine_rows) - popcount(wo & their_rows))
    limit = geo[G_LIMIT]
    if s > limit:
        return float(limit)
    if s < -limit:
        return float(-limit)
    return s


@numba.njit(**KERNEL)
def score(cur, mask, geo, w):
    """The value, for the side to move, of the position (``cur``: its stones)."""
    first = (popcount(mask) & 1) == 0
    return evaluate(cur, cur ^ mask, mask, first, geo, w)


# -- the table ------------------------------------------------------------------------------

@numba.njit(inline="always", **KERNEL)
def tt_find(key, st, tt_key):
    """The place of ``key`` in this generation, or ``-1 - place`` of the free place where it
    would go."""
    tag = key | (st[ST_GEN] << KEY_BITS)
    i = (key * 0x9E3779B97F4A7C15) >> (64 - TT_BITS) & (TT_SLOTS - 1)
    while True:
        k = tt_key[i]
        if k == tag:
            return i
        if (k >> KEY_BITS) != st[ST_GEN]:
            return -1 - i
        i = (i + 1) & (TT_SLOTS - 1)


@numba.njit(inline="always", **KERNEL)
def tt_store(key, depth, bound, value, move, st, tt_key, tt_val, tt_info):
    i = tt_find(key, st, tt_key)
    if i < 0:
        if st[ST_COUNT] >= TT_MAX:      # full: a new generation empties it (as the dict)
            st[ST_GEN] += 1
            st[ST_COUNT] = 0
            i = tt_find(key, st, tt_key)
        i = -1 - i
        st[ST_COUNT] += 1
        tt_key[i] = key | (st[ST_GEN] << KEY_BITS)
    tt_val[i] = value
    tt_info[i, 0] = depth
    tt_info[i, 1] = bound
    tt_info[i, 2] = move


@numba.njit(**KERNEL)
def over_budget(st, deadline):
    """The node budget (checked where ``fast_search`` checks it) and, every ``CLOCK_EVERY``
    nodes, the clock: True when the search must stop."""
    if st[ST_NODES] > st[ST_LIMIT]:
        st[ST_ABORTED] = 1
        return True
    if st[ST_NODES] >= st[ST_NEXT_CLOCK]:
        st[ST_NEXT_CLOCK] = st[ST_NODES] + CLOCK_EVERY
        if _clock() > deadline:
            st[ST_ABORTED] = 2
            return True
    return False


@numba.njit(inline="always", **KERNEL)
def set_pv(ply, col, pv, pvlen):
    """pv[ply] = [col] + pv[ply + 1]."""
    pv[ply, 0] = col
    n = pvlen[ply + 1]
    for i in range(n):
        pv[ply, i + 1] = pv[ply + 1, i]
    pvlen[ply] = n + 1


# -- depth 1: the children scored inline ----------------------------------------------------

@numba.njit(**KERNEL)
def node1(cur, mask, alpha, beta, ply, geo, w, st, tt_key, tt_val, tt_info, pv, pvlen,
          killers, deadline):
    """``fast_search``'s ``node1``."""
    st[ST_NODES] += 1
    if st[ST_ZERO]:                     # every child scores 0
        st[ST_LEAVES] += 1
        pvlen[ply] = 0
        over_budget(st, deadline)
        return 0.0
    board, wd = geo[G_BOARD], geo[G_W]
    possible = (mask + geo[G_BOTTOM]) & board
    first_col = killers[ply]
    key = cur + mask
    table_low = st[ST_TABLE_LOW] != 0
    if table_low:
        st[ST_PROBES] += 1
        i = tt_find(key, st, tt_key)
        if i >= 0:
            if tt_info[i, 0] == 1:
                v = tt_val[i]
                bound = tt_info[i, 1]
                if bound == EXACT or (bound == LOWER and v >= beta) or \
                        (bound == UPPER and v <= alpha):
                    st[ST_HITS] += 1
                    pv[ply, 0] = tt_info[i, 2]
                    pvlen[ply] = 1
                    over_budget(st, deadline)
                    return v
            first_col = tt_info[i, 2]
    alpha0 = alpha
    best = NEG
    best_move = -1
    n = 0
    opp = cur ^ mask
    first = (popcount(mask) & 1) == 0           # the side to move is the first player
    for j in range(-1, wd):
        col = first_col if j < 0 else geo[G_ORDER + j]
        if j >= 0 and col == first_col:
            continue
        bit = possible & geo[G_COLMASK + col]
        if bit == 0:
            continue
        v = evaluate(cur | bit, opp, mask | bit, first, geo, w)
        n += 1
        if v > best:
            best = v
            best_move = col
            if v > alpha:
                alpha = v
                if v >= beta:
                    st[ST_CUTOFFS] += 1
                    killers[ply] = col
                    break
    st[ST_NODES] += n
    st[ST_LEAVES] += n
    if best > alpha0:
        pv[ply, 0] = best_move
        pvlen[ply] = 1
    else:
        pvlen[ply] = 0
    if table_low:
        bound = UPPER if best <= alpha0 else (LOWER if best >= beta else EXACT)
        tt_store(key, 1, bound, best, best_move, st, tt_key, tt_val, tt_info)
    over_budget(st, deadline)
    return best


# -- depth >= 2 -----------------------------------------------------------------------------

@numba.njit(**KERNEL)
def node(cur, mask, nb, depth, alpha, beta, ply, opp_wins, geo, w, st, tt_key, tt_val,
         tt_info, pv, pvlen, killers, work, deadline):
    """``fast_search``'s ``node``: the side to move cannot win at once (the parent saw to
    it); ``opp_wins`` are the opponent's winning cells."""
    st[ST_NODES] += 1
    if over_budget(st, deadline):
        return 0.0
    board, h, wd = geo[G_BOARD], geo[G_H], geo[G_W]
    mx = geo[G_MAX]
    quick = geo[G_QUICK] != 0
    # the playable cells that do not let the opponent win at once (bitboard.non_losing)
    possible = (mask + geo[G_BOTTOM]) & board
    forced = possible & opp_wins
    if forced:
        if forced & (forced - 1):
            possible = 0
        else:
            possible = forced
    possible &= ~(opp_wins >> 1)
    if possible == 0:                   # every move lets the opponent win at ply + 2
        st[ST_LEAVES] += 1
        pvlen[ply] = 0
        return float(-(mx - (ply + 2))) if quick else float(-mx)
    if nb >= geo[G_CELLS] - 2:          # our stone (and the opponent's) fill the board
        st[ST_LEAVES] += 1
        pvlen[ply] = 0
        return 0.0
    v = float(-(mx - (ply + 4))) if quick else float(-mx)       # a non-losing move: at worst
    if alpha < v:
        alpha = v
        if alpha >= beta:
            st[ST_CUTOFFS] += 1
            pvlen[ply] = 0
            return alpha
    v = float(mx - (ply + 3)) if quick else float(mx)           # no win at once: at best
    if beta > v:
        beta = v
        if alpha >= beta:
            st[ST_CUTOFFS] += 1
            pvlen[ply] = 0
            return beta
    wt = geo[G_WT]
    tt_move = -1
    use_tt = st[ST_USE_TABLE] != 0 and (st[ST_TABLE_LOW] != 0 or depth > 2)
    key = cur + mask
    if use_tt:
        st[ST_PROBES] += 1
        i = tt_find(key, st, tt_key)
        if i >= 0:
            if tt_info[i, 0] == depth:
                v = tt_val[i]
                if v >= wt:
                    v -= ply
                elif v <= -wt:
                    v += ply
                bound = tt_info[i, 1]
                if bound == EXACT or (bound == LOWER and v >= beta) or \
                        (bound == UPPER and v <= alpha):
                    st[ST_HITS] += 1
                    pv[ply, 0] = tt_info[i, 2]
                    pvlen[ply] = 1
                    return v
            tt_move = tt_info[i, 2]
    pvlen[ply] = 0
    opp = cur ^ mask
    nb += 1
    ply1 = ply + 1
    depth -= 1
    alpha0 = alpha
    best = NEG
    best_move = -1
    # Each loop below takes its child's value into the node's by hand: the same few lines as
    # the others, on purpose. One inlined helper returning (best, move, alpha, cut) for all
    # three measured 2-3% fewer nodes a second (7 of 8 interleaved runs, issue 35).
    if depth == 1:
        # the children are depth-1 nodes; the table's move first, then centre first
        for j in range(-1, wd):
            col = tt_move if j < 0 else geo[G_ORDER + j]
            if (j < 0 and col < 0) or (j >= 0 and col == tt_move):
                continue
            bit = possible & geo[G_COLMASK + col]
            if bit == 0:
                continue
            v = -node1(opp, mask | bit, -beta, -alpha, ply1, geo, w, st, tt_key, tt_val,
                       tt_info, pv, pvlen, killers, deadline)
            if st[ST_ABORTED]:
                return 0.0
            if v > best:
                best = v
                best_move = col
                if v > alpha:
                    alpha = v
                    set_pv(ply, col, pv, pvlen)
                    if v >= beta:
                        st[ST_CUTOFFS] += 1
                        break
    else:
        empty = board ^ mask
        if not possible & (possible - 1):
            # a single move
            bit = possible
            best_move = 0
            while not bit & geo[G_COLMASK + best_move]:
                best_move += 1
            best = -node(opp, mask | bit, nb, depth, -beta, -alpha, ply1,
                         wins(cur | bit, h) & empty, geo, w, st, tt_key, tt_val, tt_info, pv,
                         pvlen, killers, work, deadline)
            if st[ST_ABORTED]:
                return 0.0
            if best > alpha:
                set_pv(ply, best_move, pv, pvlen)
                if best >= beta:
                    st[ST_CUTOFFS] += 1
        else:
            # the table's move first, then the most winning cells, then centre first
            n = 0
            for col in range(wd):
                bit = possible & geo[G_COLMASK + col]
                if bit == 0:
                    continue
                pri = geo[G_PRI + col]
                if col == tt_move:
                    k = 4096 | pri
                else:
                    k = (popcount(wins(cur | bit, h) & empty) << 4) | pri
                j = n                   # insertion sort, largest first
                while j > 0 and work[ply, j - 1] < k:
                    work[ply, j] = work[ply, j - 1]
                    j -= 1
                work[ply, j] = k
                n += 1
            for j in range(n):
                col = geo[G_BYPRI + (work[ply, j] & 15)]
                bit = possible & geo[G_COLMASK + col]
                v = -node(opp, mask | bit, nb, depth, -beta, -alpha, ply1,
                          wins(cur | bit, h) & empty, geo, w, st, tt_key, tt_val, tt_info,
                          pv, pvlen, killers, work, deadline)
                if st[ST_ABORTED]:
                    return 0.0
                if v > best:
                    best = v
                    best_move = col
                    if v > alpha:
                        alpha = v
                        set_pv(ply, col, pv, pvlen)
                        if v >= beta:
                            st[ST_CUTOFFS] += 1
                            break
    if use_tt:
        bound = UPPER if best <= alpha0 else (LOWER if best >= beta else EXACT)
        stored = best
        if best >= wt:
            stored = best + ply
        elif best <= -wt:
            stored = best - ply
        tt_store(key, depth + 1, bound, stored, best_move, st, tt_key, tt_val, tt_info)
    return best


@numba.njit(**KERNEL)
def child(cur, mask, nb, depth, alpha, beta, ply, opp_wins, geo, w, st, tt_key, tt_val,
          tt_info, pv, pvlen, killers, work, deadline):
    """A root move's search (``cur``, ``mask``: the position after it, ``ply`` 1), as
    ``fast_search``'s root calls it: a depth-1 node when ``depth`` is 1, else ``node``.
    Returns its value from the side to move there (negate it for the root's). (``ply`` is
    an argument, not the constant 1: numba would compile ``node1`` apart for a constant,
    and a cached function compiled twice that way crashes when loaded.)"""
    if depth == 1:
        return node1(cur, mask, alpha, beta, ply, geo, w, st, tt_key, tt_val, tt_info, pv,
                     pvlen, killers, deadline)
    return node(cur, mask, nb, depth, alpha, beta, ply, opp_wins, geo, w, st, tt_key, tt_val,
                tt_info, pv, pvlen, killers, work, deadline)


@numba.njit(**KERNEL)
def root_cells(cur, mask, geo):
    """The root's winning cells: the side to move's, among its playable cells, and the
    opponent's (empty cells): ``bitboard.winning_cells`` twice (in Python the two took about
    as long as a depth-2 search's nodes)."""
    board, h = geo[G_BOARD], geo[G_H]
    empty = board ^ mask
    possible = (mask + geo[G_BOTTOM]) & board
    return wins(cur, h) & empty & possible, wins(cur ^ mask, h) & empty


@numba.njit(**KERNEL)
def root_moves(cur, mask, nb, depth, ply, safe, tt_move, cols, n, values, geo, w, st, tt_key,
               tt_val, tt_info, pv, pvlen, killers, work, deadline):
    """``fast_search``'s ``root_search`` below its table probe: the root's ``safe`` moves
    (``cur``, ``mask``, ``nb``: the root's stones, its mask, how many), each searched by
    ``child`` in the window ``fast_search`` gives it. Their order: the first ``n`` columns of
    ``cols`` (the course's, given), or with ``n`` 0 ``fast_search``'s, written into ``cols``:
    the table's move (``tt_move``, -1 for none) first, then at depth 3 and more the most
    winning cells after the move, then centre first. ``values[i]``: the value of the move
    ``cols[i]`` for the root. Returns how many moves were searched: fewer than all when a
    budget ran out (``st[ST_ABORTED]``). The first best move's principal variation is left in
    ``pv[ply - 1]``. ``ply`` is 1, the children's (a variable, as ``child``'s: a constant
    would compile ``child`` apart, see there). ``search`` calls it: the root's moves were
    once searched one Python call each, ordered in Python, which at depth 2 took more time
    than the search (issue 35)."""
    board, h, wd = geo[G_BOARD], geo[G_H], geo[G_W]
    empty = board ^ mask
    opp = cur ^ mask
    root = ply - 1
    if n == 0:
        for col in range(wd):
            bit = safe & geo[G_COLMASK + col]
            if bit == 0:
                continue
            pri = geo[G_PRI + col]
            if col == tt_move:
                k = 4096 | pri
            elif depth >= 3:
                k = (popcount(wins(cur | bit, h) & empty) << 4) | pri
            else:
                k = pri
            j = n                       # insertion sort, largest first
            while j > 0 and work[root, j - 1] < k:
                work[root, j] = work[root, j - 1]
                j -= 1
            work[root, j] = k
            n += 1
        for j in range(n):
            cols[j] = geo[G_BYPRI + (work[root, j] & 15)]
    alpha = NEG
    best = NEG
    for i in range(n):
        col = cols[i]
        bit = safe & geo[G_COLMASK + col]
        wc = wins(cur | bit, h) & empty if depth > 2 else 0
        v = -child(opp, mask | bit, nb + 1, depth - 1, NEG, -alpha, ply, wc, geo, w, st, tt_key,
                   tt_val, tt_info, pv, pvlen, killers, work, deadline)
        if st[ST_ABORTED]:
            return i
        values[i] = v
        if v > best:
            best = v
            set_pv(root, col, pv, pvlen)
            if v > alpha:
                alpha = v
    return n


@numba.njit(**KERNEL)
def carve(mem):
    """``mem``'s parts (see ``M_*``): st, tt_key, tt_val, tt_info, pv, pvlen, killers, work,
    cols, values, order."""
    return (mem[M_ST:M_ST + ST_SIZE], mem[M_TT_KEY:M_TT_VAL],
            mem[M_TT_VAL:M_TT_INFO].view(np.float64),
            mem[M_TT_INFO:M_PV].view(np.int8).reshape((TT_SLOTS, 3)),
            mem[M_PV:M_PVLEN].view(np.int8).reshape((PLIES, PLIES)), mem[M_PVLEN:M_KILLERS],
            mem[M_KILLERS:M_WORK], mem[M_WORK:M_COLS].reshape((PLIES, WORK)),
            mem[M_COLS:M_VALUES], mem[M_VALUES:M_ORDER].view(np.float64),
            mem[M_ORDER:M_OUT])


@numba.njit(**KERNEL)
def search(cur, mask, nb, depth, flags, tt_move, n_order, limit, deadline, geo, w, mem):
    """A whole search of the position (``cur``: the stones of the side to move, ``mask``,
    ``nb`` stones) to ``depth`` >= 1, in one call: ``fast_search``'s ``run`` and ``root``
    (a win at once, depth 1, a settled root, else every safe move's search by
    ``root_moves``), with its state in ``mem`` (one thread's: see ``M_*``), reset here.
    ``flags``: ``F_*``; ``tt_move``: the caller's table's move for the root (-1: none; read
    only when ``F_TABLE``, which counts the root's probe); ``n_order``: with ``F_ORDER``, how
    many columns the root's order in ``mem[M_ORDER:]`` holds (the course's, every playable
    column), else the playable columns centre first; ``limit``: the node budget;
    ``deadline``: ``perf_counter``'s time to stop at.

    Returns ``(status, move, value, n, pvlen, whole, nodes, leaves, cutoffs, tt_probes,
    tt_hits)``: ``status`` ``DONE``, ``ROOT_ONLY`` or the budget that stopped it; the root's
    values for its moves in ``mem[M_COLS:]`` / ``mem[M_VALUES:]`` (``n`` of them, in the
    order ``fast_search`` gives them: those searched, then the moves that lose at once), its
    principal variation in the first row of the pv (``pvlen`` moves); and both in
    ``mem[M_OUT:]`` for the caller to read in one go, the principal variation then the ``n``
    (move, value) pairs, the values as integers if ``whole`` (1: they and ``value`` are all
    whole numbers, as the levels' heuristics give). Stopped by a budget: the values of the
    moves searched before it, no move (-1)."""
    st, tt_key, tt_val, tt_info, pv, pvlen, killers, work, cols, values, order = carve(mem)
    gen, count = st[ST_GEN], st[ST_COUNT]
    if flags & F_NEW_GEN:
        gen += 1
        count = 0
        if gen >= 1 << (63 - KEY_BITS):         # the tags ran out: really empty it
            tt_key[:] = 0
            gen = 1
    st[:] = 0
    st[ST_GEN], st[ST_COUNT] = gen, count
    st[ST_LIMIT] = limit
    st[ST_NEXT_CLOCK] = CLOCK_EVERY
    zero = flags & F_ZERO != 0
    st[ST_ZERO] = 1 if zero else 0
    use_table = flags & F_TABLE != 0
    st[ST_USE_TABLE] = 1 if use_table else 0
    st[ST_TABLE_LOW] = 1 if flags & F_TABLE_LOW else 0
    killers[:] = geo[G_ORDER]
    st[ST_NODES] = 1
    board, wd, bottom = geo[G_BOARD], geo[G_W], geo[G_BOTTOM]
    mx, quick = geo[G_MAX], geo[G_QUICK] != 0
    loss2 = float(-(mx - 2)) if quick else float(-mx)
    possible = (mask + bottom) & board
    given = flags & F_ORDER != 0
    if not given:                               # the playable columns, centre first
        n_order = 0
        for j in range(wd):
            col = geo[G_ORDER + j]
            if possible & geo[G_COLMASK + col]:
                order[n_order] = col
                n_order += 1
    wins_now, opp_wins = root_cells(cur, mask, geo)
    if wins_now or depth == 1:                  # fast_search's root_scored
        n = 0
        if wins_now:
            for i in range(n_order):
                if wins_now & geo[G_COLMASK + order[i]]:
                    cols[0] = order[i]
                    values[0] = float(mx - 1) if quick else float(mx)
                    n = 1
                    break
        else:
            full = nb + 1 == geo[G_CELLS]
            first = (nb & 1) == 0
            opp = cur ^ mask
            for i in range(n_order):
                bit = possible & geo[G_COLMASK + order[i]]
                cols[i] = order[i]
                values[i] = 0.0 if full or zero else evaluate(cur | bit, opp, mask | bit,
                                                              first, geo, w)
            n = n_order
        best, move = NEG, -1
        for i in range(n):
            st[ST_NODES] += 1
            st[ST_LEAVES] += 1
            if values[i] > best:
                best, move = values[i], cols[i]
        pv[0, 0] = move
        return _result(ROOT_ONLY, move, best, n, 1, st, pv, cols, values, mem)
    # the playable cells that do not let the opponent win at once (bitboard.non_losing)
    forced = possible & opp_wins
    safe = possible
    if forced:
        safe = 0 if forced & (forced - 1) else forced
    safe &= ~(opp_wins >> 1)
    if safe == 0 or nb >= geo[G_CELLS] - 2:     # fast_search's root_settled
        st[ST_LEAVES] += 1
        if safe:
            for i in range(n_order):
                if safe & geo[G_COLMASK + order[i]]:
                    cols[0] = pv[0, 0] = order[i]
                    values[0] = 0.0
                    break
            return _result(ROOT_ONLY, cols[0], 0.0, 1, 1, st, pv, cols, values, mem)
        for i in range(n_order):
            cols[i] = order[i]
            values[i] = loss2
        col = order[0]
        if not given:                           # block one of the opponent's wins
            for i in range(n_order):
                if forced & geo[G_COLMASK + order[i]]:
                    col = order[i]
                    break
        after = mask | (possible & geo[G_COLMASK + col])
        after = (after + bottom) & board & opp_wins
        reply = -1
        for j in range(wd):
            if after & geo[G_COLMASK + geo[G_ORDER + j]]:
                reply = geo[G_ORDER + j]
                break
        pv[0, 0] = col
        pv[0, 1] = reply
        return _result(ROOT_ONLY, col, loss2, n_order, 2, st, pv, cols, values, mem)
    # fast_search's root_search: the table's move first, then the course's order (given),
    # or root_moves' own order
    if use_table:
        st[ST_PROBES] += 1
    n = 0
    if given:
        if tt_move >= 0 and safe & geo[G_COLMASK + tt_move]:
            cols[0] = tt_move
            n = 1
        for i in range(n_order):
            if order[i] != tt_move and safe & geo[G_COLMASK + order[i]]:
                cols[n] = order[i]
                n += 1
    ply = np.int64(1)           # the children's ply, not a constant: see child
    done = root_moves(cur, mask, nb, depth, ply, safe, tt_move, cols, n, values, geo, w, st,
                      tt_key, tt_val, tt_info, pv, pvlen, killers, work, deadline)
    if st[ST_ABORTED]:
        return _result(st[ST_ABORTED], -1, 0.0, done, 0, st, pv, cols, values, mem)
    best = NEG
    for i in range(done):
        best = max(best, values[i])
    n = done
    for i in range(n_order):                    # the moves that lose at once
        if not safe & geo[G_COLMASK + order[i]]:
            cols[n] = order[i]
            values[n] = loss2
            n += 1
    return _result(DONE, pv[0, 0], best, n, pvlen[0], st, pv, cols, values, mem)


@numba.njit(inline="always", **KERNEL)
def _result(status, move, value, n, length, st, pv, cols, values, mem):
    """``search``'s answer (see there): the node budget checked where ``fast_search``'s
    root checks it, the principal variation and the root's values copied to ``M_OUT``."""
    if (status == DONE or status == ROOT_ONLY) and st[ST_NODES] > st[ST_LIMIT]:
        status = NODE_BUDGET
    whole = value == np.floor(value)
    for i in range(n):
        if values[i] != np.floor(values[i]):
            whole = False
    for i in range(length):
        mem[M_OUT + i] = pv[0, i]
    for i in range(n):
        mem[M_OUT + length + 2 * i] = cols[i]
        mem[M_OUT + length + 2 * i + 1] = np.int64(values[i]) if whole else 0
    return (status, move, value, n, length, 1 if whole else 0, st[ST_NODES], st[ST_LEAVES],
            st[ST_CUTOFFS], st[ST_PROBES], st[ST_HITS])
