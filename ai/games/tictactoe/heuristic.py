"""Tic-tac-toe's evaluation functions (fonctions d'évaluation), in the course's style: a score
of a position that is not over, from ``player``'s side, strictly inside the heuristic bounds
(``ai.scores.HEURISTIC_MAX``) so that a proven win always outranks it.

- ``lines`` (the default): the open lines. A line (row, column or diagonal) is *open* for a
  player when the opponent has no mark on it: the player could still make three there.
  The value is my open lines minus the opponent's, the classic evaluation of tic-tac-toe in
  the textbooks (Nilsson's ``e(p)``). On the empty board it is 8 - 8 = 0; X in the centre
  scores 8 - 4 = +4 for X, in a corner 8 - 5 = +3, on an edge 8 - 6 = +2.
- ``cells``: seed 000's "cotation" of Connect-4 brought to 3x3: each cell is worth the number
  of lines of three through it (centre 4, corners 3, edges 2), and the value is the sum over
  my marks minus the sum over the opponent's ("somme des cotations des cases occupées par
  les pions de J0 moins ... J1")::

      3 2 3
      2 4 2
      3 2 3
"""
from __future__ import annotations

from ai.messages import N_
from .board import CELLS, LINES

# Each cell's number of lines (seed 000's cotation on 3x3).
CELL_VALUES = tuple(sum(1 for line in LINES if line >> i & 1) for i in range(CELLS))


class OpenLines:
    """My open lines minus the opponent's (see the module's text)."""

    name = "lines"
    label = N_("open lines (mine − the opponent's)")

    def __init__(self, game):
        self.game = game

    def __repr__(self):
        return f"<heuristic {self.name} tictactoe>"

    @staticmethod
    def open_lines(theirs: int) -> int:
        """How many lines hold none of ``theirs``: lines still open to the other player."""
        return sum(1 for line in LINES if not theirs & line)

    def __call__(self, state, player):
        mine, theirs = (state.x, state.o) if player == 0 else (state.o, state.x)
        return self.open_lines(theirs) - self.open_lines(mine)

    def terms(self, state, player) -> list[tuple[str, int, int, int]]:
        """(what, weight, player's count, opponent's count): the value is their difference."""
        mine, theirs = (state.x, state.o) if player == 0 else (state.o, state.x)
        return [("open_lines", 1, self.open_lines(theirs), self.open_lines(mine))]


class CellValues:
    """Seed 000's cell values on 3x3: the sum of my cells' values minus the opponent's."""

    name = "cells"
    label = N_("cell values (course, minmax chapter)")

    def __init__(self, game):
        self.game = game

    def __repr__(self):
        return f"<heuristic {self.name} tictactoe>"

    @staticmethod
    def total(stones: int) -> int:
        return sum(v for i, v in enumerate(CELL_VALUES) if stones >> i & 1)

    def __call__(self, state, player):
        mine, theirs = (state.x, state.o) if player == 0 else (state.o, state.x)
        return self.total(mine) - self.total(theirs)

    def terms(self, state, player) -> list[tuple[str, int, int, int]]:
        mine, theirs = (state.x, state.o) if player == 0 else (state.o, state.x)
        return [("cells", 1, self.total(mine), self.total(theirs))]


HEURISTICS = {h.name: h for h in (OpenLines, CellValues)}

# What each level evaluates with where its depth stops (``ai.levels``: the depths are the
# shared presets'). Every level is perfect or weaker on a game this small; checked over every
# reply an opponent can make (tests/test_tictactoe.py):
# - beginner (alpha-beta, 1 ply): takes a win it sees, else the cell that leaves it the most
#   open lines; it does not look at the opponent's reply, so it misses blocks: beatable.
# - easy (2 plies): blocks a line of two, but a fork (two threats at once) catches it:
#   beatable (X 1, O 5, X 8: easy answers 3, then X 7 threatens 4 and 9).
# - medium (alpha-beta with the table, 5 plies): sees forks coming; never loses.
# - hard and expert (iterative deepening to 9 plies: the whole game): the exact values,
#   with a tree to show; never lose.
# - perfect: the solved game (``solver``): no search, no tree; never loses, wins as fast as
#   it can, ties broken centre first.
LEVEL_HEURISTICS = {"beginner": "lines", "easy": "lines", "medium": "lines", "hard": "lines",
                    "expert": "lines"}
