"""Tic-tac-toe ("le morpion"): its rules (``rules``, the board's bits in ``board``), its
evaluation functions (``heuristic``), the game solved once (``solver``), the truth beside a
search (``truth``), the course card's counts (``course_figures``) and its command line
(``cli``)."""
from .rules import TicTacToe, TicTacToeState

Rules = TicTacToe
__all__ = ["Rules", "TicTacToe", "TicTacToeState"]
