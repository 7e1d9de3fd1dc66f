"""Nim's evaluation functions: seed 003's ``maxScore - remaining/total`` and the exact
evaluation from the theory of the game (``ai.heuristics`` says what a heuristic is)."""
from __future__ import annotations

from ai.course.scores import HEURISTIC_MAX
from ai.heuristics import LIMIT as _LIMIT
from ai.messages import N_


class NimCourse:
    """Seed 003: ``+maxScore - (remaining matches / total matches)``, the score of the
    maximiser J0 who starts ("associer à chaque feuille le score du joueur maximiseur"), and
    its opposite for J1. It mostly says "fewer matches left is better for J0": a weak
    estimate, which is the course's point. maxScore here is the heuristic's ceiling
    ``HEURISTIC_MAX``, which keeps it below every win score."""

    name = "course"
    label = N_("maxScore − remaining/total (course, depth-limited MIN-MAX)")

    def __init__(self, game: Nim):
        self.game = game

    def __call__(self, state, player):
        v = HEURISTIC_MAX - state.remaining / self.game.n
        return v if player == 0 else -v


class NimExact:
    """The theory (seed 003, "le jeu des allumettes est un jeu calculable"): the player to move
    loses when the remaining count is a multiple of k+1 (normal) or 1 more than a multiple
    (misere). Scored +-(HEURISTIC_MAX - 1): certain, yet kept under the proven-win scores."""

    name = "exact"
    label = N_("exact (losing positions every k+1)")

    def __init__(self, game: Nim):
        self.game = game

    def __call__(self, state, player):
        mover_loses = self.game.is_losing(state.remaining)
        v = -_LIMIT if mover_loses else _LIMIT
        return v if player == state.to_move else -v


HEURISTICS = {h.name: h for h in (NimCourse, NimExact)}   # the first: the default
