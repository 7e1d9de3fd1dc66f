"""A class game's review on the phones (issue 25), through Flask's test client on both stores
(SQLite, then a real redis-server): the teacher shows the review of the finished game, the
phones then show it, the move the teacher selects on the projector's review is the one the
phones explain; only the teacher can show it; bad input is a clear 4xx.

The game: Nim, 5 matches, take at most 3. The first player takes 2 (leaving 3, a losing
move: 1 kept the win, leaving 4, a multiple of k+1), the second takes 1 (leaving 2: taking
all 3 won), then 1 and the last 1."""
import re

import pytest

from test_classroom import Stream, start_class, student

HX = {"HX-Request": "true"}
LINK = "/nim?n=5&k=3&mode=human-human&moves=2111"


@pytest.fixture()
def app(make_app):
    return make_app()


def text(html):
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))


def show(teacher, code, query=""):
    r = teacher.post(f"/class/{code}/review{query}", data={"action": "show"}, headers=HX)
    assert r.status_code == 204, r.get_data(as_text=True)[:300]
    return r.headers["HX-Redirect"]


def test_the_teacher_shows_the_review_and_the_phones_follow_the_selected_move(app):
    teacher, code, _ = start_class(app, LINK)
    phone = student(app, code)
    board = teacher.get(f"{LINK}&cls={code}").get_data(as_text=True)
    assert "Show the review to the class" in board
    before = text(phone.get(f"/c/{code}").get_data(as_text=True))
    assert "The teacher shows the review" not in before

    review = show(teacher, code, "?proj=1")            # from the projector
    assert review.startswith("/nim/review?") and f"cls={code}" in review and "proj=1" in review
    html = phone.get(f"/c/{code}").get_data(as_text=True)
    links = re.findall(r'href="(/nim/review[^"]*)"', html)
    assert links and not any("cls=" in u or "proj=" in u for u in links)   # ordinary pages
    page = text(html)
    assert "The teacher shows the review of the game" in page
    assert "Accuracy" in page and "blunder" in page            # the summary, the marks
    assert "Choose a move in the graph or the list" in page     # no move selected yet
    assert "The review is shown on the students' phones" in text(
        teacher.get(f"{LINK}&cls={code}").get_data(as_text=True))

    projector = teacher.get(review + "&ply=1")                  # the teacher clicks move 1
    assert projector.status_code == 200
    assert "Shown on the students" in projector.get_data(as_text=True)
    assert f"cls={code}" in re.search(r'href="([^"]*ply=2[^"]*)"',
                                      projector.get_data(as_text=True)).group(1)
    page = text(phone.get(f"/c/{code}").get_data(as_text=True))
    assert "Move 1" in page and "The move that kept the value: 1" in page

    teacher.get(review + "&ply=2")
    page = text(phone.get(f"/c/{code}").get_data(as_text=True))
    assert "Move 2" in page and "The move that kept the value: 3" in page

    hidden = teacher.post(f"/class/{code}/review", data={"action": "hide"}, headers=HX)
    assert hidden.status_code == 200 and "Show the review to the class" in hidden.text
    assert "The teacher shows the review" not in phone.get(f"/c/{code}").get_data(as_text=True)


def test_the_phones_stream_gets_the_review_and_each_selection(app):
    teacher, code, _ = start_class(app, LINK)
    phone = student(app, code)
    stream = Stream(phone, f"/c/{code}/events")
    try:
        stream.event("board")
        review = show(teacher, code)
        got = stream.event("vote", where=lambda d: "review-table" in d)
        assert "Choose a move in the graph" in got
        teacher.get(review + "&ply=2")
        # (waiting for the selection itself: the review may come again before it, unselected,
        # when this worker's listener first looks at the store late, on a busy machine)
        got = stream.event("vote", where=lambda d: "review-table" in d
                           and "Choose a move in the graph" not in text(d))
        assert "The move that kept the value: 3" in text(got)
    finally:
        stream.close()


def test_only_the_teacher_shows_the_review_and_selects(app):
    teacher, code, _ = start_class(app, LINK)
    phone = student(app, code)
    r = phone.post(f"/class/{code}/review", data={"action": "show"}, headers=HX)
    assert r.status_code == 403
    assert "The teacher shows the review" not in phone.get(f"/c/{code}").get_data(as_text=True)
    review = show(teacher, code)
    phone.get(review + "&ply=2")          # a student opening the link selects nothing
    page = text(phone.get(f"/c/{code}").get_data(as_text=True))
    assert "Choose a move in the graph" in page and "Move 2 :" not in page
    other = app.test_client()             # nor a cross-site request with the teacher's cookie
    teacher.get(review + "&ply=1", headers={"Sec-Fetch-Site": "cross-site"})
    assert "Choose a move in the graph" in text(phone.get(f"/c/{code}").get_data(as_text=True))
    assert other.get(f"/c/{code}").status_code == 200


def test_bad_requests_are_translated_4xx(app):
    teacher, code, _ = start_class(app, "/nim?n=5&k=3&mode=human-human&moves=21")
    r = teacher.post(f"/class/{code}/review?lang=fr", data={"action": "show"}, headers=HX)
    assert r.status_code == 400 and "pas finie" in r.get_data(as_text=True)
    assert "Show the review to the class" not in teacher.get(
        f"/nim?n=5&k=3&mode=human-human&moves=21&cls={code}").get_data(as_text=True)
    r = teacher.post(f"/class/{code}/review", data={"action": "dance"}, headers=HX)
    assert r.status_code == 400
    assert teacher.post("/class/ZZZZZZ/review", data={"action": "show"}).status_code == 404


def test_the_review_stops_when_the_board_moves_on(app):
    teacher, code, _ = start_class(app, LINK)
    phone = student(app, code)
    show(teacher, code)
    assert "The teacher shows the review" in phone.get(f"/c/{code}").get_data(as_text=True)
    assert teacher.post(f"/class/{code}/sync",
                        data={"link": "/nim?n=5&k=3&mode=human-human&moves=211"}
                        ).status_code == 204
    assert "The teacher shows the review" not in phone.get(f"/c/{code}").get_data(as_text=True)
