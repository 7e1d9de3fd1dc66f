"""The 3x3 board as bits, shared by the rules, the heuristics and the solver: cell ``i``
(0..8, reading order) is bit ``i``; the 8 lines of three; the 8 symmetries of the square."""
from __future__ import annotations

from typing import NamedTuple

CELLS = 9
FULL = (1 << CELLS) - 1
# The 8 lines of three (rows, columns, diagonals), as bit masks.
LINES = tuple(sum(1 << i for i in line) for line in (
    (0, 1, 2), (3, 4, 5), (6, 7, 8),       # rows
    (0, 3, 6), (1, 4, 7), (2, 5, 8),       # columns
    (0, 4, 8), (2, 4, 6)))                 # diagonals
MARKS = ("X", "O")
# Centre first, then the corners, then the edges: the cells in the most lines first (4, 3,
# 2 lines; seed 000's "cotation" of each cell), so alpha-beta meets good moves early.
CENTER_ORDER = (4, 0, 2, 6, 8, 1, 3, 5, 7)
# The 8 symmetries of the square (rotations and reflections), each as the cell that cell i
# goes to: used to count positions "up to symmetry" (the course gallery's card).
_ROT = (6, 3, 0, 7, 4, 1, 8, 5, 2)         # a quarter turn: cell i -> _ROT[i] (read below)
_FLIP = (2, 1, 0, 5, 4, 3, 8, 7, 6)        # a mirror, left <-> right


def compose(a, b):
    """The permutation ``b`` then ``a``."""
    return tuple(a[b[i]] for i in range(CELLS))


def symmetries():
    """The 8 permutations of the cells that map the square onto itself."""
    out, r = [], tuple(range(CELLS))
    for _ in range(4):
        out.append(r)
        out.append(compose(_FLIP, r))
        r = compose(_ROT, r)
    return tuple(out)


SYMMETRIES = symmetries()


def bits(mask: int) -> list[int]:
    """The cells (0..8) set in ``mask``."""
    return [i for i in range(CELLS) if mask >> i & 1]


def wins(stones: int) -> bool:
    """Whether ``stones`` hold a line of three."""
    return any(stones & line == line for line in LINES)


class TicTacToeState(NamedTuple):
    """An immutable position: ``x`` and ``o`` are bitboards (bit ``i``: cell ``i + 1``)."""

    x: int
    o: int

    @property
    def moves(self) -> int:
        """Stones on the board: the plies played."""
        return (self.x | self.o).bit_count()

    @property
    def to_move(self) -> int:
        """0 (X) when the counts are equal, else 1 (O)."""
        return 0 if self.x.bit_count() == self.o.bit_count() else 1

    def play(self, cell: int) -> "TicTacToeState":
        """The position after the side to move marks ``cell`` (no check: the rules check)."""
        bit = 1 << cell
        return TicTacToeState(self.x | bit, self.o) if self.to_move == 0 else \
            TicTacToeState(self.x, self.o | bit)


def canonical_key(state: TicTacToeState) -> int:
    """The smallest key among the position's 8 images by rotation and reflection: two
    positions that are the same up to symmetry share it."""
    best = None
    for s in SYMMETRIES:
        x = sum(1 << s[i] for i in bits(state.x))
        o = sum(1 << s[i] for i in bits(state.o))
        k = x | o << CELLS
        best = k if best is None or k < best else best
    return best
