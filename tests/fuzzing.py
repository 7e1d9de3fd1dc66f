"""Random and hostile requests for every route, shared by the fuzz test (a few hundred in
the suite) and ``bench/fuzz.py`` (10,000 or more, with a report)."""
from urllib.parse import quote, quote_from_bytes, urlencode

from hypothesis import strategies as st

ROUTES = ["/", "/connect4", "/connect4/move", "/connect4/ai", "/connect4/tree",
          "/connect4/tree.svg", "/connect4/compare", "/connect4/peek", "/nim", "/nim/move",
          "/nim/ai", "/nim/tree", "/nim/tree.svg", "/nim/compare", "/nim/peek", "/nim/theory",
          "/tictactoe", "/tictactoe/move", "/tictactoe/ai", "/tictactoe/tree",
          "/tictactoe/tree.svg", "/tictactoe/compare", "/tictactoe/peek",
          "/tree", "/c", "/c/ZZZZZZ", "/c/ZZZZZZ/events", "/class/ZZZZZZ/teach",
          "/connect4/review", "/connect4/review/learn", "/nim/review", "/nim/review/learn",
          "/tictactoe/review", "/tictactoe/review/learn", "/class/ZZZZZZ/exercise.csv",
          "/class/ZZZZZZ/summary.csv", "/class/ZZZZZZ/summary",
          "/course", "/connect4/edit", "/connect4/table", "/connect4/hints", "/connect4/heuristic",
          "/connect4/workshop", "/connect4/tournament", "/connect4/tournament/live/ZZZZZZ",
          "/connect4/tournament/live/ZZZZZZ/events", "/connect4/tournament/live/ZZZZZZ/standings.csv",
          "/connect4/tournament/live/ZZZZZZ/why/0", "/connect4/tournament/results",
          "/class/ZZZZZZ/heuristics.csv", "/class/plan", "/course/connect4/figure.svg",
          "/tictactoe/tournament", "/tictactoe/tournament/results",
          "/tictactoe/tournament/live/ZZZZZZ", "/nim/tournament",
          "/course/nim/figure.svg", "/marienbad", "/marienbad/move",
          "/marienbad/ai", "/marienbad/review", "/marienbad/theory", "/tree/growth", "/static/app.css", "/nope", "/favicon.ico"]
PARAMS = ["moves", "at", "col", "take", "cell", "mode", "level", "algo", "depth", "time", "heur",
          "window", "order", "w", "h", "n", "k", "variant", "play", "tree", "td", "proj", "path",
          "step", "lang", "t", "root", "check", "p", "v.R", "v.1", "v.2.1", "cls", "code",
          "key", "game", "board", "notation", "hints", "alpha", "side", "players", "rest",
          "who", "try", "per", "sep", "seq", "prev", "e", "boss", "openings", "heaps", "step", "t"]

HOSTILE = st.sampled_from([
    "", " ", "0", "-1", "1e9", "99999999999999999999", "NaN", "inf", "-0", "0x10", "1.5",
    "<script>alert(1)</script>", "\"><img src=x onerror=alert(1)>", "{{7*7}}", "%(x)s", "%s%s",
    "../../etc/passwd", "\x00", "\u202e", "é", "𝟙𝟚𝟛", "٣", "１２３", "🙂", "' OR 1=1 --",
    "[" * 60, "[[3,12,8],[2,4,6],[14,5,2]]", "[[1,2],[3,x]]", "4" * 7, "4" * 300, "1" * 42,
    "1212121", "4453", "112233445566", "3", "333333", "true", "None", "fr", "en", "de",
    "custom", "human-ai", "ai-ai", "alphabeta", "minimax", "course", "reverse", "misere",
    "12-2--1---", "1111-2222-1-2-1-2-1", "1212121------", "-------", "--", "plies",
    "adjusted", "threats", "cells", "0,2", "0.2", "10", "10.001", "0.0001", ",5", "5,",
    "colours", "j", "numbers", "alphabeta-tt", "iterative", "1111222",
    "marks", "b2", "c3", "a0", "d1", "5193", "142536", "55", "123456789", "lines",
])


# Near-valid values, from a grammar of what people and scripts type: signs repeated ("--5",
# which once crashed every integer parameter), padding, other digits, decimals, exponents,
# underscores, huge numbers, move strings with a stray character.
SIGN = st.sampled_from(["", "", "-", "+", "--", "---", "+-", "-+", "−", "‐"])
DIGITS = st.one_of(st.from_regex(r"[0-9]{1,12}", fullmatch=True),
                   st.sampled_from(["٣", "１２", "𝟙", "²", "½", "Ⅻ"]))
PAD = st.sampled_from(["", "", " ", "\t", "\n", "\u00a0", "0"])
NEAR_NUMBER = st.builds(lambda a, s, d, tail, b: a + s + d + tail + b, PAD, SIGN, DIGITS,
                        st.sampled_from(["", "", ".0", ".5", "e3", "e999", "_000", "x", "j"]), PAD)
NEAR_MOVES = st.builds(lambda m, c, i: m[:i] + c + m[i:], st.from_regex(r"[1-9]{0,30}", fullmatch=True),
                       st.sampled_from(["", "0", "-", " ", "a", "%", "٣", "\x00"]), st.integers(0, 30))
VALUES = st.one_of(HOSTILE, st.text(max_size=40), st.integers(-10**12, 10**12).map(str),
                   st.from_regex(r"[1-9]{0,42}", fullmatch=True), NEAR_NUMBER, NEAR_MOVES)


def encoded(name: str, value: str, raw: bytes | None) -> str:
    """``name=value`` percent-encoded, or with raw bytes (not UTF-8) or broken escapes."""
    if raw is not None:
        return quote(name) + "=" + quote_from_bytes(raw)
    return urlencode([(name, value)])


ODD_QUERIES = st.sampled_from([
    "n=%", "n=%2", "n=%zz", "n=%C3", "n=%FF%FE", "moves=%00", "k=%2D%2D5", "&&&", "=5", "n==5",
    "n=5&n=--5", "n=--5&n=5", "lang=fr&lang=de", "depth", "%26=1", "n=5#frag", "a%00b=1",
    "moves=4%0A4", "t=%5B%5B1%2C2%5D", "v.R=nan", "v.R=inf", "v.R=-inf", "v.R=1e999",
])


@st.composite
def requests(draw):
    route = draw(st.sampled_from(ROUTES))
    names = draw(st.lists(st.one_of(st.sampled_from(PARAMS), st.text(max_size=8)), max_size=8))
    parts = [encoded(name, draw(VALUES), draw(st.one_of(st.none(), st.binary(max_size=6))))
             for name in names]
    parts += draw(st.lists(ODD_QUERIES, max_size=2))
    headers = {}
    if draw(st.booleans()):
        headers["HX-Request"] = "true"
    if draw(st.booleans()):
        headers["Accept-Language"] = draw(st.sampled_from(["fr", "en-GB,en;q=0.9", "*", "xx", "fr;q=abc"]))
    return route + ("?" + "&".join(parts) if parts else ""), headers


@st.composite
def one_parameter(draw):
    """One route, one of its parameters (repeated sometimes), one near-valid or odd value."""
    route = draw(st.sampled_from(ROUTES[:-3]))
    name = draw(st.sampled_from(PARAMS))
    values = draw(st.lists(st.one_of(NEAR_NUMBER, NEAR_MOVES, HOSTILE, st.text(max_size=12)),
                           min_size=1, max_size=3))
    raw = draw(st.one_of(st.none(), st.binary(min_size=1, max_size=4)))
    query = "&".join(encoded(name, v, raw) for v in values)
    return f"{route}?{query}"


# Issue 22's shapes: url_for's own names as parameters, Host headers that are no host name,
# HEAD on every route (a live stream's included), and bodies for the forms (a class from a
# link that is not a URL, votes and nicknames of every kind).
RESERVED = ["endpoint", "_method", "_external", "_scheme", "_anchor", "_x"]
HOSTS = st.sampled_from([None, None, None, "a" * 64 + ".example", "a" * 63 + ".example",
                         "a..b", ".", "[", "[::1", "[::1]:8000", "localhost:abc", "x" * 300,
                         "xn--", "xn--zz.example", "-a-.b", "a_b.c", "127.0.0.1:99999",
                         "localhost", "é.example", "evil.example", "localhost:0"])
FORM_ROUTES = ["/class", "/c/ZZZZZZ/vote", "/c/ZZZZZZ/name", "/class/ZZZZZZ/vote",
               "/connect4/tournament/live/ZZZZZZ/start", "/connect4/tournament/live/ZZZZZZ/finale",
               "/class/ZZZZZZ/end", "/class/ZZZZZZ/board", "/c/ZZZZZZ/join",
               "/c/ZZZZZZ/heuristic", "/class/ZZZZZZ/heuristic", "/class/plan/start",
               "/class/ZZZZZZ/sync", "/class/ZZZZZZ/exercise", "/c/ZZZZZZ/exercise",
               "/tictactoe/tournament/live/ZZZZZZ/start"]
FORM_VALUES = st.one_of(HOSTILE, st.sampled_from([
    "//[", "http://[::1", "//[x]/connect4", "/connect4?moves=44", "/nim?n=7", "//evil.example/",
    "javascript:alert(1)", "/connect4?moves=44#[", "%", "%ZZ", "/" * 500, "\r\nX: y"]),
    st.text(max_size=30))


@st.composite
def hostile_requests(draw):
    """(method, url, headers, body): ``requests()``'s shapes and issue 22's."""
    url, headers = draw(requests())
    if draw(st.booleans()):
        extra = [encoded(draw(st.sampled_from(RESERVED)), draw(VALUES), None)
                 for _ in range(draw(st.integers(1, 2)))]
        url += ("&" if "?" in url else "?") + "&".join(extra)
    host = draw(HOSTS)
    if host is not None:
        headers = {**headers, "Host": host}
    method, body = draw(st.sampled_from(["GET", "GET", "GET", "HEAD", "POST"])), None
    if method == "POST":
        url = draw(st.sampled_from(FORM_ROUTES))
        fields = draw(st.lists(st.tuples(st.sampled_from(["link", "choice", "name", "key", "col",
                                                          "take", "round", "csrf"]),
                                         FORM_VALUES), max_size=4))
        body = urlencode(fields).encode()
        headers = {**headers, "Content-Type": "application/x-www-form-urlencoded"}
    return method, url, headers, body


def wsgi_status(app, method: str, url: str, headers, body) -> int:
    """The status ``app`` answers to one request, by the app's own WSGI call (the test client
    would read the Host header itself, and a hostile Host is one of the shapes sent)."""
    from werkzeug.test import EnvironBuilder

    path, _, query = url.partition("?")
    environ = EnvironBuilder(path=path, query_string=query, method=method, headers=headers,
                             data=body).get_environ()
    status = []
    answer = app(environ, lambda s, h, exc_info=None: status.append(s))
    try:
        for _ in answer:
            pass
    finally:
        getattr(answer, "close", lambda: None)()
    return int(status[0].split()[0])
