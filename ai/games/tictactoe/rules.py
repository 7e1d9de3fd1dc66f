"""Tic-tac-toe ("le morpion"), 3x3: the classic first example of minimax (seed 002 names it
as its example of a game of perfect information, "le plateau du jeu du morpion est visible par
tous").

The cells are numbered 1 to 9 in reading order, like a phone's keypad and like the course
draws a grid (top row first, left to right)::

    1 | 2 | 3
    --+---+--
    4 | 5 | 6
    --+---+--
    7 | 8 | 9

Why these numbers: one digit per move writes a whole game as a short link (``moves=5139``, as
Connect-4's ``4453``), the number keys 1-9 along the top of every keyboard (and a phone's
keypad) play a cell with one key, and a move reads the same in the tree panel's edges, the
link and the command line. ``parse_move`` also accepts the chess-like ``a1``..``c3`` (column
a-c from the left, row 1-3 from the top: ``a1`` is 1, ``b2`` is 5, ``c3`` is 9) for people who
think in coordinates; moves are always written back as digits.

Inside ``ai/`` a move is the cell's index 0..8 (bit ``i`` of a bitboard), people see ``i + 1``.
X (J0) starts, O (J1) answers. A state is ``TicTacToeState(x, o)``: the two players'
bitboards, nothing else (who is to move follows from the counts), so the same stones reached
in another order are the same state: a transposition, as the course's table finds them.
"""
from __future__ import annotations

from ai.course.game import Game
from ai.messages import GameError

from .board import (CELLS, CENTER_ORDER, FULL, LINES, MARKS, TicTacToeState, bits as _bits,
                    canonical_key, wins as _wins)
from .heuristic import HEURISTICS, LEVEL_HEURISTICS


class TicTacToe(Game):
    """Tic-tac-toe on 3x3: X (J0) starts; three in a row wins; a full board is a draw."""

    name = "tictactoe"
    # Centre first, then the corners, then the edges: the cells in the most lines first (4, 3,
    # 2 lines; seed 000's "cotation" of each cell), so alpha-beta meets good moves early.
    center_order = CENTER_ORDER
    heuristics = HEURISTICS                 # ai.heuristics.make_heuristic's choice
    level_heuristics = LEVEL_HEURISTICS     # ai.levels

    # The course card's counts (the whole tree, alpha-beta with and without a table): ~1 s of
    # CPU in pure Python. Counted once per version of the code (by scripts/setup's prepare)
    # and saved (``course_figures.whole_tree``, ``ai.saved``): the server's master reads them
    # before it forks (gunicorn.conf.py, on_starting), so the workers share them.
    preparing = "Counting tic-tac-toe's whole tree for the course's figures, once (~1 s)"

    @classmethod
    def prepare(cls) -> float:
        """Count the course's figures on the empty board, or read them where an earlier
        process saved them (``course_figures.whole_tree``, cached for the process and the
        workers forked from it). Returns the seconds it took."""
        import time

        from .course_figures import whole_tree
        start = time.perf_counter()
        whole_tree(cls())
        return time.perf_counter() - start

    def __repr__(self):
        return "TicTacToe()"

    def __eq__(self, other):
        return isinstance(other, TicTacToe)

    def __hash__(self):
        return hash(TicTacToe)

    # -- the protocol -------------------------------------------------------------------
    def initial_state(self) -> TicTacToeState:
        return TicTacToeState(0, 0)

    def to_move(self, state: TicTacToeState) -> int:
        return state.to_move

    def actions(self, state: TicTacToeState) -> list[int]:
        """The empty cells, 0..8 in reading order (none once the game is over)."""
        if self.is_terminal(state):
            return []
        taken = state.x | state.o
        return [i for i in range(CELLS) if not taken >> i & 1]

    def result(self, state: TicTacToeState, move) -> TicTacToeState:
        if isinstance(move, bool) or not isinstance(move, int):
            raise GameError("a move is a cell number, not %(move)r", move=move)
        if not 0 <= move < CELLS:
            raise GameError("cell %(cell)s does not exist: cells are 1 to 9", cell=move + 1)
        if self.is_terminal(state):
            raise GameError("the game is over")
        bit = 1 << move
        if (state.x | state.o) & bit:
            raise GameError("cell %(cell)s is taken", cell=move + 1)
        if state.to_move == 0:
            return TicTacToeState(state.x | bit, state.o)
        return TicTacToeState(state.x, state.o | bit)

    def is_terminal(self, state: TicTacToeState) -> bool:
        return _wins(state.x) or _wins(state.o) or (state.x | state.o) == FULL

    def utility(self, state: TicTacToeState, player: int) -> int:
        """+1 if ``player`` has three in a row, -1 if the other has, 0 otherwise (a draw)."""
        w = self.winner(state)
        return 0 if w is None else (1 if w == player else -1)

    def key(self, state: TicTacToeState) -> int:
        """X's 9 bits, then O's: a different int for every position (no collision)."""
        return state.x | state.o << CELLS

    def winner(self, state: TicTacToeState):
        """0 (X) or 1 (O) for the player with three in a row, else None."""
        if _wins(state.x):
            return 0
        if _wins(state.o):
            return 1
        return None

    # -- moves as people write them -------------------------------------------------------
    def parse_move(self, text: str) -> int:
        """``"5"`` -> 4; also ``"b2"`` -> 4 (column a-c, row 1-3 from the top)."""
        t = str(text).strip().lower()
        if len(t) == 1 and "1" <= t <= "9":
            return int(t) - 1
        if len(t) == 2 and t[0] in "abc" and t[1] in "123":
            return (int(t[1]) - 1) * 3 + "abc".index(t[0])
        raise GameError("a cell is a digit from 1 to 9 (or a1 to c3), not %(text)r",
                        text=str(text)[:20])

    def format_move(self, move) -> str:
        return str(move + 1) if isinstance(move, int) else repr(move)

    def parse_moves(self, text: str) -> list[int]:
        """``"5139"`` -> [4, 0, 2, 8]: one digit per move, as in the app's links."""
        text = (text or "").strip()
        if text and not (text.isascii() and text.isdigit() and "0" not in text):
            raise GameError("moves are cells 1 to 9, one digit per move, not %(text)r",
                            text=text[:20])
        return [int(c) - 1 for c in text]

    def format_moves(self, moves) -> str:
        return "".join(str(m + 1) for m in moves)

    def coordinates(self, move: int) -> str:
        """The cell as ``a1``..``c3`` (column letter, row number from the top)."""
        return "abc"[move % 3] + str(move // 3 + 1)

    # -- looking at a position ----------------------------------------------------------
    def cell(self, state: TicTacToeState, i: int):
        """0 (X), 1 (O) or None for the cell of index ``i`` (0..8)."""
        if state.x >> i & 1:
            return 0
        if state.o >> i & 1:
            return 1
        return None

    def rows(self, state: TicTacToeState) -> list[list]:
        """The grid, top row first: each cell 0, 1 or None."""
        return [[self.cell(state, r * 3 + c) for c in range(3)] for r in range(3)]

    def winning_cells(self, state: TicTacToeState) -> set[int]:
        """The cells (0..8) of the winner's line(s) of three; empty if nobody has won."""
        w = self.winner(state)
        if w is None:
            return set()
        stones = state.x if w == 0 else state.o
        return {i for line in LINES if stones & line == line for i in _bits(line)}

    def render(self, state: TicTacToeState) -> str:
        """The board as text: X, O, and the free cells' numbers."""
        rows = []
        for r in range(3):
            cells = []
            for c in range(3):
                v = self.cell(state, r * 3 + c)
                cells.append(str(r * 3 + c + 1) if v is None else MARKS[v])
            rows.append(" | ".join(cells))
        return "\n--+---+--\n".join(rows)

    def canonical(self, state: TicTacToeState) -> int:
        """The smallest key among the position's 8 images by rotation and reflection: two
        positions that are the same up to symmetry share it."""
        return canonical_key(state)

    # -- the hooks shared code asks a game (ai.course.game.Game) --------------------------------
    def weighted_heuristic(self, text: str):
        """``terms.WeightedHeuristic``: the terms weighed as ``text`` says (``lines=1,open2=4``)."""
        from .terms import WeightedHeuristic, parse
        return WeightedHeuristic(self, parse(text))

    def weights_text(self, text: str) -> str:
        """``text`` as ``terms.format_weights`` writes the weights ``terms.parse`` reads."""
        from .terms import format_weights, parse
        return format_weights(parse(text))

    def tournament_openings(self, k: int) -> list[dict]:
        """The first ``k`` two-ply openings up to symmetry, the solved game's draws first
        (``openings.openings``)."""
        from .openings import openings
        return openings(k)

    def exact_play(self, state, *, time_limit=None, max_nodes=None, fallback=None):
        """The perfect move from the solved game (``solver``): never more than a dict look-up
        per move once the game is solved (5,478 positions, solved once per process)."""
        from .solver import exact_play
        return exact_play(self, state)

    def plies_left(self, state: TicTacToeState) -> int:
        """The empty cells: the game lasts at most that many plies more."""
        return CELLS - state.moves

    def tree_size(self, state: TicTacToeState, depth: int | None = None) -> int:
        """Nodes of the whole game tree below ``state`` to ``depth`` plies (None: to the end),
        root and leaves included: 549,946 from the empty board."""
        from .solver import tree_size
        return tree_size(state, depth)

    def outcomes(self, state: TicTacToeState) -> list:
        """Every legal move's exact outcome (``solver.Outcome``: win, draw or loss, in how many
        plies, its value, whether it is best): what the page shows as the truth."""
        from .solver import outcomes
        return outcomes(state)

    def truth(self, state, tree, path, shown, root_move=None):
        """The exact outcome of every move at a node of a recorded search beside the search's
        values (``truth.truth_at``): the tree panel's truth."""
        from .truth import truth_at
        return truth_at(state, tree, path, shown, root_move)
