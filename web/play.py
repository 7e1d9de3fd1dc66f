"""Blueprint ``play``: the games of the games table (``web.games``), one set of views each:

- ``GET /<game>``: show a position, as its link describes it; never plays a move, so a link
  can be opened, reloaded and shared safely. If the AI is to move, the page asks for its move.
- ``GET /<game>/move``: a person's move (the game's move parameter, ``GameSpec.move_param``), then
  the AI's reply if the AI is to move.
- ``GET /<game>/ai``: the AI plays the side to move (AI first, AI against AI).
- ``GET /<game>/tree``: the tree panel alone (unfold ``path=``, ``step=``);
  ``/<game>/tree.svg``: its picture to download; ``/<game>/peek``: a node's position;
  ``/<game>/compare``: the algorithms side by side.

A move answers htmx with the ``game`` block and ``HX-Push-Url`` (the position's canonical
link); a plain browser is redirected (303) to that link. A wrong parameter is a 400 showing
the game as it was, the message beside the field to blame.
"""
from __future__ import annotations

from dataclasses import replace
from functools import partial

from flask import Blueprint, Response, redirect, render_template, request
from markupsafe import escape

from ai.teach.compare import compare as compare_algorithms, variants_for
from ai.heuristics import make_heuristic

from .admission import Busy, admitted, drawn_in_lane
from .ai_move import ai_move
from .charts import comparison_charts
from .game_link import GameLink, parse_game, parse_game_keeping_what_is_right
from .games import GameSpec
from .htmx import current_page_args, is_htmx, render
from .i18n import tr
from .links import this_page
from .params import BadRequest, as_bad_request, read_int
from .review import teaching_warning
from .tree_panel import TreePanel, board_game, name_in_tree, page_url, tree_panel_in_lane

bp = Blueprint("play", __name__)


def game_extras(g: GameLink, panel) -> dict:
    """What the game's own page adds (its hook ``page_context``: the truth beside the
    search, where the game has an exact solver), or nothing."""
    extras = g.spec.hook("page_context")
    return extras(g, panel) if extras is not None else {}


def game_page(g: GameLink, *, status=200, error=None, error_param=None, ai=None, push_url=None,
              result=None, args=None, teach=None, retry=None) -> Response:
    """The game's page (or its ``game`` block), with the tree panel when it is on;
    ``retry``: a link to ask again, beside the error."""
    panel = None
    # When the page is about to ask for the AI's move, its tree comes with that move.
    asking = g.ai_to_move and g.live and (g.settings.mode != "ai-ai" or g.settings.autoplay)
    if g.settings.show_tree and error is None and not (asking and result is None):
        panel = tree_panel_in_lane(g, args if args is not None else {}, result)
    # a tree built and drawn (tens of ms for the largest) in the trees' lane, off the loop
    return render(g.spec.template, block="game", status=status, push_url=push_url, g=g,
                  error=error, error_param=error_param, retry=retry, ai=ai, panel=panel,
                  teach=teach, here=partial(page_url, g, panel), board=board_game(g, panel),
                  tree=isinstance(panel, TreePanel),
                  **game_extras(g, panel))


@bp.errorhandler(BadRequest)
def bad_request(err: BadRequest):
    """A 400 that keeps the game: the position and the settings that were right, the message
    beside the field to blame; the address bar gets the link of what is shown. A search the
    server cannot take now (Busy) is a 503 or 429 with Retry-After, the game kept too, its
    tree off, and a retry: this very request again, its whole query kept (a tree page's step
    too: without JavaScript a move is answered with a redirect to its tree page, which the
    trees' lane may refuse). For htmx, it replaces the game (a tree's step asked for the
    panel alone: not a game's page inside the panel)."""
    spec = request.view_args["game"]
    if isinstance(err, Busy):
        g = parse_game(spec, request.args)
        response = game_page(replace(g, settings=replace(g.settings, show_tree=False)),
                             status=err.status, error=tr(err), retry=this_page())
        response.headers["Retry-After"] = str(err.retry_after)
    else:
        g = parse_game_keeping_what_is_right(spec, request.args)
        response = game_page(g, status=400, error=tr(err), error_param=err.param,
                             push_url=g.url())
    if is_htmx():
        response.headers.update({"HX-Retarget": "#game", "HX-Reswap": "outerHTML"})
    return response


def with_tree(g: GameLink) -> GameLink:
    return replace(g, settings=replace(g.settings, show_tree=True))


@bp.get("/<game:game>")
def show(game: GameSpec):
    """A position, as its link describes it (never plays a move)."""
    return game_page(parse_game(game, request.args), args=request.args)


@bp.get("/<game:game>/move")
def move(game: GameSpec):
    """A person's move; without JavaScript, the AI's reply too if it is the AI's turn."""
    g = parse_game(game, request.args).truncated()
    if g.over:
        raise BadRequest("the game is over: start a new game or undo")
    if g.ai_to_move:
        raise BadRequest("it is the AI's turn, not yours")
    try:
        g = g.play(g.rules.parse_move(request.args.get(game.move_param, "")))
    except ValueError as err:
        raise as_bad_request(err) from None
    reply = result = None
    warning = teaching_warning(g) if g.settings.teach else None
    if warning is not None:
        # teaching game: the move lost the win or the draw; say so, the AI waits
        return game_page(g, push_url=g.url() if is_htmx() else None, teach=warning)
    if is_htmx():
        # The person's move is shown at once; the page then asks for the AI's reply itself
        # (ai_trigger), showing that the AI is thinking meanwhile.
        return answer(g, reply, result)
    if g.ai_to_move and g.settings.mode != "ai-ai":
        g, reply, result = play_ai(g)      # without JavaScript: both moves, then the new link
    return answer(g, reply, result)


@bp.get("/<game:game>/ai")
def ai(game: GameSpec):
    """The AI plays the side to move."""
    g = parse_game(game, request.args).truncated()
    if g.over:
        raise BadRequest("the game is over: start a new game or undo")
    if not g.ai_to_move:
        raise BadRequest("it is your turn, not the AI's")
    return answer(*play_ai(g))


def play_ai(g: GameLink):
    """The AI's move in ``g``, recording its tree when the panel will show it."""
    reply, result = ai_move(g, record=g.settings.show_tree)
    g = g.play(reply.move)
    if g.settings.show_tree:
        g = replace(g, settings=replace(g.settings, tree_depth=result.stats.depth or None))
    return g, reply, result


def answer(g: GameLink, reply, result) -> Response:
    """After a move: the new position's block for htmx, a redirect to its link otherwise."""
    if is_htmx():
        return game_page(g, ai=reply, push_url=g.url(), result=result)
    response = redirect(g.url(), code=303)
    response.headers["Vary"] = "HX-Request"     # the same URL answers htmx with a block
    return response


@bp.get("/<game:game>/tree")
def tree(game: GameSpec):
    """The tree panel alone: unfold a node (``path``) or step through the search (``step``).
    The page's link follows as a new history entry, except from one step of a replay to
    another: that replaces the entry (the link still holds the step), so Back leaves the
    replay instead of walking back through every step."""
    g = with_tree(parse_game(game, request.args))
    panel = tree_panel_in_lane(g, request.args)
    here = page_url(g, panel)
    stepping = (panel is not None and not panel.too_large
                and getattr(panel, "step", None) is not None and "step" in current_page_args())
    # the board too (out of band): a step of a replay shows the position the AI searched, the
    # replay's end the move it played; a step replaces the history entry, never adds one
    return render(game.template, block="tree", push_url=None if stepping else here,
                  replace_url=here if stepping else None, g=g, panel=panel,
                  here=partial(page_url, g, panel),
                  error=None, ai=None, board=board_game(g, panel), oob_board=is_htmx(),
                  tree=True, **game_extras(g, panel))


@bp.get("/<game:game>/tree.svg")
def tree_svg(game: GameSpec):
    """The tree panel's picture as a standalone SVG file, for a handout."""
    g = with_tree(parse_game(game, request.args))
    panel = tree_panel_in_lane(g, request.args)
    if panel is None:
        raise BadRequest("no search to draw: the game is over")
    if getattr(panel, "solved", False):
        raise BadRequest("the exact solver chose this move: there is no search tree to draw")
    if panel.too_large:
        raise BadRequest("this search explored %(n)s nodes: too many to draw (at most %(most)s)",
                         n=panel.result.stats.nodes, most=panel.limit)
    name = f"{game.name}-{g.moves_text() or 'start'}-tree.svg"
    return Response(drawn_in_lane(lambda: render_template("tree.svg", panel=panel)),
                    mimetype="image/svg+xml",
                    headers={"Content-Disposition": f'attachment; filename="{name}"'})


@bp.get("/<game:game>/compare")
def compare(game: GameSpec):
    """The algorithms side by side on the position shown (depth ``cd``: by default the AI's,
    within what minimax can do in the comparison's node budget; the perfect level, which has
    no depth, compares at the game's default comparison depth)."""
    g = parse_game(game, request.args)
    if g.over:
        raise BadRequest("the game is over: there is nothing to search")
    depth = read_int(request.args, "cd", min(g.settings.depth or game.compare_depth,
                                             game.compare_depth), 1, 8)
    exact_run = game.hook("exact_run")      # the game's exact solver, if it has one
    (runs, per_depth), exact = admitted(lambda: (compare_algorithms(
        g.rules, g.state, depth,
        make_heuristic(g.rules, g.settings.heuristic or None, alpha=g.settings.alpha),
        window=g.settings.window), exact_run(g) if exact_run else None), heavy=True)
    # the whole game tree from here, where the game counts it (seed 003's "plus de 250'000")
    whole = g.rules.tree_size(g.state) if game.counts_whole_tree else None
    return render("compare.html", block="compare", g=g, runs=runs, per_depth=per_depth,
                  depth=depth, variants=variants_for(g.rules), exact=exact, whole=whole,
                  charts=comparison_charts(runs, per_depth, depth))


@bp.get("/<game:game>/peek")
def peek(game: GameSpec):
    """A small board: the position at a node of the tree (hover or focus)."""
    try:
        g = parse_game(game, request.args)
        root = read_int(request.args, "root", None, 0, g.at)   # the tree's root, to name it
    except BadRequest as err:
        return Response(f'<p class="error">{escape(tr(err))}</p>', status=400,
                        mimetype="text/html")
    return render_template("_peek.html", g=g, name=None if root is None else name_in_tree(g, root))
