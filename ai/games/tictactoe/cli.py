"""Tic-tac-toe on the command line (``ai.cli`` finds this module by the game's folder): no
settings (the board is 3x3), its whole tree counted through the solved game, and the facts the
course card gives (games, positions, positions up to symmetry)."""
from __future__ import annotations

from .rules import TicTacToe
from .solver import facts

MOVES = "cells 1-9 in reading order (--moves 51)"
EXAMPLES = ("python -m ai count tictactoe --enumerate --json",
            "python -m ai search tictactoe --moves 51 --full --record",
            'python -m ai tournament tictactoe --entrant "Ada:lines=1,open2=4" --entrant '
            '"Bob:center=2,corners=1" --level beginner --depth 2 --json')


def from_args(args) -> TicTacToe:
    return TicTacToe()


def whole_tree(game: TicTacToe, state) -> int:
    """Nodes of the whole game tree from ``state`` (root and leaves): 549,946 from the start."""
    return game.tree_size(state)


def count_details(game: TicTacToe, state) -> dict:
    """From the empty board: the finished games (the tree's leaves) by result, the positions
    play can reach and how many remain up to the board's symmetries."""
    if state != game.initial_state():
        return {}
    f = facts()
    return {k: f[k] for k in ("games", "x_wins", "o_wins", "draws", "positions",
                              "positions_up_to_symmetry")}
