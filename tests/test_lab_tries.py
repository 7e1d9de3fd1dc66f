"""The lab remembers a browser's wrong tries on an exercise (a cookie), not only in its link:
a link reworded without them (``w=`` dropped) never scores a question answered wrong before
as right "the first time" (issue 36: "14 of 14 at the first try" from a reworded URL)."""
import re

BASE = {"mode": "exercise", "t": "[[3,12,8],[2,4,6],[14,5,2]]", "check": "1"}
RIGHT = {"v.R": "3", "a.R": "-inf", "b.R": "inf", "v.1": "3", "a.1": "-inf", "b.1": "inf",
         "v.2": "2", "a.2": "3", "b.2": "inf", "v.3": "2", "a.3": "3", "b.3": "inf"}
PRUNED = [("p", "2.2"), ("p", "2.3")]


def score(response):
    found = re.search(r"Score: (\d+) of (\d+) right the first time", response.get_data(as_text=True))
    return found and (int(found.group(1)), int(found.group(2)))


def query(answer, extra=()):
    return list({**BASE, **answer}.items()) + PRUNED + list(extra)


def test_a_reworded_link_keeps_the_wrong_tries_this_browser_made(client):
    assert score(client.get("/tree", query_string=query(RIGHT))) == (14, 14)   # a fresh start
    wrong = client.get("/tree", query_string=query({**RIGHT, "v.2": "4"}))
    assert wrong.status_code == 200 and score(wrong) is None
    # the right answer from a link without w=: the wrong try at v.2 still counts
    assert score(client.get("/tree", query_string=query(RIGHT))) == (13, 14)


def test_another_browser_or_another_tree_starts_afresh(app, client):
    client.get("/tree", query_string=query({**RIGHT, "v.2": "4"}))
    other = app.test_client()
    assert score(other.get("/tree", query_string=query(RIGHT))) == (14, 14)
    minimax = {k: v for k, v in RIGHT.items() if k.startswith("v.")}
    shown = client.get("/tree", query_string=list({**BASE, "algo": "minimax", **minimax}.items()))
    assert score(shown) == (4, 4)


def test_a_broken_cookie_is_no_error(client):
    client.set_cookie("lab_tries", "{not json")
    assert score(client.get("/tree", query_string=query(RIGHT))) == (14, 14)
    client.set_cookie("lab_tries", '{"x": [1, 2], "y": {"v.2": "z"}}')
    assert client.get("/tree", query_string=query(RIGHT)).status_code == 200
