"""Issue 21: the check that keeps a lesson's server errors out. A teacher rehearsing a lesson
clicks everything: every link of every page, every htmx click, every value of every setting
(levels, algorithms, notations, players). The crawl (``tests/crawling.py``) does the same from
``/`` and ``/course`` in French and English, normal and projector mode, on the server as
``scripts/serve`` runs it, and fails on any server error. (How long each page takes is
``bench/crawl.py``'s business: no test here measures time.)"""
import shutil
import tempfile
from urllib.parse import parse_qsl, urlsplit

import pytest

from ai.levels import LEVELS
from ai.course.search import ALGORITHMS
from conftest import _free_port, class_env, start_gunicorn, stop_gunicorn
from crawling import crawl, http_fetcher

LIMIT = 1000   # pages: every kind of page is reached by then (a student's at ~730); the workshop's
               # steppers make the links endless, so the crawl stops at a count

SETTINGS = [f"level={name}" for name in LEVELS] + [
    f"level=custom&algo={algo}&depth=3" for algo in ALGORITHMS]
LESSON_PAGES = ["/{game}?moves={moves}&{s}", "/{game}?moves={moves}&{s}&tree=1",
                "/{game}?moves={moves}&{s}&tree=1&step=0", "/{game}/tree?moves={moves}&{s}&step=3",
                "/{game}/compare?moves={moves}&{s}", "/{game}/ai?{s}&mode=ai-human&tree=1"]


@pytest.mark.parametrize("setting", SETTINGS)
@pytest.mark.parametrize("game,moves", [("connect4", "4453"), ("nim", "1")])
def test_every_level_and_algorithm_opens_every_page_of_the_lesson(client, game, moves, setting):
    """The table page at a custom level, the comparison at the perfect level were 500s: every
    level and every algorithm of the settings, on the game, its tree, a step, the comparison,
    the table, in French on the projector."""
    pages = [p.format(game=game, moves=moves, s=setting) for p in LESSON_PAGES]
    if game == "connect4":
        pages.append(f"/connect4/table?moves={moves}&{setting}")
    for url in pages:
        r = client.get(url + "&lang=fr&proj=1", follow_redirects=True)
        assert r.status_code < 500, url
        assert r.status_code in (200, 400), url       # a 400 is a message, shown in the page


@pytest.fixture(scope="module")
def crawled_server():
    """The server as scripts/serve runs it, without the per-client search budget (one crawler
    asks for more searches than a person would, and a 429 would check nothing)."""
    port = _free_port()
    state = tempfile.mkdtemp(prefix="minimax-crawl-")
    proc = start_gunicorn(port, {**class_env(state), "CLIENT_SEARCH_SECONDS": "1000000"},
                          log_name="gunicorn-crawl.log")
    yield f"http://127.0.0.1:{port}"
    stop_gunicorn(proc)
    shutil.rmtree(state, ignore_errors=True)


@pytest.mark.server
def test_a_crawl_of_every_page_and_setting_meets_no_server_error(crawled_server):
    answers = crawl(http_fetcher(crawled_server, hang=60), limit=LIMIT, base_url=crawled_server)
    errors = [f"{a.status} {a.request.method} {a.request.url} {a.request.data or ''}"
              f" (from {a.request.came_from})" for a in answers if a.status >= 500]
    assert not errors, "\n".join(errors)
    # It checked something: hundreds of pages, every kind of page the course leads to...
    assert len(answers) >= 300
    fetched = [(urlsplit(a.request.url).path, dict(parse_qsl(urlsplit(a.request.url).query)),
                dict(a.request.data), a.request.htmx) for a in answers if a.status == 200]
    paths = {path for path, *_ in fetched}
    for page in ("/", "/course", "/connect4", "/nim", "/connect4/table", "/connect4/compare",
                 "/nim/compare", "/tree/growth", "/nim/theory", "/tree", "/connect4/tree",
                 "/nim/tree", "/connect4/heuristic", "/connect4/edit", "/connect4/move",
                 "/nim/move", "/connect4/ai"):
        assert page in paths, page
    assert any(path.startswith("/c/") for path in paths)                  # a student's page
    assert any("cls" in query for _, query, _, _ in fetched)              # the teacher's board
    # ... in both languages, both modes, as pages and as htmx fragments ...
    for lang in ("fr", "en"):
        for proj in ("1", None):
            assert any(q.get("lang") == lang and q.get("proj") == proj and path == "/course"
                       for path, q, _, _ in fetched), (lang, proj)
    assert any(htmx for *_, htmx in fetched)
    # ... and every value of the settings forms: each level, each algorithm
    on_games = [q for path, q, _, _ in fetched if path in ("/connect4", "/nim")]
    assert {q.get("level") for q in on_games} >= {*LEVELS, "custom"}
    assert {q.get("algo") for q in on_games if q.get("level") == "custom"} >= set(ALGORITHMS)
