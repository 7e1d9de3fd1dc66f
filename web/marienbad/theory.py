"""Blueprint ``marienbad``: ``/marienbad/theory``, the theory of the game revealed step by
step, so that a class can find the rule before it is shown: the heaps, each in binary, the
ones of each column counted, their parities, the rule ("position paire": every column even,
nim-sum 0, the player to move loses with best play; misère: the same unless every heap is at
most 1), and the move that makes every column even again. Each step is one request (``step=``),
the page's own link."""
from __future__ import annotations

from flask import Blueprint, request

from ai.games.marienbad import Marienbad
from ai.games.marienbad.grundy import column_parities, endgame, mover_loses, nim_sum, winning_moves

from ..games import GAMES
from ..htmx import render
from ..i18n import tr
from ..params import BadRequest, read_choice, read_int, read_param

STEPS = 5       # 0 the heaps, 1 binary, 2 the ones counted, 3 parities, 4 the rule, 5 the move

bp = Blueprint("marienbad", __name__)


@bp.get("/marienbad/theory")
def theory():
    spec = GAMES["marienbad"]
    error, status = None, 200
    try:
        heaps = read_param(request.args, spec.param("heaps"), spec)
        variant = read_param(request.args, spec.param("variant"), spec)
        step = read_int(request.args, "step", 0, 0, STEPS)
    except BadRequest as err:
        heaps, variant, step = spec.param("heaps").default, "normal", 0
        error, status = tr(err), 400
    game = Marienbad(heaps, variant)
    h = game.heaps
    bits = max(h).bit_length()
    # each winning move in words ("2 matches from heap C") and the heaps it leaves
    after = [(spec.words.move(game.format_move(m)),
              tuple(x - m[1] if i == m[0] else x for i, x in enumerate(h)))
             for m in winning_moves(h, variant)]
    return render("games/marienbad/theory.html", block="theory", status=status, error=error,
                  game=game, step=step, steps=STEPS, heaps_text=heaps, bits=bits,
                  rows=[(i, x, format(x, f"0{bits}b")) for i, x in enumerate(h)],
                  powers=[2 ** b for b in range(bits - 1, -1, -1)],
                  columns=column_parities(h, bits), nim_sum=nim_sum(h),
                  nim_binary=format(nim_sum(h), f"0{bits}b"),
                  loses=mover_loses(h, variant), endgame=endgame(h), winning=after)
