"""Hostile and random requests: never a 5xx, a 400 that says why. A few hundred here;
``bench/fuzz.py`` sends 10,000 or more against a served copy and reports the latencies (how
fast is the bench's question, never a test's: a test that timed requests failed on a loaded
machine)."""
from urllib.parse import urlencode

from hypothesis import HealthCheck, given, settings, strategies as st

from tests.fuzzing import (FORM_VALUES, HOSTILE, hostile_requests, one_parameter, requests,
                           wsgi_status)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(req=requests())
def test_no_request_crashes_the_app(client, req):
    url, headers = req    # the client keeps no state between requests: sharing it is safe
    r = client.get(url, headers=headers)
    r.close()      # a static file's handle is released when the response is closed
    assert r.status_code < 500, (url, r.status_code)
    if r.status_code == 400 and r.mimetype == "text/html":
        body = r.get_data(as_text=True)
        assert 'role="alert"' in body or "<h1>400" in body or 'class="error"' in body, url
        assert "<script>alert(1)</script>" not in body


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(url=one_parameter())
def test_every_parameter_of_every_route_answers_below_500_whatever_its_value(client, url):
    """Issue 11: "--5", "---1", "+-3", percent-escapes that are not UTF-8, the same parameter
    twice... A value that cannot be read is a 400 with a message, never a 500."""
    r = client.get(url)
    r.close()
    assert r.status_code < 500, (url, r.status_code)


def test_the_shapes_that_once_answered_500_are_400s(client):
    for url in ["/nim?n=--5", "/nim?k=---1", "/nim?at=--5", "/connect4/compare?moves=44&cd=--5",
                "/connect4/peek?moves=4&at=---1", "/nim/tree?moves=1&tree=1&step=---1",
                "/connect4?w=--5", "/connect4?h=---1", "/nim/move?take=--1",
                "/tree?mode=exercise&check=1&v.R=" + "9" * 50]:
        assert client.get(url).status_code == 400, url
    # an answer that is not a number is marked as such in the exercise (the other answers kept)
    page = client.get("/tree?mode=exercise&check=1&v.R=nan&v.1=3").get_data(as_text=True)
    assert "“nan” is not a number" in page and 'name="v.1" value="3"' in page
    # a query parameter named like a part of the path (found by the fuzz test)
    assert client.get("/connect4?game=x").status_code == 200
    assert client.get("/c/ZZZZZZ?code=x").status_code == 404
    for url in ["/nim?n=94&tree=1", "/nim?n=99&k=9&tree=1"]:
        assert client.get(url).status_code == 200, url


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(req=hostile_requests())
def test_issue_22_shapes_never_answer_500(app, req):
    """url_for's own names as parameters (?endpoint=, ?_method=), Host headers that are no
    host name, HEAD everywhere, form bodies with links that are not URLs: the app's own WSGI
    call (the test client would read the Host header itself)."""
    method, url, headers, body = req
    status = wsgi_status(app, method, url, headers, body)
    assert status < 500, (method, url, headers, body, status)


# A class with a tree exercise open (issue 37: its phones draw the tree in the trees' lane,
# its dashboard and exports mark the answers once): hostile answers from a phone, hostile
# actions and export parameters from its teacher, never a 5xx.
_exercise_classes = {}


def exercise_class(app):
    """(teacher, phone, code) of a class with an exercise open, made once per app."""
    import re
    if id(app) not in _exercise_classes:
        teacher = app.test_client()
        created = teacher.post("/class", data={"link": "/nim?n=5&k=3&mode=human-human"})
        code = re.search(r"cls=([A-Z0-9]{6})", created.headers["Location"]).group(1)
        assert teacher.post(f"/class/{code}/exercise", data={"action": "start",
                                                             "source": "random:3"},
                            headers={"HX-Request": "true"}).status_code == 200
        phone = app.test_client()
        assert phone.get(f"/c/{code}").status_code == 200
        _exercise_classes[id(app)] = (teacher, phone, code)
    return _exercise_classes[id(app)]


ANSWER_KEYS = st.sampled_from(["seq", "v.R", "v.1", "v.2", "a.1", "b.2", "a.R", "p", "p", "w",
                               "v.1.1", "v.9.9", "v.", "x"])


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(fields=st.lists(st.tuples(ANSWER_KEYS, FORM_VALUES), max_size=6),
       right_seq=st.booleans(), action=st.tuples(st.sampled_from(["open", "close", "reopen",
                                                                  "x", ""]), FORM_VALUES),
       export=st.tuples(st.sampled_from(["exercise.csv", "summary", "summary.csv"]),
                        st.sampled_from(["per", "seq", "sep", "lang", "proj"]), HOSTILE))
def test_a_class_exercise_takes_hostile_answers_actions_and_exports_below_500(
        app, fields, right_seq, action, export):
    teacher, phone, code = exercise_class(app)
    body = urlencode(([("seq", "1")] if right_seq else []) + fields)
    sent = phone.post(f"/c/{code}/exercise", data=body, headers={
        "HX-Request": "true", "Content-Type": "application/x-www-form-urlencoded"})
    assert sent.status_code < 500, (body, sent.status_code)
    name, value = action
    done = teacher.post(f"/class/{code}/exercise", data={"action": name, "node": value},
                        headers={"HX-Request": "true"})
    assert done.status_code < 500, (action, done.status_code)
    if name == "close":
        teacher.post(f"/class/{code}/exercise", data={"action": "reopen"},
                     headers={"HX-Request": "true"})
    path, param, value = export
    shown = teacher.get(f"/class/{code}/{path}?{urlencode({param: value})}")
    assert shown.status_code < 500, (path, param, value, shown.status_code)
    for page in (f"/c/{code}", f"/nim?n=5&k=3&mode=human-human&cls={code}&proj=1"):
        drawn = (phone if page.startswith("/c/") else teacher).get(page)
        assert drawn.status_code < 500, (page, drawn.status_code)


# A class with the heuristic workshop open, then its tournament (issues 38, 39): hostile
# heuristics from a phone, hostile actions from its teacher, hostile parameters on the
# tournament's pages, exports and forms, never a 5xx.
_workshop_classes = {}


def workshop_class(app):
    """(teacher, phone, code, seq) of a class with the heuristic workshop open, made once per
    app."""
    import re
    if id(app) not in _workshop_classes:
        app.config["TOURNAMENT_RUNNER"] = "manual"     # a tournament started plays no game
        teacher = app.test_client()
        created = teacher.post("/class", data={"link": "/connect4?mode=human-human"})
        code = re.search(r"cls=([A-Z0-9]{6})", created.headers["Location"]).group(1)
        bar = teacher.post(f"/class/{code}/heuristic", data={"action": "start", "depth": "1"},
                           headers={"HX-Request": "true"})
        assert bar.status_code == 200
        phone = app.test_client()
        page = phone.get(f"/c/{code}")
        seq = re.search(r'name="seq" value="(\d+)"', page.get_data(as_text=True)).group(1)
        _workshop_classes[id(app)] = (teacher, phone, code, seq)
    return _workshop_classes[id(app)]


TOURNAMENT_PAGES = st.sampled_from(["/connect4/tournament/live/{code}",
                                    "/connect4/tournament/live/{code}/standings.csv",
                                    "/connect4/tournament/live/{code}/why/0",
                                    "/connect4/tournament/live/{code}/why/99999",
                                    "/class/{code}/heuristics.csv", "/c/{code}",
                                    "/connect4/workshop", "/connect4/tournament",
                                    "/connect4/tournament/results"])


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(heuristic=st.tuples(st.sampled_from(["h", "seq", "depth", "x"]), FORM_VALUES),
       right_seq=st.booleans(),
       action=st.tuples(st.sampled_from(["start", "close", "reopen", "end", "x", ""]),
                        st.sampled_from(["depth", "action", "x"]), FORM_VALUES),
       page=st.tuples(TOURNAMENT_PAGES, st.sampled_from(
           ["h", "prev", "depth", "moves", "t", "e", "boss", "openings", "lang", "proj", "seq",
            "sep", "per"]), HOSTILE),
       form=st.tuples(st.sampled_from(["start", "finale"]),
                      st.lists(st.tuples(st.sampled_from(["lines", "boss", "depth", "openings",
                                                          "action", "x"]), FORM_VALUES),
                               max_size=4)))
def test_a_class_workshop_and_its_tournament_take_hostile_input_below_500(
        app, heuristic, right_seq, action, page, form):
    teacher, phone, code, seq = workshop_class(app)
    name, value = heuristic
    body = urlencode(([("seq", seq)] if right_seq else []) + [(name, value)])
    sent = phone.post(f"/c/{code}/heuristic", data=body, headers={
        "HX-Request": "true", "Content-Type": "application/x-www-form-urlencoded"})
    assert sent.status_code < 500, (body, sent.status_code)
    verb, field, value = action
    done = teacher.post(f"/class/{code}/heuristic", data={"action": verb, field: value},
                        headers={"HX-Request": "true"})
    assert done.status_code < 500, (action, done.status_code)
    page_and_form_below_500(teacher, phone, code, "connect4", page, form)


# A tic-tac-toe class whose tournament's entries are open (issue 39: the phones type their
# bots on the tournament's page): hostile entries from a phone, hostile parameters on its
# pages, hostile forms from its teacher, never a 5xx.
_entries_classes = {}


def entries_class(app):
    """(teacher, phone, code) of a tic-tac-toe class with its tournament's entries open."""
    import re
    if id(app) not in _entries_classes:
        app.config["TOURNAMENT_RUNNER"] = "manual"
        teacher = app.test_client()
        created = teacher.post("/class", data={"link": "/tictactoe?mode=human-human"})
        code = re.search(r"cls=([A-Z0-9]{6})", created.headers["Location"]).group(1)
        assert teacher.post(f"/tictactoe/tournament/live/{code}/open").status_code == 303
        phone = app.test_client()
        assert phone.get(f"/c/{code}").status_code == 200
        _entries_classes[id(app)] = (teacher, phone, code)
    return _entries_classes[id(app)]


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(entry=st.lists(st.tuples(st.sampled_from(["name", "h", "x", "lang"]), FORM_VALUES),
                      max_size=3),
       page=st.tuples(st.sampled_from(["/tictactoe/tournament/live/{code}",
                                       "/tictactoe/tournament/live/{code}/standings.csv",
                                       "/tictactoe/tournament/live/{code}/why/0",
                                       "/connect4/tournament/live/{code}",
                                       "/tictactoe/tournament"]),
                      st.sampled_from(["e", "boss", "depth", "openings", "game", "code", "lang",
                                       "proj", "_external", "endpoint"]), HOSTILE),
       form=st.tuples(st.sampled_from(["open", "finale", "entry"]),   # not a start: it would
                      # close the entries for the next examples
                      st.lists(st.tuples(st.sampled_from(["lines", "boss", "depth", "openings",
                                                          "sub", "name", "h", "action"]),
                                         FORM_VALUES), max_size=4)))
def test_a_class_tournaments_open_entries_take_hostile_input_below_500(app, entry, page, form):
    teacher, phone, code = entries_class(app)
    sent = phone.post(f"/tictactoe/tournament/live/{code}/entry", data=urlencode(entry),
                      headers={"Content-Type": "application/x-www-form-urlencoded"})
    assert sent.status_code < 500, (entry, sent.status_code)
    page_and_form_below_500(teacher, phone, code, "tictactoe", page, form)


def page_and_form_below_500(teacher, phone, code, game, page, form):
    """A class's page, with a hostile parameter, as the teacher and a phone open it; then a
    hostile form on ``game``'s class tournament from the teacher: never a 5xx."""
    path, param, value = page
    url = path.format(code=code) + "?" + urlencode({param: value})
    for client in (teacher, phone):
        shown = client.get(url)
        shown.close()
        assert shown.status_code < 500, (url, shown.status_code)
    where, fields = form
    posted = teacher.post(f"/{game}/tournament/live/{code}/{where}", data=urlencode(fields),
                          headers={"Content-Type": "application/x-www-form-urlencoded"})
    assert posted.status_code < 500, (where, fields, posted.status_code)
