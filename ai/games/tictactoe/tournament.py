"""Tic-tac-toe's part of a tournament of heuristics (``ai.teach.tournament``): the game its
command line and its pages play, and its openings (``openings``, whose text says which).
"""
from __future__ import annotations

from .openings import MAX_OPENINGS, OPENING_PLIES, candidates, openings  # noqa: F401
from .rules import TicTacToe

GAME = TicTacToe()
