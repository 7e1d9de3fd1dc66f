"""Connect-4's terms as the compiled kernel reads them (``search_kernel``): a board's
constants (``board_constants``), a heuristic's weights as the kernel's array
(``weights_array``), and the kernel's evaluation of the terms for the course's Python search
(``evaluator``).

Both the compiled search (``compiled_search``) and the terms (``terms``: a
``WeightedHeuristic`` evaluates by the kernel where the board fits it) use this module, which
imports neither: the weights are handed in (their ``values`` and ``alpha``), and so is the game
(the rules import the compiled search).
"""
from __future__ import annotations

from functools import lru_cache

import numpy as np

from ai.course.scores import HEURISTIC_MAX, MAX_SCORE, WIN_THRESHOLD, whole

from . import search_kernel as K
from .bitboard import geometry
from .heuristic import Threats, cell_values

__all__ = ["board_constants", "evaluator", "weights_array"]


def board_constants(game, quick: bool) -> np.ndarray:
    """The kernel's constants for one board size and scoring (``search_kernel.G_*``), made
    once per size: the game is handed in (never imported: the rules import the compiled
    search)."""
    key = (game.width, game.height, quick)
    if key not in _GEOS:
        _GEOS[key] = _make_geo(game, quick)
    return _GEOS[key]


_GEOS: dict[tuple[int, int, bool], np.ndarray] = {}


def _make_geo(game, quick: bool) -> np.ndarray:
    width, height = game.width, game.height
    g = geometry(width, height)
    geo = np.zeros(K.GEO_SIZE, dtype=np.int64)
    geo[K.G_W], geo[K.G_H], geo[K.G_H1] = width, height, g.h1
    geo[K.G_BOTTOM], geo[K.G_BOARD], geo[K.G_CELLS], geo[K.G_CEN] = (g.bottom, g.board,
                                                                   g.cells, g.centre)
    geo[K.G_ODD] = g.bottom * sum(1 << r for r in range(0, height, 2))   # 1st, 3rd... rows
    geo[K.G_EVEN] = g.bottom * sum(1 << r for r in range(1, height, 2))
    geo[K.G_QUICK], geo[K.G_MAX], geo[K.G_WT] = int(quick), MAX_SCORE, WIN_THRESHOLD
    geo[K.G_LIMIT] = HEURISTIC_MAX - 1
    for k, (shift, starts) in enumerate(Threats(game).dirs):
        geo[K.G_SHIFT + k], geo[K.G_STARTS + k] = shift, starts
    for i, c in enumerate(g.order):
        geo[K.G_ORDER + i] = c
    for c in range(width):
        geo[K.G_PRI + c] = g.priority[c]
        geo[K.G_BYPRI + g.priority[c]] = c
        geo[K.G_COLMASK + c] = g.colmask[c]
    grid = cell_values(width, height)
    groups: dict[int, int] = {}
    for c in range(width):
        for r in range(height):
            v = grid[height - 1 - r][c]
            groups[v] = groups.get(v, 0) | (1 << (c * g.h1 + r))
    geo[K.G_NGROUPS] = len(groups)
    for i, (v, m) in enumerate(sorted(groups.items())):
        geo[K.G_GROUPS + 2 * i], geo[K.G_GROUPS + 2 * i + 1] = v, m
    geo.flags.writeable = False
    return geo


@lru_cache(maxsize=1024)
def weights_array(weights) -> np.ndarray:
    """The kernel's weights from a ``terms.Weights`` (its ``values``, then ``alpha``), made
    once per weights (a search at depth 2 takes some microseconds: its set-up counts).
    Shared: the kernel never writes them (left writable all the same: a read-only array is
    another type to numba, and would compile the kernel again)."""
    return np.array([float(w) for w in weights.values] + [float(weights.alpha)])


def evaluator(game, weights):
    """``terms.evaluate(game, state, player, weights)`` by the kernel, as
    ``f(state, player)``: the same number to the last bit (the kernel adds the terms in the
    same order), some hundred times faster, for the course's Python search (the trees it
    draws); None for a board the kernel does not fit."""
    if not K.fits(game.width, game.height):
        return None
    geo, w = board_constants(game, False), weights_array(weights)

    def value(state, player):
        p = game.stones(state, player)
        return whole(K.evaluate(p, p ^ state.mask, state.mask, player == 0, geo, w))
    return value
