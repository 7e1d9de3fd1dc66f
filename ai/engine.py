"""The one way to run a search by name: ``search("iterative", game, state, 9, ...)``. The
levels (``ai.levels``), and through them the web app, the command line and the benchmarks,
all come here.

Which engine runs is chosen here, explicitly:

- by default the course's algorithms (``ai.search``): minimax and alpha-beta over the game
  protocol, with the seeds' node counts ("9 sommets sur 28");
- with ``fast=True``, on Connect-4, the specialised loop of ``ai.fast_connect4`` wherever it
  returns the same values (``fast_connect4.supports``): the same value, a best move, far
  fewer nodes (it orders moves by threats and settles forced positions at once).
"""
from __future__ import annotations

from functools import partial

from . import fast_connect4
from . import search as textbook
from .scores import SearchResult

ALGORITHMS = tuple(textbook.ALGORITHMS)   # "minimax", "alphabeta", "alphabeta-tt", "iterative"

# The same algorithms with the fast Connect-4 loop as their alpha-beta.
_FAST = {
    "alphabeta": fast_connect4.alphabeta,
    "alphabeta-tt": partial(textbook.alphabeta_tt, search=fast_connect4.alphabeta),
    "iterative": partial(textbook.iterative_deepening, search=fast_connect4.alphabeta),
}


def search(algorithm: str, game, state=None, depth=None, *, fast: bool = False,
           **options) -> SearchResult:
    """Run ``algorithm`` on ``state`` (default: the start of ``game``).

    Args:
        algorithm: one of ``ALGORITHMS``.
        depth: plies to look ahead (iterative deepening: the deepest); None searches to the
            end of the game (iterative deepening: until a budget stops it).
        fast: on Connect-4, run the fast loop where it gives the same values (see above).
        options: the search's own keyword arguments (``heuristic``, ``order``, ``window``,
            ``quick_wins``, ``record``, ``max_nodes``, ``time_limit``, ``tie_break``,
            ``seed``, ...; see ``ai.search``). Minimax has no window: ``window`` is ignored
            there.
    Raises:
        ValueError: an unknown algorithm or option, a bad depth or budget.
    """
    if algorithm not in ALGORITHMS:
        raise ValueError(f"unknown algorithm {algorithm!r}: choose one of {', '.join(ALGORITHMS)}")
    if algorithm == "minimax":
        options.pop("window", None)
    run = textbook.ALGORITHMS[algorithm]
    if fast and algorithm in _FAST and fast_connect4.supports(game, **options):
        run = _FAST[algorithm]
    return run(game, state, depth, **options)
