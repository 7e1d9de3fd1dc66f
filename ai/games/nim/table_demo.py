"""Seed 004's table keyed by window, shown failing on the matches game (the course's own
example): ``ai.teach.table_view.window_table_alphabeta`` against minimax and our table."""
from __future__ import annotations

from ai.course.search import alphabeta_tt, minimax
from ai.heuristics import make_heuristic
from ai.teach.table_view import window_table_alphabeta

from .rules import Nim


def window_table_demonstration(n: int = 8, k: int = 3, depth: int = 3) -> dict:
    """The game of ``n`` matches (take 1 to ``k``), the course's evaluation, at ``depth``: the
    value minimax gives, the one seed 004's (alpha, beta, depth) table gives, and the one our
    table (value, bound, depth: ``TranspositionTable``) gives."""
    game = Nim(n, k)
    heuristic = make_heuristic(game, "course")
    state = game.initial_state()
    exact = minimax(game, state, depth, heuristic=heuristic, quick_wins=False).value
    ours = alphabeta_tt(game, state, depth, heuristic=heuristic, quick_wins=False).value
    return {"n": n, "k": k, "depth": depth, "minimax": exact, "ours": ours,
            "window": window_table_alphabeta(game, state, depth, heuristic)}
