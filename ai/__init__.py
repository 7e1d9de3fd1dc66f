"""minimax-lab's search engine: games, search algorithms, heuristics, the recorded search
tree and the exact Connect-4 solver. Plain Python: nothing here imports Flask.

    >>> from ai import Nim, minimax
    >>> minimax(Nim(5)).move        # seed 003: "il lui suffit de retirer 1 allumette"
    1
"""
from .connect4 import Connect4
from .exercise_tree import ExerciseTree, parse_tree
from .game import Game, play
from .heuristics import cell_values, make_heuristic
from .levels import DEFAULT_LEVEL, LEVELS
from .nim import Nim
from .scores import MAX_SCORE, SearchResult
from .search import (ALGORITHMS, TranspositionTable, alphabeta, alphabeta_tt,
                     iterative_deepening, minimax)
# ``search(name, ...)`` is ``ai.engine.search``: re-exported here it would hide ``ai.search``.

__all__ = [
    "ALGORITHMS", "Connect4", "DEFAULT_LEVEL", "ExerciseTree", "Game", "LEVELS", "MAX_SCORE",
    "Nim", "SearchResult", "TranspositionTable", "alphabeta", "alphabeta_tt", "cell_values",
    "iterative_deepening", "make_heuristic", "minimax", "parse_tree", "play",
]
