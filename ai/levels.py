"""Difficulty presets: which search, how deep, with which heuristic, within what budget, and
the one way to ask for the AI's move: ``LEVELS[name].play(game, state)``, which runs
``ai.engine.search``. The app (its custom settings too, as a ``Level`` of their own), the
command line (``python -m ai search GAME --level hard``) and the benchmarks all ask
this way. The app's default level and the benchmark's "a move at the default level" are the
same preset, ``DEFAULT_LEVEL``.

The presets run a game's own fast loop where it has one (``fast=True``): the same values as the course's
alpha-beta, far fewer nodes. Every preset has a depth, a node budget and a time budget. The
depth and the node budgets decide the move: they are counts, so the same position gives the
same move whatever the machine, its load and what the worker did before (a shared link shows
the same reply). The time budget only guarantees that no request pins a worker: it is set
well above what the node budget takes (the default level, ``hard``, needs at most ~51,000
nodes, ~60 ms here in pure Python, on 309 positions of self-play, for a budget of 300,000
nodes and 1 s; a game's loop may run compiled, ~10x faster: ``bench/bench_kernel.py``).

**A ladder a player can climb.** Each level blunders (worsens the exact outcome: a won
position to a draw or a loss, a drawn one to a loss) in a smaller share of the positions
where a blunder is possible, about 40 / 28 / 18 / 10 / 4 / 0 % from beginner to perfect
(``bench/bench_levels.py``, with intervals and tests, and in games against each other).
Beginner, easy and medium are the course's searches, deeper and with a better heuristic
each. ``hard`` and ``expert`` first ask the game's exact solver within a small count of
nodes (``exact_nodes``: 300 and 7,000; the rules' ``exact_within`` hook, from an empty table
and without a clock): where it proves the value within that (near the end of the game, or a
few plies before the opening book's positions of 12 stones), they play its move and the tree
panel says that the solver chose it; elsewhere they play their search (nine plies, threats).
That budget is the dose that sets the level's strength.

``perfect`` is not a search to a depth but the exact solver (``ai.perfect``): it keeps the
game-theoretic value, from the first move (the opening book and the compiled solver make that
fast on 7x6; within 3 s, else it plays ``hard``'s move and says the result is incomplete).
"""
from __future__ import annotations

from dataclasses import dataclass, field

from .course.scores import SearchResult
from .engine import search, with_tree
from .heuristics import make_heuristic
from .perfect import ALGORITHM as PERFECT_ALGORITHM
from .perfect import perfect_play


@dataclass(frozen=True)
class Level:
    name: str
    algorithm: str            # a key of ai.course.search.ALGORITHMS
    depth: int                # iterative deepening: the deepest
    time_limit: float         # seconds
    max_nodes: int = 400_000  # nodes: with the depth, what decides the move
    order: str = "center"     # how the course's algorithms try moves (ai.course.search.move_orderer)
    window: str = "infinite"  # alpha-beta's first window: "infinite" or the course's ±maxScore
    fast: bool = True         # the game's fast loop where it applies (ai.engine)
    heuristic_options: dict = field(default_factory=dict)   # e.g. {"alpha": 0.3}: seed 004's
    #                           adjusted heuristic's weight (ai.heuristics.make_heuristic)
    heuristic: str | None = None    # this heuristic (custom settings), else the game's choice
    exact_nodes: int = 0      # the game's exact solver first (its rules' ``exact_within``),
    #                           within this many nodes (0: no)

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
                    heuristic=_heuristic(game, self.heuristic_for(game),
                                         self.heuristic_options))

    def heuristic_for(self, game) -> str | None:
        """The heuristic this level uses on ``game``: its own if set (custom settings), else
        the one the game gives this level (its rules' ``level_heuristics``); None for the
        game's default, or for a game without heuristics."""
        if self.heuristic is not None:
            return self.heuristic
        return game.level_heuristics.get(self.name)

    def play(self, game, state=None, **overrides) -> SearchResult:
        """The level's move in ``state`` (``overrides`` replace any search argument; with
        ``record=True``, the result carries the tree of that same search: ``ai.engine``;
        the perfect level has no tree, and plays ``hard``'s move if its budget runs out)."""
        if self.exact:
            options = {"time_limit": self.time_limit, "max_nodes": self.max_nodes, **overrides}
            return perfect_play(game, state, time_limit=options["time_limit"],
                                max_nodes=options["max_nodes"], fallback=LEVELS["hard"])
        options = {**self.options(game), **overrides}
        if self.exact_nodes and "depth" not in overrides:
            proven = game.exact_within(game.initial_state() if state is None else state,
                                       self.exact_nodes)
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


_HEURISTICS: dict = {}


def _heuristic(game, name, options: dict):
    """``make_heuristic(game, name, **options)``, made once per game object, name and options
    (a heuristic keeps only what it precomputed: one serves every search, in any thread).
    Making one could take longer than a depth-2 search (~18 µs for one with tables)."""
    try:
        key = (id(game), name, tuple(sorted(options.items())))
        kept = _HEURISTICS.get(key)
    except TypeError:                   # options that are no key: made each time
        return make_heuristic(game, name, **options)
    if kept is None or kept[0] is not game:     # (the game kept: its id is not reused)
        if len(_HEURISTICS) >= 256:
            _HEURISTICS.clear()
        kept = _HEURISTICS[key] = (game, make_heuristic(game, name, **options))
    return kept[1]


# The ladder (bench/bench_levels.py, on positions where a blunder is possible: the share of
# them where the level worsens the exact outcome): beginner ~38%, easy ~29%, medium ~18%,
# hard ~9%, expert ~3%, perfect 0. Each game's heuristic: its rules' level_heuristics.
LEVELS = {
    # one ply: sees a win in one, not the reply
    "beginner": Level("beginner", "alphabeta", 1, 0.5, 10_000),
    # two plies: sees the opponent's reply
    "easy": Level("easy", "alphabeta", 2, 0.5, 10_000),
    # five plies (open windows and threats)
    "medium": Level("medium", "alphabeta-tt", 5, 1.0, 200_000),
    # the exact solver within 300 nodes (the last moves, a position a few plies before the
    # opening book), else nine plies with threats: the default level
    "hard": Level("hard", "iterative", 9, 1.0, 300_000, exact_nodes=300),
    # the exact solver within 7,000 nodes, else hard's search: strong, still beatable
    "expert": Level("expert", "iterative", 9, 1.0, 300_000, exact_nodes=7_000),
    # The exact solver (ai.perfect): no depth; 3 s and 20 million nodes at most. Over whole
    # games a reply takes 0.12 ms at the median, 37 ms at p95, 0.8 s at worst, on a loaded
    # machine (positions just past the book are the slowest: bench/bench_levels.py).
    "perfect": Level("perfect", PERFECT_ALGORITHM, 0, 3.0, 20_000_000),
}
DEFAULT_LEVEL = "hard"
