"""Blueprint ``table``: ``/connect4/table``, the transposition table made visible on the
position of its link: the Zobrist key of the position as the XOR of one random number per
stone, then alpha-beta with a table to a small depth (``ttd=``, 1 to 6: not ``depth=``, which
is the game's own search depth at the custom level, kept in the link) and the entries
it left for the position and its children: the slot each went to, the depth they were stored
at, the bound (exact, at least, at most), the value, the best move; a link to follow each
look-up step by step (``web.course.TABLE_STEPS``). And why seed 004's (alpha, beta, depth)
table failed."""
from __future__ import annotations

from flask import Blueprint, request, url_for

from ai.heuristics import make_heuristic
from ai.course.search import COURSE_SLOTS
from ai.games.connect4.zobrist import zobrist_terms
from ai.games.nim.table_demo import window_table_demonstration
from ai.teach.table_view import searched_table

from ..admission import Busy, admitted
from ..course import TABLE_STEPS
from ..games import GAMES
from ..htmx import render
from ..i18n import tr
from ..notation import set_estimate_total
from ..game_link import parse_game
from ..params import BadRequest, read_int

bp = Blueprint("table", __name__)
MAX_NODES = 150_000        # the search behind the page: like the comparison's budget


@bp.get("/connect4/table")
def table():
    """The table of the position in the link (a 400 with the reason for a wrong link)."""
    try:
        g = parse_game(GAMES["connect4"], request.args)
        depth = read_int(request.args, "ttd", 4, 1, 6)
    except BadRequest as err:
        return render("games/connect4/table.html", block="table", status=400, error=tr(err), g=None, depth=4,
                      terms=[], result=None, size=0, entries=[])
    heuristic = make_heuristic(g.rules, "cells")
    result, size, entries = (None, 0, [])
    busy = None
    if not g.over:
        try:
            result, size, entries = admitted(
                lambda: searched_table(g.rules, g.state, depth, heuristic, MAX_NODES),
                heavy=depth >= 5)
        except Busy as err:     # no search now: the rest of the page, why, and when to retry
            busy = err
    demo = window_table_demonstration()
    set_estimate_total(demo["n"])    # its Nim values, in the course's notation: M − 1/8
    response = render("games/connect4/table.html", block="table", status=busy.status if busy else 200,
                      error=None, busy=tr(busy) if busy else None, g=g, depth=depth,
                      terms=zobrist_terms(g.rules, g.state), result=result, size=size,
                      entries=entries, demo=demo, slots=COURSE_SLOTS,
                      steps_url=url_for("play.show", game="connect4", **TABLE_STEPS, step=0))
    if busy:
        response.headers["Retry-After"] = str(busy.retry_after)
    return response
