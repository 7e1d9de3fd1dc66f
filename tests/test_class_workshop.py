"""The heuristic workshop in class mode (issue 38, ``web.connect4.class_workshop``), through
Flask's test client on both stores (SQLite, then a real redis-server): the teacher sends
"build your heuristic" at a depth to every phone; a student's heuristic is checked by the
parser (a wrong one is a clear 400 on the phone, the text kept), measured at the class's
depth and kept, the latest replacing the one before; the teacher's bar lists them (names,
accuracy), ``class_heuristics`` hands them on for the tournament, and the CSV exports them
as cells a spreadsheet does not run. Only the teacher sends or exports."""
import csv
import io
import re

import pytest

from ai.games.connect4 import accuracy
from ai.games.connect4.tournament import MAX_NAME, Entrant
from web.connect4.class_workshop import class_heuristics

from test_browser_class import contexts  # noqa: F401  (a fixture)
from test_class_answering import HX, bar, text
from test_classroom import start_class, student


@pytest.fixture()
def app(make_app):
    return make_app()


def phone_seq(s, code):
    phone = s.get(f"/c/{code}").get_data(as_text=True)
    return re.search(r'name="seq" value="(\d+)"', phone).group(1), phone


def test_the_class_builds_heuristics_the_teacher_sees_them_and_exports_them(app):
    teacher, code, _ = start_class(app)
    board = text(teacher.get(f"/connect4?mode=human-human&cls={code}&proj=1")
                 .get_data(as_text=True))
    assert "build your heuristic" in board                # the teacher's way to send it
    sent = text(bar(teacher, code, "heuristic", action="start", depth="2"))
    assert "Build your heuristic, depth 2" in sent and "0 heuristics received" in sent
    a, b, c = student(app, code), student(app, code), student(app, code)
    b.post(f"/c/{code}/name", data={"name": "=Zoé:1"}, headers=HX)
    seq, phone = phone_seq(a, code)
    assert "Build your heuristic" in phone and "Depth 2" in text(phone)
    assert f"/connect4/workshop?h=cells%3D1&amp;depth=2&amp;cls={code}" in phone

    r = a.post(f"/c/{code}/heuristic", data={"seq": seq, "h": "cells=1"}, headers=HX)
    assert r.status_code == 200
    want = accuracy.measure("cells=1", 2)
    assert "Sent: cells=1" in text(r.get_data(as_text=True))
    # sent again: the latest replaces it
    r = a.post(f"/c/{code}/heuristic", data={"seq": seq, "h": " open3=8, cells=1 "},
               headers=HX)
    assert "Sent: cells=1,open3=8" in text(r.get_data(as_text=True))
    assert b.post(f"/c/{code}/heuristic", data={"seq": seq, "h": "center=3"},
                  headers=HX).status_code == 200
    # a wrong text: a 400 in place, said in words, the text kept to correct it
    bad = c.post(f"/c/{code}/heuristic", data={"seq": seq, "h": "open4=2"}, headers=HX)
    page = bad.get_data(as_text=True)
    assert bad.status_code == 400 and "name=weight" in text(page) and 'value="open4=2"' in page
    long = c.post(f"/c/{code}/heuristic", data={"seq": seq, "h": "cells=1," * 40}, headers=HX)
    assert long.status_code == 400 and "too long" in text(long.get_data(as_text=True))

    board = text(teacher.get(f"/connect4?mode=human-human&cls={code}&proj=1")
                 .get_data(as_text=True))
    assert "2 heuristics received" in board
    assert "S01 cells=1,open3=8" in board and "=Zoé1 center=3" in board

    found = class_heuristics(app.extensions["class_store"], code)
    assert [(s.name, s.heuristic, s.depth, s.sent) for s in found] == [
        ("S01", "cells=1,open3=8", 2, 2), ("=Zoé1", "center=3", 2, 1)]
    assert found[0].accuracy == accuracy.measure("cells=1,open3=8", 2).accuracy
    assert found[1].blunders == accuracy.measure("center=3", 2).blunders
    assert want.accuracy != found[0].accuracy or want.blunders != found[0].blunders
    assert [Entrant(s.name, s.heuristic).name for s in found] == ["S01", "=Zoé1"]

    rows = list(csv.reader(io.StringIO(teacher.get(f"/class/{code}/heuristics.csv")
                                       .get_data(as_text=True).lstrip("\ufeff"))))
    assert rows[0][:4] == ["student", "heuristic", "depth", "accuracy"]
    assert [r[:3] for r in rows[1:]] == [["S01", "cells=1,open3=8", "2"],
                                        ["'=Zoé1", "center=3", "2"]]     # not a formula
    # closed: no more heuristics; the list stays
    bar(teacher, code, "heuristic", action="close")
    late = c.post(f"/c/{code}/heuristic", data={"seq": seq, "h": "cells=1"}, headers=HX)
    assert late.status_code == 400
    bar(teacher, code, "heuristic", action="end")
    assert len(class_heuristics(app.extensions["class_store"], code)) == 2
    bar(teacher, code, "end")                                # after the class: the CSV still
    assert teacher.get(f"/class/{code}/heuristics.csv").status_code == 200


def test_a_heuristic_sent_from_the_workshop_reaches_the_class(app):
    teacher, code, _ = start_class(app)
    bar(teacher, code, "heuristic", action="start", depth="3")
    s = student(app, code)
    page = s.get(f"/connect4/workshop?h=cells=1,open3=8&depth=3&cls={code}")
    html = page.get_data(as_text=True)
    assert page.status_code == 200 and f'action="/c/{code}/heuristic"' in html
    assert 'id="ws-depth"' not in html                       # the class's depth is fixed
    assert f"cls={code}" in re.search(r'data-key="ws-open3-plus" href="([^"]+)"', html).group(1)
    sent = s.post(f"/c/{code}/heuristic", data={"h": "cells=1,open3=8"})
    assert sent.status_code == 303 and sent.headers["Location"].endswith(f"/c/{code}")
    (found,) = class_heuristics(app.extensions["class_store"], code)
    assert (found.heuristic, found.depth) == ("cells=1,open3=8", 3)
    assert s.get("/connect4/workshop?cls=nope").status_code == 400


def test_only_the_teacher_sends_it_or_exports_and_no_heuristic_without_it(app):
    teacher, code, _ = start_class(app)
    s = student(app, code)
    assert s.post(f"/c/{code}/heuristic", data={"h": "cells=1"}, headers=HX).status_code == 400
    assert teacher.post(f"/class/{code}/heuristic", data={"action": "close"},
                        headers=HX).status_code == 409
    assert s.post(f"/class/{code}/heuristic", data={"action": "start"},
                  headers=HX).status_code == 403
    assert s.get(f"/class/{code}/heuristics.csv").status_code == 403
    assert teacher.post(f"/class/{code}/heuristic", data={"action": "start", "depth": "9"},
                        headers=HX).status_code == 400
    assert class_heuristics(app.extensions["class_store"], code) == []


def test_names_are_unique_and_fit_a_tournament_entrant():
    from web.connect4.class_workshop import Submitted, named
    found = [Submitted(v, "", "cells=1", 4, 0.5, 1, 240, 1) for v in "abcd"]
    names = {"a": "Ada", "b": "ada", "c": "x" * 24 + ":y", "d": "\x07"}
    assert [s.name for s in named(found, names)] == ["Ada", "ada (2)", "x" * 24 + "y", "S04"]
    assert all(len(s.name) <= MAX_NAME for s in named(found, names))


@pytest.mark.browser
def test_rehearsal_two_phones_build_heuristics_the_projector_lists_them(
        contexts, live_server, artifacts):  # noqa: F811
    """In Chromium against gunicorn: the teacher (projector) sends "build your heuristic" at
    depth 4; one phone (French) opens the workshop, adds open-3 windows and sends from there,
    the other types one, wrong then right; both reach the projector with their accuracy."""
    from playwright.sync_api import expect
    from test_browser_class import PHONE, PROJECTOR, join, start_class
    teacher = contexts(PROJECTOR)
    code = start_class(teacher, live_server + "/connect4?mode=human-human")
    zoe, malik = (contexts(PHONE, is_mobile=True, has_touch=True, locale="fr-FR")
                  for _ in range(2))
    for phone, nick in ((zoe, "Zoé"), (malik, "Malik")):
        join(phone, live_server, code)
        phone.fill("#nickname-field", nick)
        phone.locator("form.nickname button").click()
        expect(phone.locator("#class-name")).to_contain_text(nick)
    start = teacher.locator("details.workshop-start")
    start.locator("summary").click()
    start.locator("select[name=depth]").select_option("4")
    start.locator("button[value=start]").click()
    expect(teacher.locator(".class-workshop")).to_contain_text("0 heuristics received")

    expect(zoe.locator(".phone-workshop")).to_be_visible()
    zoe.locator(".phone-workshop a.button.primary").click()
    expect(zoe.locator(".ws-send")).to_be_visible()
    zoe.locator('[data-key="ws-open3-plus"]').click()
    expect(zoe.locator(".ws-choice")).to_contain_text("open3 = 4")
    zoe.locator('[data-key="ws-open3-plus"]').click()
    expect(zoe.locator(".ws-choice")).to_contain_text("open3 = 8")
    zoe.locator("form.ws-send button").click()
    expect(zoe.locator(".phone-workshop .voted")).to_contain_text("cells=1,open3=8")
    assert zoe.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]

    malik.fill("#class-h", "cells=1,open4=3")
    malik.locator(".heuristic-form button").click()
    expect(malik.locator(".phone-workshop .error")).to_contain_text("nom=poids")
    malik.fill("#class-h", "center=3,threats=2")
    malik.locator(".heuristic-form button").click()
    expect(malik.locator(".phone-workshop .voted")).to_contain_text("center=3,threats=2")

    rows = teacher.locator(".class-heuristics tbody tr")
    expect(rows).to_have_count(2)
    want = {"Zoé": accuracy.measure("cells=1,open3=8", 4),
            "Malik": accuracy.measure("center=3,threats=2", 4)}
    for name, report in want.items():
        row = teacher.locator(".class-heuristics tbody tr", has_text=name)
        expect(row).to_contain_text(f"{report.accuracy * 100:.1f} %")
    teacher.screenshot(path=str(artifacts / "class-workshop-projector.png"))
