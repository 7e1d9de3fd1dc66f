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

A search is one call of the kernel (``search_kernel.search``: the root's rules as
``fast_search``'s, wins at once, settled positions, the root's move order, and every root
move's search); here, only the caller's table's entry for the root and what the result
holds. The kernel's state (its table, counters, principal variation) is one array that
belongs to one thread (``_Searcher``, per thread, built at the first search) and that the
kernel resets. ``direct`` is the engine's way to it for the levels and the benchmarks
(the rules' ``fast_run``): the same result without the engine's layers, which took
several times the kernel's time at depth 2 (issue 35).
"""
from __future__ import annotations

import threading
import time
from dataclasses import fields

import numpy as np

from ai.course.scores import (EXACT, MAX_SCORE, SearchAborted, SearchResult, SearchStats,
                              best_so_far, check_limits, whole)

from . import search_kernel as K
from .compiled_terms import board_constants, weights_array
from .heuristic import CellValues, Threats
from .terms import LEVEL_WEIGHTS, N_TERMS, NO_WEIGHTS, Weights, weights_of

__all__ = ["alphabeta", "direct", "supports", "search"]

assert K.N_TERMS == N_TERMS
_INF = 1e300
_NO_LIMIT = int(np.iinfo(np.int64).max)


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
    """One thread's kernel state, in one array (``search_kernel.M_*``: the table and its
    generations, the counters, the principal variation's rows, the killers, the sort keys,
    the root's moves and values), which the kernel resets at each search; the arrays here are
    views of its parts, for ``_export``."""

    def __init__(self):
        self.mem = m = np.zeros(K.MEM_SIZE, dtype=np.int64)
        self.st = m[K.M_ST:K.M_ST + K.ST_SIZE]
        self.tt_key = m[K.M_TT_KEY:K.M_TT_VAL]
        self.tt_val = m[K.M_TT_VAL:K.M_TT_INFO].view(np.float64)
        self.tt_info = m[K.M_TT_INFO:K.M_PV].view(np.int8).reshape((K.TT_SLOTS, 3))
        self.pv = m[K.M_PV:K.M_PVLEN].view(np.int8).reshape((K.PLIES, K.PLIES))
        self.cols = m[K.M_COLS:K.M_VALUES]
        self.values = m[K.M_VALUES:K.M_ORDER].view(np.float64)
        self.order = m[K.M_ORDER:K.M_OUT]
        self.out = m[K.M_OUT:K.MEM_SIZE]
        self.table = None               # the caller's table this generation serves
        self.key = None                 # and the weights and scoring it holds values of
        self.busy = False

    # A search starts a new generation of the table (search_kernel.F_NEW_GEN) unless it
    # continues the last one's: the same caller's table, the same weights and scoring
    # (iterative deepening). _run decides it, inline (a method call was a tenth of its time).


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
    _no_slots(table)
    state = game.initial_state() if state is None else state
    root_order = None
    if course_move and not state.over:
        from ai.course.search import move_orderer
        root_order = list(move_orderer(game, order)(state, game.actions(state)))
    quick = bool(quick_wins)
    return _result(game, state, depth, weights_of(heuristic), heuristic is not None, quick,
                   board_constants(game, quick), table, False, max_nodes, time_limit, root_order,
                   "alphabeta-tt" if table is not None else "alphabeta")


# What ``direct`` runs: the options fast_search and this search both run as the engine gives
# them (the rest goes the engine's usual way, which says what is wrong with them).
_DIRECT_OPTIONS = frozenset(("heuristic", "order", "quick_wins", "window", "table",
                             "max_nodes", "time_limit", "tie_break", "seed"))
_WINDOWS = (None, "infinite", "course")
_TIE_BREAKS = ("first", None)


def direct(game, algorithm, state, depth, options) -> SearchResult | None:
    """``ai.engine.search(algorithm, game, state, depth, fast=True, **options)`` without a
    tree, in one call of the kernel and a few microseconds of Python (the rules'
    ``fast_run``): the same ``SearchResult`` as the engine's way (the rules'
    ``fast_alphabeta``, the course's ``alphabeta_tt`` and its fresh table, ``alphabeta``
    here), for "alphabeta" and "alphabeta-tt" with the heuristics both ``fast_search`` and
    this search run (none, ``Threats``, ``CellValues``); None for anything else, which the
    engine then runs its usual way. "alphabeta-tt" without a table: the kernel's table, in a
    new generation, as for the fresh table the engine would make (no dict made to be thrown
    away).

    Without a caller's table (the levels', the benchmarks'), ``_result`` and ``_run`` are
    written out here: at depth 2 their calls and arguments were a sixth of the search (issue
    35); ``_result`` runs the rest (a caller's table, a root that is a leaf).

    Raises:
        ValueError: a bad depth or budget (``check_limits``).
    """
    get = options.get
    table = get("table")
    if table is not None:
        plan = _plan(game, algorithm, options)
        if plan is None or getattr(table, "slots", None) is not None:
            return None
    else:
        key = (game, algorithm, *options.items())
        try:
            plan = _PLANS[key]
        except KeyError:
            plan = _plan(game, algorithm, options)
            if len(_PLANS) >= 1024:
                _PLANS.clear()
            _PLANS[key] = plan
        except TypeError:               # an option's value that has no hash
            plan = _plan(game, algorithm, options)
        if plan is None:
            return None
    fresh, weights, given, quick, geo, w, flags = plan
    max_nodes, time_limit = get("max_nodes"), get("time_limit")
    if ((depth is not None and (type(depth) is not int or depth < 0))
            or (max_nodes is not None and (type(max_nodes) is not int or max_nodes < 1))
            or (time_limit is not None and not time_limit > 0)):
        check_limits(depth, max_nodes, time_limit)      # says what is wrong
    if state is None:
        state = game.initial_state()
    if table is not None or state.over or depth == 0:
        return _result(game, state, depth, weights, given, quick, geo, table,
                       fresh and table is None, max_nodes, time_limit, None,
                       "alphabeta-tt" if fresh or table is not None else "alphabeta")
    # _result and _run (see there), without a caller's table or a root order
    start = _now()
    asked = depth
    if depth is None:
        depth = game.cells - state.moves
    if fresh:
        flags |= K.F_TABLE | K.F_TABLE_LOW if depth >= 5 else K.F_TABLE
    s = getattr(_local, "searcher", None)
    if s is None or s.busy:
        s = _searcher()
    s.busy = True
    try:
        s.table = None                  # a new generation, no caller's table (_Searcher)
        (status, move, value, n, length, ints, nodes, leaves, cutoffs, probes,
         hits) = K.search(state.current, state.mask, state.moves, depth, flags, -1, 0,
                          _NO_LIMIT if max_nodes is None else max_nodes,
                          _INF if time_limit is None else start + time_limit, geo, w, s.mem)
        out = s.out[:length + 2 * n].tolist()   # the principal variation, (move, value)s
        if ints:
            value = int(value)
            values = None               # made when read (_pairs)
        else:
            value = whole(value)
            values = {c: whole(v) for c, v in zip(s.cols[:n].tolist(), s.values[:n].tolist())}
    finally:
        s.busy = False
    if status == K.DONE or status == K.ROOT_ONLY:
        complete = True
        pv = tuple(out[:length])
    else:
        complete = False
        if values is None:
            values = _pairs((out, length))
        move, value = best_so_far(values, game.actions(state))
        pv = (move,) if move is not None else ()
    result = _new(SearchResult)         # as _result makes it (see there)
    result.__dict__.update(
        move=move, value=value, pv=pv,
        stats=SearchStats(nodes, leaves, cutoffs, probes, hits,
                          asked if complete and asked is not None else 0, _now() - start),
        algorithm="alphabeta-tt" if fresh else "alphabeta", depth=asked, complete=complete,
        tree=None, iterations=())
    if values is None:                  # the root values' dict made when read (SearchResult)
        result.__dict__["_root_values_later"] = (_pairs, (out, length))
    else:
        result.__dict__["root_values"] = values
    return result


def _pairs(read) -> dict:
    """The root values' dict from the kernel's answer read back, ``(out, pv's length)``: the
    principal variation, then (move, value) pairs (``search_kernel.search``)."""
    out, length = read
    it = iter(out[length:])
    return dict(zip(it, it))


_PLANS: dict = {}


def _plan(game, algorithm, options):
    """What ``direct`` runs for these options, the same at every call with them (it keeps
    it by ``(game, algorithm, *options.items())``: checking them took a sixth of a depth-2
    search): ``(fresh, weights, heuristic given, quick wins, geometry, the kernel's weights,
    the kernel's flags)``; None when the engine's usual way runs them. The budgets and the
    table are not checked here."""
    if algorithm == "alphabeta-tt":
        fresh = True
    elif algorithm == "alphabeta":
        fresh = False
    else:
        return None
    if not _DIRECT_OPTIONS.issuperset(options) or game.leaf_scores:
        return None
    get = options.get
    heuristic = get("heuristic")
    if heuristic is None:
        weights = NO_WEIGHTS
    else:
        hg = getattr(heuristic, "game", None)
        if hg is None or hg.width != game.width or hg.height != game.height:
            return None
        kind = type(heuristic)
        if kind is Threats and tuple(heuristic.weights) == Threats.weights:
            weights = _THREATS
        elif kind is CellValues:
            weights = _CELLS
        else:
            return None
    if get("window", "infinite") not in _WINDOWS or get("tie_break", "first") not in _TIE_BREAKS:
        return None
    if not K.fits(game.width, game.height):
        return None
    quick = bool(get("quick_wins", True))
    _, w, zero = _kernel_weights(weights)
    flags = K.F_NEW_GEN | K.F_ZERO if zero or heuristic is None else K.F_NEW_GEN
    return fresh, weights, heuristic is not None, quick, board_constants(game, quick), w, flags


_THREATS, _CELLS = LEVEL_WEIGHTS["threats"], LEVEL_WEIGHTS["cells"]


def _no_slots(table) -> None:
    if getattr(table, "slots", None) is not None:
        raise ValueError("the compiled search keeps its own entries: give it a table without "
                         "slots")


_now = time.perf_counter
_new = object.__new__


def _result(game, state, depth, weights, heuristic_given, quick, geo, table, fresh,
            max_nodes, time_limit, root_order, algorithm) -> SearchResult:
    """The ``SearchResult`` of ``alphabeta`` (and of ``direct``: ``fresh``, a new table of
    the kernel's own, no caller's table)."""
    start = _now()
    asked = depth
    if depth is None:
        depth = game.cells - state.moves
    kept = _BY_WEIGHTS.get(id(weights))
    if kept is None or kept[0] is not weights:
        kept = _kernel_weights(weights)
    _, w, zero = kept
    zero = zero or not heuristic_given
    if state.over or depth == 0:
        move, value, pv, values = None, _leaf_value(state, zero, geo, w), [], {}
        status, nodes, leaves, cutoffs, probes, hits = K.DONE, 1, 1, 0, 0, 0
    else:
        (status, move, value, pv, values, nodes, leaves, cutoffs, probes,
         hits) = _run(state, depth, geo, w, zero, table, fresh, max_nodes,
                      None if time_limit is None else start + time_limit, root_order,
                      (weights, quick, zero))
    complete = status == K.DONE or status == K.ROOT_ONLY
    if not complete:
        move, value = best_so_far(values, root_order or game.actions(state))
        pv = [move] if move is not None else []
    stats = SearchStats(nodes, leaves, cutoffs, probes, hits,
                        asked if complete and asked is not None else 0, _now() - start)
    # SearchResult(move, value, tuple(pv), stats, algorithm, asked, complete, None, values),
    # the same object made without the frozen dataclass's __init__: its ten
    # object.__setattr__ took a tenth of a depth-2 search (tests/test_compiled_search.py
    # compares it with the engine's way, field by field)
    result = _new(SearchResult)
    result.__dict__.update(move=move, value=value, pv=tuple(pv), stats=stats,
                           algorithm=algorithm, depth=asked, complete=complete, tree=None,
                           root_values=values, iterations=())
    return result


assert [f.name for f in fields(SearchResult)] == [
    "move", "value", "pv", "stats", "algorithm", "depth", "complete", "tree", "root_values",
    "iterations"] and not hasattr(SearchResult, "__post_init__"), "_result makes SearchResult"

_BY_WEIGHTS: dict = {}


def _kernel_weights(weights: Weights):
    """``(weights, the kernel's weights array, weights.zero)``, kept in ``_BY_WEIGHTS`` by
    the weights object's id (the levels' are made once; the object kept, so that its id is
    not reused): hashing a ``Weights`` took longer than this look-up."""
    kept = _BY_WEIGHTS.get(id(weights))
    if kept is None or kept[0] is not weights:
        if len(_BY_WEIGHTS) >= 1024:
            _BY_WEIGHTS.clear()
        kept = _BY_WEIGHTS[id(weights)] = (weights, weights_array(weights), weights.zero)
    return kept


def _leaf_value(state, zero, geo, w):
    """The value of a root that is a leaf (the game over, or depth 0)."""
    if state.over == 1:
        return -MAX_SCORE
    if state.over or zero:
        return 0
    return whole(K.evaluate(state.current, state.current ^ state.mask, state.mask,
                            state.moves & 1 == 0, geo, w))


def _run(state, depth, geo, w, zero, table, fresh, max_nodes, deadline, root_order, key):
    """One search of ``state`` (not over) to ``depth`` >= 1 by the kernel
    (``search_kernel.search``), this thread's searcher's. Returns ``(status, move, value,
    pv, root values, nodes, leaves, cutoffs, tt_probes, tt_hits)``."""
    cur, mask = state.current, state.mask
    flags = K.F_ZERO if zero else 0
    tt_move = -1
    tdata = None
    if table is not None:
        tdata = getattr(table, "data", table)
        e = tdata.get(~(cur + mask))
        if e is not None:
            tt_move = e[3]
    if tdata is not None or fresh:
        flags |= K.F_TABLE | (K.F_TABLE_LOW if depth >= 5 else 0)   # fast_search's
        #                                                               _TABLE_LOW_DEPTH
    s = getattr(_local, "searcher", None)
    if s is None or s.busy:
        s = _searcher()
    s.busy = True
    try:
        if table is None or table is not s.table or key != s.key:
            flags |= K.F_NEW_GEN        # see _Searcher
        s.table, s.key = table, key
        n_order = 0
        if root_order is not None:
            flags |= K.F_ORDER
            n_order = len(root_order)
            s.order[:n_order] = root_order
        (status, move, value, n, length, ints, nodes, leaves, cutoffs, probes,
         hits) = K.search(cur, mask, state.moves, depth, flags, tt_move, n_order,
                          _NO_LIMIT if max_nodes is None else max_nodes,
                          _INF if deadline is None else deadline, geo, w, s.mem)
        out = s.out[:length + 2 * n].tolist()   # the principal variation, (move, value)s
        if ints:
            value = int(value)
            it = iter(out[length:])
            values = dict(zip(it, it))
        else:
            value = whole(value)
            values = {c: whole(v) for c, v in zip(s.cols[:n].tolist(), s.values[:n].tolist())}
    finally:
        s.busy = False
    if status == K.DONE and tdata is not None:
        tdata[~(cur + mask)] = (depth, EXACT, value, move)
    return status, move, value, out[:length], values, nodes, leaves, cutoffs, probes, hits


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
    ``root_values``, a dict, receives the root's values.

    Returns:
        ``(move, value, pv, stats)`` as ``fast_search.fast_alphabeta``.
    Raises:
        ai.course.scores.SearchAborted: a budget ran out (``.stats``: the counts so far; its
            text says which budget).
    """
    _no_slots(table)
    if depth is None:
        depth = game.cells - state.moves
    quick = bool(quick_wins)
    geo = board_constants(game, quick)
    _, w, zero = _kernel_weights(weights)
    zero = zero or not heuristic_given
    if state.over or depth == 0:            # the root is a leaf
        return None, _leaf_value(state, zero, geo, w), [], {
            "nodes": 1, "leaves": 1, "cutoffs": 0, "tt_probes": 0, "tt_hits": 0}
    status, move, value, pv, values, *counts = _run(state, depth, geo, w, zero, table, False,
                                                    max_nodes, deadline, root_order,
                                                    (weights, quick, zero))
    if root_values is not None:
        root_values.update(values)
    stats = dict(zip(("nodes", "leaves", "cutoffs", "tt_probes", "tt_hits"), counts))
    if status == K.NODE_BUDGET or status == K.TIME_BUDGET:
        err = SearchAborted("node budget" if status == K.NODE_BUDGET else "time budget")
        err.stats = stats
        raise err
    return move, value, pv, stats


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
