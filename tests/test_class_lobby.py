"""The join screen (the lobby) as the server draws it: open at the top of the teacher's page
while the class has not started; a teacher who asks the class something has started, so the
first vote, question or exercise folds it away, and the class's live part says so
(``data-class-started``: static/app.js closes the join screen when it arrives). Its
behaviour in a browser: tests/test_browser_class_lobby.py."""
import re

import pytest

from test_class_answering import bar
from test_classroom import start_class

HX = {"HX-Request": "true"}
REPLAY = ("/nim?n=5&k=3&mode=human-human&algo=alphabeta&depth=2&level=custom&tree=1"
          "&notation=course&window=course&step=1")


@pytest.fixture()
def app(make_app):
    return make_app()


def lobby_open(teacher, link, code) -> bool:
    html = teacher.get(f"{link}&cls={code}&proj=1").get_data(as_text=True)
    return bool(re.search(r'<dialog class="lobby" id="class-lobby"[^>]* open>', html))


def test_a_class_not_started_opens_on_its_join_screen(app):
    teacher, code, _ = start_class(app, REPLAY)
    assert lobby_open(teacher, REPLAY, code)
    html = teacher.get(f"{REPLAY}&cls={code}&proj=1").get_data(as_text=True)
    assert "data-class-started" not in html


def test_the_first_question_folds_the_join_screen_away(app):
    teacher, code, _ = start_class(app, REPLAY)
    asked = bar(teacher, code, "ask", kind="window")
    assert "data-class-started" in asked          # the live part the teacher's page swaps in
    assert not lobby_open(teacher, REPLAY, code)


def test_the_first_vote_folds_the_join_screen_away(app):
    link = "/connect4?mode=human-human"
    teacher, code, _ = start_class(app, link)
    assert lobby_open(teacher, link, code)
    opened = teacher.post(f"/class/{code}/vote", data={"action": "open"}, headers=HX)
    assert opened.status_code == 200 and "data-class-started" in opened.get_data(as_text=True)
    assert not lobby_open(teacher, link, code)


def test_the_first_exercise_folds_the_join_screen_away(app):
    link = "/connect4?mode=human-human"
    teacher, code, _ = start_class(app, link)
    started = bar(teacher, code, "exercise", action="start", source="random:4", algo="alphabeta")
    assert "data-class-started" in started
    assert not lobby_open(teacher, link, code)
