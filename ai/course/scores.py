"""What every search engine returns, the score scale it counts in, and what it plays when its
budget stops it (``best_so_far``).

The course scores a won final position ``+maxScore`` and a lost one ``-maxScore`` (seed 003),
and a heuristic strictly between them. Here ``MAX_SCORE = 10_000``, and by default a win found
``p`` plies below the root scores ``MAX_SCORE - p``, so a search prefers a quick win to a slow
one and a slow loss to a quick one (``quick_wins=False`` gives the seeds' flat scores).
Heuristics stay strictly inside ``HEURISTIC_MAX = 1_000``, far below the slowest win, so a
proven win always outranks any estimate.

This module sits under every engine (the textbook ``ai.course.search``, a game's own fast loop)
and every heuristic, and imports none of them: they all speak this scale
and return this ``SearchResult``.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from .record import SearchTree

MAX_SCORE = 10_000
HEURISTIC_MAX = 1_000
WIN_THRESHOLD = MAX_SCORE - 2_000   # |value| >= this: a proven win or loss
INF = float("inf")
EXACT, LOWER, UPPER = 0, 1, 2       # what a transposition-table value is: exact, or a bound
BOUND_NAMES = {EXACT: "exact", LOWER: "lower", UPPER: "upper"}   # as pages and events say them


class SearchAborted(Exception):
    """Raised inside a search when its node or time budget runs out."""


def best_so_far(values: dict, moves) -> tuple:
    """What a search stopped by its budget (``SearchAborted``) plays: ``(move, value)``.

    A stopped search still answers with a legal move, so that a game never waits for a search
    that could not finish. The move is the best of the root moves whose search ended before
    the stop: ``values`` (move -> value, for the side to move, which maximises), in the order
    they ended, which is the search's order. Among equal values the first in that order wins,
    as in a complete search. Its value comes with it. (Minimax gives every settled move its
    exact value. In alpha-beta a move that did not beat the best so far has only a bound, and
    that bound is never above the best.)

    When no root move was settled, nothing is known: the first of ``moves`` is played, in the
    search's order, with the value 0. When there is no move at all, ``(None, 0)``.
    """
    if values:
        move = max(values, key=values.get)      # the first of the largest, in the dict's order
        return move, values[move]
    return (moves[0] if moves else None), 0


@dataclass
class SearchStats:
    nodes: int = 0          # nodes visited (entered), root included: the seeds' count
    leaves: int = 0         # positions scored: game over or depth limit reached
    cutoffs: int = 0        # alpha-beta cuts (each skips the remaining children of a node)
    tt_probes: int = 0      # transposition table look-ups
    tt_hits: int = 0        # look-ups that found an entry usable at this depth
    depth: int = 0          # depth fully searched (iterative deepening: the last finished)
    elapsed: float = 0.0    # seconds

    def as_dict(self):
        return {"nodes": self.nodes, "leaves": self.leaves, "cutoffs": self.cutoffs,
                "tt_probes": self.tt_probes, "tt_hits": self.tt_hits, "depth": self.depth,
                "elapsed_ms": round(self.elapsed * 1000, 3)}


@dataclass(frozen=True)
class SearchResult:
    move: object                 # best move for the player to move (None if no move)
    value: float                 # from the side of the player who searched
    pv: tuple                    # principal variation, starting with ``move``
    stats: SearchStats
    algorithm: str
    depth: int | None            # depth asked for (None: to the end of the game)
    complete: bool = True        # False when a budget stopped the search early
    tree: SearchTree | None = None
    root_values: dict = field(default_factory=dict)  # move -> value (minimax: every move)
    # iterative deepening: (depth, move, value, nodes) of each depth it finished, in order
    iterations: tuple = ()

    def __getattr__(self, name):
        """``root_values`` made when first read, for a result made without them: its dict then
        holds ``_root_values_later``, ``(make, argument)``, and ``make(argument)`` gives the
        dict (a fast search's callers mostly never read them, and making them was a tenth of a
        search at depth 2). Called only for a name the object's dict does not hold."""
        if name == "root_values":
            later = self.__dict__.get("_root_values_later")
            if later is not None:
                values = later[0](later[1])
                object.__setattr__(self, "root_values", values)
                return values
        raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")

    @property
    def proven(self) -> int | None:
        """+1 a forced win, -1 a forced loss (with best play), None if only estimated."""
        if abs(self.value) >= WIN_THRESHOLD:
            return 1 if self.value > 0 else -1
        return None

    @property
    def plies_to_end(self) -> int | None:
        """How many plies until the proven win or loss (quick-win scoring)."""
        return int(MAX_SCORE - abs(self.value)) if self.proven is not None else None


def whole(v):
    """``v`` as an int when it is a whole number (the search's values print as the course's)."""
    return int(v) if float(v).is_integer() else v


def terminal_score(game, state, player: int, ply: int, quick_wins: bool = True) -> float:
    """The value of a final position for ``player``, found ``ply`` plies below the root.
    Exercise trees (``game.leaf_scores``) use their leaf values as they are."""
    u = game.utility(state, player)
    if game.leaf_scores or u == 0:
        return u
    return u * (MAX_SCORE - ply) if quick_wins else u * MAX_SCORE


def check_limits(depth, max_nodes, time_limit) -> None:
    """The preconditions every engine shares: raises ValueError on a depth that is not a
    whole number >= 0 (None: to the end of the game), a node budget that is not a positive
    whole number, or a time budget that is not a positive number of seconds (None: no
    budget)."""
    if depth is not None and (isinstance(depth, bool) or not isinstance(depth, int) or depth < 0):
        raise ValueError(f"depth must be a whole number >= 0 (or None for the whole game), not {depth!r}")
    if max_nodes is not None and (isinstance(max_nodes, bool) or not isinstance(max_nodes, int)
                                  or max_nodes < 1):
        raise ValueError(f"max_nodes must be a positive whole number, not {max_nodes!r}")
    if time_limit is not None and not time_limit > 0:
        raise ValueError(f"time_limit must be a positive number of seconds, not {time_limit!r}")
