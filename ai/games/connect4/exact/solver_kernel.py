"""The compiled inner loop of the exact solver (``solver_fast``): Pascal
Pons' negamax with the reference's additions, node for node the algorithm of
``solver`` (the readable reference the tests compare against), compiled by
numba (``@njit(**KERNEL)``, below) over 64-bit integer bitboards.

What differs from Pons' search (the reference's docstring tells why, with the node counts):
fail-soft (a node returns and stores the best score its children proved, not alpha: the
root's null-window probes converge in fewer probes); a win in two ends a node without a
search (a move after which the opponent cannot stop the mover's next stone winning:
BitBully's ``doubleThreat``, made exact), and a node where no move wins in two knows that
its score is one below that best (its window's top comes down: a node asked only whether
it reaches the best ends there); a move just under one of the mover's own winning cells is tried last
(BitBully's order); the enhanced transposition cut-off (BitBully's: a move whose position
the table bounds low enough ends the node before any search, from ``MIRROR_UNTIL`` stones
while more than ``ETC_EMPTY`` cells are empty); and, up to ``MIRROR_UNTIL`` stones, a
position and its mirror image share their table entry.

Why compiled: the reference explores a few hundred thousand nodes a second in CPython (a node
is a few dozen integer operations on Python ints, each an object, and a few function calls);
compiled, a node is a few dozen machine instructions, and the early positions that need
millions of nodes become a matter of a second.

What differs from the reference, and why:

- bitboards are ``int64`` (``width * (height + 1) <= 55``: 7x6 uses 49 bits; see ``fits``);
  a node is given both sides' winning cells by
  its parent, which computed them to order its moves (``negamax``'s ``theirs`` and
  ``ours``): ~7% less time at plies 12-13 (the 20 slowest analyses, six interleaved rounds:
  1.77-1.97 s, 1.89-2.21 s before), the same nodes;
- a node computes the winning cells after each of its moves at once, in the processor's
  vector lanes (``wins_after_each``): ~15% less time again (ply 12's slowest analysis, best
  of five runs, six interleaved rounds: 312-404 ms, 372-428 ms before), the same nodes;
- the transposition table is Pons' own: a prime number of slots indexed by ``key % size``,
  each a 32-bit partial key and an 8-bit value (``2 * bound + is_lower + 64``; 0: empty). Two
  positions with the same slot and partial key have the same key (Chinese remainder theorem,
  since keys are below ``size * 2**32``), so a hit is never a collision. A new entry replaces
  the old one: the table never grows, and stays valid from one solve to the next;
- the opening book (``opening_book``): at 12 stones on 7x6 the node reads its exact score
  from the book's table, one record under the smaller of the position's key and its mirror
  image's (``book_layout``);
- the GIL: compiled with ``nogil=True``, a search lets the other threads of the process run
  (the server's event loop keeps answering pages while a worker thread searches), except for
  the instant the clock is read;
- the budget: the node count is compared with ``max_nodes`` at every node, the clock read
  every ``CLOCK_EVERY`` nodes (through numba's object mode, which takes the GIL: ~1 µs, so
  rarely; numba warns at compile time that this part is not GIL-free: this module, and
  pyproject.toml's pytest settings, silence that one warning). When either runs
  out the search unwinds at once and reports ``aborted``; the caller keeps only what was
  proven before.

What a node reads and writes (so that it allocates nothing): ``ctx`` (the board's constants,
``GEO_*``, the addresses of the arrays below, ``AT_*``, then the search's counters and flags,
``ST_*``), the table (keys, values), the book (its records),
and ``work`` (per ply, the moves and their sort keys); and ``deadline``, a number (seconds of
``time.perf_counter``, inf for none). ``root`` takes them as arrays; ``negamax``, the
recursion, takes only ``ctx``'s address and reaches the arrays through the addresses in it
(``load64``, ``store64``... below): numba passes an array as seven machine words or more, and
the six arrays made every recursive call copy 46 words onto the stack; without them the
analyses of plies 12-13 take ~18% less time (182 positions, best of three interleaved runs:
4.74 s, 3.88 s). ``FastSolver`` fills those addresses and keeps the arrays alive as long as
its ``ctx``.
"""
from __future__ import annotations

import time
import types as pytypes
import warnings

from . import numba_cache  # noqa: F401  (sets NUMBA_CACHE_DIR before numba is imported)
from . import book_layout
from ..bitboard import geometry
from ..bits_kernel import popcount, wins

import numba
import numpy as np
from llvmlite import ir
from numba.core import types
from numba.core.cpu import CPUTargetOptions
from numba.core.extending import intrinsic

# Compiling, numba notes that the clock reading (object mode, below) holds the GIL: known and
# meant (see above); not a message for the people running the app or the command line.
warnings.filterwarnings("ignore", message="Code running in object mode won't allow parallel",
                        category=numba.NumbaWarning)

# geo: the constants of one board size
GEO_W, GEO_H, GEO_BOTTOM, GEO_BOARD, GEO_CELLS, GEO_BOOK_PLY, GEO_ORDER = range(7)
# GEO_ORDER .. +W: columns centre first; then W column masks (to 23 for 9 columns)
# then the addresses of the arrays the search reads and writes, and two of their sizes
AT_WORK, AT_TT_KEYS, AT_TT_VALS, TT_SLOTS, AT_BOOK, BOOK_SLOTS = range(24, 30)
# then LANES column masks in the search's order (centre first; zeros past the board's width)
GEO_LANES = 32
LANES = 8
# then from ST_BASE the counters and flags of one search
ST_BASE = GEO_LANES + LANES
ST_NODES, ST_MAX_NODES, ST_ABORTED, ST_NEXT_CLOCK, ST_BOOK_HITS = range(ST_BASE, ST_BASE + 5)
CTX_SIZE = ST_BASE + 5
# work: per ply (a row of WORK_ROW), the moves (columns 0..8), their sort keys (from SCORES)
# and the mover's winning cells after each (from CELLS)
WORK_ROW = 48
SCORES = 16
CELLS = 32
CLOCK_EVERY = 1 << 14
NO_LIMIT = np.iinfo(np.int64).max
ETC_EMPTY = 10             # as solver.py: the enhanced transposition cut-off while more
                           # cells are empty (and past MIRROR_UNTIL stones)
MIRROR_UNTIL = 16          # as solver.py: a position and its mirror share their entry
EMPTY = 0

#: How the kernel is compiled: machine code cached on disk, without the GIL; integer division
#: by zero unchecked (numpy's error model: none can happen here, and Python's check is a
#: branch per division); and without numba's reference counting (``_nrt=False``): a node
#: allocates nothing, yet with it each call counted references to each of its ten arrays up
#: and down, which took half the time of a node (2x more nodes a second without it).
KERNEL = dict(cache=True, nogil=True, error_model="numpy")
if hasattr(CPUTargetOptions, "_nrt"):       # numba's own option (its tests use it), kept
    KERNEL["_nrt"] = False                 # optional should a later numba drop it


def _memory(nbtype, bits):
    """``load(address, i)`` and ``store(address, i, v)``: element ``i`` of an array of
    ``nbtype`` at ``address`` (LLVM's getelementptr, load and store). No bounds check, as
    numba's own indexing without ``boundscheck``."""
    item = ir.IntType(bits)

    @intrinsic
    def load(typingctx, address, i):
        def codegen(context, builder, signature, args):
            at = builder.inttoptr(args[0], item.as_pointer())
            return builder.load(builder.gep(at, [args[1]]))
        return nbtype(types.int64, types.int64), codegen

    @intrinsic
    def store(typingctx, address, i, v):
        def codegen(context, builder, signature, args):
            at = builder.inttoptr(args[0], item.as_pointer())
            builder.store(args[2], builder.gep(at, [args[1]]))
            return context.get_dummy_value()
        return types.void(types.int64, types.int64, nbtype), codegen
    return load, store


load64, store64 = _memory(types.int64, 64)
load_u32, store_u32 = _memory(types.uint32, 32)
load_i8, store_i8 = _memory(types.int8, 8)


@intrinsic
def wins_after_each(typingctx, cur, possible, empty, h, lanes):
    """``wins(cur | m, h) & empty`` for each move ``m = possible & mask`` of the ``LANES``
    column masks at address ``lanes``, all at once: the same shifts and masks as
    :func:`wins`, on a vector of ``LANES`` 64-bit lanes (the processor's vector
    instructions, as wide as it has; numba's own vectoriser does not reach code without a
    loop). Returns a tuple of ``LANES``. Why: a node orders its moves by these cells, and
    computing them one move at a time took ~15% of the search's time."""
    i64, i32 = ir.IntType(64), ir.IntType(32)
    vec = ir.VectorType(i64, LANES)
    result = types.UniTuple(types.int64, LANES)

    def codegen(context, builder, signature, args):
        cur, possible, empty, h, lanes = args

        def splat(x):
            x = ir.Constant(i64, x) if isinstance(x, int) else x
            v = builder.insert_element(ir.Constant(vec, ir.Undefined), x, ir.Constant(i32, 0))
            return builder.shuffle_vector(v, ir.Constant(vec, ir.Undefined),
                                          ir.Constant(ir.VectorType(i32, LANES), [0] * LANES))
        masks = builder.load(builder.inttoptr(lanes, vec.as_pointer()), align=8)
        p = builder.or_(splat(cur), builder.and_(splat(possible), masks))

        def up(s):
            return builder.shl(p, splat(s))

        def down(s):
            return builder.lshr(p, splat(s))       # p >= 0: as numba's >> on int64
        r = builder.and_(builder.and_(up(1), up(2)), up(3))
        for s in (h, builder.add(h, ir.Constant(i64, 1)), builder.add(h, ir.Constant(i64, 2))):
            s2, s3 = builder.mul(s, ir.Constant(i64, 2)), builder.mul(s, ir.Constant(i64, 3))
            t = builder.and_(up(s), up(s2))
            r = builder.or_(r, builder.and_(t, up(s3)))
            r = builder.or_(r, builder.and_(t, down(s)))
            t = builder.and_(down(s), down(s2))
            r = builder.or_(r, builder.and_(t, up(s)))
            r = builder.or_(r, builder.and_(t, down(s3)))
        r = builder.and_(r, splat(empty))
        return context.make_tuple(builder, result, [
            builder.extract_element(r, ir.Constant(i32, i)) for i in range(LANES)])
    return result(*[types.int64] * 5), codegen


@numba.njit(**KERNEL)
def book_key(cur, mask, w, h, mirror):
    """The opening book's key of a position (``book_layout.huffman_key``, compiled):
    columns left to right (right to left for the mirror image), each bottom to top, a stone
    of the side to move ``10``, of the other ``11``, ``0`` after each column, one more ``0``
    at the end; as a signed 32-bit number."""
    h1 = h + 1
    v = 0
    for i in range(w):
        c = w - 1 - i if mirror else i
        for r in range(h):
            bit = 1 << (c * h1 + r)
            if mask & bit == 0:
                break
            v = (v << 2) | (2 if cur & bit else 3)
        v <<= 1
    v <<= 1
    if v >= 1 << 31:
        v -= 1 << 32
    return v


#: The book's table (``book_layout`` says how it is laid out; ``opening_book.load`` builds it).
BOOK_RECORD = book_layout.RECORD_BYTES
BOOK_HASH = book_layout.HASH                  # (numba: constants, as the module's globals)


@numba.njit(inline="always", **KERNEL)
def book_slot(u, slots):
    """The home record of the 32-bit key ``u`` among ``slots`` (``book_layout.home``,
    compiled)."""
    return (((u * BOOK_HASH) & 0xFFFFFFFF) * slots) >> 32


@numba.njit(**KERNEL)
def book_key_mirrored(k, w, h):
    """The key of the mirror image of the position whose book key is ``k``."""
    cur, mask = book_position(k, w, h)
    return book_key(cur, mask, w, h, True)


@numba.njit(**KERNEL)
def book_position(k, w, h):
    """The position (``cur``: the side to move, ``mask``) whose book key is ``k``: the key
    read back (columns left to right, each bottom to top: ``10`` a stone of the side to move,
    ``11`` of the other, ``0`` closing the column). A key that is no position's (more
    stones than its bits) reads as far as its bits go, no further."""
    u = k & 0xFFFFFFFF
    at = 31
    cur, mask = 0, 0
    for c in range(w):
        r = 0
        while at > 0 and r < h and (u >> at) & 1:
            bit = 1 << (c * (h + 1) + r)
            mask |= bit
            if (u >> (at - 1)) & 1 == 0:
                cur |= bit
            at -= 2
            r += 1
        at -= 1
    return cur, mask


@numba.njit(**KERNEL)
def book_homes(keys, scores, slots, w, h, out):
    """For each position of the book (``keys`` and ``scores`` as its file has them), into
    ``out``: its home record, the key it is kept under (the smaller of its own and its
    mirror image's, 32 bits) and its score, as one number that sorts by home:
    ``home << 40 | key << 8 | score + 128``."""
    for i in range(len(keys)):
        k = np.int64(keys[i])
        u = min(k, book_key_mirrored(k, w, h)) & 0xFFFFFFFF
        out[i] = (book_slot(u, slots) << 40) | (u << 8) | (np.int64(scores[i]) + 128)


@numba.njit(**KERNEL)
def book_place(table, records):
    """Write ``records`` (``book_homes``', sorted) into ``table``, the address of zeroed
    records: each at its home or, taken, the next free one. A position whose mirror image
    the book also holds (the same key) is written once. Returns the number of records up
    to the last one written, and how many positions were written."""
    end, written, last = 0, 0, -1
    for i in range(len(records)):
        x = records[i]
        u = (x >> 8) & 0xFFFFFFFF
        if u == last:
            continue
        last = u
        at = max(x >> 40, end)
        store_u32(table + BOOK_RECORD * at, 0, np.uint32(u))
        store_i8(table + BOOK_RECORD * at + 4, 0, np.int8((x & 0xFF) - 128))
        end = at + 1
        written += 1
    return end, written


@numba.njit(**KERNEL)
def book_lookup(table, slots, u):
    """The score kept under the 32-bit key ``u``, or -128 when none is: its record, from
    its home on (``table``: the address of the records, ``slots`` their homes)."""
    at = table + BOOK_RECORD * book_slot(u, slots)
    while True:
        r = np.int64(load_u32(at, 0))
        if r == u:
            return load_i8(at + 4, 0)
        if r == 0:
            return -128
        at += BOOK_RECORD


@numba.njit(**KERNEL)
def book_probe_at(cur, mask, w, h, table, slots):
    """The book's score of the position (side to move), or -128 when it is not in the book:
    the record of the smaller of its key and its mirror image's (``BOOK_RECORD``)."""
    u = min(book_key(cur, mask, w, h, False), book_key(cur, mask, w, h, True)) & 0xFFFFFFFF
    return book_lookup(table, slots, u)


@numba.njit(**KERNEL)
def book_probe(cur, mask, w, h, table, slots):
    """:func:`book_probe_at` for the book's table as an array (``uint8``)."""
    return book_probe_at(cur, mask, w, h, table.ctypes.data, slots)


@numba.njit(**KERNEL)
def book_score(cur, mask, ctx):
    """:func:`book_probe_at` for the book whose address ``ctx`` holds."""
    return book_probe_at(cur, mask, ctx[GEO_W], ctx[GEO_H], ctx[AT_BOOK], ctx[BOOK_SLOTS])


@numba.njit(cache=True, nogil=True)
def _clock():
    with numba.objmode(t="float64"):
        t = time.perf_counter()
    return t


@numba.njit(inline="always", **KERNEL)
def board_of(cx):
    """The board's width, height, bottom row, cells and cell count, read from ``ctx``."""
    return (load64(cx, GEO_W), load64(cx, GEO_H), load64(cx, GEO_BOTTOM),
            load64(cx, GEO_BOARD), load64(cx, GEO_CELLS))


@numba.njit(inline="always", **KERNEL)
def slots_of(cx):
    """The table's number of slots, read from ``ctx``."""
    return load64(cx, TT_SLOTS)


@numba.njit(**KERNEL)
def negamax(cur, mask, nb, alpha, beta, cx, deadline, theirs, ours):
    """Pons' negamax, fail-soft: the score of (cur, mask) within [alpha, beta] (the exact score
    if it lies strictly inside, else a bound on the right side, as tight as the search
    proved: at most alpha after a fail-low, at least beta after a cut-off). The side to move
    cannot win at once. ``cx``: the address of ``ctx`` (the module's docstring says why).
    ``theirs``, ``ours``: the winning cells of the opponent and of the side to move, empty
    or not (``wins``): the parent computed both (the first to order its moves, the second
    for its own threats), so a node computes neither again; one ``wins`` fewer in each
    node, two in each node that orders its moves.
    Long on purpose: the solver's inner loop."""
    nodes = load64(cx, ST_NODES) + 1
    store64(cx, ST_NODES, nodes)
    if nodes > load64(cx, ST_MAX_NODES):
        store64(cx, ST_ABORTED, 1)
        return 0
    if nodes >= load64(cx, ST_NEXT_CLOCK):
        store64(cx, ST_NEXT_CLOCK, nodes + CLOCK_EVERY)
        if _clock() > deadline:
            store64(cx, ST_ABORTED, 1)
            return 0
    w, h, bottom, board, cells = board_of(cx)
    empty = board ^ mask
    opp_wins = theirs & empty
    possible = (mask + bottom) & board
    # Anticipate direct losing moves: two threats lose, one must be blocked, and never
    # play under an opponent's winning cell.
    forced = possible & opp_wins
    if forced:
        if forced & (forced - 1):
            return -((cells - nb) // 2)
        possible = forced
    possible &= ~(opp_wins >> 1)
    if possible == 0:
        return -((cells - nb) // 2)
    if nb >= cells - 2:
        return 0                                   # our stone and theirs fill the board
    lo = -((cells - 2 - nb) // 2)
    if alpha < lo:
        alpha = lo
        if alpha >= beta:
            return alpha
    hi = (cells - 1 - nb) // 2
    if beta > hi:
        beta = hi
        if alpha >= beta:
            return beta
    key = cur + mask
    if nb <= MIRROR_UNTIL:
        # early on, a position and its mirror image share their entry (the same score)
        h1 = h + 1
        col7 = (1 << h1) - 1
        mk = 0
        for c in range(w):
            mk |= ((key >> (c * h1)) & col7) << ((w - 1 - c) * h1)
        if mk < key:
            key = mk
    tk, tv = load64(cx, AT_TT_KEYS), load64(cx, AT_TT_VALS)
    size = slots_of(cx)
    slot = key % size
    partial = np.uint32(key & 0xFFFFFFFF)
    v = load_i8(tv, slot)
    if v != EMPTY and load_u32(tk, slot) == partial:
        b = (np.int64(v) - 64) >> 1
        if (np.int64(v) - 64) & 1:                 # a lower bound
            if alpha < b:
                alpha = b
                if alpha >= beta:
                    return alpha
        elif beta > b:                             # an upper bound
            beta = b
            if alpha >= beta:
                return beta
    if nb == load64(cx, GEO_BOOK_PLY):
        s = book_probe_at(cur, mask, w, h, load64(cx, AT_BOOK), load64(cx, BOOK_SLOTS))
        if s != -128:
            store64(cx, ST_BOOK_HITS, load64(cx, ST_BOOK_HITS) + 1)
            return s
    if nb >= MIRROR_UNTIL and cells - nb > ETC_EMPTY:
        # Enhanced transposition cut-off (BitBully's): a move whose position the table
        # already bounds low enough (its upper bound u, -u >= beta) cuts the node before any
        # search; the first such move, columns left to right. Past MIRROR_UNTIL stones (a
        # child's key needs no mirror image) while more than ETC_EMPTY cells are empty.
        opp = cur ^ mask
        for i in range(w):
            m = possible & load64(cx, GEO_ORDER + w + i)
            if m:
                ck = opp + (mask | m)
                cs = ck % size
                cv = np.int64(load_i8(tv, cs)) - 64
                if (cv != EMPTY - 64 and not cv & 1 and -(cv >> 1) >= beta
                        and load_u32(tk, cs) == np.uint32(ck & 0xFFFFFFFF)):
                    return -(cv >> 1)
    # Moves with the most new winning cells first, centre first among equals; last, a move
    # just under one of our winning cells (the opponent's reply there would take it away:
    # BitBully's order), its own cells ordering it among such moves.
    own = ours & empty
    wk, row = load64(cx, AT_WORK), nb * WORK_ROW
    after = wins_after_each(cur, possible, empty, h, cx + 8 * GEO_LANES)
    n = 0
    for i in range(w):
        col = load64(cx, GEO_ORDER + i)
        m = possible & load64(cx, GEO_ORDER + w + col)
        if m:
            cw = after[i] if i < LANES else wins(cur | m, h) & empty
            # Win in two: after m (which does not lose, so the opponent cannot win first)
            # the opponent cannot stop our next stone winning. Exactly when our winning
            # cells it can play are two (it blocks one, we take the other), or one with
            # another of ours just above it (it must take the first, we take the second),
            # or none but every cell it can play lies under one of ours (zugzwang).
            sc = popcount(cw)
            if sc:
                nxt = ((mask | m) + bottom) & board
                t = cw & nxt
                if t & (t - 1) or cw & (t << 1) or (t == 0 and ((nxt << 1) & ~cw) == 0):
                    return hi
            if own & (m << 1):
                sc -= 16
            j = n
            while j > 0 and load64(wk, row + SCORES + j - 1) < sc:
                store64(wk, row + j, load64(wk, row + j - 1))
                store64(wk, row + SCORES + j, load64(wk, row + SCORES + j - 1))
                store64(wk, row + CELLS + j, load64(wk, row + CELLS + j - 1))
                j -= 1
            store64(wk, row + j, m)
            store64(wk, row + SCORES + j, sc)
            store64(wk, row + CELLS + j, cw)
            n += 1
    # No move wins in two, and that test is exact: at best we win a move later.
    if beta > hi - 1:
        beta = hi - 1
        if alpha >= beta:
            return beta
    opp = cur ^ mask
    best = -64
    for i in range(n):
        m = load64(wk, row + i)
        score = -negamax(opp, mask | m, nb + 1, -beta, -alpha, cx, deadline,
                         load64(wk, row + CELLS + i), opp_wins)
        if load64(cx, ST_ABORTED):
            return 0
        if score >= beta:
            store_u32(tk, slot, partial)
            store_i8(tv, slot, np.int8(2 * score + 1 + 64))
            return score                           # beta cut-off
        if score > best:
            best = score
            if score > alpha:
                alpha = score
    # fail-soft: the best child's score, an upper bound often below alpha
    store_u32(tk, slot, partial)
    store_i8(tv, slot, np.int8(2 * best + 64))
    return best


def _specialised(fn, name, **fixed):
    """A second compiled copy of ``fn`` (its own machine code, cached as ``name``) whose
    global names ``fixed`` are replaced, and whose calls to itself call the copy."""
    py = fn.py_func
    scope = dict(py.__globals__, **fixed)
    copy = pytypes.FunctionType(py.__code__, scope, name, py.__defaults__, py.__closure__)
    copy.__qualname__, copy.__doc__ = name, py.__doc__
    scope[py.__name__] = compiled = numba.njit(**KERNEL)(copy)
    return compiled


#: The table size ``negamax_7x6`` is compiled for: the analysis's (``analysis.table_slots``).
SLOTS_7X6 = 2_097_169


_G76 = geometry(7, 6)
_BOTTOM_7X6, _BOARD_7X6, _CELLS_7X6 = _G76.bottom, _G76.board, _G76.cells   # numba: constants


@numba.njit(inline="always", **KERNEL)
def _board_7x6(cx):
    return 7, 6, _BOTTOM_7X6, _BOARD_7X6, _CELLS_7X6


@numba.njit(inline="always", **KERNEL)
def _slots_7x6(cx):
    return SLOTS_7X6


#: negamax for the 7x6 board and a table of SLOTS_7X6 slots, both known when compiled: LLVM
#: then unrolls the loops over the columns, folds the shifts and bounds, and turns each
#: ``key % size`` (a node makes up to eight) from a division into a multiplication: ~10% less
#: time with the board fixed, ~5% more with the table's size (the 20 slowest analyses of
#: plies 12-13, best of four interleaved runs). The same source; ``root`` calls it when the
#: board and the table are those.
negamax_7x6 = _specialised(negamax, "negamax_7x6", board_of=_board_7x6, slots_of=_slots_7x6)


@numba.njit(**KERNEL)
def root(cur, mask, nb, alpha, beta, ctx, deadline):
    """negamax at the root (fail-soft as well), also telling which column reached the score
    (-1: none did, the window was decided by the bounds alone). Returns (score, column). Its
    moves keep Pons' order (the solver's default move, ``solver_fast._default_move``)."""
    nodes = ctx[ST_NODES] + 1
    ctx[ST_NODES] = nodes
    w, h, bottom = ctx[GEO_W], ctx[GEO_H], ctx[GEO_BOTTOM]
    board, cells = ctx[GEO_BOARD], ctx[GEO_CELLS]
    h1 = h + 1
    empty = board ^ mask
    opp_wins = wins(cur ^ mask, h) & empty
    possible = (mask + bottom) & board
    forced = possible & opp_wins
    if forced:
        if forced & (forced - 1):
            return -((cells - nb) // 2), -1
        possible = forced
    possible &= ~(opp_wins >> 1)
    if possible == 0:
        return -((cells - nb) // 2), -1
    if nb >= cells - 2:
        return 0, -1
    lo = -((cells - 2 - nb) // 2)
    if alpha < lo:
        alpha = lo
        if alpha >= beta:
            return alpha, -1
    hi = (cells - 1 - nb) // 2
    if beta > hi:
        beta = hi
        if alpha >= beta:
            return beta, -1
    wk, row = ctx[AT_WORK], nb * WORK_ROW
    n = 0
    for i in range(w):
        col = ctx[GEO_ORDER + i]
        m = possible & ctx[GEO_ORDER + w + col]
        if m:
            cw = wins(cur | m, h) & empty
            sc = popcount(cw)
            j = n
            while j > 0 and load64(wk, row + SCORES + j - 1) < sc:
                store64(wk, row + j, load64(wk, row + j - 1))
                store64(wk, row + SCORES + j, load64(wk, row + SCORES + j - 1))
                store64(wk, row + CELLS + j, load64(wk, row + CELLS + j - 1))
                j -= 1
            store64(wk, row + j, m)
            store64(wk, row + SCORES + j, sc)
            store64(wk, row + CELLS + j, cw)
            n += 1
    opp = cur ^ mask
    best = -1
    value = -64
    for i in range(n):
        m = load64(wk, row + i)
        col = 0
        while not (m >> (col * h1)) & ((1 << h) - 1):
            col += 1
        if w == 7 and h == 6 and ctx[TT_SLOTS] == SLOTS_7X6:
            score = -negamax_7x6(opp, mask | m, nb + 1, -beta, -alpha, ctx.ctypes.data, deadline,
                                 load64(wk, row + CELLS + i), opp_wins)
        else:
            score = -negamax(opp, mask | m, nb + 1, -beta, -alpha, ctx.ctypes.data, deadline,
                             load64(wk, row + CELLS + i), opp_wins)
        if ctx[ST_ABORTED]:
            return 0, best
        if score >= beta:
            return score, col                      # beta cut-off
        if score > value:
            value = score
            if score > alpha:
                alpha = score
                best = col
    return value, best
