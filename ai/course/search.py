"""Game-tree search as the course teaches it: minimax, alpha-beta, alpha-beta with a
transposition table, and iterative deepening under a time budget. Pure functions over the game
protocol (``ai.course.game``), one result type, the seeds' node counts (seed 003: "9 sommets sur 28").
Nothing here knows a particular game: the fast Connect-4 loop (``ai.games.connect4.fast_search``) is
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

from .record import new_tree
from .scores import (BOUND_NAMES, EXACT, INF, LOWER, MAX_SCORE, UPPER, WIN_THRESHOLD,
                     SearchAborted, SearchResult, SearchStats, check_limits, terminal_score)

_TIE_EPS = 1e-9
_CHECK_EVERY = 1023


def _zero_heuristic(state, player):
    return 0


# -- move ordering ---------------------------------------------------------------------------

def move_orderer(game, order) -> Callable[[object, list], list]:
    """How children are tried: ``None``/"natural" (the game's order), "reverse", "center"
    (Connect-4 centre columns first; the natural order elsewhere), or an explicit priority
    list such as ``(3, 2, 1)`` for Nim (seed 003's example), unlisted moves last."""
    if order is None or order == "natural":
        return lambda state, moves: moves
    if order == "reverse":
        return lambda state, moves: moves[::-1]
    if order == "center":
        rank = getattr(game, "center_order", None)
        if rank is None:
            return lambda state, moves: moves
        pos = {m: i for i, m in enumerate(rank)}
        return lambda state, moves: sorted(moves, key=pos.__getitem__)
    if isinstance(order, str):
        raise ValueError(f"unknown move order {order!r}: natural, reverse, center or a list")
    pos = {m: i for i, m in enumerate(order)}
    big = len(pos)
    return lambda state, moves: sorted(moves, key=lambda m: pos.get(m, big))


# -- the transposition table -------------------------------------------------------------------

class TranspositionTable:
    """Zobrist key -> (depth, bound, value, best move), bounded in size.

    Seed 004 stored (alpha, beta, depth) triples and "could not make it work". What a cut
    node knows is a *bound*, not a value: a node that failed high only proves value >= beta,
    one that failed low proves value <= alpha. So each entry keeps the value with its bound
    type (EXACT, LOWER, UPPER) and the remaining depth it was searched to, and a probe uses it
    only when that bound settles the current window (``probe``). Win scores are stored
    relative to the node (plies from *it*), so an entry is right wherever the position
    recurs. Entries are used only at the same remaining depth, which keeps every value equal
    to plain minimax at the same depth (a deeper entry would be better informed, but
    different); other entries still give their best move to order the children.

    With ``slots``, it is the table of the course and of Pons' solver: ``slots`` places, a
    position goes to place ``key mod slots`` (``slot``), keeps its whole key there so that a
    probe can tell it from another position of the same place, and a new entry replaces the
    old one (a replaced entry only costs a new search). The course's algorithms get one from
    ``alphabeta_tt``, and the step-by-step replay shows each place. Without ``slots`` (the
    fast Connect-4 loop's table, which keeps its own entries in ``data``), a plain dictionary
    by key, emptied when it passes ``max_entries``.
    """

    def __init__(self, max_entries: int = 1_000_000, slots: int | None = None):
        if slots is not None and slots < 1:
            raise ValueError(f"a table has at least 1 slot, not {slots}")
        self.max_entries = max_entries
        self.slots = slots
        self.data: dict[int, tuple] = {}

    def clear(self):
        self.data.clear()

    def __len__(self):
        return len(self.data)

    def slot(self, key) -> int:
        """The place of ``key``: ``key mod slots`` (the key itself without slots). A game
        whose keys are not numbers (the protocol asks for an int; a hashable state works too)
        is placed by its hash."""
        if not self.slots:
            return key
        return (key if isinstance(key, int) else hash(key)) % self.slots

    def get(self, key):
        """The entry (depth, bound, value, move) of the position ``key``, or None."""
        if self.slots is None:
            return self.data.get(key)
        item = self.data.get(self.slot(key))
        return item[1] if item is not None and item[0] == key else None

    def occupant(self, key):
        """The key of the position now in ``key``'s place (None: the place is empty)."""
        if self.slots is None:
            return key if key in self.data else None
        item = self.data.get(self.slot(key))
        return None if item is None else item[0]

    def store(self, key, depth, bound, value, move):
        data = self.data
        if self.slots is not None:
            data[self.slot(key)] = (key, (depth, bound, value, move))
            return
        if len(data) >= self.max_entries and key not in data:
            data.clear()  # simplest bounded policy; the search stays correct, only slower
        data[key] = (depth, bound, value, move)



COURSE_SLOTS = 1 << 20      # the course's algorithms' table: 1,048,576 places


def fresh_table(search=None) -> TranspositionTable:
    """A new table for ``search``: of ``COURSE_SLOTS`` places for the course's alpha-beta (the
    default), a plain one for the fast Connect-4 loop, which keeps its own entries in it."""
    return TranspositionTable(slots=COURSE_SLOTS if search in (None, alphabeta) else None)


def _to_table(value, ply):
    if value >= WIN_THRESHOLD:
        return value + ply
    if value <= -WIN_THRESHOLD:
        return value - ply
    return value


def _from_table(value, ply):
    if value >= WIN_THRESHOLD:
        return value - ply
    if value <= -WIN_THRESHOLD:
        return value + ply
    return value


# -- the search engine -------------------------------------------------------------------------

class _Engine:
    """One search: its settings, its counters and its budget. Not reused across searches."""

    def __init__(self, game, *, heuristic, order, quick_wins, table, record, max_nodes,
                 time_limit, course_window, root_player):
        self.game = game
        self.heuristic = heuristic or _zero_heuristic
        self.order = move_orderer(game, order)
        self.quick = quick_wins
        self.leaf_scores = getattr(game, "leaf_scores", False)
        self.table = table
        self.tree = new_tree(record, root_player)
        self.max_nodes = max_nodes
        self.deadline = None if time_limit is None else time.perf_counter() + time_limit
        # The course's window [-maxScore, +maxScore] (seed 003), tightened at every node to the
        # scores still reachable from it (as Pons' solver does): with quick-win scoring a node
        # p plies down can at best win at ply p+1, so beta <= MAX_SCORE - (p+1). This is the
        # course's "situation optimale": a child that reaches the best score still possible
        # ends the search of its siblings.
        self.clip = course_window and not self.leaf_scores
        self.stats = SearchStats()
        self.pv = [[] for _ in range(2_100)]
        self.root_values = {}   # root move -> value, for each root move fully searched

    def check_clock(self):
        """The time budget, read every 1024 nodes (the node budget is checked at every node)."""
        if self.deadline is not None and time.perf_counter() > self.deadline:
            raise SearchAborted("time budget")

    def leaf_value(self, state, player, ply):
        """Score a final position, or a position at the depth limit (heuristic)."""
        game = self.game
        if game.is_terminal(state):
            return terminal_score(game, state, player, ply, self.quick), "terminal"
        return self.heuristic(state, player), "horizon"

    # Plain minimax (seeds 000 and 002): every child of every node, no window.
    def minimax(self, state, depth, ply, parent, move):
        stats, game, tree = self.stats, self.game, self.tree
        stats.nodes += 1
        if not stats.nodes & _CHECK_EVERY:
            self.check_clock()
        if self.max_nodes is not None and stats.nodes > self.max_nodes:
            raise SearchAborted("node budget")
        player = game.to_move(state)
        nid = tree.enter(parent, move, ply, player, -INF, INF) if tree else None
        self.pv[ply] = []
        if depth == 0 or game.is_terminal(state):
            value, kind = self.leaf_value(state, player, ply)
            stats.leaves += 1
            if tree:
                tree.leaf(nid, kind, value)
            return value
        best = -INF
        for m in self.order(state, game.actions(state)):
            v = -self.minimax(game.result(state, m), None if depth is None else depth - 1,
                              ply + 1, nid, m)
            if v > best:
                best = v
                self.pv[ply] = [m] + self.pv[ply + 1]
        if tree:
            tree.exit(nid, best)
        return best

    # Alpha-beta (seeds 001, 003, 004), optionally with the transposition table.
    def alphabeta(self, state, depth, alpha, beta, ply, parent, move):
        stats, game, tree, table = self.stats, self.game, self.tree, self.table
        stats.nodes += 1
        if not stats.nodes & _CHECK_EVERY:
            self.check_clock()
        if self.max_nodes is not None and stats.nodes > self.max_nodes:
            raise SearchAborted("node budget")
        player = game.to_move(state)
        if self.clip:
            hi = (MAX_SCORE - ply - 1) if self.quick else MAX_SCORE
            if beta > hi:
                beta = hi
            if alpha < -hi:
                alpha = -hi
        nid = tree.enter(parent, move, ply, player, alpha, beta) if tree else None
        self.pv[ply] = []
        if depth == 0 or game.is_terminal(state):
            value, kind = self.leaf_value(state, player, ply)
            stats.leaves += 1
            if tree:
                tree.leaf(nid, kind, value)
            return value
        if alpha >= beta:  # the clipped window is empty: nothing here can change the parent
            if tree:
                tree.cut(nid, self.order(state, game.actions(state)))
                tree.exit(nid, alpha)
            stats.cutoffs += 1
            return alpha

        alpha0 = alpha
        moves = self.order(state, game.actions(state))
        if table is not None:
            stats.tt_probes += 1
            key = game.key(state)
            entry = table.get(key)
            if entry is None:
                if tree:
                    tree.table_probe(nid, key, table, None, "empty")
            else:
                e_depth, bound, e_value, e_move = entry
                e_value = _from_table(e_value, ply)
                usable = e_depth == depth and (
                    bound == EXACT or (bound == LOWER and e_value >= beta)
                    or (bound == UPPER and e_value <= alpha))
                if tree:
                    tree.table_probe(nid, key, table,
                                     (e_depth, BOUND_NAMES[bound], e_value, e_move),
                                     "hit" if usable else "depth" if e_depth != depth
                                     else "bound")
                if usable:
                    stats.tt_hits += 1
                    if tree:
                        tree.table_hit(nid, e_value)
                    if e_move is not None:
                        self.pv[ply] = [e_move]
                    return e_value
                if e_move is not None and e_move in moves and moves[0] != e_move:
                    moves = [e_move] + [m for m in moves if m != e_move]
                    if tree:
                        tree.table_move(nid)

        best, best_move = -INF, None
        for i, m in enumerate(moves):
            v = -self.alphabeta(game.result(state, m), None if depth is None else depth - 1,
                                -beta, -alpha, ply + 1, nid, m)
            if v > best:
                best, best_move = v, m
                if v > alpha:
                    alpha = v
                    self.pv[ply] = [m] + self.pv[ply + 1]
                    if tree and v < beta:
                        tree.update(nid, alpha, beta)
            if alpha >= beta:  # beta cut-off: the opponent will never let the game come here
                stats.cutoffs += 1
                if tree:
                    tree.cut(nid, moves[i + 1:])
                break
        if table is not None and depth is not None:
            bound = UPPER if best <= alpha0 else LOWER if best >= beta else EXACT
            if tree:
                tree.table_store(nid, key, table, (depth, BOUND_NAMES[bound], best, best_move))
            table.store(key, depth, bound, _to_table(best, ply), best_move)
        if tree:
            tree.exit(nid, best)
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
    equals when ``rng`` is given. Returns (move, value, root_values)."""
    game, stats, tree = engine.game, engine.stats, engine.tree
    stats.nodes += 1
    player = game.to_move(state)
    if engine.clip and algorithm != "minimax":
        hi = (MAX_SCORE - 1) if engine.quick else MAX_SCORE
        beta, alpha = min(beta, hi), max(alpha, -hi)
    nid = tree.enter(None, None, 0, player, alpha, beta) if tree else None
    if depth == 0 or game.is_terminal(state):
        value, kind = engine.leaf_value(state, player, 0)
        stats.leaves += 1
        if tree:
            tree.leaf(nid, kind, value)
        return None, value, {}, []

    moves = engine.order(state, game.actions(state))
    table = engine.table
    if table is not None:
        stats.tt_probes += 1
        entry = table.get(game.key(state))
        if tree:                            # the root is searched whatever the table holds
            tree.table_probe(nid, game.key(state), table,
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
                if tree and v < beta:
                    tree.update(nid, alpha, beta)
        elif v == best:
            ties.append(m)
        if algorithm != "minimax" and alpha >= beta:
            stats.cutoffs += 1
            if tree:
                tree.cut(nid, moves[i + 1:])
            break
    move = ties[0] if rng is None else rng.choice(ties)
    if move != pv[0]:
        pv = [move]
    if table is not None and depth is not None:
        bound = UPPER if best <= alpha0 else LOWER if best >= beta else EXACT
        if tree:
            tree.table_store(nid, game.key(state), table, (depth, BOUND_NAMES[bound], best, move))
        table.store(game.key(state), depth, bound, _to_table(best, 0), move)
    if tree:
        tree.exit(nid, best)
    return move, best, values, pv


def _run(algorithm, game, state, depth, *, heuristic=None, order=None, quick_wins=True,
         window=None, table=None, record=False, max_nodes=None, time_limit=None,
         tie_break="first", seed=None, name=None):
    check_limits(depth, max_nodes, time_limit)
    state = game.initial_state() if state is None else state
    alpha, beta, course = _window(window, getattr(game, "max_score", MAX_SCORE))
    if tie_break not in ("first", "random"):
        raise ValueError(f"tie_break is 'first' or 'random', not {tie_break!r}")
    rng = random.Random(seed) if tie_break == "random" else None
    engine = _Engine(game, heuristic=heuristic, order=order, quick_wins=quick_wins,
                     table=table, record=record, max_nodes=max_nodes, time_limit=time_limit,
                     course_window=course, root_player=game.to_move(state))
    start = time.perf_counter()
    complete = True
    try:
        move, value, values, pv = _root(engine, state, depth, alpha, beta, algorithm, rng)
    except SearchAborted:
        # The budget ran out: the best of the root moves searched to the end, if any (their
        # values are exact for minimax, lower bounds at most for alpha-beta), else the
        # first move in the search order.
        complete = False
        values = dict(engine.root_values)
        if values:
            move = max(values, key=values.get)
            value = values[move]
        else:
            moves = engine.order(state, game.actions(state))
            move, value = (moves[0] if moves else None), 0
        pv = [move] if move is not None else []
    engine.stats.elapsed = time.perf_counter() - start
    engine.stats.depth = depth if (complete and depth is not None) else engine.stats.depth
    if engine.tree is not None and complete:
        engine.tree.mark_pv(pv)
    return SearchResult(move, value, tuple(pv), engine.stats, name or algorithm, depth,
                        complete, engine.tree, values)


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
    ``minimax``. This is the course's algorithm, node for node, on every game; the fast
    Connect-4 loop (``ai.games.connect4.fast_search``) runs only where ``ai.engine`` is asked for it.
    """
    return _run("alphabeta", game, state, depth, heuristic=heuristic, order=order,
                quick_wins=quick_wins, window=window, table=table, record=record,
                max_nodes=max_nodes, time_limit=time_limit, tie_break=tie_break, seed=seed,
                name="alphabeta-tt" if table is not None else "alphabeta")


def alphabeta_tt(game, state=None, depth=None, *, table=None, search=alphabeta, **kwargs):
    """Alpha-beta with a transposition table keyed by the game's Zobrist hash (what seed 004
    tried, done right: see ``TranspositionTable``). A fresh table unless one is given: of
    ``COURSE_SLOTS`` places for the course's alpha-beta.
    ``search`` is the alpha-beta that runs (``ai.engine`` passes the fast Connect-4 loop)."""
    return search(game, state, depth, table=fresh_table(search) if table is None else table,
                  **kwargs)


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
    finished one's; ``iterations`` gives each finished depth's move, value and nodes (how the
    choice converged). ``search`` is the alpha-beta run at each depth (``ai.engine`` passes
    the fast Connect-4 loop).
    """
    if time_limit is None and max_nodes is None and depth is None:
        raise ValueError("iterative deepening needs a bound: time_limit, max_nodes or depth")
    check_limits(depth, max_nodes, time_limit)
    if depth == 0:
        raise ValueError("iterative deepening searches to a depth of at least 1, not 0")
    state = game.initial_state() if state is None else state
    table = fresh_table(search) if table is None else table
    start = time.perf_counter()
    deadline = None if time_limit is None else start + time_limit
    total = SearchStats()
    best = None
    layers = []
    remaining_plies = _remaining_plies(game, state)
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
                   window=window, table=table, record=record, max_nodes=nodes_left,
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


def _remaining_plies(game, state):
    """An upper bound on the plies left in the game, when the game knows one."""
    if hasattr(game, "cells"):
        return game.cells - state.moves
    if hasattr(state, "remaining"):
        return state.remaining
    return None


# The course's algorithms by name (``ai.engine.search`` runs them by these names).
ALGORITHMS = {
    "minimax": minimax,
    "alphabeta": alphabeta,
    "alphabeta-tt": alphabeta_tt,
    "iterative": iterative_deepening,
}
