"""Pages that draw a search tree on the loop take the trees' lane (issue 37): while its slots
are taken, a tree page is refused at once with a 503 and Retry-After (its drawing never runs),
and a page without a tree is not held back. Counted in drawings, never timed."""
import re
import threading
from concurrent.futures import ThreadPoolExecutor

import pytest

import web.admission as admission
import web.play


@pytest.fixture()
def drawings(monkeypatch):
    calls = []
    original = web.play.tree_panel

    def counting(*args, **kwargs):
        calls.append(1)
        return original(*args, **kwargs)
    monkeypatch.setattr(web.play, "tree_panel", counting)
    monkeypatch.setattr(admission, "LIGHT_WAIT", 0.01)
    return calls


@pytest.mark.parametrize("url", ["/tictactoe/tree?moves=5&mode=human-human",
                                 "/tictactoe/tree.svg?moves=5&mode=human-human",
                                 "/tictactoe?moves=51&tree=1", "/connect4/tree?moves=44",
                                 "/nim/tree?n=7"])
def test_a_tree_page_waits_for_the_pages_lane_and_is_refused_when_it_is_full(client, drawings,
                                                                               url):
    free = client.get(url)
    assert free.status_code == 200
    drawn = len(drawings)
    assert drawn == 1
    slots = [admission._trees.acquire(blocking=False) for _ in range(admission.TREE_SLOTS)]
    try:
        assert all(slots)
        busy = client.get(url)
        assert busy.status_code == 503 and busy.headers["Retry-After"]
        assert "busy" in busy.get_data(as_text=True)
        assert len(drawings) == drawn                 # refused before any drawing
        assert client.get("/tictactoe?moves=5").status_code == 200    # no tree: not held
        assert client.get("/").status_code == 200
        assert client.get("/tree").status_code == 200                 # the lab's own lane
    finally:
        for _ in slots:
            admission._trees.release()
    assert client.get(url).status_code == free.status_code


# -- the drawing itself off the loop (issue 37: the lane admitted them, the loop drew them) -----

TREE_PAGES = ["/tictactoe/tree?moves=5&mode=human-ai&level=perfect",
              "/tictactoe?moves=51&tree=1&x=1",
              "/tictactoe/tree.svg?moves=5&mode=human-ai&x=1",
              "/connect4/tree?moves=44", "/connect4?moves=44&tree=1",
              "/nim/tree?n=7", "/nim?n=7&tree=1&notation=course",
              "/marienbad?tree=1", "/nim/theory?n=8", "/nim/theory?n=5&notation=course",
              "/course/nim/figure.svg?n=5",
              # values the request notes in flask.g before drawing: Nim's estimate "M − 3/5",
              # the lab's ±M (its own lane: the pages')
              "/nim?n=5&window=course&notation=course&tree=1&level=custom&algo=alphabeta"
              "&depth=2&heuristic=course", "/tree?ex=nim5d2&notation=course",
              "/tree?ex=nim5&notation=course", "/tree?ex=nim5&notation=course&step=99999"]
# a move or the AI's, tree shown (htmx: their block, the tree panel in it)
MOVES = ["/tictactoe/move?moves=5&cell=1&mode=human-human&tree=1",
         "/tictactoe/ai?moves=5&mode=human-ai&tree=1", "/nim/ai?n=7&mode=ai-human&tree=1"]


def htmx(url: str) -> dict:
    return {"HX-Request": "true"} if url in MOVES else {}


@pytest.fixture()
def in_pool(monkeypatch):
    """``in_pool()``: from then on ``_offload`` runs as under gevent's server, in another
    thread (a pool's; here a plain one, its name starting with "pool"). Returns the names of
    the threads the drawing ran in (the trees' geometry, Nim's, any template)."""
    import flask.templating

    import web.htmx
    import web.nim.theory
    threads = []
    executor = ThreadPoolExecutor(1, thread_name_prefix="pool")

    def watched(draw):
        def inner(*args, **kwargs):
            threads.append(threading.current_thread().name)
            return draw(*args, **kwargs)
        return inner

    def start():
        monkeypatch.setattr(admission, "_offload", lambda fn: executor.submit(fn).result())
        monkeypatch.setattr(web.nim.theory, "compact_geometry",
                            watched(web.nim.theory.compact_geometry))
        monkeypatch.setattr(flask.templating, "_render", watched(flask.templating._render))
        monkeypatch.setattr(web.htmx, "render_block", watched(web.htmx.render_block))
        return threads
    yield start
    executor.shutdown()


@pytest.mark.parametrize("url", TREE_PAGES + MOVES)
def test_a_tree_is_drawn_off_the_loop_and_drawn_the_same(app, in_pool, url):
    inline = app.test_client().get(url, headers=htmx(url))   # _offload as outside gevent: here
    assert inline.status_code == (400 if "99999" in url else 200)     # the lab's 400 has a tree
    threads = in_pool()
    drawn = app.test_client().get(url, headers=htmx(url))
    assert drawn.status_code == inline.status_code
    assert threads and all(name.startswith("pool") for name in threads)
    # the same page: what the request noted in flask.g (the lab's ±M) went with it
    # (but the lab's offer of a new random tree: a seed drawn at each request)
    assert (re.sub(r"seed=\d+", "seed=", drawn.get_data(as_text=True))
            == re.sub(r"seed=\d+", "seed=", inline.get_data(as_text=True)))


@pytest.mark.parametrize("url", ["/nim/theory?n=8", "/course/nim/figure.svg?n=5",
                                 *MOVES])
def test_other_tree_drawings_are_refused_when_the_trees_lane_is_full(client, drawings, url):
    assert client.get(url, headers=htmx(url)).status_code == 200
    slots = [admission._trees.acquire(blocking=False) for _ in range(admission.TREE_SLOTS)]
    try:
        assert all(slots)
        busy = client.get(url, headers=htmx(url))
        assert busy.status_code == 503 and busy.headers["Retry-After"]
        assert client.get("/").status_code == 200
        assert client.get("/tictactoe?moves=5").status_code == 200
    finally:
        for _ in slots:
            admission._trees.release()
    assert client.get(url, headers=htmx(url)).status_code == 200
