"""Exact Connect-4 solver, after Pascal Pons' tutorial "Solving Connect 4: how to build a
perfect AI" (blog.gamesolver.org), in plain Python (standard library only).

It tells the exact value of a position with perfect play from both sides, as a *score* in
Pons' convention, always from the side to move:

- 0: a draw;
- positive: the side to move wins; ``(W*H + 1 - moves_played) // 2`` if it wins with its
  next stone, one less for each further stone it needs. On 7x6 that is "22 minus the
  number of stones the winner will have played", so winning with one's last stone scores 1;
- negative: the side to move loses, by the same count for the opponent.

The search is Pons' final solver (without his opening book), step for step of his tutorial,
with the additions listed below:

- negamax with alpha-beta pruning over a bitboard: cell (col, row) is bit ``col*(H+1) + row``,
  row 0 at the bottom, one spare bit on top of each column; a position is ``mask`` (every
  stone) and ``current`` (the stones of the side to move);
- columns explored centre first;
- a transposition table of bounds: upper bounds after a fail-low, lower bounds after a beta
  cut-off, read back to narrow the window (the bound found, fail-soft: below);
- null-window searches, narrowing the score interval at the root (his "iterative
  deepening" step), probing near 0 first as he does;
- "anticipate direct losing moves": if the opponent has two immediate wins the node is
  lost; if one, the only move is to block it; never play under an opponent's winning cell;
- the window clamped to the scores still reachable (``beta <= max``, ``alpha >= min``);
- move ordering by the number of winning cells each move creates, centre first among equals
  (a move under the mover's own winning cell last: below).

What differs from his, each measured in nodes (``bench/nodes_by_ply.py``: positions of whole
games at plies 0-20, and his test sets), each kept because it lowers the nodes more than it
costs a node:

- up to ``MIRROR_UNTIL`` stones, a position and its mirror image share their table entry (his
  solver with a book sees few of them; from the empty board they halve the nodes);
- **fail-soft**: a node whose moves all fail low returns (and stores as its upper bound) the
  best score its children proved, not alpha, which is often lower; a cut-off returns the
  child's score. The root's null-window probes take the returned score as their new bound
  and so need fewer probes (28-50% fewer nodes at 0-11 stones with the opening book);
- **a win in two** (after BitBully's ``doubleThreat``, Markus Thill's solver, made exact):
  if after some move the opponent cannot stop the mover's next stone winning (the mover has
  two winning cells it can play; or one, with another of the mover's just above it: it must
  take the lower, the mover the upper; or none, but every cell it can play lies under one
  of the mover's), the node scores the best it can (a win with its next-but-one stone)
  without a search. Since that test misses no such move, a node where no move passes it
  scores one less at best: its window's top comes down to that, which ends at once a node
  asked only whether it reaches the best (near the end of the board, where the null
  windows meet the scores still possible): 14-20% fewer nodes at 12-20 stones;
- **a move just under one of the mover's own winning cells is tried last** (BitBully's move
  order: the opponent's reply there takes that cell away), 12-18% fewer nodes at 12-20 stones;
- **the enhanced transposition cut-off** (BitBully's too): before searching, a move whose
  position the table already bounds low enough for a cut-off ends the node; tried from
  ``MIRROR_UNTIL`` stones on (a child's key then needs no mirror image, which cost more than
  it saved) while more than ``ETC_EMPTY`` cells are empty (near the end a subtree costs less
  than the look-ups): 20-28% fewer nodes at 12-20 stones.

Its node counts: 44.5, 298 and 25.8k on average over the 1000 positions of his test sets
L3_R1, L2_R1 and L2_R2, where his C++ reports 51, 450 and 40k (his algorithm here: 51, 449
and 39.8k).

What differs is how it is written, for CPython: the hot function ``negamax`` is a closure
whose constants are default arguments (fast local loads), and the winning cells of *every*
candidate move are computed at once, on one big integer holding one copy of the board per
column, spaced far enough apart that shifts never reach a neighbour copy (the board, the
wide board, the winning cells and the losing-move rule are ``ai.games.connect4.bitboard``'s, shared with
the rules and the fast depth-limited search). The result serves
twice: popcounts order the moves, and the chunk of the move played is handed to the child
as "the opponent's winning cells", which the child needs to find its forced and losing
moves. A node therefore costs one pass of about 45 integer operations, and a few more per
move (the popcount, the win in two, the mover's own cell above the move, and from 16 stones
the table's entry of the position after it). The table is a ``dict`` keyed by ``current + mask`` (unique per position), bounded
in size: when it grows past ``max_table_entries`` it is emptied, which only costs speed.
(A fixed list indexed by ``key % prime``, as in the C++ original, measured no faster in
CPython and needs an O(size) wipe per reset.)

Budgets (``max_nodes``, ``time_limit``) stop the search and return ``complete=False`` with the
score interval proven so far, so a web request given a budget never hangs. Without a budget an early
position on 7x6 can take hours: this explores about 400,000 nodes a second on CPython 3.11,
and Pons' hardest benchmark positions need tens of millions.
"""
from __future__ import annotations

import time
from dataclasses import dataclass
from functools import lru_cache

from ..bitboard import (MAX_SIZE, MIN_SIZE, Geometry, alignment, check_size, geometry,
                       non_losing, winning_cells)

__all__ = ["SolveResult", "Solver", "solve", "solve_bitboard", "parse_moves", "MIN_SIZE",
           "MAX_SIZE"]

#: How many nodes between two looks at the clock (and at the table's size).
CHECK_EVERY = 1024

#: Up to this many stones, a position and its mirror image share their table entry (the
#: smaller key of the two): early in the game the search meets both (after 3-4 and 5-4, say),
#: and the second is then free (the empty board with the book: 86k nodes instead of 163k).
#: Later they are rare, and the few operations a node would cost are not repaid.
MIRROR_UNTIL = 16

#: The enhanced transposition cut-off is tried while more cells than this are empty (and past
#: ``MIRROR_UNTIL`` stones, where a child's key needs no mirror image): near the end a node's
#: subtree costs less than the look-ups, and before, the mirror keys cost more than they save.
ETC_EMPTY = 10

#: Default bound on the transposition table (entries; about 100 bytes each).
DEFAULT_TABLE_ENTRIES = 1 << 20


def _check_budgets(max_nodes, time_limit) -> None:
    """The solvers' budgets (this one's and ``solver_fast``'s): ValueError unless None or
    a non-negative count of nodes / seconds."""
    if max_nodes is not None and (isinstance(max_nodes, bool) or not isinstance(max_nodes, int)
                                  or max_nodes < 0):
        raise ValueError(f"max_nodes must be a non-negative integer or None, not {max_nodes!r}")
    if time_limit is not None and not time_limit >= 0:
        raise ValueError("time_limit must be a non-negative number of seconds or None, "
                         f"not {time_limit!r}")


@dataclass(frozen=True)
class SolveResult:
    """What :func:`solve` found.

    Attributes:
        score: the exact score from the side to move (see the module docstring) when
            ``complete``; with ``weak=True`` only its sign: 1 win, 0 draw, -1 loss. When a budget
            stopped the search (``complete`` False) it is ``lower``, the best score the side to
            move is *proven* to secure so far (possibly just "loses at once").
        best_move: 0-indexed column of a move that achieves ``score`` (when incomplete: one that
            secures ``lower`` if the search proved one, else the first move in the solver's
            order, a centre-most move making the most threats). Never a move that loses at
            once when another move does not.
        nodes: positions explored (calls of the negamax, the root included, as Pons counts;
            0 when the side to move wins at once, found without a search).
        elapsed: seconds spent, wall clock.
        complete: False if ``max_nodes`` or ``time_limit`` stopped the search first.
        lower, upper: the proven interval ``lower <= true score <= upper`` (both equal to
            ``score`` when complete; in weak mode, within -1..1).
    """

    score: int
    best_move: int | None
    nodes: int
    elapsed: float
    complete: bool
    lower: int | None = None
    upper: int | None = None


class _OutOfBudget(Exception):
    """Raised inside the search when a node or time budget runs out."""


@lru_cache(maxsize=None)
def _bounds(cells: int) -> tuple[tuple, tuple, tuple]:
    """Scores a node cannot go beyond, by number of stones played (Pons' min and max):
    ``loss`` the opponent wins next move, ``lo`` at best one move later, ``hi`` the side to
    move cannot win at once."""
    A = cells
    return (tuple(-((A - n) // 2) for n in range(A + 1)),
            tuple(-((A - 2 - n) // 2) for n in range(A + 1)),
            tuple((A - 1 - n) // 2 for n in range(A + 1)))


def parse_moves(moves: str, width: int = 7, height: int = 6) -> tuple[int, int, int]:
    """The position after ``moves`` as ``(current, mask, moves_played)``.

    Args:
        moves: 1-indexed column digits played from the empty board, first player first,
            e.g. ``"4453"``. Surrounding whitespace is ignored.
        width, height: board size, 4 to 9 each.

    Returns:
        ``current`` (stones of the side to move), ``mask`` (all stones), and the number of moves.

    Raises:
        ValueError: on a board size out of 4..9, a character that is not a column digit, a
            column out of range, a move into a full column, or a move after a four in a row.
            (A game that *ends* with the last move is accepted here; :func:`solve` rejects it.)
    """
    check_size(width, height)
    if not isinstance(moves, str):
        raise ValueError(f"moves must be a string of column digits, not {type(moves).__name__}")
    g = geometry(width, height)
    text = moves.strip()
    current = mask = 0
    for i, ch in enumerate(text, 1):
        col = ord(ch) - 49
        if not 0 <= col < width:
            if "0" <= ch <= "9":
                raise ValueError(f"move {i} of {moves!r}: column {ch} is out of range 1..{width}")
            raise ValueError(f"move {i} of {moves!r}: {ch!r} is not a column digit")
        move = (mask + g.bottom) & g.colmask[col]
        if not move:
            raise ValueError(f"move {i} of {moves!r}: column {ch} is full")
        current ^= mask
        mask |= move
    n = len(text)
    # Fours never disappear, so one look at the end tells whether anyone made four; only
    # then replay to find the move that did (cheaper than testing after every move).
    if n and (alignment(current, g.h1) or alignment(current ^ mask, g.h1)):
        cur = msk = 0
        for i, ch in enumerate(text, 1):
            cur ^= msk
            msk |= (msk + g.bottom) & g.colmask[ord(ch) - 49]
            if i < n and alignment(cur ^ msk, g.h1):
                raise ValueError(f"move {i + 1} ({text[i]!r}) of {moves!r} is played after "
                                 f"the game was won (four in a row at move {i})")
    return current, mask, n


class Solver:
    """An exact solver for one board size, keeping its transposition table between calls.

    The table holds proven bounds on position values, valid whatever position is solved
    next, so solving positions from one game in turn gets faster; :meth:`reset` empties it
    (the benchmarks reset it before each position, as Pons' reference times do).
    A Solver is not meant to be shared by threads that search at the same time.
    """

    def __init__(self, width: int = 7, height: int = 6, *,
                 max_table_entries: int = DEFAULT_TABLE_ENTRIES) -> None:
        self.width, self.height = width, height
        self.max_table_entries = max_table_entries
        self._g = geometry(width, height)       # raises ValueError outside 4..9
        self._table: dict[int, int] = {}

    def reset(self) -> None:
        """Forget every stored bound."""
        self._table.clear()

    @property
    def table_size(self) -> int:
        return len(self._table)

    def solve(self, moves: str = "", *, weak: bool = False, max_nodes: int | None = None,
              time_limit: float | None = None) -> SolveResult:
        """Solve the position after ``moves``; see :func:`solve`."""
        current, mask, n = parse_moves(moves, self.width, self.height)
        return self.solve_bitboard(current, mask, n, weak=weak, max_nodes=max_nodes,
                                   time_limit=time_limit)

    def solve_bitboard(self, current: int, mask: int, moves_played: int, *, weak: bool = False,
                       max_nodes: int | None = None,
                       time_limit: float | None = None) -> SolveResult:
        """Solve a position given as bitboards; see :func:`solve_bitboard`."""
        start = time.perf_counter()
        g = self._g
        self._validate(current, mask, moves_played)
        _check_budgets(max_nodes, time_limit)
        deadline = None if time_limit is None else start + time_limit

        AREA = g.cells
        BOTTOM, BOARD = g.bottom, g.board
        CM, ORDER, PRI = g.colmask, g.order, g.priority
        nb = moves_played
        possible = (mask + BOTTOM) & BOARD

        # A win at once: the search below assumes there is none (as Pons' negamax does).
        my_wins = winning_cells(current, mask, g) & possible
        if my_wins:
            col = next(c for c in ORDER if my_wins & CM[c])
            s = 1 if weak else (AREA + 1 - nb) // 2
            return SolveResult(s, col, 0, time.perf_counter() - start, True, s, s)

        search = _Search(g, self._table, self.max_table_entries, max_nodes, deadline)
        opp_wins = winning_cells(current ^ mask, mask, g)
        forced = possible & opp_wins
        safe = non_losing(possible, opp_wins)

        # The root's moves, in the order negamax would try them, each with the winning cells
        # it gives the mover (the child's "opponent wins").
        root_moves = []
        for c in ORDER:
            m = safe & CM[c]
            if m:
                w = winning_cells(current | m, mask | m, g)
                root_moves.append((w.bit_count(), PRI[c], c, m, w))
        root_moves.sort(reverse=True)
        if root_moves:
            default_move = root_moves[0][2]
        else:  # lost whatever we do: block one of the threats at least
            default_move = next((c for c in ORDER if forced & CM[c]), None)
            if default_move is None:
                default_move = next(c for c in ORDER if possible & CM[c])

        # Pons' solve(): null-window searches narrowing [lo, hi], probing near 0 first.
        lo, hi = -((AREA - nb) // 2), (AREA + 1 - nb) // 2
        if weak:
            lo, hi = -1, 1
        best = None
        complete = True
        try:
            while lo < hi:
                med = lo + (hi - lo) // 2
                if med <= 0 and -((-lo) // 2) < med:   # C++'s lo/2, rounded towards zero
                    med = -((-lo) // 2)
                elif med >= 0 and hi // 2 > med:
                    med = hi // 2
                r, move = search.root(current, mask, nb, safe, root_moves, med, med + 1)
                if r <= med:
                    hi = r
                else:
                    lo = r
                    best = move
        except _OutOfBudget:
            complete = False
        if best is None:
            best = default_move
        if weak:
            lo, hi = max(-1, min(1, lo)), max(-1, min(1, hi))
        if complete:
            hi = lo
        return SolveResult(lo, best, search.nodes, time.perf_counter() - start, complete, lo, hi)

    def _validate(self, current, mask, moves_played) -> None:
        g = self._g
        for label, v in (("current", current), ("mask", mask), ("moves_played", moves_played)):
            if isinstance(v, bool) or not isinstance(v, int) or v < 0:
                raise ValueError(f"{label} must be a non-negative int, not {v!r}")
        if mask & ~g.board:
            raise ValueError("mask has stones outside the board")
        if current & ~mask:
            raise ValueError("current has stones where mask has none")
        if (mask + g.bottom) & mask:
            raise ValueError("mask has a stone floating above an empty cell")
        if mask.bit_count() != moves_played:
            raise ValueError(f"mask holds {mask.bit_count()} stones, "
                             f"not moves_played={moves_played}")
        if current.bit_count() != moves_played // 2:
            raise ValueError(f"the side to move should have {moves_played // 2} stones, "
                             f"current holds {current.bit_count()}")
        if alignment(current ^ mask, g.h1) or alignment(current, g.h1):
            raise ValueError("game already over: a player has four in a row")
        if moves_played == g.cells:
            raise ValueError("game already over: the board is full (a draw)")


class _Search:
    """One solve's search: the node counter, the budget and the negamax closure."""

    def __init__(self, g: Geometry, table: dict, max_entries: int, max_nodes, deadline) -> None:
        self.nodes = 0
        self._table = table
        self._max_nodes = max_nodes
        self._deadline = deadline
        self._max_entries = max_entries
        self.negamax = self._build(g)

    def _build(self, g: Geometry):
        """The negamax and root closures of one solve. Long on purpose: the speed-tuned inner
        loop (with the fast search's ``_build``, the only function of ``ai/`` over ~80
        lines); its constants are default arguments and its counter a cell of the closure,
        which a split into smaller functions would trade for a call per node."""
        BOTTOM, BOARD, SENTINELS = g.bottom, g.board, g.sentinels
        REP, DIAG, WINS = g.rep, g.diag, g.wins
        (LOSS, LO, HI), DRAWN = _bounds(g.cells), g.cells - 2   # HI: the root, a win in two
        PLAYABLE, BY_PRIORITY = g.playable, g.by_priority
        MIRROR_SHIFTS = tuple((c * g.h1, (g.width - 1 - c) * g.h1) for c in range(g.width))
        COLUMN_BITS = (1 << g.h1) - 1
        table = self._table
        table_get = table.get
        # The node counter and the next node count at which to look at the budget live in
        # this closure: a plain integer comparison per node.
        nodes = 0
        checkpoint = CHECK_EVERY if self._max_nodes is None else min(CHECK_EVERY, self._max_nodes)
        search = self

        def check():
            nonlocal nodes, checkpoint
            if search._max_nodes is not None and nodes > search._max_nodes:
                nodes -= 1                   # this node was not explored
                search.nodes = nodes
                raise _OutOfBudget
            search.nodes = nodes
            if search._deadline is not None and time.perf_counter() > search._deadline:
                raise _OutOfBudget
            if len(table) > search._max_entries:
                table.clear()
            checkpoint = nodes + CHECK_EVERY
            if search._max_nodes is not None and checkpoint > search._max_nodes:
                checkpoint = search._max_nodes

        def negamax(cur, mask, nb, alpha, beta, opp_wins,
                    BOTTOM=BOTTOM, BOARD=BOARD, SENTINELS=SENTINELS, REP=REP, DIAG=DIAG,
                    WINS=WINS, NON_LOSING=non_losing, LOSS=LOSS, LO=LO, DRAWN=DRAWN,
                    PLAYABLE=PLAYABLE, MIRROR_SHIFTS=MIRROR_SHIFTS, COLUMN_BITS=COLUMN_BITS,
                    BY_PRIORITY=BY_PRIORITY, HI=HI, COLUMNS=g.colmask,
                    ETC_UNTIL=g.cells - ETC_EMPTY, table=table, table_get=table_get):
            """Pons' negamax, fail-soft: the score of (cur, mask) within [alpha, beta].

            ``nb`` stones are on the board, the side to move cannot win at once, and
            ``opp_wins`` are the opponent's winning cells. Returns the exact score if it
            lies strictly inside the window, else a bound on the right side of it, as tight
            as the search proved (at most alpha after a fail-low, at least beta after a
            cut-off).
            """
            nonlocal nodes
            nodes += 1
            if nodes > checkpoint:
                check()
            possible = NON_LOSING((mask + BOTTOM) & BOARD, opp_wins)
            if not possible:
                return LOSS[nb]              # every move lets the opponent win next move
            if nb >= DRAWN:
                return 0                     # our stone and theirs fill the board
            v = LO[nb]
            if alpha < v:
                alpha = v
                if alpha >= beta:
                    return alpha
            # Pons also lowers beta to the best score still possible, HI[nb]; that is a no-op
            # here: the caller's alpha is at least its LO[nb - 1] = -HI[nb], so beta <= HI[nb].
            key = cur + mask
            if nb <= MIRROR_UNTIL:
                # early on, a position and its mirror image share their entry (same score);
                # the key's columns are fields of h+1 bits, swapped end for end
                mk = 0
                for src, dst in MIRROR_SHIFTS:
                    mk |= ((key >> src) & COLUMN_BITS) << dst
                if mk < key:
                    key = mk
            v = table_get(key)
            if v is not None:                # 2*bound, +1 for a lower bound
                if v & 1:
                    v >>= 1
                    if alpha < v:
                        alpha = v
                        if alpha >= beta:
                            return alpha
                else:
                    v >>= 1
                    if beta > v:
                        beta = v
                        if alpha >= beta:
                            return beta
            opp = cur ^ mask
            if MIRROR_UNTIL <= nb < ETC_UNTIL:
                # Enhanced transposition cut-off (BitBully's): a move whose position the
                # table already bounds low enough (its upper bound u, -u >= beta) cuts the
                # node before any search; the first such move, columns left to right.
                for cm in COLUMNS:
                    m = possible & cm
                    if m:
                        v = table_get(opp + (mask | m))
                        if v is not None and not v & 1 and v >> 1 <= -beta:
                            return -(v >> 1)
            empty = BOARD ^ mask
            nb += 1
            if not possible & (possible - 1):
                # A single move: its winning cells on the ordinary board.
                w = WINS(cur | possible) & empty
                if w:
                    nxt = ((mask | possible) + BOTTOM) & BOARD
                    t = w & nxt
                    if t & (t - 1) or w & (t << 1) or not t and not (nxt << 1) & ~w:
                        return HI[nb - 1]    # win in two (below)
                if beta >= HI[nb - 1]:       # no win in two: at best a move later (below)
                    beta = HI[nb - 1] - 1
                    if alpha >= beta:
                        return beta
                score = -negamax(opp, mask | possible, nb, -beta, -alpha, w)
                if score >= beta:
                    table[key] = score * 2 + 1
                    return score             # beta cut-off
                table[key] = score * 2       # fail-soft: the child's bound, not alpha
                return score
            # Several moves: the winning cells after each of them, all at once on the wide
            # board (copy c = our stones plus the move in column c).
            r = WINS(cur * REP | (possible * REP & DIAG))
            # Most new winning cells first, centre first among equals (Pons' MoveSorter);
            # last, a move just under one of our winning cells (the opponent's reply there
            # would take it away: BitBully's order), its own cells ordering it among such.
            own = WINS(cur) & empty
            keys = []
            above = mask + BOTTOM            # + m: the cells playable after m
            for _, cm, sh, pri in PLAYABLE[(possible + BOARD) & SENTINELS]:
                w = (r >> sh) & empty
                m = possible & cm
                # Win in two: after m (which does not lose, so the opponent cannot win
                # first) the opponent cannot stop our next stone winning. Exactly when our
                # winning cells it can play are two (it blocks one, we take the other), or
                # one with another of ours just above it (it must take the first, we take
                # the second), or none but every cell it can play lies under one of ours.
                if w:
                    nxt = (above + m) & BOARD
                    t = w & nxt
                    if t & (t - 1) or w & (t << 1) or not t and not (nxt << 1) & ~w:
                        return HI[nb - 1]
                k = (w.bit_count() << 4) | pri
                if own & (m << 1):
                    k -= 256                 # 16 winning cells fewer: after every other
                keys.append(k)
            # No move wins in two, and that test is exact: at best we win a move later
            # (HI[nb - 1] - 1), which ends a node asked whether it reaches HI[nb - 1].
            if beta >= HI[nb - 1]:
                beta = HI[nb - 1] - 1
                if alpha >= beta:
                    return beta
            keys.sort(reverse=True)
            best = -64
            for k in keys:
                _, cm, sh = BY_PRIORITY[k & 15]
                score = -negamax(opp, mask | (possible & cm), nb, -beta, -alpha, (r >> sh) & empty)
                if score >= beta:
                    table[key] = score * 2 + 1
                    return score             # beta cut-off
                if score > best:
                    best = score
                    if score > alpha:
                        alpha = score
            # fail-soft: the best child's score, an upper bound often below alpha
            table[key] = best * 2
            return best

        def root(cur, mask, nb, safe, moves, alpha, beta):
            """negamax at the root, also telling which move reached the score (or None).
            ``safe``: the moves that do not lose at once."""
            nonlocal nodes
            nodes += 1
            try:
                if nodes > checkpoint:
                    check()
                if not safe:
                    return LOSS[nb], None
                if nb >= DRAWN:
                    return 0, None
                if alpha < LO[nb]:
                    alpha = LO[nb]
                    if alpha >= beta:
                        return alpha, None
                if beta > HI[nb]:
                    beta = HI[nb]
                    if alpha >= beta:
                        return beta, None
                opp = cur ^ mask
                best = None
                value = -64
                for _, _, col, m, w in moves:
                    score = -negamax(opp, mask | m, nb + 1, -beta, -alpha, w)
                    if score >= beta:
                        return score, col    # beta cut-off
                    if score > value:
                        value = score
                        if score > alpha:
                            alpha = score
                            best = col
                return value, best
            finally:
                search.nodes = nodes

        self.root = root
        return negamax


def solve_bitboard(current: int, mask: int, moves_played: int, width: int = 7, height: int = 6, *,
                   weak: bool = False, max_nodes: int | None = None,
                   time_limit: float | None = None) -> SolveResult:
    """Solve the position given by Pons' bitboards, with a fresh transposition table.

    Args:
        current: stones of the side to move (bit ``col*(height+1) + row``).
        mask: every stone on the board.
        moves_played: stones on the board (the first player is to move when it is even).
        width, height, weak, max_nodes, time_limit: as for :func:`solve`.

    Raises:
        ValueError: on a board size out of 4..9, bitboards that no game can reach (stones
            outside the board or floating, wrong stone counts), a game already over, or a
            negative budget.
    """
    return Solver(width, height).solve_bitboard(current, mask, moves_played, weak=weak,
                                                max_nodes=max_nodes, time_limit=time_limit)


def solve(moves: str = "", width: int = 7, height: int = 6, *, weak: bool = False,
          max_nodes: int | None = None, time_limit: float | None = None) -> SolveResult:
    """Solve the Connect-4 position reached by ``moves``, with a fresh transposition table.

    Args:
        moves: 1-indexed column digits played from the empty board, e.g. ``"4453"``.
        width, height: board size, 4 to 9 each (default 7x6).
        weak: only find who wins (score 1, 0 or -1), as Pons' weak solver: faster.
        max_nodes: stop after exploring this many nodes (None: no limit).
        time_limit: stop after about this many seconds (None: no limit). The clock is read
            every ``CHECK_EVERY`` nodes, a few milliseconds apart.

    Returns:
        A :class:`SolveResult`. If a budget ran out, ``complete`` is False and ``score`` is the
        proven lower bound (``lower``/``upper`` give the whole proven interval).

    Raises:
        ValueError: on a board size out of 4..9, a character that is not a column digit, a
            column out of range, a full column, a move after a four in a row, a game already
            over (four in a row or a full board: "game already over"), or a negative budget.
    """
    current, mask, n = parse_moves(moves, width, height)
    return Solver(width, height).solve_bitboard(current, mask, n, weak=weak, max_nodes=max_nodes,
                                                time_limit=time_limit)
