"""A specialised depth-limited alpha-beta for Connect-4: the same answers as ``ai.course.search``,
from an inner loop that works on the bitboard ints alone.

``fast_alphabeta(game, state, depth, heuristic=h)`` returns the value that
``ai.course.search.alphabeta`` (and so plain ``minimax``) returns for the same position, depth,
heuristic and ``quick_wins``: a win ``p`` plies below the root scores ``MAX_SCORE - p`` (flat
``MAX_SCORE`` with ``quick_wins=False``), a draw 0, and a position at the depth limit the
heuristic's own value. What changes is how the tree is walked:

- Nodes are plain ints (``current``, ``mask``, stones played), never ``C4State``s; the
  recursion is two closures (a node with depth >= 2, a node at depth 1 whose children are
  scored inline) whose constants are default arguments (fast local loads).
- Wins are never found by testing a four after a move. Each node receives the opponent's
  *winning cells* from its parent (Pascal Pons' ``compute_winning_position``, computed for
  all candidate moves at once on the "wide" board of ``ai.games.connect4.bitboard``, which the exact solver
  shares). That gives, exactly:

  * the side to move wins at once (depth >= 1): value ``MAX_SCORE - (ply + 1)``, the best
    any node can get, so nothing else needs searching (checked at the root; below it the
    parent never plays a move that allows it, see next point);
  * a move that lets the opponent win at once (any move when the opponent has two playable
    winning cells, any but the block when it has one, a move under an opponent's winning
    cell), with depth >= 2, is worth exactly ``-(MAX_SCORE - (ply + 2))``, the worst value
    a move can have: such moves are never searched, and a node where every move is one of
    them is worth that value (Pons' "anticipate direct losing moves");
  * with depth >= 2 and at most two empty cells, once a non-losing move exists: a draw (0).

  Values at a node are clipped, as in Pons' solver, to the scores still reachable from it:
  at most ``MAX_SCORE - (ply + 3)`` (the side to move cannot win at once) and, when it has a
  non-losing move, at least ``-(MAX_SCORE - (ply + 4))``.
- Move order: the table's best move, then the moves that give the most winning cells (at
  depth >= 3), then centre first; at depth 1, the move that last cut at the same ply (a
  "killer") first. The move order never changes a value.
- The heuristics are computed inline. ``CellValues`` is a sum over stones, carried down the
  tree as a running total (one dict look-up per move). ``Threats`` counts open windows; here
  every window of the four directions lives in one "layout" integer, where each line of
  cells of each direction (columns, rows, both diagonals: only the lines of 4 cells or more)
  occupies consecutive bits, so one pass of shifts by 1, 2, 3 counts the windows of all
  four directions at once; the side to move's layout sits in the low half and the
  opponent's in the high half, so the same pass serves both players. The layouts are
  updated by one OR per move (``ai.heuristics.Threats`` itself costs about ten times more).
- A transposition table (optional) of the generic engine's format
  ``key -> (depth, bound, value, best move)``, win scores node-relative, values used only at
  the *same* remaining depth (so they stay those of minimax at that depth); entries of other
  depths only put their move first. Keys are ``~(current + mask)`` (unique per position,
  negative so they never meet the non-negative Zobrist keys of the generic engine in a
  shared table). Nodes of depth 1 and 2 use the table only in searches of depth >= 5:
  in smaller trees a look-up there costs about what it saves.

Statistics have the generic engine's meaning: ``nodes`` every position entered (root and
leaves included), ``leaves`` the positions scored without looking at their children (game
over, depth limit, and here also the nodes settled by the rules above), ``cutoffs`` the
beta cuts (and empty clipped windows), ``tt_probes`` / ``tt_hits`` the table look-ups and
those whose value was used.

Budgets: ``max_nodes`` and ``deadline`` (a ``time.perf_counter()`` value). The node count is
compared with ``max_nodes`` after every node entered (leaves scored inside a depth-1 node are
added when that node is done), the clock is read every 1024 nodes. When either runs out,
``ai.course.scores.SearchAborted`` is raised, carrying ``.stats`` (the statistics so far); the root
moves whose search finished are in the ``root_values`` dict if the caller passed one.
A search whose node count stays within ``max_nodes`` therefore never aborts.

The tree: given an ``ai.course.record.SearchTree`` (``alphabeta(record=True)``), the loop writes its
own search into it as it goes (``_Recorder``), so the tree panel can show the search that
chose the move, with its node count: ``tree.explored == stats["nodes"]``. The children a
depth-1 node scores inline are recorded as leaves (their values from the heuristic object; in
a ``ai.course.record.Recording``, only those the tree keeps, at the search's end); a node a
rule settles is a leaf of kind "settled". A search that records nothing pays one test per
recorder call (``rec is not None``): unlike the course's search (``ai.course.search``), this loop
keeps the test rather than a recorder that does nothing, since a call costs several times a
test and the loop is what the levels run (see NOTES-i23-search.md). ``ai.engine`` records in
the search that decides when the clock cannot have changed it (see there).

``_build`` is long on purpose: it is the speed-tuned inner loop (with the solver's, the only
function of ``ai/`` over ~80 lines). Its node functions are closures whose constants are
default arguments and whose counters are cells of the closure; splitting them into smaller
functions would add a call per node, which is what the loop avoids.
"""
from __future__ import annotations

import threading
import time
from functools import lru_cache, partial

from .bitboard import Geometry, geometry, non_losing, winning_cells
from .state import C4State
from ai.games.connect4.heuristic import CellValues, Threats, cell_values
from ai.course.record import SearchTree, new_tree
from ai.course.scores import (EXACT, HEURISTIC_MAX, INF, LOWER, MAX_SCORE, UPPER, WIN_THRESHOLD,
                     SearchAborted, SearchResult, SearchStats, best_so_far, check_limits)

__all__ = ["alphabeta", "fast_alphabeta", "supports"]

_CHECK_EVERY = 1024
_TABLE_LOW_DEPTH = 5    # searches at least this deep use the table at depth-1 and -2 nodes too
_INF = 1 << 60          # beyond every score; ints compare faster than floats with ints
_THREATS, _CELLS, _ZERO = 1, 2, 0


# -- the tables of one board size -------------------------------------------------------------

class _Tables:
    """What this loop needs for one board size beyond ``ai.games.connect4.bitboard``'s geometry (``g``),
    computed once (``_tables``): the move lists with a given column first, and the
    precomputed forms of the two heuristics (module docstring)."""

    def __init__(self, g: Geometry):
        W, H, H1 = g.width, g.height, g.h1
        self.g = g
        # For each set of playable columns (g.playable's key): the same list with column t
        # first (moves_first[t]), for the table's move and the killer move.
        self.moves_first = [dict(g.playable) for _ in range(W)]
        for key, entry in g.playable.items():
            for i, x in enumerate(entry):
                if i:
                    self.moves_first[x[0]][key] = (x,) + entry[:i] + entry[i + 1:]
        self._threats_layout(W, H, H1)
        self._cell_values(W, H, H1)

    def _threats_layout(self, W, H, H1):
        """Threats: every line of 4 cells or more of the four directions, its cells on
        consecutive bits of the "layout"."""
        lines = []
        for dc, dr in ((0, 1), (1, 0), (1, 1), (1, -1)):
            for c in range(W):
                for r in range(H):
                    if 0 <= c - dc < W and 0 <= r - dr < H:
                        continue            # not the first cell of its line
                    cells, x, y = [], c, r
                    while 0 <= x < W and 0 <= y < H:
                        cells.append((x, y))
                        x, y = x + dc, y + dr
                    if len(cells) >= 4:
                        lines.append(cells)
        layout, starts, pos = {}, 0, 0
        for cells in lines:
            for i, (x, y) in enumerate(cells):
                b = 1 << (x * H1 + y)
                layout[b] = layout.get(b, 0) | (1 << (pos + i))
                if i + 3 < len(cells):
                    starts |= 1 << (pos + i)   # a window of 4 starts here
            pos += len(cells)
        self.K = K = pos
        self.layout = layout                              # bit -> its layout bits
        self.layout_hi = {b: v << K for b, v in layout.items()}
        self.starts2 = starts | (starts << K)
        self.low = (1 << K) - 1

    def _cell_values(self, W, H, H1):
        """CellValues: the value of each bit; and for a whole position, per column, each
        pattern of its stones -> (layout bits, sum of values)."""
        grid = cell_values(W, H)
        self.cell_value = {1 << (c * H1 + r): grid[H - 1 - r][c]
                           for c in range(W) for r in range(H)}
        full = (1 << H) - 1
        self.column_layout, self.column_sum = [], []
        for c in range(W):
            lay, tot = [0] * (full + 1), [0] * (full + 1)
            for pat in range(1, full + 1):
                low = pat & -pat            # a pattern = a smaller one plus its lowest stone
                b = low << (c * H1)
                lay[pat] = lay[pat ^ low] | self.layout.get(b, 0)
                tot[pat] = tot[pat ^ low] + self.cell_value[b]
            self.column_layout.append((c * H1, lay))
            self.column_sum.append((c * H1, tot))

    def to_layout(self, stones: int) -> int:
        """The layout bits of ``stones`` (the low half)."""
        out, full = 0, (1 << self.g.height) - 1
        for sh, lay in self.column_layout:
            out |= lay[(stones >> sh) & full]
        return out

    def cells_sum(self, stones: int) -> int:
        """The sum of the cell values (``CellValues``) of ``stones``."""
        out, full = 0, (1 << self.g.height) - 1
        for sh, tot in self.column_sum:
            out += tot[(stones >> sh) & full]
        return out


@lru_cache(maxsize=None)
def _tables(width: int, height: int) -> _Tables:
    return _Tables(geometry(width, height))


# -- which searches are supported --------------------------------------------------------------

def _kind(game, heuristic):
    """_THREATS, _CELLS or _ZERO for a supported heuristic on ``game``, else None."""
    if game.name != "connect4" or game.leaf_scores:
        return None
    if heuristic is None:
        return _ZERO
    hg = getattr(heuristic, "game", None)
    if hg is None or (hg.width, hg.height) != (game.width, game.height):
        return None
    if type(heuristic) is Threats and tuple(heuristic.weights) == (0, 1, 4, 16):
        return _THREATS
    if type(heuristic) is CellValues:
        return _CELLS
    return None


def supports(game, heuristic=None, **options) -> bool:
    """True when ``fast_alphabeta`` gives the generic engine's answer for these options.

    Supported: ``game`` a ``Connect4`` (any size 4..9), ``heuristic`` None, ``Threats`` (its
    standard weights) or ``CellValues`` of the same board size; ``quick_wins`` either;
    ``window`` "infinite"/"course"/None (both give the minimax value); ``order`` anything (it
    only changes which of several equally good moves is returned, and this module uses its
    own order); ``table`` None, a ``TranspositionTable`` or a dict; ``depth`` an int >= 0 or
    None; ``record`` either (the loop records its own tree). Not supported (False):
    ``tie_break="random"``, an explicit (alpha, beta) window (its fail-soft result depends on
    the search order), ``AdjustedCells`` or any other heuristic, any other game.
    """
    if _kind(game, heuristic) is None:
        return False
    if options.get("tie_break", "first") not in ("first", None):
        return False
    if options.get("window", "infinite") not in (None, "infinite", "course"):
        return False
    depth = options.get("depth")
    if depth is not None and (isinstance(depth, bool) or not isinstance(depth, int) or depth < 0):
        return False
    return True


# -- recording the tree ------------------------------------------------------------------------

def _window(x):
    """A bound of the loop (ints; +-_INF for none) as the recorded tree shows it."""
    return INF if x >= _INF else -INF if x <= -_INF else x


class _Recorder:
    """Writes the loop's search into an ``ai.course.record.SearchTree``, node by node, as
    ``ai.course.search`` records its own: every node entered (so ``tree.explored`` is
    ``stats["nodes"]``), the children a depth-1 node scores inline as leaves, a cut's skipped
    moves as pruned nodes (one cut-off per ``stats["cutoffs"]``), table hits; a node that a
    rule settles without its children (module docstring) is a leaf of kind "settled". The
    loop calls it only where ``rec is not None``, so a search that records nothing pays one
    test per node. The move that led to a node is the bit by which its mask differs from
    its parent's, so the loop need not pass it down."""

    def __init__(self, tree: SearchTree, g: Geometry, root_player: int):
        self.tree, self.h1, self.root_player = tree, g.h1, root_player
        self.ids = [None] * (g.cells + 9)       # the node open at each ply
        self.masks = [0] * (g.cells + 9)        # and its mask

    def enter(self, ply, mask, alpha, beta):
        parent = move = None
        if ply:
            parent = self.ids[ply - 1]
            move = ((mask ^ self.masks[ply - 1]).bit_length() - 1) // self.h1
        self.ids[ply] = self.tree.enter(parent, move, ply, self.root_player ^ (ply & 1),
                                        _window(alpha), _window(beta))
        self.masks[ply] = mask

    def child(self, ply, col, kind, value, alpha, beta):
        """A child of the node at ``ply`` scored without being entered; ``value`` (and the
        window) from that node's side."""
        self.child_of(self.ids[ply], ply, col, kind, value, alpha, beta)

    def child_of(self, nid, ply, col, kind, value, alpha, beta):
        """``child`` of the node ``nid`` (at ``ply``)."""
        child = self.tree.enter(nid, col, ply + 1, self.root_player ^ ((ply + 1) & 1),
                                _window(-beta), _window(-alpha))
        self.tree.leaf(child, kind, -value)

    def scored(self, ply, heuristic, cur, mask, possible, scored, alpha, beta, skipped, cut):
        """The children of the depth-1 node at ``ply`` that it scored inline, as the loop met
        them (``scored``: entries of the move lists, with the window's moves), and those a cut
        skipped. Below a node the recording does not keep (``ai.record.Focus``), only counted;
        in a tree that keeps them only if it needs them (``SearchTree.defers``), recorded at
        the search's end if it does (``scored_leaves``): no heuristic call while searching."""
        nid, tree = self.ids[ply], self.tree
        if nid < 0:
            tree.hidden_leaves(nid, len(scored), cut, len(skipped))
        elif tree.defers:
            tree.scored_later(nid, len(scored), cut, tuple(x[0] for x in skipped),
                              partial(scored_leaves, self, ply, heuristic, cur, mask, possible,
                                      scored, alpha, beta, skipped))
        else:
            scored_leaves(self, ply, heuristic, cur, mask, possible, scored, alpha, beta,
                          skipped, nid)

    def leaf(self, ply, kind, value):
        self.tree.leaf(self.ids[ply], kind, value)

    def update(self, ply, alpha, beta):
        self.tree.update(self.ids[ply], _window(alpha), _window(beta))

    def cut(self, ply, skipped):
        self.tree.cut(self.ids[ply], list(skipped))

    def cut_after(self, ply, cols, col):
        """A cut at the move ``col``: the moves after it in ``cols`` are skipped."""
        self.cut(ply, cols[cols.index(col) + 1:])

    def cut_all(self, ply, moves, value):
        """The window is empty before any move: every move (``moves``' entries) skipped."""
        self.cut(ply, [m[0] for m in moves])
        self.exit(ply, value)

    def hit(self, ply, value):
        self.tree.table_hit(self.ids[ply], value)

    def exit(self, ply, value):
        self.tree.exit(self.ids[ply], value)


def child_value(heuristic, cur, mask, bit):
    """The heuristic's value, for the side to move, of playing ``bit`` into a position at the
    depth limit: what the loop's depth-1 nodes compute inline, here from the heuristic object
    itself (0 without one)."""
    if heuristic is None:
        return 0
    return heuristic(C4State(cur ^ mask, mask | bit, 1, 0, 0, None), 0)   # player 0 moved


def scored_leaves(rec, ply, heuristic, cur, mask, possible, scored, alpha, beta, skipped,
                  nid):
    """Record under the node ``nid`` (at ``ply``) the children a depth-1 node scored inline
    (``_Recorder.scored``), each with its value and window, and a cut's skipped moves."""
    for col, cm, _, _ in scored:
        v = child_value(heuristic, cur, mask, possible & cm)
        rec.child_of(nid, ply, col, "horizon", v, alpha, beta)
        if v > alpha:
            alpha = v
            if v >= beta:
                rec.tree.cut(nid, [x[0] for x in skipped])
                break
            rec.tree.update(nid, _window(alpha), _window(beta))


# -- the search --------------------------------------------------------------------------------

def alphabeta(game, state=None, depth=None, *, heuristic=None, order=None, quick_wins=True,
              window="infinite", table=None, record=False, max_nodes=None, time_limit=None,
              tie_break="first", seed=None) -> SearchResult:
    """``ai.course.search.alphabeta`` through this loop, with its arguments and its ``SearchResult``:
    the same value, a move of that value (among equals maybe another), fewer nodes. ``order``
    is accepted and not used (this loop has its own order, which changes no value); ``window``
    "infinite" and "course" both give the minimax value. When a budget stops the search, the
    best of the root moves settled so far is played, as ``ai.course.search`` does.

    Raises:
        ValueError: options ``supports`` refuses, a bad depth or budget.
    """
    if not supports(game, heuristic, window=window, tie_break=tie_break):
        raise ValueError(f"the fast Connect-4 loop does not run {game!r} with heuristic "
                         f"{heuristic!r}, window {window!r}, tie_break {tie_break!r}: use "
                         "ai.course.search.alphabeta")
    check_limits(depth, max_nodes, time_limit)
    state = game.initial_state() if state is None else state
    start = time.perf_counter()
    deadline = None if time_limit is None else start + time_limit
    values: dict = {}
    tree = new_tree(record, game.to_move(state))
    complete = True
    try:
        move, value, pv, counts = fast_alphabeta(
            game, state, depth, heuristic=heuristic, table=table, quick_wins=quick_wins,
            max_nodes=max_nodes, deadline=deadline, root_values=values, tree=tree)
    except SearchAborted as stop:
        complete, counts = False, stop.stats
        move, value = best_so_far(values, game.actions(state))
        pv = [move] if move is not None else []
    stats = SearchStats(**counts)
    stats.elapsed = time.perf_counter() - start
    stats.depth = depth if complete and depth is not None else 0
    if tree is not None:
        tree = tree.finish(pv, complete)
    return SearchResult(move, value, tuple(pv), stats,
                        "alphabeta-tt" if table is not None else "alphabeta", depth, complete,
                        tree, values)


_local = threading.local()      # per thread: (width, height, kind, quick_wins) -> searcher


def fast_alphabeta(game, state, depth, *, heuristic=None, table=None, quick_wins=True,
                   max_nodes=None, deadline=None, root_values=None, tree=None):
    """Depth-limited negamax alpha-beta on ``state``; see the module docstring.

    Args:
        game: a ``Connect4``; state: a ``C4State`` of it (the start if None).
        depth: plies to look ahead (>= 0), or None for the whole game.
        heuristic: None (every position at the depth limit scores 0), ``Threats(game)`` or
            ``CellValues(game)``; ``supports`` tells which.
        table: None, a ``TranspositionTable`` (its ``max_entries`` is honoured: the table is
            emptied when it has grown past it, looked at every 1024 nodes) or a plain dict.
            Share one only between searches with the same heuristic and ``quick_wins``.
        quick_wins: score wins by their distance (default), else flat +-MAX_SCORE.
        max_nodes: abort once more than this many nodes have been entered.
        deadline: abort once ``time.perf_counter()`` passes this value (read every 1024
            nodes).
        root_values: a dict to fill with move -> value for each root move settled (exact for
            the best move; for the others a bound, as in ``ai.course.search``); it keeps what was
            settled when a budget aborts the search.
        tree: an empty ``ai.course.record.SearchTree`` of the side to move, to record the search in
            (``_Recorder``); None records nothing.

    Returns:
        ``(move, value, pv, stats)``: a best move (None if the game is over or depth is 0),
        the negamax value from the side to move, the principal variation (a list of
        columns, starting with ``move``) and the statistics dict (``nodes``, ``leaves``,
        ``cutoffs``, ``tt_probes``, ``tt_hits``).

    Raises:
        ai.course.scores.SearchAborted: a budget ran out (``.stats`` holds the statistics so far).
        ValueError: an unsupported game or heuristic, or a bad depth.
    """
    kind = _kind(game, heuristic)
    if kind is None:
        raise ValueError(f"fast_alphabeta does not support {game!r} with heuristic {heuristic!r}")
    check_limits(depth, max_nodes, None)
    if getattr(table, "slots", None) is not None:
        raise ValueError("the fast loop keeps its own entries: give it a table without slots")
    if state is None:
        state = game.initial_state()
    if root_values is None:
        root_values = {}
    if depth is None:
        depth = game.cells - state.moves    # the game cannot last longer: the same value
    if state.over or depth == 0:            # the root is a leaf
        if state.over == 1:
            value = -MAX_SCORE      # the player who just moved won, ply 0
        elif state.over or kind == _ZERO:
            value = 0
        else:
            value = heuristic(state, state.moves & 1)
        if tree is not None:
            tree.leaf(tree.enter(None, None, 0, state.moves & 1, -INF, INF),
                      "terminal" if state.over else "horizon", value)
        return None, value, [], {"nodes": 1, "leaves": 1, "cutoffs": 0, "tt_probes": 0,
                                 "tt_hits": 0}
    quick = bool(quick_wins)
    try:
        cache = _local.searchers
    except AttributeError:
        cache = _local.searchers = {}
    key = (game.width, game.height, kind, quick)
    searcher = cache.get(key)
    if searcher is None or searcher[1][0]:      # none yet, or this one is busy (re-entry)
        searcher = _build(_tables(game.width, game.height), kind, quick)
        if key not in cache:
            cache[key] = searcher
    return searcher[0](state.current, state.mask, state.moves, depth, table, max_nodes,
                       deadline, root_values, heuristic, tree)


def _build(t: _Tables, kind: int, quick: bool):
    """The search for one board size, heuristic kind and scoring: ``(run, busy)``, where
    ``run(current, mask, moves, depth, table, max_nodes, deadline, root_values, heuristic,
    tree)`` does one search and ``busy[0]`` is True while it runs. Built once per thread and reused: the
    per-search state (counters, table, budget) lives in the closure and is reset by ``run``."""
    MAX, WT = MAX_SCORE, WIN_THRESHOLD
    LIMIT = HEURISTIC_MAX - 1
    Aborted = SearchAborted

    g = t.g                                         # ai.games.connect4.bitboard's geometry
    H1, CELLS = g.h1, g.cells
    BOTTOM, BOARD, SENT = g.bottom, g.board, g.sentinels
    REP, DIAG, WINS = g.rep, g.diag, g.wins
    MOVES, MOVES_FIRST, BYPRI = g.playable, t.moves_first, g.by_priority
    LAYOUT, LAYOUT_HI, STARTS2, LOW, K, CEN = (t.layout, t.layout_hi, t.starts2, t.low, t.K,
                                               g.centre)
    HS = STARTS2 & ~LOW                             # the window starts of the high half
    OFFSET = 16 * HS.bit_count()                    # (1 + 3 + 12) per high window start
    VAL = t.cell_value
    DRAWN = CELLS - 2
    n_ply = CELLS + 8
    if quick:
        WIN1 = MAX - 1                                     # the root's side wins at once
        LOSS2 = tuple(-(MAX - (p + 2)) for p in range(n_ply))  # the opponent wins next move
        LO = tuple(-(MAX - (p + 4)) for p in range(n_ply))     # a non-losing move: at worst
        HI = tuple(MAX - (p + 3) for p in range(n_ply))        # no win at once: at best
    else:
        WIN1, LOSS2, LO, HI = MAX, (-MAX,) * n_ply, (-MAX,) * n_ply, (MAX,) * n_ply
    EMPTY = []
    pvs = [EMPTY] * n_ply
    CENTRE_COL = g.order[0]
    killers = [CENTRE_COL] * n_ply  # per ply: the last move that made a depth-1 node cut

    # per-search state, reset by run()
    nodes = leaves = cutoffs = probes = hits = 0
    limit = checkpoint = _INF
    deadline = None
    tdata = tget = max_entries = None
    use_table = False
    table_low = False           # use the table at depths 1 and 2 too (searches of depth >= 5)
    heur = None                 # the heuristic object (recording and the root at depth 1)
    rec = None                  # a _Recorder when the search records its tree, else None
    busy = [False]

    def stats():
        return {"nodes": nodes, "leaves": leaves, "cutoffs": cutoffs, "tt_probes": probes,
                "tt_hits": hits}

    def check():
        nonlocal checkpoint
        if nodes > limit:
            raise Aborted("node budget")
        if deadline is not None and time.perf_counter() > deadline:
            raise Aborted("time budget")
        if max_entries is not None and len(tdata) > max_entries:
            tdata.clear()           # as TranspositionTable.store: only costs speed
        checkpoint = nodes + _CHECK_EVERY
        if checkpoint > limit:
            checkpoint = limit

    # -- depth 1: the children are scored inline -----------------------------------------------
    # Called only below a node of depth >= 2, which never plays a move that lets the side to
    # move here win at once, nor comes within two plies of a full board: every child is a
    # position at the depth limit, scored by the heuristic.
    def node1(cur, mask, alpha, beta, ply, h1,
              BOTTOM=BOTTOM, BOARD=BOARD, SENT=SENT, MOVES=MOVES, MOVES_FIRST=MOVES_FIRST,
              LAYOUT=LAYOUT, STARTS2=STARTS2, LOW=LOW, K=K, CEN=CEN, VAL=VAL, LIMIT=LIMIT,
              HS=HS, OFFSET=OFFSET, kind=kind, pvs=pvs, EMPTY=EMPTY, EXACT=EXACT,
              LOWER=LOWER, UPPER=UPPER, killers=killers):
        nonlocal nodes, leaves, cutoffs, probes, hits
        nodes += 1
        if rec is not None:
            rec.enter(ply, mask, alpha, beta)
        if kind == _ZERO:               # every child scores 0
            leaves += 1
            pvs[ply] = EMPTY
            if rec is not None:
                rec.leaf(ply, "settled", 0)
            if nodes > checkpoint:
                check()
            return 0
        possible = (mask + BOTTOM) & BOARD
        if table_low:
            key = ~(cur + mask)
            probes += 1
            e = tget(key)
            if e is not None:
                if e[0] == 1:           # (no win score at depth 1: nothing to convert)
                    v = e[2]
                    bound = e[1]
                    if (bound == EXACT or (bound == LOWER and v >= beta)
                            or (bound == UPPER and v <= alpha)):
                        hits += 1
                        pvs[ply] = [e[3]]
                        if rec is not None:
                            rec.hit(ply, v)
                        if nodes > checkpoint:
                            check()
                        return v
                order = MOVES_FIRST[e[3]][(possible + BOARD) & SENT]
            else:
                order = MOVES_FIRST[killers[ply]][(possible + BOARD) & SENT]
        else:
            order = MOVES_FIRST[killers[ply]][(possible + BOARD) & SENT]
        alpha0 = alpha
        best = -_INF
        best_move = None
        n = 0
        if kind == _THREATS:
            # h1: the layouts, the side to move's in the low half, the opponent's above
            # A window starting at bit s holds bits s..s+3: with b = X >> 1, ab = X & b and
            # aob = X | b, the pairs (s, s+1) and (s+2, s+3) are ab/aob and ab/aob >> 2.
            # A count "mine - theirs" of a mask q whose high half lies in HIGH_STARTS is
            # popcount(q ^ HIGH_STARTS) - N_HIGH: one popcount instead of two.
            opp = cur ^ mask
            base = 2 * ((cur & CEN).bit_count() - (opp & CEN).bit_count()) - OFFSET
            for col, cm, sh, pri in order:
                bit = possible & cm
                X = h1 | LAYOUT[bit]
                b = X >> 1
                ab = X & b
                aob = X | b
                cd = ab >> 2
                cod = aob >> 2
                p1 = aob | cod          # windows with >= 1 stone of a player
                free = STARTS2 & ~((p1 >> K) | ((p1 & LOW) << K))   # ... none of the other's
                v = (((p1 & free) ^ HS).bit_count()
                     + 3 * (((ab | cd | (aob & cod)) & free) ^ HS).bit_count()      # >= 2
                     + 12 * ((((ab & cod) | (cd & aob)) & free) ^ HS).bit_count()   # >= 3
                     + base)
                if bit & CEN:
                    v += 2
                if v > LIMIT:
                    v = LIMIT
                elif v < -LIMIT:
                    v = -LIMIT
                n += 1
                if v > best:
                    best = v
                    best_move = col
                    if v > alpha:
                        alpha = v
                        if v >= beta:
                            cutoffs += 1
                            killers[ply] = col
                            break
        else:                           # _CELLS: h1 is the running sum from the mover's side
            for col, cm, sh, pri in order:
                v = h1 + VAL[possible & cm]
                if v > LIMIT:
                    v = LIMIT
                elif v < -LIMIT:
                    v = -LIMIT
                n += 1
                if v > best:
                    best = v
                    best_move = col
                    if v > alpha:
                        alpha = v
                        if v >= beta:
                            cutoffs += 1
                            killers[ply] = col
                            break
        nodes += n
        leaves += n
        pvs[ply] = [best_move] if best > alpha0 else EMPTY
        if table_low:
            tdata[key] = (1, UPPER if best <= alpha0 else LOWER if best >= beta else EXACT,
                          best, best_move)
        if rec is not None:
            rec.scored(ply, heur, cur, mask, possible, order[:n], alpha0, beta, order[n:],
                       best >= beta)
            rec.exit(ply, best)
        if nodes > checkpoint:
            check()
        return best

    # -- depth >= 2 ----------------------------------------------------------------------------
    # The side to move cannot win at once (the parent saw to it); opp_wins are the
    # opponent's winning cells. h1, h2: the heuristic's running state (Threats: the layouts
    # seen from the side to move, and from the opponent; CellValues: the running sum, 0).
    def node(cur, mask, nb, depth, alpha, beta, ply, opp_wins, h1, h2,
             BOTTOM=BOTTOM, BOARD=BOARD, SENT=SENT, REP=REP, DIAG=DIAG, WINS=WINS,
             NON_LOSING=non_losing, MOVES=MOVES,
             MOVES_FIRST=MOVES_FIRST, BYPRI=BYPRI, LAYOUT=LAYOUT, LAYOUT_HI=LAYOUT_HI,
             VAL=VAL, kind=kind, pvs=pvs, EMPTY=EMPTY, LOSS2=LOSS2, LO=LO, HI=HI,
             DRAWN=DRAWN, EXACT=EXACT, LOWER=LOWER, UPPER=UPPER, WT=WT, node1=node1, H1=H1):
        nonlocal nodes, leaves, cutoffs, probes, hits
        nodes += 1
        if nodes > checkpoint:
            check()
        if rec is not None:
            rec.enter(ply, mask, alpha, beta)
        possible = NON_LOSING((mask + BOTTOM) & BOARD, opp_wins)
        if not possible:                # every move lets the opponent win at ply + 2
            leaves += 1
            pvs[ply] = EMPTY
            if rec is not None:
                rec.leaf(ply, "settled", LOSS2[ply])
            return LOSS2[ply]
        if nb >= DRAWN:                 # our stone (and the opponent's) fill the board
            leaves += 1
            pvs[ply] = EMPTY
            if rec is not None:
                rec.leaf(ply, "settled", 0)
            return 0
        v = LO[ply]
        if alpha < v:
            alpha = v
            if alpha >= beta:
                cutoffs += 1
                pvs[ply] = EMPTY
                if rec is not None:
                    rec.cut_all(ply, MOVES[(possible + BOARD) & SENT], alpha)
                return alpha
        v = HI[ply]
        if beta > v:
            beta = v
            if alpha >= beta:
                cutoffs += 1
                pvs[ply] = EMPTY
                if rec is not None:
                    rec.cut_all(ply, MOVES[(possible + BOARD) & SENT], beta)
                return beta
        tt_move = -1
        use_tt = use_table and (table_low or depth > 2)
        if use_tt:
            key = ~(cur + mask)
            probes += 1
            e = tget(key)
            if e is not None:
                if e[0] == depth:
                    v = e[2]
                    if v >= WT:
                        v -= ply
                    elif v <= -WT:
                        v += ply
                    bound = e[1]
                    if (bound == EXACT or (bound == LOWER and v >= beta)
                            or (bound == UPPER and v <= alpha)):
                        hits += 1
                        pvs[ply] = [e[3]]
                        if rec is not None:
                            rec.hit(ply, v)
                        return v
                tt_move = e[3]
        pvs[ply] = EMPTY
        opp = cur ^ mask
        nb += 1
        ply1 = ply + 1
        depth -= 1
        alpha0 = alpha
        best = -_INF
        best_move = None
        if depth == 1:
            # The children are depth-1 nodes: they need no winning cells. Centre first.
            if tt_move >= 0:
                order = MOVES_FIRST[tt_move][(possible + BOARD) & SENT]
            else:
                order = MOVES[(possible + BOARD) & SENT]
            for col, cm, sh, pri in order:
                bit = possible & cm
                if kind == _THREATS:
                    v = -node1(opp, mask | bit, -beta, -alpha, ply1, h2 | LAYOUT_HI[bit])
                elif kind == _CELLS:
                    v = -node1(opp, mask | bit, -beta, -alpha, ply1, -(h1 + VAL[bit]))
                else:
                    v = -node1(opp, mask | bit, -beta, -alpha, ply1, 0)
                if v > best:
                    best = v
                    best_move = col
                    if v > alpha:
                        alpha = v
                        pvs[ply] = [col] + pvs[ply1]
                        if v >= beta:
                            cutoffs += 1
                            if rec is not None:
                                rec.cut_after(ply, [x[0] for x in order], col)
                            break
                        if rec is not None:
                            rec.update(ply, alpha, beta)
        else:
            empty = BOARD ^ mask
            if not possible & (possible - 1):
                # a single move: its winning cells on the ordinary board
                r = WINS(cur | possible)
                bit = possible
                best_move = (bit.bit_length() - 1) // H1
                if kind == _THREATS:
                    best = -node(opp, mask | bit, nb, depth, -beta, -alpha, ply1, r & empty,
                                 h2 | LAYOUT_HI[bit], h1 | LAYOUT[bit])
                elif kind == _CELLS:
                    best = -node(opp, mask | bit, nb, depth, -beta, -alpha, ply1, r & empty,
                                 -(h1 + VAL[bit]), 0)
                else:
                    best = -node(opp, mask | bit, nb, depth, -beta, -alpha, ply1, r & empty,
                                 0, 0)
                if best > alpha:
                    pvs[ply] = [best_move] + pvs[ply1]
                    if best >= beta:
                        cutoffs += 1
                        if rec is not None:
                            rec.cut(ply, ())
            else:
                # Several moves: the winning cells after each, all at once on the wide board.
                r = WINS(cur * REP | (possible * REP & DIAG))
                # the table's move first, then the most winning cells, then centre first
                keys = []
                for col, cm, sh, pri in MOVES[(possible + BOARD) & SENT]:
                    if col == tt_move:
                        keys.append(4096 | pri)
                    else:
                        keys.append((((r >> sh) & empty).bit_count() << 4) | pri)
                keys.sort(reverse=True)
                for k in keys:
                    col, cm, sh = BYPRI[k & 15]
                    bit = possible & cm
                    if kind == _THREATS:
                        v = -node(opp, mask | bit, nb, depth, -beta, -alpha, ply1,
                                  (r >> sh) & empty, h2 | LAYOUT_HI[bit], h1 | LAYOUT[bit])
                    elif kind == _CELLS:
                        v = -node(opp, mask | bit, nb, depth, -beta, -alpha, ply1,
                                  (r >> sh) & empty, -(h1 + VAL[bit]), 0)
                    else:
                        v = -node(opp, mask | bit, nb, depth, -beta, -alpha, ply1,
                                  (r >> sh) & empty, 0, 0)
                    if v > best:
                        best = v
                        best_move = col
                        if v > alpha:
                            alpha = v
                            pvs[ply] = [col] + pvs[ply1]
                            if v >= beta:
                                cutoffs += 1
                                if rec is not None:
                                    rec.cut_after(ply, [BYPRI[x & 15][0] for x in keys], col)
                                break
                            if rec is not None:
                                rec.update(ply, alpha, beta)
        if use_tt:
            bound = UPPER if best <= alpha0 else LOWER if best >= beta else EXACT
            if best >= WT:
                tdata[key] = (depth + 1, bound, best + ply, best_move)
            elif best <= -WT:
                tdata[key] = (depth + 1, bound, best - ply, best_move)
            else:
                tdata[key] = (depth + 1, bound, best, best_move)
        if rec is not None:
            rec.exit(ply, best)
        return best

    # -- the root ------------------------------------------------------------------------------
    def run(cur, mask, nb, depth, table, max_nodes, dl, root_values, heuristic, tree):
        nonlocal nodes, leaves, cutoffs, probes, hits, limit, checkpoint, deadline
        nonlocal tdata, tget, max_entries, use_table, table_low, heur, rec
        nodes = leaves = cutoffs = probes = hits = 0
        limit = _INF if max_nodes is None else max_nodes
        checkpoint = _CHECK_EVERY if limit > _CHECK_EVERY else limit
        deadline = dl
        if table is None:
            tdata = tget = max_entries = None
            use_table = False
        else:
            tdata = getattr(table, "data", table)
            tget = tdata.get
            max_entries = getattr(table, "max_entries", None)
            use_table = True
        # Near the leaves a table look-up costs about what it saves; it pays in the larger
        # trees (measured on the benchmark positions), so small searches skip it there.
        table_low = use_table and depth >= _TABLE_LOW_DEPTH
        killers[:] = [CENTRE_COL] * n_ply
        heur = heuristic
        rec = None if tree is None else _Recorder(tree, g, nb & 1)
        busy[0] = True
        try:
            answer = root(cur, mask, nb, depth, root_values)
            if nodes > limit:           # (the root's own leaves are not checked one by one)
                raise Aborted("node budget")
            return answer
        except Aborted as err:
            err.stats = stats()
            raise
        finally:
            busy[0] = False
            tdata = tget = heur = rec = None    # do not keep the caller's objects alive

    def root(cur, mask, nb, depth, root_values):
        nonlocal nodes
        nodes = 1
        if rec is not None:
            rec.enter(0, mask, -_INF, _INF)
        possible = (mask + BOTTOM) & BOARD
        order = MOVES[(possible + BOARD) & SENT]
        wins = winning_cells(cur, mask, g) & possible
        if wins or depth == 1:
            return root_scored(cur, mask, nb, order, possible, wins, root_values)
        opp_wins = winning_cells(cur ^ mask, mask, g)
        safe = non_losing(possible, opp_wins)
        if not safe or nb >= DRAWN:
            return root_settled(mask, order, possible, safe, opp_wins, root_values)
        best_move, best, pv = root_search(cur, mask, nb, depth, safe, root_values)
        for col, cm, _, _ in order:
            if not safe & cm:
                root_values[col] = LOSS2[0]     # the opponent wins next move
        if use_table:
            tdata[~(cur + mask)] = (depth, EXACT, best, best_move)   # (ply 0: as is)
        if rec is not None:
            rec.exit(0, best)
        return best_move, best, pv, stats()

    def root_scored(cur, mask, nb, order, possible, wins, root_values):
        """The root when its children need no search: a win at once (the best there is), or
        depth 1 (every child at the depth limit, or a draw when the board is full)."""
        nonlocal nodes, leaves
        if wins:
            col = next(c for c, cm, _, _ in order if wins & cm)
            scored = [(col, WIN1, "terminal")]
        else:
            full = nb + 1 == CELLS
            scored = [(col, 0 if full else child_value(heur, cur, mask, possible & cm),
                       "terminal" if full else "horizon") for col, cm, _, _ in order]
        best, best_move = -_INF, None
        for col, v, kind_ in scored:
            nodes += 1
            leaves += 1
            root_values[col] = v
            if rec is not None:
                rec.child(0, col, kind_, v, -_INF, _INF)
            if v > best:
                best, best_move = v, col
        if rec is not None:
            rec.exit(0, best)
        return best_move, best, [best_move], stats()

    def root_settled(mask, order, possible, safe, opp_wins, root_values):
        """The root when a rule settles it: every move lets the opponent win next (then the
        line shows a block and the win), or one safe move fills the board (a draw)."""
        nonlocal leaves
        leaves += 1
        if safe:
            col = next(c for c, cm, _, _ in order if safe & cm)
            root_values[col] = value = 0
            pv = [col]
        else:
            for c, _, _, _ in order:
                root_values[c] = LOSS2[0]       # whatever we play, the opponent wins next
            forced = possible & opp_wins
            col = next((c for c, cm, _, _ in order if forced & cm), order[0][0])
            bit = possible & g.colmask[col]
            after = ((mask | bit) + BOTTOM) & BOARD & opp_wins
            reply = next(c for c, cm, _, _ in MOVES[((mask | bit) + BOTTOM + BOARD) & SENT]
                         if after & cm)
            value, pv = LOSS2[0], [col, reply]
        if rec is not None:
            rec.leaf(0, "settled", value)
        return col, value, pv, stats()

    def root_search(cur, mask, nb, depth, safe, root_values):
        """Search the safe moves: the table's move first, then (depth >= 3) the most winning
        cells, centre first. Returns (best move, its value, the principal variation)."""
        nonlocal probes
        tt_move = -1
        if use_table:
            probes += 1
            e = tget(~(cur + mask))
            if e is not None:
                tt_move = e[3]
        opp = cur ^ mask
        empty = BOARD ^ mask
        if kind == _THREATS:
            lc, lo = t.to_layout(cur), t.to_layout(opp)
            h1, h2 = lc | (lo << K), lo | (lc << K)
        elif kind == _CELLS:
            h1, h2 = t.cells_sum(cur) - t.cells_sum(opp), 0
        else:
            h1 = h2 = 0
        # (column, move bit, the mover's winning cells after it), in search order
        if depth == 2:
            seq = MOVES[(safe + BOARD) & SENT] if tt_move < 0 else \
                MOVES_FIRST[tt_move][(safe + BOARD) & SENT]
            moves = [(col, safe & cm, 0) for col, cm, _, _ in seq]
        else:
            r = WINS(cur * REP | (safe * REP & DIAG))
            keyed = []
            for col, cm, sh, pri in MOVES[(safe + BOARD) & SENT]:
                w = (r >> sh) & empty
                keyed.append((col == tt_move, w.bit_count(), pri, col, safe & cm, w))
            keyed.sort(reverse=True)
            moves = [(col, bit, w) for _, _, _, col, bit, w in keyed]
        alpha = best = -_INF
        best_move, pv = None, []
        for col, bit, w in moves:
            if kind == _THREATS:
                c1, c2 = h2 | LAYOUT_HI[bit], h1 | LAYOUT[bit]
            elif kind == _CELLS:
                c1, c2 = -(h1 + VAL[bit]), 0
            else:
                c1 = c2 = 0
            if depth == 2:
                v = -node1(opp, mask | bit, -_INF, -alpha, 1, c1)
            else:
                v = -node(opp, mask | bit, nb + 1, depth - 1, -_INF, -alpha, 1, w, c1, c2)
            root_values[col] = v
            if v > best:
                best, best_move = v, col
                pv = [col] + pvs[1]
                if v > alpha:
                    alpha = v
                    if rec is not None:
                        rec.update(0, alpha, _INF)
        return best_move, best, pv

    return run, busy
