"""Hostile input, bounded work and safe headers (issue 6), beyond the fuzz test."""
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
ROUTES = ["/", "/connect4", "/nim", "/tree", "/nim/theory", "/connect4/compare",
          "/connect4/tree?tree=1", "/static/app.css", "/chess"]


@pytest.mark.parametrize("url", ROUTES)
def test_every_response_carries_the_security_headers(client, url):
    r = client.get(url)
    r.close()
    csp = r.headers["Content-Security-Policy"]
    assert "script-src 'self'" in csp and "style-src 'self'" in csp and "'unsafe-inline'" not in csp
    assert "frame-ancestors 'none'" in csp
    assert r.headers["X-Content-Type-Options"] == "nosniff"
    assert r.headers["Referrer-Policy"] == "same-origin"
    assert r.headers["X-Frame-Options"] == "DENY"


def test_typed_text_is_escaped_everywhere_it_comes_back(client):
    attack = '"><script>alert(1)</script>'
    for url in [f"/tree?t={attack}", f"/connect4?moves={attack}", f"/nim?variant={attack}",
                f"/tree?mode=exercise&check=1&v.R={attack}"]:
        body = client.get(url).get_data(as_text=True)
        assert "<script>alert(1)</script>" not in body, url


@pytest.mark.parametrize("url", [
    "/connect4?level=custom&algo=minimax&depth=8&time=1000&moves=44",
    "/connect4/ai?mode=ai-ai&level=custom&algo=minimax&depth=8&time=1000",
    "/connect4?w=9&h=9&level=custom&algo=iterative&depth=20&time=1000&tree=1",
    "/connect4/compare?w=9&h=9&level=custom&algo=alphabeta&depth=12",
])
def test_the_heaviest_requests_stay_bounded_in_size(client, url):
    r = client.get(url, headers={"HX-Request": "true"})
    assert r.status_code == 200
    assert len(r.data) < 200_000, len(r.data)


def test_a_stylesheet_goes_over_the_wire_without_its_comments_and_nothing_else_lost(client):
    """static/app.css says why its rules are there in comments (a third of it): the browser
    gets the rules alone, gzip or not, and a conditional request still gets its 304."""
    import re
    source = (ROOT / "static" / "app.css").read_text()
    assert "/*" in source
    rules = re.sub(r"/\*.*?\*/", "", source, flags=re.S)
    for headers in ({}, {"Accept-Encoding": "gzip"}):
        r = client.get("/static/app.css", headers=headers)
        body = r.data
        if r.headers.get("Content-Encoding") == "gzip":
            import gzip
            body = gzip.decompress(body)
        assert r.status_code == 200 and body.decode() == rules
        assert int(r.headers["Content-Length"]) == len(r.data)
        r.close()
    plain = client.get("/static/app.css")
    plain.close()
    again = client.get("/static/app.css", headers={"If-None-Match": plain.headers["ETag"]})
    again.close()
    assert again.status_code == 304


def test_the_page_weight_script_meets_its_goals():
    # <= 60 KB the first load of each page, <= 8 KB a click without the tree (gzip)
    out = subprocess.run([sys.executable, "bench/page_weight.py"], cwd=ROOT,
                         capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stdout + out.stderr
