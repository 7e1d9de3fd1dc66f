"""Connect-4's evaluation functions (fonctions d'évaluation): the course's cell values
(seed 000), seed 004's adjusted cell values, and a stronger default that counts open windows
and threats. Each scores a position that is not over from ``player``'s side, strictly inside
``(-HEURISTIC_MAX, +HEURISTIC_MAX)`` (``ai.heuristics``)."""
from __future__ import annotations

from functools import lru_cache
from ai.heuristics import clamp as _clamp
from ai.messages import N_

from .bitboard import geometry


@lru_cache(maxsize=None)
def cell_values(width: int = 7, height: int = 6) -> tuple[tuple[int, ...], ...]:
    """For each cell, the number of four-in-a-row windows through it (seed 000's
    ``cotation_grille``), top row first. On 7x6::

        3 4  5  7  5 4 3
        4 6  8 10  8 6 4
        5 8 11 13 11 8 5
        5 8 11 13 11 8 5
        4 6  8 10  8 6 4
        3 4  5  7  5 4 3
    """
    grid = [[0] * width for _ in range(height)]
    for dc, dr in ((1, 0), (0, 1), (1, 1), (1, -1)):
        for c in range(width):
            for r in range(height):
                cells = [(c + i * dc, r + i * dr) for i in range(4)]
                if all(0 <= x < width and 0 <= y < height for x, y in cells):
                    for x, y in cells:
                        grid[y][x] += 1
    return tuple(tuple(row) for row in reversed(grid))


class _C4Heuristic:
    """A heuristic bound to one board size (precomputed tables live here)."""

    name = ""
    label = ""

    def __init__(self, game: Connect4):
        self.game = game

    def __repr__(self):
        return f"<heuristic {self.name} {self.game.width}x{self.game.height}>"


class CellValues(_C4Heuristic):
    """Seed 000, Listing VIII.5: the sum of the values of my cells minus the sum of the values
    of the opponent's cells ("somme des cotations des cases occupées par les pions de J0
    moins ... J1")."""

    name = "cells"
    label = N_("cell values (course, minmax chapter)")

    def __init__(self, game):
        super().__init__(game)
        w, h, h1 = game.width, game.height, game.h1
        grid = cell_values(w, h)
        # value of each bit, grouped by value so a position scores with a few popcounts
        by_value: dict[int, int] = {}
        for c in range(w):
            for r in range(h):
                v = grid[h - 1 - r][c]
                by_value[v] = by_value.get(v, 0) | (1 << (c * h1 + r))
        self.groups = tuple(by_value.items())

    def __call__(self, state, player):
        mine = self.game.stones(state, player)
        theirs = mine ^ state.mask
        s = 0
        for v, bits in self.groups:
            s += v * ((mine & bits).bit_count() - (theirs & bits).bit_count())
        return _clamp(s)

    def terms(self, state, player) -> list[tuple[str, int, int, int]]:
        """The value's terms (see ``Threats.terms``): the sums of the cell values under each
        player's stones (seed 000's h)."""
        mine = self.game.stones(state, player)
        theirs = mine ^ state.mask
        total = [sum(v * (side & bits).bit_count() for v, bits in self.groups)
                 for side in (mine, theirs)]
        return [("cells", 1, total[0], total[1])]


class AdjustedCells(_C4Heuristic):
    """Seed 004's ``Utility_aux_ajustee``: for each stone, ``alpha x`` its cell value plus, in
    each of the 4 directions, the square of the number of its owner's stones "aligned" with
    it (within 3 cells, no opponent stone in between), counted as 0 when opponent stones
    leave no room for four in that line. Mine minus the opponent's. The report takes
    ``alpha = 0.2`` ("un petit coefficient (0,2)"); any ``alpha >= 0`` may be given.

    The report gives the idea in prose only; this is our reading of it, written down.
    """

    name = "adjusted"
    label = N_("adjusted cell values (“Minimax et ses variantes”)")
    settings = ("alpha",)          # what make_heuristic passes on
    DEFAULT_ALPHA = 0.2
    # The 4 directions, as the inspector names them: horizontal, vertical, the diagonal that
    # rises to the right, the one that falls to the right.
    DIRECTIONS = ((1, 0), (0, 1), (1, 1), (1, -1))

    def __init__(self, game, alpha: float = DEFAULT_ALPHA):
        super().__init__(game)
        if not (isinstance(alpha, (int, float)) and 0 <= alpha < float("inf")):
            raise ValueError(f"alpha is a number >= 0, not {alpha!r}")
        self.alpha = alpha
        w, h = game.width, game.height
        grid = cell_values(w, h)
        self.base = {(c, r): grid[h - 1 - r][c] for c in range(w) for r in range(h)}

    def __repr__(self):
        return f"<heuristic {self.name} alpha={self.alpha} {self.game.width}x{self.game.height}>"

    def lines(self, c, r, mine, theirs) -> tuple[tuple[int, bool], ...]:
        """For the stone at (c, r), in each direction (``DIRECTIONS``): how many of its
        owner's stones are aligned with it, and whether the line is open (room for four:
        no opponent stone within the 7 cells centred on it cuts it shorter than 4)."""
        g = self.game
        w, h, h1 = g.width, g.height, g.h1
        out = []
        for dc, dr in self.DIRECTIONS:
            aligned, room = 0, 1
            for sign in (1, -1):
                for i in range(1, 4):
                    x, y = c + sign * i * dc, r + sign * i * dr
                    if not (0 <= x < w and 0 <= y < h):
                        break
                    bit = 1 << (x * h1 + y)
                    if theirs & bit:
                        break
                    room += 1
                    if mine & bit:
                        aligned += 1
            out.append((aligned, room >= 4))
        return tuple(out)

    def _stone_value(self, c, r, mine, theirs):
        """``alpha x`` the cell's value plus the squares of the open lines' counts."""
        return self.alpha * self.base[(c, r)] + sum(
            a * a for a, open_ in self.lines(c, r, mine, theirs) if open_)

    def __call__(self, state, player):
        g = self.game
        mine = g.stones(state, player)
        theirs = mine ^ state.mask
        s = 0.0
        for c in range(g.width):
            for r in range(g.height):
                bit = 1 << (c * g.h1 + r)
                if mine & bit:
                    s += self._stone_value(c, r, mine, theirs)
                elif theirs & bit:
                    s -= self._stone_value(c, r, theirs, mine)
        return _clamp(round(s, 6))

    def stones(self, state, player) -> list[dict]:
        """The value opened up, stone by stone (row by row from the bottom, left to right):
        whose stone (``player``'s: +1, the opponent's: -1), where, its cell value, ``alpha
        x`` that value, each direction's (aligned count, open) and the stone's value. The
        value is the sum of ``sign x value`` (``__call__``, which adds the same terms)."""
        g = self.game
        mine = g.stones(state, player)
        theirs = mine ^ state.mask
        out = []
        for r in range(g.height):
            for c in range(g.width):
                bit = 1 << (c * g.h1 + r)
                if not state.mask & bit:
                    continue
                own, other, sign = (mine, theirs, 1) if mine & bit else (theirs, mine, -1)
                lines = self.lines(c, r, own, other)
                weighted = self.alpha * self.base[(c, r)]
                out.append(dict(sign=sign, player=player if sign == 1 else 1 - player,
                                column=c, row=r, base=self.base[(c, r)], weighted=weighted,
                                lines=lines,
                                value=weighted + sum(a * a for a, open_ in lines if open_)))
        return out


class Threats(_C4Heuristic):
    """The default: every window of four cells that only one player occupies counts for that
    player, more the fuller it is (1, 4, 16 points for 1, 2, 3 stones: three stones and a
    hole is a threat), plus 2 points per stone in the centre column. Bit-parallel: each
    direction's windows are counted with a few shifts and popcounts, not cell by cell."""

    name = "threats"
    label = N_("open windows and threats (default)")
    weights = (0, 1, 4, 16)

    def __init__(self, game):
        super().__init__(game)
        w, h, h1 = game.width, game.height, game.h1
        # bits where a window of each direction may start (its 4 cells all on the board)
        self.dirs = []
        for shift, dc, dr in ((1, 0, 1), (h1, 1, 0), (h1 + 1, 1, 1), (h1 - 1, 1, -1)):
            starts = 0
            for c in range(w):
                for r in range(h):
                    if 0 <= c + 3 * dc < w and 0 <= r + 3 * dr < h:
                        starts |= 1 << (c * h1 + r)
            self.dirs.append((shift, starts))
        self.centre = geometry(w, game.height).centre

    def _score(self, p, o):
        ones, twos, threes = self._windows(p, o)
        w1, w2, w3 = self.weights[1:]
        return w1 * ones + w2 * twos + w3 * threes

    def __call__(self, state, player):
        mine = self.game.stones(state, player)
        theirs = mine ^ state.mask
        s = self._score(mine, theirs) - self._score(theirs, mine)
        s += 2 * ((mine & self.centre).bit_count() - (theirs & self.centre).bit_count())
        return _clamp(s)

    def _windows(self, p, o):
        """Windows of four held by ``p`` alone, by how many stones: [1, 2, 3]."""
        counts = [0, 0, 0]
        for shift, starts in self.dirs:
            a, b, c, d = p, p >> shift, p >> 2 * shift, p >> 3 * shift
            free = starts & ~(o | o >> shift | o >> 2 * shift | o >> 3 * shift)
            ab, cd = a & b, c & d
            any2 = ab | cd | ((a | b) & (c | d))
            any3 = (ab & (c | d)) | (cd & (a | b))
            all4 = ab & cd
            one = (a | b | c | d) & ~any2
            counts[0] += (one & free).bit_count()
            counts[1] += (any2 & ~any3 & free).bit_count()
            counts[2] += (any3 & ~all4 & free).bit_count()
        return counts

    def terms(self, state, player) -> list[tuple[str, int, int, int]]:
        """The value's terms, for people: (what, weight, player's count, opponent's count);
        the value is the sum of weight x (mine - theirs), within the heuristic's bounds."""
        mine = self.game.stones(state, player)
        theirs = mine ^ state.mask
        m, t = self._windows(mine, theirs), self._windows(theirs, mine)
        return [("windows1", self.weights[1], m[0], t[0]), ("windows2", self.weights[2], m[1], t[1]),
                ("windows3", self.weights[3], m[2], t[2]),
                ("centre", 2, (mine & self.centre).bit_count(), (theirs & self.centre).bit_count())]


HEURISTICS = {h.name: h for h in (Threats, CellValues, AdjustedCells)}   # the first: the default
