"""Tic-tac-toe's hooks for the shared pages (``GameSpec.hook``): the game solved as a worker
starts, the names of its heuristics' terms in a leaf's tooltip, and the comparison page's exact
row (the game solved whole, ``ai.games.tictactoe.solver``: a look-up, no search), and its part
of the tournament's pages (``tournament``: ``/tictactoe/tournament``, ``web.tournament``). Its
page, its boards and the truth beside the search are templates (``templates/games/tictactoe/``);
it has no page of its own."""
from __future__ import annotations

import time

from flask import Flask
from flask_babel import gettext

from ai.games.tictactoe.course_figures import whole_tree
from ai.games.tictactoe.rules import TicTacToe
from ai.games.tictactoe.solver import exact_play
from ai.games.tictactoe.terms import TERMS

from ..connect4.hints import ExactRun
from .tournament import tournament_game  # noqa: F401  (a hook: its tournaments' part)


def init_app(app: Flask) -> None:
    """Solve the game and count the course card's figures once, as the worker starts, so that
    no page waits for them (``SOLVER_WARM_UP``, as Connect-4's solver); under gunicorn the
    master has counted them before forking (the rules' ``prepare``), so this is a look-up."""
    if app.config.get("SOLVER_WARM_UP", True):
        whole_tree(TicTacToe())


def term_names() -> dict:
    """The terms of its heuristics (``ai.games.tictactoe.heuristic``), as a leaf's tooltip
    names them: "open lines 6 − 4 (×1)"; and those of a weighted one
    (``ai.games.tictactoe.terms``: a tournament's entrant, a custom level's ``heur``)."""
    return {**{name: gettext(words) for name, words in TERMS},
            "open_lines": gettext("open lines"), "cells": gettext("cell values under the marks")}


def exact_run(g) -> ExactRun | None:
    """The comparison page's last row: the solved game's move and value in the position shown
    (None when the game is over)."""
    if g.over:
        return None
    start = time.perf_counter()
    r = exact_play(g.rules, g.state)
    plies = r.plies_to_end
    kind = "draw" if r.proven is None else "win" if r.proven > 0 else "loss"
    # "win in N moves": the winner's moves until its line, this one included
    moves = 0 if plies is None else (plies + 1) // 2 if kind == "win" else plies // 2
    return ExactRun(g.rules.format_move(r.move), r.value, kind, moves, r.stats.nodes,
                    (time.perf_counter() - start) * 1000, 0.0)
