"""Tic-tac-toe ("le morpion"): its rules (``rules``), its evaluation functions
(``heuristic``) and the game solved once (``solver``)."""
from .rules import TicTacToe, TicTacToeState

__all__ = ["TicTacToe", "TicTacToeState"]
