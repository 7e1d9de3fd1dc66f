"""The perfect player ("parfait"): a move that keeps the game-theoretic value, the quickest win
or the slowest loss, from the first move.

A game says how it plays perfectly through its rules' ``exact_play`` hook (an exact solver, a
game's theory); a game without one is searched by
alpha-beta to the end. Bounded like every level: when the budget runs out before the value is
proven, the ``fallback`` level's move is played and the result says ``complete=False``.
"""
from __future__ import annotations

from .engine import search

ALGORITHM = "exact"


def perfect_play(game, state=None, *, time_limit: float = 1.0, max_nodes: int | None = None,
                 fallback=None, **_search_options):
    """The perfect move in ``state`` (the initial state if None). ``fallback``: the level whose
    move is played when the budget runs out first (a ``Level``; default none: the game's own
    choice). Search options meant for the other levels (depth, record, heuristic...) are
    ignored: there is no depth, and no tree to draw.

    Returns:
        a ``SearchResult`` (``ai.course.scores``) whose ``algorithm`` is ``ALGORITHM`` where the
        game's exact play answered, else alpha-beta's.
    """
    state = game.initial_state() if state is None else state
    exact = game.exact_play(state, time_limit=time_limit, max_nodes=max_nodes, fallback=fallback)
    if exact is not None:
        return exact
    return search("alphabeta", game, state, None, time_limit=time_limit, max_nodes=max_nodes)
