"""Connect-4's own web pages and the hooks the shared pages ask it for (``GameSpec.hook``).

Its pages: the exact outcome of every column under the board and the truth beside the
search in the tree panel (``hints``, ``truth``: 7x6, the solver), the position editor
(``editor``: ``/connect4/edit``), the heuristics opened up (``inspector``:
``/connect4/heuristic``), the heuristic workshop (``workshop``: ``/connect4/workshop``), its part of the
tournament's pages (``tournament``: the hook ``tournament_game``, for ``/connect4/tournament``
and a class's, live, ``web.tournament``), the transposition
table made visible (``table_page``: ``/connect4/table``) and the workshop in class mode
(``class_workshop``: "build your heuristic" on every phone, the class's heuristics on the
teacher's bar; the hook ``class_activity``). ``init_app`` registers them, called by
``app.create_app`` for the games table's entry (``GameSpec.web``).
"""
from __future__ import annotations

from flask import Flask
from flask_babel import gettext
from flask_babel import lazy_gettext as _l

from ai.games.connect4.heuristic import HEURISTICS as CONNECT4_HEURISTICS, AdjustedCells
from ai.games.connect4.position import columns_of

from ..params import LABELS
from . import class_workshop, editor, hints, inspector, table_page, tournament, workshop
from .class_workshop import class_activity  # noqa: F401  (a hook: its class activity)
from .hints import exact_run  # noqa: F401  (a hook: the comparison page's exact solver)
from .tournament import tournament_game  # noqa: F401  (a hook: its tournaments' part)
from .truth import truth_for

# its pages' own parameters, as they are labelled in messages
LABELS.update({"side": _l("From the side of"), "rest": _l("The other columns")})


def init_app(app: Flask) -> None:
    app.register_blueprint(editor.bp)
    app.register_blueprint(inspector.bp)
    app.register_blueprint(table_page.bp)
    app.register_blueprint(workshop.bp)
    tournament.init_app(app)       # the workshop's "enter this heuristic in a tournament"
    class_workshop.init_app(app)   # the workshop in class mode: /class/<code>/heuristic...
    hints.init_app(app)          # /connect4/hints, the solved table, the solver warmed up


def page_context(g, panel) -> dict:
    """What its page adds to the shared game page: the truth beside the search."""
    return {"truth": truth_for(panel)}


def last_cell(g):
    """(col, row) of the last disc shown: its column's discs so far, less one; None at the
    start."""
    col = g.last_move
    return None if col is None else (col, g.moves[:g.at].count(col) - 1)


def board_rows(g) -> list:
    """The board its page draws (``boards.html``), top row first: (the row's number from 1 at
    the bottom, [(0, 1 or None: whose disc, whether it is in the winning four, whether it is
    the last disc) for each column])."""
    rules, state = g.rules, g.state
    win, last = rules.winning_cells(state), last_cell(g)
    rows = []
    for r, cells in zip(range(rules.height, 0, -1), rules.rows(state)):
        row = []
        for c, p in enumerate(cells):
            if p is None:
                row.append((None, False, False))
            else:
                row.append((p, (c, r - 1) in win, (c, r - 1) == last))
        rows.append((r, row))
    return rows


def zobrist_words(g, z) -> str:
    return gettext("XOR number of %(player)s in column %(col)s, row %(row)s",
                   player=g.settings.player_name(z.player), col=z.col + 1, row=z.row + 1)


def term_names() -> dict:
    """The terms of its heuristics, as a leaf's tooltip names them."""
    return {"windows1": gettext("windows of 1 stone"), "windows2": gettext("of 2 stones"),
            "windows3": gettext("of 3 stones (threats)"),
            "centre": gettext("stones in the centre column"),
            "cells": gettext("cell values under the stones"),
            # the named terms of a weighted heuristic (ai.games.connect4.terms)
            **{name: str(words) for name, words in workshop.TERM_LABELS.items()
               if name != "cells"}}


def inspect_url(rules, state, heuristic, side: int) -> str:
    """The inspector on a leaf's position, with the search's heuristic (and α), from ``side``;
    None for weighted terms (the workshop's, which the inspector does not open up)."""
    if heuristic.name not in CONNECT4_HEURISTICS:
        return None
    return inspector.inspect_url(columns_of(rules, state), rules.width, rules.height,
                                 heur=heuristic.name, side=side,
                                 alpha=getattr(heuristic, "alpha", AdjustedCells.DEFAULT_ALPHA))
