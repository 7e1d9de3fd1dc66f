"""The exact Connect-4 solver, the readable reference: Pascal Pons' tutorial "Solving
Connect 4: how to build a perfect AI" (http://blog.gamesolver.org) in plain Python, part by
part, in the tutorial's order (each section below names its part), standard library only.
The compiled twin (``solver_kernel``, driven by ``solver_fast``) is this algorithm node for
node, at C++ speed; the tests compare the two on Pons' positions and on random ones.

**The score** (part 2), always for the side to move: 0 a draw; positive when it wins,
``(W*H + 1 - stones) // 2`` if it wins with its next stone and one less for each further
stone it needs (on 7x6: 22 minus the winner's stones at the end); negative when it loses,
by the same count for the opponent.

**Beyond the tutorial**, each because it lowers the nodes more than it costs a node
(``bench/nodes_by_ply.py``; docs/engine.md gives the counts), and each done by the compiled
twin too:

- up to ``MIRROR_UNTIL`` stones a position and its mirror image share their table entry
  (part 6);
- *fail-soft*: a node returns the best score its children proved, not alpha, and the table
  keeps it; the probes of part 7 then need fewer rounds;
- *a win in two* (part 9, after BitBully's ``doubleThreat``, made exact): a move after which
  the opponent cannot stop the mover's next stone winning ends the node; where no move does,
  the window's top comes down by one;
- a move just under one of the mover's own winning cells is tried last (part 9);
- the *enhanced transposition cut-off* (BitBully's): a move whose position the table bounds
  low enough ends the node before any search (part 9).

No opening book here (part 10): the compiled search reads one (``opening_book``).

Budgets (``max_nodes``, ``time_limit``) stop a search with the interval proven so far
(``complete=False``): the command line's ``solve`` runs this solver, and so do the board
sizes the compiled one does not take. Written for reading, not speed: 0.7-0.9x the nodes a
second of the speed-tuned closure it replaced (~400,000; measured side by side), so a
position near the start of a 7x6 game takes hours here, a second compiled.
"""
from __future__ import annotations

import time
from dataclasses import dataclass

from ..bitboard import (MAX_SIZE, MIN_SIZE, Geometry, alignment, check_size, geometry,
                        non_losing, winning_cells)

__all__ = ["SolveResult", "Solver", "solve", "solve_bitboard", "parse_moves", "MIN_SIZE",
           "MAX_SIZE"]

#: How many nodes between two looks at the clock (and at the table's size).
CHECK_EVERY = 1024
#: Up to this many stones, a position and its mirror image share their table entry.
MIRROR_UNTIL = 16
#: The enhanced transposition cut-off is tried from ``MIRROR_UNTIL`` stones while more
#: cells than this are empty (near the end a subtree costs less than the look-ups).
ETC_EMPTY = 10
#: Default bound on the transposition table (entries; about 100 bytes each).
DEFAULT_TABLE_ENTRIES = 1 << 20


@dataclass(frozen=True)
class SolveResult:
    """What a solve found.

    Attributes:
        score: the exact score (see above) when ``complete``; with ``weak=True`` its sign
            only. When a budget stopped the search, ``lower``.
        best_move: 0-indexed column of a move that achieves ``score`` (when incomplete: one
            that secures ``lower`` if the search proved one, else the first in the order of
            part 9). Never a move that loses at once when another does not.
        nodes: positions explored (calls of the negamax, the root included, as Pons counts;
            0 when the side to move wins at once).
        elapsed: seconds, wall clock.
        complete: False if ``max_nodes`` or ``time_limit`` stopped the search first.
        lower, upper: the proven interval ``lower <= true score <= upper``.
    """

    score: int
    best_move: int | None
    nodes: int
    elapsed: float
    complete: bool
    lower: int | None = None
    upper: int | None = None


# == Part 2: minimax and negamax: the score ==================================================
# A position's score is the best of minus its children's scores; a win at once scores
# win_now, a full board 0. Negamax itself comes after the parts that shape it (below).

def win_now(cells: int, stones: int) -> int:
    """The score of the side to move that wins with its next stone, ``stones`` on the board."""
    return (cells + 1 - stones) // 2


def lost_now(cells: int, stones: int) -> int:
    """The score of the side to move whose opponent wins with its next stone."""
    return -((cells - stones) // 2)


# == Part 3: alpha-beta: a window, narrowed to the scores still possible =====================

def highest(cells: int, stones: int) -> int:
    """The best score still possible when the side to move cannot win at once."""
    return (cells - 1 - stones) // 2


def lowest(cells: int, stones: int) -> int:
    """The worst score still possible when the opponent cannot win at its next stone (part 8
    makes sure of that)."""
    return -((cells - 2 - stones) // 2)


# == Part 4: move exploration order: the centre first ========================================
# ``geometry(w, h).order``: 3 2 4 1 5 0 6 on seven columns (the centre columns take part in
# the most fours, so alpha-beta meets good moves early); ``.priority`` ranks them.


# == Part 5: the bitboard ====================================================================
# ``ai.games.connect4.bitboard``: cell (col, row) is bit ``col * (H + 1) + row``; a position
# is ``mask`` (every stone) and ``current`` (the side to move's); a move is the bit of the
# cell it fills, ``(mask + bottom) & column``; the key ``current + mask`` is unique.

def parse_moves(moves: str, width: int = 7, height: int = 6) -> tuple[int, int, int]:
    """The position after ``moves`` as ``(current, mask, stones)``.

    Args:
        moves: 1-indexed column digits played from the empty board, e.g. ``"4453"``
            (surrounding whitespace ignored).
        width, height: board size, 4 to 9 each.

    Raises:
        ValueError: on a board size out of 4..9, a character that is not a column digit, a
            column out of range, a move into a full column, or a move after a four in a row.
            (A game that *ends* with the last move is accepted here; ``solve`` refuses it.)
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
        current ^= mask                 # Pons' play: the other side is to move
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


def check_position(g: Geometry, current, mask, stones) -> None:
    """ValueError unless ``(current, mask, stones)`` is a position some game reaches, not over."""
    for label, v in (("current", current), ("mask", mask), ("moves_played", stones)):
        if isinstance(v, bool) or not isinstance(v, int) or v < 0:
            raise ValueError(f"{label} must be a non-negative int, not {v!r}")
    if mask & ~g.board:
        raise ValueError("mask has stones outside the board")
    if current & ~mask:
        raise ValueError("current has stones where mask has none")
    if (mask + g.bottom) & mask:
        raise ValueError("mask has a stone floating above an empty cell")
    if mask.bit_count() != stones:
        raise ValueError(f"mask holds {mask.bit_count()} stones, not moves_played={stones}")
    if current.bit_count() != stones // 2:
        raise ValueError(f"the side to move should have {stones // 2} stones, "
                         f"current holds {current.bit_count()}")
    if alignment(current ^ mask, g.h1) or alignment(current, g.h1):
        raise ValueError("game already over: a player has four in a row")
    if stones == g.cells:
        raise ValueError("game already over: the board is full (a draw)")


# == Part 6: the transposition table =========================================================
# A dict from a position's key to a bound on its score, ``2 * bound + 1`` for a lower bound
# (after a cut-off), ``2 * bound`` for an upper one (after every move failed low).

def table_key(current: int, mask: int, stones: int, g: Geometry) -> int:
    """Pons' key, ``current + mask``; up to ``MIRROR_UNTIL`` stones, the smaller of it and its
    mirror image's (a position and its mirror have the same score: early in the game the
    search meets both, and the second is then free)."""
    key = current + mask
    if stones <= MIRROR_UNTIL:
        column = (1 << g.h1) - 1                  # the key's columns, end for end
        mirrored = 0
        for c in range(g.width):
            mirrored |= ((key >> (c * g.h1)) & column) << ((g.width - 1 - c) * g.h1)
        key = min(key, mirrored)
    return key


# == Part 8: anticipate direct losing moves ==================================================
# ``bitboard.winning_cells``: the empty cells where a player's stones would make four.
# ``bitboard.non_losing``: the moves that do not let the opponent win at once (none if it
# has two playable winning cells; only the block if it has one; never under one of them).


# == Part 9: better move ordering (and the win in two) =======================================

def wins_in_two(ours: int, playable: int) -> bool:
    """After our move, whether the opponent cannot stop our next stone winning: ``ours``, our
    winning cells; ``playable``, the cells it can play. Exactly when our winning cells it
    can play are two (it blocks one, we take the other), or one with another of ours just
    above (it must take the first, we the second), or none, but each cell it can play lies
    under one of ours."""
    if not ours:
        return False
    t = ours & playable
    return bool(t & (t - 1) or ours & (t << 1) or not t and not (playable << 1) & ~ours)


def order_key(ours: int, move: int, own_now: int, priority: int) -> int:
    """Pons' order: the most winning cells after the move first, the centre first among
    equals; last, a move just under one of our winning cells (the reply there takes it)."""
    key = (ours.bit_count() << 4) | priority
    if own_now & (move << 1):
        key -= 256
    return key


def transposition_cut(table: dict, opponent: int, mask: int, moves: int, beta: int,
                      g: Geometry) -> int | None:
    """The enhanced transposition cut-off: a move (columns left to right) whose position the
    table bounds so low for the opponent that it beats ``beta`` for us: our score, or None."""
    for column in g.colmask:
        move = moves & column
        if move:
            entry = table.get(opponent + (mask | move))    # (past MIRROR_UNTIL: no mirror)
            if entry is not None and not entry & 1 and entry >> 1 <= -beta:
                return -(entry >> 1)
    return None


# == Parts 2-9 together: the negamax =========================================================

class OutOfBudget(Exception):
    """Raised inside the search when a node or time budget runs out."""


@dataclass
class Search:
    """One solve's counters and limits, and the table it reads and writes."""
    g: Geometry
    table: dict
    max_entries: int
    max_nodes: int | None
    deadline: float | None
    nodes: int = 0
    next_look: int = 0


def look_at_budgets(s: Search) -> None:
    """Every ``CHECK_EVERY`` nodes: the budgets, and the table's size."""
    if s.max_nodes is not None and s.nodes > s.max_nodes:
        s.nodes -= 1                             # this node is not explored
        raise OutOfBudget
    if s.deadline is not None and time.perf_counter() > s.deadline:
        raise OutOfBudget
    if len(s.table) > s.max_entries:
        s.table.clear()                          # it only costs speed
    s.next_look = s.nodes + CHECK_EVERY
    if s.max_nodes is not None:
        s.next_look = min(s.next_look, s.max_nodes)


def negamax(s: Search, current: int, mask: int, stones: int, alpha: int, beta: int,
            their_wins: int) -> int:
    """The score of the position within ``[alpha, beta]``, fail-soft: the exact score if it
    lies strictly inside, else a bound beyond the window's side it fell on, as tight as the
    search proved. The side to move cannot win at once; ``their_wins``: the opponent's
    winning cells (its parent computed them to order its moves)."""
    s.nodes += 1
    if s.nodes > s.next_look:
        look_at_budgets(s)
    g, table = s.g, s.table
    # Part 8: the moves that do not lose at once; none, and the opponent wins next.
    moves = non_losing((mask + g.bottom) & g.board, their_wins)
    if not moves:
        return lost_now(g.cells, stones)
    if stones >= g.cells - 2:
        return 0                                 # our stone and theirs fill the board
    # Part 3 (with part 8): alpha no lower than the worst score still possible.
    worst = lowest(g.cells, stones)
    if alpha < worst:
        alpha = worst
        if alpha >= beta:
            return alpha
    # Part 6: a bound the table holds narrows the window.
    key = table_key(current, mask, stones, g)
    entry = table.get(key)
    if entry is not None:
        bound = entry >> 1
        if entry & 1:                            # a lower bound
            alpha = max(alpha, bound)
        else:                                    # an upper bound
            beta = min(beta, bound)
        if alpha >= beta:
            return bound
    opponent = current ^ mask
    # Part 9: the enhanced transposition cut-off.
    if MIRROR_UNTIL <= stones < g.cells - ETC_EMPTY:
        cut = transposition_cut(table, opponent, mask, moves, beta, g)
        if cut is not None:
            return cut
    # Part 9: each move with our winning cells after it (its key in the order, and the
    # child's "their winning cells"); a win in two ends the node.
    best_possible = highest(g.cells, stones)
    empty = g.board ^ mask
    own_now = g.wins(current) & empty
    children = []
    for c in g.order:                            # part 4
        move = moves & g.colmask[c]
        if move:
            ours = g.wins(current | move) & empty
            if wins_in_two(ours, (mask + move + g.bottom) & g.board):
                return best_possible
            children.append((order_key(ours, move, own_now, g.priority[c]), move, ours))
    # No win in two, and that test misses none: we win a move later at best (part 3's
    # "beta no higher than the best score still possible", one lower).
    if beta >= best_possible:
        beta = best_possible - 1
        if alpha >= beta:
            return beta
    children.sort(reverse=True)
    best = -g.cells
    for _, move, ours in children:               # parts 2 and 3
        score = -negamax(s, opponent, mask | move, stones + 1, -beta, -alpha, ours)
        if score >= beta:
            table[key] = 2 * score + 1           # a lower bound (part 6)
            return score
        if score > best:
            best = score
            alpha = max(alpha, score)
    table[key] = 2 * best                        # an upper bound, fail-soft (part 6)
    return best


# == Part 7: iterative deepening and the null window: solving at the root =====================
# Each probe asks "is the score above med?" with the window [med, med + 1]; the answers
# narrow [lo, hi] to the score, probing near 0 first as Pons does.

def root_moves(current: int, mask: int, safe: int, g: Geometry) -> list:
    """The root's moves (of ``safe``), in the order it tries them (parts 4 and 9: most
    winning cells first, the centre first among equals), as ``(column, move, ours)``."""
    found = []
    for c in g.order:
        move = safe & g.colmask[c]
        if move:
            ours = winning_cells(current | move, mask | move, g)
            found.append((ours.bit_count(), g.priority[c], c, move, ours))
    found.sort(reverse=True)
    return [(c, move, ours) for _, _, c, move, ours in found]


def root(s: Search, current: int, mask: int, stones: int, safe: int, moves: list, alpha: int,
         beta: int) -> tuple[int, int | None]:
    """Negamax at the root, telling also which move reached the score (or None)."""
    s.nodes += 1
    if s.nodes > s.next_look:
        look_at_budgets(s)
    g = s.g
    if not safe:
        return lost_now(g.cells, stones), None
    if stones >= g.cells - 2:
        return 0, None
    if alpha < lowest(g.cells, stones):          # parts 3 and 8
        alpha = lowest(g.cells, stones)
        if alpha >= beta:
            return alpha, None
    if beta > highest(g.cells, stones):
        beta = highest(g.cells, stones)
        if alpha >= beta:
            return beta, None
    best, value = None, -g.cells
    for c, move, ours in moves:
        score = -negamax(s, current ^ mask, mask | move, stones + 1, -beta, -alpha, ours)
        if score >= beta:
            return score, c
        if score > value:
            value = score
            if score > alpha:
                alpha, best = score, c
    return value, best


def probe(lo: int, hi: int) -> int:
    """The next null window's score between ``lo`` and ``hi``: the middle, moved towards 0
    (C++'s ``lo / 2``, rounded towards zero)."""
    med = lo + (hi - lo) // 2
    if med <= 0 and -((-lo) // 2) < med:
        med = -((-lo) // 2)
    elif med >= 0 and hi // 2 > med:
        med = hi // 2
    return med


def solve_position(table: dict, g: Geometry, current: int, mask: int, stones: int, *,
                   weak: bool = False, max_nodes: int | None = None,
                   time_limit: float | None = None,
                   max_entries: int = DEFAULT_TABLE_ENTRIES) -> SolveResult:
    """Solve a valid position, not over, with ``table`` (kept or fresh)."""
    start = time.perf_counter()
    deadline = None if time_limit is None else start + time_limit
    possible = (mask + g.bottom) & g.board
    wins = winning_cells(current, mask, g) & possible
    if wins:                                     # a win at once (negamax assumes none)
        column = next(c for c in g.order if wins & g.colmask[c])
        score = 1 if weak else win_now(g.cells, stones)
        return SolveResult(score, column, 0, time.perf_counter() - start, True, score, score)
    s = Search(g, table, max_entries, max_nodes, deadline,
               next_look=CHECK_EVERY if max_nodes is None else min(CHECK_EVERY, max_nodes))
    their_wins = winning_cells(current ^ mask, mask, g)
    safe = non_losing(possible, their_wins)
    moves = root_moves(current, mask, safe, g)
    if moves:
        first = moves[0][0]
    else:                                        # lost whatever we do: block a threat at least
        first = next((c for c in g.order if possible & their_wins & g.colmask[c]),
                     next(c for c in g.order if possible & g.colmask[c]))
    lo, hi = (-1, 1) if weak else (lost_now(g.cells, stones), win_now(g.cells, stones))
    best, complete = None, True
    try:
        while lo < hi:
            med = probe(lo, hi)
            score, move = root(s, current, mask, stones, safe, moves, med, med + 1)
            if score <= med:
                hi = score
            else:
                lo, best = score, move
    except OutOfBudget:
        complete = False
    if weak:
        lo, hi = max(-1, min(1, lo)), max(-1, min(1, hi))
    if complete:
        hi = lo
    return SolveResult(lo, first if best is None else best, s.nodes,
                       time.perf_counter() - start, complete, lo, hi)


# == Part 10: the opening book ===============================================================
# Not here: ``opening_book`` (the scores of every 7x6 position of 12 stones), read by the
# compiled search (``solver_kernel``).


# == The solver: a table kept from one solve to the next =====================================

def _check_budgets(max_nodes, time_limit) -> None:
    """ValueError unless each budget is None or a non-negative count of nodes / seconds."""
    if max_nodes is not None and (isinstance(max_nodes, bool) or not isinstance(max_nodes, int)
                                  or max_nodes < 0):
        raise ValueError(f"max_nodes must be a non-negative integer or None, not {max_nodes!r}")
    if time_limit is not None and not time_limit >= 0:
        raise ValueError("time_limit must be a non-negative number of seconds or None, "
                         f"not {time_limit!r}")


class Solver:
    """An exact solver for one board size, keeping its table between solves: its bounds hold
    whatever position is solved next, so the positions of one game get faster; ``reset``
    empties it. Not to be shared by threads that search at the same time."""

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
        self._validate(current, mask, moves_played)
        _check_budgets(max_nodes, time_limit)
        return solve_position(self._table, self._g, current, mask, moves_played, weak=weak,
                              max_nodes=max_nodes, time_limit=time_limit,
                              max_entries=self.max_table_entries)

    def _validate(self, current, mask, moves_played) -> None:
        check_position(self._g, current, mask, moves_played)


def solve_bitboard(current: int, mask: int, moves_played: int, width: int = 7, height: int = 6,
                   *, weak: bool = False, max_nodes: int | None = None,
                   time_limit: float | None = None) -> SolveResult:
    """Solve the position given by Pons' bitboards (``current``: the side to move's stones,
    ``mask``: every stone), with a fresh table; as :func:`solve` otherwise.

    Raises:
        ValueError: on a board size out of 4..9, bitboards no game reaches (stones outside
            the board or floating, wrong counts), a game already over, or a negative budget.
    """
    return Solver(width, height).solve_bitboard(current, mask, moves_played, weak=weak,
                                                max_nodes=max_nodes, time_limit=time_limit)


def solve(moves: str = "", width: int = 7, height: int = 6, *, weak: bool = False,
          max_nodes: int | None = None, time_limit: float | None = None) -> SolveResult:
    """Solve the Connect-4 position reached by ``moves``, with a fresh table.

    Args:
        moves: 1-indexed column digits played from the empty board, e.g. ``"4453"``.
        width, height: board size, 4 to 9 each (default 7x6).
        weak: only who wins (score 1, 0 or -1), as Pons' weak solver: faster.
        max_nodes: stop after this many nodes (None: no limit).
        time_limit: stop after about this many seconds (None: no limit); the clock is read
            every ``CHECK_EVERY`` nodes.

    Returns:
        A :class:`SolveResult`; when a budget ran out, ``complete`` is False, ``score`` the
        proven lower bound and ``lower``/``upper`` the proven interval.

    Raises:
        ValueError: on a board size out of 4..9, a bad move string (not a column digit, out
            of range, a full column, a move after a four in a row), a game already over (four
            in a row or a full board: "game already over"), or a negative budget.
    """
    current, mask, n = parse_moves(moves, width, height)
    return Solver(width, height).solve_bitboard(current, mask, n, weak=weak, max_nodes=max_nodes,
                                                time_limit=time_limit)
