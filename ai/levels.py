"""Difficulty presets: which search, how deep, with which heuristic, within what budget, and
the one way to ask for the AI's move: ``LEVELS[name].play(game, state)``, which runs
``ai.engine.search``. The app (its custom settings too, as a ``Level`` of their own), the
command line (``python -m ai search connect4 --level hard``) and the benchmarks all ask
this way. The app's default level and the benchmark's "a move at the default level" are the
same preset, ``DEFAULT_LEVEL``.

The presets run the fast Connect-4 loop (``fast=True``): the same values as the course's
alpha-beta, far fewer nodes. Every preset has a depth, a node budget and a time budget. The
depth and the node budgets decide the move: they are counts, so the same position gives the
same move whatever the machine, its load and what the worker did before (a shared link shows
the same reply). The time budget only guarantees that no request pins a worker: it is set
well above what the node budget takes (the default level, ``hard``, needs at most ~51,000
nodes, ~60 ms here, on 309 positions of self-play, for a budget of 300,000 nodes and 1 s).

**A ladder a player can climb.** Each level blunders (worsens the exact outcome: a won
position to a draw or a loss, a drawn one to a loss) in a smaller share of the positions
where a blunder is possible, about 40 / 28 / 18 / 10 / 4 / 0 % from beginner to perfect
(``bench/bench_levels.py``, with intervals and tests, and in games against each other).
Beginner, easy and medium are the course's searches, deeper and with a better heuristic
each. ``hard`` and ``expert`` first ask the exact solver within a small count of nodes
(``exact_nodes``, ``budgeted_exact``: 300 and 7,000): where it proves the value within that
(near the end of the game, or a few plies before the opening book's positions of 12
stones), they play its move and the tree panel says that the solver chose it; elsewhere
they play their search (nine plies, threats). The budget is the dose that sets the level's
strength: a count, never the clock, and from an empty table each time.

``perfect`` is not a search to a depth but the exact solver (``ai.perfect``): it keeps the
game-theoretic value, from the first move (the opening book and the compiled solver make that
fast on 7x6; within 3 s, else it plays ``hard``'s move and says the result is incomplete).
"""
from __future__ import annotations

import collections
import time
from dataclasses import dataclass, field

from .connect4 import Connect4

from .engine import search, with_tree
from .heuristics import make_heuristic
from .perfect import ALGORITHM as PERFECT_ALGORITHM
from .perfect import perfect_play, pons_to_value
from .scores import SearchResult, SearchStats


@dataclass(frozen=True)
class Level:
    name: str
    algorithm: str            # a key of ai.search.ALGORITHMS
    depth: int                # iterative deepening: the deepest
    time_limit: float         # seconds
    heuristics: dict = field(default_factory=dict)   # game name -> heuristic name
    max_nodes: int = 400_000  # nodes: with the depth, what decides the move
    order: str = "center"     # how the course's algorithms try moves (ai.search.move_orderer)
    window: str = "infinite"  # alpha-beta's first window: "infinite" or the course's ±maxScore
    fast: bool = True         # the fast Connect-4 loop where it applies (ai.engine)
    heuristic_options: dict = field(default_factory=dict)   # e.g. {"alpha": 0.3}: seed 004's
    #                           adjusted heuristic's weight (ai.heuristics.make_heuristic)
    exact_nodes: int = 0      # Connect-4: the exact solver first, within this many nodes (0: no;
    #                           budgeted_exact: from an empty table, no clock)

    @property
    def load_independent(self) -> bool:
        """Whether counts, not the clock, decide the move (see the module's text): every
        level but ``perfect``, whose clock only matters when its 3 s run out."""
        return not self.exact

    @property
    def exact(self) -> bool:
        """The perfect level: the exact solver, not a depth-limited search (no tree to draw)."""
        return self.algorithm == PERFECT_ALGORITHM

    def options(self, game) -> dict:
        """``ai.engine.search``'s arguments for this level on ``game``."""
        return dict(depth=self.depth, fast=self.fast, time_limit=self.time_limit,
                    max_nodes=self.max_nodes, order=self.order, window=self.window,
                    heuristic=make_heuristic(game, self.heuristics.get(game.name),
                                             **self.heuristic_options))

    def play(self, game, state=None, **overrides) -> SearchResult:
        """The level's move in ``state`` (``overrides`` replace any search argument; with
        ``record=True``, the result carries the tree of that same search: ``ai.engine``;
        the perfect level has no tree, and plays ``hard``'s move if its budget runs out)."""
        if self.exact:
            options = {"time_limit": self.time_limit, "max_nodes": self.max_nodes, **overrides}
            return perfect_play(game, state, time_limit=options["time_limit"],
                                max_nodes=options["max_nodes"], fallback=LEVELS["hard"])
        options = {**self.options(game), **overrides}
        state = game.initial_state() if state is None else state
        if self.exact_nodes and isinstance(game, Connect4) and "depth" not in overrides:
            proven = budgeted_exact(game, state, self.exact_nodes)
            if proven is not None:
                return proven
        return search(self.algorithm, game, state, **options)

    def with_tree(self, game, state, result: SearchResult, **overrides) -> SearchResult:
        """``result``, this level's search of ``state`` made before (``overrides`` as then),
        with its tree (``ai.engine.with_tree``: the replay alone); a move the exact solver
        chose has no tree."""
        if result.algorithm == PERFECT_ALGORITHM:
            return result
        return with_tree(self.algorithm, game, state, result,
                         **{**self.options(game), **overrides})


# Solvers with a small table (1 MB), lent to one budgeted solve at a time and emptied before
# each: a budgeted solve then proves the same positions whatever the worker solved before.
_BUDGET_SLOTS = 131_101          # the first prime above 2**17: 7x6 keys fit the kernel (fits)
_idle_solvers: dict[tuple, collections.deque] = collections.defaultdict(collections.deque)


def budgeted_exact(game: Connect4, state, max_nodes: int) -> SearchResult | None:
    """The exact solver's move in ``state`` if it proves the value within ``max_nodes``
    nodes (the opening book counts as proof), else None. From an empty table every time and
    with no clock: the same position always gives the same answer, on any machine."""
    from . import opening_book
    from .solver_fast import FastSolver

    if game.is_terminal(state):
        return None
    size = (game.width, game.height)
    try:
        solver = _idle_solvers[size].pop()
    except IndexError:
        solver = FastSolver(*size, book=opening_book.shared(), table_slots=_BUDGET_SLOTS)
    try:
        solver.reset()
        start = time.perf_counter()
        r = solver.solve_bitboard(state.current, state.mask, state.moves, max_nodes=max_nodes)
    finally:
        _idle_solvers[size].append(solver)
    if not r.complete:
        return None
    value = pons_to_value(r.score, state.moves, game.cells)
    stats = SearchStats(nodes=r.nodes, elapsed=time.perf_counter() - start)
    return SearchResult(r.best_move, value, (r.best_move,), stats, PERFECT_ALGORITHM, None,
                        root_values={r.best_move: value})


# The ladder (bench/bench_levels.py, on positions where a blunder is possible: the share of
# them where the level worsens the exact outcome): beginner ~38%, easy ~29%, medium ~18%,
# hard ~10%, expert ~4%, perfect 0.
LEVELS = {
    # one ply, the course's cell values: sees a win in one, not the reply to its move
    "beginner": Level("beginner", "alphabeta", 1, 0.5, {"connect4": "cells", "nim": "course"},
                      10_000),
    # two plies, the course's cell values: sees the opponent's reply
    "easy": Level("easy", "alphabeta", 2, 0.5, {"connect4": "cells", "nim": "course"}, 10_000),
    # five plies, open windows and threats
    "medium": Level("medium", "alphabeta-tt", 5, 1.0, {"connect4": "threats", "nim": "course"},
                    200_000),
    # the exact solver within 300 nodes (the last moves, a position next to the opening book),
    # else nine plies with threats: the default level
    "hard": Level("hard", "iterative", 9, 1.0, {"connect4": "threats", "nim": "exact"}, 300_000,
                  exact_nodes=300),
    # the exact solver within 7,000 nodes, else hard's search: strong, still beatable
    "expert": Level("expert", "iterative", 9, 1.0, {"connect4": "threats", "nim": "exact"},
                    300_000, exact_nodes=7_000),
    # The exact solver (ai.perfect): no depth; 3 s and 20 million nodes at most. Over whole
    # games a reply takes 0.12 ms at the median, 37 ms at p95, 0.8 s at worst, on a loaded
    # machine (positions just past the book are the slowest: bench/bench_levels.py).
    "perfect": Level("perfect", PERFECT_ALGORITHM, 0, 3.0, {}, 20_000_000),
}
DEFAULT_LEVEL = "hard"
