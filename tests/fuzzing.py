"""Random and hostile requests for every route, shared by the fuzz test (a few hundred in
the suite) and ``bench/fuzz.py`` (10,000 or more, with a report)."""
from urllib.parse import urlencode

from hypothesis import strategies as st

ROUTES = ["/", "/connect4", "/connect4/move", "/connect4/ai", "/connect4/tree",
          "/connect4/tree.svg", "/connect4/compare", "/connect4/peek", "/nim", "/nim/move",
          "/nim/ai", "/nim/tree", "/nim/tree.svg", "/nim/compare", "/nim/peek", "/nim/theory",
          "/tree", "/static/app.css", "/nope"]
PARAMS = ["moves", "at", "col", "take", "mode", "level", "algo", "depth", "time", "heur",
          "window", "order", "w", "h", "n", "k", "variant", "play", "tree", "td", "proj", "path",
          "step", "lang", "t", "root", "check", "p", "v.R", "v.1", "v.2.1"]

HOSTILE = st.sampled_from([
    "", " ", "0", "-1", "1e9", "99999999999999999999", "NaN", "inf", "-0", "0x10", "1.5",
    "<script>alert(1)</script>", "\"><img src=x onerror=alert(1)>", "{{7*7}}", "%(x)s", "%s%s",
    "../../etc/passwd", "\x00", "\u202e", "é", "𝟙𝟚𝟛", "٣", "１２３", "🙂", "' OR 1=1 --",
    "[" * 60, "[[3,12,8],[2,4,6],[14,5,2]]", "[[1,2],[3,x]]", "4" * 7, "4" * 300, "1" * 42,
    "1212121", "4453", "112233445566", "3", "333333", "true", "None", "fr", "en", "de",
    "custom", "human-ai", "ai-ai", "alphabeta", "minimax", "course", "reverse", "misere",
])


@st.composite
def requests(draw):
    route = draw(st.sampled_from(ROUTES))
    names = draw(st.lists(st.one_of(st.sampled_from(PARAMS), st.text(max_size=8)), max_size=8))
    values = st.one_of(HOSTILE, st.text(max_size=40), st.integers(-10**12, 10**12).map(str),
                       st.from_regex(r"[1-9]{0,42}", fullmatch=True))
    query = [(name, draw(values)) for name in names]
    headers = {}
    if draw(st.booleans()):
        headers["HX-Request"] = "true"
    if draw(st.booleans()):
        headers["Accept-Language"] = draw(st.sampled_from(["fr", "en-GB,en;q=0.9", "*", "xx", "fr;q=abc"]))
    return route + ("?" + urlencode(query) if query else ""), headers
