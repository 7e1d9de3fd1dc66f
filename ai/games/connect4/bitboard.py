"""Pascal Pons' Connect-4 bitboard (blog.gamesolver.org), the one copy that the three
Connect-4 engines share: the rules (``ai.games.connect4.rules``), the fast depth-limited search
(``ai.games.connect4.fast_search``) and the exact solver (``ai.games.connect4.exact.solver``).

Cell (col, row), row 0 at the bottom, is bit ``col * (height + 1) + row``: each column has one
spare bit on top, which keeps shifted alignments from wrapping into the next column. A
position is two ints: ``mask`` (every stone) and ``current`` (the stones of the side to move).
Playing in column ``c`` is ``mask | (mask + bottom of c)``; the playable cells are
``(mask + bottom) & board``.

*Winning cells* (Pons' ``compute_winning_position``) are the empty cells where a player's
stones would complete a four. The fast search computes them for every candidate move at once on
a *wide board*: copy ``c`` (the stones plus a move in column ``c``) sits at bit ``stride * c``,
spaced so that the shifts of the formula never reach a neighbouring copy. One pass then serves
twice: popcounts order the moves, and the copy of the move played is the child's "opponent's
winning cells".
"""
from __future__ import annotations

from functools import lru_cache

MIN_SIZE, MAX_SIZE = 4, 9


def check_size(width, height) -> None:
    """Raises ValueError unless both are whole numbers from 4 to 9."""
    for label, v in (("width", width), ("height", height)):
        if isinstance(v, bool) or not isinstance(v, int) or not MIN_SIZE <= v <= MAX_SIZE:
            raise ValueError(f"board {label} must be from {MIN_SIZE} to {MAX_SIZE}, not {v!r}")


class Geometry:
    """The constants of one board size, computed once (``geometry(width, height)``)."""

    def __init__(self, width: int, height: int):
        check_size(width, height)
        W, H = width, height
        H1 = H + 1
        self.width, self.height, self.h1, self.cells = W, H, H1, W * H
        self.column_bottom = tuple(1 << (c * H1) for c in range(W))
        self.column_top = tuple(1 << (c * H1 + H - 1) for c in range(W))
        self.colmask = tuple(((1 << H) - 1) << (c * H1) for c in range(W))
        self.bottom = sum(self.column_bottom)           # Pons' bottom_mask
        self.board = self.bottom * ((1 << H) - 1)       # every cell
        self.sentinels = self.bottom << H               # the spare bit of every column
        # Centre first, Pons' order (3 2 4 1 5 0 6 on seven columns): the centre columns
        # take part in the most fours, so alpha-beta meets good moves early and cuts more.
        self.order = tuple(W // 2 + (1 - 2 * (i % 2)) * ((i + 1) // 2) for i in range(W))
        pri = [0] * W                                   # sort priority, the centre highest
        for i, c in enumerate(self.order):
            pri[c] = W - 1 - i
        self.priority = tuple(pri)
        # The centre column's cells (both middle columns' on an even width): the Threats
        # heuristic gives a stone there 2 points.
        self.centre = self.colmask[W // 2] | (0 if W % 2 else self.colmask[W // 2 - 1])
        # The wide board. Shifts go at most 3 * (H + 2) bits either way.
        self.stride = S = W * H1 + 3 * (H + 2)
        self.shift = tuple(S * c for c in range(W))
        self.rep = sum(1 << s for s in self.shift)                 # one bit per copy
        self.diag = sum(m << s for m, s in zip(self.colmask, self.shift))  # column c in copy c
        # For each set of playable columns, as its sentinel pattern ((playable + board) &
        # sentinels): those columns centre first, as (column, column mask, wide-board shift,
        # priority); and by priority, (column, column mask, shift).
        self.playable = {}
        for bits in range(1 << W):
            cols = [c for c in self.order if bits >> c & 1]
            self.playable[sum(1 << (c * H1 + H) for c in cols)] = tuple(
                (c, self.colmask[c], self.shift[c], pri[c]) for c in cols)
        self.by_priority = tuple(
            next((c, self.colmask[c], self.shift[c]) for c in range(W) if pri[c] == p)
            for p in range(W))
        self.wins = _winning_cells_formula(H)

    def column_of(self, bit: int) -> int:
        """The column of a one-bit move."""
        return (bit.bit_length() - 1) // self.h1


def geometry(width: int, height: int) -> Geometry:
    """The geometry of a ``width`` x ``height`` board, built once per size. Raises ValueError
    unless both are whole numbers from 4 to 9 (checked before the cache: 7.0 == 7)."""
    check_size(width, height)
    return _geometry(width, height)


@lru_cache(maxsize=None)
def _geometry(width: int, height: int) -> Geometry:
    return Geometry(width, height)


def _winning_cells_formula(height: int):
    """``wins(stones)``: the cells (occupied or not) where ``stones`` would complete a four, on
    the ordinary or the wide board. Built per board height, with the shifts as constants (the
    engines call it at every node).

    Pons' ``compute_winning_position``, written with pairs: in direction ``s`` a cell x wins
    if x+s, x+2s and x+3s are stones, or x-s, x+s, x+2s, or x-2s, x-s, x+s, or x-3s, x-2s,
    x-s. With d = stones & (stones >> s) (a stone and its neighbour at +s) the first two are
    ``(d >> s) & (x+3s | x-s)`` and the last two ``(d << 2s) & (x+s | x-3s)``. Vertically
    only the three cells below count (the cells above an empty cell are empty).
    """
    s0, s1, s2 = height, height + 1, height + 2     # a diagonal, horizontal, the other diagonal

    def wins(p, s0=s0, s1=s1, s2=s2, s0x2=2 * s0, s1x2=2 * s1, s2x2=2 * s2,
             s0x3=3 * s0, s1x3=3 * s1, s2x3=3 * s2):
        u = p << 1
        r = ((p & u) << 2) & u
        t = p >> s0
        d = p & t
        r |= ((d >> s0) & ((p >> s0x3) | (p << s0))) | ((d << s0x2) & (t | (p << s0x3)))
        t = p >> s1
        d = p & t
        r |= ((d >> s1) & ((p >> s1x3) | (p << s1))) | ((d << s1x2) & (t | (p << s1x3)))
        t = p >> s2
        d = p & t
        r |= ((d >> s2) & ((p >> s2x3) | (p << s2))) | ((d << s2x2) & (t | (p << s2x3)))
        return r
    return wins


def winning_cells(stones: int, mask: int, g: Geometry) -> int:
    """The empty cells (playable now or not) where ``stones`` would complete a four."""
    return g.wins(stones) & (g.board ^ mask)


def non_losing(playable: int, opp_wins: int) -> int:
    """The playable cells that do not let the opponent win at once, or 0 (Pons' "anticipate
    direct losing moves"): with two of its winning cells playable, none (it takes the other);
    with one, only that one (block it); and never the cell under one of its winning cells."""
    forced = playable & opp_wins
    if forced:
        if forced & (forced - 1):
            return 0
        playable = forced
    return playable & ~(opp_wins >> 1)


def _directions(h1: int):
    return (1, h1, h1 - 1, h1 + 1)          # vertical, horizontal, the two diagonals


def alignment(stones: int, h1: int) -> int:
    """Bits of every stone that starts (lowest end) a four in a row, or 0."""
    found = 0
    for shift in _directions(h1):
        m = stones & (stones >> shift)
        found |= m & (m >> 2 * shift)
    return found


def four_cells(stones: int, h1: int) -> set[tuple[int, int]]:
    """Every (col, row) that lies in a four in a row of ``stones``."""
    cells = set()
    for shift in _directions(h1):
        m = stones & (stones >> shift)
        starts = m & (m >> 2 * shift)
        while starts:
            low = starts & -starts
            starts ^= low
            for i in range(4):
                b = (low << (i * shift)).bit_length() - 1
                cells.add((b // h1, b % h1))
    return cells
