"""Blueprint ``nim``: ``/nim/theory``, the whole Nim game tree with its minimax labels beside
the theory (and seed 000's Listing VIII.1, the same tree as the course's dictionary)."""
from __future__ import annotations

from flask import Blueprint, request

from ai.games.nim.rules import Nim
from ai.games.nim.tree import checked_tree
from ai.teach.tree_layout import compact_geometry
from ai.teach.tree_view import unfold

from ..admission import Busy, drawn_in_lane, refuse
from ..course import dictionary_lines
from ..htmx import render
from ..i18n import tr
from ..params import BadRequest, read_choice, read_int
from ..projector import projector_on

DICTIONARY_MAX_N = 6     # the page prints the dictionary up to 52 keys (6 matches)

bp = Blueprint("nim", __name__)


@bp.get("/nim/theory")
def theory():
    """The whole Nim game tree with its minimax labels (the course's +1/-1), beside the
    theory: the player to move loses on the multiples of k+1 (normal play), or one more
    (misère)."""
    error, status = None, 200
    try:
        n = read_int(request.args, "n", 5, 1, 8)
        k = read_int(request.args, "k", 3, 1, 4)
        variant = read_choice(request.args, "variant", "normal", ("normal", "misere"))
    except BadRequest as err:
        n, k, variant, error, status = 5, 3, "normal", tr(err), 400
    game = Nim(n, k, variant)

    def draw():
        result, agree = checked_tree(game)
        # seed 000's Listing VIII.1 (constrarbreNIM): the same tree as the course's dictionary
        dictionary = dictionary_lines(n, k) if n <= DICTIONARY_MAX_N else []
        view = unfold(result.tree, (), levels=99)
        return render("games/nim/theory.html", block="theory", status=status, error=error,
                      game=game, result=result, view=view, agree=agree,
                      geo=compact_geometry(view, projector=projector_on()),
                      n_nodes=len(result.tree.nodes), remaining_of=lambda v: n - sum(v.path),
                      dictionary=dictionary)
    # the whole tree (up to 8 matches: 80 KB, tens of ms) drawn in the trees' lane, off the loop
    try:
        return drawn_in_lane(draw)
    except Busy as err:
        raise refuse(err) from None
