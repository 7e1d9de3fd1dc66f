"""Difficulty presets: which search, how deep, with which heuristic, within what budget.
The app's default level and the benchmark's "a move at the default level" are the same
preset, ``DEFAULT_LEVEL``.

Every preset has a depth *and* a time budget: the depth makes play repeatable (the same
position gives the same move on any machine fast enough), the time budget guarantees that
no request pins a worker.
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

    def play(self, game, state, **overrides) -> SearchResult:
        """The level's move in ``state`` (``overrides`` replace any search argument)."""
        kwargs = dict(heuristic=make_heuristic(game, self.heuristics.get(game.name)),
                      order="center", time_limit=self.time_limit)
        if self.algorithm == "iterative":
            kwargs["max_depth"] = self.depth
        else:
            kwargs["depth"] = self.depth
        kwargs.update(overrides)
        return search(self.algorithm, game, state, **kwargs)


LEVELS = {
    "beginner": Level("beginner", "alphabeta", 1, 0.5, {"connect4": "cells", "nim": "course"}),
    "easy": Level("easy", "alphabeta", 2, 0.5, {"connect4": "cells", "nim": "course"}),
    "medium": Level("medium", "alphabeta-tt", 5, 0.5, {"connect4": "threats", "nim": "course"}),
    "hard": Level("hard", "iterative", 9, 0.25, {"connect4": "threats", "nim": "exact"}),
    "expert": Level("expert", "iterative", 14, 1.0, {"connect4": "threats", "nim": "exact"}),
}
DEFAULT_LEVEL = "hard"
