"""Pages that draw a search tree on the loop take the trees' lane (issue 37): while its slots
are taken, a tree page is refused at once with a 503 and Retry-After (its drawing never runs),
and a page without a tree is not held back. Counted in drawings, never timed."""
import contextlib
import html
import re
import threading
from concurrent.futures import ThreadPoolExecutor
from urllib.parse import parse_qsl

import pytest

import web.admission as admission
import web.play


@pytest.fixture()
def drawings(monkeypatch):
    calls = []
    original = web.play.tree_panel_in_lane

    def counting(*args, **kwargs):
        calls.append(1)
        return original(*args, **kwargs)
    monkeypatch.setattr(web.play, "tree_panel_in_lane", counting)
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


@contextlib.contextmanager
def full_trees():
    """Every slot of the trees' lane taken (as by a class's phones drawing their trees)."""
    slots = [admission._trees.acquire(blocking=False) for _ in range(admission.TREE_SLOTS)]
    try:
        assert all(slots)
        yield
    finally:
        for taken in slots:
            if taken:
                admission._trees.release()


@pytest.fixture()
def trees_full():
    with full_trees():
        yield


def retry_link(html_text: str, words: str) -> str:
    found = re.search(rf'<a [^>]*href="([^"]*)"[^>]*>{words}</a>', html_text)
    assert found, f"no {words!r} link"
    return html.unescape(found.group(1))


def same_link(a: str, b: str) -> bool:
    """The same path and the same parameters, in any order."""
    (pa, _, qa), (pb, _, qb) = a.partition("?"), b.partition("?")
    return pa == pb and sorted(parse_qsl(qa)) == sorted(parse_qsl(qb))


@pytest.mark.parametrize("lang, busy_words, again", [("en", "busy", "Try again"),
                                                     ("fr", "occupé", "Réessayer")])
def test_a_tree_page_refused_without_javascript_keeps_the_game(app, drawings, lang, busy_words,
                                                               again):
    """Without JavaScript a move is answered with a redirect to the new position's page, its
    tree shown; that page takes the trees' lane, and when the lane was full the answer was
    the app's bare 503 page, "Back to the games": the game, the AI's reply included, gone
    from the page. Refused, it is the game's page as a refused move's htmx answer is (503,
    Retry-After, the position and its moves, the tree off, the message), with a retry that
    keeps the page's whole query: its tree, its step."""
    client = app.test_client()
    moved = client.get(f"/connect4/move?moves=44&col=3&mode=human-ai&level=easy&tree=1"
                       f"&lang={lang}")
    assert moved.status_code == 303
    shown = moved.headers["Location"]
    played = re.search(r"moves=(\d+)", shown).group(1)
    assert played.startswith("443") and len(played) == 4          # the AI replied
    for page in (shown, shown + "&step=3"):
        drawn = len(drawings)
        with full_trees():
            busy = client.get(page)
        text = busy.get_data(as_text=True)
        assert busy.status_code == 503 and busy.headers["Retry-After"], text[:300]
        assert busy_words in text
        assert len(drawings) == drawn                           # refused before any drawing
        assert 'id="game"' in text and len(re.findall(r'class="disc p[01]"', text)) == 4
        assert f"moves={played}" in text                         # its links keep the game
        assert same_link(retry_link(text, again), page)          # the query whole, step too
    assert client.get(shown + "&step=3").status_code == 200


def test_a_tree_step_refused_with_htmx_replaces_the_game_not_the_panel(client, drawings,
                                                                       trees_full):
    """A step of the tree asked by htmx (its target the tree panel) and refused: the game's
    page, busy, replaces the game, not the panel (a page inside the panel)."""
    busy = client.get("/connect4/tree?moves=443&mode=human-ai&level=easy&tree=1&step=3",
                      headers={"HX-Request": "true"})
    assert busy.status_code == 503 and busy.headers["Retry-After"]
    assert busy.headers.get("HX-Retarget") == "#game"
    assert busy.headers.get("HX-Reswap") == "outerHTML"
    text = busy.get_data(as_text=True)
    assert text.lstrip().startswith('<section id="game"') and "busy" in text
    assert not drawings


def test_a_tree_step_with_a_bad_parameter_replaces_the_game_not_the_panel(client):
    """The same for a 400: a tree's step asked by htmx with a parameter the server refuses
    (a step that is no number, a path to no node) answers the game's page with the field to
    blame, which replaces the game, not the panel."""
    for bad in ("step=x", "path=zz"):
        refused = client.get(f"/connect4/tree?moves=443&mode=human-ai&level=easy&tree=1&{bad}",
                             headers={"HX-Request": "true"})
        assert refused.status_code == 400
        assert refused.headers.get("HX-Retarget") == "#game"
        assert refused.headers.get("HX-Reswap") == "outerHTML"
        assert refused.get_data(as_text=True).lstrip().startswith('<section id="game"')


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


@pytest.mark.parametrize("url", [u for u in TREE_PAGES + MOVES
                                 if not u.startswith(("/tree", "/nim/theory"))])
def test_a_tree_panel_is_built_off_the_loop(app, in_pool, built, url):
    """The panel (the tree unfolded or its spine, its subtrees counted, a replay to the step:
    10-30 ms for Connect-4's largest) is built in the trees' lane too, not only drawn there."""
    in_pool()
    built.clear()
    assert app.test_client().get(url, headers=htmx(url)).status_code == 200
    assert built and all(name.startswith("pool") for name in built)


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


# -- the lab's whole page off the loop, a wrong link's 400 included (issue 37: its 400 parsed
# and solved the tree it keeps, twice or three times, on the loop) -------------------------

def lab_tree() -> str:
    """A typed tree near the lab's largest (1 + 7 + 49 + 343 = 400 nodes)."""
    from urllib.parse import quote
    leaves = iter(range(10**4))

    def node(depth):
        if depth == 0:
            return str(next(leaves) % 19 - 9)
        return "[" + ",".join(node(depth - 1) for _ in range(7)) + "]"
    return quote(node(3))


LAB_PAGES = [("/tree?t=" + lab_tree(), 200),
             ("/tree?mode=exercise&check=1&v.R=3&t=" + lab_tree(), 200),
             # wrong links: the tree kept (a wrong setting, a wrong step), or the default
             ("/tree?order=x&t=" + lab_tree(), 400), ("/tree?step=99999&t=" + lab_tree(), 400),
             ("/tree?t=[[1,2],[3,x]]", 400), ("/tree?ex=nim5&notation=course&window=x", 400)]


@pytest.fixture()
def parsed(monkeypatch):
    """The trees the lab parses (``web.exercise.parse_lab``: a wrong link's 400 parses the
    tree it keeps again), each with the thread it was parsed in."""
    import web.exercise
    import web.lab
    threads = []
    original = web.exercise.parse_lab

    def watched(args):
        threads.append(threading.current_thread().name)
        return original(args)
    monkeypatch.setattr(web.exercise, "parse_lab", watched)
    monkeypatch.setattr(web.lab, "parse_lab", watched)
    monkeypatch.setattr(admission, "LIGHT_WAIT", 0.01)
    return threads


@pytest.mark.parametrize("url, status", LAB_PAGES)
def test_the_lab_is_refused_before_any_parsing_when_the_pages_lane_is_full(client, parsed, url,
                                                                          status):
    assert client.get(url).status_code == status
    done = len(parsed)
    assert done >= 1
    slots = [admission._pages.acquire(blocking=False) for _ in range(admission.PAGE_SLOTS)]
    try:
        assert all(slots)
        busy = client.get(url)
        assert busy.status_code == 503 and busy.headers["Retry-After"]
        assert len(parsed) == done                  # refused before any parsing
        assert client.get("/").status_code == 200
        assert client.get("/tictactoe?moves=5").status_code == 200
    finally:
        for _ in slots:
            admission._pages.release()
    assert client.get(url).status_code == status


@pytest.mark.parametrize("url, status", LAB_PAGES)
def test_the_lab_parses_solves_and_draws_off_the_loop_a_wrong_link_too(app, in_pool, parsed,
                                                                       url, status):
    inline = app.test_client().get(url)
    assert inline.status_code == status
    threads = in_pool()
    parsed.clear()
    drawn = app.test_client().get(url)
    assert drawn.status_code == status
    assert parsed and all(name.startswith("pool") for name in parsed)
    assert threads and all(name.startswith("pool") for name in threads)
    assert (re.sub(r"seed=\d+", "seed=", drawn.get_data(as_text=True))
            == re.sub(r"seed=\d+", "seed=", inline.get_data(as_text=True)))


@pytest.mark.parametrize("url, parses", [
    ("/tree?step=99999&t=" + lab_tree(), 1),            # the tree was right: kept as parsed
    ("/tree?mode=exercise&check=1&v.R=" + "9" * 50 + "&t=" + lab_tree(), 1),
    ("/tree?order=x&t=" + lab_tree(), 2),               # the tree alone, parsed again
    ("/tree?t=[[1,2],[3,x]]", 2)])                      # the tree alone was wrong: the default
def test_a_wrong_lab_link_parses_the_tree_it_keeps_once_at_most(client, parsed, url, parses):
    assert client.get(url).status_code == 400
    assert len(parsed) == parses


def test_a_wrong_lab_link_is_a_translated_400_that_keeps_the_tree(client):
    page = client.get("/tree?lang=fr&order=x&t=" + lab_tree())
    assert page.status_code == 400
    text = page.get_data(as_text=True)
    assert "Ordre des coups\u202f: l’une de ces valeurs" in text
    assert text.count('class="node') > 300 or text.count("<circle") > 300    # the tree kept
    wrong = client.get("/tree?lang=fr&t=[[1,2],[3,x]]")
    assert wrong.status_code == 400
    assert "une feuille doit être un nombre" in wrong.get_data(as_text=True)


# -- the class's replay step on the phones (issue 37: its panel was built on the loop) ------

def replay_class(app, link):
    """(teacher, phone, code) of a class whose board is ``link``."""
    from test_classroom import start_class, student
    teacher, code, _ = start_class(app, link)
    return teacher, student(app, code), code


@pytest.fixture()
def built(monkeypatch):
    """The tree panels built (``web.tree_panel._built``), each with its thread's name."""
    import web.tree_panel
    threads = []
    original = web.tree_panel._built

    def watched(*args, **kwargs):
        threads.append(threading.current_thread().name)
        return original(*args, **kwargs)
    monkeypatch.setattr(web.tree_panel, "_built", watched)
    monkeypatch.setattr(admission, "LIGHT_WAIT", 0.01)
    return threads


REPLAY = "/nim?n=5&k=2&mode=human-human&tree=1&step=1"


def test_the_phone_s_replay_step_is_built_in_the_trees_lane_off_the_loop(app, in_pool, built):
    _, phone, code = replay_class(app, REPLAY)
    inline = phone.get(f"/c/{code}")
    assert "On the projector: the search tree, step 1 of" in inline.get_data(as_text=True)
    in_pool()
    built.clear()
    page = phone.get(f"/c/{code}")
    assert page.status_code == 200
    assert "On the projector: the search tree, step 1 of" in page.get_data(as_text=True)
    assert built and all(name.startswith("pool") for name in built)


def test_the_phone_s_replay_step_waits_for_the_trees_lane_and_says_the_step_alone_when_full(
        app, built):
    _, phone, code = replay_class(app, REPLAY)
    before = len(built)
    assert phone.get(f"/c/{code}").status_code == 200
    done = len(built)
    assert done == before + 1
    slots = [admission._trees.acquire(blocking=False) for _ in range(admission.TREE_SLOTS)]
    try:
        assert all(slots)
        page = phone.get(f"/c/{code}")
        # the page itself is not refused (a phone asks for nothing): its step in words, the
        # panel not built
        assert page.status_code == 200
        text = page.get_data(as_text=True)
        assert "on the projector: the search tree, step 1" in text
        assert "phone-step" not in text
        assert len(built) == done
        assert phone.get("/").status_code == 200
    finally:
        for _ in slots:
            admission._trees.release()
    assert "phone-step" in phone.get(f"/c/{code}").get_data(as_text=True)


def test_a_board_with_no_replay_builds_no_panel_for_the_phones(app, built):
    """A search too large to replay (drawn as its spine, no steps): nothing to build."""
    _, phone, code = replay_class(app, "/connect4?moves=44&mode=human-ai&level=medium&tree=1"
                                       "&step=0")
    page = phone.get(f"/c/{code}")
    assert page.status_code == 200
    assert "on the projector: the search tree, step 0" in page.get_data(as_text=True)
    assert built == []


def test_a_wrong_replay_step_is_a_translated_400(app):
    teacher, _, code = replay_class(app, REPLAY)
    wrong = teacher.post(f"/class/{code}/sync", data={"link": REPLAY.replace("step=1", "step=x")},
                         headers={"Accept-Language": "fr"})
    assert wrong.status_code == 400
    assert "Étape" in wrong.get_data(as_text=True)


# -- the teacher's bar with a class exercise (issue 37: its dashboard, every answer marked on a
# tree of up to 400 nodes, was drawn on the loop at each action and each answer) ---------------

def exercise_class(app):
    """(teacher, code) of a class with a tree exercise open."""
    from test_classroom import start_class
    teacher, code, _ = start_class(app, "/nim?n=5&k=3&mode=human-human")
    assert teacher.post(f"/class/{code}/exercise", data={"action": "start",
                                                         "source": "random:3"},
                        headers={"HX-Request": "true"}).status_code == 200
    return teacher, code


@pytest.fixture()
def bars(monkeypatch):
    """The teacher's bars drawn (``class_bar.html``), each with its thread's name."""
    import web.classroom.views as views
    threads = []
    original = views.render_block

    def watched(template, *args, **kwargs):
        if template == "class_bar.html":
            threads.append(threading.current_thread().name)
        return original(template, *args, **kwargs)
    monkeypatch.setattr(views, "render_block", watched)
    monkeypatch.setattr(admission, "PHONE_WAIT", 0.01)
    return threads


def test_the_teacher_s_exercise_dashboard_is_drawn_off_the_loop(app, in_pool, bars):
    teacher, code = exercise_class(app)
    in_pool()
    bars.clear()
    done = teacher.post(f"/class/{code}/exercise", data={"action": "close"},
                        headers={"HX-Request": "true"})
    assert done.status_code == 200 and "exercise" in done.get_data(as_text=True)
    assert bars and all(name.startswith("pool") for name in bars)


def test_the_teacher_s_exercise_dashboard_waits_for_the_pages_lane_and_is_refused_when_full(
        app, bars):
    """The pages' lane, not the trees': the class's phones drawing their trees never hold
    their teacher's dashboard back."""
    teacher, code = exercise_class(app)
    trees = [admission._trees.acquire(blocking=False) for _ in range(admission.TREE_SLOTS)]
    try:
        assert all(trees)
        assert teacher.post(f"/class/{code}/exercise", data={"action": "close"},
                            headers={"HX-Request": "true"}).status_code == 200
    finally:
        for _ in trees:
            admission._trees.release()
    slots = [admission._pages.acquire(blocking=False) for _ in range(admission.PAGE_SLOTS)]
    try:
        assert all(slots)
        bars.clear()
        busy = teacher.post(f"/class/{code}/exercise?lang=fr", data={"action": "close"},
                            headers={"HX-Request": "true"})
        assert busy.status_code == 503 and busy.headers["Retry-After"]
        assert "Le serveur est occupé" in busy.get_data(as_text=True)     # translated
        assert bars == []                                 # refused before any drawing
        assert teacher.get("/").status_code == 200
        # a bar without an exercise is drawn on the loop, never refused
        from test_classroom import start_class
        other, plain, _ = start_class(app)
        assert other.post(f"/class/{plain}/vote", data={"action": "open"},
                          headers={"HX-Request": "true"}).status_code == 200
        assert bars
    finally:
        for _ in slots:
            admission._pages.release()
    assert teacher.post(f"/class/{code}/exercise", data={"action": "reopen"},
                        headers={"HX-Request": "true"}).status_code == 200


def test_the_teacher_s_questions_build_no_panel_for_a_search_too_large_to_replay(app, built):
    """The teacher's bar asks its questions on a replay's step (``board_questions``, drawn
    where the bar is, on the loop too): a search too large to replay has none, and its panel
    (10-31 ms for Connect-4's largest) is not built; a replay's, small, is."""
    from types import SimpleNamespace

    from web.classroom.questions import board_questions
    with app.test_request_context("/"):
        large = SimpleNamespace(game="connect4",
                                query="moves=44&mode=human-ai&level=medium&tree=1&step=0")
        assert board_questions(large) is None
        assert built == []
        small = SimpleNamespace(game="nim", query="n=5&k=2&mode=human-human&tree=1&step=1")
        assert board_questions(small)
        assert len(built) == 1


# -- a lesson plan (up to 6,000 characters, each line read as its page would: 10-20 ms for the
# longest, issue 37), read off the loop in the pages' lane; past its 40 items, read no further

PLAN = "vote /nim?n=5&k=3&mode=human-human\nexercise /tree?ex=nim4&algo=minimax\njump /x\n"


@pytest.fixture()
def plans(monkeypatch):
    """The plans read (``parse_plan``), each with its thread's name."""
    import web.classroom.activities as activities
    threads = []
    original = activities.parse_plan

    def watched(text):
        threads.append(threading.current_thread().name)
        return original(text)
    monkeypatch.setattr(activities, "parse_plan", watched)
    monkeypatch.setattr(admission, "LIGHT_WAIT", 0.01)
    return threads


def plan_request(client, where):
    if where == "page":
        return client.get("/class/plan", query_string={"plan": PLAN})
    return client.post("/class/plan/start", data={"plan": PLAN})


@pytest.mark.parametrize("where, status", [("page", 200), ("start", 303)])
def test_a_plan_is_read_off_the_loop_and_refused_before_reading_when_the_lane_is_full(
        app, in_pool, plans, where, status):
    client = app.test_client()
    in_pool()
    assert plan_request(client, where).status_code == status
    assert plans and all(name.startswith("pool") for name in plans)
    done = len(plans)
    slots = [admission._pages.acquire(blocking=False) for _ in range(admission.PAGE_SLOTS)]
    try:
        assert all(slots)
        busy = plan_request(client, where)
        assert busy.status_code == 503 and busy.headers["Retry-After"]
        assert len(plans) == done                       # refused before any reading
        assert client.get("/").status_code == 200
    finally:
        for _ in slots:
            admission._pages.release()


def test_a_plan_past_its_items_is_a_translated_400_read_no_further(client, monkeypatch):
    import web.classroom.plan as plan
    read = []
    original = plan.game_from_link

    def counting(link):
        read.append(link)
        return original(link)
    monkeypatch.setattr(plan, "game_from_link", counting)
    page = client.get("/class/plan", query_string={"plan": "vote /nim\n" * 600, "lang": "fr"})
    assert page.status_code == 400
    assert "un plan d’au plus 40" in page.get_data(as_text=True).replace("\u202f", " ")
    assert len(read) == plan.MAX_ITEMS + 1


# -- the teacher's whole page with a class exercise open (issue 37: its dashboard was drawn on the
# loop with the page; refused, it must be the app's 503, never a 500 from the game's handler) ----

@pytest.fixture()
def whole_pages(monkeypatch):
    """The game pages drawn whole (``web.htmx.render_template``), each with its thread's name."""
    import web.htmx
    threads = []
    original = web.htmx.render_template

    def watched(*args, **kwargs):
        threads.append(threading.current_thread().name)
        return original(*args, **kwargs)
    monkeypatch.setattr(web.htmx, "render_template", watched)
    monkeypatch.setattr(admission, "PHONE_WAIT", 0.01)
    monkeypatch.setattr(admission, "LIGHT_WAIT", 0.01)
    return threads


def test_the_teacher_s_whole_page_with_an_exercise_is_drawn_off_the_loop(app, in_pool,
                                                                         whole_pages):
    teacher, code = exercise_class(app)
    url = f"/nim?n=5&k=3&mode=human-human&cls={code}"
    inline = teacher.get(url)
    assert inline.status_code == 200 and whole_pages == ["MainThread"]
    in_pool()
    whole_pages.clear()
    drawn = teacher.get(url)
    assert drawn.status_code == 200
    assert whole_pages and all(name.startswith("pool") for name in whole_pages)


def test_the_teacher_s_whole_page_with_an_exercise_is_refused_503_never_500_when_the_lane_is_full(
        app, whole_pages):
    teacher, code = exercise_class(app)
    from test_classroom import start_class
    other, plain, _ = start_class(app, "/nim?n=5&k=3&mode=human-human")
    base = "/nim?n=5&k=3&mode=human-human&lang=fr"
    slots = [admission._pages.acquire(blocking=False) for _ in range(admission.PAGE_SLOTS)]
    trees = [admission._trees.acquire(blocking=False) for _ in range(admission.TREE_SLOTS)]
    try:
        assert all(slots) and all(trees)
        # the page, a wrong parameter's 400 page, a tree's 503 page (the game's handler draws
        # the page again, its class bar too): each the app's translated 503, drawn nothing
        for url in (f"{base}&cls={code}", f"{base}&cls={code}&level=zzz",
                    f"{base}&cls={code}&tree=1"):
            whole_pages.clear()
            busy = teacher.get(url)
            assert busy.status_code == 503 and busy.headers["Retry-After"], url
            assert "Le serveur est occupé" in busy.get_data(as_text=True)
            assert whole_pages == [], url                      # refused before any drawing
        # the teacher's page with no exercise, a phone's view of the board: on the loop
        assert other.get(f"{base}&cls={plain}").status_code == 200
        assert app.test_client().get(f"{base}&cls={code}").status_code == 200
        assert teacher.get("/").status_code == 200
    finally:
        for _ in slots:
            admission._pages.release()
        for _ in trees:
            admission._trees.release()
    assert teacher.get(f"{base}&cls={code}").status_code == 200
