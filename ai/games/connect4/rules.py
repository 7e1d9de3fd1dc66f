"""Connect-4 (Puissance 4) on a bitboard, any size from 4x4 to 9x9 (default 7 columns x 6 rows).

The board layout is Pascal Pons' (blog.gamesolver.org), in ``ai.games.connect4.bitboard``, shared with the
fast search and the exact solver: cell (col, row), row 0 at the bottom, is bit
``col * (height + 1) + row``. A position is two ints: ``mask`` (every stone) and ``current``
(the stones of the side to move), so playing a move and testing four in a row are a few
integer operations.

Moves are 0-indexed columns inside ``ai/``; people write them 1-indexed, a game as the
string of its columns, e.g. ``"4453"`` (``parse_moves`` / ``format_moves``).
"""
from __future__ import annotations

import random

from ai.course.game import Game
from ai.messages import GameError

from .bitboard import MAX_SIZE, MIN_SIZE, alignment, four_cells, geometry
from .heuristic import HEURISTICS
from .state import C4State

__all__ = ["C4State", "Connect4", "MAX_SIZE", "MIN_SIZE"]


class Connect4(Game):
    """Connect-4 with ``width`` columns and ``height`` rows (4 to 9 each)."""

    name = "connect4"
    # -- the hooks shared code asks a game (ai.course.game.Game) ---------------------------
    heuristics = HEURISTICS                 # ai.heuristics.make_heuristic's choice
    level_heuristics = {"beginner": "cells", "easy": "cells", "medium": "threats",
                        "hard": "threats", "expert": "threats"}     # ai.levels

    def __init__(self, width: int = 7, height: int = 6):
        g = geometry(width, height)         # raises ValueError outside 4..9
        self.width, self.height = width, height
        self.h1 = h1 = g.h1
        self.cells = g.cells
        self.bottom = g.column_bottom
        self.top = g.column_top
        self.column_mask = g.colmask
        self.board_mask = g.board
        # Centre columns first: they take part in the most fours, so alpha-beta meets good
        # moves early and cuts more (Pons' order, which the fast loop and the solver use too).
        self.center_order = g.order
        # One fixed seed so that every process, every gunicorn worker and every test sees the
        # same keys: a recorded tree can then be recomputed identically from a link.
        rng = random.Random(f"zobrist-{width}x{height}")
        self.zobrist = [[rng.getrandbits(64) for _ in range(width * h1)] for _ in (0, 1)]

    def __repr__(self):
        return f"Connect4(width={self.width}, height={self.height})"

    def weighted_heuristic(self, text: str):
        """``terms.WeightedHeuristic``: the course's terms weighed as ``text`` says
        (``terms.parse``: ``cells=1,open3=8``)."""
        from .terms import WeightedHeuristic, parse
        return WeightedHeuristic(self, parse(text))

    def weights_text(self, text: str) -> str:
        """``text`` as ``terms.format_weights`` writes the weights ``terms.parse`` reads."""
        from .terms import format_weights, parse
        return format_weights(parse(text))

    def tournament_openings(self, k: int) -> list[dict]:
        """The first ``k`` two-ply openings the exact solver scores balanced, draws first
        (``match.openings``), on the 7x6 board the solver knows."""
        if (self.width, self.height) != (7, 6):
            raise ValueError("a tournament is played on the 7x6 board, whose openings the "
                             "exact solver scores")
        from .match import openings
        return openings(k)

    def tournament_player(self, heuristic: str, depth: int, max_nodes: int | None):
        """The compiled search, the course's move (``match.player``)."""
        from .match import player
        return player(self, heuristic, depth, max_nodes)

    def fast_alphabeta(self, **options):
        """The fast loop's alpha-beta where it gives the course's values for these search
        options, else None (``ai.engine``): compiled (``compiled_search``, which runs
        ``fast_search`` when it records a tree) where both run these options, so a tree
        shown is always that of the search that chose the move; else ``fast_search``."""
        from . import compiled_search, fast_search    # they build on these rules
        if not fast_search.supports(self, **options):
            return None
        if compiled_search.supports(self, **options):
            return compiled_search.alphabeta
        return fast_search.alphabeta

    def fast_run(self, algorithm, state, depth, options):
        """The compiled search run whole where the engine's fast way would run it
        (``compiled_search.direct``: the same result, without the engine's layers), else
        None (``ai.engine``)."""
        return _direct(self, algorithm, state, depth, options)

    def exact_play(self, state, **budget):
        """The perfect move: the exact solver (``ai.games.connect4.exact``, ``ai.perfect``)."""
        from .exact import exact_play
        return exact_play(self, state, **budget)

    def exact_within(self, state, max_nodes: int):
        """The exact solver's move if it proves the value within ``max_nodes`` nodes, from an
        empty table and without a clock, else None (``ai.games.connect4.exact``): the hard
        and expert levels ask it first (``ai.levels``)."""
        from .exact import exact_within
        return exact_within(self, state, max_nodes)

    def level_reply(self, level, state):
        """``level``'s reply (a ``Level``) stored in its book of first replies
        (``ai.games.connect4.level_book``), or None: the stored search, as the level would
        make it."""
        from . import level_book
        return level_book.reply(level, self, state)

    def key_step(self, state, move):
        """How playing ``move`` changes the Zobrist key (``ai.games.connect4.zobrist``): the
        step-by-step table shows it."""
        from .zobrist import zobrist_step
        return zobrist_step(self, state, move)

    def plies_left(self, state: C4State) -> int:
        """The empty cells: the game lasts at most that many plies more."""
        return self.cells - state.moves

    preparing = "Compiling the exact solver and the levels' search, once (up to ~40 s)"

    @classmethod
    def prepare(cls) -> float:
        """Compile the exact solver's inner loop and the levels' search (``compiled_search``)
        (numba, cached beside the code) and exercise every compiled path. Returns the seconds
        it took."""
        from . import compiled_search
        from .exact import warm_up
        return warm_up() + compiled_search.warm_up(cls())

    # -- the protocol -------------------------------------------------------------------
    def initial_state(self) -> C4State:
        return C4State(0, 0, 0, 0, 0, None)

    def to_move(self, state: C4State) -> int:
        return state.moves & 1

    def actions(self, state: C4State) -> list[int]:
        if state.over:
            return []
        mask = state.mask
        return [c for c in range(self.width) if not mask & self.top[c]]

    def result(self, state: C4State, move) -> C4State:
        if isinstance(move, bool) or not isinstance(move, int):
            raise GameError("a move is a column number, not %(move)r", move=move)
        if not 0 <= move < self.width:
            raise GameError("column %(col)s does not exist: columns are 1 to %(width)s",
                            col=move + 1, width=self.width)
        if state.over:
            raise GameError("the game is over")
        mask = state.mask
        if mask & self.top[move]:
            raise GameError("column %(col)s is full", col=move + 1)
        new_mask = mask | (mask + self.bottom[move])
        bit = new_mask ^ mask
        mover = state.current | bit
        key = state.key ^ self.zobrist[state.moves & 1][bit.bit_length() - 1]
        moves = state.moves + 1
        if alignment(mover, self.h1):
            over = 1
        elif moves == self.cells:
            over = 2
        else:
            over = 0
        return C4State(state.current ^ mask, new_mask, moves, key, over, move)

    def is_terminal(self, state: C4State) -> bool:
        return state.over != 0

    def utility(self, state: C4State, player: int) -> int:
        if state.over == 1:
            # The player who just moved won; ``moves & 1`` is the one to move now.
            return -1 if player == (state.moves & 1) else 1
        return 0

    def key(self, state: C4State) -> int:
        return state.key

    def winner(self, state: C4State):
        """The player who made four in a row, or None (game on, or a draw)."""
        return 1 - (state.moves & 1) if state.over == 1 else None

    def parse_move(self, text: str) -> int:
        text = str(text).strip()
        if len(text) != 1 or not ("1" <= text <= "9"):
            raise GameError("a column is a digit from 1 to %(width)s, not %(text)r",
                            width=self.width, text=text)
        col = int(text) - 1
        if col >= self.width:
            raise GameError("column %(col)s does not exist: columns are 1 to %(width)s",
                            col=col + 1, width=self.width)
        return col

    def format_move(self, move) -> str:
        return str(move + 1) if isinstance(move, int) else repr(move)

    def parse_moves(self, text: str) -> list[int]:
        """``"4453"`` -> [3, 3, 4, 2] (0-indexed columns). Only the syntax is checked here."""
        return [self.parse_move(ch) for ch in (text or "").strip()]

    def format_moves(self, moves) -> str:
        return "".join(str(m + 1) for m in moves)

    def from_moves(self, text: str) -> C4State:
        """The position after the moves ``text`` (1-indexed columns), checked move by move."""
        state = self.initial_state()
        for i, ch in enumerate((text or "").strip(), 1):
            try:
                state = self.result(state, self.parse_move(ch))
            except ValueError as err:
                raise GameError("move %(i)s (%(ch)r) of %(text)r: %(err)s", i=i, ch=ch, text=text,
                                err=err) from None
        return state

    # -- the review's hooks (ai.teach.review; the code is in ai.games.connect4.review) ---------
    def exact_score(self, state: C4State, **options):
        from .review import exact_score
        return exact_score(self, state, **options)

    def score_outcome(self, state: C4State, score: int):
        from .review import score_outcome
        return score_outcome(self, state, score)

    def review_why(self, *args):
        from .review import review_why
        return review_why(self, *args)

    def review_drawing(self, *args, **kwargs):
        from .review import review_drawing
        return review_drawing(self, *args, **kwargs)

    def tree_size(self, state: C4State, depth: int, limit: int = 25_000) -> int | None:
        """Nodes minimax visits from ``state`` to ``depth``, root included (None past
        ``limit``): ``ai.teach.tree_view.full_tree_size`` on bitboards, the same count (a test
        checks it) at a fraction of the cost, since the tree panel asks on every search."""
        if state.over:
            return 1
        count, level = 1, {(state.current, state.mask): 1}
        bottoms = [(self.bottom[c], self.top[c]) for c in range(self.width)]
        h1, cells, moves_done = self.h1, self.cells, state.moves
        for d in range(depth):
            below: dict = {}
            last_ply = moves_done + d + 1 == cells      # these children fill the board
            for (cur, mask), ways in level.items():
                playable = [b for b, top in bottoms if not mask & top]
                count += ways * len(playable)
                if count > limit:
                    return None
                opp = cur ^ mask
                for b in playable:
                    new_mask = mask | (mask + b)
                    mover = cur | (new_mask ^ mask)
                    if last_ply or alignment(mover, h1):
                        continue                        # game over: a leaf
                    key = (opp, new_mask)
                    below[key] = below.get(key, 0) + ways
            level = below
        return count

    # -- looking at a position ----------------------------------------------------------
    def stones(self, state: C4State, player: int) -> int:
        """The bitboard of ``player``'s stones."""
        return state.current if player == (state.moves & 1) else state.current ^ state.mask

    def cell(self, state: C4State, col: int, row: int):
        """0 or 1 for the player whose stone is at (col, row) (row 0 at the bottom), or None."""
        bit = 1 << (col * self.h1 + row)
        if not state.mask & bit:
            return None
        return 0 if self.stones(state, 0) & bit else 1

    def rows(self, state: C4State) -> list[list]:
        """The grid top row first, as a person looks at it: each cell 0, 1 or None."""
        return [[self.cell(state, c, r) for c in range(self.width)]
                for r in reversed(range(self.height))]

    def winning_cells(self, state: C4State) -> set[tuple[int, int]]:
        """Every (col, row) that lies in a four in a row of the winner (empty if none)."""
        winner = self.winner(state)
        if winner is None:
            return set()
        return four_cells(self.stones(state, winner), self.h1)

    def playable_row(self, state: C4State, col: int):
        """The row a stone dropped in ``col`` would land on, or None if the column is full."""
        column = state.mask & self.column_mask[col]
        row = column.bit_count()
        return row if row < self.height else None

    def render(self, state: C4State) -> str:
        """The board as text: X for J0 (who starts), O for J1, . for empty."""
        marks = {0: "X", 1: "O", None: "."}
        lines = [" ".join(marks[v] for v in row) for row in self.rows(state)]
        lines.append(" ".join(str(c + 1) for c in range(self.width)))
        return "\n".join(lines)


def _first_direct(game, algorithm, state, depth, options):
    """``compiled_search.direct``, imported at the first search (it imports numba), which then
    takes this function's place as ``_direct``: a depth-2 search takes some microseconds, an
    import statement or one more call a fraction of one."""
    global _direct
    from .compiled_search import direct
    _direct = direct
    return direct(game, algorithm, state, depth, options)


_direct = _first_direct
