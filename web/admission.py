"""Admission control for searches: a heavy search never makes plain pages wait, and a burst of
them gets a clear "busy, try again" after a short wait, not a long queue.

Under the README's server (gunicorn's gevent worker: one event loop per process holds hundreds
of connections, slow ones included), a search is CPU work that would block that loop: it runs in
a native thread of gevent's pool, so the loop keeps answering pages, static files and cheap
clicks meanwhile. Searches run in two lanes per worker:

- light (the preset levels up to "hard" on a click, their tree panel too, small games, small custom
  depths): a few slots, waited for briefly;
- heavy (expert, deep custom searches and their trees, the comparison): ``HEAVY_SEARCHES``
  slots (1 by default), waited for at most ``HEAVY_WAIT`` seconds: beyond, the answer is a 503
  with ``Retry-After``, and the page keeps the game.

Each client may also ask for at most ``CLIENT_SECONDS`` of search time per ``WINDOW`` seconds
in a worker; beyond, a 429 with ``Retry-After``. A client is a browser, known by an anonymous
random cookie that the app sets: not an address, since a whole classroom behind one school
router shares its address. A client that sends no cookie (a script) is counted by its address.
A script that forges a new cookie each time escapes the per-client count, not the lanes: plain
pages never wait either way. Bounds are per worker: in total, at most workers x (light + heavy
slots) searches run at once.
Outside gevent (tests, ``flask run``) searches run inline with the same accounting.
"""
from __future__ import annotations

import collections
import functools
import os
import re
import secrets
import threading
import time

from flask import Flask, copy_current_request_context, current_app, g, request
from werkzeug.exceptions import ServiceUnavailable, TooManyRequests

from .params import BadRequest

LIGHT_SLOTS = int(os.environ.get("LIGHT_SEARCHES", 3))
HEAVY_SLOTS = int(os.environ.get("HEAVY_SEARCHES", 1))
LIGHT_WAIT = 1.0          # seconds a light search may wait for a slot
HEAVY_WAIT = 1.5          # seconds a heavy one may wait (about one heavy search's length)
COOKIE = "client"         # an anonymous random id, for the per-client search time only
_CLIENT_ID = re.compile(r"[0-9a-f]{16}")
CLIENT_SECONDS = float(os.environ.get("CLIENT_SEARCH_SECONDS", 20))   # app config overrides
WINDOW = 60.0             # seconds

PAGE_SLOTS = int(os.environ.get("PAGE_SLOTS", 1))   # pages drawn in a lane (in_lane), per worker
TREE_SLOTS = int(os.environ.get("TREE_SLOTS", 1))   # game pages drawing a tree (DRAWS_TREE)
GAME_SLOTS = int(os.environ.get("TOURNAMENT_SLOTS", 1))   # a tournament's games (game_lane)
_light = threading.BoundedSemaphore(LIGHT_SLOTS)
_heavy = threading.BoundedSemaphore(HEAVY_SLOTS)
_pages = threading.BoundedSemaphore(PAGE_SLOTS)
_trees = threading.BoundedSemaphore(TREE_SLOTS)
_games = threading.BoundedSemaphore(GAME_SLOTS)


class Busy(BadRequest):
    """The server cannot take this search now: 503 (all slots taken) or 429 (this client
    asked for too much search time lately), with the seconds to wait."""

    def __init__(self, template: str, status: int, retry_after: int, **values):
        super().__init__(template, None, **values)
        self.status, self.retry_after = status, retry_after


def refuse(err: Busy):
    """``err`` as the app's error page (for a page with no game to keep): a 503 or 429,
    translated, with its Retry-After."""
    return (TooManyRequests if err.status == 429 else ServiceUnavailable)(
        retry_after=err.retry_after)


def refused_page(err: Busy):
    """``err`` as the app's error page (``refuse``), answered rather than raised: for a
    drawing refused inside an error handler (a game's 400 page drawing its class's bar), where
    a raised error would be a 500."""
    return current_app.handle_http_exception(refuse(err))


def _offload(fn):
    """``fn()`` in a native thread when gevent runs the server, else right here."""
    try:
        from gevent import monkey
    except ImportError:
        return fn()
    if not monkey.is_module_patched("threading"):
        return fn()
    import gevent

    def run():      # an error (a position no game reaches) is the caller's, not the pool's to log
        try:
            return True, fn()
        except Exception as err:
            return False, err

    done, value = gevent.get_hub().threadpool.apply(run)
    if done:
        return value
    raise value


class _Spent:
    """A client's searches in the last ``WINDOW`` seconds, (start, seconds) each, and their
    total, kept up to date as they come and go: summing them at each search took longer, for
    a client with a few hundred, than the exact solver's reply itself."""

    __slots__ = ("searches", "total")

    def __init__(self):
        self.searches: collections.deque = collections.deque()
        self.total = 0.0

    def within(self, now: float) -> float:
        """The seconds searched since ``now - WINDOW``."""
        searches = self.searches
        while searches and searches[0][0] < now - WINDOW:
            self.total -= searches.popleft()[1]
        if not searches:
            self.total = 0.0            # no rounding left over
        return self.total

    def add(self, start: float, seconds: float) -> None:
        self.searches.append((start, seconds))
        self.total += seconds


def _history(client: str) -> _Spent:
    """The client's searches in this app (this worker)."""
    spent = current_app.extensions.setdefault("search_time", collections.defaultdict(_Spent))
    return spent[client]


def client_id() -> str:
    """Who is asking: the browser's anonymous cookie, else the address."""
    cid = request.cookies.get(COOKIE, "")
    return cid if _CLIENT_ID.fullmatch(cid) else "address " + (request.remote_addr or "?")


def give_client_id(response):
    """Give a browser its anonymous id with its first page (not with static files, which
    caches share)."""
    if request.endpoint != "static" and not _CLIENT_ID.fullmatch(request.cookies.get(COOKIE, "")):
        response.set_cookie(COOKIE, secrets.token_hex(8), max_age=30 * 86400, httponly=True,
                            secure=request.is_secure,
                            samesite="Lax")
    return response


def admitted(fn, *, heavy: bool, inline: bool = False, lane=None, charged: bool = True):
    """Run the search ``fn()`` in its lane, charged to the client; raise Busy if it cannot.
    ``inline``: ``fn`` is a whole view that runs here, on the loop, and offloads its own
    search: it takes the pages' lane (``PAGE_SLOTS``, 1 per worker: a plain page waits
    behind one such drawing at most), or ``lane``. ``charged=False``: the lane only, not the
    client's allowance (a view whose searches are admitted, and charged, on their own)."""
    spent = _history(client_id())
    now = time.monotonic()
    if charged and spent.within(now) >= current_app.config.get(
            "CLIENT_SEARCH_SECONDS", CLIENT_SECONDS):
        wait = int(spent.searches[0][0] + WINDOW - now) + 1
        raise Busy("You have asked for many searches in a short time: try again in %(s)s s",
                   429, wait, s=wait)
    lane = lane or (_pages if inline else _heavy if heavy else _light)
    if not lane.acquire(timeout=HEAVY_WAIT if heavy else LIGHT_WAIT):
        raise Busy("The server is busy with other searches: try again in %(s)s s", 503, 2, s=2)
    start = time.monotonic()
    try:
        return fn() if inline else _offload(fn)
    finally:
        lane.release()
        if charged:
            spent.add(now, time.monotonic() - start)


def in_this_request(fn):
    """``fn`` made to run in another thread as part of this request: its request context
    (``flask.copy_current_request_context``) and what the request noted in ``flask.g`` (the
    notation a class writes in, the lab's ±M, a game's estimate: the thread's application context
    would start with an empty ``g``, and the page would be written otherwise)."""
    noted = dict(vars(g._get_current_object()))

    @copy_current_request_context
    def inner():
        vars(g._get_current_object()).update(noted)
        return fn()
    return inner


def offload(fn):
    """``fn()`` off the event loop (a native thread under gevent), for a view that holds its
    lane already (``in_lane``)."""
    return _offload(fn)


def game_lane(fn):
    """``fn()``, one game of a tournament played by a worker's runner in the background
    (a game's tournament runner), off the event loop, at most ``GAME_SLOTS`` at once
    in a worker: no request waits for it, and it waits for its slot (no one is waiting for
    its answer)."""
    with _games:
        return _offload(fn)


def in_lane(*, heavy: bool = False, lane=None, charged: bool = True, keep: bool = False):
    """A view that holds a slot of the pages' lane for the whole request, its page's drawing
    included (the lab draws trees of 400 nodes: tens of ms on the loop), charged to the
    client like a search: at most ``PAGE_SLOTS`` of them run at once in a worker, so a
    plain page never waits behind more than those. Its search runs through ``offload``. Busy
    (503 or 429) when it cannot: the app's error page with Retry-After; ``keep``: the Busy
    itself, for the view's own handler to answer as it answers a search refused inside it
    (a game's page keeps its game)."""
    def wrap(view):
        @functools.wraps(view)
        def inner(*args, **kwargs):
            try:
                return admitted(lambda: view(*args, **kwargs), heavy=heavy, inline=True,
                                lane=lane, charged=charged)
            except Busy as err:
                if keep:
                    raise
                raise refuse(err) from None
        return inner
    return wrap


#: Views that draw a search tree (the tree panel: up to the drawing limit's nodes, tens of ms
#: for the largest; a tic-tac-toe tree page is cheap to ask for), and the parameter that makes
#: them draw one (None: always): they take the trees' lane (``TREE_SLOTS`` per worker) for the
#: whole request, so 20 at once are drawn one after another, and refused (503, Retry-After)
#: past ``LIGHT_WAIT`` with the game kept (``web.play.bad_request``: the game's page, its
#: tree off, a retry; without JavaScript a move is answered with a redirect to such a page);
#: their drawing (the geometry and the template) runs off the loop
#: (``drawn_in_lane``), so plain pages do not wait behind it. A move's or the AI's answer
#: (``play.move``, ``play.ai``) waits for its search in the light lane, then for the trees'
#: lane to draw its tree panel, if shown, and keeps its game when refused.
DRAWS_TREE = {"play.tree": None, "play.tree_svg": None, "play.show": "tree"}


def in_lane_when_drawing(view, flag: str | None):
    """``view`` in the trees' lane when the request draws a tree (``flag`` set, or always).
    Not charged to the client: the search behind the tree is admitted and charged on its own
    (``web.ai_move``), and a tree the recent searches keep is drawn without one."""
    def holding(*args, **kwargs):
        g.holds_trees_lane = True           # its drawing needs no second slot (drawn_in_lane)
        try:
            return view(*args, **kwargs)
        finally:
            g.holds_trees_lane = False
    laned = in_lane(lane=_trees, charged=False, keep=True)(holding)

    @functools.wraps(view)
    def inner(*args, **kwargs):
        if flag is None or request.args.get(flag, "") not in ("", "0"):
            return laned(*args, **kwargs)
        return view(*args, **kwargs)
    return inner


#: Seconds a phone's page waits for the trees' lane to draw a class exercise's tree
#: (``drawn_in_lane``): a class of 30 phones redrawn at once is drawn one after another.
PHONE_WAIT = 10.0


def drawn_in_lane(draw, *, wait: float | None = None, pages: bool = False):
    """``draw()`` (a page's drawing that grows with its input: a class exercise's tree on a
    phone, up to the lab's 400 nodes, a game's tree panel, a whole tree beside a game's
    theory: tens to hundreds of ms) in the trees' lane and off the loop, so that plain pages
    never wait behind it; Busy (503) when no slot came within ``wait`` seconds (``LIGHT_WAIT``
    by default). A view that holds the trees' lane already (``DRAWS_TREE``) draws in its own
    slot. Not charged to the client: a phone that follows its class asks for nothing, and the
    search behind a tree is charged on its own. ``draw`` runs in this request
    (``in_this_request``). ``pages``: in the pages' lane instead (``PAGE_SLOTS``), for a
    drawing that must not queue behind the trees (a class exercise's dashboard, behind its
    class's 30 phones' trees), from a view that holds no slot of it (``in_lane``)."""
    draw = in_this_request(draw)
    if not pages and g.get("holds_trees_lane"):
        return _offload(draw)
    lane = _pages if pages else _trees
    if not lane.acquire(timeout=LIGHT_WAIT if wait is None else wait):
        raise Busy("The server is busy with other searches: try again in %(s)s s", 503, 2, s=2)
    try:
        return _offload(draw)
    finally:
        lane.release()


def init_app(app: Flask) -> None:
    app.after_request(give_client_id)
    for endpoint, flag in DRAWS_TREE.items():
        if endpoint in app.view_functions:
            app.view_functions[endpoint] = in_lane_when_drawing(app.view_functions[endpoint],
                                                                flag)
