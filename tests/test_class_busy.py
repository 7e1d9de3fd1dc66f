"""A teacher's action refused because the search lanes are full (``web.admission``) says
so: a 503 with Retry-After and the teacher's bar, translated, "the server is busy: try again",
never a 4xx that blames the action (a question "cannot be asked at this step" when the step
can ask it). The lanes are filled by taking their slots, and the refusal is counted where the
lane refused it (``web.ai_move.admitted``), so a test cannot pass without reaching it."""
import collections
import re

import pytest

import web.admission as admission
import web.ai_move
import web.classroom.questions as questions
from test_classroom import start_class, student

HX = {"HX-Request": "true"}

# a replay's first step, with its questions: a custom search (recorded: the heavy lane) on
# Nim, a preset level (the light lane, its tree kept in the recent searches after) on Connect-4
REPLAYS = {
    "nim": "/nim?n=5&k=3&mode=human-human&algo=alphabeta&depth=2&level=custom&tree=1&step=1",
    "connect4": "/connect4?mode=human-ai&moves=44&level=easy&tree=1&step=1",
}


@pytest.fixture()
def refusals(monkeypatch):
    """The Busy raised by the search lanes in this test, counted; no question kept from
    another test's board (``board_questions`` keeps the last boards' questions for the worker),
    waits made short."""
    monkeypatch.setattr(questions, "_cache", collections.OrderedDict())
    monkeypatch.setattr(admission, "LIGHT_WAIT", 0.01)
    monkeypatch.setattr(admission, "HEAVY_WAIT", 0.01)
    return count_refusals(monkeypatch, web.ai_move)


def count_refusals(monkeypatch, module) -> list:
    """The Busy that ``module``'s calls of the lanes (its ``admitted``) raise, listed."""
    refused = []
    original = module.admitted

    def counted(*args, **kwargs):
        try:
            return original(*args, **kwargs)
        except admission.Busy as err:
            refused.append(err)
            raise
    monkeypatch.setattr(module, "admitted", counted)
    return refused


class Full:
    """Every search slot of this worker taken (light and heavy), as by a burst of searches,
    until ``release``."""

    def __init__(self):
        self.taken = []
        for lane, n in ((admission._light, admission.LIGHT_SLOTS),
                        (admission._heavy, admission.HEAVY_SLOTS)):
            for _ in range(n):
                assert lane.acquire(blocking=False)
                self.taken.append(lane)

    def release(self):
        while self.taken:
            self.taken.pop().release()


@pytest.fixture()
def full():
    made = []

    def take():
        made.append(Full())
        return made[-1]
    yield take
    for f in made:
        f.release()


def asks(response):
    """The kinds of question the bar offers to ask."""
    return re.findall(r'name="kind" value="(\w+)"', response.get_data(as_text=True))


def text(html):
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))


@pytest.mark.parametrize("game", list(REPLAYS))
@pytest.mark.parametrize("lang, busy_words", [("en", "busy"), ("fr", "occupé")])
def test_a_question_asked_while_the_search_lanes_are_full_is_a_503_that_says_busy(
        app, refusals, full, game, lang, busy_words):
    teacher, code, _ = start_class(app, REPLAYS[game])
    board = app.extensions["class_store"].get(code).query
    lanes = full()
    asked = teacher.post(f"/class/{code}/ask?lang={lang}", data={"kind": "move"}, headers=HX)
    assert refusals, "the question's search was never refused by its lane"
    body = text(asked.get_data(as_text=True))
    assert asked.status_code == 503, body[:300]
    assert asked.headers["Retry-After"]
    assert busy_words in body
    assert "cannot be asked" not in body and "ne peut pas" not in body
    assert len(refusals) == 1                  # its bar drawn without waiting for the lane again
    assert asks(asked) == ["window", "cut", "value", "move"]   # the bar kept, to try again
    assert app.extensions["class_store"].get(code).query == board      # nothing moved
    lanes.release()
    again = teacher.post(f"/class/{code}/ask", data={"kind": "move"}, headers=HX)
    assert again.status_code == 200                   # the step could ask it all along
    assert "Which move does the search try next" in text(again.get_data(as_text=True))


def test_the_bar_drawn_while_the_lanes_are_full_says_busy_and_offers_every_question(
        app, refusals, full):
    """Drawn while its questions' search finds no slot (any of its redraws: here a setting's
    change), the bar does not drop its questions as if the step had none: it says why, and
    offers all four; an ask then says what it finds."""
    teacher, code, _ = start_class(app, REPLAYS["nim"])
    full()
    shown = teacher.post(f"/class/{code}/peer?lang=fr", data={"action": "hide", "value": "0"},
                         headers=HX)
    assert shown.status_code == 200 and refusals
    assert "Interroger la classe sur la prochaine étape" in text(shown.get_data(as_text=True))
    assert "occupé" in text(shown.get_data(as_text=True))
    assert asks(shown) == ["window", "cut", "value", "move"]


def test_a_plan_s_question_refused_by_a_full_lane_leaves_the_board_and_the_plan_as_they_were(
        app, refusals, full):
    plan = ("vote /nim?n=5&k=3&mode=human-human\n"
            f"ask-move {REPLAYS['nim']}\n")
    teacher = app.test_client()
    started = teacher.post("/class/plan/start", data={"plan": plan})
    code = re.search(r"cls=([A-Z0-9]{6})", started.headers["Location"]).group(1)
    store = app.extensions["class_store"]
    before = store.get(code)
    lanes = full()
    go = teacher.post(f"/class/{code}/plan?lang=fr", data={"action": "go", "item": "1"},
                      headers=HX)
    assert refusals
    assert go.status_code == 503 and go.headers["Retry-After"]
    assert "occupé" in text(go.get_data(as_text=True))
    assert "étape 1 sur 2" in text(go.get_data(as_text=True))       # the plan not moved on
    assert store.get(code).query == before.query                      # nor the board
    lanes.release()
    go = teacher.post(f"/class/{code}/plan", data={"action": "go", "item": "1"}, headers=HX)
    assert go.status_code == 204
    phone = student(app, code).get(f"/c/{code}").get_data(as_text=True)
    assert "Which move does the search try next" in text(phone)      # asked, this time


VOTE = "/nim?n=5&k=3&mode=human-human&algo=alphabeta&depth=2&level=custom"


@pytest.mark.parametrize("path", ["vote", "peer"])
def test_the_ai_s_choice_revealed_while_the_lanes_are_full_is_a_503_that_keeps_the_bar(
        app, refusals, full, path):
    """The vote's reveal (the AI's move; peer instruction's, the exact outcomes too): a 503
    with Retry-After, why in the bar's language, the bar there to press again; nothing
    revealed."""
    teacher, code, _ = start_class(app, VOTE)
    assert teacher.post(f"/class/{code}/peer", data={"action": "hide", "value": "0"},
                        headers=HX).status_code == 200          # the reveal's button shown
    assert teacher.post(f"/class/{code}/vote", data={"action": "open"},
                        headers=HX).status_code == 200
    assert teacher.post(f"/class/{code}/vote", data={"action": "close"},
                        headers=HX).status_code == 200
    lanes = full()
    shown = teacher.post(f"/class/{code}/{path}?lang=fr", data={"action": "reveal"},
                         headers=HX)
    assert refusals
    assert shown.status_code == 503 and shown.headers["Retry-After"]
    assert "occupé" in text(shown.get_data(as_text=True))
    assert 'value="reveal"' in shown.get_data(as_text=True)           # the button, again
    assert not app.extensions["class_store"].get(code).reveal
    lanes.release()
    assert teacher.post(f"/class/{code}/{path}", data={"action": "reveal"},
                        headers=HX).status_code == 200
    assert app.extensions["class_store"].get(code).reveal


def test_a_heuristic_measured_while_the_lanes_are_full_is_a_503_with_its_retry_after(
        app, full, monkeypatch):
    """The workshop's phone (Connect-4): its heuristic's measure refused by the light lane
    is the phone's form again, why in words, as a 503 with when to send it again."""
    import web.connect4.class_workshop as workshop
    refused = count_refusals(monkeypatch, workshop)
    monkeypatch.setattr(admission, "LIGHT_WAIT", 0.01)
    teacher, code, _ = start_class(app)
    assert teacher.post(f"/class/{code}/heuristic", data={"action": "start", "depth": "2"},
                        headers=HX).status_code == 200
    phone = student(app, code)
    seq = re.search(r'name="seq" value="(\d+)"', phone.get(f"/c/{code}").get_data(as_text=True))
    full()
    sent = phone.post(f"/c/{code}/heuristic?lang=fr", data={"seq": seq.group(1), "h": "cells=1"},
                      headers=HX)
    assert refused
    assert sent.status_code == 503 and sent.headers["Retry-After"] == "2"
    assert "occupé" in text(sent.get_data(as_text=True))
