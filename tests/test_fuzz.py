"""Hostile and random requests: never a 5xx, a 400 that says why. A few hundred here;
``bench/fuzz.py`` sends 10,000 or more against a served copy and reports the latencies (how
fast is the bench's question, never a test's: a test that timed requests failed on a loaded
machine)."""
from hypothesis import HealthCheck, given, settings


from tests.fuzzing import hostile_requests, one_parameter, requests, wsgi_status


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
