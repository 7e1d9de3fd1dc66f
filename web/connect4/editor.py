"""Blueprint ``editor``: ``/connect4/edit``, a Connect-4 position set up by hand.

The position is in the link (``board=12-2--1---``: each column bottom up, 1 yellow, 2 red;
``ai.games.connect4.position``), so it is shared like any game. Each column has buttons to add a yellow or
a red stone or take the top one off: stones always fall, nothing floats. The page checks the
counts and finds a game that reaches the position, which is its "start a game from here"
link, and opens up seed 000's heuristic on it: every cell value under each player's stones.
"""
from __future__ import annotations

from flask import Blueprint, request, url_for

from ai.games.connect4.rules import Connect4
from ai.messages import GameError
from ai.games.connect4.position import (cell_value_terms, columns_of, format_columns, moves_reaching,
                         parse_columns)

from ..admission import in_lane, offload
from ..htmx import render
from ..i18n import tr
from ..links import link
from ..params import BadRequest, read_int

bp = Blueprint("editor", __name__)


@bp.app_template_global()
def edit_url(g) -> str:
    """The editor's link for the Connect-4 position a game shows."""
    rules = g.rules
    size = {k: v for k, v in (("w", rules.width), ("h", rules.height)) if v != {"w": 7, "h": 6}[k]}
    return link("editor.edit", board=format_columns(columns_of(rules, g.state)), **size)


@bp.get("/connect4/edit")
@in_lane()     # a lane slot for the whole page (web.admission): 503 + Retry-After when full
def edit():
    """The editor, showing the position of its link."""
    error = problem = moves = None
    status = 200
    try:
        width = read_int(request.args, "w", 7, 4, 9)
        height = read_int(request.args, "h", 6, 4, 9)
    except BadRequest as err:                # a wrong size: the usual board, and why
        error, status, width, height = tr(err), 400, 7, 6
    game = Connect4(width, height)
    try:
        columns = parse_columns(request.args.get("board", ""), game)
    except GameError as err:
        error, status, columns = error or tr(err), 400, [[] for _ in range(width)]
    try:      # a search (up to tens of ms on a crafted board): off the loop
        moves = offload(lambda: moves_reaching(game, columns))
    except GameError as err:
        problem = tr(err)

    def board_url(changed_columns) -> str:
        return url_for("editor.edit", board=format_columns(changed_columns),
                       **({"w": width} if width != 7 else {}), **({"h": height} if height != 6 else {}))

    def changed(c, add=None):
        cols = [list(col) for col in columns]
        if add is None:
            cols[c].pop()
        else:
            cols[c].append(add)
        return board_url(cols)

    play_url = None
    if moves is not None:
        play_url = url_for("play.show", game="connect4", moves=game.format_moves(moves),
                           mode="human-human", **({"w": width} if width != 7 else {}),
                           **({"h": height} if height != 6 else {}))
    yellow = sum(col.count(0) for col in columns)
    red = sum(col.count(1) for col in columns)
    return render("games/connect4/editor.html", block="editor", status=status, error=error, problem=problem,
                  game=game, columns=columns, changed=changed, board_url=board_url,
                  play_url=play_url, moves=moves, yellow=yellow, red=red,
                  empty_url=board_url([[] for _ in range(width)]),
                  to_move=0 if yellow == red else 1, terms=cell_value_terms(game, columns))
