"""Class mode through Flask's test client, on both stores (``class_config``: SQLite, then a
real redis-server): the teacher's move reaches a follower's stream, votes count once per
student, a student can neither move nor open a vote, a restart keeps the class, bad codes and
ended classes get a clear page, nicknames and votes are limited."""
import html
import queue
import re
import threading
import time

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from app import create_app


@pytest.fixture()
def app(make_app):
    return make_app()


class Stream:
    """A live stream read by a background thread, its events handed over as they come."""

    def __init__(self, client, url):
        self.response = client.get(url, buffered=False)
        self.chunks: queue.Queue = queue.Queue()
        self.buffer = ""
        self.done = threading.Event()
        self.thread = threading.Thread(target=self._read, daemon=True)
        self.thread.start()

    def _read(self):
        try:
            for chunk in self.response.response:
                self.chunks.put(chunk.decode() if isinstance(chunk, bytes) else chunk)
                if self.done.is_set():
                    break
        except Exception:
            # a stream the test has closed may still be inside the app when the test's app
            # closes its store (a loaded machine: a suite's run beside 4 busy processes met a
            # Redis read on a connection closed under it, reported at the next test's setup)
            if not self.done.is_set():
                raise
        finally:
            self.response.close()

    def event(self, name, timeout=30.0, where=lambda data: True) -> str:
        """The data of the next event ``name`` whose data passes ``where`` (skipping others);
        queue.Empty, failing the test, when none comes within ``timeout`` seconds in all (the
        stream's heartbeats, skipped, must not keep a test waiting for ever)."""
        deadline = time.monotonic() + timeout
        while True:
            while "\n\n" in self.buffer:
                message, self.buffer = self.buffer.split("\n\n", 1)
                lines = message.split("\n")
                kind = next((ln[7:] for ln in lines if ln.startswith("event: ")), None)
                data = "\n".join(ln[6:] for ln in lines if ln.startswith("data: "))
                if kind == name and where(data):
                    return data
            left = deadline - time.monotonic()
            if left <= 0:
                raise queue.Empty(f"no {name!r} event that passes the test within {timeout} s")
            self.buffer += self.chunks.get(timeout=left)

    def close(self):
        self.done.set()
        self.thread.join(30)          # (the next chunk, a beat at most, ends it)


@pytest.fixture()
def streams():
    opened = []

    def open_stream(client, url):
        s = Stream(client, url)
        opened.append(s)
        return s

    yield open_stream
    for s in opened:
        s.close()


def start_class(app, link="/connect4?mode=human-human"):
    """A teacher's browser that started a class from ``link``: (client, code, secret). The
    answer makes it the teacher (a cookie) and opens the board; no URL holds the secret."""
    teacher = app.test_client()
    created = teacher.post("/class", data={"link": link})
    assert created.status_code == 303
    board = created.headers["Location"]
    code = re.search(r"cls=([A-Z0-9]{6})", board).group(1)
    secret = teacher.get_cookie("teach").value.partition(":")[2]
    assert secret and secret not in board
    return teacher, code, secret


def student(app, code):
    s = app.test_client()
    assert s.get(f"/c/{code}").status_code == 200      # gives the anonymous id
    return s


def discs(html):
    return len(re.findall(r'class="disc p[01]"', html))


def test_a_teacher_move_reaches_a_follower_stream(app, streams):
    teacher, code, _ = start_class(app)
    follower = streams(student(app, code), f"/c/{code}/events")
    assert discs(follower.event("board")) == 0
    assert teacher.post(f"/class/{code}/sync", data={"link": "/connect4?mode=human-human&moves=4"},
                        headers={"HX-Request": "true"}).status_code == 204
    # (the stream may first send the board again: its listener (re)connected meanwhile)
    follower.event("board", where=lambda board: discs(board) == 1)
    # undo: the board goes back, and the follower's with it
    teacher.post(f"/class/{code}/sync", data={"link": "/connect4?mode=human-human&moves=4&at=0"})
    follower.event("board", where=lambda board: "Viewing move 0 of 1" in board)
    # a settings change too
    teacher.post(f"/class/{code}/sync",
                 data={"link": "/connect4?mode=human-human&moves=4&at=0&level=easy"})
    follower.event("board", where=lambda board: "AI level: easy" in board)
    # a tree step shows on the students' page too
    teacher.post(f"/class/{code}/sync",
                 data={"link": "/connect4?mode=human-human&moves=4&tree=1&step=7"})
    follower.event("board", where=lambda board: "step 7" in board and discs(board) == 1)


def test_the_stream_says_how_to_pass_proxies_and_beats(app, streams):
    _, code, _ = start_class(app)
    s = streams(student(app, code), f"/c/{code}/events")
    assert s.response.headers["Content-Type"].startswith("text/event-stream")
    assert s.response.headers["X-Accel-Buffering"] == "no"
    assert s.response.headers["Cache-Control"] == "no-cache"
    # a "beat" every CLASS_HEARTBEAT (0.2 s here), its period in ms: the page's watchdog
    assert s.event("beat") == "200"


def test_each_student_votes_once_per_round_and_a_reload_keeps_the_vote(app, streams):
    teacher, code, _ = start_class(app)
    bar = streams(teacher, f"/class/{code}/events")
    bar.event("bar")
    # counts shown live (hidden until the vote closes by default: peer instruction)
    teacher.post(f"/class/{code}/peer", data={"action": "hide", "value": "0"},
                 headers={"HX-Request": "true"})
    assert teacher.post(f"/class/{code}/vote", data={"action": "open"},
                        headers={"HX-Request": "true"}).status_code == 200
    students = [student(app, code) for _ in range(3)]
    for s, col in zip(students, "344"):
        assert s.post(f"/c/{code}/vote", data={"round": "1", "choice": col},
                      headers={"HX-Request": "true"}).status_code == 200
    again = students[0].post(f"/c/{code}/vote", data={"round": "1", "choice": "4"},
                             headers={"HX-Request": "true"})
    assert "Your vote: column 3" in again.get_data(as_text=True)      # the first ballot kept
    assert "Your vote: column 3" in students[0].get(f"/c/{code}").get_data(as_text=True)
    live = bar.event("bar", where=lambda d: "3 votes" in d)
    assert "Vote open: 3 votes" in live
    counts = re.findall(r'<text class="n"[^>]*>(\d+)</text>', live)
    assert sorted(map(int, counts)) == [0, 0, 0, 0, 0, 1, 2]   # counts, one per column
    page = teacher.get(f"/connect4?mode=human-human&cls={code}").get_data(as_text=True)
    assert "Vote open: 3 votes" in page
    closed = teacher.post(f"/class/{code}/vote", data={"action": "close"},
                          headers={"HX-Request": "true"}).get_data(as_text=True)
    assert "Vote closed: 3 votes" in closed and "Play the class's choice: column 4" in closed
    late = student(app, code).post(f"/c/{code}/vote", data={"round": "1", "choice": "4"},
                                   headers={"HX-Request": "true"})
    assert late.status_code == 400 and "This vote is closed." in late.get_data(as_text=True)
    revealed = teacher.post(f"/class/{code}/vote", data={"action": "reveal"},
                            headers={"HX-Request": "true"}).get_data(as_text=True)
    assert "The AI would play column" in revealed and 'class="ai-mark"' in revealed


def test_a_student_cannot_move_open_a_vote_or_end_the_class(app):
    teacher, code, _ = start_class(app)
    s = student(app, code)
    for url, data in ((f"/class/{code}/sync", {"link": "/connect4?moves=4"}),
                      (f"/class/{code}/vote", {"action": "open"}),
                      (f"/class/{code}/end", {})):
        refused = s.post(url, data=data, headers={"HX-Request": "true"})
        assert refused.status_code == 403
        assert "Only the teacher" in refused.get_data(as_text=True)
    # a cookie with another secret, or a teacher link with a wrong key, is refused too
    s.set_cookie("teach", f"{code}:not-the-secret")
    assert s.post(f"/class/{code}/vote", data={"action": "open"}).status_code == 403
    assert s.post(f"/class/{code}/teach", data={"key": "guess"}).status_code == 403
    # the teacher's own cookie, from another site's form: refused
    assert teacher.post(f"/class/{code}/vote", data={"action": "open"},
                        headers={"Origin": "https://elsewhere.example"}).status_code == 403
    assert app.extensions["class_store"].get(code).round == 0
    assert app.extensions["class_store"].get(code).query == "mode=human-human"
    assert teacher.post(f"/class/{code}/vote", data={"action": "open"},
                        headers={"Origin": "http://localhost"}).status_code == 303


def test_a_restarted_app_keeps_the_class_its_board_and_its_teacher(make_app):
    first = make_app()
    teacher, code, _ = start_class(first)
    teacher.post(f"/class/{code}/sync", data={"link": "/connect4?mode=human-human&moves=44"})
    teacher.post(f"/class/{code}/vote", data={"action": "open"})
    voter = student(first, code)
    voter.post(f"/c/{code}/vote", data={"round": "1", "choice": "5"})
    first.extensions["class_hub"].stop()
    second = make_app()                         # a new process, the same store
    client = second.test_client()
    client.set_cookie("teach", teacher.get_cookie("teach").value)
    page = client.get(f"/connect4?mode=human-human&moves=44&cls={code}").get_data(as_text=True)
    # still its teacher; the ballot kept (counts hidden while the vote is open)
    assert "Vote open" in page and "1 of 1 answered" in page and "data-class-sync" in page
    again = second.test_client()
    again.set_cookie("student", voter.get_cookie("student").value)
    reloaded = again.get(f"/c/{code}").get_data(as_text=True)
    assert discs(reloaded) == 2 and "Your vote: column 5" in reloaded


@pytest.mark.parametrize("lang, text", [("en", "There is no class with the code"),
                                        ("fr", "Il n’y a pas de classe")])
def test_a_bad_code_gets_a_clear_page_in_the_page_language(app, lang, text):
    for code in ("ZZZZZZ", "abc", "<script>", "0OOOO1"):
        page = app.test_client().get(f"/c/{code}?lang={lang}")
        assert page.status_code == 404
        assert text in page.get_data(as_text=True)
        assert "<script>" not in page.get_data(as_text=True).split("</header>")[1]
    assert app.test_client().get("/c?code=zzzzzz").status_code == 404
    assert app.test_client().get("/c/ZZZZZZ/events").status_code == 404


def test_an_ended_class_says_so_to_its_students(app, streams):
    teacher, code, _ = start_class(app)
    s = student(app, code)
    follower = streams(s, f"/c/{code}/events")
    follower.event("board")
    ended = teacher.post(f"/class/{code}/end", headers={"HX-Request": "true"})
    assert ended.status_code == 200 and "has ended" in ended.get_data(as_text=True)
    assert ended.headers["HX-Retarget"] == ".class-bar"     # the bar and its stream go
    assert "has ended" in follower.event("closed")
    page = s.get(f"/c/{code}")
    assert page.status_code == 410 and "has ended" in page.get_data(as_text=True)
    assert s.post(f"/c/{code}/vote", data={"round": "1", "choice": "4"}).status_code == 410
    # the board's page is an ordinary game again
    assert "class-bar" not in teacher.get(f"/connect4?cls={code}").get_data(as_text=True)


def test_a_bar_form_sent_without_javascript_leads_back_to_the_teacher_s_own_page(app):
    """Without JavaScript (or a button pressed before the page's script wired it), a bar's
    form is answered with a redirect: back to the page it was sent from (its Referer), the
    tree's step and the projector kept, when that is this class's game page on this host;
    the class's board as stored led to the page without its step. Any other Referer leads
    to that board: never a redirect off this class's page."""
    teacher, code, _ = start_class(app)
    other = start_class(app)[1]

    def back(referer=None):
        sent = teacher.post(f"/class/{code}/vote", data={"action": "open"},
                            headers={"Referer": referer} if referer is not None else {})
        assert sent.status_code == 303
        return sent.headers["Location"]
    board = back()
    assert f"cls={code}" in board and "step=" not in board
    own = f"/connect4?mode=human-human&moves=44&tree=1&step=3&proj=1&cls={code}"
    assert back("http://localhost" + own) == own
    for hostile in (f"https://evil.example{own}", f"http://localhost.evil.example{own}",
                    f"http://localhost@evil.example{own}", f"http://evil.example@localhost/x{own}",
                    f"http://localhost//evil.example{own}", f"//evil.example{own}", own,
                    f"javascript:alert(1)//localhost{own}", "http://[", "",
                    f"http://localhost/nim?cls={code}", f"http://localhost/c/{code}",
                    f"http://localhost/connect4?mode=human-human&cls={other}",
                    f"http://localhost/connect4?cls={other}&cls={code}",
                    f"http://localhost/connect4?mode=human-human&step=3"):
        assert back(hostile) == board, hostile
    # the page's own link as it was, its values whole, written anew (no header split)
    assert back(f"http://localhost/connect4?cls={code}&step=3%0D%0AX:%201") == \
        f"/connect4?cls={code}&step=3%0D%0AX%3A+1"


def test_a_class_started_without_javascript_at_a_tree_s_step_stays_at_that_step(app):
    """Without JavaScript a tree is stepped through by links, each step a whole page with its
    ``step=``; the "Class mode" form on that page sent the game's link without its step, so
    the class opened on the whole tree, every value the class was about to be asked (the
    page's script put the step back, 6dc74a6: a plain form did not). The form sent as a
    browser sends it (no htmx) starts the class at the page's step, phones included."""
    page = ("/connect4?w=4&h=4&moves=1111222&mode=human-human&level=custom&algo=alphabeta-tt"
            "&depth=4&order=natural&tree=1&step=2")
    teacher = app.test_client()
    shown = teacher.get(page).get_data(as_text=True)
    assert "step 2 of" in shown
    form = re.search(r'<form [^>]*class="inline class-start">(.*?)</form>', shown, re.S).group(1)
    link = html.unescape(re.search(r'name="link" value="([^"]*)"', form).group(1))
    created = teacher.post("/class", data={"link": link})
    assert created.status_code == 303
    board = created.headers["Location"]
    assert re.search(r"[?&]step=2(&|$)", board), board
    assert "step 2 of" in teacher.get(board).get_data(as_text=True)
    code = re.search(r"cls=([A-Z0-9]{6})", board).group(1)
    assert "step 2 of" in student(app, code).get(f"/c/{code}").get_data(as_text=True)


def test_a_typed_code_in_any_case_opens_the_class(app):
    _, code, _ = start_class(app)
    joined = app.test_client().get(f"/c?code={code.lower()}")
    assert joined.status_code == 303 and joined.headers["Location"].endswith(f"/c/{code}")


def test_a_student_who_explores_gets_an_ordinary_link_and_a_way_back(app):
    teacher, code, _ = start_class(app)
    teacher.post(f"/class/{code}/sync", data={"link": "/connect4?mode=human-human&moves=43"})
    s = student(app, code)
    page = s.get(f"/c/{code}").get_data(as_text=True)
    explore = re.search(r'href="([^"]+)">Explore from here on my own', page).group(1)
    assert explore == "/connect4?moves=43&amp;mode=human-human"
    own = s.get(explore.replace("&amp;", "&")).get_data(as_text=True)
    assert "class-bar" not in own and f"Rejoin class {code}" in own


def test_nicknames_and_votes_are_limited_in_size_and_rate(app):
    _, code, _ = start_class(app)
    s = student(app, code)
    long = s.post(f"/c/{code}/name", data={"name": "x" * 25}, headers={"HX-Request": "true"})
    assert long.status_code == 400
    assert s.post(f"/c/{code}/name", data={"name": "y" * 5000}).status_code == 413
    answers = [s.post(f"/c/{code}/name", data={"name": f"Ada {i}"},
                      headers={"HX-Request": "true"}).status_code for i in range(6)]
    assert answers == [200] * 3 + [429] * 3      # the two refused above count: 5 a minute
    votes = [s.post(f"/c/{code}/vote", data={"round": "1", "choice": "4"}).status_code
             for _ in range(12)]
    assert votes[-1] == 429 and 400 in votes     # no vote open: refused, then too many
    assert app.test_client().post(f"/c/{code}/vote", data={"round": "1", "choice": "4"}
                                  ).status_code == 400      # no anonymous id: no vote


def test_a_worker_holds_a_bounded_number_of_streams(make_app, streams):
    app = make_app()
    app.extensions["class_hub"].max_streams = 1
    _, code, _ = start_class(app)
    first = streams(student(app, code), f"/c/{code}/events")
    first.event("board")
    refused = student(app, code).get(f"/c/{code}/events")
    assert refused.status_code == 503 and refused.headers["Retry-After"] == "5"


def test_class_mode_starts_from_any_game_page(app):
    page = app.test_client().get("/nim?n=11&k=2&tree=1").get_data(as_text=True)
    assert 'name="link" value="/nim?n=11&amp;k=2&amp;tree=1"' in page
    teacher, code, _ = start_class(app, "/nim?n=11&k=2&tree=1")
    board = teacher.get(f"/nim?n=11&k=2&tree=1&proj=1&cls={code}").get_data(as_text=True)
    assert f"/c/{code}" in board and 'class="qr"' in board
    assert app.test_client().post("/class", data={"link": "https://evil.example/nim"}
                                  ).status_code == 400


FIELDS = st.dictionaries(
    st.sampled_from(["link", "action", "round", "choice", "name", "lang", "key", "x"]),
    st.one_of(st.sampled_from(["open", "close", "reveal", "1", "4", "0", "-1", "99999999999",
                               "/connect4?moves=4", "/nim?n=--5", "//evil.example/nim",
                               "/connect4?moves=48", "<script>", "\x00", "é" * 30, ""]),
              st.text(max_size=40)),
    max_size=5)


@settings(max_examples=120, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(route=st.sampled_from(["/class", "/class/{code}/sync", "/class/{code}/vote",
                              "/c/{code}/vote", "/c/{code}/name", "/class/{code}/end",
                              "/c/ZZZZZZ/vote", "/class/ZZZZZZ/vote", "/class/{code}/teach",
                              "/class/ZZZZZZ/teach"]),
       fields=FIELDS, as_teacher=st.booleans(), htmx=st.booleans())
def test_no_form_sent_to_a_class_crashes_the_app(app, route, fields, as_teacher, htmx):
    """Hostile and random forms, by the teacher and by a student: a 4xx or a page, never a
    5xx, and nothing a student sends changes the board."""
    cached = app.config.setdefault("fuzz_class", {})
    if not cached:
        cached["teacher"], cached["code"], _ = start_class(app)
        cached["student"] = student(app, cached["code"])
    code = cached["code"]
    client = cached["teacher"] if as_teacher else cached["student"]
    board = app.extensions["class_store"].get(code).query
    r = client.post(route.format(code=code), data=fields,
                    headers={"HX-Request": "true"} if htmx else {})
    assert r.status_code < 500, (route, fields, r.status_code)
    if not as_teacher:
        assert app.extensions["class_store"].get(code).query == board


def test_a_store_out_of_reach_is_a_503_to_try_again_and_game_pages_still_work():
    from conftest import _free_port

    app = create_app({"TESTING": True, "REDIS_URL": f"redis://127.0.0.1:{_free_port()}/0"})
    client = app.test_client()
    page = client.get("/c/ABCDEF?lang=fr")
    assert page.status_code == 503 and page.headers["Retry-After"] == "2"
    assert "ne peut pas être joint" in page.get_data(as_text=True)
    assert client.post("/class", data={"link": "/nim"}).status_code == 503
    assert client.get("/nim?cls=ABCDEF").status_code == 200     # an ordinary game meanwhile


def test_two_instances_sharing_the_store_serve_one_class(make_app, streams):
    """The teacher on one instance, a student on another (two processes of one machine
    sharing the SQLite file, or two machines sharing Redis): the move and the ballot cross."""
    a, b = make_app(), make_app()
    teacher, code, _ = start_class(a)
    pupil = student(b, code)
    follower = streams(pupil, f"/c/{code}/events")
    follower.event("board")
    teacher.post(f"/class/{code}/sync", data={"link": "/connect4?mode=human-human&moves=45"})
    follower.event("board", where=lambda board: discs(board) == 2)
    teacher.post(f"/class/{code}/vote", data={"action": "open"})
    follower.event("vote", where=lambda vote: 'name="choice"' in vote)
    pupil.post(f"/c/{code}/vote", data={"round": "1", "choice": "6"})
    page = teacher.get(f"/connect4?mode=human-human&moves=45&cls={code}").get_data(as_text=True)
    assert "Vote open" in page and "1 of 1 answered" in page      # counts hidden, not lost
