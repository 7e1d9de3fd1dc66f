"""Game-tree search as the course teaches it: minimax, alpha-beta, alpha-beta with a
transposition table, and iterative deepening under a time budget. Pure functions over the game
protocol (``ai.course.game``), one result type, the seeds' node counts (seed 003: "9 sommets sur 28").
Nothing here knows a particular game: a game's own fast loop (its rules' ``fast_alphabeta``) is
chosen one level above, by ``ai.engine``.

Every function takes a game (the protocol of ``ai.course.game``) and a state, and returns a
``SearchResult``: the move, its value from the side of the player who searched, the
principal variation, the statistics, and (with ``record=True``) the tree explored.

Scores
------
The course's scale (``ai.course.scores``): a won final position scores ``+maxScore``, a lost one
``-maxScore``, a heuristic strictly between. ``MAX_SCORE = 10_000``; by default a win found
``p`` plies below the root scores ``MAX_SCORE - p``, so the search prefers a quick win to a
slow one (``quick_wins=False`` gives the seeds' flat scores). Exercise trees
(``game.leaf_scores``) use their leaf values as they are.

Internally values are negamax values (from the side to move); the recorded tree turns them
back to the root player's side, as the course draws them.

The tree
--------
With ``record``, the search writes what it does into a recorder (``ai.course.record``): a node
entered with its window, a leaf scored, a cut, a table look-up, a node left with its value.
Without, the recorder is ``ai.course.record.NO_RECORD``, whose every call does nothing: the search
reads the same either way, as the course writes it, with no test of whether it records.

The transposition table
-----------------------
``ai.course.table``: the table itself (``TranspositionTable``, ``fresh_table``), what an entry
proves (``bound_of``), when it settles a node (``settles``) and how win scores are kept
(``to_table``, ``from_table``). The search keys positions by the game's Zobrist key
(``game.key(state)``).

Bounds
------
Every search can be bounded by ``max_nodes`` and ``time_limit`` (seconds): when one runs out,
the search stops and returns ``complete=False`` with the best move of the deepest finished work
(iterative deepening: the last finished depth), so no request can pin a worker.
"""
from __future__ import annotations

import random
import time
from dataclasses import replace
from typing import Callable

from .table import (COURSE_SLOTS, TranspositionTable, bound_of, fresh_table,
                    from_table, settles, to_table)
from .record import Recording, recorder, spent
from .scores import (BOUND_NAMES, INF, MAX_SCORE, WIN_THRESHOLD, SearchAborted, SearchResult,
                     SearchStats, best_so_far, check_limits, terminal_score)

# (the scale and the table are also read from here by older callers)
__all__ = ["ALGORITHMS", "COURSE_SLOTS", "INF", "MAX_SCORE", "SearchResult", "TranspositionTable",
           "WIN_THRESHOLD", "alphabeta", "alphabeta_tt", "fresh_table", "iterative_deepening",
           "minimax", "move_orderer"]

_TIE_EPS = 1e-9
_CHECK_EVERY = 1023


def _zero_heuristic(state, player):
    return 0


# -- move ordering ---------------------------------------------------------------------------

def move_orderer(game, order) -> Callable[[object, list], list]:
    """How children are tried: ``None``/"natural" (the game's order), "reverse", "center"
    (the game's ``center_order`` where it has one; the natural order elsewhere), or an
    explicit priority list such as ``(3, 2, 1)`` (seed 003's example), unlisted moves last."""
    if order is None or order == "natural":
        return lambda state, moves: moves
    if order == "reverse":
        return lambda state, moves: moves[::-1]
    if order == "center":
        rank = game.center_order
        if rank is None:
            return lambda state, moves: moves
        pos = {m: i for i, m in enumerate(rank)}
        return lambda state, moves: sorted(moves, key=pos.__getitem__)
    if isinstance(order, str):
        raise ValueError(f"unknown move order {order!r}: natural, reverse, center or a list")
    pos = {m: i for i, m in enumerate(order)}
    big = len(pos)
    return lambda state, moves: sorted(moves, key=lambda m: pos.get(m, big))


# -- the search engine -------------------------------------------------------------------------

class _Engine:
    """One search: its settings, its counters, its budget and its recorder. Not reused across
    searches.

    ``rec`` is the search's recorder (``ai.course.record``): the tree being recorded, or, when the
    search records nothing, a recorder whose every call does nothing. The search tells it
    what happens (a node entered, scored, cut, looked up in the table, left) and never asks
    whether it records."""

    def __init__(self, game, *, heuristic, order, quick_wins, table, record, max_nodes,
                 time_limit, course_window, root_player, start):
        self.game = game
        self.heuristic = heuristic or _zero_heuristic
        self.order = move_orderer(game, order)
        self.quick = quick_wins
        self.leaf_scores = game.leaf_scores
        # Only quick-win scores depend on the ply (a win p plies down scores MAX_SCORE - p):
        # the table keeps those counted from the node; flat scores and leaf values as they are.
        self.table_ply = quick_wins and not self.leaf_scores
        self.table = table
        self.rec = recorder(record, root_player)
        self.max_nodes = max_nodes
        # (``start``: the search's own start, so that a search the clock stopped took at
        # least its time budget: ``ai.engine`` relies on it)
        self.deadline = None if time_limit is None else start + time_limit
        # The course's window [-maxScore, +maxScore] (seed 003), tightened at every node to the
        # scores still reachable from it (as Pons' solver does): with quick-win scoring a node
        # p plies down can at best win at ply p+1, so beta <= MAX_SCORE - (p+1). This is the
        # course's "situation optimale": a child that reaches the best score still possible
        # ends the search of its siblings.
        self.clip = course_window and not self.leaf_scores
        self.stats = SearchStats()
        self.pv = [[] for _ in range(2_100)]
        self.root_values = {}   # root move -> value, for each root move fully searched

    def count_node(self):
        """One more node entered: the node budget is checked at every node, the time budget
        every 1024 nodes. Raises ``SearchAborted`` when one has run out."""
        stats = self.stats
        stats.nodes += 1
        if not stats.nodes & _CHECK_EVERY and self.deadline is not None \
                and time.perf_counter() > self.deadline:
            raise SearchAborted("time budget")
        if self.max_nodes is not None and stats.nodes > self.max_nodes:
            raise SearchAborted("node budget")

    def leaf_value(self, state, player, ply):
        """Returns the score of a final position, or of a position at the depth limit (the
        heuristic's), and which of the two it is ("terminal" or "horizon")."""
        game = self.game
        if game.is_terminal(state):
            return terminal_score(game, state, player, ply, self.quick), "terminal"
        return self.heuristic(state, player), "horizon"

    def minimax(self, state, depth, ply, parent, move):
        """Plain minimax (seeds 000 and 002): every child of every node, no window.

        Returns the node's negamax value (from the side to move)."""
        game, rec = self.game, self.rec
        self.count_node()
        player = game.to_move(state)
        nid = rec.enter(parent, move, ply, player, -INF, INF)
        self.pv[ply] = []
        if depth == 0 or game.is_terminal(state):
            value, kind = self.leaf_value(state, player, ply)
            self.stats.leaves += 1
            rec.leaf(nid, kind, value)
            return value
        best = -INF
        for m in self.order(state, game.actions(state)):
            v = -self.minimax(game.result(state, m), None if depth is None else depth - 1,
                              ply + 1, nid, m)
            if v > best:
                best = v
                self.pv[ply] = [m] + self.pv[ply + 1]
        rec.exit(nid, best)
        return best

    def alphabeta(self, state, depth, alpha, beta, ply, parent, move):
        """Alpha-beta (seeds 001, 003, 004), with the transposition table when the search
        has one: the children are searched in the window (alpha, beta), and once a child
        proves alpha >= beta the rest are cut.

        Returns the node's negamax value: exact inside the window, else a bound (at most
        alpha, at least beta)."""
        stats, game, rec, table = self.stats, self.game, self.rec, self.table
        self.count_node()
        player = game.to_move(state)
        if self.clip:
            hi = (MAX_SCORE - ply - 1) if self.quick else MAX_SCORE
            if beta > hi:
                beta = hi
            if alpha < -hi:
                alpha = -hi
        nid = rec.enter(parent, move, ply, player, alpha, beta)
        self.pv[ply] = []
        if depth == 0 or game.is_terminal(state):
            value, kind = self.leaf_value(state, player, ply)
            stats.leaves += 1
            rec.leaf(nid, kind, value)
            return value
        if alpha >= beta:  # the clipped window is empty: nothing here can change the parent
            rec.cut(nid, self.order(state, game.actions(state)))
            rec.exit(nid, alpha)
            stats.cutoffs += 1
            return alpha

        alpha0 = alpha
        moves = self.order(state, game.actions(state))
        if table is not None:
            stats.tt_probes += 1
            key = game.key(state)           # the position's Zobrist key
            entry = table.get(key)
            if entry is None:
                rec.table_probe(nid, key, table, None, "empty")
            else:
                e_depth, bound, e_value, e_move = entry
                e_value = from_table(e_value, ply) if self.table_ply else e_value
                usable = settles(e_depth, bound, e_value, depth, alpha, beta)
                rec.table_probe(nid, key, table, (e_depth, BOUND_NAMES[bound], e_value, e_move),
                                "hit" if usable else "depth" if e_depth != depth else "bound")
                if usable:
                    stats.tt_hits += 1
                    rec.table_hit(nid, e_value)
                    if e_move is not None:
                        self.pv[ply] = [e_move]
                    return e_value
                if e_move is not None and e_move in moves and moves[0] != e_move:
                    moves = [e_move] + [m for m in moves if m != e_move]
                    rec.table_move(nid)

        best, best_move = -INF, None
        for i, m in enumerate(moves):
            v = -self.alphabeta(game.result(state, m), None if depth is None else depth - 1,
                                -beta, -alpha, ply + 1, nid, m)
            if v > best:
                best, best_move = v, m
                if v > alpha:
                    alpha = v
                    self.pv[ply] = [m] + self.pv[ply + 1]
                    if v < beta:
                        rec.update(nid, alpha, beta)
            if alpha >= beta:  # beta cut-off: the opponent will never let the game come here
                stats.cutoffs += 1
                rec.cut(nid, moves[i + 1:])
                break
        if table is not None:
            bound = bound_of(best, alpha0, beta)
            rec.table_store(nid, key, table, (depth, BOUND_NAMES[bound], best, best_move))
            table.store(key, depth, bound, to_table(best, ply) if self.table_ply else best,
                        best_move)
        rec.exit(nid, best)
        return best


def _window(window, max_score=MAX_SCORE):
    if window in (None, "infinite"):
        return -INF, INF, False
    if window == "course":
        return -max_score, max_score, True
    try:
        a, b = window
        a, b = float(a), float(b)
    except (TypeError, ValueError):
        raise ValueError(f"window is 'infinite', 'course' or a pair (alpha, beta), not {window!r}") from None
    if not a < b:
        raise ValueError(f"window ({a}, {b}): alpha must be below beta")
    return a, b, False


def _root(engine: _Engine, state, depth, alpha, beta, algorithm, rng):
    """Search every root move and pick the best: first in move order, or at random among
    equals when ``rng`` is given.

    Returns ``(move, value, root_values, pv)``: the move chosen (None at a leaf), its value,
    each root move's value, the principal variation."""
    game, stats, rec = engine.game, engine.stats, engine.rec
    stats.nodes += 1
    player = game.to_move(state)
    if engine.clip and algorithm != "minimax":
        hi = (MAX_SCORE - 1) if engine.quick else MAX_SCORE
        beta, alpha = min(beta, hi), max(alpha, -hi)
    nid = rec.enter(None, None, 0, player, alpha, beta)
    if depth == 0 or game.is_terminal(state):
        value, kind = engine.leaf_value(state, player, 0)
        stats.leaves += 1
        rec.leaf(nid, kind, value)
        return None, value, {}, []

    moves = engine.order(state, game.actions(state))
    table = engine.table
    if table is not None:
        stats.tt_probes += 1
        key = game.key(state)
        entry = table.get(key)
        # the root is searched whatever the table holds: its entry only orders the moves
        rec.table_probe(nid, key, table,
                        entry and (entry[0], BOUND_NAMES[entry[1]], entry[2], entry[3]),
                        "root" if entry else "empty")
        if entry is not None and entry[3] in moves and moves[0] != entry[3]:
            moves = [entry[3]] + [m for m in moves if m != entry[3]]
    best, ties, pv = -INF, [], []
    values = engine.root_values     # kept on the engine: a budget stop can still use them
    alpha0 = alpha
    for i, m in enumerate(moves):
        child = game.result(state, m)
        nd = None if depth is None else depth - 1
        if algorithm == "minimax":
            v = -engine.minimax(child, nd, 1, nid, m)
        else:
            # With random tie-breaks a move equal to the best so far must be told apart from
            # a worse one, so the window is opened just below alpha.
            a = alpha - _TIE_EPS if rng is not None and best > -INF else alpha
            v = -engine.alphabeta(child, nd, -beta, -a, 1, nid, m)
        values[m] = v
        if v > best:
            best, ties, pv = v, [m], [m] + engine.pv[1]
            if v > alpha and algorithm != "minimax":
                alpha = v
                if v < beta:
                    rec.update(nid, alpha, beta)
        elif v == best:
            ties.append(m)
        if algorithm != "minimax" and alpha >= beta:
            stats.cutoffs += 1
            rec.cut(nid, moves[i + 1:])
            break
    move = ties[0] if rng is None else rng.choice(ties)
    if move != pv[0]:
        pv = [move]
    if table is not None:
        bound = bound_of(best, alpha0, beta)
        rec.table_store(nid, key, table, (depth, BOUND_NAMES[bound], best, move))
        table.store(key, depth, bound, to_table(best, 0), move)
    rec.exit(nid, best)
    return move, best, values, pv


def _run(algorithm, game, state, depth, *, heuristic=None, order=None, quick_wins=True,
         window=None, table=None, record=False, max_nodes=None, time_limit=None,
         tie_break="first", seed=None, name=None):
    check_limits(depth, max_nodes, time_limit)
    state = game.initial_state() if state is None else state
    alpha, beta, course = _window(window, game.max_score)
    if tie_break not in ("first", "random"):
        raise ValueError(f"tie_break is 'first' or 'random', not {tie_break!r}")
    rng = random.Random(seed) if tie_break == "random" else None
    start = time.perf_counter()
    engine = _Engine(game, heuristic=heuristic, order=order, quick_wins=quick_wins,
                     table=table, record=record, max_nodes=max_nodes, time_limit=time_limit,
                     course_window=course, root_player=game.to_move(state), start=start)
    complete = True
    try:
        move, value, values, pv = _root(engine, state, depth, alpha, beta, algorithm, rng)
    except SearchAborted:
        complete = False
        values = dict(engine.root_values)
        move, value = best_so_far(values, engine.order(state, game.actions(state)))
        pv = [move] if move is not None else []
    engine.stats.elapsed = time.perf_counter() - start
    engine.stats.depth = depth if (complete and depth is not None) else engine.stats.depth
    tree = engine.rec.finish(pv, complete)
    return SearchResult(move, value, tuple(pv), engine.stats, name or algorithm, depth,
                        complete, tree, values)


# -- public entry points -------------------------------------------------------------------

def minimax(game, state=None, depth=None, *, heuristic=None, order=None, quick_wins=True,
            record=False, max_nodes=None, time_limit=None, tie_break="first", seed=None):
    """Minimax, full (``depth=None``, seed 000 Listing VIII.2) or depth-limited with a
    heuristic (seed 000 Listing VIII.3, seed 003 "MIN-MAX avec profondeur limitée").

    The unpruned reference: every faster variant must return its value. ``root_values``
    holds the exact value of every root move.

    Args:
        game, state: the game and the position (default: the start).
        depth: plies to look ahead; ``None`` searches to the end of the game.
        heuristic: ``h(state, player)`` scoring a non-final position at the depth limit
            (default 0, "unknown").
        order: how children are tried (see ``move_orderer``); no effect on the value.
        quick_wins: score wins by their distance (default) or flat ±maxScore (the seeds).
        record: keep the explored tree in ``result.tree``.
        max_nodes, time_limit: budget; when spent, ``result.complete`` is False.
        tie_break: "first" (deterministic, first best in move order) or "random" (``seed``).

    Returns:
        a ``SearchResult``: the move, its value from the side of the player to move, the
        principal variation, the statistics (``stats.nodes``: the seeds' "sommets
        explorés"), ``complete`` (False when a budget stopped it), each root move's value,
        and with ``record`` the tree.
    Raises:
        ValueError: a negative depth, a bad budget or option.
    """
    return _run("minimax", game, state, depth, heuristic=heuristic, order=order,
                quick_wins=quick_wins, record=record, max_nodes=max_nodes,
                time_limit=time_limit, tie_break=tie_break, seed=seed)


def alphabeta(game, state=None, depth=None, *, heuristic=None, order=None, quick_wins=True,
              window="infinite", table=None, record=False, max_nodes=None, time_limit=None,
              tie_break="first", seed=None):
    """Alpha-beta pruning with a depth limit (seeds 001, 003, 004): the value of minimax at
    the same depth, exploring fewer nodes.

    ``window`` is the initial (alpha, beta): "infinite" (-inf, +inf), "course"
    [-maxScore, +maxScore] as seed 003 starts ("le processus d'évaluation peut être
    initialisé avec les valeurs -maxScore, +maxScore"), or an explicit pair. ``table``: a
    ``TranspositionTable`` to use (``alphabeta_tt`` makes one). Other arguments as
    ``minimax``. This is the course's algorithm, node for node, on every game; a game's
    own fast loop runs only where ``ai.engine`` is asked for it.

    Returns:
        a ``SearchResult`` as ``minimax``'s: the same value at the same depth; the root
        moves after a cut hold bounds, not values.
    """
    return _run("alphabeta", game, state, depth, heuristic=heuristic, order=order,
                quick_wins=quick_wins, window=window, table=table, record=record,
                max_nodes=max_nodes, time_limit=time_limit, tie_break=tie_break, seed=seed,
                name="alphabeta-tt" if table is not None else "alphabeta")


def alphabeta_tt(game, state=None, depth=None, *, table=None, search=alphabeta, **kwargs):
    """Alpha-beta with a transposition table keyed by the game's Zobrist hash (what seed 004
    tried, done right: see ``TranspositionTable``). A fresh table unless one is given: of
    ``COURSE_SLOTS`` places for the course's alpha-beta (``ai.course.table``).
    ``search`` is the alpha-beta that runs (``ai.engine`` may pass a game's fast loop).

    Returns:
        the ``SearchResult`` of ``search`` with that table: the value of ``alphabeta``.
    """
    return search(game, state, depth, table=_table_for(search) if table is None else table,
                  **kwargs)


def _table_for(search) -> TranspositionTable:
    """A fresh table for ``search``: the course's, of ``COURSE_SLOTS`` places, for the
    course's alpha-beta; a plain one for another alpha-beta, which keeps its own entries."""
    return fresh_table(COURSE_SLOTS if search is alphabeta else None)


def iterative_deepening(game, state=None, depth=None, *, time_limit=0.3, max_nodes=None,
                        heuristic=None, order="center", quick_wins=True, window="infinite",
                        table=None, record=False, tie_break="first", seed=None,
                        search=alphabeta):
    """Alpha-beta with a table at depth 1, 2, 3, ... until ``time_limit`` seconds,
    ``max_nodes`` or ``depth``: "the best move you can find in 300 ms".

    Each iteration tries the previous best moves first (the table remembers them), so the
    deeper searches cut more. The result is that of the deepest finished depth
    (``stats.depth`` and ``depth``); ``complete`` is False only if not even depth 1 finished.
    A proven win or loss ends the deepening early. ``stats.nodes`` counts the nodes of all
    iterations; with ``record``, each iteration records its tree and the result keeps the last
    finished one's (a ``Recording``: only the search at ``depth`` records, and a result of
    another depth has no tree); ``iterations`` gives each finished depth's move, value and nodes (how the
    choice converged). ``search`` is the alpha-beta run at each depth (``ai.engine`` may pass
    a game's fast loop).

    Returns:
        the ``SearchResult`` of the deepest finished depth, with the statistics of every
        depth (``algorithm`` "iterative", ``depth`` the depth finished, ``iterations``); if
        not even depth 1 finished, the first move, value 0 and ``complete=False``.
    Raises:
        ValueError: no bound at all, depth 0, a bad budget.
    """
    if time_limit is None and max_nodes is None and depth is None:
        raise ValueError("iterative deepening needs a bound: time_limit, max_nodes or depth")
    check_limits(depth, max_nodes, time_limit)
    if depth == 0:
        raise ValueError("iterative deepening searches to a depth of at least 1, not 0")
    state = game.initial_state() if state is None else state
    table = _table_for(search) if table is None else table
    start = time.perf_counter()
    deadline = None if time_limit is None else start + time_limit
    total = SearchStats()
    best = None
    layers = []
    remaining_plies = game.plies_left(state)

    def recording_at(d):
        # A Recording (the search that decides records the tree panel's tree) records only
        # the depth asked for, the one that usually decides: the earlier depths' trees would
        # be thrown away. Anything else records every depth, and the last finished one stays.
        if not isinstance(record, Recording):
            return record
        return spent(record, total.nodes) if d == depth else False

    d = 0
    while depth is None or d < depth:
        d += 1
        left = None if deadline is None else deadline - time.perf_counter()
        if left is not None and left <= 0:
            break
        nodes_left = None if max_nodes is None else max_nodes - total.nodes
        if nodes_left is not None and nodes_left < 1:
            break
        r = search(game, state, d, heuristic=heuristic, order=order, quick_wins=quick_wins,
                   window=window, table=table, record=recording_at(d),
                   max_nodes=nodes_left,
                   time_limit=left, tie_break=tie_break, seed=seed)
        for k in ("nodes", "leaves", "cutoffs", "tt_probes", "tt_hits"):
            setattr(total, k, getattr(total, k) + getattr(r.stats, k))
        if not r.complete:
            break
        best = r
        layers.append((d, r.move, r.value, r.stats.nodes))
        total.depth = d
        if r.proven is not None or (remaining_plies is not None and d >= remaining_plies):
            break
    total.elapsed = time.perf_counter() - start
    if best is None:
        moves = game.actions(state)
        return SearchResult(moves[0] if moves else None, 0, tuple(moves[:1]), total,
                            "iterative", None, False)
    return replace(best, stats=total, algorithm="iterative", depth=total.depth,
                   iterations=tuple(layers))


# The course's algorithms by name (``ai.engine.search`` runs them by these names).
ALGORITHMS = {
    "minimax": minimax,
    "alphabeta": alphabeta,
    "alphabeta-tt": alphabeta_tt,
    "iterative": iterative_deepening,
}
