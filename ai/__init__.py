"""minimax-lab's search engine, plain Python (nothing here imports Flask):

- ``ai.course``: the course's algorithms, naming no game (the game protocol, minimax,
  alpha-beta, the transposition table, the search's record and result);
- ``ai.teach``: the views of a search (the tree, the table, the comparison, the growth, the
  exercises);
- ``ai.games.<game>``: each game's own folder (rules, heuristics, exact play, ...);
- ``ai.engine``, ``ai.levels``, ``ai.perfect``, ``ai.heuristics``: how a move is asked for,
  for any game, through the hooks its rules offer.

    >>> from ai import Nim, minimax
    >>> minimax(Nim(5)).move        # seed 003: "il lui suffit de retirer 1 allumette"
    1

The names below are the package's face, for a reader's first line (``from ai import LEVELS,
Connect4, Nim, minimax``).
"""
import os

# numpy's BLAS (OpenBLAS) starts a thread per core for a solve as small as the rating's
# (``ai.teach.standings``: 200 x 200 at most), and they spin against the searches beside them:
# 60-770 ms a fit on this 2-core machine under load, 10 ms on one thread. Set before numpy
# loads (the compiled searches import it); a value set outside wins.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

from .course.game import Game, play  # noqa: E402
from .course.scores import MAX_SCORE, SearchResult  # noqa: E402
from .course.search import (ALGORITHMS, TranspositionTable, alphabeta, alphabeta_tt,  # noqa: E402
                            iterative_deepening, minimax)
from .games.connect4 import Connect4  # noqa: E402
from .games.connect4.heuristic import cell_values  # noqa: E402
from .games.nim import Nim  # noqa: E402
from .heuristics import make_heuristic  # noqa: E402
from .levels import DEFAULT_LEVEL, LEVELS  # noqa: E402
from .teach.exercise_tree import ExerciseTree, parse_tree  # noqa: E402

# ``search(name, ...)`` is ``ai.engine.search``: re-exported here it would hide ``ai.course.search``.

__all__ = [
    "ALGORITHMS", "Connect4", "DEFAULT_LEVEL", "ExerciseTree", "Game", "LEVELS", "MAX_SCORE",
    "Nim", "SearchResult", "TranspositionTable", "alphabeta", "alphabeta_tt", "cell_values",
    "iterative_deepening", "make_heuristic", "minimax", "parse_tree", "play",
]
