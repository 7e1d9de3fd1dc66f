"""Hostile and random requests: never a 5xx, never a response slower than the bound.
A few hundred here; ``bench/fuzz.py`` sends 10,000 or more and prints a report."""
import time

from hypothesis import HealthCheck, given, settings

from tests.fuzzing import requests

# Searches are bounded at about 2 s (the tree panel may add a count); this generous bound
# keeps the test about hangs, not about the machine's speed.
BOUND_SECONDS = 6.0


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(req=requests())
def test_no_request_crashes_or_hangs_the_app(client, req):
    url, headers = req    # the client keeps no state between requests: sharing it is safe
    start = time.perf_counter()
    r = client.get(url, headers=headers)
    elapsed = time.perf_counter() - start
    r.close()      # a static file's handle is released when the response is closed
    assert r.status_code < 500, (url, r.status_code)
    assert elapsed < BOUND_SECONDS, (url, elapsed)
    if r.status_code == 400 and r.mimetype == "text/html":
        body = r.get_data(as_text=True)
        assert 'role="alert"' in body or "<h1>400" in body or 'class="error"' in body, url
        assert "<script>alert(1)</script>" not in body
