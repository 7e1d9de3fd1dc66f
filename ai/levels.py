"""Difficulty presets: which search, how deep, with which heuristic, within what budget.
The app's default level and the benchmark's "a move at the default level" are the same
preset, ``DEFAULT_LEVEL``.

Every preset has a depth, a node budget and a time budget. The depth and the node budget
decide the move: both are counts, so the same position gives the same move whatever the
machine and its load (a shared link shows the same reply). The time budget only guarantees
that no request pins a worker: it is set well above what the node budget takes (the default
level, ``hard``, needs at most ~51,000 nodes, ~60 ms here, on 309 positions of self-play, for a
budget of 300,000 nodes and 1 s), except for ``expert``, which searches as deep as 1 s allows:
its move may depend on the server's load.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from .heuristics import make_heuristic
from .search import SearchResult, search


@dataclass(frozen=True)
class Level:
    name: str
    algorithm: str            # a key of ai.search.ALGORITHMS
    depth: int
    time_limit: float         # seconds
    heuristics: dict = field(default_factory=dict)   # game name -> heuristic name
    max_nodes: int = 400_000  # nodes: with the depth, what decides the move

    @property
    def load_independent(self) -> bool:
        """Whether the node budget, not the clock, stops the search (see the module's text)."""
        return self.name != "expert"

    def play(self, game, state, **overrides) -> SearchResult:
        """The level's move in ``state`` (``overrides`` replace any search argument)."""
        kwargs = dict(heuristic=make_heuristic(game, self.heuristics.get(game.name)),
                      order="center", time_limit=self.time_limit, max_nodes=self.max_nodes)
        if self.algorithm == "iterative":
            kwargs["max_depth"] = self.depth
        else:
            kwargs["depth"] = self.depth
        kwargs.update(overrides)
        return search(self.algorithm, game, state, **kwargs)


LEVELS = {
    "beginner": Level("beginner", "alphabeta", 1, 0.5, {"connect4": "cells", "nim": "course"},
                      10_000),
    "easy": Level("easy", "alphabeta", 2, 0.5, {"connect4": "cells", "nim": "course"}, 10_000),
    "medium": Level("medium", "alphabeta-tt", 5, 1.0, {"connect4": "threats", "nim": "course"},
                    200_000),
    "hard": Level("hard", "iterative", 9, 1.0, {"connect4": "threats", "nim": "exact"}, 300_000),
    "expert": Level("expert", "iterative", 14, 1.0, {"connect4": "threats", "nim": "exact"},
                    400_000),
}
DEFAULT_LEVEL = "hard"
