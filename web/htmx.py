"""The one place that reads htmx's request headers: answer a whole page, or only the block of
the page's own template that htmx asked for, so page and fragment never drift apart."""
from __future__ import annotations

from functools import lru_cache
from urllib.parse import parse_qs, urlsplit

from flask import Response, current_app, g, render_template, request
from jinja2 import Environment, nodes

from . import admission
from .admission import Busy, drawn_in_lane, refused_page
from .page_bar import class_bar, draws_dashboard


def is_htmx() -> bool:
    """An htmx request that swaps part of the page. A history restore also carries
    ``HX-Request`` but needs the whole page. Read once per request (a view and its
    rendering ask several times)."""
    htmx = g.get("_is_htmx")
    if htmx is None:
        htmx = g._is_htmx = (request.headers.get("HX-Request") == "true"
                             and request.headers.get("HX-History-Restore-Request") != "true")
    return htmx


def current_page_args() -> dict:
    """The parameters of the page the browser shows while it makes this htmx request
    (``HX-Current-URL``), e.g. whether it is at a step of a replay; {} if unknown."""
    url = request.headers.get("HX-Current-URL", "") if is_htmx() else ""
    return parse_qs(urlsplit(url[:4096]).query)


@lru_cache(maxsize=None)
def _parents(env: Environment, name: str) -> tuple[str, ...]:
    """The templates ``name`` extends, nearest first (its ``{% extends "..." %}``, and so on)."""
    found = []
    while True:
        tree = env.parse(env.loader.get_source(env, name)[0])
        extends = next(tree.find_all(nodes.Extends), None)
        if extends is None or not isinstance(extends.template, nodes.Const):
            return tuple(found)
        name = extends.template.value
        found.append(name)


def render_block(template: str, block: str, **context) -> str:
    """One block of a page, drawn as the whole page would draw it: the page's own blocks over
    those of the pages it extends (a game's page overrides parts of the generic
    ``game.html``), as Jinja lays them out when it renders the page. (jinja2-fragments'
    ``render_block`` looks in the page's own blocks only.)"""
    app = current_app._get_current_object()
    app.update_template_context(context)
    env = app.jinja_env
    page = env.get_template(template)
    # The context Jinja makes, the template's globals under the values: merged here, where
    # Jinja copies its ChainMap of globals name by name in Python (~30 µs of a fragment)
    names: dict = {}
    for layer in reversed(page.globals.maps):
        names.update(layer)
    names.update(context)
    ctx = page.new_context(names, shared=True)
    for parent in _parents(env, template):
        for name, draw in env.get_template(parent).blocks.items():
            ctx.blocks.setdefault(name, []).append(draw)
    try:
        return env.concat(ctx.blocks[block][0](ctx))
    except Exception:
        return env.handle_exception()


def render(template: str, *, block: str, status: int = 200, push_url: str | None = None,
           replace_url: str | None = None, tree: bool = False, **context) -> Response:
    """``template`` whole, or its ``block`` alone for htmx; ``push_url`` becomes the
    address bar's link as a new history entry (``HX-Push-Url``), ``replace_url`` in place of
    the current one (``HX-Replace-Url``: Back then skips it). A whole page showing a class's
    board (its game link ``g`` has ``cls=``) gets the class's bar, read here, once. ``tree``:
    the page draws a search tree (its work grows with the tree): drawn in the trees' lane, off
    the loop (``web.admission.drawn_in_lane``; Busy when the lane is full), the class's bar
    read here first. A whole page whose bar shows its teacher a class exercise's dashboard
    (``draws_dashboard``) is drawn off the loop in the pages' lane, waiting
    ``admission.PHONE_WAIT`` at most as the teacher's actions do; beyond, the app's 503 page
    with Retry-After, answered, not raised: from an error handler (a game's 400 or 503 page)
    a raised one would be a 500."""
    dashboard = False
    if is_htmx():
        def draw():
            return render_block(template, block, **context)
    else:
        bar = class_bar(context.get("g"))
        whole = {**bar, **context}
        dashboard = not tree and draws_dashboard(bar)

        def draw():
            return render_template(template, **whole)
    if tree:
        body = drawn_in_lane(draw)
    elif dashboard:
        try:
            body = drawn_in_lane(draw, pages=True, wait=admission.PHONE_WAIT)
        except Busy as err:
            return refused_page(err)
    else:
        body = draw()
    response = Response(body, status=status, mimetype="text/html")
    response.headers["Vary"] = "HX-Request"
    if push_url and is_htmx():
        response.headers["HX-Push-Url"] = push_url
    elif replace_url and is_htmx():
        response.headers["HX-Replace-Url"] = replace_url
    return response
