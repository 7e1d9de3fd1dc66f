"""The one way to run a search by name: ``search("iterative", game, state, 9, ...)``. The
levels (``ai.levels``), and through them the web app, the command line and the benchmarks,
all come here.

Which engine runs is chosen here, explicitly:

- by default the course's algorithms (``ai.course.search``): minimax and alpha-beta over the game
  protocol, with the seeds' node counts ("9 sommets sur 28");
- with ``fast=True``, the game's own fast alpha-beta where it has one (its rules'
  ``fast_alphabeta`` hook), wherever it
  returns the same values for the options asked: the same value, a best move, far
  fewer nodes (it orders moves by threats and settles forced positions at once). Without a
  tree, a game may run such a search whole by itself (its rules' ``fast_run`` hook: a
  compiled search in one call, where this module's layers would cost more than the search
  at small depths); it returns what the way through ``fast_alphabeta`` would.

One search decides and records
------------------------------
``record=True`` asks for the tree the search explored, drawn by the tree panel: the tree of
the search that chose the move, recorded by that same search (``ai.course.record.Recording``): a
search of at most ``WHOLE_TREE_NODES`` nodes whole, with the events of a step-by-step replay;
a larger one around what the panel draws (the node at ``focus`` and the principal variation,
the rest only counted: recording every node of a 50,000-node search would cost several times
the search, for nodes nobody sees). For iterative deepening the tree is the search at the
depth it finished (``stats.nodes`` counts every depth). ``record_limit`` bounds the work and
the memory: a search of more nodes keeps no tree. A search that a budget stopped keeps the
tree of what it explored (iterative deepening: of its deepest finished depth, or none if not
even depth 1).

Recording slows a search (by about 0.7 times the search at the default level), and a search
that its clock stops would then
stop earlier and might play another move. The levels' moves are decided by counts (depth
and nodes, ``ai.levels``), the clock being only a guard set far above; so a recording search
that ends before its time budget is exactly the search without a tree. One whose clock may
have stopped it (its time reached the budget) is not trusted: the search runs again without
a tree, as it would have run, and then once more with no clock and its own node count as
its budget, recording (``with_tree``: both engines are deterministic, so this replay visits
the same nodes in the same order and returns the same move and value, checked: a
difference raises). ``with_tree`` also gives its tree to a search made before (a cache, the
levels' book of first replies).
"""
from __future__ import annotations

import gc
import random
import threading
from contextlib import contextmanager
from dataclasses import replace
from functools import partial

from .course import search as textbook
from .course.record import Focus, Recording
from .course.scores import SearchResult

WHOLE_TREE_NODES = 5_000    # larger searches are recorded around a focus (see above)
ALGORITHMS = tuple(textbook.ALGORITHMS)   # "minimax", "alphabeta", "alphabeta-tt", "iterative"


def search(algorithm: str, game, state=None, depth=None, *, fast: bool = False,
           record: bool = False, record_limit: int | None = None, focus=(),
           **options) -> SearchResult:
    """Run ``algorithm`` on ``state`` (default: the start of ``game``).

    Args:
        algorithm: one of ``ALGORITHMS``.
        depth: plies to look ahead (iterative deepening: the deepest); None searches to the
            end of the game (iterative deepening: until a budget stops it).
        fast: run the game's fast loop where it gives the same values (see above).
        record: attach the tree of this same search as ``result.tree`` (see above).
        record_limit: record only a search of at most this many nodes (None: any).
        focus: the path (moves from ``state``) of the node the tree panel shows, for a
            search too large to record whole (see above).
        options: the search's own keyword arguments (``heuristic``, ``order``, ``window``,
            ``quick_wins``, ``max_nodes``, ``time_limit``, ``tie_break``, ``seed``, ``table``;
            see ``ai.course.search``). Minimax has no window: ``window`` is ignored there.

    Returns:
        the search's ``SearchResult``, with ``record`` its tree (None when larger than
        ``record_limit``).
    Raises:
        ValueError: an unknown algorithm or option, a bad depth or budget; ``record`` with a
            ``table`` (a replay would start from the table the search left).
    """
    if fast and not record:             # the game's own search in one go, where it has one
        result = game.fast_run(algorithm, state, depth, options)
        if result is not None:
            return result
    alphabeta = _alphabeta_for(algorithm, game, fast, options)
    if state is None:
        state = game.initial_state()
    run = _runner(algorithm, alphabeta)
    if not record:
        return run(game, state, depth, **options)
    _check_recording(options)
    focus = tuple(focus)
    with _collector_paused():
        result = run(game, state, depth,
                     record=Recording(focus, WHOLE_TREE_NODES, record_limit), **options)
    seconds = options.get("time_limit")
    if seconds is not None and result.stats.elapsed >= seconds:
        # the clock may have stopped the recording search earlier than the search alone
        result = run(game, state, depth, **options)
    elif result.tree is None and result.complete:
        # iterative deepening ended before the depth that records (a proven result, a
        # budget): its tree is that of another depth, recorded by a replay
        pass
    else:
        return _kept(result, record_limit, focus)
    return _with_tree(algorithm, alphabeta, game, state, replace(result, tree=None),
                      record_limit, focus, options)


def with_tree(algorithm: str, game, state, result: SearchResult, depth=None, *,
              fast: bool = False, record_limit: int | None = None, focus=(),
              **options) -> SearchResult:
    """``result``, a search made before with exactly these arguments (kept by a cache, read
    from a game's book of first replies), with its tree: ``search(..., record=True)`` without searching
    first, since the replay needs only the search's outcome.

    Returns:
        ``result`` with its ``tree`` (None when larger than ``record_limit``)."""
    alphabeta = _alphabeta_for(algorithm, game, fast, options)
    _check_recording(options)
    return _with_tree(algorithm, alphabeta, game, state, result, record_limit, tuple(focus),
                      options)


def _alphabeta_for(algorithm, game, fast, options):
    """Check ``algorithm`` and ``options``; the alpha-beta it runs (see the module's text)."""
    if algorithm not in ALGORITHMS:
        raise ValueError(f"unknown algorithm {algorithm!r}: choose one of {', '.join(ALGORITHMS)}")
    if algorithm == "minimax":
        options.pop("window", None)
    own = game.fast_alphabeta(**options) if fast and algorithm != "minimax" else None
    return own or textbook.alphabeta


def _check_recording(options) -> None:
    if options.get("table") is not None:
        raise ValueError("a search that records is not given a table: its replay would "
                         "start from the table the search left")
    if options.get("tie_break") == "random" and options.get("seed") is None:
        options["seed"] = random.randrange(1 << 32)     # so a replay breaks ties alike


def _runner(algorithm: str, alphabeta):
    """The function that runs ``algorithm`` with ``alphabeta`` as its alpha-beta."""
    if algorithm == "minimax":
        return textbook.minimax
    if algorithm == "alphabeta":
        return alphabeta
    if algorithm == "alphabeta-tt":
        return partial(textbook.alphabeta_tt, search=alphabeta)
    return partial(textbook.iterative_deepening, search=alphabeta)


def _kept(result: SearchResult, record_limit, focus) -> SearchResult:
    """``result`` with the tree the panel keeps: none past ``record_limit`` nodes; around the
    focus when the search's whole count (iterative deepening: every depth's, a stopped one's
    too) is past ``WHOLE_TREE_NODES``."""
    tree = result.tree
    if tree is None:
        return result
    if tree.overflow or record_limit is not None and result.stats.nodes > record_limit:
        return replace(result, tree=None)
    if tree.whole and result.stats.nodes > WHOLE_TREE_NODES:
        tree.keep_around(Focus(focus, tuple(result.pv)))
    return result


def _with_tree(algorithm, alphabeta, game, state, result: SearchResult, record_limit, focus,
               options) -> SearchResult:
    """``result`` with the tree of the search that gave it: that search replayed, recording,
    with no clock and its own node count as its budget (see the module's text)."""
    if record_limit is not None and result.stats.nodes > record_limit:
        return result
    record = Recording(focus, WHOLE_TREE_NODES)
    every_depth = algorithm == "iterative"      # its stats count the earlier depths too
    if not result.complete:
        if every_depth:                         # not even depth 1 finished: nothing to show
            return result
        return _with_partial_tree(algorithm, alphabeta, game, state, result, record, focus,
                                  options)
    if every_depth:                             # only the last depth's tree is kept: record it
        alphabeta = _recording_only_at(result.depth, alphabeta)
    with _collector_paused():
        again = _runner(algorithm, alphabeta)(game, state, result.depth, record=record,
                                              **dict(options, time_limit=None,
                                                     max_nodes=result.stats.nodes))
    if ((again.move, again.value, again.complete) != (result.move, result.value, True)
            or not every_depth and again.stats.nodes != result.stats.nodes):
        raise RuntimeError(f"the recorded replay of a {algorithm} search differs from it: "
                           f"move {again.move!r}, value {again.value}, {again.stats.nodes} "
                           f"nodes, not {result.move!r}, {result.value}, {result.stats.nodes}")
    return _kept(replace(result, tree=again.tree), record_limit, focus)


def _with_partial_tree(algorithm, alphabeta, game, state, result: SearchResult, record, focus,
                       options) -> SearchResult:
    """A search that a budget stopped, with the tree of what it explored: the same search
    replayed with no clock and a node budget that stops it at the very node where it stopped
    (a search counts the node that broke its budget, and aborts on entering one node more
    than its ``max_nodes``)."""
    with _collector_paused():
        again = _runner(algorithm, alphabeta)(game, state, result.depth, record=record,
                                              **dict(options, time_limit=None,
                                                     max_nodes=result.stats.nodes - 1))
    if (again.complete or again.stats.nodes != result.stats.nodes
            or (again.move, again.value) != (result.move, result.value)):
        raise RuntimeError(f"the recorded replay of a stopped {algorithm} search differs from "
                           f"it: {again.stats.nodes} nodes, not {result.stats.nodes}")
    return _kept(replace(result, tree=again.tree), None, focus)


_paused = [0]                   # recording searches running with the collector paused
_paused_lock = threading.Lock()


@contextmanager
def _collector_paused():
    """Python's cycle collector paused while a search records: a recording keeps every node
    it enters until the search ends (``ai.course.record.Recording``), tens of thousands of
    objects that live just long enough to reach the collector's oldest generation, whose
    full passes over a worker's whole memory (the books, the tables) then cost up to ~200 ms
    each (bench/tree_panel.py --cpu: the tree panel's p95 went from 79 to 133 ms). The
    recording's objects are freed by their counts when it ends, so nothing waits for the
    collector; it resumes when the last recording search of the process ends."""
    with _paused_lock:
        _paused[0] += 1
        if _paused[0] == 1:
            was_enabled = gc.isenabled()
            gc.disable()
            _paused.append(was_enabled)
    try:
        yield
    finally:
        with _paused_lock:
            _paused[0] -= 1
            if _paused[0] == 0 and _paused.pop():
                gc.enable()


def _recording_only_at(depth: int, alphabeta):
    """``alphabeta`` recording only its search at ``depth``: iterative deepening's earlier
    depths only prepare the table, and their trees would be thrown away."""
    def at_depth(game, state, d, *, record=False, **options):
        return alphabeta(game, state, d, record=record if d == depth else False, **options)
    return at_depth
