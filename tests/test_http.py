"""Issue 11's HTTP details: caches can never mix up the page and its fragment, the compressed
and the plain body; hashed assets are cached for a year."""
import re

GZ = {"Accept-Encoding": "gzip"}


def fetch(client, url, headers=None):
    """The response, read and closed (a static file's handle is released on close)."""
    r = client.get(url, headers=headers or {})
    r.get_data()
    r.close()
    return r


def test_the_redirect_after_a_move_says_it_varies_with_hx_request(client):
    r = fetch(client, "/connect4/move?moves=44&col=3&level=beginner")
    assert r.status_code == 303 and "HX-Request" in r.headers["Vary"]


def test_every_compressible_response_varies_with_accept_encoding_compressed_or_not(client):
    for headers in ({}, GZ, {"Accept-Encoding": "gzip;q=0"}):
        for url in ["/connect4", "/nim?n=5", "/static/app.css", "/tree"]:
            r = fetch(client, url, headers)
            assert "Accept-Encoding" in r.headers.get("Vary", ""), (url, headers)
    assert "Content-Encoding" not in fetch(client, "/connect4", {"Accept-Encoding": "gzip;q=0"}).headers
    assert fetch(client, "/connect4", GZ).headers["Content-Encoding"] == "gzip"


def test_the_compressed_and_plain_forms_of_a_file_have_different_etags(client):
    plain = fetch(client, "/static/app.css")
    packed = fetch(client, "/static/app.css", GZ)
    assert packed.headers["Content-Encoding"] == "gzip"
    assert plain.headers["ETag"] and packed.headers["ETag"]
    assert plain.headers["ETag"] != packed.headers["ETag"]


def test_assets_whose_url_carries_their_hash_are_cached_for_a_year(client):
    html = fetch(client, "/").get_data(as_text=True)
    css = re.search(r'href="(/static/app\.css\?v=[0-9a-f]+)"', html).group(1)
    cache = fetch(client, css).headers["Cache-Control"]
    assert "immutable" in cache and "max-age=31536000" in cache
    assert "immutable" not in fetch(client, "/static/app.css").headers.get("Cache-Control", "")


def test_a_client_that_asked_for_too_much_search_time_gets_429_and_keeps_its_game():
    from app import create_app
    client = create_app({"TESTING": True, "CLIENT_SEARCH_SECONDS": 0.05}).test_client()
    fetch(client, "/connect4")                     # a browser: its first page gives its id
    url = "/connect4/compare?moves=4453&cd=5"      # a heavy search: well over 50 ms
    assert fetch(client, url).status_code == 200
    r = fetch(client, "/connect4/ai?moves=4453&mode=ai-human", {"HX-Request": "true"})
    assert r.status_code == 429 and int(r.headers["Retry-After"]) > 0
    html = r.get_data(as_text=True)
    assert "many searches" in html
    assert html.split('class="legend"')[0].count('class="disc p') == 4   # the game as linked


def test_the_downloaded_svg_may_use_its_own_styles_and_nothing_else(client):
    """Issue 11: the tree's SVG keeps its <style> (it must look the same opened from a disk);
    the app's page policy (style-src 'self') would block it when the file is opened from us."""
    r = fetch(client, "/nim/tree.svg?n=5&tree=1&moves=1&mode=ai-human")
    assert r.status_code == 200 and "<style>" in r.get_data(as_text=True)
    policy = dict(d.strip().split(" ", 1) for d in r.headers["Content-Security-Policy"].split(";"))
    assert "'unsafe-inline'" in policy["style-src"]
    assert policy["default-src"] == "'none'" and "script-src" not in policy   # no script at all
    # pages keep theirs: no inline style or script
    page = fetch(client, "/nim?n=5").headers["Content-Security-Policy"]
    assert "unsafe-inline" not in page


def test_a_classroom_behind_one_address_is_not_one_client():
    """Thirty students behind a school's router share one address: each browser has its own
    search-time budget (an anonymous cookie), so one student's heavy use never answers 429 to
    another."""
    from app import create_app
    app = create_app({"TESTING": True, "CLIENT_SEARCH_SECONDS": 0.05})
    alice, bob = app.test_client(), app.test_client()        # the same address, 127.0.0.1
    for student in (alice, bob):
        fetch(student, "/connect4")                           # the first page gives the id
        assert student.get_cookie("client") is not None
    assert fetch(alice, "/connect4/compare?moves=4453&cd=5").status_code == 200
    hx = {"HX-Request": "true"}
    assert fetch(alice, "/connect4/ai?moves=4453&mode=ai-human", hx).status_code == 429
    assert fetch(bob, "/connect4/ai?moves=4453&mode=ai-human", hx).status_code == 200
    # static files carry no cookie (caches share them)
    assert "Set-Cookie" not in fetch(app.test_client(), "/static/app.css").headers


def test_every_page_that_searches_answers_a_busy_client_with_429_not_500():
    """The fuzz test found /connect4/table answering 500 to a client past its search budget:
    the table page, like the comparison and a game, says 429 and when to come back, in the
    page's language, with what it can show without searching."""
    from app import create_app
    client = create_app({"TESTING": True, "CLIENT_SEARCH_SECONDS": 0.05}).test_client()
    fetch(client, "/connect4")                               # a browser: its id
    assert fetch(client, "/connect4/compare?moves=4453&cd=5").status_code == 200   # the budget
    for url in ("/connect4/table?moves=4453&ttd=5&lang=fr", "/connect4/compare?moves=44&cd=5"):
        r = fetch(client, url)
        assert r.status_code == 429 and int(r.headers["Retry-After"]) > 0, url
    html = fetch(client, "/connect4/table?moves=4453&ttd=5&lang=fr").get_data(as_text=True)
    assert "La clé de Zobrist de la position" in html            # the key needs no search
    assert "recherches" in html                                  # why, in French
