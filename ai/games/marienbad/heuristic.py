"""Marienbad's evaluation functions: the course's kind of estimate (fewer matches left is
better for the first player, ``maxScore - remaining/total``, as seed 003 scores the matches
game) and the exact one from the theory, the nim-sum (``ai.games.marienbad.grundy``)."""
from __future__ import annotations

from ai.course.scores import HEURISTIC_MAX
from ai.heuristics import LIMIT as _LIMIT
from ai.messages import N_

from .grundy import mover_loses


class MatchesLeft:
    """Seed 003's estimate on the matches game, carried over: ``+maxScore - remaining/total``
    for J0 who starts, its opposite for J1. It sees nothing of the heaps' shapes: a weak
    estimate, which the lower levels play with."""

    name = "course"
    label = N_("maxScore − remaining/total (course, depth-limited MIN-MAX)")

    def __init__(self, game):
        self.game = game
        self.total = max(1, sum(game.heaps))

    def __call__(self, state, player):
        v = HEURISTIC_MAX - sum(state.heaps) / self.total
        return v if player == 0 else -v


class Grundy:
    """The theory: the player to move loses when the nim-sum is 0 (misère: the same unless
    every heap is at most 1, then when an odd number of single matches is left). Scored
    +-(HEURISTIC_MAX - 1): certain, yet kept under the proven-win scores."""

    name = "grundy"
    label = N_("exact (Sprague-Grundy: nim-sum 0 loses)")

    def __init__(self, game):
        self.game = game

    def __call__(self, state, player):
        v = -_LIMIT if mover_loses(state.heaps, self.game.variant) else _LIMIT
        return v if player == state.to_move else -v


HEURISTICS = {h.name: h for h in (MatchesLeft, Grundy)}   # the first: the default
