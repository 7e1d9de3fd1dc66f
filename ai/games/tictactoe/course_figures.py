"""The course's figures on tic-tac-toe: the whole game tree, and what alpha-beta and a
transposition table save on it, counted by the app's own algorithms (``ai.search``), once per
process.

A French notebook counts 549,946 nodes for minimax from the empty board, "about 18,000" with
alpha-beta and "about 3,000" with a transposition table; the last two depend on the order in
which the moves are tried, so both orders are given: the cells 1 to 9 in turn (the natural
order), and the centre first, then the corners, then the edges. The course's scores are used
(a win +maxScore, a loss -maxScore, flat: seed 003), as the notebook does.

The rules' ``prepare`` counts these figures, so this module never imports the rules: it is
handed them (``game``), as Connect-4's ``compiled_search.warm_up`` is.
"""
from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from ai.course.search import alphabeta, alphabeta_tt
from ai.saved import AI, saved
from .board import CELLS
from .solver import facts


#: What the counts depend on: the course's search and the game's own code.
SOURCES = [*Path(__file__).parent.glob("*.py"), *(AI / "course").glob("*.py"), AI / "engine.py"]


@lru_cache(maxsize=1)
def whole_tree(game) -> dict:
    """The empty board's numbers (``game``: the rules, ``TicTacToe()``): ``nodes`` (the whole tree, which minimax visits node for
    node), ``value`` (0: a draw), ``games``, ``positions`` and ``positions_up_to_symmetry``,
    and the nodes alpha-beta visits, without and with a table, cells tried in the natural
    order and centre first: ``alphabeta``, ``alphabeta_tt``, ``alphabeta_centre``,
    ``alphabeta_tt_centre``. Counted once per version of the code (~1 s of CPU), saved, and
    read back by the next processes (``ai.saved``)."""
    return saved("tictactoe-whole-tree", SOURCES, lambda: count_whole_tree(game))


def count_whole_tree(game) -> dict:
    """``whole_tree``'s numbers, counted now on ``game`` (the rules, ``TicTacToe()``)."""
    out = dict(facts())
    for suffix, order in (("", "natural"), ("_centre", "center")):
        ab = alphabeta(game, order=order, quick_wins=False)
        # a table entry is kept with the depth left below its node: search to the end (9)
        tt = alphabeta_tt(game, None, CELLS, order=order, quick_wins=False)
        if ab.value != out["value"] or tt.value != out["value"]:
            raise RuntimeError("alpha-beta disagrees with the solved game")
        out["alphabeta" + suffix] = ab.stats.nodes
        out["alphabeta_tt" + suffix] = tt.stats.nodes
        out["tt_hits" + suffix] = tt.stats.tt_hits
    return out
