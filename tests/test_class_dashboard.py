"""The teacher's exercise dashboard stays cheap with a big class (issue 37): each answer is
marked once in a worker (``web.classroom.exercise.marked``), as the lab marks it, and a redraw
after one more answer marks that answer alone. Counted in markings, never timed."""
import random
import re
from collections import OrderedDict
from urllib.parse import parse_qsl, urlencode

import pytest

import web.classroom.exercise as exercise
from ai.teach.exercise import check
from web.classroom import views
from web.classroom.answers import answers_of
from web.exercise import COURSE_TREE_TITLES

from test_class_answering import HX, bar
from test_classroom import start_class, student


@pytest.fixture()
def app(make_app):
    return make_app()


@pytest.fixture()
def markings(monkeypatch):
    """A fresh memory of marked answers, and the answers marked (their texts)."""
    monkeypatch.setattr(exercise, "_marked", OrderedDict())
    seen = []
    original = exercise._mark

    def counting(found, answer):
        seen.append(answer)
        return original(found, answer)
    monkeypatch.setattr(exercise, "_mark", counting)
    return seen


def random_answer(found, rnd) -> str:
    """An answer as a student might send it: right, wrong, typed wrong or left blank, nodes
    ticked as pruned (some explored, the root too), wrong tries carried."""
    pairs = []
    for q in found["asked"]:
        roll = rnd.random()
        if q.what == "pruned":
            if roll < 0.6:
                pairs.append(("p", q.name))
        elif roll < 0.5:
            pairs.append((q.key, str(q.answer)))
        elif roll < 0.75:
            pairs.append((q.key, str(rnd.randint(-12, 12))))
        elif roll < 0.85:
            pairs.append((q.key, rnd.choice(["abc", "M", "-inf", "2,5"])))
        if roll > 0.9:
            pairs.append(("w", q.key))
    names = sorted(exercise.name_of(p) for p in found["solved"].paths.values())
    pairs += [("p", rnd.choice(names)) for _ in range(rnd.randint(0, 3))]
    return urlencode(pairs)


LABS = ([urlencode({"ex": ex, "algo": algo}) for ex in COURSE_TREE_TITLES
         for algo in ("alphabeta", "minimax")]
        + [urlencode({"seed": seed, "rd": 4}) for seed in (1, 7, 2024)]
        + [urlencode({"t": "[[3,12,8],[2,4,6],[14,5,2]]", "algo": "minimax"}),
           urlencode({"t": "[[[1,2],[3,4]],[[5,6],[7,8]]]", "root": "min"})])


@pytest.mark.parametrize("lab", LABS)
def test_the_dashboard_marks_every_answer_as_the_lab_does(lab):
    found = exercise.solved(lab)
    rnd = random.Random(lab)
    for _ in range(40):
        text = random_answer(found, rnd)
        report = check(found["solved"], exercise.answer_of(text, found["max_score"]))
        by_key = {m.key: m for m in report.marks}
        mine = exercise._mark(found, exercise.answer_of(text, found["max_score"]))
        assert [by_key[q.key].state[0] for q in found["asked"]] == list(mine.states)
        assert (mine.right, mine.done) == (report.right, report.done)
        wrong = {m.name for m in report.marks if not m.ok}
        assert [found["names"][i] for i in mine.names_right] == [
            n for n in found["names"] if n not in wrong]


def test_an_answer_naming_a_node_the_tree_lacks_is_not_counted():
    lab = urlencode({"ex": "nim4", "algo": "minimax"})
    assert exercise.marked(lab, "v.9.9.9=1") is None
    assert exercise.marked(lab, "p=R.7") is None
    assert exercise.marked(lab, "v.R=" + "1" * 50) is None      # longer than a number
    assert exercise.marked(lab, "v.R=1") is not None


def form_of(text: str) -> dict:
    """An answer's text as the phone's form sends it (with the ``seq`` added)."""
    form = {}
    for k, v in parse_qsl(text):
        form.setdefault(k, []).append(v)
    return form


def send(app, code, text):
    s = student(app, code)
    seq = re.search(r'name="seq" value="(\d+)"', s.get(f"/c/{code}").get_data(as_text=True))
    assert s.post(f"/c/{code}/exercise", data={"seq": seq.group(1), **form_of(text)},
                  headers=HX).status_code == 200


def test_a_redraw_after_one_more_answer_marks_that_answer_alone(app, markings):
    teacher, code, _ = start_class(app, "/nim?n=5&k=3&mode=human-human")
    bar(teacher, code, "exercise", action="start", source="random:4", algo="alphabeta")
    with app.app_context():
        lab = answers_of(views.store()).current(code).data["lab"]
    found, rnd = exercise.solved(lab), random.Random(4)
    for _ in range(12):
        send(app, code, random_answer(found, rnd))
    page = f"/nim?n=5&k=3&mode=human-human&cls={code}&proj=1"
    markings.clear()
    drawn = teacher.get(page).get_data(as_text=True)
    assert "12 answers sent" in re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", drawn))
    assert len(markings) == 12                # each answer once (its first try is its latest)
    assert teacher.get(page).status_code == 200
    assert len(markings) == 12                # the same answers: none marked again
    send(app, code, random_answer(found, rnd))
    assert "13 answers sent" in re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", teacher.get(
        page).get_data(as_text=True)))
    assert len(markings) == 13                # the new answer alone


@pytest.fixture()
def full(monkeypatch):
    """Take every slot of a lane (``full(lane)``) until the test ends; waits made short."""
    import web.admission as admission
    monkeypatch.setattr(admission, "LIGHT_WAIT", 0.01)
    monkeypatch.setattr(admission, "PHONE_WAIT", 0.01)
    taken = []

    def take(lane):
        while lane.acquire(blocking=False):
            taken.append(lane)
    yield take
    for lane in taken:
        lane.release()


def test_a_phone_drawing_an_exercise_tree_takes_the_trees_lane(app, full):
    import web.admission as admission
    teacher, code, _ = start_class(app, "/nim?n=5&k=3&mode=human-human")
    _, other, _ = start_class(app, "/nim?n=5&k=3&mode=human-human")
    phone, still = student(app, code), student(app, other)
    bar(teacher, code, "exercise", action="start", source="random:4", algo="alphabeta")
    seq = re.search(r'name="seq" value="(\d+)"', phone.get(f"/c/{code}").get_data(as_text=True))
    full(admission._trees)
    busy = phone.get(f"/c/{code}")
    assert busy.status_code == 503 and busy.headers["Retry-After"]
    assert "busy" in busy.get_data(as_text=True)
    sent = phone.post(f"/c/{code}/exercise", data={"seq": seq.group(1), "v.R": "1"}, headers=HX)
    assert sent.status_code == 503 and sent.headers["Retry-After"]
    assert still.get(f"/c/{other}").status_code == 200      # no exercise there: not held
    assert app.test_client().get("/").status_code == 200


@pytest.mark.parametrize("path", ["exercise.csv?per=student", "exercise.csv?per=question",
                                  "summary", "summary.csv"])
def test_the_lesson_s_exports_take_the_pages_lane(app, full, path):
    import web.admission as admission
    teacher, code, _ = start_class(app, "/nim?n=5&k=3&mode=human-human")
    bar(teacher, code, "exercise", action="start", source="random:3", algo="alphabeta")
    assert teacher.get(f"/class/{code}/{path}").status_code == 200
    full(admission._pages)
    busy = teacher.get(f"/class/{code}/{path}")
    assert busy.status_code == 503 and busy.headers["Retry-After"]
    assert app.test_client().get("/").status_code == 200
