"""Connect-4's depth-limited alpha-beta, compiled: ``fast_search``'s search node for node, its
inner loop in numba (``search_kernel``), its evaluation any weights of ``terms``' terms.

``alphabeta(game, state, depth, heuristic=h, ...)`` takes ``fast_search.alphabeta``'s
arguments and returns its ``SearchResult``: the same move, value, principal variation's
first move and node counts, for the levels' heuristics (``threats``, ``cells``: their
weights in ``terms.LEVEL_WEIGHTS``) and for a ``terms.WeightedHeuristic`` of any weights,
whose values are those of the course's search (``ai.course.search``) with that heuristic
(tests/test_compiled_search.py checks both). It does not record: a search whose tree is
shown runs ``fast_search`` (``recorded``), which replays this one node for node
(``ai.engine.with_tree``).

The root is here, in Python, as in ``fast_search`` (a few moves: wins at once, settled
positions, the root's move order and its table entry, ``root_values``); every root move's
search is one call of the kernel. The kernel's state (its table, counters, principal
variation) belongs to one thread (``_Searcher``, per thread, built at the first search).
"""
from __future__ import annotations

import threading
import time
from functools import lru_cache

import numpy as np

from ai.course.scores import (EXACT, HEURISTIC_MAX, INF, MAX_SCORE, WIN_THRESHOLD,
                              SearchAborted, SearchResult, SearchStats, check_limits)

from . import search_kernel as K
from .bitboard import geometry, non_losing
from .heuristic import Threats, cell_values
from .terms import N_TERMS, Weights, whole, weights_of

__all__ = ["alphabeta", "supports", "search"]

assert K.N_TERMS == N_TERMS
_INF = 1e300
_NO_LIMIT = int(np.iinfo(np.int64).max)


def _geo(game, quick: bool) -> np.ndarray:
    """The kernel's constants for one board size and scoring (``search_kernel.G_*``), made
    once per size: the game is handed in (never imported: the rules import this module)."""
    key = (game.width, game.height, quick)
    if key not in _GEOS:
        _GEOS[key] = _make_geo(game, quick)
    return _GEOS[key]


_GEOS: dict[tuple[int, int, bool], np.ndarray] = {}


def _make_geo(game, quick: bool) -> np.ndarray:
    width, height = game.width, game.height
    g = geometry(width, height)
    geo = np.zeros(K.GEO_SIZE, dtype=np.int64)
    geo[K.G_W], geo[K.G_H], geo[K.G_H1] = width, height, g.h1
    geo[K.G_BOTTOM], geo[K.G_BOARD], geo[K.G_CELLS], geo[K.G_CEN] = (g.bottom, g.board,
                                                                   g.cells, g.centre)
    geo[K.G_ODD] = g.bottom * sum(1 << r for r in range(0, height, 2))   # 1st, 3rd... rows
    geo[K.G_EVEN] = g.bottom * sum(1 << r for r in range(1, height, 2))
    geo[K.G_QUICK], geo[K.G_MAX], geo[K.G_WT] = int(quick), MAX_SCORE, WIN_THRESHOLD
    geo[K.G_LIMIT] = HEURISTIC_MAX - 1
    for k, (shift, starts) in enumerate(Threats(game).dirs):
        geo[K.G_SHIFT + k], geo[K.G_STARTS + k] = shift, starts
    for i, c in enumerate(g.order):
        geo[K.G_ORDER + i] = c
    for c in range(width):
        geo[K.G_PRI + c] = g.priority[c]
        geo[K.G_BYPRI + g.priority[c]] = c
        geo[K.G_COLMASK + c] = g.colmask[c]
    grid = cell_values(width, height)
    groups: dict[int, int] = {}
    for c in range(width):
        for r in range(height):
            v = grid[height - 1 - r][c]
            groups[v] = groups.get(v, 0) | (1 << (c * g.h1 + r))
    geo[K.G_NGROUPS] = len(groups)
    for i, (v, m) in enumerate(sorted(groups.items())):
        geo[K.G_GROUPS + 2 * i], geo[K.G_GROUPS + 2 * i + 1] = v, m
    geo.flags.writeable = False
    return geo


@lru_cache(maxsize=1024)
def _weights_array(weights: Weights) -> np.ndarray:
    """The kernel's weights, made once per weights (a search at depth 2 takes some
    microseconds: its set-up counts). Shared: the kernel never writes them (left writable all
    the same: a read-only array is another type to numba, and would compile the kernel again)."""
    return np.array([float(w) for w in weights.values] + [float(weights.alpha)])


def evaluator(game, weights: Weights):
    """``terms.evaluate(game, state, player, weights)`` by the kernel, as
    ``f(state, player)``: the same number to the last bit (the kernel adds the terms in the
    same order), some hundred times faster, for the course's Python search (the trees it
    draws); None for a board the kernel does not fit."""
    if not K.fits(game.width, game.height):
        return None
    geo, w = _geo(game, False), _weights_array(weights)

    def value(state, player):
        p = game.stones(state, player)
        return whole(K.evaluate(p, p ^ state.mask, state.mask, player == 0, geo, w))
    return value


def supports(game, heuristic=None, **options) -> bool:
    """True when this search gives ``fast_search``'s answer for these options: those
    ``fast_search.supports`` takes, with a ``terms.WeightedHeuristic`` too, on a board whose
    bitboards fit the kernel (7x6 and smaller). (``alphabeta`` with ``record`` runs
    ``fast_search``: ``recorded``.)"""
    if game.name != "connect4" or game.leaf_scores or not K.fits(game.width, game.height):
        return False
    weights = weights_of(heuristic)
    if weights is None:
        return False
    hg = getattr(heuristic, "game", None)
    if heuristic is not None and (hg is None or (hg.width, hg.height) != (game.width,
                                                                         game.height)):
        return False
    if options.get("tie_break", "first") not in ("first", None):
        return False
    if options.get("window", "infinite") not in (None, "infinite", "course"):
        return False
    depth = options.get("depth")
    if depth is not None and (isinstance(depth, bool) or not isinstance(depth, int) or depth < 0):
        return False
    return True


class _Searcher:
    """One thread's kernel state: the table (its generations), the counters, the principal
    variation's rows, the killers and the sort keys."""

    def __init__(self):
        self.st = np.zeros(K.ST_SIZE, dtype=np.int64)
        self.tt_key = np.zeros(K.TT_SLOTS, dtype=np.int64)
        self.tt_val = np.zeros(K.TT_SLOTS, dtype=np.float64)
        self.tt_info = np.zeros((K.TT_SLOTS, 3), dtype=np.int8)
        n = 64
        self.pv = np.zeros((n, n), dtype=np.int8)
        self.pvlen = np.zeros(n, dtype=np.int64)
        self.killers = np.zeros(n, dtype=np.int64)
        self.work = np.zeros((n, K.WORK), dtype=np.int64)
        self.cols = np.zeros(16, dtype=np.int64)        # the root's moves, their values
        self.values = np.zeros(16, dtype=np.float64)
        self.table = None               # the caller's table this generation serves
        self.key = None                 # and the weights and scoring it holds values of
        self.busy = False

    def generation(self, table, key):
        """Start a new generation of the table unless this search continues the last one's
        (the same caller's table, the same weights and scoring: iterative deepening)."""
        st = self.st
        if table is None or table is not self.table or key != self.key:
            st[K.ST_GEN] += 1
            st[K.ST_COUNT] = 0
            if st[K.ST_GEN] >= 1 << (63 - K.KEY_BITS):    # the tags ran out: really empty it
                self.tt_key[:] = 0
                st[K.ST_GEN] = 1
        self.table, self.key = table, key


_local = threading.local()


def _searcher() -> _Searcher:
    s = getattr(_local, "searcher", None)
    if s is None or s.busy:
        s = _Searcher()
        if getattr(_local, "searcher", None) is None:
            _local.searcher = s
    return s


def alphabeta(game, state=None, depth=None, *, heuristic=None, order=None, quick_wins=True,
              window="infinite", table=None, record=False, max_nodes=None, time_limit=None,
              tie_break="first", seed=None, course_move=False) -> SearchResult:
    """``fast_search.alphabeta``, compiled (see the module's text): the same arguments, the
    same ``SearchResult``. ``order`` is not used (``fast_search``'s order), unless
    ``course_move``: then the root tries its moves in the course's ``order`` (the table's move
    first), so that the move is the course's own (``ai.course.search``: the first best in
    its order), not only one of its best; below the root, ``fast_search``'s order, which
    changes no value. With ``record``, ``fast_search`` runs it (``recorded``).

    Raises:
        ValueError: options ``supports`` refuses, a bad depth or budget.
    """
    if record and not course_move:
        return recorded(game, state, depth, heuristic=heuristic, order=order,
                        quick_wins=quick_wins, window=window, table=table, record=record,
                        max_nodes=max_nodes, time_limit=time_limit, tie_break=tie_break,
                        seed=seed)
    if record or not supports(game, heuristic, window=window, tie_break=tie_break):
        raise ValueError(f"the compiled Connect-4 search does not run {game!r} with heuristic "
                         f"{heuristic!r}, window {window!r}, tie_break {tie_break!r}, record "
                         f"{bool(record)}: use ai.course.search.alphabeta")
    check_limits(depth, max_nodes, time_limit)
    state = game.initial_state() if state is None else state
    start = time.perf_counter()
    deadline = None if time_limit is None else start + time_limit
    values: dict = {}
    complete = True
    root_order = None
    if course_move and not state.over:
        from ai.course.search import move_orderer
        root_order = list(move_orderer(game, order)(state, game.actions(state)))
    try:
        move, value, pv, counts = search(game, state, depth, weights_of(heuristic),
                                         heuristic_given=heuristic is not None, table=table,
                                         quick_wins=quick_wins, max_nodes=max_nodes,
                                         deadline=deadline, root_values=values,
                                         root_order=root_order)
    except SearchAborted as stop:
        complete, counts = False, stop.stats
        if values:
            move = max(values, key=values.get)
            value = values[move]
        else:
            moves = root_order or game.actions(state)
            move, value = (moves[0] if moves else None), 0
        pv = [move] if move is not None else []
    stats = SearchStats(**counts)
    stats.elapsed = time.perf_counter() - start
    stats.depth = depth if complete and depth is not None else 0
    return SearchResult(move, value, tuple(pv), stats,
                        "alphabeta-tt" if table is not None else "alphabeta", depth, complete,
                        None, values)


def recorded(game, state=None, depth=None, *, table=None, **options) -> SearchResult:
    """The search that records its tree: ``fast_search.alphabeta`` (which records), given
    first what this thread's kernel stored for ``table`` (iterative deepening's earlier depths,
    searched here without a tree: ``ai.engine`` records only the last), so that it visits the
    nodes the kernel would have visited.

    Raises:
        ValueError: a heuristic ``fast_search`` does not run (a ``terms.WeightedHeuristic``:
            record with ``ai.course.search``).
    """
    from . import fast_search
    if table is not None:
        s = getattr(_local, "searcher", None)
        if s is not None and s.table is table:
            _export(s, getattr(table, "data", table))
            s.table = None              # the dict moves on without the kernel
    return fast_search.alphabeta(game, state, depth, table=table, **options)


def _export(s, tdata) -> None:
    """Copy the kernel's entries of this generation into ``tdata`` in ``fast_search``'s
    form (``~key -> (depth, bound, value, best move)``)."""
    st = s.st
    at = np.nonzero((s.tt_key >> K.KEY_BITS) == st[K.ST_GEN])[0]
    keys = (s.tt_key[at] & ((1 << K.KEY_BITS) - 1)).tolist()
    for key, value, (depth, bound, move) in zip(keys, s.tt_val[at].tolist(),
                                                s.tt_info[at].tolist()):
        tdata[~key] = (depth, bound, whole(value), move)


def search(game, state, depth, weights: Weights, *, heuristic_given=True, table=None,
           quick_wins=True, max_nodes=None, deadline=None, root_values=None, root_order=None):
    """``fast_search.fast_alphabeta`` with ``weights`` for its heuristic (``heuristic_given``
    False: no heuristic, every leaf 0, as ``fast_search`` without one). ``root_order``: the
    root's moves in the course's order (``alphabeta``'s ``course_move``), else None.

    Returns:
        ``(move, value, pv, stats)`` as ``fast_search.fast_alphabeta``.
    Raises:
        ai.course.scores.SearchAborted: a budget ran out (``.stats``: the counts so far; its
            text says which budget).
    """
    if getattr(table, "slots", None) is not None:
        raise ValueError("the compiled search keeps its own entries: give it a table without "
                         "slots")
    if root_values is None:
        root_values = {}
    if depth is None:
        depth = game.cells - state.moves
    quick = bool(quick_wins)
    geo = _geo(game, quick)
    w = _weights_array(weights)
    zero = not heuristic_given or weights.zero
    first = state.moves & 1 == 0
    if state.over or depth == 0:            # the root is a leaf
        if state.over == 1:
            value = -MAX_SCORE
        elif state.over or zero:
            value = 0
        else:
            value = whole(K.evaluate(state.current, state.current ^ state.mask, state.mask,
                                     first, geo, w))
        return None, value, [], {"nodes": 1, "leaves": 1, "cutoffs": 0, "tt_probes": 0,
                                 "tt_hits": 0}
    s = _searcher()
    s.busy = True
    try:
        return _root(s, game, state, depth, geo, w, zero, quick, table, max_nodes, deadline,
                     root_values, (weights, quick, zero), root_order)
    finally:
        s.busy = False


def _stats(st):
    return {"nodes": int(st[K.ST_NODES]), "leaves": int(st[K.ST_LEAVES]),
            "cutoffs": int(st[K.ST_CUTOFFS]), "tt_probes": int(st[K.ST_PROBES]),
            "tt_hits": int(st[K.ST_HITS])}


def _root(s, game, state, depth, geo, w, zero, quick, table, max_nodes, deadline,
          root_values, key, root_order=None):
    """``fast_search``'s ``run`` and ``root``: the root's rules here, its moves' searches in
    the kernel. With ``root_order`` (the course's), the root's moves in that order: where
    several moves are equally good, the first of them in it."""
    g = geometry(game.width, game.height)
    st = s.st
    s.generation(table, key)
    gen, count = st[K.ST_GEN], st[K.ST_COUNT]
    st[:] = 0
    st[K.ST_GEN], st[K.ST_COUNT] = gen, count
    st[K.ST_LIMIT] = _NO_LIMIT if max_nodes is None else max_nodes
    st[K.ST_NEXT_CLOCK] = K.CLOCK_EVERY
    st[K.ST_ZERO] = int(zero)
    tdata = None if table is None else getattr(table, "data", table)
    st[K.ST_USE_TABLE] = int(tdata is not None)
    st[K.ST_TABLE_LOW] = int(tdata is not None and depth >= 5)     # fast_search's _TABLE_LOW_DEPTH
    s.killers[:] = g.order[0]
    dl = _INF if deadline is None else deadline
    cur, mask, nb = state.current, state.mask, state.moves
    st[K.ST_NODES] = 1
    possible = (mask + g.bottom) & g.board
    order = g.playable[(possible + g.board) & g.sentinels]
    if root_order is not None:          # (column, its mask, ...) in the course's order
        by_col = {x[0]: x for x in order}
        order = tuple(by_col[c] for c in root_order)
    wins, opp_wins = K.root_cells(cur, mask, geo)
    mx = MAX_SCORE
    loss2 = -(mx - 2) if quick else -mx
    if wins or depth == 1:              # fast_search's root_scored
        if wins:
            col = next(c for c, cm, _, _ in order if wins & cm)
            scored = [(col, (mx - 1) if quick else mx)]
        else:
            full = nb + 1 == g.cells
            first = nb & 1 == 0
            opp = cur ^ mask
            scored = [(col, 0 if full or zero else
                       whole(K.evaluate(cur | (possible & cm), opp, mask | (possible & cm),
                                        first, geo, w)))
                      for col, cm, _, _ in order]
        best, best_move = -_INF, None
        for col, v in scored:
            st[K.ST_NODES] += 1
            st[K.ST_LEAVES] += 1
            root_values[col] = v
            if v > best:
                best, best_move = v, col
        return _done(st, best_move, best, [best_move])
    safe = non_losing(possible, opp_wins)
    if not safe or nb >= g.cells - 2:   # fast_search's root_settled
        st[K.ST_LEAVES] += 1
        if safe:
            col = next(c for c, cm, _, _ in order if safe & cm)
            root_values[col] = value = 0
            pv = [col]
        else:
            for c, _, _, _ in order:
                root_values[c] = loss2
            forced = possible & opp_wins
            col = next((c for c, cm, _, _ in order if forced & cm), order[0][0]) \
                if root_order is None else order[0][0]
            bit = possible & g.colmask[col]
            after = ((mask | bit) + g.bottom) & g.board & opp_wins
            reply = next(c for c, cm, _, _ in
                         g.playable[((mask | bit) + g.bottom + g.board) & g.sentinels]
                         if after & cm)
            value, pv = loss2, [col, reply]
        return _done(st, col, value, pv)
    best_move, best, pv = _root_search(s, geo, w, cur, mask, nb, depth, safe, tdata,
                                       root_values, dl, root_order and order)
    for col, cm, _, _ in order:
        if not safe & cm:
            root_values[col] = loss2
    if tdata is not None:
        tdata[~(cur + mask)] = (depth, EXACT, best, best_move)
    return _done(st, best_move, best, pv)


def _done(st, move, value, pv):
    if st[K.ST_NODES] > st[K.ST_LIMIT]:
        raise _aborted(st, "node budget")
    return move, whole(value), pv, _stats(st)


def _aborted(st, reason):
    err = SearchAborted(reason)
    err.stats = _stats(st)
    return err


def _root_search(s, geo, w, cur, mask, nb, depth, safe, tdata, root_values, dl,
                 course_order=None):
    """``fast_search``'s ``root_search``: the safe moves, the table's move first, then (depth
    >= 3) the most winning cells, centre first; or the table's move first, then
    ``course_order`` (the course's root). The table is probed here, the rest is one call of
    the kernel (``search_kernel.root_moves``)."""
    st = s.st
    tt_move = -1
    if tdata is not None:
        st[K.ST_PROBES] += 1
        e = tdata.get(~(cur + mask))
        if e is not None:
            tt_move = e[3]
    cols, n = s.cols, 0
    if course_order:
        seq = sorted((x for x in course_order if safe & x[1]), key=lambda x: x[0] != tt_move)
        for n, x in enumerate(seq, 1):
            cols[n - 1] = x[0]
    values = s.values
    done = K.root_moves(cur, mask, nb, depth, 1, safe, tt_move, cols, n, values, geo, w, st,
                        s.tt_key, s.tt_val, s.tt_info, s.pv, s.pvlen, s.killers, s.work, dl)
    found = values[:done].tolist()
    for col, v in zip(cols[:done].tolist(), found):
        root_values[col] = whole(v)
    if st[K.ST_ABORTED]:
        raise _aborted(st, "node budget" if st[K.ST_ABORTED] == 1 else "time budget")
    pv = s.pv[0, :s.pvlen[0]].tolist()
    return pv[0], whole(max(found)), pv      # pv[0]: the first best move's line


def warm_up(game) -> float:
    """Compile the kernel (cached beside the code) and run each of its paths once, on
    ``game`` (a 7x6 Connect-4: the rules hand themselves in). Returns the seconds it took."""
    from ai.course.table import fresh_table
    from .terms import WeightedHeuristic, parse
    t0 = time.perf_counter()
    state = game.initial_state()
    for m in (3, 3, 2, 4):
        state = game.result(state, m)
    h = WeightedHeuristic(game, parse("cells=1,adjusted=1,open1=1,open2=4,open3=16,center=2,"
                                      "threats=1,immediate=1,oddeven=1"))
    for d in (1, 2, 3, 5):
        alphabeta(game, state, d, heuristic=h, table=fresh_table(None))
    return time.perf_counter() - t0
